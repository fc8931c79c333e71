"""The Hit Me table's settings panel (made on first use by the table; checked by the panel,
applied by the session), through the settings builder every table shares
(widgets/table/shell.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from widgets.hit_me import session as hs
from widgets.page.in_browser import NUMPY
from widgets.table.components import SettingsPanel, parse_choice, parse_deal_code, parse_int_setting
from widgets.table.shell import parse_bool
from widgets.table.shell import settings_panel as shell_settings_panel
from widgets.words import _, level_name, setting_options


def offered_levels(numpy: bool | None = None) -> tuple[str, ...]:
    """The computer players a student may choose: not the hard one (the expert computes with
    numpy) in a kernel without numpy (the static site's, in the browser)."""
    if numpy is None:
        numpy = NUMPY
    return hs.LEVELS if numpy else tuple(lv for lv in hs.LEVELS if lv != "hard")


def settings_panel(session: hs.HitMeSession,
                   on_apply: Callable[[dict[str, Any]], str | None]) -> SettingsPanel:
    """The panel with one field per setting of `new_game`, showing the session's settings."""
    colors = setting_options(hs.SETTINGS, "colors")
    turns = setting_options(hs.SETTINGS, "turn_order")
    return shell_settings_panel([
        ("players", _("Players ({low} to {high})").format(low=hs.SETTINGS.players[0],
                                                          high=hs.MAX_PLAYERS),
         widgets.IntText(value=hs.SETTINGS.defaults["players"]),
         lambda v: parse_int_setting(v, _("players"), 2, hs.MAX_PLAYERS)),
        ("colors", _("Colours"), widgets.Dropdown(options=colors),
         lambda v: parse_choice(v, [c for _t, c in colors], _("colours"))),
        ("turn_order", _("Turn order"), widgets.Dropdown(options=turns),
         lambda v: parse_choice(v, [t for _t, t in turns], _("turn order"))),
        ("ace_eleven", _("Aces count 1 or 11"), widgets.Checkbox(), parse_bool),
        ("opponents", _("Computer players"),
         widgets.Dropdown(options=[(level_name(lv), lv) for lv in offered_levels()]),
         lambda v: parse_choice(v, offered_levels(), _("computer players"))),
        ("mode", _("Who plays"),
         widgets.Dropdown(options=[(_("one student (solo)"), "solo"),
                                   (_("students pass the device"), "pass-device")]),
         lambda v: parse_choice(v, hs.MODES, _("who plays"))),
        ("students", _("Students at this screen (pass the device)"),
         widgets.IntText(value=1),
         lambda v: parse_int_setting(v, _("students"), 1, hs.MAX_PLAYERS)),
        ("seed", _("Deal code (empty: new shuffle)"),
         widgets.Text(placeholder=_("e.g. 42 or class-5b")), parse_deal_code),
    ], on_apply, session.settings_values())
