"""The chart cache: charts kept on disk by arguments, language and code version, and the
numbers of their simulations by arguments and code version (in no language); the note shown in
place of a chart in a kernel without numpy and matplotlib."""

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
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:  # numpy, matplotlib and tqdm are imported when a chart is drawn; a page whose
    # charts all come from the cache imports none of them
    pass

from widgets.lessons.strategy.charts import Chart
from widgets.page.language import language, speaking
from widgets.words import _

# ----- the chart cache -------------------------------------------------------------------------
# A class opening the strategy lab would otherwise run the same seeded simulations and draw the
# same charts in every student's kernel (about 11 s of CPU for the lab's first five, 30 times
# over). A chart is the same for the same arguments and code, so it is kept on disk: the first
# kernel draws it (under a file lock: the others wait for it), the rest read it and never import
# matplotlib. The rounds behind it are kept apart from its words, so the same chart in another
# language, or another chart of the same rounds, plays none of them again.
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


# What a kept entry depends on besides its arguments: the code that plays the rounds (and, for a
# chart, the code and libraries that draw it and the words it is drawn with).
NUMBERS_CODE = ("engine.vector_sim", "engine.cards", "engine.flapjack", "engine.bots",
                "widgets.lessons.strategy.charts", "widgets.lessons.strategy.hit_me_charts",
                "widgets.lessons.strategy.flapjack_charts", __name__)


CHART_LIBRARIES = ("numpy", "matplotlib")


@functools.cache
def _code_version(chart: bool) -> str:
    """Changes whenever the code that plays a chart's rounds changes (with `chart`, also the
    code and libraries that draw it and its words' catalogues)."""
    h = hashlib.sha256()
    for name in NUMBERS_CODE:
        spec = importlib.util.find_spec(name)  # the source file, without importing it
        h.update(Path(spec.origin).read_bytes() if spec and spec.origin else name.encode())
    for package in CHART_LIBRARIES if chart else ("numpy",):  # their version files
        spec = importlib.util.find_spec(package)
        origin = Path(spec.origin) if spec and spec.origin else None
        for name in ("_version.py", "version.py"):
            if origin is not None and (origin.parent / name).exists():
                h.update((origin.parent / name).read_bytes())
    if chart:
        locale = Path(__file__).resolve().parents[2] / "locale"
        for po in sorted(locale.glob("*/LC_MESSAGES/icg.po")):
            h.update(po.read_bytes())
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


T = TypeVar("T")


# The numbers are kept in a folder of their own inside the cache, capped as the charts are (a
# kept table is about 1 kB).
NUMBERS_FOLDER = "numbers"


def _through_cache(name: str, key_args: dict[str, Any], version: str, make: Callable[[], T],
                   dump: Callable[[T], dict[str, Any]], load: Callable[[dict[str, Any]], T],
                   sub: str = "") -> T:
    """`make()`'s result kept on disk as `dump` gives it, under `name`, the arguments and the
    code version (in the cache's folder `sub`): the first process makes it (under a file lock:
    the others wait for it), the rest read it with `load`. Without a usable cache folder,
    simply `make()`."""
    top = chart_cache_dir()
    if top is None:
        return make()
    folder = top / sub if sub else top
    try:
        raw = json.dumps([name, version, key_args], sort_keys=True)
    except TypeError:  # an argument that has no stable text form: no caching
        return make()
    key = hashlib.sha256(raw.encode()).hexdigest()[:32]
    path = folder / f"{name}-{key}.json"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        lock = open(folder / f"{name}-{key}.lock", "a+")  # noqa: SIM115
    except OSError as e:
        log.info("chart cache not writable (%s): working without it", e)
        return make()
    with lock:
        try:
            import fcntl

            fcntl.flock(lock, fcntl.LOCK_EX)  # one process makes it, the others wait and read
        except (ImportError, OSError, AttributeError):  # no flock (Pyodide's fcntl has none)
            pass
        try:
            kept = load(json.loads(path.read_text(encoding="utf-8")))
            with contextlib.suppress(OSError):
                os.utime(path)  # used now: the cap deletes the entries used longest ago
            return kept
        except (OSError, ValueError, KeyError, TypeError, IndexError):
            pass  # not there yet (or damaged): make it
        value = make()
        try:
            tmp = path.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_text(json.dumps(dump(value)), encoding="utf-8")
            os.replace(tmp, path)
            evict_charts(folder, keep=path)
        except OSError as e:
            log.info("chart cache not writable (%s)", e)
        return value


def _key_args(sig: inspect.Signature, args: tuple[Any, ...],
              kwargs: dict[str, Any]) -> dict[str, Any]:
    """A call's arguments by name, defaults filled in, the progress bar's switch left out."""
    bound = sig.bind(*args, **kwargs)
    bound.apply_defaults()
    return {k: _key_value(v) for k, v in bound.arguments.items() if k != "progress"}


def cached_chart(fn: Callable[..., Chart]) -> Callable[..., Chart]:
    """Keep `fn`'s charts on disk by arguments (progress aside), language and code version."""
    sig = inspect.signature(fn)

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Chart:
        if not SIMULATIONS:  # the browser's kernel: the plain-Python chart, or a note
            plain = PLAIN_CHARTS.get(fn.__name__)
            return plain(*args, **kwargs) if plain else NoSimulation()
        key_args = _key_args(sig, args, kwargs)
        lang = language()
        key_args["lang"] = lang  # a chart's words are in the language it was drawn in

        def rebuild() -> Chart:
            with speaking(lang):
                return fn(*args, **kwargs)

        def load(kept: dict[str, Any]) -> Chart:
            return Chart(None, kept["alt"], kept["rows"], png=base64.b64decode(kept["png"]),
                         rebuild=rebuild)

        def dump(chart: Chart) -> dict[str, Any]:
            return {"alt": chart.alt, "rows": chart.rows,
                    "png": base64.b64encode(chart.png()).decode("ascii")}

        return _through_cache(fn.__name__, key_args, _code_version(chart=True),
                              lambda: fn(*args, **kwargs), dump, load)

    return wrapper


def cached_numbers(dump: Callable[[Any], dict[str, Any]],
                   load: Callable[[dict[str, Any]], Any]) -> Callable[[Callable[..., T]],
                                                                   Callable[..., T]]:
    """Keep a simulation's numbers on disk by arguments (progress aside) and code version, in
    no language: a chart drawn in another language, or another chart of the same rounds,
    reads them instead of playing the rounds again. `dump` makes the result JSON, `load`
    makes it back. In a kernel without numpy and matplotlib (the browser's), nothing is kept:
    its plain-Python charts keep their rounds in memory."""

    def decorate(fn: Callable[..., T]) -> Callable[..., T]:
        sig = inspect.signature(fn)

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> T:
            if not SIMULATIONS:  # the browser's kernel: nobody to share a disk with
                return fn(*args, **kwargs)
            return _through_cache(fn.__name__, _key_args(sig, args, kwargs),
                                  _code_version(chart=False), lambda: fn(*args, **kwargs),
                                  dump, load, NUMBERS_FOLDER)

        return wrapper

    return decorate


# The charts drawn without numpy and matplotlib (in the browser), by chart function name; each
# chart module enters its own.
PLAIN_CHARTS: dict[str, Callable[..., Chart]] = {}
