"""The Flapjack table's settings panel (made on first use by the table; checked by the panel,
applied by the session). A candidate for the shared widgets/shell.py settings builder."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from engine.flapjack import VARIANTS
from widgets.components import SettingsPanel, parse_choice, parse_deal_code
from widgets.flapjack.session import FlapjackSession

COLOR_OPTIONS = [("Black positive, red negative", "black-positive"),
                 ("Red positive, black negative", "red-positive")]
VARIANT_OPTIONS = [("Classic: -13 to +13, Flapjack at -13, 0, +13", "classic"),
                   ("Simple ten: no face cards, -10 to +10", "simple-ten"),
                   ("Add or subtract: 0 to 13, Flapjack at 0 or 13", "add-or-subtract")]
LEVEL_OPTIONS = [("Easy (plays any legal card)", "easy"),
                 ("Medium (takes a Flapjack when it can)", "medium"),
                 ("Hard (counts the cards already seen)", "hard")]
FIELDS = ("players", "variant", "decks", "colors", "opponents", "seed", "say_total")


def settings_panel(session: FlapjackSession,
                   on_apply: Callable[[dict[str, Any]], str | None]) -> SettingsPanel:
    """The panel with one field per name in FIELDS, showing the session's settings."""
    s = SettingsPanel("Settings", "Apply and deal", on_apply)
    dropdown = widgets.Dropdown
    s.add_field("players", "Players", dropdown(options=[(str(n), n) for n in range(2, 9)]),
                lambda v: parse_choice(v, list(range(2, 9)), "players"))
    s.add_field("variant", "Variant", dropdown(options=VARIANT_OPTIONS),
                lambda v: parse_choice(v, list(VARIANTS), "variant"))
    s.add_field("decks", "Decks", dropdown(options=[(str(n), n) for n in range(1, 5)]),
                lambda v: parse_choice(v, [1, 2, 3, 4], "decks"))
    s.add_field("colors", "Colours", dropdown(options=COLOR_OPTIONS),
                lambda v: parse_choice(v, [c for _, c in COLOR_OPTIONS], "colours"))
    levels = LEVEL_OPTIONS + ([("Mixed (as set in the notebook)", "mixed")]
                              if session.mixed() else [])
    s.add_field("opponents", "Computer players", dropdown(options=levels),
                lambda v: parse_choice(v, [c for _, c in levels], "computer players"))
    s.add_field("seed", "Deal code", widgets.Text(placeholder="empty: a fresh shuffle"),
                parse_deal_code)
    s.add_field("say_total", "Say the new total (practice)", widgets.Checkbox(),
                lambda v: parse_choice(v, [True, False], "say the new total"))
    s.set_values(session.settings_values())
    return s
