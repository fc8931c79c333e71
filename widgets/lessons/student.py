"""Who is answering on this page: a student's first name (or two, for a pair at one device),
typed once and remembered on that device for the day, and their answers on their way to the
class's store (rooms/answers.py).

The page and the kernel talk through two widgets of the name bar, read and written by the
classroom template's `static/remember-name.js`:

- down: an HTML widget (class `icg-name-keep`) holds `<span data-keep='{"day": ..., "names":
  [...]}'>` after the student names themselves ("" after "Not you? Change"); the script keeps
  it in the browser's localStorage (on that device only), or forgets it;
- up: a hidden Text widget (class `icg-name-recall`): on a new page the script types what it
  kept there, and the kernel checks it like anything typed (`read_recall`: today's day, one
  or two first names that `check_first_name` takes, nothing else); a forged or stale value is
  ignored and the name box stays.

One kernel is one student's page, so the name is the kernel's (`STUDENT`): every name bar of a
page shows it, and each answer of the page's exit tickets and practice goes to the class's
store under it (`record`). Answers given before the student names themselves wait on the page
and go with the name. Nothing of another student reaches a page: the kernel reads no answer
back. The static site (no server) has no name bar and records nothing.

On a page of the live class the teacher runs (widgets/together/live.py), the class decides
first (`Student.gate`): a name the teacher must let in (approval of typed names, a locked class
with late joiners, a name held on another device) is only `pending` until then: nothing is
recorded under it and the page does not say "Answering as"; the answers given meanwhile wait on
the page and go with the name the class lets in. A name the class refuses is never the page's.
"""

from __future__ import annotations

import html
import json
import threading
import time
from collections.abc import Callable
from typing import Any

import ipywidgets as w

from engine.cards import signed
from engine.questions import Question, terms_text
from rooms.codes import MAX_NAME, CodeError, clean_name
from widgets.page.in_browser import IN_BROWSER
from widgets.page.language import speaks
from widgets.table.components import html_widget, make_button, shared_layout, shared_text_style
from widgets.words import _

MAX_RECALL = 200  # characters the page may send back
MAX_WAITING = 200  # answers kept on a page before the student names themselves
MAX_ANSWERS = 1000  # answers one page sends at most (a student clicking Check for ever)


class NameRefused(ValueError):
    """A first name that is not taken, with the sentence that says why."""


def check_first_name(text: object) -> str:
    """A first name as shown (spaces tidied), or NameRefused with the reason in words."""
    if not isinstance(text, str) or not text.strip():
        raise NameRefused(_("Type your first name."))
    try:
        name, _key = clean_name(text)
    except CodeError as e:
        if e.code == "poses-as-seat":
            raise NameRefused(_("Type your own first name.")) from e
        raise NameRefused(_("A first name has 1 to {n} letters (spaces, - ' and . too).").format(
            n=MAX_NAME)) from e
    return name


def check_names(texts: list[object]) -> tuple[str, ...]:
    """One or two first names, different from each other; NameRefused otherwise."""
    names = tuple(check_first_name(t) for t in texts)
    if len(names) == 2 and clean_name(names[0])[1] == clean_name(names[1])[1]:
        raise NameRefused(_("Two students, two different names."))
    return names


def today(now: float | None = None) -> str:
    return time.strftime("%Y-%m-%d", time.localtime(time.time() if now is None else now))


def keep_value(names: tuple[str, ...], day: str) -> str:
    """What the page keeps on the device: the day and the names, as JSON."""
    return json.dumps({"day": day, "names": list(names)}, ensure_ascii=False,
                      separators=(",", ":"))


def read_recall(text: object, day: str) -> tuple[str, ...] | None:
    """The names a page sent back from the device, if they are today's and are names; else
    None (anything else: stale, forged, too long, not JSON)."""
    if not isinstance(text, str) or not 0 < len(text) <= MAX_RECALL:
        return None
    try:
        data = json.loads(text)
    except ValueError:
        return None
    if not isinstance(data, dict) or set(data) != {"day", "names"} or data["day"] != day:
        return None
    names = data["names"]
    if not isinstance(names, list) or not 1 <= len(names) <= 2:
        return None
    try:
        return check_names(names)
    except NameRefused:
        return None


class Student:
    """The student (or pair) of this kernel's page, and their answers' way to the store."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.names: tuple[str, ...] = ()
        self.clock = clock
        self.lesson: int | None = None  # the page's lesson (its name bars say it)
        self.waiting: list[dict[str, Any]] = []
        # (name, lesson, activity, item) of the first tries this page sent (some may still be
        # on their way to the store), each right or not
        self.sent_firsts: dict[tuple[str, int, str, str], bool] = {}
        self.listeners: list[Callable[[], None]] = []
        # the live class's decision on a name, asked before it becomes the page's: returns the
        # names as the class spells them (the page holds the name now), None (the teacher
        # decides: the names are pending), or raises a ValueError with the refusal's words
        self.gate: Callable[[tuple[str, ...]], tuple[str, ...] | None] | None = None
        self.pending: tuple[str, ...] = ()  # names waiting for the live class to let them in
        self.outbox: Any = None  # rooms.answers.Outbox, made at the first answer
        self.answers = 0  # answers this page recorded (at most MAX_ANSWERS)
        self._caps: Any = None  # rooms.caps.WriteCaps, made at the first write
        self._lock = threading.Lock()
        self._reader: Any = None  # the store, read for the teacher's "practise this"

    # ----- the name --------------------------------------------------------------------------
    def set_names(self, names: tuple[str, ...], *, counted: bool = False,
                  decided: bool = False) -> None:
        """The page's student(s) from now on (() : nobody); NameRefused past the page's or the
        computer's name changes (rooms/caps.py), or when the live class refuses the name. With
        a live class (`gate`) the class decides first: names it does not let in yet are only
        `pending` (nothing is recorded under them). `counted`: the change was counted already
        (`count_name_change`, before the live class was asked); `decided`: the live class
        holds the name for this page (the page's poll, an approval): neither counted nor
        asked again."""
        if names == self.names and not (self.pending and names):
            return
        if names and not decided:
            if not counted:
                self.count_name_change()
            if self.gate is not None:
                try:
                    granted = self.gate(names)
                except NameRefused:
                    raise
                except ValueError as e:  # the class's refusal, in words: nothing changes
                    raise NameRefused(str(e)) from e
                if granted is None:
                    self.wait_for(names)
                    return
                names = granted
        self.pending = ()
        self.names = names
        if names:
            self._on_page()
            waiting, self.waiting = self.waiting, []
            for kw in waiting:
                self._send(**kw)
        for fn in list(self.listeners):
            fn()

    def wait_for(self, names: tuple[str, ...]) -> None:
        """The live class has not let `names` in yet: they are pending (not the page's)."""
        self.pending = names
        for fn in list(self.listeners):
            fn()

    def drop_pending(self) -> None:
        """The live class refused the pending names: they are never used. The answers given
        meanwhile still wait, for the name the class lets in."""
        if self.pending:
            self.pending = ()
            for fn in list(self.listeners):
                fn()

    def forget_waiting(self) -> None:
        """The next student at this device: what an unnamed student answered is not theirs, so
        it is dropped (it never reaches the store under the next name)."""
        self.waiting = []

    def count_name_change(self) -> None:
        """Count one name change against the page's and the computer's caps; NameRefused past
        them (the change must not happen)."""
        if not self.caps().allow("name"):
            raise NameRefused(_("Too many name changes on this device: ask your teacher."))

    def on_page(self, lesson: int) -> None:
        """The page of `lesson` is open (its name bar is shown)."""
        self.lesson = lesson
        if self.names:
            self._on_page()

    def _on_page(self) -> None:
        if self.lesson is None:
            return
        from rooms.answers import Presence

        for name in self.names:
            if self.caps().allow("presence"):
                self._box().put(Presence(name, self.lesson, self.clock()))

    # ----- answers ---------------------------------------------------------------------------
    def record(self, *, question: Question, activity: str, given: str, right: bool,
               first_try: bool, mistake: str | None = None) -> None:
        """One answer of this page's student (or pair) to `question`; kept until they name
        themselves. No sentence: the dashboard writes the question in the teacher's
        language."""
        if IN_BROWSER or self.answers >= MAX_ANSWERS or not self.caps().allow("answer"):
            return
        self.answers += 1
        from rooms.answers import new_answer_id

        kw = {"answer_id": new_answer_id(), "lesson": question.lesson, "activity": activity,
              "item": question.item[:40], "kind": question.kind,
              "terms": terms_text(question.terms), "variant": question.variant,
              "given": str(given)[:40], "right": bool(right), "first_try": bool(first_try),
              "mistake": mistake, "at": self.clock()}
        if not self.names:
            if len(self.waiting) < MAX_WAITING:
                self.waiting.append(kw)
            return
        self._send(**kw)

    def _send(self, answer_id: str, **kw: Any) -> None:
        from rooms.answers import Answer

        box = self._box()
        names = self.names
        for i, name in enumerate(names):
            # one id per student of a pair, made here: a retry of either never doubles it;
            # each carries the other's name, so the pair's work is seen as the pair's
            partner = names[1 - i] if len(names) == 2 else ""
            box.put(Answer(answer_id=f"{answer_id}-{i}", student=name, partner=partner, **kw))
            if kw["first_try"]:
                self.sent_firsts[(name, kw["lesson"], kw["activity"], kw["item"])] = kw["right"]

    def asked_practice(self) -> list[tuple[str, str | None]]:
        """The skills the teacher asked this page's student to practise today ("practise
        this" on the dashboard), each with the mistake to aim at (or None), latest first; []
        unnamed, on the static site, or when the store cannot be reached. Reads only this
        student's own requests."""
        if IN_BROWSER or not self.names:
            return []
        from rooms.answers import AnswerRefused
        from rooms.errors import StoreUnavailable

        try:
            if self._reader is None:
                self._reader = self._box().opener()
            return self._reader.practice_asked(self.names[0], today(self.clock()))
        except (StoreUnavailable, AnswerRefused):
            return []

    def first_tried(self, lesson: int, activity: str) -> set[str]:
        """The items this page's student (the first of a pair) had a first try at today, in
        the store and on this page (sent, maybe not stored yet); only this page's when the
        store cannot be reached."""
        return set(self.first_marks(lesson, activity))

    def first_marks(self, lesson: int, activity: str) -> dict[str, bool]:
        """`first_tried`, each item's first try right or not."""
        if IN_BROWSER or not self.names:
            return {}
        from rooms.answers import AnswerRefused
        from rooms.errors import StoreUnavailable

        name = self.names[0]
        here = {item: right for (who, les, act, item), right in self.sent_firsts.items()
                if (who, les, act) == (name, lesson, activity)}
        try:
            if self._reader is None:
                self._reader = self._box().opener()
            stored = self._reader.first_marks(name, lesson, activity, today(self.clock()))
        except (StoreUnavailable, AnswerRefused):
            return here
        return {**stored, **here}

    def practice_firsts(self) -> list[tuple[str, str, bool]]:
        """This page's student's (the first of a pair) first tries at practice, every day the
        store keeps, oldest first: (day, item, right); [] unnamed, on the static site, or when
        the store cannot be reached."""
        if IN_BROWSER or not self.names:
            return []
        from rooms.answers import AnswerRefused
        from rooms.errors import StoreUnavailable

        try:
            if self._reader is None:
                self._reader = self._box().opener()
            return self._reader.practice_firsts(self.names[0])
        except (StoreUnavailable, AnswerRefused):
            return []

    def took_practice(self, skill: str) -> None:
        """The student took up the skill the teacher asked for."""
        if self._reader is None or not self.names:
            return
        from rooms.errors import StoreUnavailable

        try:
            for name in self.names:
                self._reader.done_practice(name, skill, today(self.clock()))
        except StoreUnavailable:
            pass

    def caps(self) -> Any:
        """What this page may still write (rooms.caps.WriteCaps): counted per page, and per
        computer with the server's other kernels (the runtime folder's shared counts)."""
        with self._lock:
            if self._caps is None:
                from rooms.caps import COUNTS_FILE, SharedCounts, WriteCaps
                from widgets.page.teacher_key import page_client, runtime_dir

                folder = runtime_dir()
                self._caps = WriteCaps(
                    client=page_client(), clock=self.clock,
                    shared=SharedCounts(folder / COUNTS_FILE) if folder else None)
            return self._caps

    def _box(self) -> Any:
        with self._lock:
            if self.outbox is None:
                from rooms.answers import Outbox, open_and_expire, spool_dir

                self.outbox = Outbox(open_and_expire, spool=spool_dir())
            return self.outbox


STUDENT = Student()


class NameRecall(w.Text):
    """Only the hidden box the page types a remembered name into (static/remember-name.js),
    for a page whose name bar is not shown yet: the exit ticket holds one from the start, so
    a named student's page says at once which lesson they are on, and the answers of the page's
    tables go with their name. What the page sends is checked (`read_recall`)."""

    def __init__(self, lesson: int, *, student: Student | None = None) -> None:
        self.student = student if student is not None else STUDENT
        self.lesson = lesson
        super().__init__(layout=shared_layout(display="none"), style=shared_text_style(),
                         continuous_update=False, description=_("Remembered name"),
                         _dom_classes=("icg-name-recall",))
        self.icg_always = True  # what the device kept: read even while the class is paused
        self.observe(self._recalled, names="value")

    def _recalled(self, change: dict[str, Any]) -> None:
        names = read_recall(change["new"], today(self.student.clock()))
        if names is None or self.student.names:
            return
        if self.student.lesson is None:
            self.student.lesson = self.lesson
        try:
            self.student.set_names(names)
        except NameRefused:
            pass  # the name box stays; the cap's refusal is logged once


class NameBar(w.VBox):
    """A first name typed once (remembered on the device for the day), "Not you? Change",
    and "Two of us on this device"."""

    @speaks
    def __init__(self, lesson: int, *, student: Student | None = None,
                 lang: str | None = None) -> None:
        self.lang = lang
        self.student = student if student is not None else STUDENT
        self.lesson = lesson
        self.recall = w.Text(layout=w.Layout(display="none"), _dom_classes=("icg-name-recall",),
                             continuous_update=False, description=_("Remembered name"))
        self.recall.icg_always = True  # what the device kept: read even while the class pauses
        self.keep = html_widget(classes=("icg-name-keep",))
        self.line = html_widget()
        self.first = w.Text(description=_("Your first name:"), placeholder=_("first name"),
                            continuous_update=False, layout=shared_layout(width="20em"),
                            style={"description_width": "initial"})
        self.second = w.Text(description=_("Second first name:"), placeholder=_("first name"),
                             continuous_update=False, layout=w.Layout(width="20em",
                                                                      display="none"),
                             style={"description_width": "initial"})
        self.ok_button = make_button(_("That's me"), self.name_me, button_style="primary")
        self.pair_button = make_button(_("Two of us on this device"), self.pair,
                                       own_layout=True)
        self.change_button = make_button(_("Not you? Change"), self.change, own_layout=True)
        self.message = html_widget()
        self.entry = w.HBox([self.first, self.second, self.ok_button, self.pair_button],
                            layout=w.Layout(flex_flow="row wrap"))
        self.pairing = False
        self.asked: tuple[str, ...] = ()  # names typed or recalled, kept on the device once in
        self.recall.observe(self._recalled, names="value")
        self.student.listeners.append(self._draw)
        from widgets.page.live_gate import name_bar_parts

        super().__init__([self.recall, self.keep, self.line, self.entry, self.change_button,
                          self.message, *name_bar_parts(self)], _dom_classes=("icg-name-bar",))
        self.student.on_page(lesson)
        self._draw()

    # ----- what the student does --------------------------------------------------------------
    @speaks
    def name_me(self) -> bool:
        """The names typed: checked, kept on the device, and the answers go under them."""
        texts = [self.first.value] + ([self.second.value] if self.pairing else [])
        try:
            names = check_names(texts)
        except NameRefused as e:
            self.message.value = f"<p role='alert'>! {html.escape(str(e))}</p>"
            return False
        self.asked = names
        try:
            self.student.set_names(names)
        except NameRefused as e:
            self.asked = ()
            self.message.value = f"<p role='alert'>! {html.escape(str(e))}</p>"
            return False
        self.message.value = ""
        self._draw()
        return True

    @speaks
    def pair(self) -> None:
        """Two students at one device: a second name box (pressed again: back to one)."""
        if self.student.names:
            return
        self.pairing = not self.pairing
        self._draw()

    @speaks
    def change(self) -> None:
        """Not you: the name is forgotten on this device, and the name box comes back."""
        if not self.student.names:
            return
        self.keep.value = "<span data-keep=''></span>"
        self.first.value = self.second.value = ""
        self.pairing = False
        self.asked = ()
        self.student.set_names(())
        self._draw()

    def _recalled(self, change: dict[str, Any]) -> None:
        names = read_recall(change["new"], today(self.student.clock()))
        if names is None or self.student.names:
            return
        self.asked = names
        try:
            self.student.set_names(names)
        except NameRefused:
            self.asked = ()
            return
        self._draw()

    # ----- drawing -----------------------------------------------------------------------------
    def _keep_html(self, names: tuple[str, ...]) -> str:
        value = keep_value(names, today(self.student.clock()))
        return f"<span data-keep='{html.escape(value, quote=True)}'></span>"

    @speaks
    def _draw(self) -> None:
        names = self.student.names
        pending = self.student.pending if not names else ()
        named = bool(names)
        if named and self.asked and names[1:] == self.asked[1:]:
            # the names this bar asked for are the page's now: the device keeps them (a name
            # the class has not let in is not kept)
            self.keep.value = self._keep_html(names)
            self.asked = ()
        elif not named and not pending:
            self.asked = ()  # refused by the live class: never kept
        if named:
            who = (names[0] if len(names) == 1 else
                   _("{first} and {second}").format(first=names[0], second=names[1]))
            self.line.value = ("<p class='icg-name-line' role='status'>" + html.escape(
                _("Answering as {who}. Your teacher sees your answers.").format(who=who))
                + "</p>")
        elif pending:
            who = (pending[0] if len(pending) == 1 else
                   _("{first} and {second}").format(first=pending[0], second=pending[1]))
            self.line.value = ("<p class='icg-name-line' role='status'>" + html.escape(
                _("Waiting for your teacher to let you in as {who}. Your answers so far wait "
                  "on this page and go with your name once you are in.").format(who=who))
                + "</p>")
        else:
            self.line.value = "<p class='icg-name-line'>" + html.escape(
                _("Your teacher sees your answers: type your first name once.")) + "</p>"
            if self.pairing:
                self.first.description = _("First name of one:")
            else:
                self.first.description = _("Your first name:")
        self.entry.layout.display = "none" if named or pending else None
        self.second.layout.display = None if self.pairing and not named else "none"
        self.pair_button.description = (_("Just me on this device") if self.pairing
                                        else _("Two of us on this device"))
        self.pair_button.tooltip = self.pair_button.description
        self.ok_button.description = _("That's us") if self.pairing else _("That's me")
        self.ok_button.tooltip = self.ok_button.description
        self.change_button.layout.display = None if named else "none"
        self.ok_button.disabled = self.pair_button.disabled = named
        self.change_button.disabled = not named


def record_sum_check(*, lesson: int, item: str, terms: tuple[int, ...],
                     given_sum: int | None = None, given_abs: int | None = None,
                     first_try: bool, student: Student | None = None,
                     kind: str = "sum") -> None:
    """A table's check of a sum (and, asked together, of its absolute value) as the page's
    student's answers, with the mistake each wrong one shows: Hit Me's end-of-round check,
    Flapjack's "say the new total" (`kind` 'difference': a card subtracted, terms[0] minus
    terms[1])."""
    from engine.mistakes import Shape, classify

    who = student if student is not None else STUDENT
    if kind == "difference":
        if given_sum is not None:
            right = terms[0] - terms[1]
            who.record(question=Question("difference", terms, lesson, f"{item} difference"),
                       activity="check", given=signed(given_sum), right=given_sum == right,
                       first_try=first_try,
                       mistake=classify(Shape("difference", terms), given_sum))
        return
    total = sum(terms)
    both = given_sum is not None and given_abs is not None and len(terms) >= 2
    if given_sum is not None:
        who.record(question=Question("sum", terms, lesson, f"{item} sum"), activity="check",
                   given=signed(given_sum), right=given_sum == total, first_try=first_try,
                   mistake=classify(Shape("sum", terms, both=both), given_sum))
    if given_abs is not None and len(terms) >= 2:
        who.record(question=Question("abs-sum", terms, lesson, f"{item} |sum|"),
                   activity="check", given=str(given_abs), right=given_abs == abs(total),
                   first_try=first_try,
                   mistake=classify(Shape("abs-sum", terms, both=both), given_abs))
