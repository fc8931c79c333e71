"""The Hit Me table's old module name: the table now lives in widgets/hit_me/ (session, view,
render, table). Kept so `from widgets.hit_me_table import HitMeTable` still works."""

from widgets.hit_me.render import (
    announce_feedback,
    number_line_parts,
    own_values,
    seat_html,
    seats_html,
)
from widgets.hit_me.session import (
    COLOR_OPTIONS,
    LEVELS,
    MAX_PLAYERS,
    MODES,
    TURN_OPTIONS,
    HitMeSession,
    Phase,
)
from widgets.hit_me.table import HitMeTable
from widgets.shell import MAX_NAME

__all__ = ["COLOR_OPTIONS", "LEVELS", "MAX_NAME", "MAX_PLAYERS", "MODES", "TURN_OPTIONS",
           "HitMeSession", "HitMeTable", "Phase", "announce_feedback", "number_line_parts",
           "own_values", "seat_html", "seats_html"]
