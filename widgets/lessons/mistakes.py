"""Which mistake a wrong answer shows: a pure function of the question's numbers and the answer.

A question is a `Shape`: what it asks of which numbers.

- 'sum': the sum of `terms` (+3 + (-8)),
- 'abs': the absolute value of one number (|-11|),
- 'abs-sum': the absolute value of the sum of `terms` (|+7 + (-10)|),
- 'difference': `terms[0] - terms[1]` (-5 - (-2)).

`classify(shape, given)` names the mistake a wrong whole-number answer shows, or None (right,
or a mistake not on the list):

- ADDED_ABS, "added the absolute values": the sizes added whatever the signs (+3 + (-8) = 11 or
  -11; |+7 + (-10)| = 17);
- SIGN_OF_SMALLER, "took the sign of the smaller": the right size with the sign of the number
  closer to zero (+3 + (-8) = +5);
- SUBTRACT_SMALLER, "subtracting made it smaller": a subtraction of a negative number that
  moved left instead of right (-5 - (-2) = -7; +1 - (-4) = -3);
- SWAPPED, "sum and |sum| swapped": the sum given for its absolute value (|-3| = -3), or the
  absolute value for a negative sum whose sign no other mistake explains.
"""

from __future__ import annotations

from dataclasses import dataclass

ADDED_ABS = "added-abs"
SIGN_OF_SMALLER = "sign-of-smaller"
SUBTRACT_SMALLER = "subtract-smaller"
SWAPPED = "sum-abs-swapped"
MISTAKES = (ADDED_ABS, SIGN_OF_SMALLER, SUBTRACT_SMALLER, SWAPPED)
KINDS = ("sum", "abs", "abs-sum", "difference")


@dataclass(frozen=True)
class Shape:
    """What a question asks (`kind`) of which numbers (`terms`)."""

    kind: str
    terms: tuple[int, ...]

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {', '.join(KINDS)}; got {self.kind!r}")
        wanted = {"abs": (1, 1), "difference": (2, 2)}.get(self.kind, (2, 8))
        if not wanted[0] <= len(self.terms) <= wanted[1] or not all(
                type(t) is int for t in self.terms):
            raise ValueError(f"a {self.kind!r} question has {wanted[0]} to {wanted[1]} whole "
                             f"numbers; got {self.terms!r}")

    @property
    def answer(self) -> int:
        if self.kind == "difference":
            return self.terms[0] - self.terms[1]
        total = sum(self.terms)
        return abs(total) if self.kind in ("abs", "abs-sum") else total


def classify(shape: Shape, given: int) -> str | None:
    """The mistake the answer `given` shows (one of MISTAKES), or None: right, or another
    mistake."""
    right = shape.answer
    if given == right:
        return None
    terms = shape.terms
    if shape.kind == "abs":
        return SWAPPED if given == terms[0] else None
    if shape.kind == "abs-sum":
        total = sum(terms)
        if given == total:
            return SWAPPED
        return ADDED_ABS if abs(given) == sum(abs(t) for t in terms) else None
    if shape.kind == "difference":
        p, q = terms
        if q < 0 and given == p - abs(q):
            return SUBTRACT_SMALLER
        return None
    # a sum
    if abs(given) == sum(abs(t) for t in terms) and len({t > 0 for t in terms if t}) > 1:
        return ADDED_ABS
    if given == -right and right != 0:
        smaller = min((t for t in terms if t), key=abs)
        larger = max(terms, key=abs)
        if abs(smaller) < abs(larger) and (given > 0) == (smaller > 0):
            return SIGN_OF_SMALLER
        if right < 0:
            return SWAPPED
    return None
