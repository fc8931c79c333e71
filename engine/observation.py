"""A lazy observation: reads like the observation dict, builds each part on first access.

A computer player reads two or three parts of its observation (its own seat, the settings);
building every seat's card views at every decision of a simulation cost more than the rest of
the engine together. `Observation` has exactly the keys and values of the dict the state's
`observation(seat)` returns (iterating it, `dict(obs)`, `obs.to_dict()` and `==` see every
part), but works each part out only when it is read, once. `seat(p)` builds one seat alone
(the same dict as `obs["seats"][p]`).

It is a view of the state at the moment it was made: reading a part not built yet after the
state has moved on raises `RuntimeError` (ask the state for a new observation instead).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator, Mapping
from typing import Any


class Observation(Mapping[str, Any]):
    """Base class: subclasses list their keys in order and a builder per key (`_PARTS`)."""

    __slots__ = ("_state", "viewer", "reveal", "events", "_stamp", "_cache", "_seats")
    _PARTS: dict[str, Callable[[Any], Any]] = {}

    def __init__(self, state: Any, viewer: int | None, reveal: bool, events: bool) -> None:
        self._state = state
        self.viewer = viewer
        self.reveal = reveal
        self.events = events
        self._stamp = state._version()
        self._cache: dict[str, Any] = {"viewer": viewer}
        self._seats: dict[int, dict[str, Any]] = {}

    def _check(self) -> None:
        if self._state._version() != self._stamp:
            raise RuntimeError("this observation was made before the last move: ask the state "
                               "for a new one")

    def __getitem__(self, key: str) -> Any:
        try:
            return self._cache[key]
        except KeyError:
            pass
        build = self._PARTS[key]  # KeyError for a key the observation does not have
        self._check()
        value = self._cache[key] = build(self)
        return value

    def seat(self, p: int) -> dict[str, Any]:
        """One seat as `self["seats"][p]` shows it, built alone."""
        try:
            return self._seats[p]
        except KeyError:
            pass
        self._check()
        value = self._seats[p] = self._build_seat(p)
        return value

    def _build_seat(self, p: int) -> dict[str, Any]:
        raise NotImplementedError

    def __iter__(self) -> Iterator[str]:
        return iter(self._PARTS)

    def __len__(self) -> int:
        return len(self._PARTS)

    def __contains__(self, key: object) -> bool:
        return key in self._PARTS

    def to_dict(self) -> dict[str, Any]:
        """Every part, as the plain dict (JSON-ready)."""
        return {key: self[key] for key in self._PARTS}

    def copy(self) -> dict[str, Any]:
        return self.to_dict()

    def __copy__(self) -> dict[str, Any]:
        return self.to_dict()

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[str, Any]:
        return copy.deepcopy(self.to_dict(), memo)

    def __reduce__(self) -> tuple[Any, ...]:
        return (dict, (self.to_dict(),))

    def __repr__(self) -> str:
        return repr(self.to_dict())
