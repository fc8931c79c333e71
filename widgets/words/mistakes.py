"""The words of each common mistake (engine/mistakes.py): a label for the teacher's
dashboard and the feedback the student reads at once after making it."""

from __future__ import annotations

from widgets.words.catalogues import N_, _

# the teacher's label: says "greater", "less", "closer to zero", never "bigger" or "smaller"
LABELS = {
    "added-abs": N_("added the sizes when the signs differ"),
    "subtracted-abs": N_("subtracted the sizes when the signs agree"),
    "sign-of-closer": N_("right size, sign of the number closer to zero"),
    "two-negatives-positive": N_("\"two negatives make a positive\""),
    "subtract-negative-left": N_("subtracting a negative moved left"),
    "subtract-positive-right": N_("subtracting a positive moved right or was dropped"),
    "sign-flipped": N_("right size, wrong sign"),
    "abs-kept-sign": N_("absolute value or distance given with a sign"),
    "sum-for-abs": N_("gave the sum for |sum|"),
    "abs-for-sum": N_("gave |sum| for the sum"),
    "distance-sizes-subtracted": N_("distance across zero: sizes subtracted"),
    "farther-is-greater": N_("of two negatives, took the one farther from zero as greater"),
    "closer-is-greater": N_("took the number closer to zero as greater"),
    "lesser-is-closer": N_("took the lesser number as closer to zero"),
}

# what the student reads right after the mistake: the number line or the zero pairs
FEEDBACK = {
    "added-abs": N_("The signs differ, so the cards pull opposite ways: make zero pairs, and "
                    "only what is left over counts. Do not add the sizes."),
    "subtracted-abs": N_("Both numbers have the same sign, so they pull the same way: on the "
                         "number line the steps add up, they do not cancel."),
    "sign-of-closer": N_("The size is right, but look at the sign: the number farther from "
                         "zero wins, so the sum takes its sign."),
    "two-negatives-positive": N_("Two minus signs do not make the answer positive here. On "
                                 "the number line, start at the first number and count the "
                                 "steps: where do you land?"),
    "subtract-negative-left": N_("Subtracting a negative number means adding its opposite: "
                                 "on the number line you move right, not left."),
    "subtract-positive-right": N_("Subtracting a positive number means adding its opposite: "
                                  "on the number line you move left, and the first number "
                                  "keeps its sign."),
    "sign-flipped": N_("The size is right, but the sign is not. On the number line, which "
                       "side of zero do you land on?"),
    "abs-kept-sign": N_("An absolute value (a distance) counts the steps from zero, and a "
                        "distance is never negative: drop the sign."),
    "sum-for-abs": N_("That is the sum. The absolute value asks how far the sum is from zero: "
                      "a distance, never negative."),
    "abs-for-sum": N_("That is the distance from zero. The sum keeps its sign: which side of "
                      "zero is it on?"),
    "distance-sizes-subtracted": N_("The two numbers are on opposite sides of zero: count the "
                                    "steps to zero, then the steps on the other side, and add "
                                    "them."),
    "farther-is-greater": N_("Of two negative numbers, the one farther from zero is less: it "
                             "is farther to the left on the number line."),
    "closer-is-greater": N_("Greater means farther to the right on the number line, not closer "
                            "to zero."),
    "lesser-is-closer": N_("Closer to zero means the shorter distance to zero: compare the "
                           "absolute values, not which number is less."),
}


def mistake_label(code: str) -> str:
    """The teacher's name for a mistake, in the language spoken now."""
    return _(LABELS[code])


def mistake_feedback(code: str) -> str:
    """What the student reads after showing the mistake `code`, in the language spoken now."""
    return _(FEEDBACK[code])
