"""The Flapjack table's settings panel (made on first use by the table; checked by the panel,
applied by the session), through the settings builder every table shares
(widgets/table/shell.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from widgets.flapjack.session import SETTINGS, FlapjackSession
from widgets.table.components import SettingsPanel, parse_choice, parse_deal_code
from widgets.table.shell import settings_panel as shell_settings_panel
from widgets.words import _, described_level, level_name, setting_options


def level_options() -> list[tuple[str, str]]:
    """(label, level) for the registry's levels, each described by the bot it plays."""
    return [(described_level(spec) or level_name(level), level)
            for level, spec in SETTINGS.levels.items()]


FIELDS = ("players", "variant", "decks", "colors", "opponents", "seed", "say_total")


def settings_panel(session: FlapjackSession,
                   on_apply: Callable[[dict[str, Any]], str | None]) -> SettingsPanel:
    """The panel with one field per name in FIELDS, showing the session's settings."""
    dropdown = widgets.Dropdown
    levels = level_options() + ([(_("Mixed (as set in the notebook)"), "mixed")]
                                        if session.mixed() else [])
    players = list(range(SETTINGS.players[0], SETTINGS.table_players + 1))
    decks = list(range(SETTINGS.decks[0], SETTINGS.table_decks + 1))
    variants, colors = setting_options(SETTINGS, "variant"), setting_options(SETTINGS, "colors")
    s = shell_settings_panel([
        ("players", _("Players"), dropdown(options=[(str(n), n) for n in players]),
         lambda v: parse_choice(v, players, _("players"))),
        ("variant", _("Variant"), dropdown(options=variants),
         lambda v: parse_choice(v, [c for _t, c in variants], _("variant"))),
        ("decks", _("Decks"), dropdown(options=[(str(n), n) for n in decks]),
         lambda v: parse_choice(v, decks, _("decks"))),
        ("colors", _("Colours"), dropdown(options=colors),
         lambda v: parse_choice(v, [c for _t, c in colors], _("colours"))),
        ("opponents", _("Computer players"), dropdown(options=levels),
         lambda v: parse_choice(v, [c for _t, c in levels], _("computer players"))),
        ("seed", _("Deal code"), widgets.Text(placeholder=_("empty: a fresh shuffle")),
         parse_deal_code),
        ("say_total", _("Say the new total (practice)"), widgets.Checkbox(),
         lambda v: parse_choice(v, [True, False], _("say the new total"))),
    ], on_apply, session.settings_values())
    return s
