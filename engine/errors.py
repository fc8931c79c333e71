"""The engine's two error types: a bad setting and an illegal move."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any


class ConfigError(ValueError):
    """A game setting is outside its allowed values (raised when the game is made).

    The message is for a developer. A refusal that settings chosen on a page can cause also
    carries a `code` and its numbers (`data`), from which widgets.words.config_error_text makes
    the page's sentence in its own language."""

    def __init__(self, message: str, code: str | None = None, **data: Any) -> None:
        super().__init__(message)
        self.code = code
        self.data = data


class Reason(Enum):
    """Why a move is not allowed (the numbers that go with it are in `Why.data`)."""

    GAME_OVER = "game-over"  # the game (Flapjack) or round (Hit Me) has ended
    NO_SUCH_PLAYER = "no-such-player"  # seat
    NOT_AN_ACTION = "not-an-action"  # game, action
    NOT_YOUR_TURN = "not-your-turn"  # current, seat
    NOT_IN_HAND = "not-in-hand"  # card, seat
    BAD_SIGN = "bad-sign"  # sign
    SIGN_FIXED = "sign-fixed"  # cards count with their own sign in this variant
    LEAD_ADDS = "lead-adds"  # a lead (empty table) can only add
    LIMIT_EXCEEDED = "limit-exceeded"  # card, value, before, total, limit
    ACE_RULE_OFF = "ace-rule-off"
    NOT_YOUR_CARD = "not-your-card"  # card, seat
    NOT_AN_ACE = "not-an-ace"  # card
    ACE_VALUE = "ace-value"  # an ace counts 1 or 11 (high must be true or false)
    ACE_UNCHANGED = "ace-unchanged"  # card, value: the ace counts that already
    NOT_YET_REVEALED = "not-yet-revealed"  # the round waits for its reveal
    NOT_ANNOUNCING = "not-announcing"  # a reveal before everyone is done
    ROUND_NOT_OVER = "round-not-over"
    FINISH_ROUND_FIRST = "finish-round-first"


@dataclass(frozen=True)
class Why:
    """A reason code and its numbers (JSON-ready): why a move is illegal, or why a card is
    disabled. Sentences are made from it by widgets.words."""

    reason: Reason
    data: dict[str, Any] = field(default_factory=dict)

    def __getitem__(self, key: str) -> Any:
        return self.data[key]

    def to_json(self) -> dict[str, Any]:
        return {"reason": self.reason.value, **self.data}

    def error(self) -> IllegalActionError:
        return IllegalActionError(self.reason, **self.data)


class IllegalActionError(Exception):
    """A move that the rules do not allow; the game state is left exactly as it was.

    Carries `reason` (a Reason) and `data` (its numbers); `str()` is the code and the
    numbers ('limit-exceeded: card=5C, total=14, limit=13'), for a developer. Words for a
    student come from widgets.words.reason_text(error.why)."""

    def __init__(self, reason: Reason, **data: Any) -> None:
        self.reason = reason
        self.data = data
        super().__init__(reason, data)

    @property
    def why(self) -> Why:
        return Why(self.reason, dict(self.data))

    def __str__(self) -> str:
        if not self.data:
            return self.reason.value
        return f"{self.reason.value}: " + ", ".join(f"{k}={v!r}" for k, v in self.data.items())


def parse_enum(enum: type[Enum], value: Any, setting: str) -> Any:
    """Accept an enum member or its value text; otherwise refuse, naming the allowed values."""
    if isinstance(value, enum):
        return value
    for member in enum:
        if member.value == str(value).strip().lower():
            return member
    allowed = ", ".join(m.value for m in enum)
    raise ConfigError(f"{setting} must be one of {allowed}; got {value!r}")


def check_int(value: Any, setting: str, low: int, high: int | None = None) -> int:
    """Accept a whole number within low..high; otherwise refuse, naming the allowed values."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(f"{setting} must be a whole number; got {value!r}")
    if value < low or (high is not None and value > high):
        allowed = f"{low} or more" if high is None else f"{low} to {high}"
        raise ConfigError(f"{setting} must be {allowed}; got {value}")
    return value


def is_seat(value: Any, players: int) -> bool:
    """True for a whole number naming one of `players` seats (not a bool, float or text)."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < players
