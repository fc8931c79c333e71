"""Real contexts for lesson 4: money and debt, and a thermometer on a vertical number line.

- `money_example(cash, debt, forgiven)`: cash as black (positive) cards, a debt as a red
  (negative) card; a friend forgives part of the debt, which takes a negative card away:
  5 + (-7) - (-3) = +1. The cards, the steps and the worth on a number line, as a picture.
- `MoneyCheck()`: three quick self-check questions on money and debt, one at a time, typed
  answers; a wrong answer's mistake is named (engine/mistakes.py), and the student tries again.
  Nothing is sent to the class's store: it is the student's own check.
- `temperature_example(start, change)`: a temperature rising or falling on a vertical number
  line (positive up), and the change written as end - start.

The pictures are plain HTML outputs (no widget models), as the worked examples of
widgets/lessons/worked_examples.py.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as w

from engine.cards import Card, Suit, signed
from engine.events import card_view
from engine.mistakes import Shape, classify
from engine.questions import MONEY_CHECK, NumberRefused, Question, parse_number
from widgets.lessons.exit_ticket import worked
from widgets.page.in_browser import IN_BROWSER
from widgets.page.language import N_, check_lang, speaking, speaks
from widgets.table.components import (
    MessageArea,
    check_on_enter,
    html_widget,
    load_css,
    make_button,
    shared_layout,
    style_widget,
)
from widgets.table.feedback import Feedback
from widgets.table.render import Arrow, Point, esc, hand_html, number_line_svg
from widgets.words import _, mistake_feedback, number_refused_text, paren_signed

DEGREES = " °C"


def _html(body: str) -> object:
    from IPython.display import HTML

    return HTML(f'<style>{load_css()}</style><div class="icg-root icg-example">{body}</div>')


def _card(value: int) -> dict[str, Any]:
    """A card worth `value` dollars: black (spades) for cash, red (hearts) for a debt."""
    return card_view(Card(abs(value), Suit.SPADES if value > 0 else Suit.HEARTS), value)


# ----- money and debt -------------------------------------------------------------------------
def money_steps(cash: int, debt: int, forgiven: int) -> list[str]:
    """The example in words: what you are worth with the cash and the debt, then after a friend
    forgives `forgiven` (a negative number: part of the debt) of it."""
    if not (1 <= cash <= 10 and -10 <= debt <= -1 and debt <= forgiven <= -1):
        raise ValueError("cash 1 to 10, a debt of -1 to -10, and part of that debt forgiven; "
                         f"got {cash}, {debt}, {forgiven}")
    worth, after = cash + debt, cash + debt - forgiven
    return [
        _("Cash {cash} and a debt card of {debt}: you are worth {cash} + {debt_p} = {worth} "
          "dollars.").format(cash=signed(cash), debt=signed(debt), debt_p=paren_signed(debt),
                             worth=signed(worth)),
        _("A friend forgives {n} dollars of the debt: that takes a {forgiven} away. "
          "{worth} - {forgiven_p} = {worth} + {opposite_p} = {after} dollars.").format(
            n=abs(forgiven), forgiven=signed(forgiven), worth=signed(worth),
            forgiven_p=paren_signed(forgiven), opposite_p=paren_signed(-forgiven),
            after=signed(after)),
        _("The same with the cards: the debt is now {left}, and {cash} + {left_p} = {after}. "
          "Taking a debt away makes you richer, as adding {opposite} does.").format(
            left=signed(debt - forgiven), cash=signed(cash), left_p=paren_signed(debt - forgiven),
            after=signed(after), opposite=signed(-forgiven)),
    ]


def money_html(cash: int = 5, debt: int = -7, forgiven: int = -3) -> str:
    """The cash and debt cards, the steps, and the worth before and after on a number line."""
    steps = money_steps(cash, debt, forgiven)
    worth, after = cash + debt, cash + debt - forgiven
    cards = hand_html([_card(cash), _card(debt)], label=_("cash and debt cards"), small=True)
    line = number_line_svg(
        points=[Point(worth, _("before")), Point(after, _("after"), "me")],
        arrow=Arrow(worth, after, _("take away {debt}").format(debt=signed(forgiven))),
        title=_("What you are worth, in dollars"))
    items = "".join(f"<li>{esc(s)}</li>" for s in steps)
    return f"<div>{cards}</div><ol class='icg-steps'>{items}</ol>{line}"


def money_example(cash: int = 5, debt: int = -7, forgiven: int = -3,
                  lang: str | None = None) -> object:
    """Money and debt as a picture (plain HTML, no widget): `money_html`."""
    with speaking(lang):
        return _html(money_html(cash, debt, forgiven))


# (the question in words, its fields; what it asks of which numbers)
MONEY_QUESTIONS: tuple[tuple[str, Shape], ...] = (
    (N_("You have {0} dollars in cash and a debt card of {1}. What are you worth, in dollars?"),
     Shape("sum", (6, -9))),
    (N_("You are worth {0} dollars. A friend forgives 4 dollars of your debt, which takes a {1} "
        "away. What are you worth now?"), Shape("difference", (-3, -4))),
    (N_("You are worth {0} dollars. A debt of {1} is taken away. Work out {0} - ({1})."),
     Shape("difference", (-8, -5))),
)
TIP = N_("Taking a debt away is adding its opposite: you move right on the number line.")


class MoneyCheck(w.VBox):
    """Three questions on money and debt, one at a time: type a whole number, press Check.
    A wrong answer gets its mistake named (or a tip) and the student tries again; after two
    wrong tries the answer is shown, worked out."""

    SHOW_AFTER = 2  # wrong tries before the answer is shown
    LESSON = 4  # the lesson whose page holds it: its answers are filed under it
    ITEM = MONEY_CHECK  # each question's answers: 'money 1', 'money 2', ...

    @speaks
    def __init__(self, questions: tuple[tuple[str, Shape], ...] = MONEY_QUESTIONS, *,
                 lang: str | None = None, student: Any = None) -> None:
        """`student`: who answers (a widgets.lessons.student.Student; default: the page's).
        Served, every try goes to the class's store as a lesson check (the teacher's class
        view shows them per student, with the mistakes); on the static site nothing leaves
        the device."""
        self.lang = check_lang(lang)
        self.student = student
        self.questions = questions
        self.index = 0
        self.tries = 0
        self.done = False  # the question on the screen is answered (right, or shown)
        self.mistakes: list[str | None] = []  # each wrong answer's mistake, in order
        self.prompt = html_widget()
        self.entry = w.Text(placeholder=_("a whole number"), description=_("Answer:"),
                            layout=shared_layout(width="14em"), continuous_update=False)
        self.check_button = make_button(_("Check"), self.check, button_style="primary")
        check_on_enter(self.entry, self.check_button)
        self.feedback = MessageArea()
        self.next_button = make_button(_("Next question"), self.next_question)
        typed = w.HBox([self.entry, self.check_button], layout=shared_layout())
        super().__init__([style_widget(), self.prompt, typed, self.feedback, self.next_button],
                         layout=shared_layout(), _dom_classes=("icg-root", "icg-money-check"))
        self._show()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} question {self.index + 1}>"

    @property
    def shape(self) -> Shape:
        return self.questions[self.index][1]

    @speaks
    def question_text(self) -> str:
        text, shape = self.questions[self.index]
        return _(text).format(*(signed(t) for t in shape.terms))

    @speaks
    def check(self, text: object = None) -> str | None:
        """Check the typed answer (or `text`): 'right', the mistake it shows (engine/mistakes.py),
        'wrong' for another wrong answer, or None when nothing was checked."""
        if self.done:  # the feedback on the screen stays
            return None
        try:
            given = parse_number(self.entry.value if text is None else text)
        except NumberRefused as e:
            self.feedback.show(number_refused_text(e.code), "info")
            return None
        first = self.tries == 0
        fb = self._feedback(given)
        self._to_class(given, fb, first)
        self.done = fb.done
        self.feedback.show(f"{fb.icon} {fb.message}", fb.tone)
        self._update()
        if fb.correct:
            return "right"
        self.mistakes.append(fb.mistake)
        return fb.mistake or "wrong"

    def _feedback(self, given: int) -> Feedback:
        """The check of `given` for the question on the screen (a wrong try counted)."""
        shape = self.shape
        if given == shape.answer:
            return Feedback(True, _("Right. {why}").format(why=worked(shape)), done=True)
        self.tries += 1
        mistake = classify(shape, given)
        text = mistake_feedback(mistake) if mistake else _(TIP)
        shown = self.tries >= self.SHOW_AFTER
        text += " " + (_("The answer is {answer}: {why}").format(
            answer=signed(shape.answer), why=worked(shape)) if shown else _("Try again."))
        return Feedback(False, text, mistake=mistake, done=shown)

    def _to_class(self, given: int, fb: Feedback, first: bool) -> None:
        if IN_BROWSER:
            return
        from widgets.lessons.student import STUDENT

        who = self.student if self.student is not None else STUDENT
        shape = self.shape
        who.record(question=Question(shape.kind, shape.terms, self.LESSON,
                                     f"{self.ITEM} {self.index + 1}"),
                   activity="check", given=signed(given), right=fb.correct, first_try=first,
                   mistake=fb.mistake)

    @speaks
    def next_question(self) -> None:
        if not self.done:
            self.feedback.show(_("Answer this question first."), "info")
            return
        if self.index + 1 >= len(self.questions):
            self.feedback.show(_("That was the last question."), "info")
            return
        self.index += 1
        self._show()

    def _show(self) -> None:
        self.tries, self.done = 0, False
        self.entry.value = ""
        self.feedback.clear()
        number = _("Question {number} of {total}.").format(number=self.index + 1,
                                                           total=len(self.questions))
        self.prompt.value = f"<p><b>{esc(number)}</b> {esc(self.question_text())}</p>"
        self._update()

    def _update(self) -> None:
        self.check_button.disabled = self.entry.disabled = self.done
        self.next_button.disabled = not self.done or self.index + 1 >= len(self.questions)


# ----- temperature on a vertical number line -------------------------------------------------
def temperature_steps(start: int, change: int) -> list[str]:
    """A temperature from `start` rising (change > 0) or falling by |change| degrees: where it
    ends, and the change written back as end - start."""
    end = start + change
    move = (_("rises {n} degrees") if change > 0 else _("falls {n} degrees")).format(
        n=abs(change))
    return [
        _("From {start} °C the temperature {move}: {start} + {change} = {end} °C.").format(
            start=signed(start), move=move, change=paren_signed(change), end=signed(end)),
        _("Change = end - start = {end} - {start_p} = {change} degrees.").format(
            end=signed(end), start_p=paren_signed(start), change=signed(change)),
    ]


def temperature_html(start: int = -4, change: int = 9) -> str:
    """The steps, then the thermometer: a vertical number line with the start, the end and an
    arrow for the change."""
    if change == 0:
        raise ValueError("a temperature that rises or falls: change is not 0")
    end = start + change
    move = (_("rises {n}") if change > 0 else _("falls {n}")).format(n=abs(change))
    line = number_line_svg(points=[Point(start, _("start")), Point(end, _("end"), "me")],
                           arrow=Arrow(start, end, move), vertical=True, unit=DEGREES,
                           title=_("Temperature in °C, positive up"))
    items = "".join(f"<li>{esc(s)}</li>" for s in temperature_steps(start, change))
    return f"<ol class='icg-steps'>{items}</ol>{line}"


def temperature_example(start: int = -4, change: int = 9, lang: str | None = None) -> object:
    """A temperature change on a vertical number line (plain HTML, no widget)."""
    with speaking(lang):
        return _html(temperature_html(start, change))
