"""Which mistake a wrong answer shows (engine/mistakes.py): a pure function. Each mistake
on several items, with the answers that show it and answers close to it that must stay unnamed;
each mistake's words for the teacher and the student, in English and Spanish."""

from __future__ import annotations

import re

import pytest

from engine.mistakes import (
    ABS_FOR_SUM,
    ABS_KEPT_SIGN,
    ADDED_ABS,
    CLOSER_IS_GREATER,
    DISTANCE_SIZES_SUBTRACTED,
    FARTHER_IS_GREATER,
    KINDS,
    LESSER_IS_CLOSER,
    MISTAKES,
    SAME,
    SIGN_FLIPPED,
    SIGN_OF_CLOSER,
    SUBTRACT_NEGATIVE_LEFT,
    SUBTRACT_POSITIVE_RIGHT,
    SUBTRACTED_ABS,
    SUM_FOR_ABS,
    TWO_NEGATIVES_POSITIVE,
    Shape,
    classify,
)
from widgets.lessons.exit_ticket import TICKETS
from widgets.words import mistake_feedback, mistake_label, speaking
from widgets.words.mistakes import FEEDBACK, LABELS

NAMED = [
    # the sizes added when the signs differ
    ("sum", (3, -8), 11, ADDED_ABS), ("sum", (3, -8), -11, ADDED_ABS),
    ("sum", (-9, 13), 22, ADDED_ABS), ("sum", (-3, -4, 3), 10, ADDED_ABS),
    ("abs-sum", (7, -10), 17, ADDED_ABS), ("sum", (5, -5), -10, ADDED_ABS),
    # the sizes subtracted when the signs agree
    ("sum", (-3, -4), -1, SUBTRACTED_ABS), ("sum", (-3, -4), 1, SUBTRACTED_ABS),
    ("sum", (2, 9), 7, SUBTRACTED_ABS), ("abs-sum", (-2, -9), 7, SUBTRACTED_ABS),
    # the right size with the sign of the number closer to zero
    ("sum", (3, -8), 5, SIGN_OF_CLOSER), ("sum", (-9, 13), -4, SIGN_OF_CLOSER),
    ("sum", (-2, 5), -3, SIGN_OF_CLOSER), ("sum", (6, -9), 3, SIGN_OF_CLOSER),
    # "two negatives make a positive"
    ("sum", (-2, -5), 7, TWO_NEGATIVES_POSITIVE), ("sum", (-3, -4), 7, TWO_NEGATIVES_POSITIVE),
    ("difference", (-5, -2), 3, TWO_NEGATIVES_POSITIVE),
    ("difference", (-9, -1), 8, TWO_NEGATIVES_POSITIVE),
    # subtracting a negative moved left
    ("difference", (-5, -2), -7, SUBTRACT_NEGATIVE_LEFT),
    ("difference", (1, -4), -3, SUBTRACT_NEGATIVE_LEFT),
    ("difference", (6, -2), 4, SUBTRACT_NEGATIVE_LEFT),
    # subtracting a positive moved right, or the first number's minus dropped
    ("difference", (-4, 6), 2, SUBTRACT_POSITIVE_RIGHT),
    ("difference", (-4, 6), 10, SUBTRACT_POSITIVE_RIGHT),
    ("difference", (-4, 6), -2, SUBTRACT_POSITIVE_RIGHT),
    ("difference", (3, 5), 8, SUBTRACT_POSITIVE_RIGHT),
    # the right size with the wrong sign, explained by nothing else
    ("sum", (4, 4), -8, SIGN_FLIPPED), ("sum", (-3, -4, 3), 4, SIGN_FLIPPED),
    ("difference", (1, -4), -5, SIGN_FLIPPED), ("difference", (7, 3), -4, SIGN_FLIPPED),
    ("abs-sum", (10, 5), -15, SIGN_FLIPPED), ("abs", (7,), -7, SIGN_FLIPPED),
    # an absolute value or a distance with the number's sign
    ("abs", (-11,), -11, ABS_KEPT_SIGN), ("abs-sum", (7, -10), -3, ABS_KEPT_SIGN),
    ("abs", (-3,), -3, ABS_KEPT_SIGN), ("distance", (-3, 5), -8, ABS_KEPT_SIGN),
    # the same item asks for the sum and |sum|
    ("abs-sum", (7, -10), -3, SUM_FOR_ABS, True), ("abs-sum", (-1, -6), -7, SUM_FOR_ABS, True),
    ("sum", (-3, -4), 7, ABS_FOR_SUM, True), ("sum", (6, -9), 3, ABS_FOR_SUM, True),
    # a distance across zero, the sizes subtracted
    ("distance", (-3, 5), 2, DISTANCE_SIZES_SUBTRACTED),
    ("distance", (4, -9), 5, DISTANCE_SIZES_SUBTRACTED),
    ("distance", (-6, 1), 5, DISTANCE_SIZES_SUBTRACTED),
    # of two negatives, the one farther from zero taken as greater
    ("greater", (-9, -2), -9, FARTHER_IS_GREATER), ("greater", (-3, -8), -8, FARTHER_IS_GREATER),
    ("less", (-9, -2), -2, FARTHER_IS_GREATER), ("greater", (-7, -5, -1), -5, FARTHER_IS_GREATER),
    # the number closer to zero taken as greater
    ("greater", (-1, 6), -1, CLOSER_IS_GREATER), ("greater", (-6, -1, 4), -1, CLOSER_IS_GREATER),
    ("greater", (5, -2), -2, CLOSER_IS_GREATER), ("less", (-1, 6), 6, CLOSER_IS_GREATER),
    # the lesser number taken as closer to zero
    ("closer", (-7, 2), -7, LESSER_IS_CLOSER), ("closer", (-2, -7), -7, LESSER_IS_CLOSER),
    ("closer", (6, -6), -6, LESSER_IS_CLOSER), ("closer", (3, -10), -10, LESSER_IS_CLOSER),
    # of three sums, "the least wins" (Hit Me: Ana +3, Ben -1, Cam -4)
    ("closer", (3, -1, -4), -4, LESSER_IS_CLOSER),
]

UNNAMED = [
    # right answers
    ("sum", (3, -8), -5), ("abs", (-11,), 11), ("abs-sum", (7, -10), 3),
    ("difference", (-5, -2), -3), ("distance", (-3, 5), 8), ("greater", (-9, -2), -2),
    ("less", (-1, 6), -1), ("closer", (-2, 5), -2), ("closer", (6, -6), SAME),
    ("closer", (3, -1, -4), -1), ("closer", (4, -2, 2), SAME),
    # other wrong answers: no mistake on the list explains them
    ("sum", (3, -8), 4), ("sum", (-3, -4), 6), ("abs", (-11,), 12), ("abs-sum", (7, -10), 2),
    ("difference", (1, -4), 3), ("difference", (-4, 6), -3), ("distance", (-2, -7), 9),
    ("distance", (2, 7), -3), ("greater", (-6, -1, 4), -6), ("greater", (-2, 5), SAME),
    ("closer", (-2, 5), 5), ("closer", (-2, 5), SAME), ("closer", (4, -4), 4),
    ("closer", (3, -1, -4), 3), ("closer", (3, -1, -4), SAME),
    # adding the sizes is right when the signs agree: |(+10) + (+5)| = 15, -2 + (-5) = -7
    ("abs-sum", (10, 5), 15), ("sum", (-2, -5), -7),
    # the sizes subtracted when they are equal gives 0: not named
    ("sum", (-4, -4), 0),
    # subtracting +6 does make it less
    ("difference", (-4, 6), -10),
    # an option that is not one
    ("greater", (-9, -2), 4), ("closer", (-7, 2), 7),
]


@pytest.mark.parametrize("case", NAMED, ids=lambda c: f"{c[0]}{c[1]}={c[2]}")
def test_each_mistake_is_named(case: tuple) -> None:
    kind, terms, given, mistake, *both = case
    shape = Shape(kind, terms, both=bool(both))
    assert classify(shape, given) == mistake


@pytest.mark.parametrize("case", UNNAMED, ids=lambda c: f"{c[0]}{c[1]}={c[2]}")
def test_answers_that_stay_unnamed(case: tuple) -> None:
    kind, terms, given = case
    assert classify(Shape(kind, terms), given) is None


def test_every_mistake_is_shown_on_at_least_three_items() -> None:
    items: dict[str, set] = {m: set() for m in MISTAKES}
    for kind, terms, _given, mistake, *_both in NAMED:
        items[mistake].add((kind, terms))
    assert {m: len(v) for m, v in items.items() if len(v) < 2} == {}
    assert set(items) == set(MISTAKES) and len(MISTAKES) == 14


def test_every_kind_is_used() -> None:
    assert {c[0] for c in NAMED} == set(KINDS)


def test_classify_takes_whole_numbers_only() -> None:
    assert classify(Shape("sum", (3, -8)), "11") is None  # type: ignore[arg-type]
    assert classify(Shape("sum", (3, -8)), True) is None  # type: ignore[arg-type]


@pytest.mark.parametrize(("kind", "terms"), [
    ("sum", (1,)), ("abs", (1, 2)), ("difference", (1,)), ("product", (1, 2)), ("sum", (1, "2")),
    ("greater", (3, 3)), ("closer", (0, 4)), ("closer", (1, 2, 3, 4, 5)),
    ("distance", (1, 2, 3))])
def test_a_shape_that_is_not_one_is_refused(kind: str, terms: tuple) -> None:
    with pytest.raises(ValueError, match="kind|whole numbers"):
        Shape(kind, terms)


def test_only_a_sum_or_its_absolute_value_is_asked_for_both() -> None:
    with pytest.raises(ValueError, match="both"):
        Shape("difference", (1, 2), both=True)


@pytest.mark.parametrize("lang", ["en", "es"])
def test_every_mistake_has_a_label_and_feedback_in_each_language(lang: str) -> None:
    assert set(LABELS) == set(FEEDBACK) == set(MISTAKES)
    with speaking(lang):
        labels = [mistake_label(m) for m in MISTAKES]
        feedback = [mistake_feedback(m) for m in MISTAKES]
    assert len(set(labels)) == len(labels) and len(set(feedback)) == len(feedback)
    if lang == "es":
        with speaking("en"):
            assert not set(labels) & {mistake_label(m) for m in MISTAKES}
            assert not set(feedback) & {mistake_feedback(m) for m in MISTAKES}
    for text in feedback:  # points at the number line or at zero pairs
        assert re.search(r"number line|zero|recta numérica|cero", text), text


def test_the_teachers_labels_say_greater_and_less_not_bigger_or_smaller() -> None:
    with speaking("en"):
        words = " ".join(mistake_label(m) + " " + mistake_feedback(m) for m in MISTAKES)
    assert not re.search(r"\b(bigger|smaller|larger)\b", words)


def test_every_typed_exit_ticket_question_of_sums_has_its_shape() -> None:
    for items in TICKETS.values():
        for item in items:
            if item.shape is not None and not item.choices:
                assert item.shape.answer == item.answer
                assert classify(item.shape, item.answer) is None
