"""The Hit Me table in four parts: session (no widgets), view (data), render (HTML), table."""

from widgets.words.catalogues import N_

TITLE = N_("Hit Me")  # the game's name (widgets.table.games.game_title)
