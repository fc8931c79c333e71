"""Questions and answers as data: what a check asks, and the one way a typed number is read.

A `Question` is data only (no sentence): its `kind`, its numbers (`terms`), the `lesson` whose
page asks it, the `item` (an exit ticket's question number, a practice set's place, a table's
check) and the `variant` (which numbers of the same skill were drawn). The words a person reads
are made from it in widgets/words/questions.py, in the reader's language.

Kinds (the same as widgets/lessons/mistakes.py's shapes, and 'ticket' for an exit-ticket
question whose words are its ticket's):

- 'sum', 'abs', 'abs-sum', 'difference', 'distance': a typed whole number;
- 'greater', 'less', 'closer': the option picked, one of `terms` or 0 for "the same".

`parse_number(text)` reads a typed whole number: ASCII or Unicode minus, a leading +, spaces
around or between the sign and the digits; anything else raises `NumberRefused` with a code
the words module explains ("5-": a sign after the number, "--5": two signs, "five": no
digits).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

SHAPE_KINDS = ("sum", "abs", "abs-sum", "difference", "distance", "greater", "less", "closer")
KINDS = (*SHAPE_KINDS, "ticket")
CHOICE_KINDS = ("greater", "less", "closer")
MAX_DIGITS = 6
MINUSES = "-\u2212\u2012\u2013\ufe63\uff0d"  # ASCII, Unicode minus, figure and en dashes
PLUSES = "+\uff0b"
_NUMBER = re.compile(rf"\s*([{re.escape(MINUSES + PLUSES)}]?)\s*([0-9]+)\s*")

# why a typed text is not a whole number
EMPTY = "empty"
SIGN_AFTER = "sign-after"
TWO_SIGNS = "two-signs"
NO_DIGITS = "no-digits"
TOO_LONG = "too-long"
NOT_A_NUMBER = "not-a-number"
REFUSALS = (EMPTY, SIGN_AFTER, TWO_SIGNS, NO_DIGITS, TOO_LONG, NOT_A_NUMBER)


class NumberRefused(ValueError):
    """A typed text that is not a whole number; `code` (one of REFUSALS) says why."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def parse_number(text: object) -> int:
    """The whole number typed in `text` ('-8', '\u22128', '+8', ' - 8 '), else NumberRefused."""
    if not isinstance(text, str) or not text.strip():
        raise NumberRefused(EMPTY)
    if len(text) > 40:
        raise NumberRefused(TOO_LONG)
    m = _NUMBER.fullmatch(text)
    if m is None:
        t = text.strip()
        signs = MINUSES + PLUSES
        if not any(c.isdigit() for c in t):
            raise NumberRefused(NO_DIGITS)
        if t[-1] in signs:
            raise NumberRefused(SIGN_AFTER)
        if len(t) > 1 and t[0] in signs and t.lstrip(signs + " ")[:1].isdigit():
            raise NumberRefused(TWO_SIGNS)
        raise NumberRefused(NOT_A_NUMBER)
    if len(m.group(2).lstrip("0")) > MAX_DIGITS:
        raise NumberRefused(TOO_LONG)
    n = int(m.group(2))
    return -n if m.group(1) and m.group(1) in MINUSES else n


def read_number(text: object) -> int | None:
    """`parse_number`, or None when the text is not a whole number."""
    try:
        return parse_number(text)
    except NumberRefused:
        return None


@dataclass(frozen=True)
class Question:
    """What one check asks: data only. `item`: its place in its activity ('3': an exit
    ticket's third question; 'hit-me-sum'); `variant`: which numbers were drawn (0: the
    ticket's own)."""

    kind: str
    terms: tuple[int, ...]
    lesson: int
    item: str
    variant: int = 0

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {', '.join(KINDS)}; got {self.kind!r}")
        if not isinstance(self.terms, tuple) or not all(type(t) is int for t in self.terms):
            raise ValueError(f"terms: whole numbers; got {self.terms!r}")
        if type(self.lesson) is not int or not 0 <= self.lesson <= 99:
            raise ValueError(f"lesson: a whole number from 0 to 99; got {self.lesson!r}")
        if not isinstance(self.item, str) or not 0 < len(self.item) <= 40:
            raise ValueError(f"item: a short text; got {self.item!r}")
        if type(self.variant) is not int or self.variant < 0:
            raise ValueError(f"variant: a whole number from 0; got {self.variant!r}")


def terms_text(terms: tuple[int, ...]) -> str:
    """The numbers as stored: '3,-8'."""
    return ",".join(str(t) for t in terms)


def terms_of(text: str) -> tuple[int, ...]:
    """The numbers stored as '3,-8'."""
    return tuple(int(t) for t in text.split(",")) if text else ()


@dataclass(frozen=True)
class SumCheck:
    """What a table reports of one check of a sum, the record its `on_answer` receives:
    `item` ('hit-me 3': Hit Me's third announce check), the numbers added, the sum and the
    |sum| typed (None: not asked), and whether it was the first try."""

    item: str
    terms: tuple[int, ...]
    given_sum: int | None
    given_abs: int | None
    first_try: bool
