"""The strategy lab: simulations and exact counts that answer "when should I hit?".

Each chart function runs its simulations in batches with a progress bar and returns a
`Chart`: a matplotlib Figure (`.figure`) with a text description for screen readers.
Hit Me uses the numpy simulator of threshold players (`engine.vector_sim`), so 100,000
rounds take well under a second. A threshold player with threshold T hits while
|sum| >= T, so it holds once |sum| is T - 1 or less; the charts speak of "holding at
|sum| H or less" (H = T - 1).

One module per idea: `charts` (`Chart` and what every chart shares), `cache` (the chart cache),
`hit_me_charts`, `flapjack_charts`, `panel` (the panels for Voila pages).
"""

from __future__ import annotations

from widgets.lessons.strategy.cache import (
    CACHE_ENV,
    CACHE_MAX_FILES,
    CACHE_MAX_FILES_ENV,
    CACHE_MAX_MB,
    CACHE_MAX_MB_ENV,
    PLAIN_CHARTS,
    SIMULATIONS,
    NoSimulation,
    cached_chart,
    chart_cache_dir,
    evict_charts,
)
from widgets.lessons.strategy.charts import (
    BATCHES,
    MAX_ABS,
    MEDIUM_HOLD,
    Chart,
    SvgChart,
)
from widgets.lessons.strategy.flapjack_charts import (
    FlapjackChance,
    flapjack_chances,
    flapjack_chart,
    flapjack_hand_rates,
    flapjack_table_text,
)
from widgets.lessons.strategy.hit_me_charts import (
    HOLD_BAD,
    HOLD_GOOD,
    HoldTable,
    claim_chart,
    claim_rates,
    claim_rates_both,
    hit_table,
    hold_chart,
    hold_chart_plain,
    hold_colors,
    hold_table,
    players_chart,
    rate_margin,
    threshold_chart,
    threshold_win_rates,
)
from widgets.lessons.strategy.panel import (
    CHARTS,
    PANEL_CHARTS,
    ROUND_CHOICES,
    ChartByPlayers,
    SimulationPanel,
)

__all__ = [
    "BATCHES",
    "CACHE_ENV",
    "CACHE_MAX_FILES",
    "CACHE_MAX_FILES_ENV",
    "CACHE_MAX_MB",
    "CACHE_MAX_MB_ENV",
    "CHARTS",
    "Chart",
    "ChartByPlayers",
    "FlapjackChance",
    "HOLD_BAD",
    "HOLD_GOOD",
    "HoldTable",
    "MAX_ABS",
    "MEDIUM_HOLD",
    "NoSimulation",
    "PANEL_CHARTS",
    "PLAIN_CHARTS",
    "ROUND_CHOICES",
    "SIMULATIONS",
    "SimulationPanel",
    "SvgChart",
    "cached_chart",
    "chart_cache_dir",
    "claim_chart",
    "claim_rates",
    "claim_rates_both",
    "evict_charts",
    "flapjack_chances",
    "flapjack_chart",
    "flapjack_hand_rates",
    "flapjack_table_text",
    "hit_table",
    "hold_chart",
    "hold_chart_plain",
    "hold_colors",
    "hold_table",
    "players_chart",
    "rate_margin",
    "threshold_chart",
    "threshold_win_rates",
]
