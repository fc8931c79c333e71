"""What one seat may see: a frozen, typed, lazy observation (the same core fields in every game).

`state.observation(seat)` returns an `Observation`. It is

- typed and frozen: each field is a read-only attribute (`obs.draw_pile`, `obs.seats`,
  `obs.legal_actions`, ...); setting one raises `AttributeError`. Every game has the core
  fields of `CORE_FIELDS` under the same names (a game adds its own after them, e.g. Hit Me's
  `phase`, Flapjack's `total`);
- a read-only mapping with the same keys (a dict to `isinstance` and to the json module):
  `obs["draw_pile"]`, iteration, `dict(obs)`, `json.dumps(obs)`, `obs.to_dict()` (the plain
  JSON-ready dict) and `==` with that dict all work, so code written for the observation dict
  reads it unchanged;
- lazy: a field is worked out from the state when first read, once. A computer player reads
  two or three fields (its own seat, the settings); building every seat's card views at every
  decision of a simulation cost more than the rest of the engine together. `seat(p)` builds one
  seat alone (the same value as `obs.seats[p]`), itself lazy: `obs.seat(p)["sum"]` builds no
  card view.

A state that has observations has `_log`, its event log as kept (one more entry at every move:
the observation's check that the state has not moved on; `events` is the log as Event objects),
and `players`.

Every value inside is read-only too: a nested mapping (a seat, a card view, an event, a legal
action, the config) is a `FrozenDict` and a nested list (hands, rows, logs, values) a
`FrozenList`. Both are the plain type underneath (`isinstance(v, dict)`, `== [...]`,
`json.dumps` work as before) but every mutating method raises `TypeError`; `to_dict()` gives
plain dicts and lists a caller may change. Nested values are built frozen, once, when first read
(a card view is frozen once per card and value and then shared): no copies at each step.

It is a view of the state at the moment it was made: reading a field not built yet after the
state has moved on raises `RuntimeError` (ask the state for a new observation instead). It has
no attribute that leads to the state (a computer player given one cannot step to the hidden
cards or `apply_action` by a name).
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable, ItemsView, Iterator, KeysView, Mapping, ValuesView
from typing import Any

# The fields every game's observation has, with the same names and meanings.
CORE_FIELDS = ("game", "viewer", "reveal", "config", "players", "dealer", "current_player",
               "is_over", "draw_pile", "seats", "legal_actions", "events", "result")

_set = object.__setattr__
_MISSING = object()


def _read_only(self: Any, *args: Any, **kwargs: Any) -> Any:
    raise TypeError(f"{type(self).__name__} is read-only: an observation's values cannot "
                    "change (use obs.to_dict() for a copy to edit)")


class FrozenDict(dict):  # type: ignore[type-arg]
    """A dict that cannot change: every mutating method raises TypeError. It stays a dict
    (JSON, `==`, `isinstance` and reading work as before); `copy()` gives a plain dict."""

    __slots__ = ()
    __setitem__ = __delitem__ = __ior__ = _read_only
    clear = pop = popitem = setdefault = update = _read_only

    def copy(self) -> dict[str, Any]:  # type: ignore[override]
        return _plain(self)

    def __copy__(self) -> dict[str, Any]:
        return _plain(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[str, Any]:
        return _plain(self)

    def __reduce__(self) -> tuple[Any, ...]:
        return (FrozenDict, (dict(self),))

    def __repr__(self) -> str:
        return f"FrozenDict({dict.__repr__(self)})"


class FrozenList(list):  # type: ignore[type-arg]
    """A list that cannot change: every mutating method raises TypeError. It stays a list
    (JSON, `==` with a list, `isinstance`, slicing and `+` give plain lists)."""

    __slots__ = ()
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _read_only
    append = clear = extend = insert = pop = remove = reverse = sort = _read_only

    def copy(self) -> list[Any]:  # type: ignore[override]
        return _plain(self)

    def __copy__(self) -> list[Any]:
        return _plain(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> list[Any]:
        return _plain(self)

    def __reduce__(self) -> tuple[Any, ...]:
        return (FrozenList, (list(self),))

    def __repr__(self) -> str:
        return f"FrozenList({list.__repr__(self)})"


_FROZEN = (FrozenDict, FrozenList)


def freeze(value: Any) -> Any:
    """`value` with every dict and list inside made read-only (FrozenDict, FrozenList);
    values already frozen are kept as they are (not copied again)."""
    t = type(value)
    if t is FrozenDict or t is FrozenList:
        return value
    if t is dict:
        return FrozenDict({k: freeze(v) for k, v in value.items()})
    if t is list or t is tuple:
        items = [freeze(v) for v in value]
        return FrozenList(items) if t is list else tuple(items)
    if isinstance(value, LazyView):
        return FrozenDict({k: freeze(value[k]) for k in value._FIELDS})
    return value


class LazyView(dict):  # type: ignore[type-arg]
    """A read-only mapping whose values (`_PARTS`: key -> builder) are built on first read and
    kept; each key is also a read-only attribute (keys that are not identifiers, or that are
    Python words such as "in", only by key). Subclasses set `_PARTS` and `_FIELDS` (the keys,
    in order) and may hold more slots.

    It is a dict to the json module (`json.dumps(obs)` writes every field, built then) and to
    `isinstance`; every read goes through the methods below (the fields, built on first read),
    never through the dict's own storage, which holds one field only (so that json's encoder
    asks for `items()`). The state it reads is in a slot with no attribute name (`state_of`
    reads it): a computer player given an observation has no attribute that leads to the game
    (its hidden cards, `apply_action`). That is a guard against slips, not a sandbox: code in
    the same Python process can always find an object in memory."""

    __slots__ = ("_state", "_stamp", "_cache")
    _PARTS: dict[str, Callable[[Any], Any]] = {}
    _FIELDS: tuple[str, ...] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._FIELDS = tuple(cls._PARTS)
        slots = {s for k in cls.__mro__ for s in getattr(k, "__slots__", ())}
        for key in cls._PARTS:
            if key.isidentifier() and key != "in" and key not in slots \
                    and not hasattr(cls, key):  # (a mapping's `values` stays a method)
                setattr(cls, key, property(lambda self, k=key: self[k],
                                           doc=f"the observation's {key!r} (read-only)"))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is read-only (frozen): {name}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is read-only (frozen): {name}")

    __setitem__ = __delitem__ = __ior__ = _read_only
    clear = pop = popitem = setdefault = update = _read_only

    def _check(self) -> None:
        if state_of(self)._version() != self._stamp:
            raise RuntimeError("this observation was made before the last move: ask the state "
                               "for a new one")

    def __getitem__(self, key: str) -> Any:
        value = self._cache.get(key, _MISSING)  # (no exception: most reads are first reads)
        if value is not _MISSING:
            return value
        build = self._PARTS[key]  # KeyError for a key the observation does not have
        if len(state_of(self)._log) != self._stamp:  # (the state's _version(), inlined)
            self._check()
        value = self._cache[key] = build(self)
        return value

    def get(self, key: str, default: Any = None) -> Any:
        return self[key] if key in self._PARTS else default

    def __iter__(self) -> Iterator[str]:
        return iter(self._FIELDS)

    def __reversed__(self) -> Iterator[str]:
        return reversed(self._FIELDS)

    def __len__(self) -> int:
        return len(self._FIELDS)

    def __contains__(self, key: object) -> bool:
        return key in self._PARTS

    def keys(self) -> KeysView[str]:  # type: ignore[override]
        return KeysView(self)

    def items(self) -> ItemsView[str, Any]:  # type: ignore[override]
        return ItemsView(self)

    def values(self) -> ValuesView[Any]:  # type: ignore[override]
        return ValuesView(self)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LazyView):
            other = other.to_dict()
        if not isinstance(other, Mapping):
            return NotImplemented
        return self.to_dict() == dict(other)

    def __ne__(self, other: object) -> bool:
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    __hash__ = None  # type: ignore[assignment]

    def __or__(self, other: Any) -> dict[str, Any]:
        return {**self.to_dict(), **other}

    def __ror__(self, other: Any) -> dict[str, Any]:
        return {**other, **self.to_dict()}

    def to_dict(self) -> dict[str, Any]:
        """Every field, as plain JSON-ready data (nested views as dicts too)."""
        return {key: _plain(self[key]) for key in self._FIELDS}

    def copy(self) -> dict[str, Any]:
        return self.to_dict()

    def __copy__(self) -> dict[str, Any]:
        return self.to_dict()

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[str, Any]:
        return copy.deepcopy(self.to_dict(), memo)

    def __reduce__(self) -> tuple[Any, ...]:
        return (dict, (self.to_dict(),))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.to_dict()!r})"


# The state a view reads, by its slot's descriptor only: the class keeps no attribute of that
# name (see LazyView), so `view._state` raises AttributeError.
_STATE_SLOT = LazyView.__dict__["_state"]
state_of: Callable[[LazyView], Any] = _STATE_SLOT.__get__
del LazyView._state
# A view's dict storage holds one real field (json's encoder writes `{}` for an empty dict
# without asking for its items): `mark(view, key, value)` puts it there.
mark = dict.__setitem__


def _plain(value: Any) -> Any:
    """Plain JSON-ready data: nested views and frozen values as new dicts and lists."""
    if isinstance(value, LazyView):
        return value.to_dict()
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if type(value) is tuple:
        return tuple(_plain(v) for v in value)
    return value


class Observation(LazyView):
    """Base class of a game's observation: `viewer` (None: a spectator) and `reveal` are given;
    the rest is built from the state when read. `seat(p)` is one seat alone."""

    __slots__ = ("viewer", "_reveal", "_with_events")

    # The core fields (CORE_FIELDS), typed; a game's observation adds its own.
    game: str  # the registry name
    viewer: int | None
    reveal: bool  # every card shown (a teacher's walkthrough, or the game is over)
    config: dict[str, Any]  # the settings, as JSON
    players: int
    dealer: int
    current_player: int | None  # None when no seat is to play
    is_over: bool  # the state's `is_over`: nothing more to do (Hit Me: every card turned up)
    draw_pile: int  # cards in the face-down pile (its count is public, never its cards)
    seats: list[dict[str, Any]]  # what the viewer may see of each seat
    legal_actions: list[dict[str, Any]]  # the viewer's moves as data ({"kind": ...})
    events: list[dict[str, Any]]  # the log as the viewer may see it ([] if left out)
    result: dict[str, Any] | None

    def __init__(self, state: Any, viewer: int | None, reveal: bool, events: bool) -> None:
        # (made at every decision of every simulated game: kept to the few slots needed, set
        # through their slot descriptors, which is about twice as fast as object.__setattr__)
        set_state(self, state)
        set_viewer(self, viewer)
        set_reveal(self, reveal)
        set_with_events(self, events)
        set_stamp(self, len(state._log))  # the state's _version(), inlined
        set_cache(self, {})  # parts by name and seats by number
        mark(self, "viewer", viewer)

    def seat(self, p: int) -> Any:
        """One seat as `self.seats[p]` shows it, built alone."""
        value = self._cache.get(p, _MISSING)
        if value is not _MISSING:
            return value
        if len(state_of(self)._log) != self._stamp:
            self._check()
        if type(p) is not int or not 0 <= p < state_of(self).players:
            raise KeyError(p)
        value = self._cache[p] = self._build_seat(p)
        return value

    def _build_seat(self, p: int) -> Any:
        raise NotImplementedError


# Setters of the slots (the class refuses assignment; its own constructors use these).
set_state = _STATE_SLOT.__set__
set_stamp, set_cache = (LazyView.__dict__[k].__set__ for k in ("_stamp", "_cache"))
set_viewer, set_reveal, set_with_events = (Observation.__dict__[k].__set__
                                           for k in ("viewer", "_reveal", "_with_events"))


@functools.lru_cache(maxsize=256)
def frozen_config(config: Any) -> FrozenDict:
    """A (frozen, hashable) config's JSON, frozen once and shared by every observation."""
    return freeze(config.to_json())


_COMMON_PARTS: dict[str, Callable[[Any], Any]] = {
    "viewer": lambda o: o.viewer,
    "config": lambda o: frozen_config(state_of(o).config),
    "players": lambda o: state_of(o).players,
    "dealer": lambda o: state_of(o).dealer,
    "current_player": lambda o: state_of(o).current,
    "is_over": lambda o: state_of(o).is_over,
    "seats": lambda o: FrozenList([freeze(o.seat(p)) for p in range(state_of(o).players)]),
    "legal_actions": lambda o: FrozenList() if o.viewer is None
    else FrozenList([FrozenDict(a.to_json()) for a in state_of(o).legal_actions(o.viewer)]),
}


def observation_parts(game: str, order: str,
                      own: dict[str, Callable[[Any], Any]]) -> dict[str, Callable[[Any], Any]]:
    """A game observation's `_PARTS`: the keys of `order` (space-separated) in that order,
    each built by `own` or, for the fields every game builds alike, by the common builder."""
    parts = {**_COMMON_PARTS, "game": lambda o: game, **own}  # (own parts return frozen values)
    return {key: parts[key] for key in order.split()}
