"""Hit Me's charts: the chance to win when holding at each |sum|, which holding rule wins
most, the number of players, the author's claim."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # numpy, matplotlib and tqdm are imported when a chart is drawn; a page whose
    # charts all come from the cache imports none of them
    import numpy as np

from widgets.lessons.strategy.cache import PLAIN_CHARTS, cached_chart, cached_numbers
from widgets.lessons.strategy.charts import (
    BATCHES,
    MAX_ABS,
    MEDIUM_HOLD,
    Chart,
    SvgChart,
    batch_seeds,
    batch_sizes,
    check_sizes,
    new_figure,
    percent_text,
    played,
    players_words,
    progress_bar,
    rounds_words,
)
from widgets.page.language import grouped
from widgets.words import _, ngettext


# ----- Hit Me: the chance to win when holding at each |sum| ----------------------------------
@dataclass(frozen=True)
class HoldTable:
    """For a player who holds on their first two cards: rounds seen and win chance per |sum|."""

    abs_sum: np.ndarray
    count: np.ndarray
    wins: np.ndarray  # ties split between the co-winners

    @property
    def chance(self) -> np.ndarray:
        import numpy as np

        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(self.count > 0, self.wins / np.maximum(self.count, 1), np.nan)

    def chance_at_least(self, k: int) -> float:
        """The win chance over every round in which the |sum| held was k or more."""
        c = self.count[k:].sum()
        return float(self.wins[k:].sum() / c) if c else math.nan


def _dump_table(table: HoldTable) -> dict[str, Any]:
    return {"count": [float(x) for x in table.count], "wins": [float(x) for x in table.wins]}


def _load_table(kept: dict[str, Any]) -> HoldTable:
    import numpy as np

    count = np.array(kept["count"], dtype=float)
    wins = np.array(kept["wins"], dtype=float)
    if count.shape != (MAX_ABS + 1,) or wins.shape != count.shape:
        raise ValueError("a kept table of another size")
    return HoldTable(np.arange(MAX_ABS + 1), count, wins)


def _dump_rates(rates: dict[int, Any]) -> dict[str, Any]:
    return {"rates": [[k, v] for k, v in rates.items()]}


def _load_rates(kept: dict[str, Any]) -> dict[int, float]:
    return {int(k): float(v) for k, v in kept["rates"]}


@cached_numbers(_dump_table, _load_table)
def hold_table(players: int = 4, opponent_hold: int = MEDIUM_HOLD, rounds: int = 100_000,
               seed: int = 1, progress: bool = True) -> HoldTable:
    """Simulate `rounds` rounds where seat 0 holds on two cards and the others hold at
    |sum| `opponent_hold` or less; count seat 0's wins by its |sum|."""
    check_sizes(players, rounds)
    import numpy as np

    from engine.vector_sim import hold_win_chance

    count = np.zeros(MAX_ABS + 1)
    wins = np.zeros(MAX_ABS + 1)
    parts = list(zip(batch_sizes(rounds), batch_seeds(seed, BATCHES), strict=False))
    for n, s in progress_bar(parts, len(parts), players_words(players), progress):
        res = hold_win_chance(players, opponent_hold + 1, n, seed=s, max_abs=MAX_ABS)
        c = res["count"].astype(float)
        count += c
        wins += np.nan_to_num(res["win_chance"]) * c
    return HoldTable(np.arange(MAX_ABS + 1), count, wins)


@cached_numbers(_dump_table, _load_table)
def hit_table(players: int = 4, opponent_hold: int = MEDIUM_HOLD, rounds: int = 100_000,
              seed: int = 1, progress: bool = True) -> HoldTable:
    """Like `hold_table`, but seat 0 always hits its first two cards once and then follows the
    others' rule (hits while |sum| is more than `opponent_hold`); counted by the |sum| of its
    first two cards. Set beside `hold_table`, it answers "hold or hit at this |sum|?"."""
    check_sizes(players, rounds)
    import numpy as np

    from engine.vector_sim import NEVER_HIT, deal_values, play_thresholds

    count = np.zeros(MAX_ABS + 1)
    wins = np.zeros(MAX_ABS + 1)
    t = np.array([NEVER_HIT] + [opponent_hold + 1] * (players - 1), dtype=np.int16)
    parts = list(zip(batch_sizes(rounds), batch_seeds(seed, BATCHES), strict=False))
    for n, s in progress_bar(parts, len(parts),
                          _("{players}, hitting").format(players=players_words(players)), progress):
        cards = deal_values(n, players, None, np.random.default_rng(s))
        final, _steps = play_thresholds(cards, t)  # the others; seat 0's own play is below
        sums = np.cumsum(cards[:, 0, :], axis=1, dtype=np.int16)
        stops = np.abs(sums[:, 1:]) <= opponent_hold  # after 2, 3, ..., 7 cards
        stops[:, 0] = False  # seat 0 hits on its first two cards, whatever they are
        stops[:, -1] = True
        hits = np.argmax(stops, axis=1)
        scores = np.abs(final).astype(np.int32)
        scores[:, 0] = np.abs(sums[np.arange(n), hits + 1])
        best = scores.min(axis=1)
        winners = scores == best[:, None]
        share = winners[:, 0] / winners.sum(axis=1)  # a tie is split between the winners
        first = np.minimum(np.abs(sums[:, 1]), MAX_ABS)
        count += np.bincount(first, minlength=MAX_ABS + 1)[:MAX_ABS + 1]
        wins += np.bincount(first, weights=share, minlength=MAX_ABS + 1)[:MAX_ABS + 1]
    return HoldTable(np.arange(MAX_ABS + 1), count, wins)


HOLD_GOOD = "#1b6e1b"  # a bar at or above the fair share


HOLD_BAD = "#b00020"  # a bar below it


def hold_colors(chance: Sequence[float], players: int) -> list[str]:
    """Each |sum|'s bar colour: green when holding there wins at least the fair share
    (1 round in `players`), red below it (whatever the |sum|)."""
    fair = 1 / players
    return [HOLD_GOOD if (not math.isnan(c) and c >= fair) else HOLD_BAD for c in chance]


def _hold_words(players: int, opponent_hold: int, rounds: int, abs_sum: Sequence[int],
                chance: Sequence[float], hit_chance: Sequence[float],
                count: Sequence[float]) -> dict[str, Any]:
    """The hold-or-hit chart's words: title, labels, numbers and alternative text."""
    fair = _("fair share {share}").format(share=f"{100 / players:.0f}%")
    rows = [_("|sum| {k}: hold {hold}, hit {hit} ({rounds})").format(
                k=k, hold=percent_text(c), hit=percent_text(h), rounds=rounds_words(int(n)))
            for k, c, h, n in zip(abs_sum, chance, hit_chance, count, strict=True)]
    alt = (_("Bar chart of the chance to win when holding at each |sum|, {players}, with dots "
             "for hitting instead: {values}; {fair}.").format(
        players=players_words(players),
        values="; ".join(_("{k}: hold {hold}, hit {hit}").format(k=k, hold=percent_text(c),
                                                                  hit=percent_text(h))
                         for k, c, h in zip(list(abs_sum)[:8], list(chance)[:8],
                                            list(hit_chance)[:8], strict=True)),
        fair=fair))
    return {
        "fair": fair, "rows": rows, "alt": alt,
        "hold": _("hold (green: at or above the fair share, red: below)"),
        "hit": _("hit instead, then hold at {hold} or less").format(hold=opponent_hold),
        "x": _("|sum| of your first two cards (distance from zero)"),
        "y": _("chance to win (%), a tie split"),
        "title": [_("Hold or hit at each |sum|: {players}, others hold at {hold} or less")
                  .format(players=players_words(players), hold=opponent_hold),
                  ngettext("{rounds} simulated round", "{rounds} simulated rounds",
                           rounds).format(rounds=grouped(rounds))],
    }


@cached_chart
def hold_chart(players: int = 4, opponent_hold: int = MEDIUM_HOLD, rounds: int = 100_000,
               seed: int = 1, progress: bool = True) -> Chart:
    """Bar chart: your chance to win if you hold at each |sum| (0 to 20), green at or above
    the fair share and red below it; dots: your chance if you hit instead (once, then hold at
    |sum| `opponent_hold` or less like the others)."""
    table = hold_table(players, opponent_hold, rounds, seed, progress)
    hit = hit_table(players, opponent_hold, rounds, seed, progress)
    fig, ax = new_figure()
    import numpy as np

    words = _hold_words(players, opponent_hold, rounds, table.abs_sum, table.chance,
                        hit.chance, table.count)
    pct = 100 * np.nan_to_num(table.chance)
    ax.bar(table.abs_sum, pct, color=hold_colors(table.chance, players), label=words["hold"])
    ax.plot(hit.abs_sum, 100 * hit.chance, "o", color="#1d4e89", label=words["hit"])
    ax.axhline(100 / players, color="#333", linestyle="--", linewidth=1)
    ax.text(MAX_ABS, 100 / players + 1.5, words["fair"], ha="right")
    ax.set_xticks(table.abs_sum)
    ax.set_xlabel(words["x"])
    ax.set_ylabel(words["y"])
    ax.set_ylim(0, 100)
    ax.legend(loc="upper right", fontsize=8)
    ax.set_title("\n".join(words["title"]))
    fig.tight_layout()
    return Chart(fig, words["alt"], words["rows"])


def hold_chart_plain(players: int = 4, opponent_hold: int = MEDIUM_HOLD, rounds: int = 100_000,
                     seed: int = 1, progress: bool = True) -> Chart:
    """`hold_chart` without numpy or matplotlib (widgets.lessons.strategy.plain): at most
    BROWSER_ROUNDS rounds, played in plain Python, drawn as SVG."""
    from widgets.lessons.strategy.plain import (
        BROWSER_ROUNDS,
        DOT_COLOR,
        bar_chart_svg,
        hold_hit_tables,
    )

    check_sizes(players, rounds)
    rounds = min(rounds, BROWSER_ROUNDS)
    table, hit = hold_hit_tables(players, opponent_hold, rounds, seed)
    words = _hold_words(players, opponent_hold, rounds, table.abs_sum, table.chance,
                        hit.chance, table.count)
    svg = bar_chart_svg(
        [0.0 if math.isnan(c) else 100 * c for c in table.chance],
        hold_colors(table.chance, players), [100 * c for c in hit.chance],
        fair=100 / players, fair_label=words["fair"], title=words["title"], x_label=words["x"],
        y_label=words["y"], legend=[("bar", HOLD_GOOD, words["hold"]),
                                    ("dot", DOT_COLOR, words["hit"])], alt=words["alt"])
    return played(SvgChart(svg, words["alt"], words["rows"]), rounds)


# ----- Hit Me: which threshold wins most ----------------------------------------------------
@cached_numbers(_dump_rates, _load_rates)
def threshold_win_rates(players: int = 4, holds: Sequence[int] = tuple(range(0, 11)),
                        opponent_hold: int = MEDIUM_HOLD, rounds: int = 50_000, seed: int = 1,
                        progress: bool = True) -> dict[int, float]:
    """Seat 0's share of wins (ties split) when it holds at |sum| H or less, for each H in
    `holds`, against opponents who hold at `opponent_hold` or less."""
    from engine.vector_sim import simulate_thresholds

    check_sizes(players, rounds)
    out = {}
    for i, h in enumerate(progress_bar(holds, len(holds), "thresholds", progress)):
        t = [h + 1] + [opponent_hold + 1] * (players - 1)
        out[h] = float(simulate_thresholds(players, t, rounds,
                                           seed=seed * 1000 + i)["win_share"][0])
    return out


def rate_margin(rate: float, rounds: int) -> float:
    """Half the width of a 95% interval for a win rate measured over `rounds` rounds (ties
    split, so this binomial margin is an upper bound): the interval around a run's rate
    catches the true rate in at least 19 runs in 20; another run's rate lands inside it less
    often (about 7 runs in 8: tests/test_lesson_figures.py)."""
    return 1.96 * math.sqrt(max(rate * (1 - rate), 0.0) / rounds)


@cached_chart
def threshold_chart(players: int = 4, opponent_hold: int = MEDIUM_HOLD, rounds: int = 50_000,
                    seed: int = 1, progress: bool = True) -> Chart:
    """Line chart: your win rate for each holding rule 'hold at |sum| H or less'."""
    rates = threshold_win_rates(players, tuple(range(0, 11)), opponent_hold, rounds, seed,
                                progress)
    words = _threshold_words(players, opponent_hold, rounds, rates)
    fig, ax = new_figure()
    hs = list(rates)
    pct = [100 * rates[h] for h in hs]
    ax.errorbar(hs, pct, yerr=[100 * rate_margin(rates[h], rounds) for h in hs], marker="o",
                color="#1d4e89", capsize=4, label=words["interval"])
    ax.legend(loc="lower right", fontsize=8)
    best = words["best"]
    ax.plot([best], [100 * rates[best]], marker="*", markersize=16, color="#b58900")
    ax.annotate(words["best_text"], (best, 100 * rates[best]),
                textcoords="offset points", xytext=(8, 8))
    ax.axhline(100 / players, color="#333", linestyle="--", linewidth=1)
    ax.margins(y=0.2)
    ax.set_xticks(hs)
    ax.set_xlabel(words["x"])
    ax.set_ylabel(words["y"])
    ax.set_title("\n".join(words["title"]))
    fig.tight_layout()
    return Chart(fig, words["alt"], words["rows"])


def _threshold_words(players: int, opponent_hold: int, rounds: int,
                     rates: dict[int, float]) -> dict[str, Any]:
    """The holding-rule chart's words: title, labels, numbers and alternative text."""
    hs = list(rates)
    best = max(rates, key=rates.get)
    rows = [_("hold at {hold} or less: {share} of rounds won").format(hold=h,
                                                                     share=percent_text(rates[h]))
            for h in hs]
    alt = _("Line chart of rounds won for each holding rule, {players}: {values}. Best: hold at "
            "{best} or less.").format(
        players=players_words(players), best=best,
        values="; ".join(_("hold at {hold}: {share}").format(hold=h, share=percent_text(rates[h]))
                         for h in hs))
    return {
        "best": best, "rows": rows, "alt": alt,
        "interval": _("each bar: a {level} interval").format(level="95%"),
        "best_text": _("best: hold at {hold} or less").format(hold=best),
        "x": _("your rule: hold when |sum| is this or less (otherwise hit)"),
        "y": _("rounds won (%)"),
        "title": [_("Which holding rule wins most? {players}, others hold at {hold} or less")
                  .format(players=players_words(players), hold=opponent_hold),
                  ngettext("{rounds} round per rule", "{rounds} rounds per rule",
                           rounds).format(rounds=grouped(rounds))],
    }


def threshold_chart_plain(players: int = 4, opponent_hold: int = MEDIUM_HOLD,
                          rounds: int = 50_000, seed: int = 1, progress: bool = True) -> Chart:
    """`threshold_chart` without numpy or matplotlib: every rule on the same seeded deals (at
    most BROWSER_RULE_ROUNDS), played in plain Python, drawn as SVG."""
    from widgets.lessons.strategy.plain import (
        BROWSER_RULE_ROUNDS,
        Line,
        chart_svg,
        threshold_shares,
    )

    check_sizes(players, rounds)
    rounds = min(rounds, BROWSER_RULE_ROUNDS)
    rates = threshold_shares(players, tuple(range(0, 11)), opponent_hold, rounds, seed)
    words = _threshold_words(players, opponent_hold, rounds, rates)
    hs = list(rates)
    pct = [100 * rates[h] for h in hs]
    errors = [100 * rate_margin(rates[h], rounds) for h in hs]
    low = min(min(v - e for v, e in zip(pct, errors, strict=True)), 100 / players)
    high = max(max(v + e for v, e in zip(pct, errors, strict=True)), 100 / players)
    pad = (high - low) * 0.2 + 1
    best = words["best"]
    svg = chart_svg(
        [str(h) for h in hs], title=words["title"], x_label=words["x"], y_label=words["y"],
        alt=words["alt"], legend=[("dot", "#1d4e89", words["interval"])],
        lines=[Line(pct, "#1d4e89", errors=errors)],
        dashes=[(100 / players, 0, len(hs) - 1, "")],
        stars=[(hs.index(best), 100 * rates[best], "#b58900", words["best_text"])],
        y_range=(max(0.0, low - pad), min(100.0, high + pad)))
    return played(SvgChart(svg, words["alt"], words["rows"]), rounds)


# ----- Hit Me: the number of players ----------------------------------------------------------
@cached_chart
def players_chart(players: Sequence[int] = (2, 3, 4, 6, 8), opponent_hold: int = MEDIUM_HOLD,
                  rounds: int = 100_000, seed: int = 1, progress: bool = True) -> Chart:
    """Win chance when holding at each |sum|, one line for each number of players."""
    fig, ax = new_figure()
    chances = {}
    for p in progress_bar(players, len(players), _("player counts"), progress):
        table = hold_table(p, opponent_hold, rounds, seed, progress=False)
        chances[p] = [float(c) for c in table.chance[:11]]
        ax.plot(range(11), [100 * c for c in chances[p]], marker="o", label=players_words(p))
    words = _players_words(rounds, chances)
    ax.set_xticks(range(11))
    ax.set_ylim(0, 100)
    ax.set_xlabel(words["x"])
    ax.set_ylabel(words["y"])
    ax.legend()
    ax.set_title("\n".join(words["title"]))
    fig.tight_layout()
    return Chart(fig, words["alt"], words["rows"])


def _players_words(rounds: int, chances: dict[int, Sequence[float]]) -> dict[str, Any]:
    """The number-of-players chart's words, from each count's chances at |sum| 0 to 10."""
    rows = []
    firsts = []
    for p, line in chances.items():
        cells = [_("|sum| {k} {share}").format(k=k, share=percent_text(c))
                 for k, c in enumerate(line)]
        rows.append(_("{players}: {values}").format(players=players_words(p),
                                                    values=", ".join(cells)))
        firsts.append(_("{players}: {values}").format(players=players_words(p),
                                                      values=", ".join(cells[:4])) + ".")
    alt = (_("Line chart of the chance to win when holding at each |sum| from 0 to 10, one "
             "line for each number of players; the lines fall faster with more players.")
           + " " + " ".join(firsts))
    return {
        "rows": rows, "alt": alt, "x": _("|sum| you hold at"), "y": _("chance to win (%)"),
        "title": [_("More players, closer to zero needed"),
                  ngettext("{rounds} round for each line", "{rounds} rounds for each line",
                           rounds).format(rounds=grouped(rounds))],
    }


LINE_COLORS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2")


def players_chart_plain(players: Sequence[int] = (2, 3, 4, 6, 8),
                        opponent_hold: int = MEDIUM_HOLD, rounds: int = 100_000, seed: int = 1,
                        progress: bool = True) -> Chart:
    """`players_chart` without numpy or matplotlib: at most BROWSER_ROUNDS_PER_LINE rounds for
    each number of players, played in plain Python, drawn as SVG."""
    from widgets.lessons.strategy.plain import (
        BROWSER_ROUNDS_PER_LINE,
        Line,
        chart_svg,
        hold_hit_tables,
    )

    for p in players:
        check_sizes(p, rounds)
    rounds = min(rounds, BROWSER_ROUNDS_PER_LINE)
    chances = {p: hold_hit_tables(p, opponent_hold, rounds, seed)[0].chance[:11]
               for p in players}
    words = _players_words(rounds, chances)
    colors = [LINE_COLORS[i % len(LINE_COLORS)] for i in range(len(chances))]
    svg = chart_svg(
        [str(k) for k in range(11)], title=words["title"], x_label=words["x"],
        y_label=words["y"], alt=words["alt"],
        legend=[("line", c, players_words(p)) for c, p in zip(colors, chances, strict=True)],
        lines=[Line([100 * c for c in line], color)
               for color, line in zip(colors, chances.values(), strict=True)])
    return played(SvgChart(svg, words["alt"], words["rows"]), rounds)


# ----- Hit Me: the author's claim -----------------------------------------------------------
def claim_rates(players: Sequence[int] = (2, 3, 4, 5, 6), opponent_hold: int = MEDIUM_HOLD,
                rounds: int = 100_000, seed: int = 1, progress: bool = True) -> dict[int, float]:
    """For each number of players: the win chance of a player who holds at |sum| 3 or more."""
    return {p: both[1] for p, both in
            claim_rates_both(players, opponent_hold, rounds, seed, progress).items()}


def claim_rates_both(players: Sequence[int] = (2, 3, 4, 5, 6), opponent_hold: int = MEDIUM_HOLD,
                     rounds: int = 100_000, seed: int = 1,
                     progress: bool = True) -> dict[int, tuple[float, float]]:
    """For each number of players: (win chance holding at exactly |sum| 3, at 3 or more)."""
    out = {}
    for p in progress_bar(players, len(players), _("player counts"), progress):
        table = hold_table(p, opponent_hold, rounds, seed, progress=False)
        out[p] = (float(table.chance[3]), table.chance_at_least(3))
    return out


@cached_chart
def claim_chart(players: Sequence[int] = (2, 3, 4, 5, 6), opponent_hold: int = MEDIUM_HOLD,
                rounds: int = 100_000, seed: int = 1, progress: bool = True) -> Chart:
    """Bar chart: how often a sum of exactly three, and of three or more (held), still wins,
    by number of players."""
    rates = claim_rates_both(players, opponent_hold, rounds, seed, progress)
    words = _claim_words(opponent_hold, rounds, rates)
    fig, ax = new_figure()
    ps = list(rates)
    xs = list(range(len(ps)))
    width = 0.4
    for shift, idx, color, label in ((-width / 2, 0, CLAIM_EXACT, words["exact"]),
                                     (width / 2, 1, CLAIM_MORE, words["more"])):
        pct = [100 * rates[p][idx] for p in ps]
        bars = ax.bar([x + shift for x in xs], pct, width=width, color=color, label=label)
        for b, v in zip(bars, pct, strict=True):
            ax.text(b.get_x() + b.get_width() / 2, v + 1, f"{v:.0f}%", ha="center", fontsize=8)
    ax.plot([x + d for x in xs for d in (-0.45, 0.45)],
            [100 / p for p in ps for _ in (0, 1)], linestyle="none")  # keeps the scale
    for x, p in zip(xs, ps, strict=True):
        ax.hlines(100 / p, x - 0.45, x + 0.45, colors="#333", linestyles="--", linewidth=1)
    ax.set_xticks(xs, [str(p) for p in ps])
    ax.set_ylim(0, 100)
    ax.legend(loc="upper right", fontsize=8)
    ax.set_xlabel(words["x"])
    ax.set_ylabel(words["y"])
    ax.set_title("\n".join(words["title"]))
    fig.tight_layout()
    return Chart(fig, words["alt"], words["rows"])


CLAIM_EXACT = "#e07b00"  # holding with |sum| exactly 3


CLAIM_MORE = "#b00020"  # holding with |sum| 3 or more


def _claim_words(opponent_hold: int, rounds: int,
                 rates: dict[int, tuple[float, float]]) -> dict[str, Any]:
    """The claim chart's words, from each count's (exactly 3, 3 or more) win chances."""
    rows = [_("{players}: exactly 3 {exact}, 3 or more {more} of rounds won (fair share "
              "{fair})").format(players=players_words(p), exact=percent_text(exact),
                                more=percent_text(more),
                                fair=f"{100 / p:.0f}%") for p, (exact, more) in rates.items()]
    alt = _("Bar chart of how often holding with |sum| exactly 3, and with 3 or more, still "
            "wins: {values}.").format(values="; ".join(rows))
    return {
        "rows": rows, "alt": alt, "exact": _("|sum| exactly 3"), "more": _("|sum| 3 or more"),
        "x": _("number of players (dashed: the fair share)"),
        "y": _("rounds won (%), a tie split"),
        "title": [_("Holding with |sum| 3, or 3 or more: how often does it still win?"),
                  _("others hold at {hold} or less; {rounds}").format(
                      hold=opponent_hold,
                      rounds=ngettext("{rounds} round each", "{rounds} rounds each",
                                      rounds).format(rounds=grouped(rounds)))],
    }


def claim_chart_plain(players: Sequence[int] = (2, 3, 4, 5, 6),
                      opponent_hold: int = MEDIUM_HOLD, rounds: int = 100_000, seed: int = 1,
                      progress: bool = True) -> Chart:
    """`claim_chart` without numpy or matplotlib: at most BROWSER_ROUNDS_PER_LINE rounds for
    each number of players, played in plain Python, drawn as SVG."""
    from widgets.lessons.strategy.plain import (
        BROWSER_ROUNDS_PER_LINE,
        Bars,
        chart_svg,
        hold_hit_tables,
    )

    for p in players:
        check_sizes(p, rounds)
    rounds = min(rounds, BROWSER_ROUNDS_PER_LINE)
    rates = {}
    for p in players:
        table = hold_hit_tables(p, opponent_hold, rounds, seed)[0]
        more = sum(table.count[3:])
        rates[p] = (table.chance[3], sum(table.wins[3:]) / more if more else math.nan)
    words = _claim_words(opponent_hold, rounds, rates)
    ps = list(rates)
    svg = chart_svg(
        [str(p) for p in ps], title=words["title"], x_label=words["x"], y_label=words["y"],
        alt=words["alt"], legend=[("bar", CLAIM_EXACT, words["exact"]),
                                  ("bar", CLAIM_MORE, words["more"])],
        bars=[Bars([100 * rates[p][0] for p in ps], CLAIM_EXACT, -0.2, 0.4, labels=True),
              Bars([100 * rates[p][1] for p in ps], CLAIM_MORE, 0.2, 0.4, labels=True)],
        dashes=[(100 / p, i, i, "") for i, p in enumerate(ps)])
    return played(SvgChart(svg, words["alt"], words["rows"]), rounds)


PLAIN_CHARTS.update({"hold_chart": hold_chart_plain, "threshold_chart": threshold_chart_plain,
                     "players_chart": players_chart_plain, "claim_chart": claim_chart_plain})
