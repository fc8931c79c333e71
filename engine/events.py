"""The event log: one entry a step, each carrying its arithmetic as text."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from enum import Enum
from typing import Any

from engine.cards import Card, number_words, signed


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


@dataclass(frozen=True)
class Event:
    """One step. `text` and `math` are public; `private` is shown only to `player`."""

    kind: EventKind
    player: int | None
    text: str
    math: str = ""
    private: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind.value, "player": self.player, "text": self.text,
                "math": self.math, "private": self.private}

    def __deepcopy__(self, memo: dict[int, Any]) -> Event:
        return self  # immutable: a clone of a game may share its events

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Event:
        return cls(EventKind(d["kind"]), d["player"], d["text"], d["math"], d["private"])

    def view(self, viewer: int | None, reveal: bool = False) -> dict[str, Any]:
        """What a viewer may see of this event (private part only for its owner)."""
        d = {"kind": self.kind.value, "player": self.player, "text": self.text, "math": self.math}
        if self.private and (reveal or (viewer is not None and viewer == self.player)):
            d["private"] = self.private
        return d


def card_view(card: Card, value: int, **extra: Any) -> dict[str, Any]:
    """A face-up card as a viewer sees it: its face and its signed value as text."""
    d = dict(_card_view(card, value))
    d.update(extra)
    return d


@functools.lru_cache(maxsize=4096)
def _card_view(card: Card, value: int) -> tuple[tuple[str, Any], ...]:
    # Observations are built at every step of every simulated game: the views of the few
    # hundred (card, value) pairs are made once and copied.
    return tuple({
        "key": card.key,
        "code": card.code,
        "rank": card.rank,
        "label": card.label,
        "suit": card.suit.value,
        "symbol": card.suit.symbol,
        "color": card.color.value,
        "value": value,
        "value_text": signed(value),
        "name": card.name,
        "aria": f"{card.name}, value {number_words(value)}",
    }.items())


HIDDEN_CARD: dict[str, Any] = {"hidden": True, "aria": "face-down card"}


def step_math(before: int, delta: int, after: int) -> str:
    """'-3 + (+5) = +2': one card added to a running total."""
    return f"{signed(before)} + {paren_signed(delta)} = {signed(after)}"


def sum_math(values: list[int]) -> str:
    """'+2 + (-7) + (+4) = -1': a list of card values added up."""
    if not values:
        return "0"
    total = sum(values)
    if len(values) == 1:
        return f"{signed(values[0])} = {signed(total)}"
    terms = [signed(values[0])] + [paren_signed(v) for v in values[1:]]
    return f"{' + '.join(terms)} = {signed(total)}"


def abs_math(n: int) -> str:
    """'|-3| = 3'."""
    return f"|{signed(n)}| = {abs(n)}"


def paren_signed(n: int) -> str:
    return f"({signed(n)})"
