"""The chart cache: charts kept on disk by arguments, language and code version; the note
shown in place of a chart in a kernel without numpy and matplotlib."""

from __future__ import annotations

import base64
import contextlib
import functools
import hashlib
import html
import importlib.util
import inspect
import json
import logging
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # numpy, matplotlib and tqdm are imported when a chart is drawn; a page whose
    # charts all come from the cache imports none of them
    pass

from widgets.lessons.strategy.charts import Chart
from widgets.page.language import language, speaking
from widgets.words import _

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


# The charts drawn without numpy and matplotlib (in the browser), by chart function name; each
# chart module enters its own.
PLAIN_CHARTS: dict[str, Callable[..., Chart]] = {}
