"""The strategy lab page's first charts as the static site draws them (plain Python, no numpy):
played once when the site's Python snapshot is made (tools/build_site.py), so that their rounds
are in the snapshot's memory and the page draws them at once, in its own language, instead of
playing them at every visit (the Flapjack chart's 2,000 games alone are about 10 s of a core in
CPython, more in the browser). A chart the student asks for afterwards (another number of
players, the simulation panel) is played in the page.

LAB_CHARTS are the calls of lessons/06_strategy_lab.ipynb (and its Spanish copy): a test runs the
notebooks' chart cells after `play_lab_defaults` and finds every round already played.
"""

from __future__ import annotations

from typing import Any

LAB_CHARTS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("hold_chart", {"players": 4, "rounds": 100_000, "seed": 1}),
    ("threshold_chart", {"players": 4, "rounds": 100_000, "seed": 1}),
    ("players_chart", {"players": (2, 3, 4, 6, 8), "rounds": 1_000_000, "seed": 1}),
    ("claim_chart", {"players": (2, 3, 4, 5, 6), "rounds": 1_000_000, "seed": 1}),
    ("flapjack_chart", {"variant": "classic", "games": 2_000, "seed": 1}),
)


def play_lab_defaults() -> None:
    """Play the rounds of LAB_CHARTS with the plain-Python charts (kept by their caches)."""
    import widgets.lessons.strategy  # noqa: F401 - every chart module enters its plain chart
    from widgets.lessons.strategy.cache import PLAIN_CHARTS

    for name, settings in LAB_CHARTS:
        PLAIN_CHARTS[name](progress=False, **settings)
