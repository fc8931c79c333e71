"""A problem set per lesson: homework (or practice on one's own) at the end of lessons 1 to 6.

Seven questions on what the lesson teaches and the skills before it, some in words about money
and debt, temperature, a lift, sea level and the card games. A problem set is an exit ticket
(widgets/lessons/exit_ticket.py) with its own activity in the class's store ('problem-set',
filed under the lesson), its own words and its own code (`P3-RRXRRRR`: lesson 3's set,
question 3 missed). Everything else is the ticket's: every question has its shape, so a wrong
answer's mistake is named (engine/mistakes.py) and stored with it; each student gets numbers
of their own (`vary`: a story keeps its words, and its cards are cards of its game); the
first answer to each question counts. On the static site (no server) nothing is kept: the set
says it is homework and the student writes the code down for the teacher. The printed sets
(widgets/lessons/kit.py) have the numbers below; their answer key is for the teacher only.

A question is data (`Problem`: what it asks of which numbers, its story, how it is answered);
its words are made from it in the language spoken when it is asked.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.cards import signed
from engine.mistakes import CHOICE_KINDS, Shape
from widgets.lessons.exit_ticket import ExitTicket, Item, choice_label, fill, worked
from widgets.page.in_browser import IN_BROWSER
from widgets.page.language import N_, language, speaks
from widgets.table.render import esc
from widgets.words import _, question_text

PROBLEM_SET = "problem-set"  # what a problem set's answers are filed under in the class's store
CODE = "P"  # the start of a set's code, before the lesson: the same letter in every language
MIN_PROBLEMS, MAX_PROBLEMS = 6, 8

# how a question is answered
TYPED = "typed"  # a whole number typed (for a choice kind: a choice among its numbers)
SIGN = "sign"  # Positive, Negative or Zero: the sign of a sum, before working it out
NAMES = "names"  # a player's name: whose number it is (and "They tie" for two players)
ORDER = "order"  # which of "a > b", "a < b" and "a = b" is true


@dataclass(frozen=True)
class Problem:
    """One question of a set as data: what it asks (`kind`, engine/mistakes.py) of which
    numbers (`terms`); `story`: its words, with fields for the numbers (exit_ticket.fill:
    {0}, {1} signed, {sum} them added, {h0} a Hit Me card's rank, {r0} a Flapjack card's), ''
    for the generated words ("Work out: +5 + (-8) = ?"); `ask`: how it is answered (TYPED,
    SIGN, NAMES, ORDER); `names`: the players of a NAMES question; `hint`: the tip after a
    wrong answer that shows none of the named mistakes."""

    kind: str
    terms: tuple[int, ...]
    story: str = ""
    ask: str = TYPED
    names: tuple[str, ...] = ()
    hint: str = ""

    def __post_init__(self) -> None:
        shape = Shape(self.kind, self.terms)
        if self.ask == SIGN and (self.kind != "sum" or shape.answer == 0):
            raise ValueError(f"{self.terms!r}: the sign of a sum that is not 0")
        if self.ask == NAMES and (self.kind not in ("closer", "greater")
                                  or len(self.names) != len(self.terms)):
            raise ValueError(f"{self.terms!r}: one name per number")
        if self.ask == ORDER and (self.kind != "greater" or len(self.terms) != 2):
            raise ValueError(f"{self.terms!r}: two numbers to order")
        if self.ask == TYPED and self.kind in CHOICE_KINDS and self.story:
            raise ValueError(f"{self.terms!r}: a choice among the numbers has their words")
        if self.story:
            fill(self.story, self.terms)  # KeyError: a number that is no card of its story


# the tips, by what a question asks
ADD_SIGNS = N_("Which card is farther from zero? Its sign wins.")
ADD_NEGATIVES = N_("A negative card moves you to the left.")
ZERO_PAIR = N_("Look for a zero pair first.")
SUBTRACT = N_("Subtract by adding the opposite.")
ABS = N_("An absolute value is a distance.")
ABS_SUM = N_("Add with the signs first, then take the distance from zero.")
DISTANCE = N_("The distance between p and q is |p - q|.")
ACROSS_ZERO = N_("Count the steps to zero, then the steps from zero.")
GREATER = N_("Greater means farther to the right on the number line.")
GREATER_NOT_CLOSER = N_("Greater is not the same as closer to zero.")
LESS = N_("Less means farther to the left on the number line.")
CLOSER = N_("Compare the distances from zero, not which number is greater.")
WINS = N_("Compare the distances from zero.")
TIE = N_("How far is each sum from zero?")
SCORE = N_("A score is a distance, never negative.")
DEBT = N_("A debt counts negative: it moves what you are worth to the left.")
DEBT_AWAY = N_("Taking a debt away is adding its opposite: you move right on the number line.")
WARMER = N_("On a thermometer up is positive: start at the first reading and move by the "
            "change.")
CHANGE = N_("Change = end - start: subtract by adding the opposite.")
SEA_LEVEL = N_("Below sea level is negative, and a distance is never negative.")

HIT_ME = ("Ana", "Ben", "Cam")  # the players of a round's final sums
PAIR = ("Dee", "Eli")
TIE_WORDS = N_("They tie")
SIGN_WORDS = (N_("Positive"), N_("Negative"), N_("Zero"))
SIGN_STORY = N_("Before you work it out: is {sum} positive, negative or zero?")
ORDER_PROMPT = N_("Which is true?")

# keyed by the lesson's number in the unit (widgets/lessons/course.py), in that order
SETS: dict[int, tuple[Problem, ...]] = {
    1: (  # card values and the number line, opposites and zero pairs, adding
        Problem("sum", (5, -8), hint=ADD_SIGNS),
        Problem("sum", (-4, -6), hint=ADD_NEGATIVES),
        Problem("sum", (-7, 2, 7), hint=ZERO_PAIR),
        Problem("greater", (-7, -2, -4), hint=GREATER),
        Problem("sum", (3, -9), SIGN_STORY, ask=SIGN, hint=ADD_SIGNS),
        Problem("sum", (-5, 8),
                N_("At 6 am a thermometer reads {0} °C. By noon the temperature has changed "
                   "by {1} degrees. What does it read at noon, in °C?"), hint=WARMER),
        Problem("sum", (6, -10),
                N_("You have {0} dollars in cash and a debt card of {1}. What are you worth, "
                   "in dollars?"), hint=DEBT),
    ),
    2: (  # distance from zero, which is closer to zero; and adding
        Problem("abs", (-13,), hint=ABS),
        Problem("closer", (-7, 4), hint=CLOSER),
        Problem("closer", (5, -5), hint=CLOSER),
        Problem("abs-sum", (8, -11), hint=ABS_SUM),
        Problem("abs", (-9,),
                N_("A diver is at {0} metres (below sea level is negative). How far is the "
                   "diver from sea level, in metres?"), hint=SEA_LEVEL),
        Problem("greater", (-1, -6, 3), hint=GREATER_NOT_CLOSER),
        Problem("sum", (-6, -5), hint=ADD_NEGATIVES),
    ),
    3: (  # Hit Me: a hand's sum, its score |sum|, who wins
        Problem("sum", (7, -10),
                N_("In Hit Me your cards are {h0}\u2663 and {h1}\u2666. What is your sum?"),
                hint=ADD_SIGNS),
        Problem("abs-sum", (-8, 3),
                N_("In Hit Me your cards are {h0}\u2665 and {h1}\u2660. What is your score?"),
                hint=SCORE),
        Problem("closer", (-2, 4, -5), N_("Final sums: Ana {0}, Ben {1}, Cam {2}. Who wins?"),
                ask=NAMES, names=HIT_ME, hint=WINS),
        Problem("sum", (-4, -5),
                N_("Your Hit Me sum is {0}. You hit and get {h1}\u2666 ({1}). What is your new "
                   "sum?"), hint=ADD_NEGATIVES),
        Problem("closer", (3, -3), N_("Final sums: Dee {0}, Eli {1}. Who wins?"), ask=NAMES,
                names=PAIR, hint=TIE),
        Problem("sum", (9, -4, -9),
                N_("Your Hit Me hand holds {h0}\u2660, {h1}\u2665 and {h2}\u2666. What is your "
                   "sum?"), hint=ZERO_PAIR),
        Problem("greater", (-4, -10, -7), hint=GREATER),
    ),
    4: (  # subtracting as adding the opposite, distance as |p - q|, < and >
        Problem("difference", (-6, -4), hint=SUBTRACT),
        Problem("difference", (3, -5), hint=SUBTRACT),
        Problem("difference", (-2, 7), hint=SUBTRACT),
        Problem("difference", (-4, -6),
                N_("You are worth {0} dollars. A debt card of {1} is taken away. What are you "
                   "worth now, in dollars?"), hint=DEBT_AWAY),
        Problem("difference", (-7, 4),
                N_("At noon a thermometer reads {1} °C; at midnight it reads {0} °C. What is "
                   "the change, end minus start, in degrees?"), hint=CHANGE),
        Problem("distance", (-5, 12),
                N_("A fish swims at {0} metres and a bird flies at {1} metres (below sea "
                   "level is negative). How far apart are they, in metres?"),
                hint=ACROSS_ZERO),
        Problem("greater", (-8, -3), ask=ORDER, hint=LESS),
    ),
    5: (  # Flapjack: running totals, subtracting a negative in play
        Problem("sum", (5, -9),
                N_("In Flapjack the total is {0}. You play {r1}\u2665 ({1}). What is the new "
                   "total?"), hint=ADD_SIGNS),
        Problem("sum", (-7, -6), hint=ADD_NEGATIVES),
        Problem("difference", (-9, -4),
                N_("In Flapjack's signed add or subtract the total is {0}. You subtract "
                   "{r1}\u2666 ({1}). What is the new total?"), hint=SUBTRACT),
        Problem("difference", (6, -5), hint=SUBTRACT),
        Problem("distance", (-3, 8),
                N_("A lift goes from floor {0} to floor {1} (floor 0 is the street, the floors "
                   "below it are negative). How many floors does it go up?"), hint=ACROSS_ZERO),
        Problem("sum", (-4, 11), SIGN_STORY, ask=SIGN, hint=ADD_SIGNS),
        Problem("greater", (-12, -4, -9), hint=GREATER),
    ),
    6: (  # the strategy lab's |sum| and winners, and the unit's skills
        Problem("abs-sum", (4, -9),
                N_("Your first two Hit Me cards are {h0}\u2663 ({0}) and {h1}\u2665 ({1}). At "
                   "which |sum| of the chart's bottom axis do you look?"), hint=ABS_SUM),
        Problem("closer", (-3, 5, -6), N_("Final sums: Ana {0}, Ben {1}, Cam {2}. Who wins?"),
                ask=NAMES, names=HIT_ME, hint=WINS),
        Problem("difference", (-8, -3), hint=SUBTRACT),
        Problem("sum", (4, -9, -4), hint=ZERO_PAIR),
        Problem("distance", (-7, 6), hint=DISTANCE),
        Problem("sum", (-3, -8),
                N_("You are worth {0} dollars and take on a new debt of {1}. What are you worth "
                   "now, in dollars?"), hint=DEBT),
        Problem("closer", (-4, 3), hint=CLOSER),
    ),
}
SIZES = ("abs", "abs-sum", "distance")  # answered without a sign


def problem_item(problem: Problem) -> Item:
    """The question of `problem`, in the language spoken now: a typed number ("Work out: -6 -
    (-4) = ?", or its story), a choice among its numbers ("Which is greater: -7, -2 or -4?"),
    of the sign of a sum, of a player's name, or of the true one of three statements."""
    shape = Shape(problem.kind, problem.terms)
    template = _(problem.story) if problem.story else ""
    prompt = fill(template, problem.terms) if template else ""
    common: dict[str, Any] = {"why": worked(shape), "hint": problem.hint, "shape": shape}
    if problem.ask == SIGN:
        size = abs(shape.answer)
        picks = (size, -size, 0)
        return Item(prompt, SIGN_WORDS[picks.index(shape.answer)], SIGN_WORDS, picks=picks,
                    template=template, **common)
    if problem.ask == NAMES:
        picks = problem.terms + ((0,) if len(problem.terms) == 2 else ())
        choices = problem.names + ((TIE_WORDS,) if len(problem.terms) == 2 else ())
        return Item(prompt, choices[picks.index(shape.answer)], choices, picks=picks,
                    template=template, **common)
    if problem.ask == ORDER:
        a, b = (signed(t) for t in problem.terms)
        choices = (f"{a} > {b}", f"{a} < {b}", f"{a} = {b}")
        picks = (*problem.terms, 0)
        return Item(_(ORDER_PROMPT), choices[picks.index(shape.answer)], choices,
                    picks=picks, **common)
    if problem.kind in CHOICE_KINDS:
        picks = shape.options()
        return Item(question_text(problem.kind, problem.terms),
                    choice_label(problem.kind, shape.answer),
                    tuple(choice_label(problem.kind, p) for p in picks), picks=picks, **common)
    if not prompt:
        question = question_text(problem.kind, problem.terms)
        prompt = question if problem.kind == "distance" else _("Work out: {question}").format(
            question=question)
    return Item(prompt, shape.answer, size=problem.kind in SIZES, template=template, **common)


def set_items(lesson: int) -> tuple[Item, ...]:
    """The questions of a lesson's problem set with their printed numbers, in the language
    spoken now."""
    if lesson not in SETS:
        raise ValueError(f"no problem set for lesson {lesson!r}; there are sets for lessons "
                         f"{', '.join(map(str, SETS))}")
    return _items(lesson, language())


@functools.lru_cache(maxsize=64)
def _items(lesson: int, lang: str) -> tuple[Item, ...]:
    """A set's questions in `lang`, made once (the dashboard reads them for every answer; an
    Item does not change)."""
    return tuple(problem_item(p) for p in SETS[lesson])


def code_for(lesson: int, marks: Sequence[bool]) -> str:
    """The code a student writes down: 'P3-RRXRRRR' (lesson 3's set, question 3 missed)."""
    return f"{CODE}{lesson}-" + "".join("R" if m else "X" for m in marks)


class ProblemSet(ExitTicket):
    """The problem set of `lesson` at the end of its page: Start, then its questions one at a
    time, each student with numbers of their own."""

    activity = PROBLEM_SET
    min_items, max_items = MIN_PROBLEMS, MAX_PROBLEMS
    dom_class = "icg-problem-set"
    WORDS = {
        **ExitTicket.WORDS,
        "title": N_("Problem set, lesson {lesson}:"),
        "start": N_("Start the problem set"),
        "again": N_("start the problem set again for the next student; the code above stays "
                    "on the page"),
        "started": N_("The problem set has already started."),
        "finish first": N_("Finish the problem set first: then the next student can start."),
        "press start": N_("Press Start the problem set first."),
        "finished": N_("The problem set is finished: write down your code."),
        "code": N_("Write it down for your teacher: the number after P is the lesson, then one "
                   "letter per question (R right, X not right)."),
    }
    # on a page with no class server (the static site): nothing is kept
    HOMEWORK = N_("Homework: this page keeps nothing, so write down your code at the end and "
                  "give it to your teacher.")

    @speaks
    def __init__(self, lesson: int, *, lang: str | None = None, student: Any = None) -> None:
        """`student`: who answers (a widgets.lessons.student.Student; default: the page's)."""
        super().__init__(lesson, set_items(lesson), lang=lang, student=student)
        if IN_BROWSER:
            self.header.value += "<br>" + esc(_(self.HOMEWORK))

    def code_of(self, marks: Sequence[bool]) -> str:
        return code_for(self.lesson, marks)
