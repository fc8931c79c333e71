"""Upper bounds for settings and exact-type checks for data read from outside (saved games).

JSON gives lists, dicts, strings, numbers, booleans and null. A save is read with these checks
before anything is built: a bool or a float is never taken for a whole number, a string is
never taken for a list, and every refusal is a `ConfigError` that says where and what.
The per-game checks are in `engine/hit_me.py` and `engine/flapjack.py`, the shared ones in
`engine/saves.py`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from engine.cards import Card, card_from_json
from engine.errors import ConfigError

# ../shared/RULES.md says "2 or more" players and leaves the decks open; these bounds keep a setting
# (or a forged save) from asking for a table that exhausts memory. The tables offer 2 to 8
# players; simulations and the rules tests use more (15 players need 3 decks in Hit Me).
MAX_PLAYERS = 20
MAX_DECKS = 8


def fail(where: str, problem: str) -> ConfigError:
    """The error for a bad piece of saved data, naming where it is."""
    return ConfigError(f"saved game refused: {where}: {problem}")


def is_int(value: Any) -> bool:
    """A whole number and nothing else (True, 7.0 and '7' are not)."""
    return type(value) is int


def expect_fields(d: Any, where: str, fields: Sequence[str]) -> dict[str, Any]:
    """A dict with exactly these keys (none missing, none unknown)."""
    if type(d) is not dict:
        raise fail(where, f"expected an object with fields {', '.join(fields)}; "
                          f"got {type(d).__name__}")
    missing = [k for k in fields if k not in d]
    unknown = sorted(repr(k) for k in d if k not in fields)
    if missing:
        raise fail(where, f"missing field(s): {', '.join(missing)}")
    if unknown:
        raise fail(where, f"unknown field(s): {', '.join(unknown)}")
    return d


def expect_int(value: Any, where: str, low: int, high: int | None = None) -> int:
    """A whole number within low..high (a bool or a float is refused)."""
    if not is_int(value):
        raise fail(where, f"must be a whole number; got {value!r}")
    if value < low or (high is not None and value > high):
        allowed = f"{low} or more" if high is None else f"{low} to {high}"
        raise fail(where, f"must be {allowed}; got {value}")
    return value


def expect_bool(value: Any, where: str) -> bool:
    if type(value) is not bool:
        raise fail(where, f"must be true or false; got {value!r}")
    return value


def expect_choice(value: Any, where: str, allowed: Sequence[str]) -> str:
    """One of the allowed texts, exactly as saved."""
    if type(value) is not str or value not in allowed:
        raise fail(where, f"must be one of {', '.join(allowed)}; got {value!r}")
    return value


def expect_list(value: Any, where: str, length: int | None = None,
                low: int = 0, high: int | None = None) -> list[Any]:
    """A list (not a string, tuple or dict) of the given length, or of low..high items."""
    if type(value) is not list:
        raise fail(where, f"must be a list; got {type(value).__name__}")
    if length is not None and len(value) != length:
        raise fail(where, f"must have {length} entries; got {len(value)}")
    if len(value) < low or (high is not None and len(value) > high):
        allowed = f"{low} or more" if high is None else f"{low} to {high}"
        raise fail(where, f"must hold {allowed} cards; got {len(value)}")
    return value


def expect_seat(value: Any, where: str, players: int) -> int:
    return expect_int(value, where, 0, players - 1)


def expect_card(value: Any, where: str) -> Card:
    try:
        return card_from_json(value)
    except ConfigError as e:
        raise fail(where, str(e)) from None


def expect_cards(value: Any, where: str, low: int = 0, high: int | None = None) -> list[Card]:
    items = expect_list(value, where, low=low, high=high)
    return [expect_card(c, f"{where}[{i}]") for i, c in enumerate(items)]


def expect_list_of(value: Any, where: str, length: int,
                   item: Callable[[Any, str], Any]) -> list[Any]:
    """A list of `length` entries, each read by `item(entry, where[i])`."""
    return [item(x, f"{where}[{i}]") for i, x in enumerate(expect_list(value, where, length))]


def every_card_once(found: Sequence[Card], full_deck: Sequence[Card], what: str) -> None:
    """The cards found are exactly the game's deck(s): none doubled, lost or foreign."""
    have = Counter(found)
    want = Counter(full_deck)
    doubled = sorted(c.key for c, k in have.items() if k > 1)
    foreign = sorted(c.key for c in have if c not in want)
    lost = sorted(c.key for c in want if c not in have)
    if doubled:
        raise fail(what, f"card(s) in more than one place: {', '.join(doubled)}")
    if foreign:
        raise fail(what, f"card(s) not in this game's deck(s): {', '.join(foreign)}")
    if lost:
        raise fail(what, f"card(s) missing: {', '.join(lost)}")


def check_targets(targets: Any, low: int, high: int) -> tuple[int, ...]:
    """Flapjack targets: a list or tuple of whole numbers within low..high (sorted, no repeats).
    A string is refused, not split into digits."""
    if type(targets) not in (list, tuple):
        raise ConfigError(f"targets must be a list of whole numbers within {low}..{high}; "
                          f"got {targets!r}")
    if not targets:
        raise ConfigError(f"targets must lie within {low}..{high} and name at least one "
                          f"total; got {targets!r}")
    for t in targets:
        if not is_int(t):
            raise ConfigError(f"targets must be whole numbers; got {t!r} in {targets!r}")
        if not low <= t <= high:
            raise ConfigError(f"targets must lie within {low}..{high}; got {t} in {targets!r}")
    return tuple(sorted(set(targets)))
