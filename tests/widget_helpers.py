"""Shared pieces of the widget tests: strict click handlers, a scripted computer player, and
the walk over every widget a table syncs to the page."""

from __future__ import annotations

import json
from typing import Any

import ipywidgets as widgets
import pytest
from ipywidgets.widgets import widget as widget_module

from engine.bots import Decision
from engine.hit_me import Hold
from widgets.table import components


@pytest.fixture(autouse=True)
def errors_raise(monkeypatch: pytest.MonkeyPatch) -> None:
    """Click handlers raise in tests (ipywidgets would only log them)."""

    def call(self: Any, *args: Any, **kwargs: Any) -> Any:
        value = None
        for callback in self.callbacks:
            local = callback(*args, **kwargs)
            value = local if local is not None else value
        return value

    monkeypatch.setattr(widget_module.CallbackDispatcher, "__call__", call)
    monkeypatch.setattr(components, "STRICT", True)


class AlwaysHold:
    """A computer player that always holds (so tests control every card)."""

    def choose(self, observation: dict, legal: list) -> Decision:
        return Decision(next(a for a in legal if isinstance(a, Hold)), "I always hold.")


def all_widgets(root: widgets.Widget) -> list[widgets.Widget]:
    """Every widget reachable from root through synced traits (children, layout, style...)."""
    seen: dict[str, widgets.Widget] = {}
    stack = [root]
    while stack:
        w = stack.pop()
        if w.model_id in seen:
            continue
        seen[w.model_id] = w
        for name in w.keys:
            v = getattr(w, name)
            items = v if isinstance(v, list | tuple) else [v]
            stack.extend(x for x in items if isinstance(x, widgets.Widget))
    return list(seen.values())


def synced_text(root: widgets.Widget) -> str:
    """Everything the page receives: each widget's synced state, serialized."""
    parts = []
    for w in all_widgets(root):
        state = w.get_state()
        assert set(state) == set(w.keys)
        parts.append(json.dumps(state, ensure_ascii=False, sort_keys=True, default=str))
    return "\n".join(parts)
