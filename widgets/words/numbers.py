"""Numbers and arithmetic: signs and digits only, not translated (+7, -3 + (+5) = +2)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from widgets.words.catalogues import _


def signed(n: int) -> str:
    """An integer with its sign always written: +7, -7, 0."""
    return f"+{n}" if n > 0 else str(n)


def paren_signed(n: int) -> str:
    return f"({signed(n)})"


def step_math(before: int, delta: int, after: int) -> str:
    """'-3 + (+5) = +2': one card added to a running total."""
    return f"{signed(before)} + {paren_signed(delta)} = {signed(after)}"


def sum_terms(values: Sequence[int]) -> str:
    """'+2 + (-7) + (+4)': the one way a sum is written (every term after the first in
    brackets)."""
    values = list(values)
    if not values:
        return "0"
    return " + ".join([signed(values[0])] + [paren_signed(v) for v in values[1:]])


def sum_math(values: Sequence[int]) -> str:
    """'+2 + (-7) + (+4) = -1': a list of card values added up."""
    values = list(values)
    if not values:
        return "0"
    total = sum(values)
    if len(values) == 1:
        return f"{signed(values[0])} = {signed(total)}"
    return f"{sum_terms(values)} = {signed(total)}"


def percent(n: int) -> str:
    """'54%' (a number and its sign, not a word: the messages say '{pct}', not '{pct}%', which
    gettext tools would read as a printf conversion)."""
    return f"{n}%"


def abs_math(n: int) -> str:
    """'|-3| = 3'."""
    return f"|{signed(n)}| = {abs(n)}"


def total_text(n: int, plain: bool = False) -> str:
    """A Flapjack total as shown: '+7' / '-7' / '0'; `plain` '7' where every card counts
    positive (add or subtract)."""
    return str(n) if plain else signed(n)


def play_math(before: int, delta: int, plain: bool = False, value: int | None = None) -> str:
    """One play as its equation: '+2 + (-7) = -5' (a card signed by colour added),
    '+5 - (-7) = +12' (a signed card of `value` -7 subtracted: `delta` is -value) or, `plain`
    (every card counts positive), '6 - 5 = 1'."""
    after = before + delta
    if plain:
        return f"{before} {'+' if delta >= 0 else '-'} {abs(delta)} = {after}"
    if value is not None and value != 0 and delta == -value:
        return f"{signed(before)} - ({signed(value)}) = {signed(after)}"
    return f"{signed(before)} + ({signed(delta)}) = {signed(after)}"


def plain_totals(config: Any) -> bool:
    """Are a Flapjack table's totals written without a sign ('7')? Only where every card counts
    positive (`config`: the settings' JSON, as in an observation, or a FlapjackConfig)."""
    if isinstance(config, dict):
        aos = bool(config.get("add_or_subtract"))
        return not bool(config.get("signed", not aos))
    return not bool(getattr(config, "signed", True))


def number_words(n: int) -> str:
    """'negative 7', 'positive 7' or 'zero', for screen readers."""
    if n == 0:
        return _("zero")
    return (_("positive {n}") if n > 0 else _("negative {n}")).format(n=abs(n))


def time_ago(seconds: float) -> str:
    """How long ago, coarse on purpose ('under a minute', '4 min', '1 h 5 min'): a page that
    shows it is redrawn only when the words change."""
    if seconds < 60:
        return _("under a minute")
    minutes = int(seconds // 60)
    if minutes < 60:
        return _("{n} min").format(n=minutes)
    return _("{h} h {m} min").format(h=minutes // 60, m=minutes % 60)
