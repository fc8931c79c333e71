"""The Hit Me table widget (`HitMeTable`, an ipywidgets VBox): builds its widgets once, routes
clicks to a `HitMeSession` (session.py), or to a room's seat (`HitMeTable.for_session(seat)`,
widgets/together/seat.py), and copies `table_view(session)` (view.py) to the widgets.
Every view comes from the viewer's observation: a card the person at the screen may not see is
never in any widget value. Phases: PLAY, ANNOUNCE (sum and |sum| typed first), REVEAL."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as widgets

from engine.hit_me import Phase
from engine.questions import SumCheck, table_check_item
from widgets.hit_me.render import score_table_html
from widgets.hit_me.session import HitMeSession
from widgets.hit_me.settings import settings_panel
from widgets.hit_me.view import HitMeView, table_view
from widgets.page.in_browser import IN_BROWSER
from widgets.table import components as ui
from widgets.table.render import esc
from widgets.table.shell import LazyPart, TableShell, game_classes
from widgets.words import N_, _, check_language, speaking

# Hit Me's own tooltip for a shared teacher control (translated where shown): a restart
# deals the round again (Flapjack's deals the game again)
TIPS = {"restart": N_("deal this round again, the same cards, to try other choices")}

# what the tests and lessons read on the table; they live in the session
_FROM_SESSION = ("game", "phase", "peeked", "holder", "names", "config", "mode", "students",
                 "deal_code", "code_typed", "round_number", "announce_queue", "announced",
                 "announce_misses", "opponents", "snapshot", "viewer", "pass_screen",
                 "code_open", "ctl", "needed", "observation", "teacher_controls")


class HitMeTable(TableShell, widgets.VBox):
    """A Hit Me table. Keyword settings: players 2-8; opponents 'easy' | 'medium' | 'hard' | a
    bot spec | a list of those, one per computer seat; seed: the deal code (None makes one up);
    mode 'solo' | 'pass-device'; students (pass-device: how many seats are people); walkthrough;
    teacher_controls (the teacher box's teacher's controls, widgets.table.shell.TeacherBox; None:
    with walkthrough); large_print; names (widgets.table.shell.seat_names: one per seat; default
    'You' or 'Player 1'..., then 'Computer 1'...); colors; turn_order; ace_eleven; bot_delay
    (0: at once, for tests);
    deck: a stacked card order for the first round, top first ('KS,7H,...'); lang: the
    table's language ('en', 'es'; None: the kernel's, widgets.words.set_language); anchor: a
    name ('play') a link in the lesson ("#play") jumps to (widgets.table.shell.game_classes);
    on_answer: called with each end-of-round check of the one student at the table (an
    engine.questions.SumCheck), for the page that reports it (a lesson page: to the class's
    store, widgets/lessons/student.py `reporter`); None: the checks go nowhere."""

    _FROM_SESSION = _FROM_SESSION
    on_answer: Callable[[SumCheck], None] | None = None

    def __init__(self, players: int = 3, opponents: Any = "medium", seed: int | str | None = None,
                 mode: str = "solo", walkthrough: bool = False, large_print: bool = False,
                 names: Sequence[str] | None = None, colors: str = "black-positive",
                 turn_order: str = "round-robin", ace_eleven: bool = False,
                 bot_delay: float = 0.8, students: int | None = None,
                 deck: str | None = None, lang: str | None = None,
                 teacher_controls: bool | None = None, anchor: str | None = None,
                 on_answer: Callable[[SumCheck], None] | None = None) -> None:
        self.lang = check_language(lang)
        self.on_answer = on_answer
        with speaking(self.lang):
            self._classes = game_classes(anchor)
            self._init(players, opponents, seed, mode, walkthrough, large_print, names, colors,
                       turn_order, ace_eleven, bot_delay, students, deck, teacher_controls)

    def _init(self, players: int, opponents: Any, seed: int | str | None, mode: str,
              walkthrough: bool, large_print: bool, names: Sequence[str] | None, colors: str,
              turn_order: str, ace_eleven: bool, bot_delay: float, students: int | None,
              deck: str | None, teacher_controls: bool | None) -> None:
        session = HitMeSession(walkthrough=walkthrough, teacher_controls=teacher_controls,
                               bot_delay=bot_delay, names=names)
        # The game first, then every widget made as the first view shows it: each model goes to
        # the page once, with no update message right after it (a bad setting makes none). The
        # computers' opening moves are made at once (`at_once`): no paced move is left to change
        # the widgets while a page loads them.
        session.new_game(players=players, opponents=opponents, seed=seed, mode=mode,
                         colors=colors, turn_order=turn_order, ace_eleven=ace_eleven,
                         students=students, deck=deck, at_once=True)
        self._attach(session, large_print)

    @classmethod
    def for_session(cls, session: Any, *, large_print: bool = False, lang: str | None = None,
             anchor: str | None = None) -> HitMeTable:
        """The table drawn over a session made elsewhere: a room's seat
        (widgets/together/seat.py, `HitMeSeat`), which offers what `table_view` reads
        (`HitMeLook`) and the clicks a HitMeSession takes. With `session.room` the room deals
        and turns the cards up: no "New deal", no settings, no "Turn up all the cards"."""
        self = cls.__new__(cls)
        self.lang = check_language(lang)
        with speaking(self.lang):
            self._classes = game_classes(anchor)
            self._attach(session, large_print)
        return self

    def _attach(self, session: Any, large_print: bool) -> None:
        """Build the widgets over `session`, become the box that holds them, and take the
        session's hooks (redraw, messages, a new round)."""
        self.session = session
        # a table made while a check is asked resets its box at the first refresh
        self._announce_round = session.announce_round if session.phase is Phase.PLAY else None
        self.large_print = bool(large_print)
        self._build_widgets(table_view(session))
        self._build_teacher_box(teacher=session.teacher_controls,
                                walkthrough=session.walkthrough,
                                reveal=session.teacher_reveal, large=bool(large_print),
                                tips=TIPS, new_deal=not session.room)
        super().__init__(self._all_children(), layout=ui.shared_layout(),
                         _dom_classes=("icg-root", *self._classes,
                                       *(["icg-large"] if large_print else [])))
        self._set_large_print(bool(large_print))
        session.on_message = self._notify
        session.on_round_start = self._round_started
        session.on_change = self.refresh
        self._game_made()
        self.refresh()

    # ----- building ------------------------------------------------------------------------
    def _build_widgets(self, v: HitMeView) -> None:
        """Every widget of the table, made as the view `v` shows it."""
        s = self.session
        self.css = ui.style_widget()
        self.title_html = ui.html_widget('<div class="icg-title">{}</div>'.format(esc(_("Hit Me"))))
        self.status_html = ui.html_widget(v.status_html, ["icg-status"])
        self.seats_html = ui.html_widget(v.seats_html, ["icg-seats-box"])
        lo, hi = v.line_ends
        self.number_line = ui.NumberLine(_("Number line: sums and distances from zero"),
                                         large=self.large_print, points=list(v.points),
                                         arrow=v.arrow, spans=list(v.spans), lo=lo, hi=hi)
        self.peek_button = ui.make_button(v.peek_label, s.toggle_peek,
                                          tooltip=_("show or hide your own face-down card"),
                                          disabled=not v.can_peek)
        self.show_sum_button = ui.make_button(
            _("Show my sum"), s.show_sum, disabled=not v.can_show_sum,
            layout=ui.shown_layout(v.show_sum_visible),
            tooltip=_("show the sum of all your cards (the check at the end of the round "
                      "will know you saw it)"))
        # Hit me! and Hold are shown and hidden together: one layout of their own for both
        hit_hold = ui.shown_layout(v.show_hit_hold)
        self.hit_button = ui.make_button(_("Hit me!"), lambda: self._human(s.hit),
                                         button_style="success", disabled=not v.can_hit,
                                         tooltip=_("take one more card, face up"), layout=hit_hold)
        self.hold_button = ui.make_button(_("Hold"), lambda: self._human(s.hold),
                                          button_style="warning", disabled=not v.can_hold,
                                          tooltip=_("stop taking cards for this round (final)"),
                                          layout=hit_hold)
        self.hint = ui.HintBox(s.hint_lines, disabled=not v.hint_enabled,
                               layout=widgets.Layout(display=None if v.show_hint else "none"))
        self.actions_box = widgets.HBox(
            [self.peek_button, self.show_sum_button, self.hit_button, self.hold_button],
            layout=widgets.Layout(display=None if v.show_actions else "none"))
        self.scores_html = ui.html_widget(score_table_html(s.names, s.game.wins, s.game.ties))
        self.move_log = ui.MoveLog(_("Move log"), lines=list(v.log_lines))
        self.settings_toggle = None if s.room else self._settings_toggle()

    # Parts made on first use (LazyPart): each widget made is a model sent to the page. (The
    # message area and the settings panel are every table's: TableShell.)
    (result_html,) = LazyPart.group("_build_result", 1)  # the round's result
    ace_row, ace_box = LazyPart.group("_build_aces", 2)  # the first ace to count 1 or 11
    next_round_button, next_round_row = LazyPart.group("_build_next_round", 2)  # round's end
    pass_html, pass_button, pass_box = LazyPart.group("_build_pass", 3)
    announce, announce_done_button, announce_box = LazyPart.group("_build_announce", 3)

    def _build_result(self) -> None:
        self.result_html = ui.html_widget("")

    def _build_aces(self) -> None:
        self.ace_row = ui.ButtonRow(lambda a: self.session.choose_ace(
            a.card, abs(a.card["value"]) != 11), ["icg-aces"])
        self.ace_box = self.ace_row.box

    def _build_next_round(self) -> None:
        """Hidden and disabled until a round is over (the view shows it then)."""
        self.next_round_button = ui.make_button(
            _("Next round"), self.session.next_round, button_style="primary", disabled=True,
            tooltip=_("the next dealer deals a new round"), layout=ui.shown_layout(False))
        self.next_round_row = ui.hbox([self.next_round_button])

    def _check_announce(self, answers: dict[str, int | None]) -> bool | None:
        """The end-of-round check; reported to `on_answer` (one student at the table, not a
        teacher's walkthrough, not the static site)."""
        s = self.session
        first, values = s.announce_misses == 0, s.announce_values()
        ok = s.check_announce(answers)
        typed = answers.get("sum"), answers.get("abs")
        if (ok is not None and values and len(values) >= 2 and None not in typed
                and len(s.students) == 1 and not s.walkthrough and not IN_BROWSER
                and self.on_answer is not None):
            self.on_answer(SumCheck(table_check_item("hit-me", s.deal_code, s.announce_round),
                                    tuple(values),
                                    typed[0], typed[1], first))
        return ok

    def _build_announce(self) -> None:
        self.announce = ui.AnswerEntry(
            [("sum", _("My sum")), ("abs", _("Its absolute value |sum|"))],
            on_check=self._check_announce, on_show_me=self.session.show_me,
            check_label=_("Check my sum"), placeholders={"abs": _("a whole number")},
            unsigned=("abs",))
        # (a room turns the cards up by itself once every student has answered)
        self.announce_done_button = ui.make_button(
            _("Turn up all the cards"), self.session.finish_announce, button_style="primary",
            tooltip=_("turn every card face up and see who wins"),
            layout=ui.shown_layout(not self.session.room))
        self.announce_box = ui.hidden_box([self.announce, ui.hbox([self.announce_done_button])])

    def _make_settings(self) -> Any:
        return settings_panel(self.session, self._apply_settings)

    def _children(self) -> list[widgets.Widget]:
        part = self._part
        box = self.teacher_box
        # the teacher's bar at the top, with the cards: what a walkthrough presses every step
        # and the latest computer move; on a student's page ("New deal",
        # "Large print") it comes after the game, so the hand stays on the first screen
        teacher = self.session.teacher_controls
        return [w for w in [
            self.css, self.title_html, box.bar if teacher else None, part("message"),
            self.status_html, part("pass_box"),
            self.seats_html, self.actions_box, part("ace_box"), self.hint, part("announce_box"),
            part("result_html"), part("next_round_row"), self.number_line,
            self.scores_html, self.move_log, box.more, None if teacher else box.bar,
            self.settings_toggle, part("settings"),
        ] if w is not None]

    # ----- session hooks ----------------------------------------------------------------
    def _round_started(self) -> None:
        self.hint.clear()
        if LazyPart.built(self, "result_html"):
            self.result_html.value = ""
        if LazyPart.built(self, "announce"):
            self.announce.reset()
        self._announce_round = self.session.announce_round

    # ----- clicks -------------------------------------------------------------------------
    def _human(self, move: Any) -> None:
        self.hint.clear()
        move()

    def _take_device(self) -> None:
        self.hint.clear()
        self.session.take_device()

    # ----- the teacher box's callbacks (widgets.table.shell.TeacherBox) ------------------------
    def _restart_deal(self) -> None:
        if self.session.restart_deal():
            self._tell(_("The same deal again: try other choices."), "ok")

    def _next_move(self) -> None:
        self.session.next_move()

    def _set_walkthrough(self, on: bool) -> None:
        if self.session.set_walkthrough(on):
            self._game_made()  # the deal code shows in walkthrough

    def _set_reveal(self, on: bool) -> None:
        self.session.teacher_reveal = on
        self.refresh()

    def _new_deal(self) -> None:
        """A new game with the same settings and a fresh deal code nobody chose."""
        self._rebuild(seed=None, code_typed=False)

    def _deal_code(self, code: int | str) -> None:
        self._rebuild(seed=code, code_typed=True)

    def _rebuild(self, **changes: Any) -> None:
        self.session.new_game_like(**changes)
        self._game_made()
        self.refresh()

    def _apply_settings(self, values: dict[str, Any]) -> str | None:
        error = self.session.apply_settings(values)
        if error is None:
            self._game_made()
            self.refresh()
        return error

    # ----- applying the view --------------------------------------------------------------
    def refresh(self) -> None:
        """Render every part from `table_view(session)`."""
        with speaking(self.lang), self.session.lock:
            self._refresh()

    def _refresh(self) -> None:
        s = self.session
        v = table_view(s)
        self._show_pass(v.pass_to, v.pass_html)
        lo, hi = v.line_ends
        self.number_line.show(list(v.points), v.arrow, list(v.spans), lo=lo, hi=hi)
        self.move_log.set_lines(list(v.log_lines))
        self.peek_button.description = v.peek_label
        ui.set_values([(self.seats_html, v.seats_html), (self.status_html, v.status_html),
                       (self.scores_html, score_table_html(s.names, s.game.wins, s.game.ties))])
        ui.set_enabled([(self.hit_button, v.can_hit), (self.hold_button, v.can_hold),
                        (self.peek_button, v.can_peek), (self.show_sum_button, v.can_show_sum),
                        (self.hint.button, v.hint_enabled)])
        ui.set_shown([(self.show_sum_button, v.show_sum_visible), (self.hint, v.show_hint),
                      (self.actions_box, v.show_actions), (self.hit_button, v.show_hit_hold)])
        if v.aces or LazyPart.built(self, "ace_row"):
            self.ace_row.show(v.aces, v.aces_active)
        if v.announcing or LazyPart.built(self, "announce_box"):
            self._apply_announce(v)
        if v.round_over or LazyPart.built(self, "next_round_button"):
            ui.set_enabled([(self.next_round_button, v.round_over)])
            ui.set_shown([(self.next_round_button, v.round_over)])
        self.hint.refresh()  # a hint shown follows the peek and "Show my sum"
        if v.result_html or LazyPart.built(self, "result_html"):
            self.result_html.value = v.result_html
        self.teacher_box.show(walkthrough=s.walkthrough, can_next=v.can_next_move,
                              last_reason=v.last_reason_html, reasons=v.reasons_html)

    def _apply_announce(self, v: HitMeView) -> None:
        s = self.session
        if s.phase is Phase.ANNOUNCE and self._announce_round != s.announce_round:
            self._announce_round = s.announce_round
            self.announce.reset(v.announce_prompt)
            self._feedback_shown = None
        elif s.phase is not Phase.REVEALED and self.announce.prompt.value != v.announce_prompt:
            # a peek (it stops asking for one and names the face-down card), the next
            # student's turn, or a new round (no hand of the last round stays in the page)
            self.announce.prompt.value = v.announce_prompt
        fb = s.announce_feedback
        if fb is not None and fb != getattr(self, "_feedback_shown", None):
            self._feedback_shown = fb
            self.announce.feedback(*fb)
            if v.viewer in s.announced:
                self.announce.lock()
        if s.show_me_offered and v.viewer not in s.announced:
            self.announce.offer_show_me(True)
        ui.set_shown([(self.announce_box, v.announcing)])
        ui.set_enabled([(self.announce.check_button, v.can_check),
                        (self.announce_done_button, v.can_finish)])
        self.announce_done_button.description = v.finish_label


TABLE = HitMeTable  # the game's table (widgets.table.games.table_class)
