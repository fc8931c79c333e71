"""Reusable widget pieces for the card tables (core ipywidgets only).

Every control is a real ipywidgets Button (a <button>) whose description is its readable label;
tooltips repeat the card's full name and value. Everything that a page can send back (Text values,
Dropdown choices, numbers) is treated as untrusted: it is parsed and checked here, and a bad
value produces a message, never an exception.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import ipywidgets as widgets
from ipywidgets.widgets.widget_bool import ToggleButtonStyle
from ipywidgets.widgets.widget_string import HTMLStyle, TextStyle

from engine.questions import NumberRefused, parse_number, read_number
from widgets.table import deal_codes
from widgets.table.render import (
    Arrow,
    Point,
    Span,
    esc,
    message_html,
    move_log_html,
    number_line_svg,
)
from widgets.words import HintList, _, bound, card_aria, number_refused_text

log = logging.getLogger(__name__)

CSS_PATH = Path(__file__).with_name("style.css")
# Tests set STRICT = True so that an error in a click handler fails the test; in a page the
# error is logged and the click does nothing (never a traceback in front of a student).
STRICT = False
MINUS = "\u2212"  # the minus sign on the keypad button
PLUS_MINUS = "\u00b1"  # the sign key beside a box for a signed number


# ----- small helpers ---------------------------------------------------------------------------
@lru_cache(maxsize=1)
def load_css() -> str:
    """The rules of widgets/table/style.css, without its comments and extra spaces (about 6 KB
    instead of 10: every page receives them in its widget state, and in a worked example's
    output)."""
    text = re.sub(r"/\*.*?\*/", "", CSS_PATH.read_text(encoding="utf-8"), flags=re.S)
    return re.sub(r"\s*([{};])\s*", r"\1", re.sub(r"\s+", " ", text)).strip()


# ----- shared layout and style models -------------------------------------------------------
# Every ipywidgets DOM widget makes its own Layout model and (Button, HTML) its own Style model
# unless it is given one; each model is one comm_open in the kernel and one entry in the state
# the page fetches. Widgets whose layout or style never changes point to one shared, read-only
# instance instead (ipywidgets renders a model referenced by several widgets in each of them).
class _ReadOnly:
    """Mixin: synced traits cannot be set after __init__ (a change would show in every widget
    sharing the model); a widget whose layout changes later needs a model of its own."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._read_only = True

    def __setattr__(self, name: str, value: Any) -> None:
        if getattr(self, "_read_only", False) and name in self.keys:
            raise AttributeError(f"{type(self).__name__} is shared and read-only (set {name}); "
                                 "give the widget a model of its own")
        super().__setattr__(name, value)


class SharedLayout(_ReadOnly, widgets.Layout):
    """A Layout shared by several widgets (read-only)."""


class SharedButtonStyle(_ReadOnly, widgets.ButtonStyle):
    """A ButtonStyle shared by several buttons (read-only)."""


class SharedHTMLStyle(_ReadOnly, HTMLStyle):
    """An HTMLStyle shared by several HTML widgets (read-only)."""


class SharedToggleButtonStyle(_ReadOnly, ToggleButtonStyle):
    """A ToggleButtonStyle shared by several toggle buttons (read-only)."""


class SharedTextStyle(_ReadOnly, TextStyle):
    """A TextStyle shared by several text boxes (read-only)."""


_SHARED: dict[tuple[Any, ...], widgets.Widget] = {}


def _shared(cls: type, **traits: Any) -> Any:
    """The one open instance of `cls(**traits)` (made again after it was closed)."""
    key = (cls, *sorted(traits.items()))
    w = _SHARED.get(key)
    if w is None or w.comm is None:
        w = _SHARED[key] = cls(**traits)
    return w


def shared_layout(**traits: Any) -> SharedLayout:
    """A read-only Layout shared by every widget that asks for the same traits."""
    return _shared(SharedLayout, **traits)


def shared_button_style() -> SharedButtonStyle:
    """The read-only default ButtonStyle shared by buttons."""
    return _shared(SharedButtonStyle)


def shared_text_style() -> SharedTextStyle:
    """The read-only default TextStyle shared by text boxes."""
    return _shared(SharedTextStyle)


def shared_html_style() -> SharedHTMLStyle:
    """The read-only default HTMLStyle shared by HTML widgets."""
    return _shared(SharedHTMLStyle)


# ----- buttons that refuse what a page may not do ------------------------------------------
# A page can send any message for any widget model it was sent: a click on a disabled button,
# or an update that enables it first ({"disabled": false}) and then a click. Every button of
# the project is a GuardedButton (made by make_button or card_button, or directly), so that one
# guard covers every handler: a disabled button runs none, and the page may change none of a
# button's traits (a button has no value to send).
# Set on a student's page of the live class (widgets.together.live): True refuses a click.
CLICK_GATE: Callable[[Any], bool] | None = None


class GuardedButton(widgets.Button):
    """A Button that runs no handler while it is disabled (a forged click changes nothing),
    nor while the live class's gate refuses clicks on this page (`CLICK_GATE`: paused).
    `refused`, if set, is called instead (to show a message; it must change nothing else)."""

    refused: Callable[[], Any] | None = None

    def click(self) -> None:
        if CLICK_GATE is not None and CLICK_GATE(self):
            return
        if self.disabled:
            log.info("refused a click on the disabled button %r", self.description)
            if self.refused is not None:
                guarded(self.refused)
            return
        super().click()

    def set_state(self, sync_data: dict[str, Any]) -> None:
        """What the page sends to change a trait: refused (logged), the true state sent back."""
        refused = [k for k in sync_data if k in self.keys]
        if refused:
            log.info("refused a page change of %s on the button %r", refused, self.description)
            self.send_state(refused)


# ----- changes a page sends ------------------------------------------------------------------
# A page sends an `update` message to change a widget's traits (a box's value, a choice, a
# slider, a toggle); ipywidgets applies it with the widget's `set_state`, which sets the traits
# and so runs every `observe` handler. On a student's page of the live class
# (widgets.together.live) `UPDATE_GATE(widget, keys)` is asked first: True refuses the change
# (paused), and then nothing is set, no handler runs, and the page is sent the widget's true
# state back.
UPDATE_GATE: Callable[[Any, list[str]], bool] | None = None
_set_state: Callable[[Any, dict[str, Any]], None] | None = None


def gate_page_updates() -> None:
    """Make every widget's `set_state` (what an `update` message from the page runs) consult
    `UPDATE_GATE` first. Done once per kernel; nothing changes while `UPDATE_GATE` is None."""
    global _set_state
    if _set_state is not None:
        return
    original = widgets.Widget.set_state

    def set_state(self: widgets.Widget, sync_data: dict[str, Any]) -> None:
        gate = UPDATE_GATE
        if gate is not None and isinstance(sync_data, dict):
            keys = [k for k in sync_data if k in self.keys]
            if keys and gate(self, keys):
                if self.comm is not None:
                    self.send_state(keys)  # the page shows the kernel's values again
                return
        original(self, sync_data)

    set_state.__doc__ = original.__doc__
    _set_state = original
    widgets.Widget.set_state = set_state


def make_toggle(description: str, tooltip: str, value: bool = False, *,
                own_layout: bool = False) -> widgets.ToggleButton:
    """An on/off switch (a <button> with aria-pressed); shared Layout (width auto, unless
    `own_layout`: to hide it later) and shared style."""
    layout = widgets.Layout(width="auto") if own_layout else shared_layout(width="auto")
    return widgets.ToggleButton(value=value, description=description, tooltip=tooltip,
                                layout=layout, style=_shared(SharedToggleButtonStyle))


def hbox(children: Sequence[widgets.Widget]) -> widgets.HBox:
    """An HBox whose layout never changes (shares one Layout model)."""
    return widgets.HBox(list(children), layout=shared_layout())


def vbox(children: Sequence[widgets.Widget]) -> widgets.VBox:
    """A VBox whose layout never changes (shares one Layout model)."""
    return widgets.VBox(list(children), layout=shared_layout())


def hidden_box(children: Sequence[widgets.Widget], classes: Iterable[str] = (),
               **layout: Any) -> widgets.VBox:
    """A VBox made hidden, with a Layout of its own (`layout`'s traits) to show it later: the
    shape of a table's part made on first use (its view shows it)."""
    return widgets.VBox(list(children), layout=widgets.Layout(display="none", **layout),
                        _dom_classes=tuple(classes))


def shown_layout(on: bool) -> widgets.Layout:
    """A Layout of its own (width auto), shown or hidden (`on`): for a widget hidden later."""
    return widgets.Layout(width="auto", display=None if on else "none")


# A view applied to its widgets: (widget, value) pairs, each set as it is (an unchanged trait
# sends nothing to the page).
def set_values(pairs: Iterable[tuple[widgets.Widget, Any]]) -> None:
    """Each widget's `value`."""
    for w, value in pairs:
        w.value = value


def set_enabled(pairs: Iterable[tuple[widgets.Widget, bool]]) -> None:
    """Each control enabled (True) or disabled (False)."""
    for w, on in pairs:
        w.disabled = not on


def set_shown(pairs: Iterable[tuple[widgets.Widget, bool]]) -> None:
    """Each widget shown (True) or hidden (False), through its own layout."""
    for w, on in pairs:
        w.layout.display = None if on else "none"


class SharedHTML(_ReadOnly, widgets.HTML):
    """An HTML widget shown in several places with one model (read-only)."""


def style_widget() -> widgets.HTML:
    """The HTML widget holding the one stylesheet in a <style> element (put it in every table).

    One model per kernel, shown by every table, ticket and practice of the page: the
    stylesheet (about 10 KB) is sent to the page once, not once per widget that needs it."""
    return _shared(SharedHTML, value=f"<style>{load_css()}</style>",
                   _dom_classes=("icg-style",), layout=shared_layout(),
                   style=shared_html_style())


def html_widget(value: str = "", classes: Iterable[str] = ()) -> widgets.HTML:
    """An HTML widget with css classes (shared Layout and Style: never change them)."""
    # classes given at creation, not added after: each change after creation is one more
    # message to the page while it loads
    return widgets.HTML(value, layout=shared_layout(), style=shared_html_style(),
                        _dom_classes=tuple(classes))


def make_button(
    description: str,
    on_click: Callable[[], Any] | None = None,
    *,
    tooltip: str = "",
    disabled: bool = False,
    classes: Iterable[str] = (),
    button_style: str = "",
    width: str = "auto",
    own_layout: bool = False,
    layout: widgets.Layout | None = None,
) -> widgets.Button:
    """A Button whose handler takes no arguments; the description is its screen-reader label.
    It runs no handler while disabled (GuardedButton), whatever the page sends.

    The Layout (width) is shared with other buttons of that width unless `own_layout` (needed
    when the button is hidden or resized later) or a `layout` is given (e.g. one for two
    buttons that are always hidden together); the ButtonStyle is always shared.
    """
    if layout is None:
        layout = widgets.Layout(width=width) if own_layout else shared_layout(width=width)
    b = GuardedButton(description=description, tooltip=tooltip or description, disabled=disabled,
                      button_style=button_style, layout=layout, style=shared_button_style(),
                      _dom_classes=tuple(classes))
    if on_click is not None:
        fn = bound(on_click)  # in the language of the widget that made it
        b.on_click(lambda _b: guarded(fn))
    return b


def guarded(fn: Callable[..., Any], *args: Any) -> Any:
    """Run a handler; log (or, in tests, raise) any error instead of showing a traceback."""
    try:
        return fn(*args)
    except Exception:
        if STRICT:
            raise
        log.exception("handler %s failed", getattr(fn, "__name__", fn))
        return None


def check_on_enter(box: widgets.Text, button: widgets.Button) -> None:
    """Enter in `box` presses `button`, while it may be pressed: the page sends the box's value
    first, then ipywidgets' "submit" message (the classroom template's static/play-focus.js,
    which also moves the focus to the result or the next step). The press is a click on the
    button (GuardedButton): a page can send the message at any time, and the kernel refuses it
    as it refuses a click (switched off, or the live class's gate: paused)."""
    def submitted(_box: Any, content: Any, _buffers: Any = None) -> None:
        if isinstance(content, dict) and content.get("event") == "submit" \
                and not button.disabled and not box.disabled:
            button.click()

    box.on_msg(submitted)


def card_label(card: dict[str, Any]) -> str:
    """Short text for a card button: 'J♠ +10'."""
    return f"{card['label']}{card['symbol']} {card['value_text']}"


def card_button(
    card: dict[str, Any],
    on_click: Callable[[dict[str, Any]], Any] | None = None,
    *,
    disabled: bool = False,
    reason: str = "",
    detail: str = "",
    prefix: str = "",
    suffix: str = "",
    classes: Iterable[str] = (),
) -> widgets.Button:
    """A face-up card as a button: description 'J♠ +10', tooltip 'jack of spades, value
    positive 10'.

    `reason` (why it is disabled) is added to the description and tooltip so that a screen reader
    and a colour-blind player both get it (see `card_button_state`). The button is made as it
    looks, with the shared layout and style. `on_click` receives the card dict.
    """
    state = card_button_state(card, reason=reason, detail=detail, prefix=prefix, suffix=suffix,
                              classes=classes)
    state["disabled"] = disabled or state["disabled"]
    b = GuardedButton(layout=shared_layout(width="auto"), style=shared_button_style(), **state)
    if on_click is not None:
        fn = bound(on_click)
        b.on_click(lambda _b: guarded(fn, card))
    return b


COLOR_CLASSES = ("icg-red", "icg-black")


def card_button_state(card: dict[str, Any], *, reason: str = "", detail: str = "",
                      prefix: str = "", suffix: str = "", classes: Iterable[str] = (),
                      disabled: bool = False) -> dict[str, Any]:
    """The traits of a button showing `card`: description 'J♠ +10' + suffix, then ' (reason)';
    tooltip the card's aria text, then ': detail' (or the reason); disabled when a reason is
    given; css classes icg-card-btn, the card's colour and `classes`. A new button is made with
    them (one message to the page instead of one per trait)."""
    text = f"{prefix}{card_label(card)}{suffix}"
    tip = card_aria(card)
    if reason:
        text = f"{text} ({reason})"
        tip = f"{tip}: {detail or reason}"
    elif detail:  # disabled for a reason of the moment: said in the tooltip, not the label
        tip = f"{tip}: {detail}"
    color = f"icg-{card.get('color')}"
    return {"description": text, "tooltip": tip, "disabled": bool(reason) or disabled,
            "_dom_classes": ("icg-card-btn", *([color] if color in COLOR_CLASSES else []),
                             *classes)}


def update_card_button(button: widgets.Button, card: dict[str, Any], *, reason: str = "",
                       detail: str = "", prefix: str = "", suffix: str = "",
                       classes: Iterable[str] = (), disabled: bool = False) -> None:
    """Show `card` on an existing card button, in place (a hand that changes every move keeps
    its buttons, so no new widget is sent to the page), as `card_button_state` describes; the
    changes go to the page as one message."""
    state = card_button_state(card, reason=reason, detail=detail, prefix=prefix, suffix=suffix,
                              classes=classes, disabled=disabled)
    with button.hold_sync():  # unchanged traits send nothing
        for name, value in state.items():
            setattr(button, name, value)


class MessageArea(widgets.HTML):
    """A one-line status area (role=status, or alert for errors)."""

    def __init__(self, value: str = "", **kwargs: Any) -> None:
        kwargs.setdefault("layout", shared_layout())
        kwargs.setdefault("style", shared_html_style())
        super().__init__(value, **kwargs)

    def show(self, text: str, kind: str = "info") -> None:
        self.value = message_html(text, kind)

    def clear(self) -> None:
        self.value = ""

    @property
    def text(self) -> str:
        return re.sub(r"<[^>]+>", "", self.value)


# ----- move log ----------------------------------------------------------------------------------
class MoveLog(widgets.HTML):
    """The move log: lines of equations, newest first, in a copyable <pre>. One HTML model
    (`html` is the widget itself, for the callers that read `log.html.value`)."""

    def __init__(self, title: str | None = None, limit: int | None = None,
                 lines: Sequence[str] = ()) -> None:
        title = title or _("Move log")
        super().__init__(move_log_html(list(lines), title=title, limit=limit),
                         layout=shared_layout(), style=shared_html_style(),
                         _dom_classes=("icg-movelog",))
        self.title = title
        self.limit = limit
        self.lines: list[str] = list(lines)

    @property
    def html(self) -> widgets.HTML:
        return self

    def set_lines(self, lines: Sequence[str]) -> None:
        """Replace the log (oldest first in `lines`; shown newest first)."""
        self.lines = list(lines)
        self.value = move_log_html(self.lines, title=self.title, limit=self.limit)

    def text(self) -> str:
        """The log as plain text, newest first (what a teacher copies)."""
        return "\n".join(reversed(self.lines))


# ----- number line ------------------------------------------------------------------------
class NumberLine(widgets.HTML):
    """A number line widget (inline SVG + a text caption), one HTML model (`html` is the
    widget itself, for the callers that read `line.html.value`). `show` arguments given to
    the constructor draw the first picture (no second message to the page)."""

    #: drawing width in SVG units; the SVG is scaled to the page, so a narrower drawing has
    #: larger labels on screen (large print), laid out without overlaps all the same
    WIDTH, LARGE_WIDTH = 640, 440

    def __init__(self, title: str | None = None, large: bool = False, **show: Any) -> None:
        title = title or _("Number line")
        args = self._show_args(**show)
        super().__init__(self._draw(title, bool(large), args), layout=shared_layout(),
                         style=shared_html_style(), _dom_classes=("icg-numberline-box",))
        self.title = title
        self.large = bool(large)
        self._args = args

    @property
    def html(self) -> widgets.HTML:
        return self

    @staticmethod
    def _show_args(points: Sequence[Point] = (), arrow: Arrow | None = None,
                   spans: Sequence[Span] = (), marks: Sequence[int] = (),
                   limits: tuple[int, int] | None = None, lo: int | None = None,
                   hi: int | None = None) -> tuple[Any, ...]:
        return (points, arrow, spans, marks, limits, lo, hi)

    def _draw(self, title: str, large: bool, args: tuple[Any, ...]) -> str:
        return number_line_svg(*args, title=title,
                               width=self.LARGE_WIDTH if large else self.WIDTH)

    def set_large(self, on: bool) -> None:
        """Large print: draw the same line with labels about 1.5 times larger on screen."""
        self.large = bool(on)
        self.show(*self._args)

    def show(
        self,
        points: Sequence[Point] = (),
        arrow: Arrow | None = None,
        spans: Sequence[Span] = (),
        marks: Sequence[int] = (),
        limits: tuple[int, int] | None = None,
        lo: int | None = None,
        hi: int | None = None,
    ) -> None:
        self._args = (points, arrow, spans, marks, limits, lo, hi)
        self.value = self._draw(self.title, self.large, self._args)


class ButtonRow:
    """A row of buttons for a list of choices, kept across refreshes: a button is made once, as
    its first choice shows it, and relabelled in place after that; buttons beyond the choices
    stay off the page. `show(choices, active)` takes choices with `description` and `tooltip`
    (all enabled while `active`); a click on a button calls `on_click(choice)` with the
    choice it shows now. `box` is the HBox on the page, `buttons` the buttons made."""

    def __init__(self, on_click: Callable[[Any], Any], classes: Iterable[str] = ()) -> None:
        self.on_click = on_click
        self.buttons: list[widgets.Button] = []
        self.choices: list[Any] = []
        self.box = widgets.HBox([], layout=shared_layout(), _dom_classes=tuple(classes))

    def _click(self, i: int) -> None:
        if 0 <= i < len(self.choices):
            self.on_click(self.choices[i])

    def show(self, choices: Sequence[Any], active: bool) -> None:
        self.choices = list(choices)
        for i, c in enumerate(self.choices):
            if i < len(self.buttons):
                b = self.buttons[i]
                b.description, b.tooltip, b.disabled = c.description, c.tooltip, not active
            else:
                self.buttons.append(make_button(c.description, lambda i=i: self._click(i),
                                                tooltip=c.tooltip, disabled=not active))
        self.box.children = tuple(self.buttons[:len(self.choices)])


# ----- settings --------------------------------------------------------------------------------
class SettingError(ValueError):
    """A settings field holds a value that is not allowed (message names the allowed values)."""


def parse_choice(value: Any, allowed: Sequence[Any], setting: str) -> Any:
    """Accept only one of `allowed` (what a Dropdown/ToggleButtons offers)."""
    if value in allowed:
        return value
    raise SettingError(_("{setting} must be one of {choices}").format(
        setting=setting, choices=", ".join(str(a) for a in allowed)))


def parse_int_setting(value: Any, setting: str, low: int, high: int) -> int:
    """A whole number low..high from a widget value (int, or digits as text)."""
    if isinstance(value, bool):
        raise SettingError(_("{setting} must be a whole number from {low} to {high}").format(
            setting=setting, low=low, high=high))
    if isinstance(value, str) and re.fullmatch(r"\s*[+-]?\d{1,6}\s*", value):
        value = int(value)
    if not isinstance(value, int) or not low <= value <= high:
        got = repr(value)[:40]
        raise SettingError(_("{setting} must be a whole number from {low} to {high}; got {got}"
                             ).format(setting=setting, low=low, high=high, got=got))
    return value


def parse_deal_code(value: Any) -> int | str | None:
    """A deal code (widgets/table/deal_codes.py: the one format both tables read): empty (a fresh
    shuffle), a whole number, a word of up to 40 letters/digits/-/_, or a long code."""
    try:
        return deal_codes.parse_deal_code(value)
    except deal_codes.DealCodeError as e:
        raise SettingError(str(e)) from None


class SettingsPanel(widgets.VBox):
    """A settings form: fields, an Apply button and a message area.

    Add fields with `add_field(name, label, widget, parse)`; `parse(widget.value)` returns the
    checked value or raises ValueError (SettingError, engine ConfigError) with a message. On Apply
    every field is parsed; any error is shown in the message area and nothing changes; otherwise
    `on_apply(values)` runs (it may return an error message, or raise ValueError, also shown).
    A value that is invalid when it arrives (a forged one) gets a message at once too.
    """

    def __init__(self, title: str | None = None, apply_label: str | None = None,
                 on_apply: Callable[[dict[str, Any]], str | None] | None = None) -> None:
        title = title or _("Settings")
        apply_label = apply_label or _("Apply and deal")
        self.fields: dict[str, tuple[widgets.Widget, Callable[[Any], Any]]] = {}
        self.on_apply = on_apply
        self.title_html = html_widget(f'<div class="icg-title">{title}</div>')
        self.rows = vbox([])
        self.apply_button = make_button(
            apply_label, self.apply,
            tooltip=_("{label}: use these settings").format(label=apply_label))
        self.message = MessageArea()
        super().__init__([self.title_html, self.rows, self.apply_button, self.message],
                         _dom_classes=("icg-settings",))

    def add_field(self, name: str, label: str, widget: widgets.Widget,
                  parse: Callable[[Any], Any]) -> widgets.Widget:
        """Add one labelled input; `parse` checks its value."""
        self.fields[name] = (widget, parse)
        if isinstance(widget, widgets.Text):
            widget.continuous_update = False  # sent on leaving the box, before Apply's click
        if hasattr(widget, "description") and not isinstance(widget, widgets.Checkbox):
            widget.description = label
            widget.style.description_width = "initial"
        elif isinstance(widget, widgets.Checkbox):
            widget.description = label
            widget.indent = False
        widget.observe(bound(lambda ch, n=name: self._check_one(n)), names="value")
        self.rows.children = (*self.rows.children, widget)
        return widget

    def _check_one(self, name: str) -> None:
        widget, parse = self.fields[name]
        try:
            parse(widget.value)
        except Exception as e:  # noqa: BLE001 - any bad value becomes a message
            self.message.show(_("{field}: {error}").format(field=_field_label(widget, name),
                                                           error=e), "error")
        else:
            if "icg-msg-error" in self.message.value:
                self.message.clear()

    def values(self) -> dict[str, Any]:
        """Every field parsed; raises SettingError naming the first bad field."""
        out = {}
        for name, (widget, parse) in self.fields.items():
            try:
                out[name] = parse(widget.value)
            except Exception as e:  # noqa: BLE001
                raise SettingError(_("{field}: {error}").format(
                    field=_field_label(widget, name), error=e)) from e
        return out

    def set_values(self, values: dict[str, Any]) -> None:
        """Show these values in the fields (no checks; used to reflect the game's settings)."""
        for name, v in values.items():
            if name in self.fields:
                try:
                    self.fields[name][0].value = v
                except Exception as e:  # noqa: BLE001
                    log.debug("cannot show %s=%r: %s", name, v, e)

    def apply(self) -> bool:
        """Check every field and, if all are good, hand them to on_apply. True on success."""
        try:
            vals = self.values()
            err = self.on_apply(vals) if self.on_apply else None
        except Exception as e:  # noqa: BLE001 - never a traceback in the page
            self.message.show(str(e)[:300] or _("that setting was refused"), "error")
            return False
        if err:
            self.message.show(err, "error")
            return False
        self.message.show(_("Settings applied: a new deal."), "ok")
        return True


def _field_label(widget: widgets.Widget, name: str) -> str:
    return getattr(widget, "description", "") or name


# ----- answer entry with keypad -------------------------------------------------------------------


def parse_int_answer(text: Any) -> int | None:
    """A typed whole number ('-7', '\u22127', '+7', ' 7 '; engine.questions.parse_number);
    None if it is not one."""
    return read_number(text)


class AnswerEntry(widgets.VBox):
    """Typed answers with an on-screen keypad (digits, a minus key, delete, clear) and Check.

    `fields` is a sequence of (name, label). With several fields a "Type into" toggle chooses
    which box the keypad writes to. Check calls `on_check(answers)` where answers maps each name
    to an int or None (not a whole number). The owner shows feedback with `feedback()` and can
    offer "Show me" with `offer_show_me(True)`, whose click calls `on_show_me()`.

    A box for a number that may be negative has a "± Sign" button right after it (`sign_keys`):
    a phone's number pad (inputmode="numeric", set by the page) has no minus key. The boxes
    named in `unsigned` (never negative, as |sum|) have none.
    """

    def __init__(
        self,
        fields: Sequence[tuple[str, str]],
        on_check: Callable[[dict[str, int | None]], Any] | None = None,
        on_show_me: Callable[[], Any] | None = None,
        prompt: str = "",
        check_label: str | None = None,
        placeholders: dict[str, str] | None = None,
        unsigned: Sequence[str] = (),
    ) -> None:
        check_label = check_label or _("Check my answer")
        self.on_check = on_check
        self.on_show_me = on_show_me
        self.prompt = html_widget(prompt)
        self.boxes: dict[str, widgets.Text] = {}
        self.sign_keys: dict[str, widgets.Button] = {}
        rows = []
        for name, label in fields:
            # continuous_update=False: the value goes to the kernel once, when the box loses
            # focus (a click on Check) or on Enter, not one message per keystroke; ipywidgets
            # holds keystroke updates back while one is in flight, and under load a Check
            # click overtook the last digits ("-" checked instead of "-12").
            t = widgets.Text(value="", description=label,
                             placeholder=(placeholders or {}).get(name, _("e.g. -7")),
                             style={"description_width": "initial"},
                             layout=shared_layout(width="auto"), continuous_update=False)
            self.boxes[name] = t
            # Enter in a box checks (the page sends the value first: the classroom template's
            # static/play-focus.js)
            t.on_msg(bound(self._submitted))
            # Text has no focus event: the keypad follows the box whose value last reached
            # the kernel (a box sends it when it loses focus, as on a tap on the keypad)
            t.observe(bound(lambda ch, name=name: self._follow(name)), names="value")
            if name in unsigned:
                rows.append(t)
                continue
            # a tap on the key takes the focus from the box, which sends its value first
            self.sign_keys[name] = make_button(
                f"{PLUS_MINUS} " + _("Sign"), lambda name=name: self._edit(name, "-"),
                tooltip=_("make {label} negative, or positive again").format(label=label),
                classes=("icg-sign-key",))
            rows.append(hbox([t, self.sign_keys[name]]))
        self.names = [n for n, _l in fields]
        self.labels = dict(fields)
        self.target = widgets.ToggleButtons(
            options=[(label, name) for name, label in fields], value=self.names[0],
            description=_("Keypad types into:"),
            style={"description_width": "initial", "button_width": "auto"},
            tooltips=[_("the keypad types into {label}").format(label=label)
                      for _n, label in fields])
        self.target.layout.display = None if len(fields) > 1 else "none"
        keys = [make_button(str(d), lambda d=d: self.press(str(d)),
                            tooltip=_("type {digit}").format(digit=d),
                            width="3em") for d in range(10)]
        self.minus_key = make_button(
            MINUS, lambda: self.press("-"),
            tooltip=_("minus sign: make the number negative (or positive again)"), width="3em")
        self.delete_key = make_button("\u232b " + _("Delete"), lambda: self.press("del"),
                                      tooltip=_("delete the last character"))
        self.clear_key = make_button(_("Clear"), lambda: self.press("clear"),
                                     tooltip=_("clear the box"))
        self.keypad = widgets.VBox([
            hbox(keys[1:6]),
            hbox([*keys[6:], keys[0]]),
            hbox([self.minus_key, self.delete_key, self.clear_key]),
        ], layout=shared_layout())
        self.keypad.add_class("icg-keypad")
        self.check_button = make_button(check_label, self.check, button_style="primary",
                                        tooltip=_("check what you typed"))
        self.show_me_button = make_button(_("Show me"), self._show_me,
                                          tooltip=_("show the answer with the arithmetic"),
                                          own_layout=True)
        self.show_me_button.layout.display = "none"
        self.feedback_html = MessageArea()
        # Check right after the boxes (and its feedback), the keypad after it: from a box,
        # one Tab reaches Check
        super().__init__([self.prompt, *rows, hbox([self.check_button, self.show_me_button]),
                          self.feedback_html, self.target, self.keypad],
                         _dom_classes=("icg-answer",))

    def _submitted(self, _box: Any, content: Any, _buffers: Any = None) -> None:
        """Enter in a box: Check, while Check may be pressed (a page sends any message)."""
        if isinstance(content, dict) and content.get("event") == "submit" \
                and not self.check_button.disabled:
            self.check_button.click()  # as a click: the live class's gate is asked too

    def press(self, key: str) -> None:
        """What a keypad button does to the chosen box."""
        self._edit(self.target.value if self.target.value in self.boxes else self.names[0], key)

    def _edit(self, name: str, key: str) -> None:
        """A key pressed for the box `name`: a digit, "-" (the sign), "del" or "clear"."""
        box = self.boxes[name]
        text = box.value if isinstance(box.value, str) and len(box.value) <= 12 else ""
        if key == "clear":
            text = ""
        elif key == "del":
            text = text[:-1]
        elif key == "-":
            text = text[1:] if text.startswith(("-", MINUS)) else "-" + text.lstrip("+")
        elif key.isdigit() and len(text) < 6:
            text += key
        box.value = text

    def _follow(self, name: str) -> None:
        if len(self.boxes) > 1 and self.boxes[name].value and self.target.value != name:
            self.target.value = name

    def answers(self) -> dict[str, int | None]:
        return {n: parse_int_answer(b.value) for n, b in self.boxes.items()}

    def refused(self) -> str | None:
        """Why a box's typed text is not a whole number ("5-", "--5", "five"), naming the
        box; None when every box holds a number or nothing."""
        for name, box in self.boxes.items():
            text = box.value
            if not isinstance(text, str) or not text.strip():
                continue
            try:
                parse_number(text)
            except NumberRefused as e:
                return _("{label}: {reason}").format(label=self.labels[name],
                                                     reason=number_refused_text(e.code))
        return None

    def check(self) -> None:
        """Check: a text that is not a number is told why (not checked, not counted as a
        miss); otherwise `on_check` gets the numbers (None for an empty box)."""
        why = self.refused()
        if why is not None:
            self.feedback(why, "error")
            return
        if self.on_check is not None:
            self.on_check(self.answers())

    def _show_me(self) -> None:
        if self.on_show_me is not None:
            self.on_show_me()

    def feedback(self, text: str, kind: str = "info") -> None:
        self.feedback_html.show(text, kind)

    def offer_show_me(self, on: bool) -> None:
        self.show_me_button.layout.display = None if on else "none"
        self.show_me_button.disabled = not on

    def reset(self, prompt: str | None = None) -> None:
        """Empty boxes, no feedback, no Show me; enable Check."""
        for b in self.boxes.values():
            b.value = ""
        if prompt is not None:
            self.prompt.value = prompt
        self.feedback_html.clear()
        self.offer_show_me(False)
        self.check_button.disabled = False
        self.target.value = self.names[0]

    def lock(self) -> None:
        """Disable Check and the keypad (after the answer is settled)."""
        self.check_button.disabled = True
        self.offer_show_me(False)


# ----- hint ---------------------------------------------------------------------------------
def hint_html(lines: str | Sequence[Any]) -> str:
    """A hint, one sentence a line (a paragraph of numbers is hard to read at 12). `lines` come
    from widgets/words/ (a str, or a words.HintList shown as a list when it has three or more
    items); no text is split here, so a hint reads the same in every language."""
    if isinstance(lines, (str, HintList)):
        lines = [lines]
    lines = [x for x in lines if str(x)]
    if len(lines) == 1 and not _is_list(lines[0]):
        body = esc(str(lines[0]))
    else:
        body = "<ul>" + " ".join(f"<li>{_hint_line(x)}</li>" for x in lines) + "</ul>"
    return f'<div class="icg-msg icg-msg-info icg-hint" role="status">{body}</div>'


def _is_list(line: Any) -> bool:
    return isinstance(line, HintList) and len(line.items) >= 3


def _hint_line(line: Any) -> str:
    """A HintList of three or more items as its head and a list; anything else as text."""
    if not _is_list(line):
        return esc(str(line))
    n = len(line.items)
    lis = " ".join(f"<li>{esc(x)}{';' if i < n - 1 else esc(line.end)}</li>"
                   for i, x in enumerate(line.items))
    return f"{esc(line.head)}: <ul>{lis}</ul>"


class HintBox(widgets.VBox):
    """A Hint button and the hint text. `provider()` returns the hint (from an observation)."""

    def __init__(self, provider: Callable[[], str | Sequence[Any]] | None = None,
                 label: str | None = None, *, disabled: bool = False,
                 layout: widgets.Layout | None = None) -> None:
        self.provider = provider
        self.button = make_button(label or _("Hint"), self.show, disabled=disabled,
                                  tooltip=_("explain what each choice does"))
        # the button straight in the box (style.css keeps it at its own width), the hint's
        # text made with the first hint: two models fewer at load
        super().__init__([self.button], _dom_classes=("icg-hintbox",),
                         **({"layout": layout} if layout is not None else {}))

    @property
    def html(self) -> widgets.HTML:
        """The hint's text (made, below the button, when first needed)."""
        if "_text" not in self.__dict__:
            self._text = html_widget("")
            self.children = (self.button, self._text)
        return self._text

    def show(self) -> None:
        try:
            text = self.provider() if self.provider else ""
        except Exception as e:  # noqa: BLE001 - a hint must never break the table
            log.warning("hint failed: %s", e)
            text = _("No hint is available right now.")
        self.html.value = hint_html(text or _("No hint is available right now."))

    def clear(self) -> None:
        if "_text" in self.__dict__:
            self.html.value = ""

    def refresh(self) -> None:
        """A hint on screen shown again as it reads now (after a peek it stops asking for
        one); none shown: nothing."""
        if "_text" in self.__dict__ and self.html.value:
            self.show()
