"""Exit tickets: a few auto-checked questions at the end of each lesson, with feedback, a score
and a short code the student reads out or writes down.

One question at a time; the first answer to each question is the one that counts (a typing slip,
such as a word where a number is wanted, gets a message and does not count). After each answer
the ticket says whether it was right and why. At the end it shows the score and a code such as
`L2-RXRRR`: the lesson number, then one letter per question in order, R for right and X for not
right. The teacher guide explains how to read it.

Light at load: a line of text and one Start button; the questions are built when the student
presses Start. Every button checks the state in the kernel, so a click forged on a disabled
button, or a value typed into the page's developer tools, gets a message and changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import ipywidgets as w

from engine.cards import signed
from widgets.components import (
    LazyPart,
    html_widget,
    make_button,
    parse_int_answer,
    shared_layout,
    style_widget,
)
from widgets.render import esc

MIN_ITEMS, MAX_ITEMS = 3, 5
MAX_CHOICES = 4


@dataclass(frozen=True)
class Item:
    """One question: a typed whole number (`choices` empty, `answer` an int) or a choice among
    `choices` (`answer` is the right label). `why` explains the right answer; `hint` is added
    to the feedback after a wrong answer."""

    prompt: str
    answer: int | str
    choices: tuple[str, ...] = ()
    why: str = ""
    hint: str = ""

    def __post_init__(self) -> None:
        if self.choices:
            if not 2 <= len(self.choices) <= MAX_CHOICES or self.answer not in self.choices:
                raise ValueError(f"{self.prompt!r}: the answer must be one of 2 to "
                                 f"{MAX_CHOICES} choices")
        elif not isinstance(self.answer, int) or isinstance(self.answer, bool):
            raise ValueError(f"{self.prompt!r}: a typed answer must be a whole number")

    @property
    def answer_text(self) -> str:
        return str(self.answer) if self.choices else signed(self.answer)


def code_for(lesson: int, marks: Sequence[bool]) -> str:
    """The code a student reads out: 'L2-RXRRR' (lesson 2; questions 1, 3, 4, 5 right)."""
    return f"L{lesson}-" + "".join("R" if m else "X" for m in marks)


def decode(code: str) -> tuple[int, list[bool]] | None:
    """(lesson, right or not for each question) from a code, or None if it is not one."""
    text = str(code).strip().upper().replace(" ", "")
    if not text.startswith("L") or "-" not in text:
        return None
    number, _, marks = text[1:].partition("-")
    if not number.isdigit() or not MIN_ITEMS <= len(marks) <= MAX_ITEMS or set(marks) - {"R", "X"}:
        return None
    return int(number), [m == "R" for m in marks]


# ----- the tickets of the lessons (the teacher guide prints them with their answers) ----------
TICKETS: dict[int, tuple[Item, ...]] = {
    1: (
        Item("What is the value of a red 6 (black cards +, red cards -)?", -6,
             why="Red cards count negative, so a red 6 is -6.",
             hint="Which colour is negative?"),
        Item("Which is greater: -7 or -2?", "-2", ("-7", "-2"),
             why="-2 is to the right of -7 on the number line, so it is greater.",
             hint="Greater means farther to the right on the number line."),
        Item("Work out +4 + (-9).", -5,
             why="Start at +4 and move 9 to the left: you land on -5.",
             hint="A negative card moves you to the left."),
        Item("Which card makes a zero pair with 8\u2665 (-8)?", "8\u2660 (+8)",
             ("8\u2660 (+8)", "8\u2666 (-8)", "2\u2660 (+2)"),
             why="+8 is the opposite of -8: -8 + (+8) = 0.",
             hint="A zero pair is two opposites: the same distance from zero, other sides."),
        Item("Work out -3 + (-4) + (+3).", -4,
             why="-3 and +3 are a zero pair, so -4 is left.",
             hint="Look for a zero pair first."),
    ),
    2: (
        Item("What is |-11|?", 11,
             why="-11 is 11 steps from zero, and a distance is never negative.",
             hint="An absolute value is a distance."),
        Item("Which is closer to zero: -2 or +5?", "-2", ("-2", "+5", "Same distance"),
             why="|-2| = 2 and |+5| = 5, so -2 is closer to zero.",
             hint="Compare the distances from zero, not which number is greater."),
        Item("Which is closer to zero: +6 or -6?", "Same distance",
             ("+6", "-6", "Same distance"),
             why="|+6| = |-6| = 6: both are 6 steps from zero.",
             hint="How far is each one from zero?"),
        Item("A hand holds +7 and -10. What is the absolute value of its sum?", 3,
             why="The sum is +7 + (-10) = -3, and |-3| = 3.",
             hint="Add with the signs first, then take the distance from zero."),
        Item("Which is closer to zero: -9 or +4?", "+4", ("-9", "+4", "Same distance"),
             why="|+4| = 4 and |-9| = 9, so +4 is closer. (-9 is less, but farther away.)",
             hint="Less is not the same as closer to zero."),
    ),
    3: (
        Item("In Hit Me your cards are 6\u2663 and 9\u2666. What is your sum?", -3,
             why="+6 + (-9) = -3.", hint="Black cards are +, red cards are -."),
        Item("What is your score with a sum of -3 (its distance from zero)?", 3,
             why="|-3| = 3.", hint="A score is a distance, never negative."),
        Item("Final sums: Ana +3, Ben -1, Cam -4. Who wins?", "Ben", ("Ana", "Ben", "Cam"),
             why="The scores are 3, 1 and 4: Ben's -1 is the closest to zero.",
             hint="Compare the distances from zero."),
        Item("Your sum is -2. You hit and get 5\u2660 (+5). What is your new sum?", 3,
             why="-2 + (+5) = +3.", hint="Start at -2 and move 5 to the right."),
        Item("Final sums: Dee -2, Eli +2. Who wins?", "They tie", ("Dee", "Eli", "They tie"),
             why="|-2| = |+2| = 2: they tie and share the round.",
             hint="How far is each sum from zero?"),
    ),
    4: (
        Item("In Flapjack the total is +6. You play 8\u2665 (-8). What is the new total?", -2,
             why="+6 + (-8) = -2.", hint="A red card moves the total to the left."),
        Item("The total is -5. Which card makes a Flapjack?", "5\u2660 (+5)",
             ("4\u2660 (+4)", "5\u2660 (+5)", "6\u2665 (-6)"),
             why="-5 + (+5) = 0, a Flapjack. The others make -1 and -11.",
             hint="A Flapjack is a total of exactly -13, 0 or +13."),
        Item("The total is +10. May you play Q\u2663 (+12)?", "No", ("Yes", "No"),
             why="+10 + (+12) = +22, past the limit +13.",
             hint="The total must stay between -13 and +13."),
        Item("The total is -9. You play a black king (+13). What is the new total?", 4,
             why="-9 + (+13) = +4.", hint="Start at -9 and move 13 to the right."),
    ),
    5: (
        Item("With 4 players, holding at |sum| 3 wins about 9% of rounds and hitting about 23%. "
             "At |sum| 3, should you hold or hit?", "Hit", ("Hold", "Hit"),
             why="Hitting wins more often (about 23% against 9%).",
             hint="Compare the two chances."),
        Item("What is the fair share of wins with 5 players, in percent?", 20,
             why="1 round in 5 is 20%.", hint="One round in how many?"),
        Item("Two players tie for the lowest score. How much of a win does each get?",
             "Half a win", ("A whole win", "Half a win", "Nothing"),
             why="A tie is shared: with two winners each counts half a win.",
             hint="The round is shared between the winners."),
        Item("With more players at the table, the sum you need to win is...", "Closer to zero",
             ("Closer to zero", "Farther from zero", "The same"),
             why="More players means more chances that someone gets close to zero.",
             hint="Look at Experiment 3."),
    ),
    6: (
        Item("Work out +2 - (-3).", 5,
             why="Subtracting -3 is adding its opposite: +2 + (+3) = +5.",
             hint="Subtract by adding the opposite."),
        Item("Work out -4 - (+6).", -10,
             why="Subtracting +6 is adding -6: -4 + (-6) = -10.",
             hint="Subtract by adding the opposite."),
        Item("A hand is worth +1. You take away its red 4 (-4). What is the hand worth now?", 5,
             why="+1 - (-4) = +1 + (+4) = +5: taking away a negative card moves the sum right.",
             hint="Taking a card away moves the sum the opposite way to adding it."),
        Item("What is the distance between -3 and +5 on the number line?", 8,
             why="|+5 - (-3)| = |+8| = 8: 3 steps to zero, then 5 more.",
             hint="The distance between p and q is |p - q|."),
        Item("Which is true?", "-8 < -3", ("-8 > -3", "-8 < -3", "-8 = -3"),
             why="-8 is to the left of -3, so -8 is less: -8 < -3.",
             hint="Less means farther to the left on the number line."),
    ),
}


def answer_key() -> str:
    """Every lesson's exit ticket with its answers, and how to read a code (for the guide)."""
    lines = ["A code reads L<lesson>-<one letter per question>: R right at the first answer, "
             "X not right.", "Example: L2-RXRRR is lesson 2, question 2 missed, score 4 of 5.",
             ""]
    for lesson, items in TICKETS.items():
        lines.append(f"Lesson {lesson}")
        for i, item in enumerate(items, start=1):
            lines.append(f"  {i}. {item.prompt}  Answer: {item.answer_text}")
    return "\n".join(lines)


class ExitTicket(w.VBox):
    """The exit ticket of `lesson` (or the given `items`): Start, then one question at a time."""

    # built when the student presses Start (LazyPart): the page loads one button
    (prompt, entry, check_button, choice_buttons, choice_row, typed_row, feedback, next_button,
     body) = LazyPart.group("_build", 9)

    def __init__(self, lesson: int, items: Sequence[Item] | None = None) -> None:
        chosen = tuple(items) if items is not None else TICKETS.get(lesson)
        if not chosen:
            raise ValueError(f"no exit ticket for lesson {lesson!r}; there are tickets for "
                             f"lessons {', '.join(map(str, TICKETS))}")
        if not MIN_ITEMS <= len(chosen) <= MAX_ITEMS:
            raise ValueError(f"an exit ticket has {MIN_ITEMS} to {MAX_ITEMS} questions; "
                             f"got {len(chosen)}")
        self.lesson = lesson
        self.items = chosen
        self.index = -1  # -1: not started; len(items): finished
        self.marks: list[bool] = []
        self.answered = False
        self.header = html_widget(f"<b>Exit ticket, lesson {lesson}:</b> {len(chosen)} "
                                  "questions. Your first answer to each one counts.")
        self.status = html_widget()  # messages about a click that cannot be done now
        self.start_button = make_button("Start the exit ticket", self.start,
                                        button_style="primary")
        self.result = html_widget()
        super().__init__([style_widget(), self.header, self.start_button, self.status,
                          self.result], _dom_classes=("icg-root", "icg-exit-ticket"))

    # ----- parts made on Start -----------------------------------------------------------
    def _build(self) -> None:
        self.prompt = html_widget()
        self.entry = w.Text(placeholder="a whole number", description="Answer:",
                            layout=shared_layout(width="14em"), continuous_update=False)
        self.check_button = make_button("Check", self.check_typed, button_style="primary")
        self.choice_buttons = [make_button("", lambda i=i: self.choose(i), own_layout=True)
                               for i in range(MAX_CHOICES)]
        # own layouts: these rows are shown and hidden question by question
        self.choice_row = w.HBox(self.choice_buttons)
        self.typed_row = w.HBox([self.entry, self.check_button])
        self.feedback = html_widget()
        self.next_button = make_button("Next question", self.next_question)
        self.body = w.VBox([self.prompt, self.typed_row, self.choice_row, self.feedback,
                            self.next_button])

    def _layout_children(self) -> None:
        parts = [style_widget(), self.header]
        if self.index < 0:
            parts.append(self.start_button)
        elif LazyPart.built(self, "body") and self.index < len(self.items):
            parts.append(self.body)
        self.children = [*parts, self.status, self.result]

    # ----- actions (buttons call these; tests too) ---------------------------------------
    def start(self) -> None:
        if self.index >= 0:
            self._say("The exit ticket has already started.")
            return
        self.index = 0
        self._show_item()

    def check_typed(self) -> bool | None:
        """Check the typed answer of the current question."""
        item = self._current()
        if item is None:
            return None
        if item.choices:
            self._say("This question is answered with one of the buttons.")
            return None
        n = parse_int_answer(self.entry.value)
        if n is None:
            self._say("Type a whole number, for example -3 or 12.")
            return None
        return self._record(n == item.answer)

    def choose(self, index: Any) -> bool | None:
        """Answer the current question with choice number `index` (0 first)."""
        item = self._current()
        if item is None:
            return None
        if not item.choices:
            self._say("Type this answer in the box, then press Check.")
            return None
        if isinstance(index, bool) or not isinstance(index, int) \
                or not 0 <= index < len(item.choices):
            self._say("Choose one of the buttons.")
            return None
        return self._record(item.choices[index] == item.answer)

    def next_question(self) -> None:
        if self.index < 0 or self.index >= len(self.items):
            self._say("There is no next question now.")
            return
        if not self.answered:
            self._say("Answer this question first.")
            return
        self.index += 1
        if self.index == len(self.items):
            self._finish()
        else:
            self._show_item()

    # ----- reading ----------------------------------------------------------------------
    @property
    def score(self) -> int:
        return sum(self.marks)

    @property
    def finished(self) -> bool:
        return self.index >= len(self.items)

    @property
    def code(self) -> str | None:
        return code_for(self.lesson, self.marks) if self.finished else None

    # ----- helpers ----------------------------------------------------------------------
    def _current(self) -> Item | None:
        if self.index < 0:
            self._say("Press Start the exit ticket first.")
            return None
        if self.finished:
            self._say("The exit ticket is finished: read out your code.")
            return None
        if self.answered:
            self._say("This question is answered: press Next question.")
            return None
        return self.items[self.index]

    def _say(self, text: str) -> None:
        self.status.value = f"<p role='status'>! {esc(text)}</p>"

    def _record(self, right: bool) -> bool:
        item = self.items[self.index]
        self.marks.append(right)
        self.answered = True
        self.status.value = ""
        if right:
            text = f"\u2714 Right. {item.why}"
        else:
            text = f"\u2717 Not this time: the answer is {item.answer_text}. {item.why}"
            if item.hint:
                text += f" (Tip: {item.hint})"
        self.feedback.value = f"<p role='status'>{esc(text)}</p>"
        self._update_buttons()
        return right

    def _show_item(self) -> None:
        item = self.items[self.index]
        self.answered = False
        self.status.value = ""
        self.prompt.value = (f"<p style='font-size:1.2em'><b>Question {self.index + 1} of "
                             f"{len(self.items)}.</b> {esc(item.prompt)}</p>")
        self.feedback.value = ""
        self.entry.value = ""
        self.typed_row.layout.display = "none" if item.choices else None
        self.choice_row.layout.display = None if item.choices else "none"
        for i, b in enumerate(self.choice_buttons):
            label = item.choices[i] if i < len(item.choices) else ""
            b.description = label
            b.tooltip = f"answer {label}" if label else ""
            b.layout.display = None if label else "none"
        self._update_buttons()
        self._layout_children()

    def _update_buttons(self) -> None:
        answering = not self.answered
        self.check_button.disabled = not answering
        self.entry.disabled = not answering
        for b in self.choice_buttons:
            b.disabled = not answering
        self.next_button.disabled = answering
        self.next_button.description = ("See my score" if self.index == len(self.items) - 1
                                        else "Next question")

    def _finish(self) -> None:
        n = len(self.items)
        self.result.value = (
            f"<p role='status' style='font-size:1.2em'><b>Score: {self.score} of {n}.</b> "
            f"Your code: <b>{esc(self.code or '')}</b></p><p>Read it out or write it down for "
            "your teacher: the number after L is the lesson, then one letter per question "
            "(R right, X not right).</p>")
        self.status.value = ""
        self._layout_children()
