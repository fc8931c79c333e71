"""The strategy lab's first experiment (hold or hit at each |sum|) without numpy or matplotlib,
for a kernel that has neither (the static site's, in the browser): Hit Me rounds played in plain
Python by the same threshold rules as engine.vector_sim, the chart drawn as SVG.

Each round deals every seat its own run of 7 cards from one shuffled deck (as
engine.vector_sim does); seat 0 is counted twice on the same deal: holding on its first two
cards, and hitting once then holding at |sum| `opponent_hold` or less like the others.
"""

from __future__ import annotations

import html
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import Convention, make_deck
from engine.hit_me import MAX_CARDS, HitMeConfig, hit_me_value

MAX_ABS = 20
# Rounds a page plays in the browser at most (plain Python there is about 20 times slower than
# numpy on the server): the chart says how many it played.
BROWSER_ROUNDS = 20_000


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


def hold_hit_tables(players: int, opponent_hold: int, rounds: int,
                    seed: int) -> tuple[PlainTable, PlainTable]:
    """Seat 0 holding and hitting at each |sum|, on the same `rounds` seeded deals."""
    deck = [hit_me_value(c, Convention.BLACK_POSITIVE)
            for c in make_deck(HitMeConfig(players=players).decks)]
    rng = random.Random(seed)
    need = MAX_CARDS * players
    count = [0] * (MAX_ABS + 1)
    hold = [0.0] * (MAX_ABS + 1)
    hit = [0.0] * (MAX_ABS + 1)
    for _ in range(rounds):
        cards = rng.sample(deck, need)
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
    """Bars (percent, 0-100) at 0..n-1 with dots over them, a dashed fair-share line, axes,
    a two-entry legend ((kind 'bar' or 'dot', colour, words)) and a title; on a white ground
    drawn in the SVG (a forced dark mode keeps it readable)."""
    w, h = 760, 430
    left, right, top, bottom = 60, 20, 60, 60
    pw, ph = w - left - right, h - top - bottom
    n = len(values)
    step = pw / n

    def x(i: float) -> float:
        return left + step * (i + 0.5)

    def y(p: float) -> float:
        return top + ph * (1 - p / 100)

    e = html.escape
    out = [f'<svg class="icg-chart-svg" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}"'
           f' role="img" aria-label="{e(alt, quote=True)}" style="max-width:100%;height:auto"'
           ' font-family="sans-serif" font-size="12">',
           f'<rect width="{w}" height="{h}" fill="#fff"/>']
    for i, line in enumerate(title):
        out.append(f'<text x="{w / 2}" y="{20 + 16 * i}" text-anchor="middle" fill="#111"'
                   f' font-size="14">{e(line)}</text>')
    for p in range(0, 101, 20):
        out.append(f'<line x1="{left}" x2="{left + pw}" y1="{y(p):.1f}" y2="{y(p):.1f}"'
                   ' stroke="#ddd"/>')
        out.append(f'<text x="{left - 6}" y="{y(p) + 4:.1f}" text-anchor="end"'
                   f' fill="#111">{p}</text>')
    for i, (v, c) in enumerate(zip(values, colors, strict=True)):
        v = 0.0 if math.isnan(v) else v
        out.append(f'<rect x="{x(i) - step * 0.4:.1f}" y="{y(v):.1f}" width="{step * 0.8:.1f}"'
                   f' height="{ph * v / 100:.1f}" fill="{c}"/>')
        out.append(f'<text x="{x(i):.1f}" y="{top + ph + 16}" text-anchor="middle"'
                   f' fill="#111">{i}</text>')
    for i, v in enumerate(dots):
        if not math.isnan(v):
            out.append(f'<circle cx="{x(i):.1f}" cy="{y(v):.1f}" r="4" fill="#1d4e89"/>')
    out.append(f'<line x1="{left}" x2="{left + pw}" y1="{y(fair):.1f}" y2="{y(fair):.1f}"'
               ' stroke="#333" stroke-dasharray="6 4"/>')
    out.append(f'<text x="{left + pw}" y="{y(fair) - 6:.1f}" text-anchor="end"'
               f' fill="#111">{e(fair_label)}</text>')
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
        mark = (f'<rect x="{lx}" y="{ly - 9}" width="12" height="10" fill="{color}"/>'
                if kind == "bar" else
                f'<circle cx="{lx + 6}" cy="{ly - 4}" r="4" fill="{color}"/>')
        out.append(mark + f'<text x="{lx + 18}" y="{ly}" fill="#111">{e(words)}</text>')
    out.append("</svg>")
    return "".join(out)
