"""The games' widgets found from the engine's registry (engine/games.py), so that a page offering
every game (the lobby) names none: each registry name has its package in widgets/ (the name with
`_` for `-`), whose `TITLE` is the game's name (an N_ msgid) and whose `table.TABLE` is its
table class."""

from __future__ import annotations

from importlib import import_module
from types import ModuleType
from typing import Any

from engine.games import GAMES, game_name
from widgets.words import _


def package(name: str) -> ModuleType:
    """The widgets package of a registry game: widgets/<name with _>/."""
    return import_module("widgets." + game_name(name).replace("-", "_"))


def game_title(name: str) -> str:
    """A game's name as shown, in the current language."""
    return _(package(name).TITLE)


def game_options() -> list[tuple[str, str]]:
    """(title, name) of every game in the registry, in its order (a dropdown's options)."""
    return [(game_title(name), name) for name in GAMES]


def table_class(name: str) -> Any:
    """A game's table class (ipywidgets: imported when asked for)."""
    return import_module(package(name).__name__ + ".table").TABLE
