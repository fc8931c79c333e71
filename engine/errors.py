"""The engine's two error types: a bad setting and an illegal move."""

from __future__ import annotations

from enum import Enum
from typing import Any


class ConfigError(ValueError):
    """A game setting is outside its allowed values (raised when the game is made)."""


class IllegalActionError(Exception):
    """A move that the rules do not allow; the game state is left exactly as it was."""


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
