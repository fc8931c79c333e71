"""Questions and answers as data: what a check asks, and the one way a typed number is read.

A `Question` is data only (no sentence): its `kind`, its numbers (`terms`), the `lesson` whose
page asks it, the `item` (an exit ticket's question number, a practice set's place, a table's
check) and the `variant` (which numbers of the same skill were drawn). The words a person reads
are made from it in widgets/words/questions.py, in the reader's language.

Kinds (the same as engine/mistakes.py's shapes, and 'ticket' for an exit-ticket
question whose words are its ticket's):

- 'sum', 'abs', 'abs-sum', 'difference', 'distance': a typed whole number;
- 'greater', 'less', 'closer': the option picked, one of `terms` or 0 for "the same".

`parse_number(text)` reads a typed whole number: ASCII or Unicode minus, a leading +, spaces
around or between the sign and the digits; anything else raises `NumberRefused` with a code
the words module explains ("5-": a sign after the number, "--5": two signs, "five": no
digits).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

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


# A table's check is filed under '<game> <deal> <n>': a deal code this long or shorter stays as
# it is (a deal the teacher chose, to be found again); a longer one, a deal nobody chose whose
# code is its secret seed, by a digest of it: an item is at most 40 characters, and the seed
# would give the deal's hidden cards to whoever reads the answers.
SHOWN_DEAL = 12
# lesson 4's money-and-debt self-check files its questions as 'money 1', 'money 2', ...
MONEY_CHECK = "money"
# the unit's two checks, as their answers are filed: before lesson 1, and after the last lesson
READINESS = "readiness"
UNIT_END = "unit-check"
UNIT_CHECKS = (READINESS, UNIT_END)


def table_check_item(game: str, deal_code: object, n: int) -> str:
    """The item a table's check of round (or move) `n` of a deal is filed under."""
    code = str(deal_code)
    deal = code if len(code) <= SHOWN_DEAL else \
        "#" + hashlib.sha256(code.encode()).hexdigest()[:SHOWN_DEAL - 1]
    return f"{game} {deal} {n}"


@dataclass(frozen=True)
class SumCheck:
    """What a table reports of one check of a sum, the record its `on_answer` receives:
    `item` ('hit-me 3': Hit Me's third announce check), the numbers added, the sum and the
    |sum| typed (None: not asked), and whether it was the first try. `kind` 'difference': the
    two numbers are subtracted, the first minus the second (Flapjack's "subtract the card"),
    `given_sum` the difference typed."""

    item: str
    terms: tuple[int, ...]
    given_sum: int | None
    given_abs: int | None
    first_try: bool
    kind: str = "sum"

    def __post_init__(self) -> None:
        if self.kind not in ("sum", "difference") or (
                self.kind == "difference" and (len(self.terms) != 2 or self.given_abs is not None)):
            raise ValueError(f"a check of a sum, or of a difference of two numbers; got "
                             f"{self.kind!r} of {self.terms!r}")


# ----- the unit's skills: generated practice, targeted at a mistake, and mastery --------------
SKILLS = ("add-2", "add-3", "subtract", "abs", "distance", "compare", "closer")
SKILL_KINDS = {"add-2": ("sum",), "add-3": ("sum",), "subtract": ("difference",),
               "abs": ("abs", "abs-sum"), "distance": ("distance",),
               "compare": ("greater", "less"), "closer": ("closer",)}
# which skill practises each common mistake (engine/mistakes.py)
MISTAKE_SKILL = {
    "added-abs": "add-2", "sign-of-closer": "add-2", "subtracted-abs": "add-2",
    "two-negatives-positive": "add-2", "sign-flipped": "add-2",
    "subtract-negative-left": "subtract", "subtract-positive-right": "subtract",
    "abs-kept-sign": "abs", "sum-for-abs": "abs", "abs-for-sum": "add-2",
    "distance-sizes-subtracted": "distance", "farther-is-greater": "compare",
    "closer-is-greater": "compare", "lesser-is-closer": "closer",
}
# the mistakes each skill's questions can be aimed at (make_item's `target`): a mistake shown
# while practising a skill is practised there when it is in that skill's list
SKILL_TARGETS = {
    "add-2": frozenset({"added-abs", "sign-of-closer", "subtracted-abs",
                        "two-negatives-positive", "sign-flipped", "abs-for-sum"}),
    "add-3": frozenset({"added-abs", "two-negatives-positive", "sign-flipped"}),
    "subtract": frozenset({"subtract-negative-left", "subtract-positive-right",
                           "two-negatives-positive", "sign-flipped"}),
    "abs": frozenset({"abs-kept-sign", "sum-for-abs", "added-abs", "subtracted-abs"}),
    "distance": frozenset({"distance-sizes-subtracted", "abs-kept-sign"}),
    "compare": frozenset({"farther-is-greater", "closer-is-greater"}),
    "closer": frozenset({"lesser-is-closer"}),
}
MASTERY_STREAK = 3  # right at the first try, in a row
DAILY_LIMIT = 10  # items of a skill in a day without mastery: ask the teacher
TARGETED_ITEMS = 2  # after a mistake, the next items that practise it


def _nz(rng: Any, low: int, high: int) -> int:
    """A whole number from low to high, never 0."""
    n = 0
    while n == 0:
        n = rng.randint(low, high)
    return n


def _mixed(rng: Any) -> tuple[int, int]:
    """Two numbers of different signs and different sizes."""
    a = rng.randint(1, 9)
    b = rng.randint(1, 12)
    while b == a:
        b = rng.randint(1, 12)
    pair = (a, -b) if rng.random() < 0.5 else (-a, b)
    return pair if rng.random() < 0.5 else (pair[1], pair[0])


def _negatives(rng: Any) -> tuple[int, int]:
    """Two different negative numbers."""
    a = rng.randint(1, 9)
    b = rng.randint(1, 9)
    while b == a:
        b = rng.randint(1, 9)
    return -a, -b


def make_item(rng: Any, skill: str, target: str | None = None) -> tuple[str, tuple[int, ...]]:
    """A new question of `skill` drawn with `rng`, as (kind, numbers): one where the mistake
    `target` can show, when given (and in SKILL_TARGETS[skill])."""
    if skill not in SKILLS:
        raise ValueError(f"skill must be one of {', '.join(SKILLS)}; got {skill!r}")
    if skill == "add-2":
        if target in ("subtracted-abs", "two-negatives-positive") or (
                target is None and rng.random() < 0.3):
            return "sum", _negatives(rng)
        if target == "sign-flipped":  # the one sum whose sign no other mistake explains
            a, b = _negatives(rng)
            return "sum", (-a, -b)
        terms = _mixed(rng)
        while target == "abs-for-sum" and sum(terms) > 0:
            terms = _mixed(rng)
        return "sum", terms
    if skill == "add-3":
        if target == "two-negatives-positive":
            a, b = _negatives(rng)
            return "sum", (a, b, -rng.randint(1, 9))
        a, b = _mixed(rng)
        c = _nz(rng, -9, 9)
        if target is None and rng.random() < 0.4:  # a zero pair to find
            c = -a
        while target is not None and a + b + c == 0:  # a sum whose sign can be flipped
            c = _nz(rng, -9, 9)
        return "sum", (a, b, c)
    if skill == "subtract":
        if target == "subtract-negative-left" or (target is None and rng.random() < 0.5):
            return "difference", (_nz(rng, -9, 9), -rng.randint(1, 9))
        if target == "two-negatives-positive":
            p, q = sorted(_negatives(rng))
            return "difference", (p, q)
        if target == "sign-flipped":  # positive: no other mistake explains its negative
            return "difference", (rng.randint(1, 9), -rng.randint(1, 9))
        return "difference", (-rng.randint(1, 9), rng.randint(1, 9))
    if skill == "abs":
        if target == "subtracted-abs":
            return "abs-sum", _negatives(rng)
        if target in ("sum-for-abs", "added-abs") or rng.random() < 0.5:
            terms = _mixed(rng)
            while sum(terms) >= 0 and target is not None:
                terms = _mixed(rng)
            return "abs-sum", terms
        if target is not None:
            return "abs", (-rng.randint(1, 13),)
        return "abs", (-rng.randint(1, 13) if rng.random() < 0.8 else rng.randint(0, 13),)
    if skill == "distance":
        if target == "distance-sizes-subtracted" or rng.random() < 0.7:
            a, b = _mixed(rng)
            return "distance", (a, b)
        return "distance", _negatives(rng)
    if skill == "compare":
        kind = "greater" if rng.random() < 0.6 else "less"
        if target == "farther-is-greater" or (target is None and rng.random() < 0.5):
            return kind, _negatives(rng)
        near = rng.randint(1, 8)
        terms = (-near, rng.randint(near + 1, 12))
        return kind, terms if rng.random() < 0.5 else (terms[1], terms[0])
    # closer
    near = rng.randint(1, 8)
    if target == "lesser-is-closer" or rng.random() < 0.5:
        terms = (-rng.randint(near + 1, 12), near)  # the lesser one is farther
    elif rng.random() < 0.5:
        terms = (-near, rng.randint(near + 1, 12))
    else:
        terms = (near, -near)
    return "closer", terms if rng.random() < 0.5 else (terms[1], terms[0])


@dataclass
class SkillState:
    """One student's standing in one skill: `streak` right at the first try in a row,
    `today` items answered today, `mastered` (on which day), `flagged` (10 today without
    mastery: the page says to ask the teacher, the dashboard shows it), `recheck` (mastered on
    an earlier day: asked once again)."""

    streak: int = 0
    items: int = 0
    today: int = 0
    mastered_on: str | None = None
    flagged: bool = False
    rechecked: bool = False

    @property
    def mastered(self) -> bool:
        return self.mastered_on is not None

    def status(self) -> str:
        """'not-started', 'practising', 'mastered' or 'flagged'."""
        if self.flagged and not self.mastered:
            return "flagged"
        if self.mastered:
            return "mastered"
        return "practising" if self.items else "not-started"


def skill_of(item: str) -> str | None:
    """The skill of a practice item ('add-2 4'), or None."""
    head = item.split(" ", 1)[0]
    return head if head in SKILLS else None


def progress(firsts: Sequence[tuple[str, str, bool]], today: str) -> dict[str, SkillState]:
    """Each skill's standing from a student's first tries, oldest first: (day, skill, right).
    Mastery: MASTERY_STREAK right in a row; DAILY_LIMIT items of a skill on a day without
    mastery flags it; a skill mastered before `today` wants a re-check (one item) today."""
    out: dict[str, SkillState] = {}
    for day, skill, right in firsts:
        s = out.setdefault(skill, SkillState())
        s.items += 1
        if s.mastered and s.mastered_on != day:
            s.rechecked = s.rechecked or day == today
            if not right and day == today:  # the re-check missed: practise again
                s.mastered_on, s.streak = None, 0
            if day == today:
                s.today += 1
            continue
        s.streak = s.streak + 1 if right else 0
        if day == today:
            s.today += 1
        if s.streak >= MASTERY_STREAK and not s.mastered:
            s.mastered_on = day
        if day == today and s.today >= DAILY_LIMIT and not s.mastered:
            s.flagged = True
    return out


def wants_recheck(state: SkillState, today: str) -> bool:
    """A skill mastered on an earlier day and not re-checked today."""
    return state.mastered and state.mastered_on != today and not state.rechecked
