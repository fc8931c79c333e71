"""The event log: one entry a step, as data (numbers, cards, seats), never as sentences.

Sentences are made from events by `widgets.words`, the one phrasing module, which knows the
viewer ("You hit" / "Ana hits") and the language. An event is cheap to build: a frozen
dataclass holding only what happened; its views are made when a viewer asks.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from engine.cards import Card, card_from_json, card_to_json, signed
from engine.observation import FrozenDict

_new = object.__new__
_set = object.__setattr__


class EventKind(Enum):
    """What happened in one step of a game."""

    DEAL = "deal"
    HIT = "hit"
    HOLD = "hold"
    FULL = "full"  # a Hit Me player reached 7 cards
    ACE = "ace"
    REVEAL = "reveal"
    RESULT = "result"
    PLAY = "play"
    DRAW = "draw"
    FLAPJACK = "flapjack"
    PASS = "pass"
    END = "end"


# The data fields an event may carry besides kind and seat (JSON names are the same).
EVENT_FIELDS = _FIELDS = ("card", "value", "before", "delta", "after", "score", "count", "values",
           "winners", "reason", "lead")


@dataclass(frozen=True)
class Event:
    """One step, as data. Fields left as None (or empty) do not apply to its kind:

    - card, value: the card concerned and its value as shown (a hit, a play, a face-up deal)
    - before, delta, after: a running total or sum before, the change, and after
    - score: an absolute value (|sum| in Hit Me), count: how many cards (taken in a Flapjack,
      left in the draw pile at the deal)
    - values: several numbers (each card's value at a reveal; cards won by seat at the end)
    - winners: seats; reason: a code (why a player passed, why a game ended)
    - lead: a Flapjack play on an empty table
    - private: a second event with what only `seat` may see (their own card, their sum)
    """

    kind: EventKind
    seat: int | None
    card: Card | None = None
    value: int | None = None
    before: int | None = None
    delta: int | None = None
    after: int | None = None
    score: int | None = None
    count: int | None = None
    values: tuple[int, ...] = ()
    winners: tuple[int, ...] = ()
    reason: str | None = None
    lead: bool = False
    private: Event | None = None

    def __init__(self, kind: EventKind, seat: int | None, card: Card | None = None,
                 value: int | None = None, before: int | None = None, delta: int | None = None,
                 after: int | None = None, score: int | None = None, count: int | None = None,
                 values: tuple[int, ...] = (), winners: tuple[int, ...] = (),
                 reason: str | None = None, lead: bool = False, private: Event | None = None,
                 ) -> None:
        # Written out (not the dataclass's frozen __init__, which sets each field through
        # object.__setattr__): events are made at every step of every simulated game. A field
        # left at its default is not stored; the class attribute answers for it.
        d = self.__dict__
        d["kind"] = kind
        d["seat"] = seat
        if card is not None:
            d["card"] = card
        if value is not None:
            d["value"] = value
        if before is not None:
            d["before"] = before
        if delta is not None:
            d["delta"] = delta
        if after is not None:
            d["after"] = after
        if score is not None:
            d["score"] = score
        if count is not None:
            d["count"] = count
        if values != ():
            d["values"] = values
        if winners != ():
            d["winners"] = winners
        if reason is not None:
            d["reason"] = reason
        if lead is not False:
            d["lead"] = lead
        if private is not None:
            d["private"] = private

    @classmethod
    def make(cls, kind: EventKind, seat: int | None, **fields: Any) -> Event:
        """The same event as `Event(kind, seat, **fields)`, built faster (at every step of
        every simulated game): give only the fields that apply, none of them None or empty."""
        e = _new(cls)
        fields["kind"] = kind
        fields["seat"] = seat
        _set(e, "__dict__", fields)
        return e

    @property
    def player(self) -> int | None:
        """The seat (the older name)."""
        return self.seat

    def __deepcopy__(self, memo: dict[int, Any]) -> Event:
        return self  # immutable: a clone of a game may share its events

    def _data(self, card: Any) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind.value, "seat": self.seat}
        for name in _FIELDS:
            v = getattr(self, name)
            if v is None or v == () or v is False:
                continue
            if name == "card":
                v = card(v, self.value)
            elif isinstance(v, tuple):
                v = list(v)
            d[name] = v
        return d

    def to_json(self) -> dict[str, Any]:
        """The whole event (private part included) as JSON-ready data, for saving."""
        d = self._data(lambda c, v: card_to_json(c))
        if self.private is not None:
            d["private"] = self.private.to_json()
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Event:
        kw: dict[str, Any] = {}
        for name in _FIELDS:
            if name not in d:
                continue
            v = d[name]
            if name == "card":
                v = card_from_json(v)
            elif name in ("values", "winners"):
                v = tuple(v)
            kw[name] = v
        private = d.get("private")
        return cls(EventKind(d["kind"]), d["seat"],
                   private=cls.from_json(private) if private is not None else None, **kw)

    def view(self, viewer: int | None, reveal: bool = False) -> dict[str, Any]:
        """What a viewer may see of this event (private part only for its owner, or with
        `reveal`); cards as card views (face and value)."""
        d = self._data(card_view)
        if self.private is not None and (reveal or (viewer is not None and viewer == self.seat)):
            d["private"] = self.private._data(card_view)
        return d


def card_view(card: Card, value: int | None, **extra: Any) -> dict[str, Any]:
    """A face-up card as a viewer sees it: rank, suit and signed value (data; no words).
    Its name and screen-reader label are made by `widgets.words`."""
    # Observations are built at every step of every simulated game: the view of each
    # (card, value) pair is made once, kept on the card (frozen), and copied.
    t = card.views.get(value)
    if t is None:
        t = card.views[value] = FrozenDict(_card_view(card, value))
    d = dict(t)
    if extra:
        d.update(extra)
    return d


def frozen_card_view(card: Card, value: int | None, **extra: Any) -> FrozenDict:
    """`card_view` read-only (a FrozenDict), as observations show it: without `extra` the
    same object every time (made once per card and value, never copied)."""
    t = card.views.get(value)
    if t is None:
        t = card.views[value] = FrozenDict(_card_view(card, value))
    if not extra:
        return t
    d = dict(t)
    d.update(extra)
    return FrozenDict(d)


def _card_view(card: Card, value: int | None) -> dict[str, Any]:
    d = {
        "key": card.key,
        "code": card.code,
        "rank": card.rank,
        "label": card.label,
        "suit": card.suit.value,
        "symbol": card.suit.symbol,
        "color": card.color.value,
    }
    if value is not None:
        d["value"] = value
        d["value_text"] = signed(value)
    return d


HIDDEN_CARD: dict[str, Any] = FrozenDict({"hidden": True})  # (read-only: copy it to edit)
