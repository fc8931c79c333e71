"""The strategy lab: simulations and exact counts that answer "when should I hit?".

Each chart function runs its simulations in batches with a progress bar and returns a
`Chart`: a matplotlib Figure (`.figure`) with a text description for screen readers.
Hit Me uses the numpy simulator of threshold players (`engine.vector_sim`), so 100,000
rounds take well under a second. A threshold player with threshold T hits while
|sum| >= T, so it holds once |sum| is T - 1 or less; the charts speak of "holding at
|sum| H or less" (H = T - 1).
"""

from __future__ import annotations

import base64
import contextlib
import functools
import hashlib
import html
import importlib.util
import inspect
import io
import json
import logging
import math
import os
import random
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import ipywidgets as w

if TYPE_CHECKING:  # numpy, matplotlib and tqdm are imported when a chart is drawn; a page whose
    # charts all come from the cache imports none of them
    import numpy as np
    from matplotlib.figure import Figure

from engine.cards import make_deck
from engine.flapjack import FlapjackConfig, FlapjackState
from widgets.components import make_button
from widgets.page_lang import N_, check_lang, grouped, language, speaking, speaks
from widgets.words import _, ngettext

MEDIUM_HOLD = 3  # the 'medium' computer players hold at |sum| 3 or less (threshold 4)
MAX_ABS = 20  # two Hit Me cards are at most 20 from zero
BATCHES = 10


# ----- helpers ------------------------------------------------------------------------------
def _progress(items: Iterable[Any], total: int, desc: str, progress: bool) -> Iterable[Any]:
    # leave=True: a finished bar stays on the page (a closed bar widget shows an error in Voila)
    # plain words instead of tqdm's timing and "it/s" (noise for a student); without a bar,
    # tqdm is not imported (the browser's kernel has none)
    if not progress:
        return items
    from tqdm.auto import tqdm

    return tqdm(items, total=total, desc=_("Simulating: {what}").format(what=desc), leave=True,
                bar_format=_("{desc} {bar} {n_fmt} of {total_fmt} done"))


def _figure(width: float = 7.5, height: float = 4.2) -> tuple[Figure, Any]:
    """A new figure that pyplot does not keep (returned objects display once in a notebook)."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(width, height))
    plt.close(fig)
    return fig, ax


class Chart:
    """A matplotlib figure with a text description. In a notebook or Voila page it shows as
    an image with alternative text and its numbers in a fold-out list (for screen readers and
    for reading exact values); every Figure attribute (axes, savefig...) passes through.

    A chart read from the cache (see `cached_chart`) has its image but no figure until one is
    asked for: `rebuild` then draws it again."""

    def __init__(self, figure: Figure | None, alt: str, rows: Sequence[str] = (), *,
                 png: bytes | None = None, rebuild: Callable[[], Chart] | None = None) -> None:
        self._figure = figure
        self.alt = alt
        self.rows = list(rows)
        self._png = png
        self._rebuild = rebuild
        self.numbers_label = _("The numbers")  # in the language the chart was drawn in

    @property
    def figure(self) -> Figure:
        if self._figure is None:
            assert self._rebuild is not None, "a chart needs a figure or a way to draw one"
            self._figure = self._rebuild().figure
        return self._figure

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self.figure, name)

    def png(self) -> bytes:
        if self._png is None:
            buf = io.BytesIO()
            self.figure.savefig(buf, format="png", dpi=100)
            self._png = buf.getvalue()
        return self._png

    def _repr_html_(self) -> str:
        data = base64.b64encode(self.png()).decode("ascii")
        items = "".join(f"<li>{html.escape(r)}</li>" for r in self.rows)
        numbers = (f"<details><summary>{html.escape(self.numbers_label)}</summary>"
                   f"<ul>{items}</ul></details>" if items else "")
        return (f'<figure class="icg-chart" style="margin:0">'
                f'<img src="data:image/png;base64,{data}" alt="{html.escape(self.alt)}" '
                f'style="max-width:100%;height:auto"/>{numbers}</figure>')

    def __repr__(self) -> str:
        return f"<Chart: {self.alt}>"


# ----- the chart cache -------------------------------------------------------------------------
# A class opening the strategy lab would otherwise run the same seeded simulations and draw the
# same charts in every student's kernel (about 3 s of CPU each, 30 times over). A chart is the
# same for the same arguments and code, so it is kept on disk: the first kernel draws it (under
# a file lock: the others wait for it), the rest read it and never import matplotlib.
CACHE_ENV = "ICG_CHART_CACHE"  # a directory for the cache, or "off"
# The cache has a cap (every new deal code typed in the lab is a new chart: without one it grew
# by a 38 KiB file and a lock per run): past either limit the charts used longest ago are
# deleted with their locks. A chart read from the cache counts as used.
CACHE_MAX_MB_ENV, CACHE_MAX_MB = "ICG_CHART_CACHE_MAX_MB", 50.0
CACHE_MAX_FILES_ENV, CACHE_MAX_FILES = "ICG_CHART_CACHE_MAX_FILES", 500  # charts (json files)
log = logging.getLogger(__name__)


def chart_cache_dir() -> Path | None:
    """Where charts are kept: $ICG_CHART_CACHE, else $XDG_CACHE_HOME or ~/.cache, under
    integer-card-games/charts; None when ICG_CHART_CACHE is 'off'."""
    value = os.environ.get(CACHE_ENV, "")
    if value.lower() == "off":
        return None
    if value:
        return Path(value)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "integer-card-games" / "charts"


@functools.lru_cache(maxsize=1)
def _code_version() -> str:
    """Changes whenever the code that makes a chart (or a library that draws it) changes."""
    h = hashlib.sha256()
    for name in (__name__, "engine.vector_sim", "engine.cards", "engine.flapjack",
                 "engine.bots"):
        spec = importlib.util.find_spec(name)  # the source file, without importing it
        h.update(Path(spec.origin).read_bytes() if spec and spec.origin else name.encode())
    for package in ("matplotlib", "numpy"):  # their version files, found without importing
        spec = importlib.util.find_spec(package)
        origin = Path(spec.origin) if spec and spec.origin else None
        for name in ("_version.py", "version.py"):
            if origin is not None and (origin.parent / name).exists():
                h.update((origin.parent / name).read_bytes())
    return h.hexdigest()[:16]


def _cache_limit(env: str, default: float) -> float:
    try:
        value = float(os.environ.get(env, default))
    except ValueError:
        log.warning("%s must be a number; using %s", env, default)
        return default
    return value if value >= 0 else default


def _lock_free(path: Path) -> bool:
    """Is nobody drawing this chart now (its lock file not held by a kernel)?"""
    try:
        import fcntl

        with open(path, "a+") as f:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
    except ImportError:
        return True
    except OSError:
        return False


def evict_charts(folder: Path, keep: Path | None = None) -> int:
    """Delete the charts used longest ago (each with its lock) until the cache holds at most
    $ICG_CHART_CACHE_MAX_FILES charts and $ICG_CHART_CACHE_MAX_MB megabytes; a chart being
    drawn (its lock held) and `keep` stay. Locks and temporary files left without a chart by
    an interrupted draw go too. Returns the number of charts deleted."""
    max_bytes = _cache_limit(CACHE_MAX_MB_ENV, CACHE_MAX_MB) * 1_000_000
    max_files = int(_cache_limit(CACHE_MAX_FILES_ENV, CACHE_MAX_FILES))
    entries: dict[str, list[tuple[Path, os.stat_result]]] = {}
    for p in folder.iterdir():
        if p.suffix in (".json", ".lock", ".tmp"):
            try:
                entries.setdefault(p.name.split(".", 1)[0], []).append((p, p.stat()))
            except OSError:
                continue  # deleted meanwhile by another kernel
    charts = {k: v for k, v in entries.items() if any(p.suffix == ".json" for p, _ in v)}
    total = sum(st.st_size for v in entries.values() for _, st in v)
    count = len(charts)
    gone = 0
    keep_stem = keep.name.split(".", 1)[0] if keep is not None else None
    oldest = sorted(entries.items(), key=lambda kv: max(st.st_mtime for _, st in kv[1]))
    for stem, files in oldest:
        is_chart = stem in charts
        if is_chart and count <= max_files and total <= max_bytes:
            continue  # within the caps: only leftovers (locks without a chart) go
        if stem == keep_stem:
            continue
        lock = folder / f"{stem}.lock"
        if lock.exists() and not _lock_free(lock):
            continue
        for p, st in files:
            try:
                p.unlink()
                total -= st.st_size
            except OSError:
                pass
        if is_chart:
            count -= 1
            gone += 1
    return gone


def _key_value(v: Any) -> Any:
    return list(v) if isinstance(v, tuple | range | list) else v


# The simulations and charts need numpy and matplotlib; a kernel without them (the static
# site's, in the browser) draws each chart from plain-Python rounds as SVG (PLAIN_CHARTS), or
# shows a note in its place (checked without importing them).
SIMULATIONS = all(importlib.util.find_spec(m) is not None for m in ("numpy", "matplotlib"))


class NoSimulation(Chart):
    """In place of a chart in a kernel without numpy and matplotlib: a note that says where
    the simulation runs."""

    def __init__(self) -> None:
        super().__init__(None, _("This simulation needs numpy and matplotlib, which the lessons "
                                 "running in the browser do not have: open the strategy lab on "
                                 "the lessons' server (Voila) to run it."))

    def png(self) -> bytes:
        raise RuntimeError(self.alt)

    def _repr_html_(self) -> str:
        return f'<p class="icg-note" role="note">{html.escape(self.alt)}</p>'


def cached_chart(fn: Callable[..., Chart]) -> Callable[..., Chart]:
    """Keep `fn`'s charts on disk by arguments (progress aside) and code version."""
    sig = inspect.signature(fn)

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Chart:
        bound = sig.bind(*args, **kwargs)
        bound.apply_defaults()
        if not SIMULATIONS:  # the browser's kernel: the plain-Python chart, or a note
            plain = PLAIN_CHARTS.get(fn.__name__)
            return plain(*args, **kwargs) if plain else NoSimulation()
        folder = chart_cache_dir()
        if folder is None:
            return fn(*args, **kwargs)
        key_args = {k: _key_value(v) for k, v in bound.arguments.items() if k != "progress"}
        key_args["lang"] = language()  # a chart's words are in the language it was drawn in
        try:
            raw = json.dumps([fn.__name__, _code_version(), key_args], sort_keys=True)
        except TypeError:  # an argument that has no stable text form: no caching
            return fn(*args, **kwargs)
        key = hashlib.sha256(raw.encode()).hexdigest()[:32]
        path = folder / f"{fn.__name__}-{key}.json"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            lock = open(folder / f"{fn.__name__}-{key}.lock", "a+")  # noqa: SIM115
        except OSError as e:
            log.info("chart cache not writable (%s): drawing without it", e)
            return fn(*args, **kwargs)
        with lock:
            try:
                import fcntl

                fcntl.flock(lock, fcntl.LOCK_EX)  # one kernel draws, the others wait and read
            except (ImportError, OSError):
                pass
            try:
                kept = json.loads(path.read_text(encoding="utf-8"))
                with contextlib.suppress(OSError):
                    os.utime(path)  # used now: the cap deletes the charts used longest ago
                lang = language()

                def rebuild() -> Chart:
                    with speaking(lang):
                        return fn(*args, **kwargs)

                return Chart(None, kept["alt"], kept["rows"],
                             png=base64.b64decode(kept["png"]), rebuild=rebuild)
            except (OSError, ValueError, KeyError, TypeError):
                pass  # not there yet (or damaged): draw it
            chart = fn(*args, **kwargs)
            data = {"alt": chart.alt, "rows": chart.rows,
                    "png": base64.b64encode(chart.png()).decode("ascii")}
            try:
                tmp = path.with_suffix(f".{os.getpid()}.tmp")
                tmp.write_text(json.dumps(data), encoding="utf-8")
                os.replace(tmp, path)
                evict_charts(folder, keep=path)
            except OSError as e:
                log.info("chart cache not writable (%s)", e)
            return chart

    return wrapper


def _pct(x: float) -> str:
    return _("no rounds") if math.isnan(x) else f"{100 * x:.1f}%"


def _players(n: int) -> str:
    """'4 players'."""
    return ngettext("{n} player", "{n} players", n).format(n=n)


def _rounds(n: int) -> str:
    """'100,000 rounds'."""
    return ngettext("{rounds} round", "{rounds} rounds", n).format(rounds=grouped(n))


def _batch_seeds(seed: int, n: int) -> list[int]:
    return [seed * 1000 + i for i in range(n)]


def _batches(rounds: int, n: int = BATCHES) -> list[int]:
    n = max(1, min(n, rounds))
    return [rounds // n + (1 if i < rounds % n else 0) for i in range(n)]


def _check(players: int, rounds: int) -> None:
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 8:
        raise ValueError(f"players must be 2 to 8; got {players!r}")
    if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= 2_000_000:
        raise ValueError(f"rounds must be 1 to 2,000,000; got {rounds!r}")


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


def hold_table(players: int = 4, opponent_hold: int = MEDIUM_HOLD, rounds: int = 100_000,
               seed: int = 1, progress: bool = True) -> HoldTable:
    """Simulate `rounds` rounds where seat 0 holds on two cards and the others hold at
    |sum| `opponent_hold` or less; count seat 0's wins by its |sum|."""
    _check(players, rounds)
    import numpy as np

    from engine.vector_sim import hold_win_chance

    count = np.zeros(MAX_ABS + 1)
    wins = np.zeros(MAX_ABS + 1)
    parts = list(zip(_batches(rounds), _batch_seeds(seed, BATCHES), strict=False))
    for n, s in _progress(parts, len(parts), _players(players), progress):
        res = hold_win_chance(players, opponent_hold + 1, n, seed=s, max_abs=MAX_ABS)
        c = res["count"].astype(float)
        count += c
        wins += np.nan_to_num(res["win_chance"]) * c
    return HoldTable(np.arange(MAX_ABS + 1), count, wins)


def hit_table(players: int = 4, opponent_hold: int = MEDIUM_HOLD, rounds: int = 100_000,
              seed: int = 1, progress: bool = True) -> HoldTable:
    """Like `hold_table`, but seat 0 always hits its first two cards once and then follows the
    others' rule (hits while |sum| is more than `opponent_hold`); counted by the |sum| of its
    first two cards. Set beside `hold_table`, it answers "hold or hit at this |sum|?"."""
    _check(players, rounds)
    import numpy as np

    from engine.vector_sim import NEVER_HIT, deal_values, play_thresholds

    count = np.zeros(MAX_ABS + 1)
    wins = np.zeros(MAX_ABS + 1)
    t = np.array([NEVER_HIT] + [opponent_hold + 1] * (players - 1), dtype=np.int16)
    parts = list(zip(_batches(rounds), _batch_seeds(seed, BATCHES), strict=False))
    for n, s in _progress(parts, len(parts),
                          _("{players}, hitting").format(players=_players(players)), progress):
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


# the Flapjack variants' names as shown (engine.flapjack.VARIANT_NAMES, marked for translation)
VARIANT_TITLES = {"classic": N_("Classic"), "simple-ten": N_("Simple ten"),
                  "add-or-subtract": N_("Add or subtract")}

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
                k=k, hold=_pct(c), hit=_pct(h), rounds=_rounds(int(n)))
            for k, c, h, n in zip(abs_sum, chance, hit_chance, count, strict=True)]
    alt = (_("Bar chart of the chance to win when holding at each |sum|, {players}, with dots "
             "for hitting instead: {values}; {fair}.").format(
        players=_players(players),
        values="; ".join(_("{k}: hold {hold}, hit {hit}").format(k=k, hold=_pct(c), hit=_pct(h))
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
                  .format(players=_players(players), hold=opponent_hold),
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
    fig, ax = _figure()
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


class SvgChart(Chart):
    """A chart drawn as SVG (no matplotlib): shown inline with its numbers."""

    def __init__(self, svg: str, alt: str, rows: Sequence[str] = ()) -> None:
        super().__init__(None, alt, rows)
        self.svg = svg

    def png(self) -> bytes:
        raise RuntimeError("an SVG chart has no PNG")

    def _repr_html_(self) -> str:
        items = "".join(f"<li>{html.escape(r)}</li>" for r in self.rows)
        numbers = (f"<details><summary>{html.escape(self.numbers_label)}</summary>"
                   f"<ul>{items}</ul></details>" if items else "")
        return f'<figure class="icg-chart" style="margin:0">{self.svg}{numbers}</figure>'


def hold_chart_plain(players: int = 4, opponent_hold: int = MEDIUM_HOLD, rounds: int = 100_000,
                     seed: int = 1, progress: bool = True) -> Chart:
    """`hold_chart` without numpy or matplotlib (widgets.strategy_plain): at most
    BROWSER_ROUNDS rounds, played in plain Python, drawn as SVG."""
    from widgets.strategy_plain import BROWSER_ROUNDS, bar_chart_svg, hold_hit_tables

    _check(players, rounds)
    rounds = min(rounds, BROWSER_ROUNDS)
    table, hit = hold_hit_tables(players, opponent_hold, rounds, seed)
    words = _hold_words(players, opponent_hold, rounds, table.abs_sum, table.chance,
                        hit.chance, table.count)
    svg = bar_chart_svg(
        [0.0 if math.isnan(c) else 100 * c for c in table.chance],
        hold_colors(table.chance, players), [100 * c for c in hit.chance],
        fair=100 / players, fair_label=words["fair"], title=words["title"], x_label=words["x"],
        y_label=words["y"], legend=[("bar", HOLD_GOOD, words["hold"]),
                                    ("dot", "#1d4e89", words["hit"])], alt=words["alt"])
    return SvgChart(svg, words["alt"], words["rows"])


# ----- Hit Me: which threshold wins most ----------------------------------------------------
def threshold_win_rates(players: int = 4, holds: Sequence[int] = tuple(range(0, 11)),
                        opponent_hold: int = MEDIUM_HOLD, rounds: int = 50_000, seed: int = 1,
                        progress: bool = True) -> dict[int, float]:
    """Seat 0's share of wins (ties split) when it holds at |sum| H or less, for each H in
    `holds`, against opponents who hold at `opponent_hold` or less."""
    from engine.vector_sim import simulate_thresholds

    _check(players, rounds)
    out = {}
    for i, h in enumerate(_progress(holds, len(holds), "thresholds", progress)):
        t = [h + 1] + [opponent_hold + 1] * (players - 1)
        out[h] = simulate_thresholds(players, t, rounds, seed=seed * 1000 + i)["win_share"][0]
    return out


def rate_margin(rate: float, rounds: int) -> float:
    """Half the width of a 95% interval for a win rate measured over `rounds` rounds (ties
    split, so this binomial margin is an upper bound): another deal code lands within it 19
    times in 20."""
    return 1.96 * math.sqrt(max(rate * (1 - rate), 0.0) / rounds)


@cached_chart
def threshold_chart(players: int = 4, opponent_hold: int = MEDIUM_HOLD, rounds: int = 50_000,
                    seed: int = 1, progress: bool = True) -> Chart:
    """Line chart: your win rate for each holding rule 'hold at |sum| H or less'."""
    rates = threshold_win_rates(players, tuple(range(0, 11)), opponent_hold, rounds, seed,
                                progress)
    words = _threshold_words(players, opponent_hold, rounds, rates)
    fig, ax = _figure()
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
                                                                     share=_pct(rates[h]))
            for h in hs]
    alt = _("Line chart of rounds won for each holding rule, {players}: {values}. Best: hold at "
            "{best} or less.").format(
        players=_players(players), best=best,
        values="; ".join(_("hold at {hold}: {share}").format(hold=h, share=_pct(rates[h]))
                         for h in hs))
    return {
        "best": best, "rows": rows, "alt": alt,
        "interval": _("each bar: a {level} interval").format(level="95%"),
        "best_text": _("best: hold at {hold} or less").format(hold=best),
        "x": _("your rule: hold when |sum| is this or less (otherwise hit)"),
        "y": _("rounds won (%)"),
        "title": [_("Which holding rule wins most? {players}, others hold at {hold} or less")
                  .format(players=_players(players), hold=opponent_hold),
                  ngettext("{rounds} round per rule", "{rounds} rounds per rule",
                           rounds).format(rounds=grouped(rounds))],
    }


def threshold_chart_plain(players: int = 4, opponent_hold: int = MEDIUM_HOLD,
                          rounds: int = 50_000, seed: int = 1, progress: bool = True) -> Chart:
    """`threshold_chart` without numpy or matplotlib: every rule on the same seeded deals (at
    most BROWSER_RULE_ROUNDS), played in plain Python, drawn as SVG."""
    from widgets.strategy_plain import BROWSER_RULE_ROUNDS, Line, chart_svg, threshold_shares

    _check(players, rounds)
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
    return SvgChart(svg, words["alt"], words["rows"])


# ----- Hit Me: the number of players ----------------------------------------------------------
@cached_chart
def players_chart(players: Sequence[int] = (2, 3, 4, 6, 8), opponent_hold: int = MEDIUM_HOLD,
                  rounds: int = 100_000, seed: int = 1, progress: bool = True) -> Chart:
    """Win chance when holding at each |sum|, one line for each number of players."""
    fig, ax = _figure()
    chances = {}
    for p in _progress(players, len(players), _("player counts"), progress):
        table = hold_table(p, opponent_hold, rounds, seed, progress=False)
        chances[p] = [float(c) for c in table.chance[:11]]
        ax.plot(range(11), [100 * c for c in chances[p]], marker="o", label=_players(p))
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
        cells = [_("|sum| {k} {share}").format(k=k, share=_pct(c)) for k, c in enumerate(line)]
        rows.append(_("{players}: {values}").format(players=_players(p),
                                                    values=", ".join(cells)))
        firsts.append(_("{players}: {values}").format(players=_players(p),
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
    from widgets.strategy_plain import BROWSER_ROUNDS_PER_LINE, Line, chart_svg, hold_hit_tables

    for p in players:
        _check(p, rounds)
    rounds = min(rounds, BROWSER_ROUNDS_PER_LINE)
    chances = {p: hold_hit_tables(p, opponent_hold, rounds, seed)[0].chance[:11]
               for p in players}
    words = _players_words(rounds, chances)
    colors = [LINE_COLORS[i % len(LINE_COLORS)] for i in range(len(chances))]
    svg = chart_svg(
        [str(k) for k in range(11)], title=words["title"], x_label=words["x"],
        y_label=words["y"], alt=words["alt"],
        legend=[("line", c, _players(p)) for c, p in zip(colors, chances, strict=True)],
        lines=[Line([100 * c for c in line], color)
               for color, line in zip(colors, chances.values(), strict=True)])
    return SvgChart(svg, words["alt"], words["rows"])


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
    for p in _progress(players, len(players), _("player counts"), progress):
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
    fig, ax = _figure()
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
              "{fair})").format(players=_players(p), exact=_pct(exact), more=_pct(more),
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
    from widgets.strategy_plain import BROWSER_ROUNDS_PER_LINE, Bars, chart_svg, hold_hit_tables

    for p in players:
        _check(p, rounds)
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
    return SvgChart(svg, words["alt"], words["rows"])


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


def flapjack_hand_rates(variant: str = "classic", players: int = 2, games: int = 300,
                        seed: int = 1, progress: bool = True) -> dict[int, tuple[int, int]]:
    """Play `games` games between random players (each plays a random legal card). For each
    total faced on a turn: (turns, turns on which the player held a card making a Flapjack)."""
    cfg = FlapjackConfig(players=players, variant=variant)
    rng = random.Random(seed)
    counts: dict[int, list[int]] = {}
    for _game in _progress(range(games), games, _("games"), progress):
        state = FlapjackState.deal(cfg, rng=rng)
        while not state.over:
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
    fig, ax = _figure(8.5, 4.4)
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
                share=f"{100 * r.share:.1f}%")
             + ("; " + _("the player to move held one {share} of the time").format(
                 share=f"{held[r.total]:.0f}%") if r.total in held else "") for r in rows]
    alt = (_("Bar chart, for each running total, of the share of legal cards that make a "
             "Flapjack: {first} at {total}, {lowest} at the lowest. Dots: how often the player "
             "to move held such a card in simulated games").format(
        first=f"{100 * rows[0].share:.1f}%", total=f"{rows[0].total:+d}",
        lowest=f"{100 * min(r.share for r in rows):.1f}%")
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
            variant=_(VARIANT_TITLES.get(FlapjackConfig(variant=variant).variant, variant))),
    }


def flapjack_chart_plain(variant: str = "classic", games: int = 300, seed: int = 1,
                         progress: bool = True) -> Chart:
    """`flapjack_chart` drawn as SVG (its games are played by the engine, no numpy)."""
    from widgets.strategy_plain import Bars, Line, chart_svg

    rows = flapjack_chances(variant)
    sim = flapjack_hand_rates(variant, games=games, seed=seed, progress=False)
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


# ----- a panel for Voila pages ----------------------------------------------------------------
CHARTS: dict[str, Callable[..., Chart]] = {
    "hold": hold_chart,
    "threshold": threshold_chart,
    "players": players_chart,
    "claim": claim_chart,
}
ROUND_CHOICES = (1_000, 10_000, 100_000)
# the experiments the panel can switch between (both take a number of players)
PANEL_CHARTS = (("hold", N_("Hold or hit at each |sum|")),
                ("threshold", N_("Which holding rule wins most")))


# The charts drawn without numpy and matplotlib (in the browser), by chart function name.
PLAIN_CHARTS: dict[str, Callable[..., Chart]] = {
    "hold_chart": hold_chart_plain, "threshold_chart": threshold_chart_plain,
    "players_chart": players_chart_plain, "claim_chart": claim_chart_plain,
    "flapjack_chart": flapjack_chart_plain}


class ChartByPlayers(w.VBox):
    """One chart with a button for each number of players: the student picks, the chart for
    that many players replaces the one shown (charts come from the cache when they can).

    Light at load: one HTML widget and a row of buttons sharing their layout and style."""

    @speaks
    def __init__(self, chart: str = "threshold", players: Sequence[int] = (2, 3, 4, 5, 6),
                 value: int = 4, *, lang: str | None = None, **settings: Any) -> None:
        from widgets.components import html_widget, make_button, shared_layout

        self.lang = check_lang(lang)
        if chart not in ("hold", "threshold"):
            raise ValueError(f"chart must be 'hold' or 'threshold'; got {chart!r}")
        self.choices = tuple(players)
        if not self.choices or any(not isinstance(p, int) or isinstance(p, bool)
                                   or not 2 <= p <= 8 for p in self.choices):
            raise ValueError(f"players must be numbers from 2 to 8; got {players!r}")
        if value not in self.choices:
            raise ValueError(f"value must be one of {self.choices}; got {value!r}")
        inspect.signature(CHARTS[chart]).bind(players=value, **settings)  # a typo fails now
        self.chart = chart
        self.settings = settings
        self.players = value
        self.figure: Chart | None = None
        self.buttons = {p: make_button(_players(p), lambda p=p: self.choose(p),
                                       tooltip=_("show the chart for {players}").format(
                                           players=_players(p)))
                        for p in self.choices}
        self.status = html_widget()
        self.picture = html_widget()
        # the row wraps on a phone instead of cutting the buttons' labels
        label = html.escape(_("Number of players:"))
        super().__init__([w.HBox([html_widget(f"<b>{label}</b>"),
                                  *self.buttons.values()],
                                 layout=shared_layout(flex_flow="row wrap")),
                          self.status, self.picture])
        self.choose(value)

    @speaks
    def choose(self, players: Any) -> Chart | None:
        """Show the chart for `players` (a value the page sends is checked first)."""
        if players not in self.choices or isinstance(players, bool):
            text = _("Choose one of {choices} players.").format(
                choices=", ".join(map(str, self.choices)))
            self.status.value = f"<p role='status'>{html.escape(text)}</p>"
            return None
        self.players = players
        text = _("Showing the chart for {players}.").format(players=_players(players))
        self.status.value = f"<p role='status'>{html.escape(text)}</p>"
        self.figure = CHARTS[self.chart](players=players, progress=False, **self.settings)
        self.picture.value = self.figure._repr_html_()
        for p, b in self.buttons.items():
            b.disabled = p == players
        return self.figure


class SimulationPanel(w.VBox):
    """Controls for one chart (players, opponents, rounds, deal code) and a Run button.

    The figure appears below; the time the simulation took is shown with it."""

    @speaks
    def __init__(self, chart: str = "hold", players: int = 4, rounds: int = 100_000,
                 seed: int = 1, *, lang: str | None = None) -> None:
        self.lang = check_lang(lang)
        if chart not in CHARTS:
            raise ValueError(f"chart must be one of {', '.join(CHARTS)}; got {chart!r}")
        self.chart = chart
        self.figure: Chart | None = None
        self.experiment = w.Dropdown(options=[(_(label), name) for name, label in PANEL_CHARTS],
                                     value=chart if chart in dict(PANEL_CHARTS) else "hold",
                                     description=_("Chart:"),
                                     disabled=chart not in dict(PANEL_CHARTS),
                                     layout=w.Layout(width="28em"))
        self.players = w.Dropdown(options=list(range(2, 9)),
                                  value=players if players in range(2, 9) else 4,
                                  description=_("Players:"),
                                  disabled=chart in ("players", "claim"))
        self.opponents = w.Dropdown(
            options=[(_("hold at {hold} or less").format(hold=h), h) for h in range(0, 9)],
            value=MEDIUM_HOLD, description=_("Others:"))
        self.rounds = w.Dropdown(options=[(grouped(r), r) for r in ROUND_CHOICES],
                                 value=rounds if rounds in ROUND_CHOICES else 100_000,
                                 description=_("Rounds:"))
        self.seed = w.Text(value=str(seed), description=_("Deal code:"),
                           layout=w.Layout(width="14em"), continuous_update=False)
        self.run_button = make_button(_("Run the simulation"), self.run, button_style="primary")
        self.status = w.HTML()
        self.output = w.Output()
        super().__init__([self.experiment, w.HBox([self.players, self.opponents]),
                          w.HBox([self.rounds, self.seed, self.run_button]),
                          self.status, self.output])

    @speaks
    def run(self) -> Chart | None:
        """Run the chart with the chosen settings; a bad setting gets a message."""
        try:
            seed = int(str(self.seed.value).strip())
            if not 0 <= seed < 10**9:
                raise ValueError
        except ValueError:
            text = _("The deal code must be a whole number (0 or more).")
            self.status.value = f"<p>{html.escape(text)}</p>"
            return None
        if self.chart in dict(PANEL_CHARTS):
            chosen = self.experiment.value
            self.chart = chosen if chosen in dict(PANEL_CHARTS) else self.chart
        players = self.players.value if isinstance(self.players.value, int) else 4
        players = min(8, max(2, players))
        rounds = self.rounds.value if self.rounds.value in ROUND_CHOICES else 10_000
        hold = self.opponents.value if self.opponents.value in range(0, 9) else MEDIUM_HOLD
        self.run_button.disabled = True
        self.status.value = "<p>" + html.escape(_("Simulating\u2026")) + "</p>"
        start = time.perf_counter()
        kwargs: dict[str, Any] = {"opponent_hold": hold, "rounds": rounds, "seed": seed}
        if self.chart in ("hold", "threshold"):
            kwargs["players"] = players
        with self.output:
            self.output.clear_output(wait=True)
            fig = CHARTS[self.chart](**kwargs)
            try:
                from IPython.display import display
                display(fig)
            except ImportError:  # pragma: no cover - IPython comes with ipywidgets
                pass
        seconds = time.perf_counter() - start
        self.figure = fig
        done = _("Done: {rounds} a run, in {seconds} seconds.").format(
            rounds=_rounds(rounds), seconds=f"{seconds:.1f}")
        self.status.value = f"<p>{html.escape(done)}</p>"
        self.run_button.disabled = False
        return fig
