"""The Flapjack table in four parts: session (no widgets), view (frozen data for one viewer),
render (view to HTML) and table (the thin ipywidgets class). See docs/architecture.md."""

from widgets.words.catalogues import N_

TITLE = N_("Flapjack")  # the game's name (widgets.table.games.game_title)
