"""The labels of the games' settings: the registry (engine/games.py, `GameSettings`) holds each
setting's choices as identifiers; this module gives each its label in the current language.

`setting_label("colors", "red-positive")` -> "Red positive, black negative";
`setting_options(settings, "variant")` -> [(label, choice), ...] in the registry's order, as a
dropdown takes them; `variant_title` the short name of a Flapjack variant ("Simple ten");
`described_level(spec)` a level described by the bot it plays, where there is a description.
"""

from __future__ import annotations

from typing import Any

from widgets.words.catalogues import N_, _

# (setting, choice) -> the label's msgid (translated when shown)
LABELS: dict[tuple[str, str], str] = {
    ("colors", "black-positive"): N_("Black positive, red negative"),
    ("colors", "red-positive"): N_("Red positive, black negative"),
    ("turn_order", "round-robin"): N_("round robin (one hit a pass)"),
    ("turn_order", "all-at-once"): N_("all at once (all your hits in a row)"),
    ("variant", "classic"): N_("Classic: -13 to +13, Flapjack at -13, 0, +13"),
    ("variant", "simple-ten"): N_("Simple ten: no face cards, -10 to +10"),
    ("variant", "add-or-subtract"): N_("Add or subtract: 0 to 13, Flapjack at 0 or 13"),
    ("variant", "signed-add-or-subtract"):
        N_("Signed add or subtract: add or subtract -7 or +7, -13 to +13"),
}
# a variant's short name (titles, the lobby)
VARIANT_TITLES: dict[str, str] = {
    "classic": N_("Classic"), "simple-ten": N_("Simple ten"),
    "add-or-subtract": N_("Add or subtract"),
    "signed-add-or-subtract": N_("Signed add or subtract"),
}
# a level described by the bot it plays (Flapjack's bots; Hit Me's panel shows `level_name`)
BOT_LEVELS: dict[str, str] = {
    "random": N_("Easy (plays any legal card)"),
    "greedy": N_("Medium (takes a Flapjack when it can)"),
    "expert": N_("Hard (counts the cards already seen)"),
}


def setting_label(setting: str, choice: str) -> str:
    """A setting's choice as shown (an identifier with no label is shown as it is)."""
    text = LABELS.get((setting, choice))
    return _(text) if text is not None else choice


def setting_options(settings: Any, setting: str) -> list[tuple[str, str]]:
    """(label, choice) for each choice of `setting` in a game's `GameSettings`."""
    return [(setting_label(setting, c), c) for c in settings.choices_of(setting)]


def variant_title(variant: str) -> str:
    """A Flapjack variant's short name as shown ("Classic", "Simple ten", "Add or subtract")."""
    text = VARIANT_TITLES.get(variant)
    return _(text) if text is not None else variant


def described_level(spec: str) -> str | None:
    """A level's label by the bot it plays ("Easy (plays any legal card)"), if it has one."""
    text = BOT_LEVELS.get(spec)
    return _(text) if text is not None else None
