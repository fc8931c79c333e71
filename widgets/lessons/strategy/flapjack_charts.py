"""Flapjack's charts: exact counts of the cards that make a Flapjack, and simulated games."""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # numpy, matplotlib and tqdm are imported when a chart is drawn; a page whose
    # charts all come from the cache imports none of them
    pass

from engine.cards import make_deck
from engine.flapjack import FlapjackConfig, FlapjackState
from widgets.lessons.strategy.cache import PLAIN_CHARTS, cached_chart, cached_numbers
from widgets.lessons.strategy.charts import Chart, SvgChart, new_figure, percent_text, progress_bar
from widgets.words import _, ngettext, variant_title


# ----- Flapjack: exact counts and simulated games ------------------------------------------
@dataclass(frozen=True)
class FlapjackChance:
    """From one running total, counted in one full deck: the cards that may be played and
    the cards that make a Flapjack."""

    total: int
    legal: int  # cards of the deck that keep the total within the limits
    flapjack: int  # cards of the deck that make a Flapjack
    deck: int

    @property
    def share(self) -> float:
        """The chance that a legal card, picked at random, makes a Flapjack."""
        return self.flapjack / self.legal if self.legal else 0.0


def flapjack_chances(variant: str = "classic") -> list[FlapjackChance]:
    """For each running total a player can face (0 is the empty table, a lead), exactly."""
    cfg = FlapjackConfig(players=2, variant=variant)
    values = [cfg.value(c) for c in make_deck(1, cfg.ranks)]
    out = []
    for total in range(cfg.low, cfg.high + 1):
        if total in cfg.targets and total != 0:
            continue  # a Flapjack clears the table: nobody faces this total
        signs = (1, -1) if cfg.add_or_subtract and total != 0 else (1,)
        legal = flap = 0
        for v in values:
            ends = [total + s * v for s in signs if cfg.low <= total + s * v <= cfg.high]
            legal += bool(ends)
            flap += any(e in cfg.targets for e in ends)
        out.append(FlapjackChance(total, legal, flap, len(values)))
    return out


def flapjack_table_text(variant: str = "classic", totals: Sequence[int] | None = None) -> str:
    """The exact counts as a small text table."""
    rows = flapjack_chances(variant)
    if totals is not None:
        rows = [r for r in rows if r.total in totals]
    head = (_("total"), _("legal cards"), _("make a Flapjack"), _("share"))
    lines = [f"{head[0]:>6} {head[1]:>12} {head[2]:>16} {head[3]:>7}"]
    for r in rows:
        t = f"+{r.total}" if r.total > 0 else str(r.total)
        lines.append(f"{t:>6} {r.legal:>12} {r.flapjack:>16} {100 * r.share:>6.1f}%")
    return "\n".join(lines)


def _dump_hand_rates(rates: dict[int, tuple[int, int]]) -> dict[str, Any]:
    return {"rates": [[t, n, k] for t, (n, k) in rates.items()]}


def _load_hand_rates(kept: dict[str, Any]) -> dict[int, tuple[int, int]]:
    return {int(t): (int(n), int(k)) for t, n, k in kept["rates"]}


@cached_numbers(_dump_hand_rates, _load_hand_rates)
def flapjack_hand_rates(variant: str = "classic", players: int = 2, games: int = 300,
                        seed: int = 1, progress: bool = True) -> dict[int, tuple[int, int]]:
    """Play `games` games between random players (each plays a random legal card). For each
    total faced on a turn: (turns, turns on which the player held a card making a Flapjack)."""
    cfg = FlapjackConfig(players=players, variant=variant)
    rng = random.Random(seed)
    counts: dict[int, list[int]] = {}
    for _game in progress_bar(range(games), games, _("games"), progress):
        state = FlapjackState.deal(cfg, rng=rng)
        while not state.is_over:
            total = state.total if state.table else 0
            legal = state.legal_actions()
            can = any(total + a.sign * cfg.value(a.card) in cfg.targets for a in legal)
            c = counts.setdefault(total, [0, 0])
            c[0] += 1
            c[1] += can
            state.apply_action(rng.choice(legal))
    return {t: (c[0], c[1]) for t, c in sorted(counts.items())}


@cached_chart
def flapjack_chart(variant: str = "classic", games: int = 300, seed: int = 1,
                   progress: bool = True) -> Chart:
    """From each total: the exact share of legal cards that make a Flapjack (bars), and how
    often, in simulated games, the player to move held such a card (dots)."""
    rows = flapjack_chances(variant)
    sim = flapjack_hand_rates(variant, games=games, seed=seed, progress=progress)
    words = _flapjack_words(variant, games, rows, sim)
    fig, ax = new_figure(8.5, 4.4)
    xs = [r.total for r in rows]
    ax.bar(xs, [100 * r.share for r in rows], color=FLAPJACK_BAR, label=words["bars"])
    pts = words["held"]
    if pts:
        ax.plot(list(pts), list(pts.values()), "o", color=FLAPJACK_DOT, label=words["dots"])
    ax.set_xticks(xs)
    ax.tick_params(axis="x", labelsize=8)
    ax.set_xlabel(words["x"])
    ax.set_ylabel(words["y"])
    ax.set_ylim(0, 100)
    ax.legend(loc="upper center", fontsize=8)
    ax.set_title(words["title"])
    fig.tight_layout()
    return Chart(fig, words["alt"], words["rows"])


FLAPJACK_BAR = "#9ec1e8"


FLAPJACK_DOT = "#b00020"


def _flapjack_words(variant: str, games: int, rows: Sequence[FlapjackChance],
                    sim: dict[int, tuple[int, int]]) -> dict[str, Any]:
    """The Flapjack chart's words, and `held`: the percent of turns the player to move held a
    Flapjack card, by total (totals faced on at least 20 turns)."""
    held = {t: 100 * k / n for t, (n, k) in sim.items() if n >= 20}
    lines = [_("total {total}: {flapjack} of {legal} legal cards ({share})").format(
                total=f"{r.total:+d}", flapjack=r.flapjack, legal=r.legal,
                share=percent_text(r.share))
             + ("; " + _("the player to move held one {share} of the time").format(
                 share=f"{held[r.total]:.0f}%") if r.total in held else "") for r in rows]
    alt = (_("Bar chart, for each running total, of the share of legal cards that make a "
             "Flapjack: {first} at {total}, {lowest} at the lowest. Dots: how often the player "
             "to move held such a card in simulated games").format(
        first=percent_text(rows[0].share), total=f"{rows[0].total:+d}",
        lowest=percent_text(min(r.share for r in rows)))
           + (_(", from {low} to {high}.").format(low=f"{min(held.values()):.0f}%",
                                                  high=f"{max(held.values()):.0f}%") if held
              else "."))
    return {
        "held": held, "rows": lines, "alt": alt,
        "bars": _("share of the legal cards that make a Flapjack (exact)"),
        "dots": ngettext("the player to move held one ({games} simulated game)",
                         "the player to move held one ({games} simulated games)",
                         games).format(games=games),
        "x": _("running total before your turn (0: empty table, you lead)"),
        "y": _("chance (%)"),
        "title": _("Flapjack ({variant}): how often can a card make a Flapjack?").format(
            variant=variant_title(FlapjackConfig(variant=variant).variant)),
    }


@functools.lru_cache(maxsize=8)  # the static site's snapshot keeps the lab's chart
def _plain_hand_rates(variant: str, games: int, seed: int) -> dict[int, tuple[int, int]]:
    return flapjack_hand_rates(variant, games=games, seed=seed, progress=False)


def flapjack_chart_plain(variant: str = "classic", games: int = 300, seed: int = 1,
                         progress: bool = True) -> Chart:
    """`flapjack_chart` drawn as SVG (its games are played by the engine, no numpy)."""
    from widgets.lessons.strategy.plain import Bars, Line, chart_svg

    rows = flapjack_chances(variant)
    sim = _plain_hand_rates(variant, games, seed)
    words = _flapjack_words(variant, games, rows, sim)
    held = words["held"]
    legend = [("bar", FLAPJACK_BAR, words["bars"])] + (
        [("dot", FLAPJACK_DOT, words["dots"])] if held else [])
    svg = chart_svg(
        [f"{r.total:+d}" if r.total else "0" for r in rows], title=[words["title"]],
        x_label=words["x"], y_label=words["y"], alt=words["alt"], legend=legend,
        bars=[Bars([100 * r.share for r in rows], FLAPJACK_BAR)],
        lines=[Line([held.get(r.total, math.nan) for r in rows], FLAPJACK_DOT, joined=False)])
    return SvgChart(svg, words["alt"], words["rows"])


PLAIN_CHARTS["flapjack_chart"] = flapjack_chart_plain
