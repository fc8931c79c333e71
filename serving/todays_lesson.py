"""Today's lesson, ready: the server keeps a pool of preheated kernels of the lesson the
teacher chose on the class page (rooms/live_class.py), as many as the class size, and gives
the pools of the other lessons back their configured size.

`ClassroomKernelManager` (serving/kernels.py) starts a `TodaysLesson` on its loop when Voila
preheats kernels; every `every` seconds (2) it reads the live class's one row and, when the
lesson or the size changed:

- the lesson's notebook in the class's language (lessons/ itself, or its language's folder:
  lessons/es/ for a class the teacher runs from the Spanish class view) gets a pool of `wanted`
  kernels (its copies in the other languages keep their configured size);
- the lesson that was today's before goes back to the size voila.json gives it; kernels
  waiting in its pool beyond that size are shut down (drained);
- `wanted` is bounded by memory: the class size, but no more kernels than fit in the memory
  the machine has free now (MemAvailable, less `reserve_mib`, at `kernel_mib` each, counting
  the kernels already started in the pool) and under `max_kernels`. When fewer fit the log
  says so ("Today's lesson ...: 18 of 30 kernels fit ...") and the class page's status line
  shows "ready for 18 of 30": the other students' pages start when opened, as a lesson not
  chosen does (slower, never refused for that).

The bound is checked again every `memory_every` seconds (30) while a lesson is today's, not
only when the teacher changes it: the students' pages take kernels from the pool, the pool
refills, other programs use memory. When less fits than the pool holds, the pool gets smaller
and the kernels waiting beyond its new size are shut down (a page a student has open is never
touched); when memory is free again, it grows back to the class size. Each change is a line
in the log and the class page's status line ("ready for 18 of 30 students").

A lesson not chosen keeps working: its pages start from its own (small) pool or on demand.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

KERNEL_MIB = 55  # a lesson page's kernel (docs/deploy.md: about 55 MB)
RESERVE_MIB = 512  # left free for the server, the database and the system


def mem_available_mib() -> int | None:
    """The memory the machine has free for new processes (Linux MemAvailable), in MiB."""
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) // 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def fits(wanted: int, waiting: int, available_mib: int | None, running: int,
         max_kernels: int, kernel_mib: int = KERNEL_MIB, reserve_mib: int = RESERVE_MIB
         ) -> int:
    """How many kernels today's pool may hold: `wanted`, bounded by the memory free now
    (the `waiting` kernels already started in the pool use theirs; with less than
    `reserve_mib` free, fewer than them: enough of them go to free the reserve again) and by
    `max_kernels` (0: no cap)."""
    n = wanted
    if available_mib is not None:
        n = min(n, waiting + (available_mib - reserve_mib) // kernel_mib)
    if max_kernels > 0:
        n = min(n, waiting + max(0, max_kernels - running))
    return max(0, n)


def lesson_notebooks(lesson: int, root: Path) -> list[str]:
    """The served notebooks of lesson `lesson` (its number: '03_...ipynb' in the root and in
    each language folder), as paths relative to the root."""
    prefix = f"{lesson:02d}_"
    return sorted(str(p.relative_to(root)) for p in root.glob(f"**/{prefix}*.ipynb")
                  if ".ipynb_checkpoints" not in p.parts)


def started(pool: list[Any]) -> int:
    """The kernels of a pool that have started (their memory is in use)."""
    n = 0
    for item in pool:
        try:
            if item.done() and not item.cancelled() and item.exception() is None:
                n += 1
        except Exception:  # noqa: BLE001 - not a future: not counted
            continue
    return n


class TodaysLesson:
    """Follows the live class's lesson and sizes the pools (see the module's text).
    `measure`: the memory free now in MiB (None: unknown); the machine's MemAvailable unless
    given. `clock`: seconds, for `memory_every`."""

    def __init__(self, manager: Any, *, url: str | None = None, every: float = 2.0,
                 kernel_mib: int = KERNEL_MIB, reserve_mib: int = RESERVE_MIB,
                 memory_every: float = 30.0,
                 measure: Callable[[], int | None] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.manager = manager
        self.url = url
        self.every = float(every)
        self.kernel_mib, self.reserve_mib = kernel_mib, reserve_mib
        self.memory_every = float(memory_every)
        self.measure = measure
        self.clock = clock
        self.memory_checked = clock()
        self.ready: int | None = None  # the size today's pool was given (None: no lesson)
        self.store: Any = None
        self.current: tuple[int | None, int, str] = (None, 0, "")
        self.notebooks: list[str] = []  # today's lesson's notebooks, every language
        self.main: str | None = None  # the one of them whose pool is the class's
        self.configured: dict[str, Any] = {}  # voila.json's pool entries we changed
        self.stopped = False
        self.task: asyncio.Task | None = None

    def start(self) -> None:
        self.task = asyncio.ensure_future(self._run())

    def stop(self) -> None:
        self.stopped = True
        if self.task is not None:
            self.task.cancel()

    async def _run(self) -> None:
        while not self.stopped:
            try:
                self.check()
            except Exception as e:  # noqa: BLE001 - the pools stay as they are
                log.warning("Today's lesson: the live class cannot be read: %s", e)
                self.store = None
            await asyncio.sleep(self.every)

    def _state(self) -> Any:
        if self.store is None:
            from rooms.live_class import open_live_class

            self.store = open_live_class(self.url)
        return self.store.state()

    def check(self) -> bool:
        """One look at the live class (and, every `memory_every` seconds, at the memory free);
        True when the pools were resized."""
        state = self._state()
        want = (state.lesson, state.class_size if state.lesson is not None else 0,
                state.lang if state.lesson is not None else "")
        if want != self.current:
            self.apply(*want)
            return True
        if self.clock() - self.memory_checked >= self.memory_every:
            return self.keep_within_memory()
        return False

    def _free_mib(self) -> int | None:
        return (self.measure or mem_available_mib)()

    def _fits(self, main: str, size: int, available: int | None) -> int:
        m = self.manager
        running = m.kernel_count() if hasattr(m, "kernel_count") else 0
        waiting = started(getattr(m, "_pools", {}).get(main, []))
        return fits(size, waiting, available, running, int(getattr(m, "max_kernels", 0)),
                    self.kernel_mib, self.reserve_mib)

    def keep_within_memory(self) -> bool:
        """Today's pool bounded again by the memory free now: smaller (the kernels waiting
        beyond its new size shut down) or back towards the class size. True when its size
        changed; the log and the class page's status line say so."""
        self.memory_checked = self.clock()
        main, size = self.main, self.current[1]
        if main is None or self.ready is None:
            return False
        available = self._free_mib()
        ready = self._fits(main, size, available)
        was = self.ready
        if ready == was:
            return False
        self._size_pool(main, ready, why="the memory free")
        if ready < was:
            log.warning("Today's lesson %s: %s MiB free now (about %d MiB a kernel, %d MiB kept "
                        "free): the pool keeps %d of %d kernels ready (was %d); the kernels "
                        "waiting beyond that are shut down, the other pages start when opened.",
                        main, available, self.kernel_mib, self.reserve_mib, ready, size, was)
        else:
            log.info("Today's lesson %s: %s MiB free now: the pool grows to %d of %d kernels "
                     "(was %d).", main, available, ready, size, was)
        self._report(ready, size)
        return True

    def _size_pool(self, main: str, ready: int, why: str) -> None:
        """Today's pool holds `ready` kernels: the ones beyond it shut down, or more started."""
        m = self.manager
        pools = dict(getattr(m, "kernel_pools_config", {}) or {})
        pools[main] = {**(pools.get(main) or {}), "pool_size": ready}
        m.kernel_pools_config = pools
        was, self.ready = self.ready, ready
        if was is not None and ready < was:
            self._drain(main, why=why)
        elif hasattr(m, "fill_if_needed"):
            m.fill_if_needed(delay=0, notebook_name=main)

    def _report(self, ready: int, size: int) -> None:
        try:
            self.store.report_pool(ready, size)
        except Exception:  # noqa: BLE001 - only the teacher's status line
            pass

    def _root(self) -> Path:
        return Path(getattr(self.manager, "root_dir", None) or ".").resolve()

    def apply(self, lesson: int | None, size: int, lang: str = "") -> None:
        m = self.manager
        pools = dict(getattr(m, "kernel_pools_config", {}) or {})
        new = lesson_notebooks(lesson, self._root()) if lesson is not None else []
        # today's lesson in the class's language (the other languages' copies keep their
        # configured size)
        folder = "." if lang in ("", "en") else lang
        main = next((n for n in new if str(Path(n).parent) == folder), new[0]) if new else None
        old = self.main
        if old is not None and old != main:  # no longer today's: its configured size, drained
            if self.configured.get(old) is None:
                pools.pop(old, None)
            else:
                pools[old] = self.configured[old]
            m.kernel_pools_config = pools
            self._drain(old)
        self.notebooks, self.main, self.current = new, main, (lesson, size, lang)
        self.memory_checked = self.clock()
        if main is None:
            self.ready = None
            return
        available = self._free_mib()
        ready = self._fits(main, size, available)
        if main not in self.configured:
            self.configured[main] = pools.get(main)
        if ready < size:
            log.warning("Today's lesson %s: %d of %d kernels fit (%s MiB free, about %d MiB "
                        "each, max_kernels %s); the other pages start when opened.", main,
                        ready, size, available, self.kernel_mib,
                        getattr(m, "max_kernels", 0))
        else:
            log.info("Today's lesson %s: a pool of %d kernels (about %d MiB).", main, ready,
                     ready * self.kernel_mib)
        self._report(ready, size)
        denied = getattr(m, "preheat_denylist", None)
        if denied:
            m.preheat_denylist = [p for p in denied if p not in new]
        if old != main:
            self.ready = None  # another notebook's pool: sized, then filled
        self._size_pool(main, ready, why="a smaller class")

    def _drain(self, name: str, why: str = "no longer today's lesson") -> None:
        """Shut down the kernels waiting in `name`'s pool beyond its configured size."""
        m = self.manager
        pool = getattr(m, "_pools", {}).get(name)
        if not pool:
            return
        keep = m._pool_size(name) if hasattr(m, "_pool_size") else 1
        extra = pool[keep:]
        del pool[keep:]
        for item in extra:
            item.add_done_callback(lambda t: self._shut(t))
        if extra:
            log.info("Drained %d preheated kernels of %s (%s).", len(extra), name, why)

    def _shut(self, item: Any) -> None:
        try:
            kernel_id = item.result()["kernel_id"]
        except Exception:  # noqa: BLE001 - a failed start holds no kernel
            return
        discard = getattr(self.manager, "_discard", None)
        if discard is not None:
            asyncio.ensure_future(discard(kernel_id))
