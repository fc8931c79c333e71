"""The unit's two checks: "Check your readiness" at the start of lesson 1 and the end-of-unit
check after the last lesson's exit ticket.

Both ask the same eight skills in the same order, one question each, with the same traps
(the same signs, order and zero pairs) and other numbers, so that a student's start and end
compare skill by skill (the teacher's dashboard puts them side by side):

1. adding two integers of different signs; 2. adding two negative integers; 3. three integers
with a zero pair; 4. subtracting a negative integer; 5. an absolute value; 6. the distance
between two integers across zero; 7. the greatest of negative integers; 8. which of two
integers is closer to zero.

A check is an exit ticket (widgets/lessons/exit_ticket.py) with eight questions, an activity
of its own in the class's store ('readiness' or 'unit-check'), its own words and its own code
(`START-RRXRRRRR`, `END-RRRRRRRR`). Everything else is the ticket's: every question has its
shape, so a wrong answer's mistake is named (engine/mistakes.py) and stored with it; each
student gets numbers of their own (`vary`); the first answer to each question counts; the
printed check (widgets/lessons/kit.py) has the numbers below, with its answer key for the
teacher.

The questions are made from their numbers in the language spoken when they are asked (the
generated questions' words, widgets/words/questions.py), so no question is a sentence of its
own to translate.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from engine.cards import signed
from engine.mistakes import CHOICE_KINDS, Shape
from engine.questions import READINESS, UNIT_CHECKS, UNIT_END
from widgets.lessons.exit_ticket import ExitTicket, Item, choice_label, shown, worked
from widgets.page.language import N_, language, speaks
from widgets.words import _, question_text

CHECKS = UNIT_CHECKS  # READINESS before lesson 1, UNIT_END after the last lesson

# the skills the checks ask, one question each, in the order asked
SKILLS = ("add-signs", "add-negatives", "zero-pair", "subtract-negative", "abs", "distance",
          "compare-negatives", "closer")
SKILL_NAMES = {
    "add-signs": N_("Adding different signs"),
    "add-negatives": N_("Adding two negatives"),
    "zero-pair": N_("Three terms with a zero pair"),
    "subtract-negative": N_("Subtracting a negative"),
    "abs": N_("Absolute value"),
    "distance": N_("Distance across zero"),
    "compare-negatives": N_("Comparing negatives"),
    "closer": N_("Closer to zero"),
}
# what each skill's question asks (engine/mistakes.py's kinds), and its numbers in each check:
# the same signs, order and zero pairs, so the same traps
KINDS = {"add-signs": "sum", "add-negatives": "sum", "zero-pair": "sum",
         "subtract-negative": "difference", "abs": "abs", "distance": "distance",
         "compare-negatives": "greater", "closer": "closer"}
NUMBERS: dict[str, dict[str, tuple[int, ...]]] = {
    READINESS: {"add-signs": (-7, 3), "add-negatives": (-4, -5), "zero-pair": (6, -2, -6),
                "subtract-negative": (-6, -2), "abs": (-9,), "distance": (-4, 6),
                "compare-negatives": (-8, -3, -5), "closer": (-6, 2)},
    UNIT_END: {"add-signs": (-9, 4), "add-negatives": (-3, -8), "zero-pair": (9, -4, -9),
               "subtract-negative": (-9, -4), "abs": (-12,), "distance": (-3, 8),
               "compare-negatives": (-9, -2, -6), "closer": (-9, 5)},
}
# the tip after a wrong answer that shows none of the named mistakes
HINTS = {
    "add-signs": N_("Which card is farther from zero? Its sign wins."),
    "add-negatives": N_("A negative card moves you to the left."),
    "zero-pair": N_("Look for a zero pair first."),
    "subtract-negative": N_("Subtract by adding the opposite."),
    "abs": N_("An absolute value is a distance."),
    "distance": N_("The distance between p and q is |p - q|."),
    "compare-negatives": N_("Greater means farther to the right on the number line."),
    "closer": N_("Compare the distances from zero, not which number is greater."),
}
TITLES = {READINESS: N_("Check your readiness:"), UNIT_END: N_("End-of-unit check:")}
NAMES = {READINESS: N_("Readiness check"), UNIT_END: N_("End-of-unit check")}
# the start of a check's code: the same letters in every language, like R and X
CODES = {READINESS: "START", UNIT_END: "END"}
SIZES = ("abs", "abs-sum", "distance")  # answered without a sign
TRAP_RANGE = range(-40, 41)  # the wrong numbers looked at for the key's named mistakes


def check_item(skill: str, terms: tuple[int, ...]) -> Item:
    """The question of `skill` on the numbers `terms`, in the language spoken now: a typed
    number ("Work out: -7 + (+3) = ?") or a choice among the numbers ("Which is closer to zero:
    -6 or +2?", and "Same distance"), its mistakes named by its shape."""
    kind = KINDS[skill]
    shape = Shape(kind, terms)
    question = question_text(kind, terms)
    if kind in CHOICE_KINDS:
        picks = shape.options()
        return Item(question, choice_label(kind, shape.answer),
                    tuple(choice_label(kind, p) for p in picks), why=worked(shape),
                    hint=HINTS[skill], shape=shape, picks=picks)
    prompt = question if kind == "distance" else _("Work out: {question}").format(
        question=question)
    return Item(prompt, shape.answer, why=worked(shape), hint=HINTS[skill],
                size=kind in SIZES, shape=shape)


def check_items(which: str) -> tuple[Item, ...]:
    """The questions of a check with its printed numbers, in the language spoken now."""
    if which not in CHECKS:
        raise ValueError(f"no unit check {which!r}; the checks are {', '.join(CHECKS)}")
    return _items(which, language())


@functools.lru_cache(maxsize=32)
def _items(which: str, lang: str) -> tuple[Item, ...]:
    """A check's questions in `lang`, made once (the dashboard reads them for every answer;
    an Item does not change)."""
    return tuple(check_item(skill, NUMBERS[which][skill]) for skill in SKILLS)


def skill_of_item(item: str) -> str | None:
    """The skill of a check's question by its number ('3': three terms with a zero pair)."""
    return SKILLS[int(item) - 1] if item.isdigit() and 1 <= int(item) <= len(SKILLS) else None


def check_lesson(which: str) -> int:
    """The lesson whose page holds the check (its answers are filed under it): the first
    lesson for the readiness check, the last for the end-of-unit check."""
    from widgets.lessons.course import student_lessons

    order = student_lessons("en")
    return (order[0] if which == READINESS else order[-1]).number


def code_for(which: str, marks: Sequence[bool]) -> str:
    """The code a student reads out: 'START-RRXRRRRR' (the readiness check, question 3
    missed)."""
    return f"{CODES[which]}-" + "".join("R" if m else "X" for m in marks)


def answer_text(item: Item, given: int) -> str:
    """A typed answer as the key writes it: a size without a sign unless it is negative."""
    return str(given) if item.size and given >= 0 else signed(given)


def traps(item: Item) -> list[tuple[str, str]]:
    """The wrong answers of a question whose mistake is named, as (answer as shown, mistake
    code): each wrong choice that shows one, or each wrong number that does."""
    if item.choices:
        return [(shown(c), m) for c in item.choices
                if c != item.answer and (m := item.mistake(c)) is not None]
    return [(answer_text(item, n), m) for n in TRAP_RANGE
            if n != item.answer and (m := item.mistake(n)) is not None]


class UnitCheck(ExitTicket):
    """A unit check (`which`: READINESS or UNIT_END) on its lesson's page: Start, then its
    eight questions one at a time, each student with numbers of their own."""

    min_items, max_items = len(SKILLS), 10
    dom_class = "icg-unit-check"
    WORDS = {
        **ExitTicket.WORDS,
        "start": N_("Start the check"),
        "again": N_("start the check again for the next student; the code above stays on the "
                    "page"),
        "started": N_("The check has already started."),
        "finish first": N_("Finish the check first: then the next student can start."),
        "press start": N_("Press Start the check first."),
        "finished": N_("The check is finished: read out your code."),
        "code": N_("Read it out or write it down for your teacher: START is the check before "
                   "the unit, END the one after it; then one letter per question (R right, X "
                   "not right)."),
    }

    @speaks
    def __init__(self, which: str, *, lang: str | None = None, student: Any = None) -> None:
        """`student`: who answers (a widgets.lessons.student.Student; default: the page's)."""
        items = check_items(which)
        self.which = which
        self.activity = which
        self.WORDS = {**UnitCheck.WORDS, "title": TITLES[which]}
        super().__init__(check_lesson(which), items, lang=lang, student=student)

    def code_of(self, marks: Sequence[bool]) -> str:
        return code_for(self.which, marks)
