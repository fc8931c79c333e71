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
  the kernels already waiting in the pool) and under `max_kernels`. When fewer fit the log
  says so ("Today's lesson ...: 18 of 30 kernels fit ...") and the class page's status line
  shows "ready for 18 of 30": the other students' pages start when opened, as a lesson not
  chosen does (slower, never refused for that).

A lesson not chosen keeps working: its pages start from its own (small) pool or on demand.
"""

from __future__ import annotations

import asyncio
import logging
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
    (the `waiting` kernels already in the pool use theirs) and by `max_kernels` (0: no cap)."""
    n = wanted
    if available_mib is not None:
        n = min(n, waiting + max(0, (available_mib - reserve_mib) // kernel_mib))
    if max_kernels > 0:
        n = min(n, waiting + max(0, max_kernels - running))
    return max(0, n)


def lesson_notebooks(lesson: int, root: Path) -> list[str]:
    """The served notebooks of lesson `lesson` (its number: '03_...ipynb' in the root and in
    each language folder), as paths relative to the root."""
    prefix = f"{lesson:02d}_"
    return sorted(str(p.relative_to(root)) for p in root.glob(f"**/{prefix}*.ipynb")
                  if ".ipynb_checkpoints" not in p.parts)


class TodaysLesson:
    """Follows the live class's lesson and sizes the pools (see the module's text)."""

    def __init__(self, manager: Any, *, url: str | None = None, every: float = 2.0,
                 kernel_mib: int = KERNEL_MIB, reserve_mib: int = RESERVE_MIB) -> None:
        self.manager = manager
        self.url = url
        self.every = float(every)
        self.kernel_mib, self.reserve_mib = kernel_mib, reserve_mib
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
        """One look at the live class; True when the pools were resized."""
        state = self._state()
        want = (state.lesson, state.class_size if state.lesson is not None else 0,
                state.lang if state.lesson is not None else "")
        if want == self.current:
            return False
        self.apply(*want)
        return True

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
        if main is None:
            return
        pool_of = getattr(m, "_pools", {})
        running = m.kernel_count() if hasattr(m, "kernel_count") else 0
        waiting = len(pool_of.get(main, []))
        ready = fits(size, waiting, mem_available_mib(), running,
                     int(getattr(m, "max_kernels", 0)), self.kernel_mib, self.reserve_mib)
        if main not in self.configured:
            self.configured[main] = pools.get(main)
        pools[main] = {**(pools.get(main) or {}), "pool_size": ready}
        m.kernel_pools_config = pools
        if ready < size:
            log.warning("Today's lesson %s: %d of %d kernels fit (%s MiB free, about %d MiB "
                        "each, max_kernels %s); the other pages start when opened.", main,
                        ready, size, mem_available_mib(), self.kernel_mib,
                        getattr(m, "max_kernels", 0))
        else:
            log.info("Today's lesson %s: a pool of %d kernels (about %d MiB).", main, ready,
                     ready * self.kernel_mib)
        try:
            self.store.report_pool(ready, size)
        except Exception:  # noqa: BLE001 - only the teacher's status line
            pass
        denied = getattr(m, "preheat_denylist", None)
        if denied:
            m.preheat_denylist = [p for p in denied if p not in new]
        if hasattr(m, "fill_if_needed"):
            m.fill_if_needed(delay=0, notebook_name=main)

    def _drain(self, name: str) -> None:
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
            log.info("Drained %d preheated kernels of %s (no longer today's lesson).",
                     len(extra), name)

    def _shut(self, item: Any) -> None:
        try:
            kernel_id = item.result()["kernel_id"]
        except Exception:  # noqa: BLE001 - a failed start holds no kernel
            return
        discard = getattr(self.manager, "_discard", None)
        if discard is not None:
            asyncio.ensure_future(discard(kernel_id))
