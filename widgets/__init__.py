"""Card tables for Integer Card Games (ipywidgets views driven by the engine).

`from widgets import HitMeTable, FlapjackTable`. The tables are imported lazily so that one
table's module can be worked on without breaking the other.
"""

from __future__ import annotations

from typing import Any

from widgets.page import in_browser as _in_browser  # noqa: F401 (in the browser: its kernel's needs)

__all__ = ["FlapjackTable", "HitMeTable"]


def __getattr__(name: str) -> Any:
    if name == "HitMeTable":
        from widgets.hit_me.table import HitMeTable

        return HitMeTable
    if name == "FlapjackTable":
        from widgets.flapjack.table import FlapjackTable

        return FlapjackTable
    raise AttributeError(f"module 'widgets' has no attribute {name!r}")
