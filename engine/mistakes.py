"""Which mistake a wrong answer shows: a pure function of the question's numbers and the answer.

A question is a `Shape`: what it asks (`kind`) of which numbers (`terms`).

- 'sum': the sum of `terms` (+3 + (-8));
- 'abs': the absolute value of one number (|-11|);
- 'abs-sum': the absolute value of the sum of `terms` (|+7 + (-10)|);
- 'difference': `terms[0] - terms[1]` (-5 - (-2));
- 'distance': the distance between `terms[0]` and `terms[1]` on the number line;
- 'greater' / 'less': which of `terms` is the greatest / the least;
- 'closer': which of `terms` is closer to zero (0: "the same distance").

`both`: the same item asks for the sum and for its absolute value (Hit Me's end-of-round
check), so giving one for the other is its own mistake.

For 'greater', 'less' and 'closer' the answer given is the option picked: one of `terms`, or 0
for "the same". `classify(shape, given)` names the mistake a wrong answer shows, one of
MISTAKES, or None (right, or a mistake not on the list). The words for each mistake (the
teacher's label, the student's feedback) are in widgets/words/mistakes.py.
"""

from __future__ import annotations

from dataclasses import dataclass

ADDED_ABS = "added-abs"
SUBTRACTED_ABS = "subtracted-abs"
SIGN_OF_CLOSER = "sign-of-closer"
TWO_NEGATIVES_POSITIVE = "two-negatives-positive"
SUBTRACT_NEGATIVE_LEFT = "subtract-negative-left"
SUBTRACT_POSITIVE_RIGHT = "subtract-positive-right"
SIGN_FLIPPED = "sign-flipped"
ABS_KEPT_SIGN = "abs-kept-sign"
SUM_FOR_ABS = "sum-for-abs"
ABS_FOR_SUM = "abs-for-sum"
DISTANCE_SIZES_SUBTRACTED = "distance-sizes-subtracted"
FARTHER_IS_GREATER = "farther-is-greater"
CLOSER_IS_GREATER = "closer-is-greater"
LESSER_IS_CLOSER = "lesser-is-closer"
MISTAKES = (ADDED_ABS, SUBTRACTED_ABS, SIGN_OF_CLOSER, TWO_NEGATIVES_POSITIVE,
            SUBTRACT_NEGATIVE_LEFT, SUBTRACT_POSITIVE_RIGHT, SIGN_FLIPPED, ABS_KEPT_SIGN,
            SUM_FOR_ABS, ABS_FOR_SUM, DISTANCE_SIZES_SUBTRACTED, FARTHER_IS_GREATER,
            CLOSER_IS_GREATER, LESSER_IS_CLOSER)
CHOICE_KINDS = ("greater", "less", "closer")
KINDS = ("sum", "abs", "abs-sum", "difference", "distance", *CHOICE_KINDS)
SAME = 0  # the option "the same" of a choice question
MAX_TERMS = 8
# how many numbers each kind takes: (at least, at most)
TERMS = {"sum": (2, MAX_TERMS), "abs-sum": (2, MAX_TERMS), "abs": (1, 1), "difference": (2, 2),
         "distance": (2, 2), "greater": (2, 4), "less": (2, 4), "closer": (2, 4)}


@dataclass(frozen=True)
class Shape:
    """What a question asks (`kind`) of which numbers (`terms`); `both`: the same item asks
    for the sum and its absolute value."""

    kind: str
    terms: tuple[int, ...]
    both: bool = False

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {', '.join(KINDS)}; got {self.kind!r}")
        low, high = TERMS[self.kind]
        if (not isinstance(self.terms, tuple) or not low <= len(self.terms) <= high
                or not all(type(t) is int for t in self.terms)):
            raise ValueError(f"a {self.kind!r} question has {low} to {high} whole numbers; "
                             f"got {self.terms!r}")
        if self.kind in CHOICE_KINDS and (0 in self.terms
                                          or len(set(self.terms)) != len(self.terms)):
            raise ValueError(f"a {self.kind!r} question compares different whole numbers "
                             f"other than 0; got {self.terms!r}")
        if self.both and self.kind not in ("sum", "abs-sum"):
            raise ValueError("only a sum or the absolute value of a sum is asked for both")

    @property
    def answer(self) -> int:
        """The right answer (for a choice: the right option, 0 for "the same")."""
        t = self.terms
        if self.kind == "difference":
            return t[0] - t[1]
        if self.kind == "distance":
            return abs(t[0] - t[1])
        if self.kind == "greater":
            return max(t)
        if self.kind == "less":
            return min(t)
        if self.kind == "closer":  # "the same" when two or more share the least distance
            nearest = min(abs(x) for x in t)
            ties = [x for x in t if abs(x) == nearest]
            return ties[0] if len(ties) == 1 else SAME
        total = sum(t)
        return abs(total) if self.kind in ("abs", "abs-sum") else total

    def options(self) -> tuple[int, ...]:
        """The options of a choice question: its numbers, and 0 ("the same") for 'closer'."""
        if self.kind not in CHOICE_KINDS:
            return ()
        return (*self.terms, SAME) if self.kind == "closer" else self.terms


def classify(shape: Shape, given: int) -> str | None:
    """The mistake the answer `given` shows (one of MISTAKES), or None: right, or a mistake
    not on the list."""
    if type(given) is not int or given == shape.answer:
        return None
    if shape.kind in CHOICE_KINDS:
        return _choice(shape, given) if given in shape.options() else None
    return {"sum": _sum, "abs": _abs, "abs-sum": _abs, "difference": _difference,
            "distance": _distance}[shape.kind](shape, given)


def _signs(terms: tuple[int, ...]) -> set[bool]:
    return {t > 0 for t in terms if t}


def _sum(shape: Shape, given: int) -> str | None:
    terms = shape.terms
    total = sum(terms)
    sizes = sum(abs(t) for t in terms)
    if shape.both and total < 0 and given == -total:
        return ABS_FOR_SUM
    nonzero = [t for t in terms if t]
    if len(_signs(terms)) > 1:  # the signs differ
        if abs(given) == sizes:
            return ADDED_ABS
        if len(nonzero) == 2 and given == -total:
            closer, farther = sorted(nonzero, key=abs)
            if abs(closer) < abs(farther) and (given > 0) == (closer > 0):
                return SIGN_OF_CLOSER
    elif len(nonzero) >= 2:  # the signs agree
        if nonzero[0] < 0 and given == sizes:
            return TWO_NEGATIVES_POSITIVE
        if len(nonzero) == 2 and abs(nonzero[0]) != abs(nonzero[1]) and abs(given) == abs(
                abs(nonzero[0]) - abs(nonzero[1])):
            return SUBTRACTED_ABS
    if total != 0 and given == -total:
        return SIGN_FLIPPED
    return None


def _abs(shape: Shape, given: int) -> str | None:
    terms = shape.terms
    total = sum(terms)
    if total < 0 and given == total:
        return SUM_FOR_ABS if shape.both else ABS_KEPT_SIGN
    if shape.kind == "abs-sum":
        nonzero = [t for t in terms if t]
        if len(_signs(terms)) > 1 and abs(given) == sum(abs(t) for t in terms):
            return ADDED_ABS
        if (len(_signs(terms)) == 1 and len(nonzero) == 2 and abs(nonzero[0]) != abs(nonzero[1])
                and abs(given) == abs(abs(nonzero[0]) - abs(nonzero[1]))):
            return SUBTRACTED_ABS
    if total > 0 and given == -total:
        return SIGN_FLIPPED
    return None


def _difference(shape: Shape, given: int) -> str | None:
    p, q = shape.terms
    right = p - q
    if q < 0:
        if right < 0 and given == -right:  # -5 - (-2) = +3
            return TWO_NEGATIVES_POSITIVE
        if given == p + q:  # moved left by |q|
            return SUBTRACT_NEGATIVE_LEFT
    elif q > 0:
        # moved right by q; or the minus of a negative p dropped (4 - 6, 4 + 6)
        if given == p + q or (p < 0 and given in (-p - q, -p + q)):
            return SUBTRACT_POSITIVE_RIGHT
    if right != 0 and given == -right:
        return SIGN_FLIPPED
    return None


def _distance(shape: Shape, given: int) -> str | None:
    p, q = shape.terms
    right = abs(p - q)
    if p and q and (p > 0) != (q > 0) and given == abs(abs(p) - abs(q)):
        return DISTANCE_SIZES_SUBTRACTED
    if right and given == -right:
        return ABS_KEPT_SIGN
    return None


def _choice(shape: Shape, given: int) -> str | None:
    terms = shape.terms
    if shape.kind == "closer":
        # the lesser number picked as closer (also when both are the same distance)
        return LESSER_IS_CLOSER if given == min(terms) else None
    if given == SAME:
        return None
    if shape.kind == "greater":
        # `given` is taken for the greatest
        thought_greater, right = given, max(terms)
    else:
        # the least picked wrongly: when there are two, the one not picked is taken as greater
        if len(terms) != 2:
            return None
        thought_greater, right = min(terms), max(terms)
    if all(t < 0 for t in terms):
        return FARTHER_IS_GREATER
    if abs(thought_greater) == min(abs(t) for t in terms) and abs(thought_greater) < abs(right):
        return CLOSER_IS_GREATER
    return None
