"""The Flapjack table widget: one student (seat 0) against computer players, a walkthrough, or
a student's seat at a shared room (`FlapjackTable.for_session(seat)`, widgets/together/seat.py).

    from widgets import FlapjackTable
    FlapjackTable(players=3, opponents="medium", variant="classic", seed=1234)

A thin ipywidgets shell: it builds its widgets once (parts made on first use through LazyPart),
routes every click to its session (`FlapjackSession`, widgets/flapjack/session.py, or a room's
`FlapjackSeat`) and applies `table_view(session, session.viewer)` (widgets/flapjack/view.py,
rendered by widgets/flapjack/render.py) to the widgets' values. The student's hand is a row of
real buttons, one per card ("7♦ -7"); cards that would break the limit are disabled with the
reason in their label.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as widgets

from engine.errors import ConfigError
from engine.flapjack import FlapjackState
from engine.questions import SumCheck, table_check_item
from widgets.flapjack import render
from widgets.flapjack.session import FlapjackSession, Note
from widgets.flapjack.settings import FIELDS, settings_panel
from widgets.flapjack.view import TableView, table_view
from widgets.page.in_browser import IN_BROWSER
from widgets.table import components as ui
from widgets.table.controller import call_later
from widgets.table.feedback import Feedback
from widgets.table.render import esc
from widgets.table.shell import CardRow, LazyPart, TableShell, game_classes, settings_field
from widgets.words import _, check_language, speaking


class FlapjackTable(TableShell, widgets.VBox):
    """A Flapjack table. The keywords are FlapjackSession's (widgets/flapjack/session.py),
    large_print (bigger text for a projector), lang (the table's language, 'en', 'es';
    None: the kernel's, widgets.words.set_language) and anchor (a name, 'play', that a link
    "#play" in the lesson jumps to: widgets.table.shell.game_classes). The shell's parts (layout,
    settings
    panel display, large print, the session's names on the table) are Hit Me's (TableShell)."""

    # what the tests and teachers read on the table; they live in the session
    _FROM_SESSION = ("controller", "teacher_controls", "config", "names", "say_total",
                     "deal_code", "code_open")

    def __init__(self, players: int = 2, opponents: str | Sequence[str] = "medium",
                 variant: str = "classic", decks: int = 1, colors: str = "black-positive",
                 seed: int | str | None = None, walkthrough: bool = False,
                 large_print: bool = False, names: Sequence[str] | None = None,
                 say_total: bool = False, bot_delay: float = 0.8, deck: str | None = None,
                 teacher_controls: bool | None = None, lang: str | None = None,
                 anchor: str | None = None,
                 on_answer: Callable[[SumCheck], None] | None = None) -> None:
        self.lang = check_language(lang)
        self.on_answer = on_answer
        with speaking(self.lang):
            self._classes = game_classes(anchor)
            self._init(players, opponents, variant, decks, colors, seed, walkthrough,
                       large_print, names, say_total, bot_delay, deck, teacher_controls)

    def _init(self, players: int, opponents: str | Sequence[str], variant: str, decks: int,
              colors: str, seed: int | str | None, walkthrough: bool, large_print: bool,
              names: Sequence[str] | None, say_total: bool, bot_delay: float,
              deck: str | None, teacher_controls: bool | None) -> None:
        if not isinstance(large_print, bool):
            raise ConfigError(_("large_print must be True or False; got {value}").format(
                value=repr(large_print)))
        session = FlapjackSession(
            players=players, opponents=opponents, variant=variant, decks=decks, colors=colors,
            seed=seed, walkthrough=walkthrough, names=names, say_total=say_total,
            bot_delay=bot_delay, deck=deck, teacher_controls=teacher_controls,
            schedule=call_later, on_change=self.refresh)
        self._attach(session, large_print)
        self.new_game(self.session.first_code, at_once=True)

    @classmethod
    def for_session(cls, session: Any, *, large_print: bool = False, lang: str | None = None,
             anchor: str | None = None) -> FlapjackTable:
        """The table drawn over a session made elsewhere: a room's seat
        (widgets/together/seat.py, `FlapjackSeat`), which offers what a FlapjackSession offers
        the table (its seat's observation, `card_whys`, the clicks on the hand, `note`,
        `hint_lines`). With `session.room` the room deals: no "New deal", no settings."""
        self = cls.__new__(cls)
        self.lang = check_language(lang)
        with speaking(self.lang):
            self._classes = game_classes(anchor)
            self._attach(session, large_print)
            session.on_change = self.refresh
            self.refresh()
        return self

    def _attach(self, session: Any, large_print: bool) -> None:
        """Build the widgets over `session` and become the box that holds them."""
        self.session = session
        self._asked = 0  # the session's practice_serial last shown
        self._build()
        super().__init__(self._all_children(), _dom_classes=(
            "icg-root", "icg-flapjack", *self._classes,
            *(["icg-large"] if large_print else [])))
        self._set_large_print(large_print)

    # ----- the session's parts, for tests and teachers ------------------------------------
    card_buttons = property(lambda self: self.hand.buttons)
    next_button = property(lambda self: self.next_move_button)  # (the shared TeacherBox)
    large_toggle = property(lambda self: self.large_print_toggle)
    reasons = property(lambda self: self.reasons_html)
    _hand_keys = property(lambda self: self.hand.keys)

    @property
    def state(self) -> FlapjackState:
        """The game being played (for tests and teachers; the view never reads it)."""
        return self.session.state

    def observation(self) -> dict[str, Any]:
        """What this table shows: the student's view, or every hand when revealed."""
        return self.session.observation(self.session.viewer)

    # ----- widgets ------------------------------------------------------------------------
    def _build(self) -> None:
        self.header = ui.html_widget("", ["icg-fj-header"])
        self.banner = ui.html_widget("", ["icg-fj-banner-box"])
        self.status = ui.html_widget("", ["icg-fj-status"])
        self.message = ui.MessageArea()
        self.seats = ui.html_widget("", ["icg-fj-seats"])
        self.table_view = ui.html_widget("", ["icg-fj-tableview"])
        self.number_line = ui.NumberLine(_("Running total"))
        self.hand_title = ui.html_widget("<b>" + esc(_("Your hand")) + "</b>")
        self.hand = CardRow(self.click_card,
                            lambda key: self._say(self.session.refused_card(key)))
        self.hand_box = self.hand.box
        self.hint = ui.HintBox(self.session.hint_lines)
        self.hint.layout.align_items = "flex-start"
        s = self.session
        self._build_teacher_box(teacher=s.teacher_controls, walkthrough=s.walkthrough,
                                reveal=s.show_hands, large=False, new_deal=not s.room)
        # banners ("Flapjack!", passes) and messages: one place that keeps a height of its
        # own, so that a banner coming or going does not move the hand
        self.messages = widgets.VBox([self.banner, self.message],
                                     layout=ui.shared_layout())
        self.messages.add_class("icg-fj-messages")
        self.move_log = ui.MoveLog(_("Move log"))
        self.settings_toggle = None if s.room else self._settings_toggle()
        self.css = ui.html_widget(f"<style>{render.FLAPJACK_CSS}</style>", ["icg-style"])
        self.base_css = ui.style_widget()

    # Parts made on first use (LazyPart): every widget made is a model sent to the page.
    (sign_prompt, add_button, subtract_button, cancel_sign_button,
     sign_box) = LazyPart.group("_build_signs", 5)
    practice, cancel_practice_button, practice_box = LazyPart.group("_build_practice", 3)

    def _build_signs(self) -> None:
        self.sign_prompt = ui.html_widget("")
        self.add_button = ui.make_button("+ " + _("Add"),
                                         lambda: self._say(self.session.choose_sign(1)))
        self.subtract_button = ui.make_button(f"{ui.MINUS} " + _("Subtract"),
                                           lambda: self._say(self.session.choose_sign(-1)))
        self.cancel_sign_button = ui.make_button(
            _("Choose another card"), self._cancel,
            tooltip=_("put the card back and choose again"))
        # the step after a card is chosen: the page moves the focus to it (static/play-focus.js)
        self.sign_box = ui.hidden_box([self.sign_prompt, ui.hbox(
            [self.add_button, self.subtract_button, self.cancel_sign_button])],
            classes=("icg-next-step",))

    def _build_practice(self) -> None:
        self.practice = ui.AnswerEntry(
            [("total", _("New total"))], check_label=_("Check the new total"),
            on_check=lambda a: self._answer(self._check_total(a.get("total"))),
            on_show_me=lambda: self._answer(self.session.show_me()))
        self.cancel_practice_button = ui.make_button(
            _("Choose another card"), self._cancel,
            tooltip=_("put the card back and choose again"))
        self.practice_box = ui.hidden_box([self.practice, self.cancel_practice_button],
                                          align_items="flex-start")

    # The settings panel (TableShell.settings, made on first use) and its fields
    (players_field, variant_field, decks_field, colors_field, level_field, code_field,
     say_field) = (settings_field(name) for name in FIELDS)

    def _make_settings(self) -> Any:
        return settings_panel(self.session, self._apply_settings)

    def _children(self) -> list[widgets.Widget]:
        part = self._part
        # the student's hand and what they press come first, under the status and the cards
        # in play, so that they are on the first screen of a Chromebook (1366x657); the
        # messages follow in a place of their own that keeps its height
        return [w for w in [
            self.base_css, self.css, self.header, self.status, self.table_view,
            self.hand_title, self.hand_box, part("sign_box"), part("practice_box"),
            self.messages, self.hint, self.teacher_box.bar, self.seats, self.number_line,
            self.teacher_box.more, self.move_log, self.settings_toggle, part("settings")]
            if w is not None]

    # ----- clicks to the session ----------------------------------------------------------
    def new_game(self, code: int | str | None = None, *, at_once: bool = False) -> None:
        """Deal a new game with the current settings; `code` None = a fresh deal code
        (`at_once`: see FlapjackSession.new_game)."""
        self.hint.clear()
        if LazyPart.built(self, "practice"):
            self.practice.reset()
        self._hide_part("practice_box")
        self._hide_part("sign_box")
        self.session.new_game(code, at_once=at_once)
        self._game_made("seed")

    def restart(self) -> None:
        """The same deal again, from the start (a teacher's control)."""
        if self.session.teacher_controls:
            self.new_game(self.deal_code)
        else:
            self._say(self.session.restart())

    # ----- the teacher box's callbacks (widgets.table.shell.TeacherBox) ------------------------
    _restart_deal = restart

    def _new_deal(self) -> None:
        """A fresh deal code nobody chose (so it does not show during play)."""
        self.session.code_typed = False
        self.new_game(None)

    def _deal_code(self, code: int | str) -> None:
        self.session.code_typed = True
        self.new_game(code)

    def _tell(self, text: str, kind: str) -> None:
        self._say(self.session._say(text, kind))

    def _set_reveal(self, on: bool) -> None:
        self.session.set_show_hands(on)

    def _apply_settings(self, values: dict[str, Any]) -> str | None:
        if self.session.say_total is not bool(values["say_total"]):
            self._hide_part("practice_box")
        return self.session.apply_settings(values)

    def _say(self, note: Note | None) -> None:
        """Show a refusal (the session changed nothing; a change refreshes by itself)."""
        if note is not None:
            self.message.show(*note)

    def click_card(self, key: str) -> None:
        """The student chose a card (the same as clicking its button)."""
        note = self.session.click_card(key)
        if note is None and self.config.add_or_subtract:
            self._hide_part("practice_box")
        self._say(note)

    def _cancel(self) -> None:
        if LazyPart.built(self, "practice"):
            self.practice.reset()
        self._hide_part("practice_box")
        self.session.cancel()

    def _check_total(self, typed: int | None) -> Feedback:
        """"Say the new total"; reported to `on_answer` (not in a teacher's walkthrough, not
        the static site)."""
        s = self.session
        first, shape, mine = s.misses == 0, s.check_shape(), s.my_turn()
        fb = s.check_total(typed)
        if shape is not None and typed is not None and mine and not s.walkthrough \
                and not IN_BROWSER and self.on_answer is not None:
            self.on_answer(SumCheck(table_check_item("flapjack", s.deal_code, s.practice_serial),
                                    shape.terms,
                                    typed, None, first, shape.kind))
        return fb

    def _answer(self, fb: Feedback) -> None:
        self.practice.feedback(fb.message, fb.tone)
        if fb.offer_show_me:
            self.practice.offer_show_me(True)
        if fb.done:
            self.practice.lock()
            self.cancel_practice_button.disabled = True

    def _next_move(self) -> None:
        self._say(self.session.next_move())

    def _set_walkthrough(self, on: bool) -> None:
        self._say(self.session.set_walkthrough(on is True))
        self._game_made("seed")

    # ----- the view to the widgets --------------------------------------------------------
    def refresh(self) -> None:
        """Apply the student's view to every widget (in the table's language)."""
        with speaking(self.__dict__.get("lang")):
            self._refresh()

    def _refresh(self) -> None:
        if self.session.controller.state is None or "header" not in self.__dict__:
            return
        viewer = self.session.viewer
        v = table_view(self.session, viewer)
        self._notify(*(self.session.note or (None,)))
        if self.session.pending is not None and self.session.practice_serial != self._asked:
            self._ask(v)
        self.header.value = render.header_html(v.header)
        self.banner.value = render.view_banner_html(v)
        self.status.value = render.notice_html(v.status, "info")
        self.seats.value = render.seats_html(v.obs, v.names, viewer)
        self.table_view.value = render.table_html(v.obs)
        self.number_line.show(**render.number_line_args(v.obs))
        self.hand.show(v.hand)
        self.hand_title.value = render.hand_title_html(len(v.hand))
        self._apply_signs(v)
        self.move_log.set_lines(render.log_lines(v.obs, v.names, viewer))
        self.teacher_box.show(walkthrough=v.walkthrough, can_next=v.next_enabled,
                              last_reason=render.view_last_reason_html(v),
                              reasons=render.view_reasons_html(v))
        self.hint.button.disabled = not v.hint_enabled
        if v.is_over and LazyPart.built(self, "practice"):
            self.practice.check_button.disabled = True
            self.cancel_practice_button.disabled = True
        if self.settings_toggle is not None:
            self.settings_toggle.description = v.settings_label

    def _ask(self, v: TableView) -> None:
        """Say the new total: a new question in the practice box."""
        self._asked = self.session.practice_serial
        key, sign = self.session.pending  # type: ignore[misc]
        card = next(c.card for c in v.hand if c.key == key)
        self.practice.reset(render.practice_prompt_html(
            int(v.obs["total"]), card, sign, bool(v.header.add_or_subtract),
            render.is_plain(v.obs)))
        self.practice_box.layout.display = None
        self.cancel_practice_button.disabled = False
        self.hint.clear()

    def _apply_signs(self, v: TableView) -> None:  # Add / Subtract (add-or-subtract)
        if v.signs is None:
            return self._hide_part("sign_box")
        self.sign_prompt.value = render.sign_prompt_html(v.signs)
        for b, s in zip((self.add_button, self.subtract_button), v.signs.buttons, strict=True):
            b.description, b.tooltip, b.disabled = s.description, s.tooltip, s.disabled
        self.sign_box.layout.display = None


TABLE = FlapjackTable  # the game's table (widgets.table.games.table_class)
