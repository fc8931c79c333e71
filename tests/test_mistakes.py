"""Which mistake a wrong answer shows (widgets/lessons/mistakes.py): a pure function, each mistake
of the
list with the answers that show it and the answers that do not."""

from __future__ import annotations

import pytest

from widgets.lessons.exit_ticket import TICKETS
from widgets.lessons.mistakes import (
    ADDED_ABS,
    SIGN_OF_SMALLER,
    SUBTRACT_SMALLER,
    SWAPPED,
    Shape,
    classify,
)


@pytest.mark.parametrize(("kind", "terms", "given", "mistake"), [
    # a sum: +3 + (-8) = -5
    ("sum", (3, -8), -5, None),
    ("sum", (3, -8), 11, ADDED_ABS),
    ("sum", (3, -8), -11, ADDED_ABS),
    ("sum", (3, -8), 5, SIGN_OF_SMALLER),
    ("sum", (3, -8), 4, None),
    ("sum", (-9, 13), -4, SIGN_OF_SMALLER),
    ("sum", (-9, 13), 22, ADDED_ABS),
    ("sum", (-2, 5), -3, SIGN_OF_SMALLER),
    ("sum", (6, -9), 3, SIGN_OF_SMALLER),
    # same signs: adding the sizes is right, the sign dropped is |sum| for the sum
    ("sum", (-3, -4), 7, SWAPPED),
    ("sum", (-3, -4), -7, None),
    ("sum", (-3, -4, 3), 10, ADDED_ABS),
    ("sum", (-3, -4, 3), 4, SWAPPED),
    ("sum", (4, 4), -8, None),  # another mistake: not on the list
    # an absolute value
    ("abs", (-11,), 11, None),
    ("abs", (-11,), -11, SWAPPED),
    ("abs", (-11,), 12, None),
    ("abs-sum", (7, -10), 3, None),
    ("abs-sum", (7, -10), -3, SWAPPED),
    ("abs-sum", (7, -10), 17, ADDED_ABS),
    ("abs-sum", (7, -10), 2, None),
    # a difference: -5 - (-2) = -3
    ("difference", (-5, -2), -3, None),
    ("difference", (-5, -2), -7, SUBTRACT_SMALLER),
    ("difference", (1, -4), -3, SUBTRACT_SMALLER),
    ("difference", (1, -4), 3, None),
    ("difference", (-4, 6), -2, None),  # subtracting +6 does make it smaller
])
def test_each_mistake(kind: str, terms: tuple[int, ...], given: int, mistake: str | None) -> None:
    assert classify(Shape(kind, terms), given) == mistake


@pytest.mark.parametrize(("kind", "terms"), [("sum", (1,)), ("abs", (1, 2)), ("difference", (1,)),
                                             ("product", (1, 2)), ("sum", (1, "2"))])
def test_a_shape_that_is_not_one_is_refused(kind: str, terms: tuple) -> None:
    with pytest.raises(ValueError, match="kind|whole numbers"):
        Shape(kind, terms)


def test_every_typed_exit_ticket_question_of_sums_has_its_shape() -> None:
    shaped = [(lesson, i) for lesson, items in TICKETS.items()
              for i, item in enumerate(items, 1) if item.shape is not None]
    assert len(shaped) == 13
    for items in TICKETS.values():
        for item in items:
            if item.shape is not None:
                assert item.shape.answer == item.answer and classify(item.shape,
                                                                     item.answer) is None
