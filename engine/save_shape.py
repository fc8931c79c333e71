"""The one shape of a saved state: `to_json` / `from_json` of every game, written once.

A game lists its saved fields in order, each with how it is written and read (`Codec`):

    SAVE = (("dealer", PLAIN), ("deck", CARDS), ("hands", CARD_LISTS), ...)
    state.to_json()  ->  save_json(state, "hit-me", SAVE)
    cls.from_json(d) ->  cls(config=Config.from_json(d["config"]), **load_fields(d, SAVE))

A save is `{"game": ..., "config": ..., <the fields in order>, "events": [...]}`. Reading one
builds the pieces only: the game checks the whole save first (its `check_save`) and refuses
a forged one.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from enum import Enum
from typing import Any, ClassVar, NamedTuple

from engine.cards import card_from_json, card_to_json
from engine.errors import IllegalActionError, Reason
from engine.events import Event


class Codec(NamedTuple):
    """How one saved field is written (`dump`) and read back (`load`)."""

    dump: Callable[[Any], Any]
    load: Callable[[Any], Any]


PLAIN = Codec(lambda v: v, lambda v: v)
LIST = Codec(list, list)
CARDS = Codec(lambda cs: [card_to_json(c) for c in cs],
              lambda xs: [card_from_json(x) for x in xs])
MAYBE_CARDS = Codec(lambda cs: [card_to_json(c) if c else None for c in cs],
                    lambda xs: [card_from_json(x) if x else None for x in xs])
CARD_LISTS = Codec(lambda ls: [[card_to_json(c) for c in cs] for cs in ls],
                   lambda ls: [[card_from_json(x) for x in xs] for xs in ls])
DICTS = Codec(lambda ds: [dict(d) for d in ds], lambda ds: [dict(d) for d in ds])
CARD_AMOUNTS = Codec(lambda ps: [[card_to_json(c), v] for c, v in ps],
                     lambda ps: [(card_from_json(x), v) for x, v in ps])


def enum_or_none(kind: type[Enum]) -> Codec:
    """An Enum member saved as its value (None stays None)."""
    return Codec(lambda e: e.value if e else None, lambda v: kind(v) if v else None)


Fields = Sequence[tuple[str, Codec]]


def save_json(state: Any, game: str, fields: Fields, optional: Fields = ()) -> dict[str, Any]:
    """The whole state (hidden cards included) as JSON-ready data, for saving. An `optional`
    field is written only when it is not None."""
    out: dict[str, Any] = {"game": game, "config": state.config.to_json()}
    for name, codec in fields:
        out[name] = codec.dump(getattr(state, name))
    for name, codec in optional:
        value = getattr(state, name)
        if value is not None:
            out[name] = codec.dump(value)
    out["events"] = [e.to_json() for e in state.events]
    return out


def load_fields(d: dict[str, Any], fields: Fields, optional: Fields = ()) -> dict[str, Any]:
    """The constructor's arguments (config aside) from a save already checked (an optional
    field left out stays at its default)."""
    kw = {name: codec.load(d[name]) for name, codec in fields}
    for name, codec in optional:
        if name in d:
            kw[name] = codec.load(d[name])
    kw["events"] = [Event.from_json(e) for e in d["events"]]
    return kw


class StateShape:
    """What every game's state shares, written once: `observation(seat)`, `to_json()`,
    `from_json()`, `clone()` and the version a lazy observation checks. A state class sets
    GAME (its registry name), SAVE (its saved fields), CONFIG (its config class) and
    OBSERVATION (its observation class), and has `check_save(d)` (refuses a forged save: the
    checks are in the game's own module), `config`, `players`, `events` (one event at least a
    move) and `_log` (the log as kept: Hit Me keeps compact records and makes its Events when
    `events` is read)."""

    GAME: ClassVar[str]
    SAVE: ClassVar[Fields]
    OPTIONAL: ClassVar[Fields] = ()  # saved only when not None (engine.save_shape.save_json)
    CONFIG: ClassVar[type]
    OBSERVATION: ClassVar[type]

    @property
    def players(self) -> int:
        return self.config.players

    def observation(self, viewer: int | None, reveal: bool = False,
                    events: bool = True) -> Any:
        """What `viewer` (None: a spectator) may see now: a frozen, typed, lazy observation
        (engine.observation; `obs["seats"]` and `obs.seats` both work, `obs.to_dict()` is the
        plain dict). `reveal` shows everything (a teacher's walkthrough); `events=False`
        leaves out the event log (computer players do not read it)."""
        if viewer is not None and (type(viewer) is not int
                                   or not 0 <= viewer < self.config.players):
            raise IllegalActionError(Reason.NO_SUCH_PLAYER, seat=viewer)
        return self.OBSERVATION(self, viewer, reveal, events)

    def _version(self) -> int:
        """Changes with every move (each move logs an event): a lazy observation's check."""
        return len(self._log)

    def to_json(self) -> dict[str, Any]:
        """The whole state (hidden cards included) as JSON-ready data, for saving."""
        return save_json(self, self.GAME, self.SAVE, self.OPTIONAL)

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Any:
        """A state from a save; a forged one is refused with ConfigError (`check_save`)."""
        cls.check_save(d)  # refuses a forged save, builds nothing
        return cls(config=cls.CONFIG.from_json(d["config"]),
                   **load_fields(d, cls.SAVE, cls.OPTIONAL))

    @classmethod
    def check_save(cls, d: Any) -> None:
        """Refuse (ConfigError) a save that play by the rules cannot reach."""
        raise NotImplementedError

    def clone(self) -> Any:
        return copy.deepcopy(self)
