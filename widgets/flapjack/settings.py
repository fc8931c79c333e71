"""The Flapjack table's settings panel (made on first use by the table; checked by the panel,
applied by the session), through the settings builder every table shares
(widgets/table/shell.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from engine.flapjack import VARIANTS
from widgets.flapjack.session import FlapjackSession
from widgets.table.components import SettingsPanel, parse_choice, parse_deal_code
from widgets.table.shell import settings_panel as shell_settings_panel
from widgets.words import N_, _

# The options' text is translated where the panel is made (N_ only marks it).
COLOR_OPTIONS = [(N_("Black positive, red negative"), "black-positive"),
                 (N_("Red positive, black negative"), "red-positive")]
VARIANT_OPTIONS = [(N_("Classic: -13 to +13, Flapjack at -13, 0, +13"), "classic"),
                   (N_("Simple ten: no face cards, -10 to +10"), "simple-ten"),
                   (N_("Add or subtract: 0 to 13, Flapjack at 0 or 13"), "add-or-subtract"),
                   (N_("Signed add or subtract: add or subtract -7 or +7, -13 to +13"),
                    "signed-add-or-subtract")]
LEVEL_OPTIONS = [(N_("Easy (plays any legal card)"), "easy"),
                 (N_("Medium (takes a Flapjack when it can)"), "medium"),
                 (N_("Hard (counts the cards already seen)"), "hard")]


def _options(options: list[tuple[str, Any]]) -> list[tuple[str, Any]]:
    return [(_(text), value) for text, value in options]


FIELDS = ("players", "variant", "decks", "colors", "opponents", "seed", "say_total")


def settings_panel(session: FlapjackSession,
                   on_apply: Callable[[dict[str, Any]], str | None]) -> SettingsPanel:
    """The panel with one field per name in FIELDS, showing the session's settings."""
    dropdown = widgets.Dropdown
    levels = _options(LEVEL_OPTIONS) + ([(_("Mixed (as set in the notebook)"), "mixed")]
                                        if session.mixed() else [])
    s = shell_settings_panel([
        ("players", _("Players"), dropdown(options=[(str(n), n) for n in range(2, 9)]),
         lambda v: parse_choice(v, list(range(2, 9)), _("players"))),
        ("variant", _("Variant"), dropdown(options=_options(VARIANT_OPTIONS)),
         lambda v: parse_choice(v, list(VARIANTS), _("variant"))),
        ("decks", _("Decks"), dropdown(options=[(str(n), n) for n in range(1, 5)]),
         lambda v: parse_choice(v, [1, 2, 3, 4], _("decks"))),
        ("colors", _("Colours"), dropdown(options=_options(COLOR_OPTIONS)),
         lambda v: parse_choice(v, [c for _t, c in COLOR_OPTIONS], _("colours"))),
        ("opponents", _("Computer players"), dropdown(options=levels),
         lambda v: parse_choice(v, [c for _t, c in levels], _("computer players"))),
        ("seed", _("Deal code"), widgets.Text(placeholder=_("empty: a fresh shuffle")),
         parse_deal_code),
        ("say_total", _("Say the new total (practice)"), widgets.Checkbox(),
         lambda v: parse_choice(v, [True, False], _("say the new total"))),
    ], on_apply, session.settings_values())
    return s
