"""A student's page in the live class the teacher runs (rooms/live_class.py): the gate every
table and lesson piece of the page goes through.

One `LivePage` per kernel (`PAGE`, made by `page_parts()` on a served page, or by `activate()`
in a test) polls the class's one row every `poll_every` seconds (0.5: a pause reaches the page
within a second) and:

- while the teacher has paused the class, covers the page with "Eyes on the teacher" and
  refuses in the kernel every click (`refuses`, consulted by every `GuardedButton` through
  `widgets.table.components.CLICK_GATE`) and every change the page sends for a widget (an
  `update` message: a box's value, a choice, a slider, a toggle; `UPDATE_GATE`, consulted by
  every widget's `set_state`), so a forged click or value changes nothing and no handler of
  the lesson runs; the widgets the page itself needs (`icg_always`: the boxes the device types
  its kept token and name into, the teacher's key) are never refused;
- when the teacher opens the exit ticket of the page's lesson, shows it over the page;
- is in the teacher's list from its opening (`open_page`, once its device said which token it
  kept: "page without a name, lesson 2"), so the teacher can remove a page that has not named
  itself;
- decides the page's student name (`widgets.lessons.student.STUDENT`) in the class before it
  becomes the page's (`Student.gate`): the name picked from the roster (`NamePicker`, with its
  confirmation code when the teacher asks for one) or typed (waiting for the teacher when
  approval is on, the class is locked with late joiners, or another device holds it), one page
  a name; a waiting name is only pending (nothing recorded under it) until the teacher lets it
  in, and a refused one is dropped; a page that waits, was removed, or whose name moved to
  another device is told so and refuses clicks and changes;
- keeps its token on the device (`static/live-page.js`, like the remembered name), so a
  removed page is still out after a reload, and a reload of a page that is in stays in.

The page can change nothing of the class: it only picks its own name and reads the class's
settings and its own state (no roster code, no other page).
"""

from __future__ import annotations

import atexit
import html
import logging
import os
import time
from collections.abc import Callable
from typing import Any

import ipywidgets as w

from rooms.codes import CodeError, clean_name
from rooms.errors import RoomError, StoreUnavailable
from rooms.live_class import LiveClass, LiveState, Pick, open_live_class
from widgets.table import components
from widgets.table.components import html_widget, make_button, shared_layout
from widgets.words import _, live_error_text, ngettext

log = logging.getLogger(__name__)

POLL_EVERY = 0.5
# The page's script (the classroom template's live-page.js) types into the recall box the token
# this device kept, or NO_TOKEN when it kept none: a page with a name picks it only then, so a
# reopened page never takes its name anew (waiting for the teacher, its own token lost) because
# its device was slow to say. TOKEN_GRACE: how long a page without that script waits instead.
NO_TOKEN = "none"
TOKEN_GRACE = 5.0
MAX_TOKEN = 64

COVER = ("position:fixed;inset:0;z-index:10000;background:#fff;display:flex;"
         "flex-direction:column;align-items:center;justify-content:center;text-align:center;"
         "padding:2em;font-size:1.5em")

# The page states that block every click but the name's own controls.
OUT = ("removed", "moved")


class NameNotTaken(ValueError):
    """A name the live class does not take for this page, with the sentence that says why
    (`Student.set_names` raises it as its NameRefused)."""


class LivePage:
    """This kernel's page in the live class (see the module's text)."""

    def __init__(self, store: LiveClass | None = None, *, student: Any = None,
                 poll_every: float = POLL_EVERY, token_grace: float = TOKEN_GRACE,
                 schedule: Callable[[float, Callable[[], None]], None] | None = None,
                 poll: bool = True) -> None:
        self.store = store if store is not None else open_live_class()
        self.student: Any = None  # the page's student (a name bar or exit ticket gives it)
        self.poll_every = float(poll_every)
        self.token_grace = float(token_grace)
        self.schedule = schedule
        self.token: str | None = None
        self.state: LiveState | None = None
        self.page_state: str | None = None  # open, in, waiting, moved, freed, removed; None
        self.refusal: str = ""  # the last pick's refusal, in words
        self.name: str | None = None
        self.lesson: int | None = None
        self.opened = time.monotonic()
        self.stopped = False
        self.refused_clicks = 0
        self.refused_changes = 0
        self._exit_ticket: Any = None
        self.exit_hosted = False  # a piece of the page shows `exit_box` (the first that asks)
        self.device_said = False  # the recall box was typed: the device's token, or NO_TOKEN
        self.screen = html_widget(classes=("icg-live-screen",))
        self.exit_box = w.VBox([], layout=shared_layout(display="none"),
                               _dom_classes=("icg-live-exit",))
        self.keep = html_widget(classes=("icg-live-keep",))
        self.recall = w.Text(layout=w.Layout(display="none"), continuous_update=False,
                             description=_("Remembered page"), _dom_classes=("icg-live-recall",))
        self.recall.icg_always = True  # the device's token: read even while the class pauses
        self.recall.observe(self._recalled, names="value")
        self.picker: NamePicker | None = None
        self.seat_listeners: list[Callable[[Any], None]] = []  # play-together pages
        self.welcome = ""  # after a move: the day's answers kept under the name
        if student is not None:
            self.use_student(student)
        # the cover and the device's token, in every piece and name bar of the page (the exit
        # ticket's place, `exit_box`, in the first piece only: see page_parts)
        self.box = w.VBox([self.keep, self.recall, self.screen], _dom_classes=("icg-live",))
        self.poll()
        if poll:
            self._arm()

    def use_student(self, student: Any) -> None:
        """The page's student (widgets.lessons.student.Student): the class decides its names
        before they are the page's (`Student.gate`)."""
        if self.student is student:
            return
        if self.student is not None:
            self.stop_listening()
        self.student = student
        student.gate = self._decide

    def stop_listening(self) -> None:
        if self.student is not None and getattr(self.student, "gate", None) == self._decide:
            self.student.gate = None

    # ----- polling ------------------------------------------------------------------------
    def _arm(self) -> None:
        from widgets.table.controller import call_later

        (self.schedule or call_later)(self.poll_every, self._tick)

    def _tick(self) -> None:
        if self.stopped:
            return
        try:
            self.poll()
        except Exception:  # noqa: BLE001 - a poll must never stop the polling
            log.exception("live class poll failed")
        self._arm()

    def stop(self) -> None:
        self.stopped = True

    def poll(self) -> None:
        """One read of the class and of this page; redraw what changed."""
        try:
            state, page_state, name = self.store.page_stamp(self.token)
        except StoreUnavailable:
            return  # the page goes on as it was; the next poll tries again
        self.state = state
        self.name = name if name is not None else self.name
        was = self.page_state
        if page_state != was:
            self.page_state = page_state
            student = self.student
            if was == "removed":  # let back: what it was refused then no longer holds
                self.refusal = ""
            if (page_state == "in" and name and student is not None
                    and student.names[:1] != (name,)):
                student.set_names(self._with_partner(name), decided=True)
            elif page_state == "freed" and was in ("waiting", "in") and student is not None:
                self._freed(was)
            if page_state == "in":
                self._seat_back()
        if self.token is None and not self.refusal and self._may_pick():
            wanted = () if self.student is None else (self.student.pending or self.student.names)
            if wanted:
                self._ask(wanted)
            else:
                self._open()
        self.draw()

    # ----- the name -----------------------------------------------------------------------
    def _may_pick(self) -> bool:
        """A page without a token may pick its student's name: its device said it keeps no
        token for it (or one the class does not know), or the grace is over."""
        return self.device_said or time.monotonic() - self.opened >= self.token_grace

    def _recalled(self, change: dict[str, Any]) -> None:
        """The token this device kept for the page (checked: the store knows it or not), or
        NO_TOKEN: it keeps none, and a name given meanwhile is picked now."""
        value = change["new"]
        if not isinstance(value, str) or not 0 < len(value) <= MAX_TOKEN or value == self.token:
            return
        if value == NO_TOKEN:
            if not self.device_said:
                self.device_said = True
                self.poll()
            return
        if self.token is not None and self.page_state in ("in", "removed"):
            return
        self.device_said = True
        try:
            page_state, name = self.store.page(value)
            if page_state is None:  # a token the class does not know (another day, forged)
                self.poll()  # ignored: a name given meanwhile is picked now
                return
            if self.token is not None:  # a request made before the device's token came
                self.store.forget(self.token)
        except StoreUnavailable:
            return
        self.page_state, self.refusal = None, ""
        self._keep(value)
        self.poll()

    def _keep(self, token: str) -> None:
        """The page's token, and the device keeps it (static/live-page.js reads data-keep)."""
        self.token = token
        self.keep.value = f"<span data-keep='{html.escape(token, quote=True)}'></span>"

    def _open(self) -> None:
        """The page is in the teacher's list before it has a name (its lesson, when it
        opened): the teacher can remove it; its device keeps its token."""
        try:
            token = self.store.open_page(self.lesson_of_page())
        except RoomError as e:  # the store cannot be reached: the next poll tries again
            log.info("live class: page not listed yet: %s", e)
            return
        self._keep(token)
        self.page_state = "open"

    def _decide(self, names: tuple[str, ...]) -> tuple[str, ...] | None:
        """`Student.gate`: the class's decision on the names the page's student gave (typed
        or remembered), before they are the page's: the names as the class spells them (the
        page holds the first), None (not yet: the teacher lets it in, or the device has not
        said which token it kept), or NameNotTaken with the class's words."""
        if self.stopped:
            return names
        if self.page_state == "in" and self.name == names[0]:
            return names
        if self.token is None and not self._may_pick():
            return None  # the device's token may still come: asked when it says
        try:
            got = self._claim(names[0])
        except StoreUnavailable as e:  # nothing changed: the student gives the name again
            raise NameNotTaken(live_error_text(e)) from e
        return (got.name, *names[1:]) if got.state == "in" else None

    def _ask(self, names: tuple[str, ...]) -> None:
        """The poll asks the class for the names the page's student gave before the page
        could ask (its device had not said which token it kept)."""
        student = self.student
        try:
            got = self._claim(names[0])
        except StoreUnavailable:
            return  # the next poll asks again
        except NameNotTaken:  # never the page's
            student.drop_pending()
            if student.names == names:
                student.set_names((), decided=True)
            return
        if got.state == "in":
            student.set_names((got.name, *names[1:]), decided=True)
        else:
            if student.names:  # named before the class was asked: not the page's until in
                student.set_names((), decided=True)
            student.wait_for(names)

    def _claim(self, name: str, code: str | None = None) -> Pick:
        """Ask the class for `name` (with the roster's code): the class's Pick, the page's
        token kept; NameNotTaken with the refusal's words (shown on the page); StoreUnavailable
        (nothing changed)."""
        try:
            got = self.store.pick(name, token=self.token, code=code)
        except StoreUnavailable:
            raise
        except RoomError as e:
            self.refusal = live_error_text(e)
            self.draw()
            raise NameNotTaken(self.refusal) from e
        self.refusal = ""
        if got.token != self.token:
            self._keep(got.token)
        was = self.page_state
        self.page_state, self.name = got.state, got.name
        if got.state == "in" and was != "in":
            self._seat_back()
        self.draw()
        return got

    def _with_partner(self, name: str) -> tuple[str, ...]:
        """`name`, with the second name of a pair when the pending names are that pair's."""
        pending = self.student.pending
        try:
            same = bool(pending) and clean_name(pending[0])[1] == clean_name(name)[1]
        except CodeError:
            same = False
        return (name, *pending[1:]) if same else (name,)

    def _freed(self, was: str) -> None:
        """The teacher refused the page's waiting name, or freed the name it held: the name
        is not the page's (never used); the student names themselves again."""
        student = self.student
        name = (student.pending or student.names or (self.name or "",))[0]
        if was == "waiting":
            student.drop_pending()
            self.refusal = _("Your teacher did not let in the name {name}: type your own first "
                             "name.").format(name=name)
        else:
            if student.names:
                student.set_names((), decided=True)
            self.refusal = _("Your teacher freed the name {name} on this page: type your first "
                             "name to go on.").format(name=name)

    def pick(self, name: str, code: str | None = None) -> bool:
        """Pick `name` (from the roster, with its code); True once the page is in or waits."""
        # a pick that changes the page's name is a name change: counted against the caps
        # before the class's store is asked (a page picking name after name writes nothing)
        student = self.student
        if student is not None and (name,) != tuple(student.names[:1]):
            try:
                student.count_name_change()
            except ValueError as e:  # NameRefused, with the words the page shows
                self.refusal = str(e)
                self.draw()
                return False
        try:
            got = self._claim(name, code)
        except NameNotTaken:
            return False
        except StoreUnavailable as e:
            self.refusal = live_error_text(e)
            self.draw()
            return False
        if student is not None:
            if got.state != "in":
                student.wait_for((got.name,))
            elif student.names[:1] != (got.name,):
                student.set_names((got.name,), decided=True)
        return True

    # ----- coming back on another device --------------------------------------------------
    def on_seat(self, listener: Callable[[Any], None]) -> None:
        """A play-together page: `listener(SeatTicket)` when this page's name has a seat to
        take back (its page before a move sat there); at once if it has one now."""
        self.seat_listeners.append(listener)
        if self.page_state == "in":
            self._seat_back()

    def note_seat(self, code: str, seat: int) -> None:
        """This page sat at a play-together table: its name's next page finds the seat."""
        if self.token and self.page_state == "in":
            try:
                self.store.note_seat(self.token, code, seat)
            except StoreUnavailable:
                pass

    def _seat_back(self) -> None:
        self._day_kept()
        if not self.seat_listeners or not self.token:
            return
        from rooms import open_store
        from rooms.live_class import take_seat_back

        try:
            ticket = take_seat_back(open_store(self.store.url), self.store, self.token)
        except RoomError:
            return
        if ticket is None:
            return
        for listener in list(self.seat_listeners):
            listener(ticket)

    def _day_kept(self) -> None:
        """How many of the day's answers the class keeps under this page's name (read once
        it is in: after a move, the student sees their work was not lost)."""
        if not self.name:
            return
        from rooms.answers import day_of, open_answers
        from rooms.codes import clean_name

        try:
            key = clean_name(self.name)[1]
            mine = [a for a in open_answers(self.store.url).answers(day_of(time.time()))
                    if clean_name(a.student)[1] == key]
        except (RoomError, ValueError):
            return
        if mine:
            right = sum(a.right for a in mine)
            self.welcome = ngettext(
                "Welcome, {name}: your {n} answer of today is kept ({right} right).",
                "Welcome, {name}: your {n} answers of today are kept ({right} right).",
                len(mine)).format(name=self.name, n=len(mine), right=right)

    # ----- the gate -----------------------------------------------------------------------
    @property
    def paused(self) -> bool:
        return bool(self.state and self.state.paused)

    def refuses(self, widget: Any = None) -> bool:
        """Whether a click on this page, or a change it sends for `widget`, is refused now:
        the class paused, the page removed or moved; while it waits for the teacher (or its
        name was refused), everything but the name's own controls. Never the widgets the page
        itself needs (`icg_always`)."""
        if self.stopped or getattr(widget, "icg_always", False):
            return False
        if self.paused or self.page_state in OUT:
            return True
        if self.page_state == "waiting" or (self.refusal and self.page_state != "in"):
            return not getattr(widget, "icg_name_control", False)
        return False

    def refused_click(self, button: Any) -> None:
        self.refused_clicks += 1
        log.info("refused a click on %r: the live class is paused or this page is out",
                 getattr(button, "description", button))

    def refused_change(self, widget: Any, keys: list[str]) -> None:
        self.refused_changes += 1
        log.info("refused a page change of %s on %s %r: the live class is paused or this page "
                 "is out", keys, type(widget).__name__, getattr(widget, "description", ""))

    # ----- drawing ------------------------------------------------------------------------
    def lesson_of_page(self) -> int | None:
        if self.lesson is not None:
            return self.lesson
        return getattr(self.student, "lesson", None)

    def draw(self) -> None:
        lines: list[str] = []
        if self.page_state == "removed":
            lines = [_("You are out of the class"),
                     _("Your teacher removed this page from the class. Ask your teacher to let "
                       "you back.")]
        elif self.page_state == "moved":
            lines = [_("This page moved to another device"),
                     _("Your name is open on another device now: go on there.")]
        elif self.paused:
            lines = [_("Eyes on the teacher"),
                     _("Your teacher paused the class. Your work is kept.")]
        elif self.page_state == "waiting":
            lines = [_("Waiting for your teacher"),
                     _("Your teacher lets you in in a moment.")]
        cover = ""
        if lines:
            cover = (f"<div class='icg-live-cover' role='alertdialog' aria-live='assertive' "
                     f"aria-label='{html.escape(lines[0], quote=True)}' style='{COVER}'>"
                     f"<p><strong>{html.escape(lines[0])}</strong></p>"
                     f"<p>{html.escape(lines[1])}</p></div>")
        elif self.refusal:
            cover = f"<p class='icg-live-note' role='alert'>! {html.escape(self.refusal)}</p>"
        elif self.welcome and self.page_state == "in":
            cover = f"<p class='icg-live-note' role='status'>{html.escape(self.welcome)}</p>"
        if self.screen.value != cover:
            self.screen.value = cover
        self._draw_exit_ticket()
        if self.picker is not None:
            self.picker.draw()

    def _draw_exit_ticket(self) -> None:
        lesson = self.lesson_of_page()
        wanted = (self.state is not None and self.state.exit_ticket is not None
                  and self.state.exit_ticket == lesson and not self.paused
                  and self.page_state not in OUT)
        wanted = wanted and self._exit_ticket is not None
        if wanted and not self.exit_box.children:
            title = html_widget("<p class='icg-live-note' role='status'><strong>{}</strong></p>"
                                .format(html.escape(_("Your teacher opened the exit ticket."))))
            self.exit_box.children = (title, self._exit_ticket)  # the page's own, shown on top
        display = None if wanted else "none"
        if self.exit_box.layout.display != display:
            self.exit_box.layout = w.Layout(display=display)


class NamePicker(w.VBox):
    """The roster's names to pick from (no typing, no look-alikes), and the confirmation code
    box when the teacher asks for codes. Shown by the name bar while the class has a roster."""

    def __init__(self, page: LivePage, on_named: Callable[[str], None] | None = None) -> None:
        self.page = page
        self.on_named = on_named
        self.choice = w.Dropdown(description=_("Your name:"), options=[],
                                 style={"description_width": "initial"})
        self.code = w.Text(description=_("Code from your teacher:"),
                           placeholder=_("4 characters"),
                           continuous_update=False, layout=w.Layout(width="14em"),
                           style={"description_width": "initial"})
        # a waiting or refused page may still name itself
        self.choice.icg_name_control = self.code.icg_name_control = True
        self.button = make_button(_("That's me"), self.pick, button_style="primary",
                                  own_layout=True)
        self.button.icg_name_control = True
        self.message = html_widget()
        self.names: list[str] = []
        super().__init__([w.HBox([self.choice, self.code, self.button],
                                 layout=w.Layout(flex_flow="row wrap")), self.message],
                         _dom_classes=("icg-live-picker",))
        page.picker = self
        self.draw()

    @property
    def active(self) -> bool:
        return bool(self.names) and self.page.page_state != "in"

    def draw(self) -> None:
        try:
            names = self.page.store.roster_names()
        except StoreUnavailable:
            names = self.names
        if names != self.names:
            self.names = names
            self.choice.options = [(_("choose your name"), "")] + [(n, n) for n in names]
        confirm = bool(self.page.state and self.page.state.confirm)
        self.code.layout.display = None if confirm else "none"
        self.layout.display = None if self.active else "none"
        for bar in getattr(self, "bars", ()):  # the name bars' typed entry: the roster instead
            if self.names and bar.entry.layout.display != "none":
                bar.entry.layout.display = "none"
        self.message.value = (f"<p role='alert'>! {html.escape(self.page.refusal)}</p>"
                              if self.page.refusal and self.active else "")

    def pick(self) -> bool:
        name = self.choice.value
        if not name:
            self.message.value = "<p role='alert'>! {}</p>".format(
                html.escape(_("Choose your name in the list.")))
            return False
        ok = self.page.pick(name, self.code.value or None)
        self.code.value = ""
        if ok and self.on_named is not None:
            self.on_named(self.page.name or name)
        self.draw()
        return ok


PAGE: LivePage | None = None


def _gate(button: Any) -> bool:
    page = PAGE
    if page is None or not page.refuses(button):
        return False
    page.refused_click(button)
    return True


def _update_gate(widget: Any, keys: list[str]) -> bool:
    page = PAGE
    if page is None or not page.refuses(widget):
        return False
    page.refused_change(widget, keys)
    return True


def activate(store: LiveClass | None = None, **kw: Any) -> LivePage:
    """This kernel's page joins the live class (a served student page; tests)."""
    global PAGE, _ENDS_NOTED
    if PAGE is not None:
        PAGE.stop()
    components.gate_page_updates()
    PAGE = LivePage(store, **kw)
    components.CLICK_GATE = _gate
    components.UPDATE_GATE = _update_gate
    if not _ENDS_NOTED:
        atexit.register(kernel_ends)
        _ENDS_NOTED = True
    return PAGE


_ENDS_NOTED = False


def kernel_ends() -> None:
    """This kernel stops (its tab closed, its page culled, the server stopping): a page that
    had no name yet, or waited for the teacher, leaves the teacher's list (a page that holds
    its name or was removed stays: a reload brings it back)."""
    page = PAGE
    if page is None or not page.token or page.page_state not in ("open", "waiting"):
        return
    try:
        page.store.forget(page.token)
    except Exception:  # noqa: BLE001 - the kernel is stopping: nothing to tell anyone
        log.info("live class: a closing page could not leave the list", exc_info=True)


def deactivate() -> None:
    """No live class on this kernel's page (a teacher's page; the end of a test)."""
    global PAGE
    if PAGE is not None:
        PAGE.stop()
        PAGE.stop_listening()
    PAGE = None
    components.CLICK_GATE = None
    components.UPDATE_GATE = None


TEACHER_PAGE = False


def teacher_page() -> None:
    """This kernel's page is the teacher's (the key was typed): never gated, and not in the
    teacher's list of pages without a name."""
    global TEACHER_PAGE
    TEACHER_PAGE = True
    page = PAGE
    if page is not None and page.token and page.page_state == "open":
        try:
            page.store.forget(page.token)
        except StoreUnavailable:
            pass
    deactivate()


def _served() -> bool:
    """A student's page served by the class's server: a kernel (not the static site, not a
    script or a test), with the live class not turned off (ICG_LIVE_CLASS=0)."""
    from widgets.page.in_browser import IN_BROWSER

    if IN_BROWSER or TEACHER_PAGE or os.environ.get("ICG_LIVE_CLASS", "1") == "0":
        return False
    try:
        from ipykernel.connect import get_connection_file

        get_connection_file()
    except Exception:  # noqa: BLE001 - not in a kernel (tests, scripts)
        return False
    return True


def page_parts(lesson: int | None = None, *, exit_ticket: bool = True) -> tuple[Any, ...]:
    """The live class's widgets for a table or a lesson piece to show (the cover and the
    device's token; with `exit_ticket`, the place the teacher's "Open the exit ticket" shows
    it, given to the first piece that asks: the top of the page); () where there is no live
    class. One set per page: each piece shows the same cover."""
    if PAGE is None:
        if not _served():
            return ()
        try:
            activate()
        except StoreUnavailable as e:
            log.warning("live class not available: %s", e)
            return ()
    page = PAGE
    if page is None:
        return ()
    if lesson is not None and page.lesson is None:
        page.lesson = lesson
        page.draw()
    if exit_ticket and not page.exit_hosted:
        page.exit_hosted = True
        return (page.box, page.exit_box)
    return (page.box,)


def name_picker(on_named: Callable[[str], None] | None = None) -> NamePicker | None:
    """The roster's name picker for a name bar (None: no live class on this page)."""
    if PAGE is None:
        return None
    return PAGE.picker if PAGE.picker is not None else NamePicker(PAGE, on_named)


def name_bar_parts(bar: Any) -> tuple[Any, ...]:
    """What a name bar (widgets.lessons.student.NameBar) adds on a page of the live class:
    the roster's picker (its typed entry hidden while the class has a roster) and the page's
    live widgets; () where there is no live class."""
    parts = page_parts(getattr(bar, "lesson", None), exit_ticket=False)
    if not parts or PAGE is None:
        return ()
    PAGE.use_student(bar.student)
    for control in (bar.ok_button, bar.pair_button, bar.change_button, bar.first, bar.second):
        control.icg_name_control = True  # a waiting or refused page may still name itself
    picker = name_picker()
    if picker is None:
        return parts
    bars = getattr(picker, "bars", [])
    bars.append(bar)
    picker.bars = bars
    drawn = bar._draw

    def draw() -> None:  # the bar's own drawing, then the roster's picker in place of typing
        drawn()
        picker.draw()

    student = bar.student
    student.listeners[:] = [draw if fn == drawn else fn for fn in student.listeners]
    bar._draw = draw
    return (picker, *parts)


def note_exit_ticket(ticket: Any) -> None:
    """The page's exit ticket (widgets.lessons.exit_ticket.ExitTicket): shown on top of the
    page when the teacher opens its lesson's ticket."""
    page_parts(ticket.lesson, exit_ticket=False)
    if PAGE is None:
        return
    if PAGE.lesson is None:
        PAGE.lesson = ticket.lesson
    if PAGE.box not in ticket.children:  # the device's token comes back at the page's load
        ticket.children = (*ticket.children, PAGE.box)
    if PAGE._exit_ticket is None:
        PAGE._exit_ticket = ticket
        student = getattr(getattr(ticket, "recall", None), "student", None) or ticket.student
        if student is not None:
            PAGE.use_student(student)
    PAGE.draw()


def lobby_parts(on_seat: Callable[[Any], None]) -> tuple[Any, ...]:
    """What the play-together page adds on a page of the live class: the roster's picker
    (a student on a new device picks their name here too), the page's live widgets, and
    `on_seat(SeatTicket)` called when the name has a seat to take back; ()
    where there is no live class."""
    parts = page_parts(exit_ticket=False)
    if not parts or PAGE is None:
        return ()
    picker = name_picker()
    PAGE.on_seat(on_seat)
    return (*([picker] if picker is not None else []), *parts)


def note_seat(code: str, seat: int) -> None:
    """The play-together page sat at a table (see LivePage.note_seat)."""
    if PAGE is not None:
        PAGE.note_seat(code, seat)
