"""The games a room can hold, read from the engine's one registry (engine/games.py), and the
move log's entries.

A room holds one engine state. For a game played deal after deal (Hit Me: its registry entry
has a series, `HitMeGame`) the room holds the series under the game's name ("hit-me"), or one
deal under "<name>-round" ("hit-me-round"); any other game (Flapjack) holds its state under
its name. The store never looks inside a state: it asks the room's `GameKind` to load the saved
JSON (the engine's strict `from_json`, which refuses a forged or damaged save), whose turn it is
and whether play is over.

Moves go to the move log as the engine writes actions (`action.to_json()`: `{"kind": "hit"}`,
`{"kind": "play", "key": "KS", "sign": -1}`), and a room's own steps as `{"kind":
"next-round"}` and `{"kind": "change"}`. Logs written before in the older form (`{"move":
"hit"}`, `{"move": "play", "card": "KS", "sign": -1}`) read back as the same entries
(`log_entry`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.errors import IllegalActionError, Reason
from engine.games import GAMES as ENGINE_GAMES
from engine.games import read_action

NEXT_ROUND: dict[str, Any] = {"kind": "next-round"}  # a Hit Me game deals its next round
CHANGE: dict[str, Any] = {"kind": "change"}  # any other change a caller makes (no action)
ROOM_STEPS = ("next-round", "change")


@dataclass(frozen=True)
class GameKind:
    """One kind of room state: its loader and how to read whose turn it is and whether its
    play is finished (no seat is to play: a single Hit Me round's Reveal is the teacher's,
    `ClassAdmin.class_reveal`)."""

    name: str
    state_type: type
    load: Callable[[dict[str, Any]], Any]
    current: Callable[[Any], int | None]
    finished: Callable[[Any], bool]  # no seat plays any more: the room's play is finished


def _kinds() -> dict[str, GameKind]:
    out: dict[str, GameKind] = {}
    for name, gt in ENGINE_GAMES.items():
        deal = gt.state_type
        if gt.series_type is not None:
            # a series never ends by itself (the host deals again or closes the room)
            out[name] = GameKind(name, gt.series_type, gt.series_type.from_json,
                                 lambda s: s.round.current_player, lambda s: False)
            name = f"{name}-round"
        out[name] = GameKind(name, deal, deal.from_json, lambda s: s.current_player,
                             lambda s: s.current_player is None)
    return out


GAMES: dict[str, GameKind] = _kinds()


def game_kind(state: Any) -> str:
    """The `GAMES` name of an engine state object."""
    for name, kind in GAMES.items():
        if type(state) is kind.state_type:
            return name
    kinds = ", ".join(k.state_type.__name__ for k in GAMES.values())
    raise TypeError(f"a room holds one of {kinds}, not {state!r}")


_SERIES = tuple(gt.series_type for gt in ENGINE_GAMES.values() if gt.series_type is not None)


def deal_in_play(state: Any) -> Any:
    """The deal being played: a series' current round (Hit Me's `HitMeGame.round`), else the
    state itself (one deal)."""
    return state.round if isinstance(state, _SERIES) else state


def action_to_json(action: Any) -> dict[str, Any]:
    """An engine move as the move log writes it: the engine's own JSON."""
    to_json = getattr(action, "to_json", None)
    if to_json is None or type(action).__module__.split(".")[0] != "engine":
        raise TypeError(f"not an engine move: {action!r}")
    return to_json()


# The older form of the log: its kind was "move" and a card was "card".
_OLD_KEYS = {"move": "kind", "card": "key"}


def log_entry(d: Any) -> Any:
    """A move log entry as written now: an entry of the older form (`{"move": ...}`, its card
    as "card") is given in the engine's form; anything else is given back as it is."""
    if isinstance(d, dict) and "move" in d and "kind" not in d:
        return {_OLD_KEYS.get(k, k): v for k, v in d.items()}
    return d


def action_from_json(d: Any) -> Any:
    """A logged move back as an engine move (either form); anything else is refused with
    IllegalActionError(NOT_AN_ACTION)."""
    if isinstance(d, dict) and "move" in d and "kind" in d:
        raise IllegalActionError(Reason.NOT_AN_ACTION, action=repr(d))
    return read_action(log_entry(d))


def apply_move(action: Any) -> Callable[[Any, int], Any]:
    """The callable the store runs for one engine move by `seat`: `apply_action` on the state
    (on a Hit Me game, on its round in play)."""

    def run(state: Any, seat: int) -> Any:
        deal_in_play(state).apply_action(action, seat)
        return state

    return run


def next_round(state: Any, seat: int) -> Any:
    """The callable that deals the next round of a series (a Hit Me game; refused until the
    round ends, and for a game of one deal)."""
    if not isinstance(state, _SERIES):
        raise IllegalActionError(Reason.NOT_AN_ACTION, action="next round",
                                 game=game_kind(state))
    state.next_round()
    return state
