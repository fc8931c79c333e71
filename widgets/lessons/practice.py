"""Absolute value practice: generated questions with check, try again and show me.

Question kinds:
- 'abs': what is |n|?
- 'abs-sum': a hand of two or three cards; what is the absolute value of its sum?
- 'closer': which of two sums is closer to zero (or are they the same distance)?
Questions come from a seeded generator, so a practice set can be repeated by its code.

On a served page every checked answer goes to the class's store under the student's first name
(widgets/lessons/student.py: the name bar appears with the first answer), with the mistake it shows
(engine/mistakes.py).
"""

from __future__ import annotations

import html
import json
import random
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import ipywidgets as w

from engine.cards import signed
from engine.mistakes import Shape, classify
from engine.questions import (
    CHOICE_KINDS,
    MASTERY_STREAK,
    SKILL_TARGETS,
    SKILLS,
    TARGETED_ITEMS,
    NumberRefused,
    SkillState,
    make_item,
    parse_number,
    progress,
    read_number,
    skill_of,
    wants_recheck,
)
from engine.questions import Question as QuestionData
from widgets.lessons import worked_examples as nl
from widgets.page.in_browser import IN_BROWSER
from widgets.page.language import check_lang, grouped, speaks
from widgets.page.live_gate import page_parts
from widgets.table.components import (
    check_on_enter,
    hbox,
    html_widget,
    make_button,
    shared_layout,
    shared_text_style,
    style_widget,
)
from widgets.table.feedback import Feedback
from widgets.table.render import esc
from widgets.table.shell import LazyPart
from widgets.words import (
    _,
    abs_math,
    choice_words,
    mistake_feedback,
    ngettext,
    number_refused_text,
    question_text,
    skill_name,
    sum_math,
)

KINDS = ("abs", "abs-sum", "closer")
SAME = "same"
MAX_ATTEMPTS_BEFORE_SHOW = 2
# the share of each kind of 'closer' question (the rest: the same distance)
CLOSER_MIX = {"negative": 0.4, "positive": 0.35, "both negative": 0.1}
MAX_CODE = 999_999


@dataclass(frozen=True)
class Question:
    """One practice question. For 'closer', `answer` is the index of the closer number
    in `numbers` or SAME; otherwise it is the absolute value."""

    kind: str
    prompt: str
    numbers: tuple[int, ...]
    answer: int | str

    @property
    def choices(self) -> tuple[str, ...]:
        """Button labels for a 'closer' question (empty for typed answers)."""
        if self.kind != "closer":
            return ()
        return (signed(self.numbers[0]), signed(self.numbers[1]), _("Same distance"))

    @property
    def total(self) -> int:
        return sum(self.numbers)


def _nonzero(rng: random.Random, low: int, high: int) -> int:
    n = 0
    while n == 0:
        n = rng.randint(low, high)
    return n


def make_question(rng: random.Random, kind: str) -> Question:
    """A new question of `kind` drawn with `rng`."""
    if kind == "abs":
        n = _nonzero(rng, -13, 13) if rng.random() < 0.9 else 0
        if n > 0 and rng.random() < 0.6:
            n = -n  # most questions ask about a negative number
        return Question(kind, _("What is {abs}?").format(abs=f"|{signed(n)}|"), (n,), abs(n))
    if kind == "abs-sum":
        count = 2 if rng.random() < 0.7 else 3
        values = tuple(_nonzero(rng, -10, 10) for _ in range(count))
        cards = ", ".join(signed(v) for v in values)
        return Question(kind, _("A hand holds the cards {cards}. What is the absolute value of "
                                "its sum?").format(cards=cards), values, abs(sum(values)))
    if kind == "closer":
        # Balanced, so that "pick the positive one" (or "pick the negative one") fails often:
        # a negative number closer to zero, a positive one closer (the negative one is less
        # but farther), the same distance, and now and then two negative numbers.
        style = rng.random()
        if style < CLOSER_MIX["negative"]:  # the negative number is closer
            near = rng.randint(1, 8)
            a, b = -near, rng.randint(near + 1, 12)
        elif style < CLOSER_MIX["negative"] + CLOSER_MIX["positive"]:  # less, but farther
            near = rng.randint(1, 8)
            a, b = -rng.randint(near + 1, 12), near
        elif style < 1 - CLOSER_MIX["both negative"]:  # same distance
            b = rng.randint(1, 12)
            a = -b
        else:  # two negative numbers: the greater one is closer
            near = rng.randint(1, 8)
            a, b = -near, -rng.randint(near + 1, 12)
        if rng.random() < 0.5:
            a, b = b, a
        answer: int | str = SAME if abs(a) == abs(b) else (0 if abs(a) < abs(b) else 1)
        return Question(kind, _("Which sum is closer to zero: {a} or {b}?").format(
            a=signed(a), b=signed(b)), (a, b), answer)
    raise ValueError(f"kind must be one of {', '.join(KINDS)}; got {kind!r}")


def parse_answer(text: object) -> int | None:
    """A typed whole number (engine.questions.parse_number), else None."""
    return read_number(text)


def explain(q: Question) -> str:
    """The worked answer, in words and symbols."""
    if q.kind == "abs":
        n = q.numbers[0]
        if n == 0:
            return _("|0| = 0: zero is no distance from itself.")
        return ngettext("{math}. {n} is {d} step from zero, and a distance is never negative.",
                        "{math}. {n} is {d} steps from zero, and a distance is never negative.",
                        abs(n)).format(math=abs_math(n), n=signed(n), d=abs(n))
    if q.kind == "abs-sum":
        s = q.total
        return _("The sum: {sum}. Its distance from zero: {distance}.").format(
            sum=sum_math(list(q.numbers)), distance=abs_math(s))
    a, b = q.numbers
    dist = _("{a} and {b}").format(a=abs_math(a), b=abs_math(b))
    if q.answer == SAME:
        return _("{distances}: both are the same distance from zero, so neither is "
                 "closer.").format(distances=dist)
    near, far = (a, b) if q.answer == 0 else (b, a)
    text = _("{distances}, so {near} is closer to zero.").format(distances=dist,
                                                                near=signed(near))
    if near > far:
        text += " " + _("({far} is less than {near}, but it is farther from zero.)").format(
            far=signed(far), near=signed(near))
    return text


def shape_of(q: Question) -> Shape:
    """What the question asks of which numbers (engine/mistakes.py)."""
    return Shape(q.kind, q.numbers)


def check(q: Question, answer: object) -> Feedback:
    """Check a typed answer (for 'abs'/'abs-sum': the text typed, or the number read from it)
    or a choice index or SAME (for 'closer'). A
    wrong answer that shows a common mistake gets that mistake's feedback."""
    if q.kind == "closer":
        if answer not in (0, 1, SAME):
            return Feedback(False, _("Choose one of the buttons."), valid=False)
        if answer == q.answer:
            return Feedback(True, _("Yes! {why}").format(why=explain(q)))
        a, b = q.numbers
        mistake = classify(shape_of(q), 0 if answer == SAME else q.numbers[answer])
        if mistake is not None:
            return Feedback(False, mistake_feedback(mistake), mistake=mistake)
        if answer == SAME:
            return Feedback(False, _("Not the same: compare {a} and {b}.").format(
                a=abs_math(a), b=abs_math(b)))
        if q.answer == SAME:
            return Feedback(False, _("Look again: how far is {a} from zero, and how far is "
                                     "{b}?").format(a=signed(a), b=signed(b)))
        return Feedback(False, _("Compare the distances to zero (the absolute values)."))
    try:
        n = answer if type(answer) is int else parse_number(answer)
    except NumberRefused as e:
        return Feedback(False, number_refused_text(e.code), valid=False)
    if n == q.answer:
        return Feedback(True, _("Yes! {why}").format(why=explain(q)))
    mistake = classify(shape_of(q), n)
    if mistake is not None:
        return Feedback(False, mistake_feedback(mistake), mistake=mistake)
    return Feedback(False, _("Not yet. Count the steps from zero on the number line."))


class AbsoluteValuePractice(w.VBox):
    """Practice with feedback: type (or choose) an answer, then Check, Try again or Show me."""

    # The two ways of answering are made when a question first needs them (LazyPart): a set of
    # 'closer' questions never shows the typed row, an 'abs' set never the choice buttons, and
    # every widget made is a model that each student's page loads (lesson 02: 71 models -> 59).
    answer, sign_button, check_button, typed_row = LazyPart.group("_build_typed", 4)
    choice_buttons, choice_row = LazyPart.group("_build_choices", 2)

    @speaks
    def __init__(
        self,
        kinds: Sequence[str] = KINDS,
        seed: int | None = None,
        questions: int = 10,
        *,
        first_try: bool = False,
        lesson: int = 2,
        lang: str | None = None,
    ) -> None:
        """`first_try`: a check, not practice: a question counts as right only when its first
        answer is right (Try again and Show me still help, but do not change the score).
        `lesson`: the lesson whose page holds it (the class's store files its answers under
        it)."""
        self.lang = check_lang(lang)
        self.lesson = lesson
        self.name_bar: w.Widget | None = None  # who answers: made with the first answer
        self.student: Any = None  # a check's student (widgets.lessons.student.Student)
        self.first_try = bool(first_try)
        kinds = tuple(kinds)
        if not kinds or any(k not in KINDS for k in kinds):
            raise ValueError(f"kinds must be taken from {', '.join(KINDS)}; got {kinds!r}")
        if isinstance(seed, bool) or (seed is not None and not isinstance(seed, int)):
            raise ValueError(f"seed must be a whole number or None; got {seed!r}")
        self.seed = seed if seed is not None else random.Random().randrange(1000, 10000)
        self.rng = random.Random(self.seed)
        self.codes_done = {self.seed}  # the sets started on this page
        self.repeated = False  # this set was started before: its questions were seen
        self.kinds = kinds
        self.total_questions = questions
        self.number = 0
        self.correct = 0
        self.attempts = 0
        self.done = False  # the current question is answered or shown
        self.question: Question | None = None

        # shared layouts and styles, classes at creation: fewer models and messages at load
        self.stylesheet = style_widget()
        self.header = html_widget()
        self.prompt = html_widget()
        self.try_button = make_button(_("Try again"), self.try_again)
        self.show_button = make_button(_("Show me"), self.show_me)
        self.next_button = make_button(_("Next question"), self.next_question)
        self.feedback = html_widget()
        self.picture = html_widget()
        # repeat a set by its code (a classmate's, or the teacher's), or draw a new one
        self.code_box = w.Text(placeholder=_("a practice code"),
                               description=_("Practice code:"),
                               layout=shared_layout(width="18em"), continuous_update=False,
                               style={"description_width": "initial"})
        self.code_button = make_button(_("Start this code"), self.start_code,
                                       tooltip=_("start the set of the practice code typed"))
        check_on_enter(self.code_box, self.code_button)
        self.new_button = make_button(_("New set"), self.new_set,
                                      tooltip=_("start a new set of questions"))
        self.code_message = html_widget()
        self.action_row = hbox([self.try_button, self.show_button, self.next_button])
        self.code_row = hbox([self.code_box, self.code_button, self.new_button])
        super().__init__(self._parts(), _dom_classes=("icg-root", "icg-practice"))
        self.answered_in_set = False  # an answer was checked in this set on this page
        self.next_question()
        # a check follows who answers: a named student's second time gets other numbers
        if self.first_try and not IN_BROWSER:
            from widgets.lessons import student as student_module

            self.student = student_module.STUDENT
            self.student.listeners.append(self._named)
            self._named()

    def _tried_before(self, seed: int) -> bool:
        """Whether this check's named student had a first try at the set `seed` today (in the
        class's store: on another page, before a reload)."""
        s = self.student
        if s is None or not s.names:
            return False
        own = f"{seed}-"
        return any(item.startswith(own) for item in s.first_tried(self.lesson, "check"))

    @speaks
    def _named(self) -> None:
        """A student named themselves (typed, or recalled on a reload or another page): if
        they had first tries at this set today, it is not new to them. Before any answer on
        this page, a set of other numbers replaces it; either way it is scored as practice, so
        replaying a check never makes a second first try or a perfect score."""
        if self.repeated or not self._tried_before(self.seed):
            return
        if not self.answered_in_set:
            seed = self.seed
            while seed in self.codes_done:
                seed = random.SystemRandom().randrange(1000, 10000)
            self._restart(seed)
        self.repeated = True
        self.code_message.value = "<p role='status'>" + _(
            "You already answered this check today: these questions are practice, and your "
            "first answers stay the ones your teacher sees.") + "</p>"
        self._update_buttons()

    # ----- parts made when a question first needs them ---------------------------------------
    def _build_typed(self) -> None:
        # sent when the box is left (a click on Check or +/-) or on Enter: see AnswerEntry
        self.answer = w.Text(placeholder=_("your answer"), description=_("Answer:"),
                             layout=shared_layout(width="14em"), continuous_update=False,
                             disabled=True)
        self.sign_button = make_button("+/\u2212", self._flip_sign, tooltip=_("change the sign"),
                                       width="4em", disabled=True)
        self.check_button = make_button(_("Check"), self.check_typed, button_style="primary",
                                        disabled=True)
        check_on_enter(self.answer, self.check_button)
        # its own layout: shown and hidden question by question
        self.typed_row = w.HBox([self.answer, self.sign_button, self.check_button],
                                layout=w.Layout(display="none"))

    def _build_choices(self) -> None:
        self.choice_buttons = [make_button("", lambda i=i: self.choose(i), disabled=True)
                               for i in range(3)]
        self.choice_row = w.HBox(self.choice_buttons, layout=w.Layout(display="none"))

    def _parts(self) -> list[w.Widget]:
        rows = [self.__dict__[n] for n in ("typed_row", "choice_row") if LazyPart.built(self, n)]
        bar = [self.name_bar] if self.name_bar is not None else []
        return [self.stylesheet, *bar, self.header, self.prompt, *rows, self.feedback,
                self.picture, self.action_row, self.code_row, self.code_message]

    def _layout_children(self) -> None:
        self.children = self._parts()

    @property
    def scored_first(self) -> bool:
        """A check scored by first tries: not practice, and not a set seen before on this page
        (its questions are not new: a repeated set is scored as practice)."""
        return self.first_try and not self.repeated

    def _restart(self, seed: int) -> None:
        self.repeated = seed in self.codes_done or self._tried_before(seed)
        self.answered_in_set = False
        self.codes_done.add(seed)
        self.seed = seed
        self.rng = random.Random(seed)
        self.number = 0
        self.correct = 0
        self.question = None
        self.next_question()

    @speaks
    def new_set(self) -> None:
        """A new set of questions with a new practice code."""
        old = self.seed
        seed = old
        while seed == old:
            seed = random.Random().randrange(1000, 10000)
        self.code_message.value = ""
        self._restart(seed)

    @speaks
    def start_code(self) -> None:
        """Start the set of the practice code typed in the box (a bad code gets a message)."""
        text = self.code_box.value.strip() if isinstance(self.code_box.value, str) else ""
        if not text.isdigit() or not text.isascii() or int(text) > MAX_CODE:
            text = _("A practice code is a whole number from 0 to {max}, for example "
                     "2024.").format(max=grouped(MAX_CODE))
            self.code_message.value = f"<p role='status'>! {text}</p>"
            return
        self.code_message.value = ""
        self._restart(int(text))

    # ----- actions (also called by tests) ----------------------------------------------
    @speaks
    def next_question(self) -> None:
        """Draw the next question (or finish the set)."""
        if self.number >= self.total_questions:
            self.done = True
            self.question = None
            done = (_("Set finished: {correct} of {total} right at the first try.")
                    if self.scored_first else _("Set finished: {correct} of {total} correct."))
            self.prompt.value = (
                "<b>" + done.format(correct=self.correct, total=self.total_questions) + "</b> "
                + _("Press <b>New set</b> for other questions, or type a practice code to "
                    "repeat a set."))
            self._show_row(None)
            self.feedback.value = ""
            self.picture.value = ""
            self._update_buttons()
            return
        self.number += 1
        self.attempts = 0
        self.done = False
        kind = self.kinds[self.rng.randrange(len(self.kinds))]
        self.question = make_question(self.rng, kind)
        self.prompt.value = f"<p style='font-size:1.3em'>{self.question.prompt}</p>"
        self.feedback.value = ""
        self.picture.value = ""
        if kind == "closer":
            self._show_row("choice_row")
            for b, label in zip(self.choice_buttons, self.question.choices, strict=True):
                b.description = label
                b.tooltip = _("choose {answer}").format(answer=label)
        else:
            self._show_row("typed_row")
            self.answer.value = ""
        self._update_buttons()

    def _show_row(self, name: str | None) -> None:
        """Show the row `name` (building it if needed), hide the other one if it exists."""
        if name is not None:
            getattr(self, name).layout.display = None
        for other in ("typed_row", "choice_row"):
            if other != name and LazyPart.built(self, other):
                self.__dict__[other].layout.display = "none"

    @speaks
    def check_typed(self) -> Feedback | None:
        """Check the typed answer."""
        if self.question is None or self.done or self.question.kind == "closer":
            return None
        try:
            n = parse_number(self.answer.value)
        except NumberRefused as e:
            return self._record(Feedback(False, number_refused_text(e.code), valid=False), "")
        return self._record(check(self.question, n), str(n))

    @speaks
    def choose(self, index: int) -> Feedback | None:
        """Answer a 'closer' question: 0 or 1 picks a number, 2 means the same distance."""
        if self.question is None or self.done or self.question.kind != "closer":
            return None
        given = ("0" if index == 2 else signed(self.question.numbers[index])
                 if index in (0, 1) else "")
        return self._record(check(self.question, SAME if index == 2 else index), given)

    @speaks
    def try_again(self) -> None:
        """Clear the answer and the feedback for another attempt."""
        if self.done:
            return
        if LazyPart.built(self, "answer"):
            self.answer.value = ""
        self.feedback.value = ""
        self._update_buttons()

    @speaks
    def show_me(self) -> None:
        """Show the worked answer on the number line; the question counts as not correct."""
        if self.question is None or self.done:
            return
        self.done = True
        how = _("Here is how:")
        self.feedback.value = f"<p><b>{how}</b> {explain(self.question)}</p>"
        self.picture.value = self._picture(self.question)
        self._update_buttons()

    # ----- helpers ---------------------------------------------------------------------
    def _record(self, fb: Feedback, given: str = "") -> Feedback:
        if fb.valid:
            self.attempts += 1
            self.answered_in_set = True
            self._to_class(fb, given)
        if fb.correct:
            if not self.scored_first or self.attempts == 1:
                self.correct += 1
            self.done = True
            self.picture.value = self._picture(self.question)
        elif fb.valid and self.attempts >= MAX_ATTEMPTS_BEFORE_SHOW:
            fb = Feedback(False, fb.message + " " + _("You can press <b>Show me</b>."),
                          mistake=fb.mistake)
        self.feedback.value = f"<p role='status'>{fb.icon} {fb.message}</p>"
        self._update_buttons()
        return fb

    def _to_class(self, fb: Feedback, given: str) -> None:
        """The answer to the class's store (the name bar first shows with the first one)."""
        if IN_BROWSER or self.question is None:
            return
        from widgets.lessons.student import NameBar

        if self.name_bar is None:
            self.name_bar = NameBar(self.lesson, lang=self.lang)
            self._layout_children()
        q = self.question
        mistake = fb.mistake
        shape = shape_of(q)
        self.name_bar.student.record(
            question=QuestionData(shape.kind, shape.terms, self.lesson,
                                  f"{self.seed}-{self.number}", self.seed),
            activity="check" if self.first_try else "practice", given=given, right=fb.correct,
            first_try=self.attempts == 1 and not self.repeated, mistake=mistake)

    def _flip_sign(self) -> None:
        t = self.answer.value.strip()
        if t.startswith(("-", "\u2212")):
            self.answer.value = t[1:]
        else:
            self.answer.value = "-" + t.lstrip("+")

    def _picture(self, q: Question) -> str:
        if q.kind == "closer":
            return nl.points_line(list(q.numbers))
        if q.kind == "abs-sum":
            return nl.steps_line(list(q.numbers))
        return nl.points_line([q.numbers[0]])

    def _update_buttons(self) -> None:
        answering = self.question is not None and not self.done
        if LazyPart.built(self, "typed_row"):
            self.check_button.disabled = not answering
            self.answer.disabled = not answering
            self.sign_button.disabled = not answering
        if LazyPart.built(self, "choice_row"):
            for b in self.choice_buttons:
                b.disabled = not answering
        self.try_button.disabled = not answering or not self.feedback.value
        self.show_button.disabled = not answering or self.attempts == 0
        self.next_button.disabled = self.question is None or not self.done
        self.header.value = (
            "<b>" + _("Question {number} of {total}").format(number=self.number,
                                                             total=self.total_questions)
            + "</b> &middot; "
            + (_("right at the first try: {correct}") if self.scored_first
               else _("correct so far: {correct}")).format(correct=self.correct)
            + " &middot; " + _("practice code: {code}").format(code=self.seed))


# ----- practice of every skill of the unit, targeted at the mistake shown ---------------------
class SkillPractice(w.VBox):
    """Generated practice of one skill at a time (engine.questions.SKILLS): a question, Check,
    the feedback of the mistake a wrong answer shows, then the next items chosen to practise
    that mistake. Mastery: 3 in a row right at the first try; 10 items of a skill in a day
    without it: the page says to ask the teacher (and the dashboard flags it). A skill mastered
    on an earlier day comes back once as a re-check.

    On a served page each answer goes to the class's store (activity 'practice', the item
    '<skill> <seed>-<n>'); the standing is kept in the kernel (`firsts`), and read back from
    the store for a named student. On the static site it stays on the device's kernel."""

    # the parts of the practice, made when first shown (see _build_parts)
    (skill_label, skill_buttons, skill_row, header, prompt, answer, check_button, typed_row,
     choice_buttons, choice_row, feedback, next_button, standing) = LazyPart.group(
        "_build_parts", 13)

    @speaks
    def __init__(self, skills: Sequence[str] = SKILLS, seed: int | None = None, *,
                 lesson: int = 4, lang: str | None = None, student: object = None,
                 today: str | None = None, name_bar: bool = False,
                 on_device: bool | None = None) -> None:
        """`name_bar`: the student's name bar shows from the start (a page of its own), and
        their standing is read back from the store when they are named; otherwise the bar
        comes with the first answer. `on_device` (default: on the static site, which has no
        store): the first tries are kept on the device (static/remember-name.js) and read
        back when the page opens."""
        self.lang = check_lang(lang)
        skills = tuple(skills)
        if not skills or any(s not in SKILLS for s in skills):
            raise ValueError(f"skills must be taken from {', '.join(SKILLS)}; got {skills!r}")
        if isinstance(seed, bool) or (seed is not None and not isinstance(seed, int)):
            raise ValueError(f"seed must be a whole number or None; got {seed!r}")
        self.skills = skills
        self.lesson = lesson
        self.seed = seed if seed is not None else random.SystemRandom().randrange(10**6, 10**9)
        self.rng = random.Random(self.seed)
        self.today = today or time.strftime("%Y-%m-%d")
        self.student = student
        self.name_bar: w.Widget | None = None
        # first tries: (day, skill, right), oldest first; and the mistakes to practise next
        self.firsts: list[tuple[str, str, bool]] = []
        self.targets: list[str] = []
        self.number = 0
        self.attempts = 0
        self.done = False
        self.skill = skills[0]
        self.shape: Shape | None = None
        self.last_mistake: str | None = None
        self.offered: str | None = None  # a skill the teacher asked this student to practise

        self.stylesheet = style_widget()
        # the standing read back from the store (a named student's first tries of other
        # pages, today and earlier days), or from the device on the static site
        self.earlier: list[tuple[str, str, bool]] = []
        self.named_as: tuple[str, ...] = ()  # the student (or pair) this page's answers are of
        self.on_device = IN_BROWSER if on_device is None else bool(on_device)
        self.device_kept: list[tuple[str, str, bool]] = []  # read back from the device
        bar: list[w.Widget] = []
        if self.on_device:
            self.keep = html_widget(classes=("icg-practice-keep",))
            self.recall = w.Text(layout=shared_layout(display="none"),
                                 style=shared_text_style(), continuous_update=False,
                                 description=_("Kept practice"),
                                 _dom_classes=("icg-practice-recall",))
            self.recall.observe(self._recalled, names="value")
            bar = [self.keep, self.recall]
        elif name_bar:
            from widgets.lessons.student import NameBar

            who = self._who()
            self.name_bar = NameBar(self.lesson, lang=self.lang, student=who)
            who.listeners.append(self._named)
            bar = [self.name_bar]
        self._bar = bar
        super().__init__([], _dom_classes=("icg-root", "icg-practice"))
        self._layout_children()
        if self.name_bar is not None:
            self.earlier = self._stored_firsts()
        self.next_question()

    def _build_parts(self) -> None:
        """The skill picker, the question and its answers, the feedback and the standing:
        made when first shown (LazyPart; a lesson page's re-check shows none of them while
        nothing is due)."""
        # the skill picker: a real button per skill; the one practised is marked pressed
        self.skill_label = html_widget()
        self.skill_label.value = "<b>" + esc(_("Skill:")) + "</b>"
        self.skill_buttons = {s: make_button(skill_name(s), lambda s=s: self.pick(s),
                                             tooltip=_("practise {skill}").format(
                                                 skill=skill_name(s)))
                              for s in self.skills}
        self.skill_row = w.HBox([self.skill_label, *self.skill_buttons.values()],
                                layout=w.Layout(flex_flow="row wrap"))
        self.header = html_widget()
        self.prompt = html_widget()
        self.answer = w.Text(placeholder=_("your answer"), description=_("Answer:"),
                             layout=shared_layout(width="14em"), continuous_update=False)
        self.check_button = make_button(_("Check"), self.check_typed, button_style="primary")
        check_on_enter(self.answer, self.check_button)
        self.typed_row = w.HBox([self.answer, self.check_button])
        self.choice_buttons = [make_button("", lambda i=i: self.choose(i), own_layout=True)
                               for i in range(3)]
        self.choice_row = w.HBox(self.choice_buttons)
        self.feedback = html_widget()
        self.next_button = make_button(_("Next question"), self.next_question)
        self.standing = html_widget()

    def _layout_children(self) -> None:
        self.children = [self.stylesheet, *self._bar, self.skill_row, self.header, self.prompt,
                         self.typed_row, self.choice_row, self.feedback, self.next_button,
                         self.standing]

    # ----- reading ------------------------------------------------------------------------------
    def all_firsts(self) -> list[tuple[str, str, bool]]:
        """The first tries the standing is made of: the ones read back, then this page's."""
        return [*self.earlier, *self.firsts]

    def state(self, skill: str | None = None) -> SkillState:
        return progress(self.all_firsts(), self.today).get(skill or self.skill, SkillState())

    # ----- actions --------------------------------------------------------------------------------
    @speaks
    def pick(self, skill: object) -> None:
        """Practise `skill` (a button of the skill picker); anything else changes nothing."""
        if not isinstance(skill, str) or skill not in self.skills or skill == self.skill:
            return
        if self.shape is not None and not self.done and self.attempts == 0:
            self.number -= 1  # an item not answered yet is not counted
            self.shape = None
        elif self.shape is not None and not self.done:
            self.done = True  # a miss already counted: leave the item
        self.skill = skill
        self.targets = []
        self.next_question()

    @speaks
    def practise(self, skill: str) -> None:
        """Practise `skill` now (the teacher's "practise this" reaches the page so)."""
        if skill in self.skills:
            self.pick(skill)

    def _recalled(self, change: dict) -> None:
        """What the device kept, typed back by the page (once): checked like anything typed;
        a malformed value changes nothing."""
        kept = read_kept(change["new"])
        own = self.firsts[:len(kept)] == kept if kept is not None else False
        if kept is None or self.device_kept or own:  # (own: this page's first tries, back)
            return
        self.device_kept = kept
        self.earlier = [f for f in kept if f[1] in self.skills]
        if not self.firsts and self.attempts == 0:  # nothing answered: a re-check may come
            self.number, self.shape = 0, None
            self.next_question()
        else:  # typed back after this page's first answers: kept with them
            self._keep()
            self._draw()

    def _keep(self) -> None:
        """The first tries, the device's and this page's, to be kept on the device."""
        value = kept_value([*self.device_kept, *self.firsts])
        self.keep.value = f"<span data-keep='{html.escape(value, quote=True)}'></span>"

    def _named(self) -> None:
        """The student named themselves: their standing, read back. Another student at this
        device ("Not you? Change", then a name): the page's answers were the one before's, so
        it starts again with other numbers."""
        names = tuple(getattr(self._who(), "names", ()))
        if self.named_as and names and names != self.named_as:
            self.seed = random.SystemRandom().randrange(10**6, 10**9)
            self.rng = random.Random(self.seed)
            self.firsts, self.targets = [], []
            self.number, self.shape, self.offered = 0, None, None
            self.named_as = names
            self.earlier = self._stored_firsts()
            self.next_question()
            return
        if names:
            self.named_as = names
        self.earlier = self._stored_firsts()
        self._draw()

    def _stored_firsts(self) -> list[tuple[str, str, bool]]:
        """The named student's first tries at practice, read back from the store, without
        this page's own (they are in `firsts`)."""
        who = self._who()
        read = getattr(who, "practice_firsts", None)
        if read is None:
            return []
        own = f"{self.seed}-"
        return [(day, skill, right) for day, item, right in read()
                if (skill := skill_of(item)) in self.skills
                and not item.split(" ", 1)[-1].startswith(own)]

    @speaks
    def next_question(self) -> None:
        if self.shape is not None and not self.done:
            self.feedback.value = "<p role='status'>! " + esc(_("Answer this question first.")) \
                + "</p>"
            return
        standing = progress(self.all_firsts(), self.today)
        recheck = next((s for s in self.skills
                        if wants_recheck(standing.get(s, SkillState()), self.today)), None)
        if recheck is not None and recheck != self.skill and self.number == 0:
            self.skill = recheck
            self.targets = []
        self._teacher_asks()
        target = self.targets.pop(0) if self.targets else None
        kind, terms = make_item(self.rng, self.skill, target)
        self.shape = Shape(kind, terms)
        self.number += 1
        self.attempts = 0
        self.done = False
        self.prompt.value = f"<p style='font-size:1.3em'>{esc(question_text(kind, terms))}</p>"
        self.feedback.value = ""
        self.answer.value = ""
        choices = kind in CHOICE_KINDS
        self.typed_row.layout.display = "none" if choices else None
        self.choice_row.layout.display = None if choices else "none"
        options = self.shape.options()
        for i, b in enumerate(self.choice_buttons):
            b.description = choice_words(kind, options[i]) if i < len(options) else ""
            b.layout.display = None if i < len(options) else "none"
        self._draw()

    @speaks
    def check_typed(self) -> Feedback | None:
        if self.shape is None or self.done or self.shape.kind in CHOICE_KINDS:
            return None
        try:
            n = parse_number(self.answer.value)
        except NumberRefused as e:
            return self._show(Feedback(False, number_refused_text(e.code), valid=False))
        return self._answered(n, signed(n) if self.shape.kind in ("sum", "difference")
                              else str(n))

    @speaks
    def choose(self, index: object) -> Feedback | None:
        if self.shape is None or self.done or self.shape.kind not in CHOICE_KINDS:
            return None
        options = self.shape.options()
        if isinstance(index, bool) or not isinstance(index, int) \
                or not 0 <= index < len(options):
            return self._show(Feedback(False, _("Choose one of the buttons."), valid=False))
        return self._answered(options[index], str(options[index]))

    # ----- helpers ----------------------------------------------------------------------------
    def _who(self) -> object:
        from widgets.lessons.student import STUDENT

        return self.student if self.student is not None else STUDENT

    def _teacher_asks(self) -> None:
        """The teacher's "practise this" (the dashboard): the page offers that skill next, its
        next questions aimed at the mistake the student showed."""
        if IN_BROWSER or self.on_device:
            return
        who = self._who()
        asked = [(s, m) for s, m in who.asked_practice() if s in self.skills]
        if not asked:
            return
        self.offered, mistake = asked[0]
        who.took_practice(self.offered)
        if self.offered != self.skill:
            self.skill = self.offered
            self.targets = []
        if mistake in SKILL_TARGETS[self.skill]:
            self.targets = [mistake] * TARGETED_ITEMS

    def _answered(self, given: int, data: str) -> Feedback:
        shape = self.shape
        assert shape is not None
        self.attempts += 1
        first = self.attempts == 1
        right = given == shape.answer
        mistake = None if right else classify(shape, given)
        if first:
            self.firsts.append((self.today, self.skill, right))
            if self.on_device:
                self._keep()
            if mistake is not None:
                self.last_mistake = mistake
                if mistake in SKILL_TARGETS[self.skill]:
                    self.targets = [mistake] * TARGETED_ITEMS
        self._to_class(data, right, first, mistake)
        if right:
            self.done = True
            fb = Feedback(True, _("Yes! That is right."))
        elif mistake is not None:
            fb = Feedback(False, mistake_feedback(mistake) + " " + _("Try again."),
                          mistake=mistake)
        else:
            fb = Feedback(False, _("Not yet. Count the steps from zero on the number line."))
        if not right and self.attempts >= MAX_ATTEMPTS_BEFORE_SHOW:
            self.done = True  # the answer is shown; the next item comes
            fb = Feedback(False, fb.message + " " + _("The answer is {answer}.").format(
                answer=choice_words(shape.kind, shape.answer) if shape.kind in CHOICE_KINDS
                else str(shape.answer)), mistake=mistake)
        return self._show(fb)

    def _show(self, fb: Feedback) -> Feedback:
        self.feedback.value = f"<p role='status'>{fb.icon} {esc(fb.message)}</p>"
        self._draw()
        return fb

    def _to_class(self, data: str, right: bool, first: bool, mistake: str | None) -> None:
        if IN_BROWSER or self.on_device or self.shape is None:  # kept on the device instead
            return
        from widgets.lessons.student import NameBar

        who = self._who()
        if self.name_bar is None:
            self.name_bar = NameBar(self.lesson, lang=self.lang, student=who)
            self._bar = [self.name_bar, *self._bar]
            self._layout_children()
        who.record(question=QuestionData(self.shape.kind, self.shape.terms, self.lesson,
                                         f"{self.skill} {self.seed}-{self.number}",
                                         self.seed % 10**6),
                   activity="practice", given=data, right=right, first_try=first,
                   mistake=mistake)

    def _draw(self) -> None:
        answering = self.shape is not None and not self.done
        for s, b in self.skill_buttons.items():
            b.button_style = "info" if s == self.skill else ""
            b.tooltip = (_("practising now: {skill}") if s == self.skill
                         else _("practise {skill}")).format(skill=skill_name(s))
            b.description = ("\u2713 " if self.state(s).status() == "mastered" else "") \
                + skill_name(s)
        self.check_button.disabled = self.answer.disabled = not answering
        for b in self.choice_buttons:
            b.disabled = not answering
        self.next_button.disabled = not self.done
        st = self.state()
        self.header.value = "<b>" + esc(_("{skill}: question {n}").format(
            skill=skill_name(self.skill), n=self.number)) + "</b> &middot; " + esc(
            _("right at the first try in a row: {streak} of {need}").format(
                streak=min(st.streak, MASTERY_STREAK), need=MASTERY_STREAK))
        status = st.status()
        if self.offered == self.skill:  # asked by the teacher: said, mastered or not
            text = _("Your teacher asks you to practise this: {skill}.").format(
                skill=skill_name(self.skill))
        elif status == "mastered":
            text = _("Mastered! Choose another skill, or keep practising.")
        elif status == "flagged":
            text = _("You have done {n} questions of this skill today: ask your teacher to "
                     "look at one with you.").format(n=st.today)
        else:
            text = ""
        self.standing.value = f"<p role='status'><b>{esc(text)}</b></p>" if text else ""


class Recheck(SkillPractice):
    """The start of a later lesson: a skill the student mastered on an earlier day comes back
    once, as one question (its re-check). Nothing shows while none is due: nobody named yet,
    no skill mastered before today, or every one re-checked today (here, on the practice page
    or on another lesson's page). Served, the student's first tries are read from the class's
    store when they are named (a name typed once comes back at load); on the static site, from
    the device. The answer is a first try at practice like any other: right, the skill stays
    mastered; wrong, it is practised again."""

    @speaks
    def __init__(self, lesson: int, *, lang: str | None = None, student: object = None,
                 today: str | None = None, on_device: bool | None = None) -> None:
        self._ready = False
        self._idle: tuple[w.Widget, ...] = ()
        super().__init__(SKILLS, lesson=lesson, lang=lang, student=student, today=today,
                         on_device=on_device)
        # what stays while no re-check is due: the stylesheet, on the static site the device's
        # keep and recall widgets, and on a page of the live class its cover and the exit
        # ticket the teacher opens (this piece is the first of the lesson's page: on top).
        # The question's parts are made only when a re-check is due (LazyPart).
        self._idle = (self.stylesheet, *((self.keep, self.recall) if self.on_device else ()),
                      *page_parts(lesson))
        self.children = self._idle
        # an empty box keeps one pixel: a page counts it as shown
        self.layout = w.Layout(min_height="1px")
        self.add_class("icg-recheck")
        self._ready = True
        if not self.on_device:
            who = self._who()
            who.listeners.append(self._named)
            if who.names:
                self.named_as = tuple(who.names)
                self.earlier = self._stored_firsts()
        self.next_question()

    def due(self) -> str | None:
        """The skill whose re-check is due now, or None."""
        if not self.on_device and not self._who().names:
            return None
        standing = progress(self.all_firsts(), self.today)
        return next((s for s in SKILLS if wants_recheck(standing.get(s, SkillState()),
                                                         self.today)), None)

    @speaks
    def next_question(self) -> None:
        if not self._ready or self.firsts:  # its one question is answered: nothing more
            return
        skill = self.due()
        if skill is None:
            self.shape, self.number = None, 0
            self.children = self._idle
            return
        if self.shape is not None and self.skill == skill:  # asked already
            return
        self.skill, self.targets = skill, []
        self.shape, self.number, self.done = None, 0, False
        super().next_question()
        self._layout_children()

    def _build_parts(self) -> None:
        super()._build_parts()
        self.title = html_widget()

    def _layout_children(self) -> None:
        if self.shape is None:  # nothing due (and while the page is made)
            self.children = self._idle
            return
        self.children = [*self._idle, *([self.name_bar] if self.name_bar is not None else []),
                         self.title, self.prompt, self.typed_row, self.choice_row,
                         self.feedback, self.standing]

    def _named(self) -> None:
        super()._named()
        if not self.firsts:
            self.next_question()

    def _teacher_asks(self) -> None:
        """The teacher's "practise this" waits for the practice page."""

    def _draw(self) -> None:
        if not self._ready or (self.shape is None and not LazyPart.built(self, "prompt")):
            return  # no re-check asked on this page: nothing drawn, nothing made
        super()._draw()
        self.title.value = "<h3>" + esc(_("Re-check: {skill}").format(
            skill=skill_name(self.skill))) + "</h3><p>" + esc(_(
                "You mastered this skill on an earlier day: one question to see that it is "
                "still there.")) + "</p>"
        if not self.firsts:
            text = ""
        elif self.firsts[0][2]:
            text = _("Still mastered: well done.")
        else:
            text = _("Not this time: practise this skill again on the practice page.")
        self.standing.value = f"<p role='status'><b>{esc(text)}</b></p>" if text else ""


MAX_KEPT = 500  # first tries kept on a device, the latest
DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def kept_value(firsts: Sequence[tuple[str, str, bool]]) -> str:
    """First tries as the device keeps them: JSON [[day, skill, 0 or 1], ...], the latest
    MAX_KEPT."""
    return json.dumps([[d, s, int(r)] for d, s, r in list(firsts)[-MAX_KEPT:]],
                      separators=(",", ":"))


def read_kept(text: object) -> list[tuple[str, str, bool]] | None:
    """The first tries a page sent back from the device, or None for anything that is not
    what `kept_value` writes (too long, not JSON, a bad day, an unknown skill)."""
    if not isinstance(text, str) or not 0 < len(text) <= MAX_KEPT * 40:
        return None
    try:
        data = json.loads(text)
    except ValueError:
        return None
    if not isinstance(data, list) or len(data) > MAX_KEPT:
        return None
    out = []
    for entry in data:
        if not (isinstance(entry, list) and len(entry) == 3 and isinstance(entry[0], str)
                and DAY.fullmatch(entry[0]) and entry[1] in SKILLS
                and type(entry[2]) is int and entry[2] in (0, 1)):
            return None
        out.append((entry[0], entry[1], bool(entry[2])))
    return out


# the number the practice page's answers and presence are filed under: it is no lesson's (the
# start page, 0, has no name bar), so the dashboard names it by its title
PRACTICE_PAGE = 0


def practice_page(lang: str | None = None) -> SkillPractice:
    """The practice page (lessons/practice.ipynb): every skill of the unit, the student's name
    bar from the start, their standing read back from the store."""
    return SkillPractice(lesson=PRACTICE_PAGE, lang=lang, name_bar=True)


def practice_rules(skills: Sequence[str] = SKILLS) -> str:
    """The practice page's skills and how each is mastered, as lines of text (the page
    prints it)."""
    from engine.questions import DAILY_LIMIT

    lines = [f"{i}. {skill_name(s)}" for i, s in enumerate(skills, 1)]
    lines.append(_("Mastered: {n} right in a row at the first try.").format(n=MASTERY_STREAK))
    lines.append(_("After {n} questions of a skill in a day without mastering it: ask your "
                   "teacher.").format(n=DAILY_LIMIT))
    return "\n".join(lines)
