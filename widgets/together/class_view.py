"""The teacher's class view: every room of the class at a glance, and the teacher's actions.

Shown by lessons/class_view.ipynb behind the teacher's key:

    from widgets.together.class_view import ClassView
    from widgets.page.teacher_key import teacher_only
    teacher_only(ClassView, label=...)

It is the teacher's dashboard of the class: first today's students and answers
(`widgets.together.dashboard.AnswersPanel`: the page each student is on, the exit tickets by
question, wrong answers by mistake, names hidden for the projector, the day's CSV, deletion),
then the rooms of Play together.

It polls the room store (`class_stamp`, one small read, every `interval` seconds on the
kernel's loop) and redraws by itself when any room changes, and every few seconds for the
"stuck" clock: every room with its players, whose turn it is, the public scores, moves, time
since the last move, stuck rooms first; and per student the announce-check results (first try
right, misses, which mistake). Actions on the chosen room: start, pause, go on, replace an
absent player by a computer player, turn the cards up at the end, close. Each is one store
transaction; a refused one is a message, nothing changes.

Only public facts reach the page (`RoomStore.class_rooms` reads scores from the public part
of a state): never a face-down card. The key is checked by `teacher_only` before this widget
exists: without it the page holds a password box and nothing of the class.
"""

from __future__ import annotations

import html
import logging
import time
from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from rooms import (
    ClassRoom,
    RoomError,
    RoomStore,
    StoreUnavailable,
    open_store,
)
from widgets.table.components import MessageArea, html_widget, make_button, shared_layout
from widgets.table.controller import call_later
from widgets.together.dashboard import AnswersPanel
from widgets.together.live_controls import LiveControls
from widgets.words import _, mistake_label, room_error_text, time_ago

log = logging.getLogger(__name__)

GAME_NAMES = {"hit-me": "Hit Me", "hit-me-round": "Hit Me (one round)", "flapjack": "Flapjack"}
REDRAW_EVERY = 10.0  # seconds: the stuck clock moves even when no room changes
EXPIRE_EVERY = 600.0  # seconds between clean-ups of old rooms (RoomStore.expire's defaults)


def _status_words(status: str) -> str:
    return {"waiting": _("waiting for players"), "playing": _("playing"),
            "paused": _("paused"), "finished": _("finished"), "closed": _("closed")
            }.get(status, status)




UNLOCK_LABEL = ("The class view shows every room of the class and lets you pause, replace or close "
                "them: it is for the teacher. Type the teacher's key to open it.")
MISTAKES = {"sum": "the sum", "abs": "the absolute value", "blank": "a box left empty",
            "shown": "asked to be shown"}


class ClassView(widgets.VBox):
    """Every room of the class, refreshed without a click, and the teacher's actions."""

    def __init__(self, store: RoomStore | None = None, *, stuck_after: float = 120.0,
                 interval: float = 0.25, poll: bool = True, listen: bool = True,
                 listen_every: float = 2.0,
                 schedule: Callable[[float, Callable[[], None]], None] | None = None) -> None:
        self.store = store if store is not None else open_store()
        self.stuck_after = float(stuck_after)
        self.interval = float(interval)
        self.listen_every = float(listen_every)
        self.subscription: Any = None  # PostgreSQL: woken by the kernel's LISTEN thread
        self.wakeups = 0
        self._timer = 0
        self.schedule = schedule or call_later
        self.rooms: list[ClassRoom] = []
        self.stamp: Any = None
        self.drawn_at = 0.0
        self.polls = 0
        self.redraws = 0
        self.expired_at = time.monotonic()
        self.stopped = False
        self.title = html_widget('<div class="icg-title">{}</div>'.format(
            html.escape(_("Class view"))))
        self.summary = html_widget(classes=("icg-class-summary",))
        self.table = html_widget(classes=("icg-class-rooms",))
        self.checks = html_widget(classes=("icg-class-checks",))
        self.room_choice = widgets.Dropdown(description=_("Room"), options=[],
                                            style={"description_width": "initial"})
        self.seat_choice = widgets.Dropdown(description=_("Student"), options=[],
                                            style={"description_width": "initial"})
        self.buttons = {
            "start": make_button(_("Start the game"), self.start, own_layout=True,
                                 tooltip=_("start the chosen room; empty seats get a computer "
                                           "player")),
            "pause": make_button(_("Pause the room"), self.pause, own_layout=True,
                                 tooltip=_("pause the chosen room: no moves until it goes on")),
            "resume": make_button(_("The room goes on"), self.resume, own_layout=True,
                                  tooltip=_("let the paused room play again")),
            "replace": make_button(_("Computer plays for this student"), self.replace,
                                   own_layout=True,
                                   tooltip=_("an absent student's seat goes to a computer "
                                             "player; the student can take it back")),
            "reveal": make_button(_("Turn the cards up"), self.reveal, own_layout=True,
                                  tooltip=_("at the end of a Hit Me round: every face-down "
                                            "card turns up")),
            "close": make_button(_("Close the room"), self.close_room, own_layout=True,
                                 tooltip=_("end the chosen room for good")),
        }
        self.message = MessageArea()
        self.answers_panel = AnswersPanel(url=self.store.url)
        self.room_checks: list[Any] = []
        self.answers_panel.on_refresh = self.draw_checks
        self.live = LiveControls(url=self.store.url)
        # projector mode: no name in any panel (the answers panel's switch)
        self.answers_panel.hide_names.observe(lambda _c: self._projector(), names="value")
        self.room_choice.observe(lambda _c: self._update_controls(), names="value")
        controls = widgets.HBox([self.room_choice, self.seat_choice],
                                layout=shared_layout(flex_flow="row wrap"))
        actions = widgets.HBox(list(self.buttons.values()),
                               layout=shared_layout(flex_flow="row wrap"))
        super().__init__([self.title, self.live, self.answers_panel,
                          html_widget("<h4>{}</h4>".format(html.escape(_("Rooms")))),
                          self.summary, self.table, controls, actions, self.message,
                          html_widget("<h4>{}</h4>".format(html.escape(_("Checks")))),
                          self.checks], _dom_classes=("icg-root", "icg-class-view"))
        self.refresh()
        if poll:
            if listen:
                try:
                    self.subscription = self.store.subscribe(None, self._wake)
                except StoreUnavailable as e:  # polling goes on
                    log.warning("room notifications not available: %s", e)
            self._arm()

    # ----- polling -------------------------------------------------------------------------
    @property
    def listening(self) -> bool:
        return self.subscription is not None and self.subscription.connected

    def _arm(self) -> None:
        """(Re)start the one poll timer (an older timer does nothing when it fires)."""
        self._timer += 1
        gen = self._timer
        self.schedule(self.listen_every if self.listening else self.interval,
                      lambda: self._tick(gen))

    def _tick(self, gen: int | None = None) -> None:
        if self.stopped or (gen is not None and gen != self._timer):
            return
        self._poll_safely()
        self._arm()

    def _wake(self) -> None:
        """A room changed (a notification, on the kernel's loop): poll now."""
        if self.stopped:
            return
        self.wakeups += 1
        self._poll_safely()
        self._arm()

    def _poll_safely(self) -> None:
        try:
            self.poll()
        except Exception:  # noqa: BLE001 - a poll must never stop the polling
            log.exception("class view poll failed")

    def poll(self) -> bool:
        """One poll: redraw if any room changed (or the stuck clock moved). True if redrawn."""
        self.polls += 1
        answered = self.answers_panel.poll()
        answered = self.live.poll() or answered
        try:
            stamp = (self.store.class_stamp(), self._checks_stamp())
        except StoreUnavailable as e:
            self.message.show(room_error_text(e), "error")
            return False
        if time.monotonic() - self.expired_at >= EXPIRE_EVERY:
            self.expired_at = time.monotonic()
            try:  # finished rooms after 6 h, abandoned ones after a day
                self.store.expire()
            except StoreUnavailable:
                pass
        if stamp != self.stamp or time.monotonic() - self.drawn_at >= REDRAW_EVERY:
            self.refresh()
            return True
        return answered

    @property
    def hide_names(self) -> bool:
        return bool(self.answers_panel.hide_names.value)

    def _projector(self) -> None:
        self.live.set_hide_names(self.hide_names)
        self.refresh()

    def _checks_stamp(self) -> Any:
        return None  # the check results are read with every redraw (rooms change with them)

    def stop(self) -> None:
        """Stop polling and listening (the page closed its kernel anyway; tests call it)."""
        self.stopped = True
        sub, self.subscription = self.subscription, None
        if sub is not None:
            sub.close()

    # ----- drawing -------------------------------------------------------------------------
    def draw_checks(self) -> None:
        """The checks: the rooms' and those of the lesson pages (tables and lessons' own)."""
        if hasattr(self, "checks"):
            self.checks.value = checks_html(
                [*self.room_checks, *self.answers_panel.summary.table_checks], mistake_label,
                self.hide_names)

    def refresh(self) -> None:
        """Read every room and the check results and draw them."""
        try:
            stamp = (self.store.class_stamp(), self._checks_stamp())
            rooms = self.store.class_rooms(self.stuck_after)
            checks = self.store.class_checks()
        except StoreUnavailable as e:
            self.message.show(room_error_text(e), "error")
            return
        self.stamp, self.rooms = stamp, rooms
        self.drawn_at = time.monotonic()
        self.redraws += 1
        live = [r for r in rooms if r.info.status != "closed"]
        stuck = [r for r in live if r.stuck]
        self.summary.value = (
            "<div role='status'>" + html.escape(
                _("{rooms} rooms open, {playing} playing, {stuck} stuck "
                  "(no move for {minutes} min).").format(
                    rooms=len(live), playing=sum(r.info.status == "playing" for r in live),
                    stuck=len(stuck), minutes=f"{self.stuck_after / 60:g}")) + "</div>")
        self.table.value = rooms_html(live, self.hide_names)
        self.room_checks = checks
        self.draw_checks()
        options = [(f"{r.shown} ({GAME_NAMES.get(r.info.game, r.info.game)}, "
                    f"{_status_words(r.info.status)})", r.info.code) for r in live]
        chosen = self.room_choice.value
        if list(self.room_choice.options) != options:
            self.room_choice.options = options
        codes = [o[1] for o in options]
        want = chosen if chosen in codes else (codes[0] if codes else None)
        if self.room_choice.value != want:
            self.room_choice.value = want
        self._update_controls()

    def chosen(self) -> ClassRoom | None:
        return next((r for r in self.rooms if r.info.code == self.room_choice.value), None)

    def _update_controls(self) -> None:
        room = self.chosen()
        status = room.info.status if room else ""
        students = [(_("seat {n}").format(n=s.seat + 1) if self.hide_names else s.name, s.seat)
                    for s in room.info.seats if s.name is not None and not s.away] if room else []
        seat = self.seat_choice.value
        if list(self.seat_choice.options) != students:
            self.seat_choice.options = students
        seats = [s for _n, s in students]
        want = seat if seat in seats else (seats[0] if seats else None)
        if self.seat_choice.value != want:
            self.seat_choice.value = want
        allowed = {
            "start": status == "waiting",
            "pause": status == "playing",
            "resume": status == "paused",
            "replace": bool(students) and status in ("waiting", "playing", "paused"),
            "reveal": bool(room and room.can_reveal) and status != "closed",
            "close": bool(room) and status != "closed",
        }
        for name, button in self.buttons.items():
            button.disabled = not allowed[name]

    # ----- the teacher's actions (each one store transaction) ------------------------------
    def _act(self, what: Callable[[str], Any], done: str) -> bool:
        room = self.chosen()
        if room is None:
            self.message.show(_("Choose a room first. Nothing was changed."), "error")
            return False
        try:
            what(room.info.code)
        except RoomError as e:
            self.message.show(room_error_text(e), "error")
            self.refresh()
            return False
        self.message.show(done.format(room=room.shown), "ok")
        self.refresh()
        return True

    def start(self) -> bool:
        return self._act(self.store.class_start, _("Room {room} has started."))

    def pause(self) -> bool:
        return self._act(self.store.class_pause,
                         _("Room {room} is paused: its players see that no move can be made."))

    def resume(self) -> bool:
        return self._act(self.store.class_resume, _("Room {room} goes on."))

    def close_room(self) -> bool:
        return self._act(self.store.class_close, _("Room {room} is closed."))

    def reveal(self) -> bool:
        return self._act(self.store.class_reveal, _("The cards of room {room} are face up."))

    def replace(self) -> bool:
        seat = self.seat_choice.value
        if not isinstance(seat, int):
            self.message.show(_("Choose a student first. Nothing was changed."), "error")
            return False
        return self._act(lambda code: self.store.class_replace(code, seat),
                         _("A computer player now plays for that student in room {room}; the "
                           "student takes the seat back by opening their seat link."))


def what_it_shows() -> str:
    """The class view's columns and actions in words (the lesson page prints it)."""
    return "\n".join([
        _("Today's students: the page each one is on and when they were last active."),
        _("The exit tickets by question: first answers, how many right, the class's share "
          "right, and a mark per student and question."),
        _("Wrong answers grouped by the common mistake they show, such as: added the sizes "
          "when the signs differ, subtracting a negative moved left, took the number closer "
          "to zero as greater."),
        _("Projector: hide names; the day's answers as a CSV file; Delete today's class "
          "data; answers are deleted after 7 days, or the number of days you set."),
        _("Every open room, stuck rooms first, with:"),
        "  " + _("Room: the code the students typed (KM7-Q4X)"),
        "  " + _("Game and status: waiting for players, playing, paused, finished; STUCK when "
                 "no move was made for 2 minutes while playing"),
        "  " + _("Players: each student's name; a computer player for an empty seat or for a "
                 "student who is away"),
        "  " + _("Whose turn, the scores every player can see (Hit Me: rounds won; Flapjack: "
                 "cards won), the number of moves, the time since the last move"),
        _("Per student and place, the checks: a room's or a lesson's Hit Me table at each "
          "round's end, a Flapjack table's new totals, a lesson's first-try check; how many, "
          "right at the first try, misses, and which mistake."),
        _("Actions on the room you choose: Start the game, Pause the room, The room goes on, "
          "Computer plays for this student, Turn the cards up, Close the room."),
    ])


def _seat_text(room: ClassRoom, seat: Any, hide_names: bool = False) -> str:
    if hide_names and seat.name:
        if seat.controller == "computer":
            return _("seat {n} (computer for now)").format(n=seat.seat + 1)
        return _("seat {n}").format(n=seat.seat + 1)
    name = seat.name or _("empty seat")
    if seat.controller == "computer":
        name = (_("{name} (computer for now)").format(name=seat.name) if seat.name
                else _("computer"))
    return name


def rooms_html(rooms: list[ClassRoom], hide_names: bool = False) -> str:
    """The rooms as a table: stuck ones first, then by code; `hide_names` (projector): seats
    by number, no student's name."""
    if not rooms:
        return "<p>" + html.escape(_("No room is open yet. A room appears here as soon as a "
                                     "student or the teacher opens a table on the "
                                     "Play together page.")) + "</p>"
    head = [_("Room"), _("Game"), _("Status"), _("Players"), _("Whose turn"), _("Scores"),
            _("Moves"), _("Last move")]
    out = ["<table class='icg-class-table'><thead><tr>",
           *(f"<th scope='col'>{html.escape(h)}</th>" for h in head), "</tr></thead><tbody>"]
    for r in sorted(rooms, key=lambda r: (not r.stuck, r.shown)):
        status = _status_words(r.info.status)
        if r.stuck:
            status = _("STUCK: {status}").format(status=status)
        if r.phase == "announce":
            status += " \u2014 " + _("every player is done; cards still face down")
        players = ", ".join(_seat_text(r, s, hide_names) for s in r.info.seats)
        if r.scores is None:
            scores = "\u2014"
        else:
            names = [_("seat {n}").format(n=s.seat + 1) if hide_names or not s.name else s.name
                     for s in r.info.seats]
            scores = f"{r.score_kind}: " + ", ".join(
                f"{n} {v}" for n, v in zip(names, r.scores, strict=False))
        last = _("none yet") if r.last_move is None else time_ago(time.time() - r.last_move)
        turn = r.turn_name or "\u2014"
        if hide_names and r.turn_name:
            turn = next((_("seat {n}").format(n=s.seat + 1) for s in r.info.seats
                         if s.name == r.turn_name), _("a student"))
        cells = [r.shown, GAME_NAMES.get(r.info.game, r.info.game), status, players,
                 turn, scores, str(r.moves), last]
        cls = " class='icg-stuck'" if r.stuck else ""
        out.append(f"<tr{cls} data-room='{html.escape(r.info.code)}'>" + "".join(
            f"<td>{html.escape(c)}</td>" for c in cells) + "</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def checks_html(checks: list[Any], mistake_label: Callable[[str], str] | None = None,
                hide_names: bool = False) -> str:
    """Per student: checks done, right at the first try, misses and which mistakes;
    `hide_names` (projector): "student 1", "student 2" in place of names."""
    if not checks:
        return "<p>" + html.escape(_("No check yet: they come at the end of each Hit Me round, "
                                     "with Flapjack's new totals and with a lesson's first-try "
                                     "check.")) + "</p>"
    head = [_("Student"), _("Where"), _("Checks"), _("Right at the first try"), _("Misses"),
            _("Mistakes")]
    out = ["<table class='icg-class-checks-table'><thead><tr>",
           *(f"<th scope='col'>{html.escape(h)}</th>" for h in head), "</tr></thead><tbody>"]
    for i, c in enumerate(sorted(checks, key=lambda c: (-c.misses, c.name.casefold()))):
        mistakes = ", ".join(
            f"{_(MISTAKES[k]) if k in MISTAKES or mistake_label is None else mistake_label(k)}"
            f" \u00d7{n}" for k, n in c.mistakes) or "\u2014"
        name = _("student {n}").format(n=i + 1) if hide_names else c.name
        cells = [name, c.shown, str(c.checks), str(c.first_try), str(c.misses), mistakes]
        out.append("<tr>" + "".join(f"<td>{html.escape(x)}</td>" for x in cells) + "</tr>")
    out.append("</tbody></table>")
    return "".join(out)
