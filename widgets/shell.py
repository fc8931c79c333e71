"""What every card table shares, once: seat-name policy, computer-player specs, the deal-code
format, large print, the lazily built settings panel and the teacher box toggle.

Both tables (widgets/hit_me/table.py, widgets/flapjack/table.py) are TableShells (layout,
settings panel shown on demand, large print, the session's names read on the table) and make
the teacher's controls with `teacher_controls` (one "Show every hand", "Next move", "Restart
this deal" and "Large print", the same labels and look); Hit Me's teacher box adds the deal-code
box and the reasons, Flapjack's a walkthrough switch. Flapjack's hand is a `CardRow`.
No ipywidgets import at module level for the policies (sessions use them without widgets).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape as esc
from typing import Any

from engine.errors import ConfigError
from widgets.deal_codes import format_code, new_secret_seed  # the one deal-code format
from widgets.words import _, bound, speaking

__all__ = ["MAX_NAME", "CardRow", "bot_name", "check_names", "check_opponent_specs", "format_code",
           "new_secret_seed", "seat_names", "set_large_print", "settings_panel", "teacher_controls"]

MAX_NAME = 24  # one length limit for a player's name, every table


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


def seat_names(given: Sequence[str] | None, players: int, n_students: int, *,
               solo: bool) -> list[str]:
    """The seats' names: the given ones (checked by `check_names`), else 'You' (solo) or
    'Player 1'... for the students, then 'Computer 1'...."""
    if given is not None:
        return check_names(given, players)
    people = [_("You")] if solo else [_("Player {n}").format(n=i + 1) for i in range(n_students)]
    return people + [_("Computer {n}").format(n=i + 1) for i in range(players - n_students)]


def parse_bool(value: Any) -> bool:
    """A settings checkbox's value: exactly True or False (a page may send anything)."""
    if value is True or value is False:
        return value
    raise ValueError(_("must be on or off"))


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


def teacher_controls(owner: Any, which: str, *, on_reveal: Callable[[Any], None],
                     on_next: Callable[[], None], on_restart: Callable[[], None],
                     reveal: bool = False, next_style: str = "", own_layout: bool = False,
                     tips: dict[str, str] | None = None) -> None:
    """Make the teacher's controls named in `which` (some of: reveal next restart large) on
    `owner`, the same on every table: `reveal_toggle` ("Show every hand"; `on_reveal(change)`),
    `next_move_button` ("Next move"), `restart_button` ("Restart this deal") and
    `large_print_toggle` ("Large print"; calls `owner._set_large_print`). `tips` gives a
    table's own tooltips by part name (marked with N_, translated here); `own_layout`: the
    switch and the button can be hidden."""
    from widgets.components import make_button, make_toggle

    tip = {"reveal": _("teacher: turn every face-down card up and show the computer players' "
                       "reasons"),
           "next": _("the next computer player makes one move"),
           "restart": _("deal this round again, the same cards, to try other choices"),
           **{part: _(text) for part, text in (tips or {}).items()}}
    parts = which.split()
    if "reveal" in parts:
        owner.reveal_toggle = make_toggle(_("Show every hand"), tip["reveal"], reveal,
                                          own_layout=own_layout)
        owner.reveal_toggle.observe(bound(on_reveal), names="value")
    if "next" in parts:
        owner.next_move_button = make_button(_("Next move"), on_next, tooltip=tip["next"],
                                             button_style=next_style, own_layout=own_layout)
    if "restart" in parts:
        owner.restart_button = make_button(_("Restart this deal"), on_restart,
                                           tooltip=tip["restart"])
    if "large" in parts:
        owner.large_print_toggle = make_toggle(_("Large print"), _("bigger text for a projector"),
                                               bool(getattr(owner, "large_print", False)))
        owner.large_print_toggle.observe(
            bound(lambda ch: owner._set_large_print(ch["new"] is True)), names="value")


Field = tuple[str, str, Any, Callable[[Any], Any]]  # name, label, input widget, parse


def settings_panel(fields: Sequence[Field], on_apply: Callable[[dict[str, Any]], str | None],
                   values: dict[str, Any] | None = None, *, title: str | None = None,
                   apply_label: str | None = None) -> Any:
    """Every table's settings panel, built the same way: one labelled input per field, each
    checked by its `parse` (a bad value is a message and changes nothing), then `on_apply`
    with the parsed values; `values` are shown to start with. Built on first use by the
    tables (about 30 widget models a page would otherwise receive at start-up)."""
    from widgets.components import SettingsPanel

    p = SettingsPanel(_("Settings") if title is None else title,
                      _("Apply and deal") if apply_label is None else apply_label,
                      on_apply=on_apply)
    for name, label, widget, parse in fields:
        p.add_field(name, label, widget, parse)
    if values is not None:
        p.set_values(values)
    return p


class TableShell:
    """The parts of a table widget that every game has, as a mixin for an ipywidgets box.

    The table provides `_children()`, `_build_settings()`, `_rebuild(**changes)`, and the
    attributes `message`, `number_line`, `settings_toggle`, `_settings` (None until built),
    `_settings_values`, `large_print`. Settings are built on first use (about 30 widget models a
    page would otherwise receive at start-up)."""

    _FROM_SESSION: tuple[str, ...] = ()  # names read (and set) on the table, kept in the session

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

    @property
    def settings(self) -> Any:
        """The settings panel, built the first time it is opened (or read)."""
        if self._settings is None:
            with speaking(self.__dict__.get("lang")):
                self._settings = self._build_settings()
            self._settings.set_values(self._settings_values)
            self._settings.layout.display = None if self.settings_toggle.value is True \
                else "none"
            self._layout_children()
        return self._settings

    def _show_settings(self) -> None:
        self.settings.layout.display = None if self.settings_toggle.value is True else "none"

    def _layout_children(self) -> None:
        # the teacher controls exist only in walkthrough mode (a hidden widget still syncs)
        self.children = self._children()

    def _set_large_print(self, on: bool) -> None:
        self.large_print = on
        set_large_print(self, on, self.number_line, self.__dict__.get("large_print_toggle"))

    def _notify(self, text: str | None, kind: str = "info") -> None:
        if text is None:
            self.message.clear()
        else:
            self.message.show(text, kind)

    def _replay_code(self) -> None:
        """Teacher: start a new game from the deal code typed in the teacher's box."""
        from widgets.deal_codes import DealCodeError, parse_deal_code

        if not self.session.walkthrough:
            return
        try:
            code = parse_deal_code(self.code_text.value)
        except DealCodeError as e:
            self.message.show(_("Deal code: {error}").format(error=e), "error")
            return
        if code is None:
            self.message.show(_("Deal code: type a number or a word first."), "error")
            return
        self._rebuild(seed=code, code_typed=True)
        self.message.show(_("New game from deal code {code}.").format(code=format_code(code)),
                          "ok")

    def _build_pass(self) -> None:
        """The pass-the-device screen (lazy: a solo page never needs it)."""
        import ipywidgets as widgets

        from widgets.components import hbox, html_widget, make_button

        self.pass_html = html_widget("")
        self.pass_button = make_button(_("I have the device"), self._take_device,
                                       button_style="primary")
        self.pass_box = widgets.VBox([self.pass_html, hbox([self.pass_button])])
        self.pass_box.add_class("icg-passbox")
        self.pass_box.layout.display = "none"

    def _build_walkthrough(self) -> None:
        """The teacher's box (walkthrough mode only): show every hand, next move, restart,
        large print, a deal-code box and the computer players' reasons."""
        import ipywidgets as widgets

        from widgets.components import hbox, html_widget, make_button

        teacher_controls(self, "reveal next restart large", on_reveal=self._reveal_changed,
                         on_next=self.session.next_move, on_restart=self._restart_deal)
        self.code_text = widgets.Text(description=_("Deal code"), continuous_update=False,
                                      style={"description_width": "initial"})
        self.replay_button = make_button(
            _("Deal this code"), self._replay_code,
            tooltip=_("start a new game from the deal code in the box"))
        self.reasons_html = html_widget("")
        self.last_reason_html = html_widget("")
        # the teacher's bar, at the top of the table: what a walkthrough presses every step
        # and the latest computer move stay on screen with the cards (issue 14 item 2); the
        # deal-code box and the list of reasons come after the table
        self.walk_box = widgets.VBox([
            hbox([html_widget('<div class="icg-title">{}</div>'.format(
                      esc(_("Teacher walkthrough")))),
                  self.reveal_toggle, self.next_move_button, self.restart_button,
                  self.large_print_toggle]),
            self.last_reason_html])
        self.walk_more_box = widgets.VBox([hbox([self.code_text, self.replay_button]),
                                           self.reasons_html])
        self.walk_more_box.add_class("icg-walkthrough-more")
        self.walk_box.add_class("icg-walkthrough")
        if self.session.walkthrough and hasattr(self.session, "deal_code"):
            self.code_text.value = format_code(self.session.deal_code)
        if not self.session.walkthrough:
            self.walk_box.layout.display = "none"
            self.walk_more_box.layout.display = "none"

    def _reveal_changed(self, change: Any = None) -> None:
        self.session.teacher_reveal = self.reveal_toggle.value is True
        self.refresh()


class CardRow:
    """The student's hand as a row of card buttons, kept across moves (a button is made once
    and re-labelled; buttons beyond the hand stay off the page). `buttons` (made on demand),
    `keys` (the card key of each shown button) and `box` (the HBox on the page). A click calls
    `on_click(key)`; a forged click on a disabled button calls `on_refused(key or None)`.

    `show(hand)` takes choices with `key`, `card` (a card view), `reason` (why it cannot be
    played now, None: playable), `short` (the reason for the label; "": the label stays the
    card alone, the reason in the tooltip, so the row keeps its length) and `chosen`."""

    def __init__(self, on_click: Callable[[str], None],
                 on_refused: Callable[[str | None], None]) -> None:
        import ipywidgets as widgets

        from widgets import components as ui

        self.on_click = on_click
        self.on_refused = on_refused
        self.buttons: list[Any] = []
        self.keys: list[str] = []
        self.box = widgets.HBox([], layout=ui.shared_layout(flex_flow="row wrap"))

    def _key(self, i: int) -> str | None:
        return self.keys[i] if 0 <= i < len(self.keys) else None

    def _click(self, i: int) -> None:
        key = self._key(i)
        if key is not None:
            self.on_click(key)

    def show(self, hand: Sequence[Any]) -> None:
        """Label one button per card (a lasting reason on a disabled one)."""
        from widgets import components as ui

        self.keys = [c.key for c in hand]
        for i in range(max(len(hand), len(self.buttons))):
            if i >= len(hand):  # kept for later, off the page (not among the hand's children)
                b = self.buttons[i]
                with b.hold_sync():
                    b.disabled, b.description, b.tooltip = True, "", ""
                continue
            c = hand[i]
            detail = _("cannot be played now, {reason}").format(reason=c.reason) \
                if c.reason else ""
            if c.reason and c.short:
                look: dict[str, Any] = {"reason": c.short, "detail": detail}
            elif c.reason:
                look = {"detail": detail, "disabled": True}
            else:
                look = {"suffix": " " + _("(chosen)") if c.chosen else ""}
            classes = ["icg-fj-pending"] if c.chosen else []
            if i < len(self.buttons):
                ui.update_card_button(self.buttons[i], c.card, classes=classes, **look)
            else:  # a new button is made as it should look (one message, not one per trait)
                b = ui.card_button(c.card, classes=classes, **look)
                b.on_click(bound(lambda _b, i=i: self._click(i)))
                b.refused = lambda i=i: self.on_refused(self._key(i))
                self.buttons.append(b)
        self.box.children = tuple(self.buttons[:len(hand)])
