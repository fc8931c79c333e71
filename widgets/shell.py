"""What every card table shares, once: seat-name policy, computer-player specs, the deal-code
format, large print, the lazily built settings panel and the teacher box toggle.

Hit Me (widgets/hit_me/table.py) uses all of it; the Flapjack table can adopt it piece by piece.
No ipywidgets import at module level for the policies (sessions use them without widgets).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.errors import ConfigError
from widgets.deal_codes import format_code, new_secret_seed  # the one deal-code format

__all__ = ["MAX_NAME", "check_opponent_specs", "format_code", "new_secret_seed", "seat_names",
           "set_large_print", "bot_name"]

MAX_NAME = 24  # one length limit for a player's name, every table


def seat_names(given: Sequence[str] | None, players: int, n_students: int, *,
               solo: bool) -> list[str]:
    """The seats' names: the given ones (checked: `players` names of 1 to MAX_NAME characters,
    stripped), else 'You' (solo) or 'Player 1'... for the students, then 'Computer 1'...."""
    if given is not None:
        if len(given) != players or not all(isinstance(n, str) and 0 < len(n.strip())
                                            <= MAX_NAME for n in given):
            raise ConfigError(f"names: give {players} names of 1 to {MAX_NAME} characters")
        return [n.strip() for n in given]
    people = ["You"] if solo else [f"Player {i + 1}" for i in range(n_students)]
    return people + [f"Computer {i + 1}" for i in range(players - n_students)]


def parse_bool(value: Any) -> bool:
    """A settings checkbox's value: exactly True or False (a page may send anything)."""
    if value is True or value is False:
        return value
    raise ValueError("must be on or off")


def bot_name(name: str) -> str:
    """'Computer 1', or 'Ben (computer)' when a given name does not say so."""
    return name if "computer" in name.lower() else f"{name} (computer)"


def check_opponent_specs(opponents: Any, n: int, game: str) -> list[Any]:
    """One spec per computer seat (a level, a bot spec or an object with `choose`), each checked
    now so that a bad one is refused (ConfigError) before anything changes."""
    if isinstance(opponents, list | tuple):
        if len(opponents) != n:
            raise ConfigError(f"opponents: give one level or {n} specs; got {len(opponents)}")
        specs = list(opponents)
    else:
        specs = [opponents] * n
    from engine.bots import make_bot

    for s in specs:
        if not hasattr(s, "choose"):
            try:
                make_bot(str(s), game, 0)
            except Exception as e:  # noqa: BLE001
                raise ConfigError(f"opponents: {e}") from e
    return specs


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


class TableShell:
    """The parts of a table widget that every game has, as a mixin for an ipywidgets box.

    The table provides `_children()`, `_build_settings()`, `_rebuild(**changes)`, and the
    attributes `message`, `number_line`, `settings_toggle`, `_settings` (None until built),
    `_settings_values`, `large_print`. Settings are built on first use (about 30 widget models a
    page would otherwise receive at start-up)."""

    _FROM_SESSION: tuple[str, ...] = ()  # names read (and set) on the table, kept in the session

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
            self.message.show(f"Deal code: {e}", "error")
            return
        if code is None:
            self.message.show("Deal code: type a number or a word first.", "error")
            return
        self._rebuild(seed=code, code_typed=True)
        self.message.show(f"New game from deal code {format_code(code)}.", "ok")

    def _build_pass(self) -> None:
        """The pass-the-device screen (lazy: a solo page never needs it)."""
        import ipywidgets as widgets

        from widgets.components import hbox, html_widget, make_button

        self.pass_html = html_widget("")
        self.pass_button = make_button("I have the device", self._take_device,
                                       button_style="primary")
        self.pass_box = widgets.VBox([self.pass_html, hbox([self.pass_button])])
        self.pass_box.add_class("icg-passbox")
        self.pass_box.layout.display = "none"

    def _build_walkthrough(self) -> None:
        """The teacher's box (walkthrough mode only): show every hand, next move, restart,
        large print, a deal-code box and the computer players' reasons."""
        import ipywidgets as widgets

        from widgets.components import hbox, html_widget, make_button, make_toggle

        self.reveal_toggle = make_toggle(
            "Show every hand",
            "teacher: turn every face-down card up and show the computer players' reasons")
        self.reveal_toggle.observe(self._reveal_changed, names="value")
        self.next_move_button = make_button("Next move", self.session.next_move,
                                            tooltip="the next computer player makes one move")
        self.code_text = widgets.Text(description="Deal code", continuous_update=False,
                                      style={"description_width": "initial"})
        self.replay_button = make_button("Deal this code", self._replay_code,
                                         tooltip="start a new game from the deal code in the box")
        self.restart_button = make_button("Restart this deal", self._restart_deal,
                                          tooltip="deal this round again, the same cards, "
                                          "to try other choices")
        self.large_print_toggle = make_toggle("Large print", "bigger text for a projector",
                                              self.large_print)
        self.large_print_toggle.observe(
            lambda ch: self._set_large_print(self.large_print_toggle.value is True), names="value")
        self.reasons_html = html_widget("")
        self.walk_box = widgets.VBox([
            html_widget('<div class="icg-title">Teacher walkthrough</div>'),
            hbox([self.reveal_toggle, self.next_move_button, self.restart_button,
                  self.large_print_toggle]),
            hbox([self.code_text, self.replay_button]), self.reasons_html])
        self.walk_box.add_class("icg-walkthrough")
        if self.session.walkthrough and hasattr(self.session, "deal_code"):
            self.code_text.value = format_code(self.session.deal_code)
        if not self.session.walkthrough:
            self.walk_box.layout.display = "none"

    def _reveal_changed(self, change: Any = None) -> None:
        self.session.teacher_reveal = self.reveal_toggle.value is True
        self.refresh()
