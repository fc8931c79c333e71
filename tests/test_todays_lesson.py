"""Today's lesson's pool (serving/todays_lesson.py): the teacher's choice in the live class
sizes the lesson's pool, bounded by memory and max_kernels; the lesson no longer chosen goes
back to its configured size and its extra waiting kernels are shut down."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from rooms.live_class import LiveRefused, open_live_class
from serving import todays_lesson as tl


def test_memory_and_max_kernels_bound_the_pool() -> None:
    assert tl.fits(30, 0, None, 0, 0) == 30
    # 2 GiB free, 512 MiB kept: 1536 // 55 = 27 more kernels
    assert tl.fits(30, 0, 2048, 0, 0) == 27
    assert tl.fits(30, 10, 2048, 10, 0) == 30  # the ten waiting already have their memory
    assert tl.fits(30, 0, 100_000, 50, 60) == 10
    assert tl.fits(30, 0, 300, 0, 0) == 0
    # 237 MiB free, 275 short of the 512 kept: 5 of the 12 kernels waiting must go
    assert tl.fits(30, 12, 237, 12, 0) == 7


class Manager:
    """What TodaysLesson uses of the kernel manager (Voila's pools, our sizes)."""

    def __init__(self, root: Path) -> None:
        self.root_dir = str(root)
        self.kernel_pools_config: dict[str, Any] = {"default": {"pool_size": 1},
                                                    "04_two.ipynb": {"pool_size": 2}}
        self._pools: dict[str, list[Any]] = {}
        self.max_kernels = 60
        self.filled: list[str] = []
        self.discarded: list[str] = []

    def kernel_count(self) -> int:
        return sum(len(p) for p in self._pools.values())

    def _pool_size(self, name: str) -> int:
        pools = self.kernel_pools_config
        return int(pools.get(name, pools["default"])["pool_size"])

    def fill_if_needed(self, delay: float = 0, notebook_name: str = "") -> None:
        pool = self._pools.setdefault(notebook_name, [])
        loop = asyncio.get_event_loop()
        while len(pool) < self._pool_size(notebook_name):
            done = loop.create_future()
            done.set_result({"kernel_id": f"{notebook_name}-{len(pool)}"})
            pool.append(done)
        self.filled.append(notebook_name)

    async def _discard(self, kernel_id: str) -> None:
        self.discarded.append(kernel_id)


def lessons_and_class(tmp_path: Path, monkeypatch: Any, names: tuple[str, ...],
                      free_mib: int = 100_000) -> tuple[Path, str, Any]:
    """A lessons folder holding `names` (empty notebooks), `free_mib` of memory free, and a live
    class in a store of its own: (the folder, the store's URL, the teacher's live class)."""
    root = tmp_path / "lessons"
    (root / "es").mkdir(parents=True)
    for name in names:
        (root / name).write_text("{}")
    monkeypatch.setattr(tl, "mem_available_mib", lambda: free_mib)
    url = f"sqlite:///{tmp_path / 'rooms.sqlite3'}"
    return root, url, open_live_class(url)


def test_the_teachers_lesson_gets_the_class_and_the_old_one_is_drained(
        tmp_path: Path, monkeypatch: Any) -> None:
    root, url, teacher = lessons_and_class(
        tmp_path, monkeypatch, ("03_one.ipynb", "04_two.ipynb", "es/03_uno.ipynb"))

    async def run() -> Manager:
        m = Manager(root)
        today = tl.TodaysLesson(m, url=url)
        assert today.check() is False  # no lesson chosen: nothing changes
        teacher.set_lesson(3, class_size=12)
        assert today.check() is True
        assert m.kernel_pools_config["03_one.ipynb"] == {"pool_size": 12}
        assert len(m._pools["03_one.ipynb"]) == 12
        assert "es/03_uno.ipynb" not in m.kernel_pools_config  # one language's pool
        assert teacher.state().pool_ready == 12
        assert today.check() is False
        teacher.set_lesson(4, class_size=5)
        assert today.check() is True
        await asyncio.sleep(0.05)  # the done callbacks, then the shutdowns
        assert "03_one.ipynb" not in m.kernel_pools_config  # back to the default size
        assert len(m._pools["03_one.ipynb"]) == 1
        assert len(m.discarded) == 11  # the extra waiting kernels shut down
        assert m.kernel_pools_config["04_two.ipynb"] == {"pool_size": 5}
        teacher.set_lesson(None)
        today.check()
        assert m.kernel_pools_config["04_two.ipynb"] == {"pool_size": 2}  # voila.json's
        return m

    asyncio.run(run())


def test_a_spanish_class_gets_the_spanish_lessons_pages(tmp_path: Path, monkeypatch: Any) -> None:
    root, url, teacher = lessons_and_class(tmp_path, monkeypatch,
                                           ("03_one.ipynb", "es/03_uno.ipynb"))

    async def run() -> None:
        m = Manager(root)
        today = tl.TodaysLesson(m, url=url)
        teacher.set_lesson(3, class_size=8, lang="es")
        assert today.check() is True
        assert m.kernel_pools_config["es/03_uno.ipynb"] == {"pool_size": 8}
        assert "03_one.ipynb" not in m.kernel_pools_config
        teacher.set_lesson(3, class_size=8, lang="en")  # the same lesson, now in English
        assert today.check() is True
        await asyncio.sleep(0.05)
        assert m.kernel_pools_config["03_one.ipynb"] == {"pool_size": 8}
        assert "es/03_uno.ipynb" not in m.kernel_pools_config  # back to voila.json's size
        for bad in ("english", "ES", "../x", 3):
            with pytest.raises(LiveRefused):
                teacher.set_lesson(3, lang=bad)
        assert teacher.state().lang == ""

    asyncio.run(run())


def test_fewer_kernels_than_the_class_when_memory_is_short(tmp_path: Path,
                                                           monkeypatch: Any) -> None:
    root, url, teacher = lessons_and_class(tmp_path, monkeypatch, ("03_one.ipynb",),
                                           free_mib=512 + 55 * 7)
    teacher.set_lesson(3, class_size=30)

    async def run() -> None:
        m = Manager(root)
        tl.TodaysLesson(m, url=url).check()
        assert m.kernel_pools_config["03_one.ipynb"] == {"pool_size": 7}
        assert teacher.state().pool_ready == 7

    asyncio.run(run())


def test_the_pool_is_kept_within_the_memory_between_the_teachers_changes(
        tmp_path: Path, monkeypatch: Any, caplog: pytest.LogCaptureFixture) -> None:
    """The memory free is looked at again every `memory_every` seconds, not only when the
    teacher changes the lesson: when it runs short the pool gets smaller (its extra waiting
    kernels shut down), the log and the teacher's status line say so; freed, it grows back."""
    from widgets.together.live_controls import LiveControls

    root, url, teacher = lessons_and_class(tmp_path, monkeypatch, ("03_one.ipynb",))
    others = {"mib": 100_000}  # what the machine has free before today's kernels
    now = {"t": 0.0}

    async def run() -> None:
        m = Manager(root)
        # the memory free: the others' share, less what the kernels of the pool use
        today = tl.TodaysLesson(m, url=url, memory_every=30,
                                measure=lambda: others["mib"] - 55 * m.kernel_count(),
                                clock=lambda: now["t"])
        teacher.set_lesson(3, class_size=12)
        assert today.check() is True
        assert len(m._pools["03_one.ipynb"]) == 12
        others["mib"] = 512 + 55 * 7  # another program took memory: 7 kernels fit
        now["t"] = 20
        assert today.check() is False  # not time to look yet
        now["t"] = 31
        with caplog.at_level("WARNING", logger=tl.__name__):
            assert today.check() is True
        assert m.kernel_pools_config["03_one.ipynb"] == {"pool_size": 7}
        assert len(m._pools["03_one.ipynb"]) == 7
        await asyncio.sleep(0.05)
        assert len(m.discarded) == 5  # the waiting kernels beyond 7 shut down
        assert "the pool keeps 7 of 12 kernels ready (was 12)" in caplog.text
        assert teacher.state().pool_ready == 7
        panel = LiveControls(url=url, lessons=[("3. One", 3)])
        assert "ready for 7 of 12 students" in panel.status.value
        now["t"] = 62
        assert today.check() is False  # 7 fit: nothing changes
        others["mib"] = 100_000
        now["t"] = 93
        assert today.check() is True
        assert len(m._pools["03_one.ipynb"]) == 12 and teacher.state().pool_ready == 12

    asyncio.run(run())
