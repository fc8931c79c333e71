"""The old name of `widgets.flapjack.render` (kept so existing imports work)."""

import sys

from widgets.flapjack import render as _render

sys.modules[__name__] = _render
