"""The old home of the Flapjack table (kept so existing imports work): see widgets/flapjack/."""

from widgets.flapjack.session import (
    BOT_SPECS,
    LEVELS,
    MAX_NAME,
    SPEC_LEVEL,
    YOU,
    FlapjackSession,
    fresh_code,
)
from widgets.flapjack.settings import COLOR_OPTIONS, LEVEL_OPTIONS, VARIANT_OPTIONS
from widgets.flapjack.table import FlapjackTable

__all__ = ["BOT_SPECS", "COLOR_OPTIONS", "LEVELS", "LEVEL_OPTIONS", "MAX_NAME", "SPEC_LEVEL",
           "VARIANT_OPTIONS", "YOU", "FlapjackSession", "FlapjackTable", "fresh_code"]
