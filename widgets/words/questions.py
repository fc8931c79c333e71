"""The words of a question (engine/questions.py) and of a typed number that is not one, made
from the data in the reader's language."""

from __future__ import annotations

from engine.questions import (
    EMPTY,
    NO_DIGITS,
    NOT_A_NUMBER,
    SIGN_AFTER,
    TOO_LONG,
    TWO_SIGNS,
)
from widgets.words.catalogues import N_, _
from widgets.words.numbers import paren_signed, signed, sum_terms

REFUSED = {
    EMPTY: N_("Type a whole number, for example -3 or 12."),
    SIGN_AFTER: N_("The sign goes before the number: -5, not 5-."),
    TWO_SIGNS: N_("One sign is enough: -5 or +5, not --5."),
    NO_DIGITS: N_("Type the number in digits, for example -5 (not in words)."),
    TOO_LONG: N_("That number is too long: type a whole number such as -13 or 20."),
    NOT_A_NUMBER: N_("Type a whole number, for example -3 or 12."),
}


def number_refused_text(code: str) -> str:
    """Why a typed text is not taken as a whole number, in the language spoken now."""
    return _(REFUSED.get(code, REFUSED[NOT_A_NUMBER]))


def question_text(kind: str, terms: tuple[int, ...]) -> str:
    """A generated question's words: '+3 + (-8) = ?', 'Which is greater: -9 or -2?'."""
    if kind == "sum":
        return f"{sum_terms(terms)} = ?"
    if kind == "abs":
        return f"|{signed(terms[0])}| = ?"
    if kind == "abs-sum":
        return f"|{sum_terms(terms)}| = ?"
    if kind == "difference":
        return f"{signed(terms[0])} - {paren_signed(terms[1])} = ?"
    numbers = _(", ").join(signed(t) for t in terms[:-1])
    last = signed(terms[-1]) if terms else ""
    if kind == "distance":
        return _("What is the distance between {a} and {b}?").format(a=signed(terms[0]), b=last)
    if kind == "greater":
        return _("Which is greater: {numbers} or {last}?").format(numbers=numbers, last=last)
    if kind == "less":
        return _("Which is less: {numbers} or {last}?").format(numbers=numbers, last=last)
    if kind == "closer":
        return _("Which is closer to zero: {numbers} or {last}?").format(numbers=numbers,
                                                                         last=last)
    return ""


SKILL_NAMES = {
    "add-2": N_("Adding two integers"),
    "add-3": N_("Adding three integers"),
    "subtract": N_("Subtracting integers"),
    "abs": N_("Absolute value"),
    "distance": N_("Distance on the number line"),
    "compare": N_("Greater and less"),
    "closer": N_("Closer to zero"),
}
STATUS_NAMES = {
    "not-started": N_("not started"),
    "practising": N_("practising"),
    "mastered": N_("mastered"),
    "flagged": N_("ask the teacher"),
}


def skill_name(skill: str) -> str:
    """A skill's name, in the language spoken now."""
    return _(SKILL_NAMES[skill])


def status_name(status: str) -> str:
    """A skill's standing ('mastered'), in the language spoken now."""
    return _(STATUS_NAMES[status])


def choice_words(kind: str, option: int) -> str:
    """A choice button's words: the number, or "Same distance" for 0 of a 'closer' question."""
    if kind == "closer" and option == 0:
        return _("Same distance")
    return signed(option)
