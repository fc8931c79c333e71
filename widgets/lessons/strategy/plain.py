"""The strategy lab's experiments without numpy or matplotlib, for a kernel that has neither
(the static site's, in the browser): Hit Me rounds played in plain Python by the same threshold
rules as engine.vector_sim, the charts drawn as SVG (`bar_chart_svg`, `chart_svg`).

Each round deals every seat its own run of 7 cards from one shuffled deck (as
engine.vector_sim does); seat 0 is counted twice on the same deal: holding on its first two
cards, and hitting once then holding at |sum| `opponent_hold` or less like the others.
"""

from __future__ import annotations

import functools
import html
import math
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from engine.cards import Convention, make_deck
from engine.hit_me import MAX_CARDS, HitMeConfig, hit_me_value

MAX_ABS = 20
# Rounds a page plays in the browser at most (plain Python there is about 20 times slower than
# numpy on the server): the chart says how many it played.
BROWSER_ROUNDS = 20_000
# Rounds for each line of a chart with one line (or pair of bars) per number of players: the
# chart's rounds are shared between its lines.
BROWSER_ROUNDS_PER_LINE = 5_000
# Rounds for the chart of holding rules (every rule plays the same deals).
BROWSER_RULE_ROUNDS = 10_000


@dataclass(frozen=True)
class PlainTable:
    """Rounds seen and wins (ties split) at each |sum| 0..MAX_ABS of seat 0's first two cards."""

    count: list[int]
    wins: list[float]

    @property
    def abs_sum(self) -> list[int]:
        return list(range(MAX_ABS + 1))

    @property
    def chance(self) -> list[float]:
        return [w / c if c else math.nan for w, c in zip(self.wins, self.count, strict=True)]


def _final(cards: Sequence[int], hold_at: int, first_hit: bool = False) -> int:
    """The final sum of a seat that hits while |sum| is more than `hold_at` (at most 7 cards);
    `first_hit`: it takes one card whatever its first two are."""
    s = cards[0] + cards[1]
    k = 2
    if first_hit:
        s += cards[2]
        k = 3
    while k < MAX_CARDS and abs(s) > hold_at:
        s += cards[k]
        k += 1
    return s


def _share(mine: int, best: int, tied: int) -> float:
    """Seat 0's share of the round: |sum| `mine` against the others' best `best` (`tied` of
    them at it)."""
    if mine < best:
        return 1.0
    return 1.0 / (tied + 1) if mine == best else 0.0


def _deals(players: int, rounds: int, seed: int) -> Iterator[list[int]]:
    """`rounds` seeded deals: each a run of MAX_CARDS values for every seat, one after the
    other, from one shuffled deck."""
    deck = [hit_me_value(c, Convention.BLACK_POSITIVE)
            for c in make_deck(HitMeConfig(players=players).decks)]
    rng = random.Random(seed)
    need = MAX_CARDS * players
    for _ in range(rounds):
        yield rng.sample(deck, need)


@functools.lru_cache(maxsize=16)  # the static site's snapshot keeps the lab's first chart
def threshold_shares(players: int, holds: tuple[int, ...], opponent_hold: int, rounds: int,
                     seed: int) -> dict[int, float]:
    """Seat 0's share of the rounds won (ties split) when it holds at |sum| H or less, for
    each H of `holds`, against others who hold at `opponent_hold` or less. Every rule plays
    the same seeded deals, so the rules differ by the rule only, not by the luck of the deal."""
    won = dict.fromkeys(holds, 0.0)
    for cards in _deals(players, rounds, seed):
        others = [abs(_final(cards[i:i + MAX_CARDS], opponent_hold))
                  for i in range(MAX_CARDS, MAX_CARDS * players, MAX_CARDS)]
        best = min(others)
        tied = others.count(best)
        for h in holds:
            won[h] += _share(abs(_final(cards, h)), best, tied)
    return {h: w / rounds for h, w in won.items()}


@functools.lru_cache(maxsize=32)  # the players and claim charts share their tables
def hold_hit_tables(players: int, opponent_hold: int, rounds: int,
                    seed: int) -> tuple[PlainTable, PlainTable]:
    """Seat 0 holding and hitting at each |sum|, on the same `rounds` seeded deals."""
    need = MAX_CARDS * players
    count = [0] * (MAX_ABS + 1)
    hold = [0.0] * (MAX_ABS + 1)
    hit = [0.0] * (MAX_ABS + 1)
    for cards in _deals(players, rounds, seed):
        others = [abs(_final(cards[i:i + MAX_CARDS], opponent_hold))
                  for i in range(MAX_CARDS, need, MAX_CARDS)]
        best = min(others)
        tied = others.count(best)
        k = min(abs(cards[0] + cards[1]), MAX_ABS)
        count[k] += 1
        hold[k] += _share(k, best, tied)
        hit[k] += _share(abs(_final(cards, opponent_hold, first_hit=True)), best, tied)
    return PlainTable(count, hold), PlainTable(list(count), hit)


def bar_chart_svg(values: Sequence[float], colors: Sequence[str], dots: Sequence[float], *,
                  fair: float, fair_label: str, title: Sequence[str], x_label: str,
                  y_label: str, legend: Sequence[tuple[str, str, str]], alt: str) -> str:
    """Bars (percent, 0-100; NaN: an empty bar) at 0..n-1 with dots over them, a dashed
    fair-share line across every bar, axes, a legend ((kind 'bar' or 'dot', colour, words))
    and a title: `chart_svg` with those parts."""
    n = len(values)
    return chart_svg([str(i) for i in range(n)], title=title, x_label=x_label, y_label=y_label,
                     alt=alt, legend=legend,
                     bars=[Bars([0.0 if math.isnan(v) else v for v in values], list(colors))],
                     lines=[Line(list(dots), DOT_COLOR, joined=False)],
                     dashes=[(fair, 0, n - 1, fair_label)])


DOT_COLOR = "#1d4e89"


def _ticks(low: float, high: float) -> list[float]:
    """About five round values from `low` to `high` for a value axis."""
    span = max(high - low, 1e-9)
    step = 10 ** math.floor(math.log10(span / 5))
    for m in (1, 2, 5, 10):
        if span / (step * m) <= 6:
            step *= m
            break
    first = math.ceil(low / step) * step
    return [round(first + i * step, 10) for i in range(int((high - first) / step + 1e-9) + 1)]


@dataclass(frozen=True)
class Bars:
    """One bar at each slot (NaN: none): its colour (one, or one per bar), its place across
    the slot (`shift`, `width` as parts of a slot) and whether its value is written over it."""

    values: Sequence[float]
    color: str | Sequence[str]
    shift: float = 0.0
    width: float = 0.8
    labels: bool = False


@dataclass(frozen=True)
class Line:
    """A point at each slot (NaN: none), joined when `joined`, with error bars `errors`."""

    values: Sequence[float]
    color: str
    joined: bool = True
    errors: Sequence[float] | None = None


def chart_svg(x_labels: Sequence[str], *, title: Sequence[str], x_label: str, y_label: str,
              alt: str, legend: Sequence[tuple[str, str, str]], bars: Sequence[Bars] = (),
              lines: Sequence[Line] = (),
              dashes: Sequence[tuple[float, int, int, str]] = (),
              stars: Sequence[tuple[int, float, str, str]] = (),
              y_range: tuple[float, float] = (0, 100)) -> str:
    """A chart over the slots `x_labels`: bars, lines of points, dashed levels ((value, first
    slot, last slot, words) across those slots) and stars ((slot, value, colour, words)), a
    legend ((kind 'bar', 'dot' or 'line', colour, words)) and a title; on a white ground drawn
    in the SVG (a forced dark mode keeps it readable)."""
    w, h = 760, 430
    left, right, top, bottom = 60, 20, 60, 60
    pw, ph = w - left - right, h - top - bottom
    step = pw / len(x_labels)
    lo, hi = y_range

    def x(i: float) -> float:
        return left + step * (i + 0.5)

    def y(v: float) -> float:
        return top + ph * (1 - (min(max(v, lo), hi) - lo) / (hi - lo))

    e = html.escape
    out = [f'<svg class="icg-chart-svg" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}"'
           f' role="img" aria-label="{e(alt, quote=True)}" style="max-width:100%;height:auto"'
           ' font-family="sans-serif" font-size="12">',
           f'<rect width="{w}" height="{h}" fill="#fff"/>']
    for i, line in enumerate(title):
        out.append(f'<text x="{w / 2}" y="{20 + 16 * i}" text-anchor="middle" fill="#111"'
                   f' font-size="14">{e(line)}</text>')
    for v in _ticks(lo, hi):
        out.append(f'<line x1="{left}" x2="{left + pw}" y1="{y(v):.1f}" y2="{y(v):.1f}"'
                   ' stroke="#ddd"/>')
        out.append(f'<text x="{left - 6}" y="{y(v) + 4:.1f}" text-anchor="end"'
                   f' fill="#111">{v:g}</text>')
    for i, label in enumerate(x_labels):
        out.append(f'<text x="{x(i):.1f}" y="{top + ph + 16}" text-anchor="middle"'
                   f' fill="#111">{e(label)}</text>')
    for b in bars:
        colors = [b.color] * len(b.values) if isinstance(b.color, str) else list(b.color)
        for i, v in enumerate(b.values):
            if math.isnan(v):
                continue
            bx = x(i + b.shift) - step * b.width / 2
            out.append(f'<rect x="{bx:.1f}" y="{y(v):.1f}" width="{step * b.width:.1f}"'
                       f' height="{y(lo) - y(v):.1f}" fill="{colors[i]}"/>')
            if b.labels:
                out.append(f'<text x="{x(i + b.shift):.1f}" y="{y(v) - 4:.1f}"'
                           f' text-anchor="middle" fill="#111" font-size="10">{v:.0f}%</text>')
    for value, first, last, words in dashes:
        x1, x2 = x(first) - step * 0.45, x(last) + step * 0.45
        out.append(f'<line x1="{x1:.1f}" x2="{x2:.1f}" y1="{y(value):.1f}" y2="{y(value):.1f}"'
                   ' stroke="#333" stroke-dasharray="6 4"/>')
        if words:
            out.append(f'<text x="{x2:.1f}" y="{y(value) - 6:.1f}" text-anchor="end"'
                       f' fill="#111">{e(words)}</text>')
    for line in lines:
        points = [(x(i), y(v)) for i, v in enumerate(line.values) if not math.isnan(v)]
        if line.joined and len(points) > 1:
            path = " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
            out.append(f'<polyline points="{path}" fill="none" stroke="{line.color}"'
                       ' stroke-width="2"/>')
        for i, v in enumerate(line.values):
            if math.isnan(v):
                continue
            if line.errors is not None:
                err = line.errors[i]
                out.append(f'<line x1="{x(i):.1f}" x2="{x(i):.1f}" y1="{y(v - err):.1f}"'
                           f' y2="{y(v + err):.1f}" stroke="{line.color}"/>')
                for cap in (v - err, v + err):
                    out.append(f'<line x1="{x(i) - 4:.1f}" x2="{x(i) + 4:.1f}"'
                               f' y1="{y(cap):.1f}" y2="{y(cap):.1f}" stroke="{line.color}"/>')
            out.append(f'<circle cx="{x(i):.1f}" cy="{y(v):.1f}" r="4" fill="{line.color}"/>')
    for i, v, color, words in stars:
        cx, cy = x(i), y(v)
        pts = " ".join(f"{cx + r * math.sin(k * math.pi / 5):.1f},"
                       f"{cy - r * math.cos(k * math.pi / 5):.1f}"
                       for k, r in zip(range(10), [11, 4.5] * 5, strict=True))
        out.append(f'<polygon points="{pts}" fill="{color}"/>')
        out.append(f'<text x="{cx + 10:.1f}" y="{cy - 10:.1f}" fill="#111">{e(words)}</text>')
    out.append(f'<line x1="{left}" x2="{left}" y1="{top}" y2="{top + ph}" stroke="#111"/>')
    out.append(f'<line x1="{left}" x2="{left + pw}" y1="{top + ph}" y2="{top + ph}"'
               ' stroke="#111"/>')
    out.append(f'<text x="{left + pw / 2}" y="{h - 14}" text-anchor="middle"'
               f' fill="#111">{e(x_label)}</text>')
    out.append(f'<text transform="translate(16 {top + ph / 2}) rotate(-90)"'
               f' text-anchor="middle" fill="#111">{e(y_label)}</text>')
    for i, (kind, color, words) in enumerate(legend):
        ly = top + 14 + 18 * i
        lx = left + pw - 330
        mark = {"bar": f'<rect x="{lx}" y="{ly - 9}" width="12" height="10" fill="{color}"/>',
                "line": f'<line x1="{lx}" x2="{lx + 14}" y1="{ly - 4}" y2="{ly - 4}"'
                        f' stroke="{color}" stroke-width="2"/>'}.get(
            kind, f'<circle cx="{lx + 6}" cy="{ly - 4}" r="4" fill="{color}"/>')
        out.append(mark + f'<text x="{lx + 18}" y="{ly}" fill="#111">{e(words)}</text>')
    out.append("</svg>")
    return "".join(out)
