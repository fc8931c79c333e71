"""What every card table shares, once: the name policy (`seat_names`), the teacher policy
(`check_teacher`), computer-player specs, the deal-code format, large print, the lazily built
settings panel and the teacher box (`TeacherBox`).

Both tables (widgets/hit_me/table.py, widgets/flapjack/table.py) are TableShells (layout,
settings panel shown on demand, large print, the session's names read on the table, the
teacher box's callbacks) and make one `TeacherBox`: the same controls in the same order with
the same labels ("Teacher walkthrough", "Show every hand", "Next move", "Restart this deal",
"New deal", "Large print", the deal-code box and the computer players' reasons); each passes
only what is its own (callbacks, the view's reasons). Flapjack's hand is a `CardRow`.
No ipywidgets import at module level for the policies (sessions use them without widgets).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from engine.errors import ConfigError
from engine.games import NAME_LENGTH
from widgets.table.deal_codes import format_code, new_secret_seed  # the one deal-code format
from widgets.words import _, bound, speaking

__all__ = ["MAX_NAME", "CardRow", "LazyPart", "TeacherBox", "bot_name", "check_names",
           "check_teacher", "check_opponent_specs", "format_code",
           "new_secret_seed", "seat_names", "set_large_print", "settings_panel"]

MAX_NAME = NAME_LENGTH  # one length limit for a player's name, every table and room


def check_names(given: Any, players: int) -> list[str]:
    """The one name policy of every table: `players` names, each a string of 1 to MAX_NAME
    characters (stripped), all different. Returns them stripped; ConfigError otherwise."""
    rule = _("names: give {players} different names of 1 to {max} characters").format(
        players=players, max=MAX_NAME)
    if isinstance(given, str) or not isinstance(given, list | tuple):
        raise ConfigError(_("{rule}; got {given}").format(rule=rule, given=repr(given)))
    if len(given) != players or not all(isinstance(n, str) and 0 < len(n.strip()) <= MAX_NAME
                                        for n in given):
        raise ConfigError(_("{rule}; got {given}").format(rule=rule, given=repr(list(given))))
    out = [n.strip() for n in given]
    if len(set(out)) != len(out):
        raise ConfigError(_("{rule} (two are the same); got {given}").format(
            rule=rule, given=repr(out)))
    return out


def seat_names(given: Sequence[str] | None, players: int, n_students: int = 1, *,
               solo: bool = True) -> list[str]:
    """The one name policy of every table: the seats' names. Given names are checked by
    `check_names` (one per seat, 1 to MAX_NAME characters, all different); without them,
    'You' (solo) or 'Player 1'... for the students, then 'Computer 1'... for the computer
    players. A computer seat's given name is marked 'Ben (computer)' (`bot_name`), so every
    page tells a computer player from a person the same way."""
    if given is not None:
        names = check_names(given, players)
        return names[:n_students] + [bot_name(n) for n in names[n_students:]]
    people = [_("You")] if solo else [_("Player {n}").format(n=i + 1) for i in range(n_students)]
    return people + [_("Computer {n}").format(n=i + 1) for i in range(players - n_students)]


def game_classes(anchor: Any) -> tuple[str, ...]:
    """The CSS classes of a card table's root besides "icg-root": "icg-game" (the classroom
    template's static/play-focus.js moves the focus through its controls) and, with an
    `anchor` ('play'), "icg-anchor-play": a link to "#play" in the lesson's text scrolls to the
    table (no element of its own: one widget model fewer)."""
    if anchor is None:
        return ("icg-game",)
    if not isinstance(anchor, str) or not re.fullmatch(r"[a-z][a-z0-9-]{0,29}", anchor):
        raise ConfigError(_("anchor must be a short name of small letters, digits and -, "
                            "such as 'play'; got {value}").format(value=repr(anchor)))
    return ("icg-game", f"icg-anchor-{anchor}")


def parse_bool(value: Any) -> bool:
    """A settings checkbox's value: exactly True or False (a page may send anything)."""
    if value is True or value is False:
        return value
    raise ValueError(_("must be on or off"))


def check_teacher(walkthrough: Any, teacher_controls: Any) -> tuple[bool, bool]:
    """The one teacher policy of every table: (walkthrough, teacher_controls). The teacher's
    controls (widgets.table.shell.TeacherBox) exist with `teacher_controls` True; None (the default)
    follows `walkthrough`, so a table made for students has none. A walkthrough needs them
    (without "Next move" the computer players would never move)."""
    if teacher_controls is None:
        teacher_controls = walkthrough
    for flag, label in ((walkthrough, "walkthrough"), (teacher_controls, "teacher_controls")):
        if not isinstance(flag, bool):
            raise ConfigError(_("{setting} must be True or False; got {value}").format(
                setting=label, value=repr(flag)))
    if walkthrough and not teacher_controls:
        raise ConfigError(_("walkthrough needs the teacher's controls: leave teacher_controls "
                            "out or set it to True"))
    return walkthrough, teacher_controls


def bot_name(name: str) -> str:
    """'Computer 1', or 'Ben (computer)' when a given name does not say so."""
    return name if "computer" in name.lower() or _("computer") in name.lower() else \
        _("{name} (computer)").format(name=name)


def check_opponent_specs(opponents: Any, n: int, game: str,
                         allowed: Sequence[str] | None = None) -> list[Any]:
    """The one check of every table's computer players: one spec per computer seat (`n`), each
    a level or bot name (stripped, lower case) or an object with `choose`. One spec (alone or
    in a list of one) is for every seat. With `allowed`, a name must be one of those; without,
    any bot `engine.bots.make_bot` makes for `game`. A bad spec is refused (ConfigError)
    before anything changes."""
    if isinstance(opponents, list | tuple):
        specs = list(opponents) * n if len(opponents) == 1 else list(opponents)
    else:
        specs = [opponents] * n
    if len(specs) != n:
        raise ConfigError(_("opponents: give one level for all or one per computer player "
                            "({n}); got {got}").format(n=n, got=len(specs)))
    from engine.bots import make_bot

    out: list[Any] = []
    for s in specs:
        if hasattr(s, "choose"):  # a bot object (engine.bots or a scripted test player)
            out.append(s)
            continue
        text = str(s).strip().lower()
        if allowed is not None and text not in allowed:
            raise ConfigError(_("opponents must be one of {allowed}; got {value}").format(
                allowed=", ".join(allowed), value=repr(s)))
        if allowed is None:
            try:
                make_bot(text, game, 0)
            except Exception as e:  # noqa: BLE001
                raise ConfigError(_("opponents: {error}").format(error=e)) from e
        out.append(text)
    return out


def set_large_print(root: Any, on: bool, number_line: Any = None, toggle: Any = None) -> None:
    """Large print on a table's root box (class icg-large), its number line and its toggle."""
    if on:
        root.add_class("icg-large")
    else:
        root.remove_class("icg-large")
    if number_line is not None:
        number_line.set_large(on)
    if toggle is not None and toggle.value != on:
        toggle.value = on


class LazyPart:
    """A table attribute built, with the rest of its group, the first time it is read.

    Every widget made sends its model to the page at once, shown or not. Parts that most pages
    never show, or show only later (the end-of-round answer box, the teacher's controls, the
    pass-the-device screen), are made on first use: `builder` is the name of the owner's method
    that sets every attribute of the group; afterwards `owner._layout_children()` runs so a new
    part takes its place on the table. `LazyPart.built(obj, name)` tells whether it exists yet
    (reading it would build it)."""

    def __init__(self, builder: str) -> None:
        self.builder = builder
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, obj: Any, owner: type | None = None) -> Any:
        if obj is None:
            return self
        if self.name not in obj.__dict__:
            with speaking(obj.__dict__.get("lang")):  # in the table's own language
                getattr(obj, self.builder)()
                obj._layout_children()
        return obj.__dict__[self.name]

    @staticmethod
    def built(obj: Any, name: str) -> bool:
        return name in obj.__dict__

    @classmethod
    def group(cls, builder: str, n: int) -> tuple[LazyPart, ...]:
        """n attributes built together by `builder` (one descriptor each)."""
        return tuple(cls(builder) for _ in range(n))


class TeacherBox:
    """The teacher box of every table, one component: the same controls in
    the same order with the same labels on Hit Me and Flapjack. A first row, `bar`:
    "Teacher walkthrough" (on/off), "Show every hand", "Next move", "Restart this deal",
    "New deal", "Large print", then the latest computer move; a second part, `more`: the
    deal-code box ("Deal code", "Deal this code") and the computer players' reasons.

    `teacher` False (a student's page): only "New deal" and "Large print" are made; the
    teacher's controls (the others) do not exist at all, not even hidden (a hidden widget is
    still a synced model a page could change), and their attributes are None (`TEACHER`).
    "Show every hand" and "Next move" show only while the walkthrough is on.

    Each table passes what is its own: the callbacks (`on_walkthrough(on)`, `on_reveal(on)`,
    `on_next()`, `on_restart()`, `on_new_deal()`, `on_code(text)` with the typed deal code,
    `on_large(on)`), the switches' first values, a tooltip of its own by part name (`tips`,
    marked with N_, translated here), and, at each refresh, `show(...)` with its view's data
    (whether the next move may be stepped, the reasons as HTML). `new_deal` False (a room's
    seat, where the room deals): no "New deal" either. Every button is a
    GuardedButton (components.make_button); every label goes through `_()`."""

    TEACHER = ("walkthrough_toggle", "reveal_toggle", "next_move_button", "restart_button",
               "last_reason_html", "code_text", "replay_button", "reasons_html")
    LABELS = ("Teacher walkthrough", "Show every hand", "Next move", "Restart this deal",
              "New deal", "Large print", "Deal this code")  # (English, for tests and docs)

    def __init__(self, *, teacher: bool, walkthrough: bool = False, reveal: bool = False,
                 large: bool = False, on_walkthrough: Callable[[bool], Any],
                 on_reveal: Callable[[bool], Any], on_next: Callable[[], Any],
                 on_restart: Callable[[], Any], on_new_deal: Callable[[], Any],
                 on_code: Callable[[str], Any], on_large: Callable[[bool], Any],
                 tips: dict[str, str] | None = None, new_deal: bool = True) -> None:
        import ipywidgets as widgets

        from widgets.table.components import (
            hbox,
            html_widget,
            make_button,
            make_toggle,
            shared_layout,
        )

        tip = {"walkthrough": _("step through the computer players' moves one at a time, "
                                "with reasons"),
               "reveal": _("teacher: turn every face-down card up and show the computer "
                           "players' reasons"),
               "next": _("the next computer player makes one move"),
               "restart": _("deal the same cards again from the start"),
               **{part: _(text) for part, text in (tips or {}).items()}}
        self.teacher = teacher
        for name in self.TEACHER:
            setattr(self, name, None)

        def switch(fn: Callable[[bool], Any]) -> Callable[[Any], None]:
            return bound(lambda change: fn(change["new"] is True))

        controls: list[Any] = []
        if teacher:
            self.walkthrough_toggle = make_toggle(_("Teacher walkthrough"), tip["walkthrough"],
                                                  walkthrough)
            self.walkthrough_toggle.observe(switch(on_walkthrough), names="value")
            self.reveal_toggle = make_toggle(_("Show every hand"), tip["reveal"], reveal,
                                             own_layout=True)
            self.reveal_toggle.observe(switch(on_reveal), names="value")
            self.next_move_button = make_button(_("Next move"), on_next, tooltip=tip["next"],
                                                button_style="primary", own_layout=True)
            self.restart_button = make_button(_("Restart this deal"), on_restart,
                                              tooltip=tip["restart"])
            controls += [self.walkthrough_toggle, self.reveal_toggle, self.next_move_button,
                         self.restart_button]
        self.new_deal_button: Any = None
        if new_deal:
            self.new_deal_button = make_button(
                _("New deal"), on_new_deal, tooltip=_("shuffle and deal with a fresh deal code"))
            controls.append(self.new_deal_button)
        self.large_print_toggle = make_toggle(_("Large print"), _("bigger text for a projector"),
                                              large)
        self.large_print_toggle.observe(switch(on_large), names="value")
        controls.append(self.large_print_toggle)
        # (a row of buttons wraps whole on a narrow screen: style.css, every hbox of a table)
        row = widgets.HBox(controls, layout=shared_layout(), _dom_classes=("icg-teacher-row",))
        self.more: Any = None
        if not teacher:
            self.bar: Any = row
            return
        # the latest computer move stays on screen with the cards
        self.last_reason_html = html_widget("")
        self.bar = widgets.VBox([row, self.last_reason_html], layout=shared_layout(),
                                _dom_classes=("icg-walkthrough",))
        self.code_text = widgets.Text(description=_("Deal code"), continuous_update=False,
                                      style={"description_width": "initial"})
        self.replay_button = make_button(
            _("Deal this code"), lambda: on_code(self.code_text.value),
            tooltip=_("start a new game from the deal code in the box"))
        self.reasons_html = html_widget("")
        self.more = widgets.VBox([hbox([self.code_text, self.replay_button]),
                                  self.reasons_html], layout=shared_layout(),
                                 _dom_classes=("icg-walkthrough-more",))

    def controls(self) -> list[Any]:
        """The buttons and switches made, in their order on the page."""
        return [w for w in (self.walkthrough_toggle, self.reveal_toggle, self.next_move_button,
                            self.restart_button, self.new_deal_button, self.large_print_toggle,
                            self.code_text, self.replay_button) if w is not None]

    def set_code(self, text: str) -> None:
        """The deal code in the box (a new game; "" while it must not show)."""
        if self.code_text is not None and self.code_text.value != text:
            self.code_text.value = text

    def show(self, *, walkthrough: bool, can_next: bool, last_reason: str = "",
             reasons: str = "") -> None:
        """The teacher's controls as the session is now (nothing on a student's page)."""
        if not self.teacher:
            return
        if self.walkthrough_toggle.value is not walkthrough:
            self.walkthrough_toggle.value = walkthrough  # the session's, already (no change)
        shown = None if walkthrough else "none"
        self.reveal_toggle.layout.display = shown
        self.next_move_button.layout.display = shown
        self.next_move_button.disabled = not (walkthrough and can_next)
        self.last_reason_html.value = last_reason if walkthrough else ""
        self.reasons_html.value = reasons if walkthrough else ""


Field = tuple[str, str, Any, Callable[[Any], Any]]  # name, label, input widget, parse


def settings_panel(fields: Sequence[Field], on_apply: Callable[[dict[str, Any]], str | None],
                   values: dict[str, Any] | None = None, *, title: str | None = None,
                   apply_label: str | None = None) -> Any:
    """Every table's settings panel, built the same way: one labelled input per field, each
    checked by its `parse` (a bad value is a message and changes nothing), then `on_apply`
    with the parsed values; `values` are shown to start with. Built on first use by the
    tables (about 30 widget models a page would otherwise receive at start-up)."""
    from widgets.table.components import SettingsPanel

    p = SettingsPanel(_("Settings") if title is None else title,
                      _("Apply and deal") if apply_label is None else apply_label,
                      on_apply=on_apply)
    for name, label, widget, parse in fields:
        p.add_field(name, label, widget, parse)
    if values is not None:
        p.set_values(values)
    return p


def settings_field(name: str) -> Any:
    """A table's property: the input of the settings panel's field `name` (reading it makes
    the panel, as reading `settings` does)."""
    return property(lambda self: self.settings.fields[name][0])


class TableShell:
    """The parts of a table widget that every game has, as a mixin for an ipywidgets box.

    The table provides `_children()`, `_make_settings()` (its settings panel, showing the
    session's settings) and the attributes `session`, `number_line`, `large_print`. The shell
    makes the settings toggle (`_settings_toggle()`; None on a room's seat, where the room
    deals), the message area (`message`: made on the
    first message, or by the table at once) and the settings panel (`settings`: made the first
    time it is opened or read; about 30 widget models a page would otherwise receive at
    start-up), both parts made on first use (LazyPart)."""

    _FROM_SESSION: tuple[str, ...] = ()  # names read (and set) on the table, kept in the session

    (message,) = LazyPart.group("_build_message", 1)
    (settings,) = LazyPart.group("_build_settings", 1)

    def __repr__(self) -> str:
        # ipywidgets' repr walks every child's traits (a page's text/plain stand-in for the
        # table, cut at 110 characters anyway): a name is enough
        return f"<{type(self).__name__}>"

    def __getattr__(self, name: str) -> Any:
        if name in self._FROM_SESSION and "session" in self.__dict__:
            return getattr(self.__dict__["session"], name)
        raise AttributeError(name)

    def __setattr__(self, name: str, value: Any) -> None:
        if name in self._FROM_SESSION:
            setattr(self.session, name, value)
        else:
            super().__setattr__(name, value)

    # ----- parts made on first use ------------------------------------------------------------
    def _part(self, name: str) -> Any:
        """A part made on first use, or None while it is not made (reading it would make it)."""
        return self.__dict__.get(name)

    def _hide_part(self, *names: str) -> None:
        for name in names:
            if LazyPart.built(self, name):
                getattr(self, name).layout.display = "none"

    def _build_message(self) -> None:
        from widgets.table.components import MessageArea

        self.message = MessageArea()

    def _build_settings(self) -> None:
        self.settings = self._make_settings()
        self._show_settings()

    def _settings_toggle(self) -> Any:
        """The "Settings" switch: it shows or hides the panel (made the first time)."""
        from widgets.table.components import make_toggle

        toggle = make_toggle(_("Settings"), _("show or hide the settings"))
        toggle.observe(bound(lambda ch: self._show_settings()), names="value")
        return toggle

    def _show_settings(self) -> None:
        self.settings.layout.display = None if self.settings_toggle.value is True else "none"

    def _layout_children(self) -> None:
        # the teacher controls exist only in walkthrough mode (a hidden widget still syncs)
        self.children = self._all_children()

    def _all_children(self) -> list[Any]:
        """The table's widgets, and on a page of the live class its cover (widgets.page.live_gate:
        "Eyes on the teacher", the exit ticket the teacher opened)."""
        from widgets.page.live_gate import page_parts

        return [*self._children(), *page_parts()]

    def _game_made(self, *fields: str) -> None:
        """After a new game (or the walkthrough switched): the deal code in the teacher's box
        only while it may show (code_open); the settings panel, if made, shows the session's
        settings (`fields`: only those; none: all of them, and its message is cleared)."""
        s = self.session
        self.teacher_box.set_code(format_code(s.deal_code) if s.code_open else "")
        if LazyPart.built(self, "settings"):
            values = s.settings_values()
            self.settings.set_values({f: values[f] for f in fields} if fields else values)
            if not fields:
                self.settings.message.clear()

    def _set_large_print(self, on: bool) -> None:
        self.large_print = on
        box = self.__dict__.get("teacher_box")
        set_large_print(self, on, self.number_line,
                        box.large_print_toggle if box is not None else None)

    def _notify(self, text: str | None, kind: str = "info") -> None:
        if text is not None:
            self.message.show(text, kind)
        elif LazyPart.built(self, "message"):  # no message: nothing to clear
            self.message.clear()

    # ----- the teacher box (TeacherBox): one for every table ------------------------------
    def _build_teacher_box(self, *, teacher: bool, walkthrough: bool, reveal: bool,
                           large: bool, tips: dict[str, str] | None = None,
                           new_deal: bool = True) -> None:
        """Make the table's TeacherBox; its callbacks are the table's own methods
        (`_set_walkthrough`, `_set_reveal`, `_next_move`, `_restart_deal`, `_new_deal`,
        `_deal_code`; `_tell(text, kind)` says what happened)."""
        self.teacher_box = TeacherBox(
            teacher=teacher, walkthrough=walkthrough, reveal=reveal, large=large,
            on_walkthrough=self._set_walkthrough, on_reveal=self._set_reveal,
            on_next=self._next_move, on_restart=self._restart_deal, on_new_deal=self._new_deal,
            on_code=self._replay_code, on_large=self._set_large_print, tips=tips,
            new_deal=new_deal)

    # the box's parts, read on the table (None: not made, on a student's page)
    walkthrough_toggle = property(lambda self: self.teacher_box.walkthrough_toggle)
    reveal_toggle = property(lambda self: self.teacher_box.reveal_toggle)
    next_move_button = property(lambda self: self.teacher_box.next_move_button)
    restart_button = property(lambda self: self.teacher_box.restart_button)
    new_deal_button = property(lambda self: self.teacher_box.new_deal_button)
    large_print_toggle = property(lambda self: self.teacher_box.large_print_toggle)
    code_text = property(lambda self: self.teacher_box.code_text)
    replay_button = property(lambda self: self.teacher_box.replay_button)
    last_reason_html = property(lambda self: self.teacher_box.last_reason_html)
    reasons_html = property(lambda self: self.teacher_box.reasons_html)

    def _tell(self, text: str, kind: str) -> None:
        self.message.show(text, kind)

    def _replay_code(self, text: str | None = None) -> None:
        """Teacher: start a new game from the deal code typed in the teacher's box."""
        from widgets.table.deal_codes import DealCodeError, parse_deal_code

        if not self.session.teacher_controls:  # a forged call: the box has no code field
            self._tell(_("Dealing a chosen code is one of the teacher's controls."), "error")
            return
        try:
            code = parse_deal_code(self.code_text.value if text is None else text)
        except DealCodeError as e:
            self._tell(_("Deal code: {error}").format(error=e), "error")
            return
        if code is None:
            self._tell(_("Deal code: type a number or a word first."), "error")
            return
        self._deal_code(code)
        self._tell(_("New game from deal code {code}.").format(code=format_code(code)), "ok")

    def _build_pass(self) -> None:
        """The pass-the-device screen (lazy: a solo page never needs it)."""
        from widgets.table.components import hbox, hidden_box, html_widget, make_button

        self.pass_html = html_widget("")
        self.pass_button = make_button(_("I have the device"), self._take_device,
                                       button_style="primary")
        self.pass_box = hidden_box([self.pass_html, hbox([self.pass_button])], ["icg-passbox"])

    def _show_pass(self, to: str | None, html: str = "") -> None:
        """The pass-the-device screen up for the person named `to` (`html`: what it says), or
        down (None; made only once a pass screen shows)."""
        if to is not None:
            self.pass_html.value = html
            self.pass_button.description = _("I am {name}: show my cards").format(name=to)
            self.pass_button.tooltip = _("{name} has the device now").format(name=to)
            self.pass_box.layout.display = None
            self.pass_button.disabled = False
        elif LazyPart.built(self, "pass_box"):
            self.pass_html.value = ""
            self.pass_box.layout.display = "none"
            self.pass_button.disabled = True


class CardRow:
    """The student's hand as a row of card buttons, one button per card: a button is made when
    its card first comes into the hand and shows that card only, so a click always means the
    card its label showed (a click sent while the hand was changing on the page plays no other
    card); a card that leaves the hand takes its button off the page, blank and switched off.
    `buttons` (the hand's, in its order, then the others), `keys` (the card key of each shown
    button) and `box` (the HBox on the page). A click calls `on_click(key)`; a forged click on a
    disabled button calls `on_refused(key)`.

    `show(hand)` takes choices with `key`, `card` (a card view), `reason` (why it cannot be
    played now, None: playable), `short` (the reason for the label; "": the label stays the
    card alone, the reason in the tooltip, so the row keeps its length) and `chosen`."""

    def __init__(self, on_click: Callable[[str], None],
                 on_refused: Callable[[str | None], None]) -> None:
        import ipywidgets as widgets

        from widgets.table import components as ui

        self.on_click = on_click
        self.on_refused = on_refused
        self.by_key: dict[str, Any] = {}
        self.keys: list[str] = []
        self.box = widgets.HBox([], layout=ui.shared_layout(flex_flow="row wrap"))

    @property
    def buttons(self) -> list[Any]:
        shown = set(self.keys)
        return [self.by_key[k] for k in self.keys] + [
            b for k, b in self.by_key.items() if k not in shown]

    def _click(self, key: str) -> None:
        if key in self.keys:
            self.on_click(key)
        else:  # a card no longer in the hand (its button was leaving the page)
            self.on_refused(key)

    def show(self, hand: Sequence[Any]) -> None:
        """Label one button per card (a lasting reason on a disabled one)."""
        from widgets.table import components as ui

        keys = [c.key for c in hand]
        for key in set(self.keys) - set(keys):  # off the page, blank, kept for a later deal
            b = self.by_key[key]
            with b.hold_sync():
                b.disabled, b.description, b.tooltip = True, "", ""
        self.keys = keys
        for c in hand:
            detail = _("cannot be played now, {reason}").format(reason=c.reason) \
                if c.reason else ""
            if c.reason and c.short:
                look: dict[str, Any] = {"reason": c.short, "detail": detail}
            elif c.reason:
                look = {"detail": detail, "disabled": True}
            else:
                look = {"suffix": " " + _("(chosen)") if c.chosen else ""}
            classes = ["icg-fj-pending"] if c.chosen else []
            b = self.by_key.get(c.key)
            if b is not None:
                ui.update_card_button(b, c.card, classes=classes, **look)
            else:  # a new button is made as it should look (one message, not one per trait)
                b = ui.card_button(c.card, classes=classes, **look)
                b.on_click(bound(lambda _b, k=c.key: self._click(k)))
                b.refused = lambda k=c.key: self.on_refused(k)
                self.by_key[c.key] = b
        self.box.children = tuple(self.by_key[k] for k in keys)
