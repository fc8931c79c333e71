"""The games a room can hold: how a state is saved, loaded (strictly) and read, and moves as JSON.

The store itself never looks inside a state; it asks the room's `GameKind` to load the saved
JSON (the engine's strict `from_json`, which refuses a forged or damaged save), whose turn it
is, and whether play is over. Moves go to the move log as small JSON objects
(`{"move": "hit"}`, `{"move": "play", "card": "KS", "sign": -1}`) and can be read back.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.cards import card_from_json, card_to_json
from engine.errors import IllegalActionError, Reason
from engine.flapjack import FlapjackState, Play
from engine.hit_me import ChooseAce, Hit, HitMeGame, HitMeRound, Hold, Reveal


@dataclass(frozen=True)
class GameKind:
    """One kind of room state: its loader and how to read whose turn it is and whether it ended."""

    name: str
    load: Callable[[dict[str, Any]], Any]
    current: Callable[[Any], int | None]
    over: Callable[[Any], bool]


def _round_of(state: Any) -> Any:
    return state.round if isinstance(state, HitMeGame) else state


GAMES: dict[str, GameKind] = {
    # A game of Hit Me rounds: it never ends by itself (the host deals again or closes the room).
    "hit-me": GameKind("hit-me", HitMeGame.from_json,
                       lambda s: s.round.current, lambda s: False),
    "hit-me-round": GameKind("hit-me-round", HitMeRound.from_json,
                             lambda s: s.current, lambda s: s.over),
    "flapjack": GameKind("flapjack", FlapjackState.from_json,
                         lambda s: s.current, lambda s: s.over),
}


def game_kind(state: Any) -> str:
    """The `GAMES` name of an engine state object."""
    if isinstance(state, HitMeGame):
        return "hit-me"
    if isinstance(state, HitMeRound):
        return "hit-me-round"
    if isinstance(state, FlapjackState):
        return "flapjack"
    raise TypeError(f"a room holds a HitMeGame, HitMeRound or FlapjackState, not {state!r}")


def action_to_json(action: Any) -> dict[str, Any]:
    """An engine move as the move log writes it."""
    if isinstance(action, Hit):
        return {"move": "hit"}
    if isinstance(action, Hold):
        return {"move": "hold"}
    if isinstance(action, Reveal):
        return {"move": "reveal"}
    if isinstance(action, ChooseAce):
        return {"move": "ace", "card": card_to_json(action.card), "high": bool(action.high)}
    if isinstance(action, Play):
        return {"move": "play", "card": card_to_json(action.card), "sign": int(action.sign)}
    raise TypeError(f"not an engine move: {action!r}")


def action_from_json(d: Any) -> Any:
    """A logged move back as an engine move; anything else is refused with IllegalActionError."""
    if not isinstance(d, dict) or not isinstance(d.get("move"), str):
        raise IllegalActionError(Reason.NOT_AN_ACTION, action=d)
    kind, fields = d["move"], set(d) - {"move"}
    try:
        if kind == "hit" and not fields:
            return Hit()
        if kind == "hold" and not fields:
            return Hold()
        if kind == "reveal" and not fields:
            return Reveal()
        if kind == "ace" and fields == {"card", "high"} and type(d["high"]) is bool:
            return ChooseAce(card_from_json(d["card"]), d["high"])
        if kind == "play" and fields == {"card", "sign"} and d["sign"] in (1, -1) \
                and type(d["sign"]) is int:
            return Play(card_from_json(d["card"]), d["sign"])
    except ValueError as e:  # ConfigError from card_from_json
        raise IllegalActionError(Reason.NOT_AN_ACTION, action=d, error=str(e)) from e
    raise IllegalActionError(Reason.NOT_AN_ACTION, action=d)


def apply_move(action: Any) -> Callable[[Any, int], Any]:
    """The callable the store runs for one engine move by `seat`: `apply_action` on the state
    (on a Hit Me game, on its round in play)."""

    def run(state: Any, seat: int) -> Any:
        _round_of(state).apply_action(action, seat)
        return state

    return run


def next_round(state: Any, seat: int) -> Any:
    """The callable that deals the next round of a Hit Me game (refused until the round ends)."""
    if not isinstance(state, HitMeGame):
        raise IllegalActionError(Reason.NOT_AN_ACTION, action="next round", game="flapjack")
    state.next_round()
    return state
