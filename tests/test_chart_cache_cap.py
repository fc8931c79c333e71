"""The strategy lab's chart cache has a cap: a student typing deal code after deal code into the
lab cannot fill the server's disk (each new code was a new 38 KiB chart and a lock, kept forever).
Past ICG_CHART_CACHE_MAX_FILES charts or ICG_CHART_CACHE_MAX_MB megabytes, the charts used
longest ago go, with their locks; one being drawn (its lock held) stays."""

from __future__ import annotations

import fcntl
import os
import time
from pathlib import Path

import pytest
from widget_helpers import errors_raise  # noqa: F401

from widgets.lessons import strategy


def charts(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.json"))


def cache_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.iterdir())


def run_lab(panel: strategy.SimulationPanel, seed: int) -> None:
    panel.seed.value = str(seed)
    panel.run_button.click()
    assert "Done" in panel.status.value, panel.status.value


def test_cache_keeps_at_most_max_files_charts_newest_first(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv(strategy.CACHE_ENV, str(tmp_path))
    monkeypatch.setenv(strategy.CACHE_MAX_FILES_ENV, "3")
    panel = strategy.SimulationPanel("hold", players=3, rounds=1_000)
    made: dict[int, set[Path]] = {}
    for seed in range(1, 8):  # 7 new deal codes, as a student typing one after another
        before = set(charts(tmp_path))
        run_lab(panel, seed)
        made[seed] = set(charts(tmp_path)) - before
        assert len(made[seed]) <= 1
        assert len(charts(tmp_path)) <= 3
        time.sleep(0.02)  # distinct modification times
    kept = set(charts(tmp_path))
    assert kept == made[5] | made[6] | made[7]  # the oldest went first
    locks = {p.name.split(".")[0] for p in tmp_path.glob("*.lock")}
    assert locks <= {p.name.split(".")[0] for p in kept}  # no lock without its chart
    # Reading a chart counts as using it: seed 5 read again outlives 6 when 8 comes.
    run_lab(panel, 5)
    time.sleep(0.02)
    run_lab(panel, 8)
    assert made[5] <= set(charts(tmp_path)) and not made[6] & set(charts(tmp_path))


def test_cache_stays_under_its_size_cap(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv(strategy.CACHE_ENV, str(tmp_path))
    monkeypatch.setenv(strategy.CACHE_MAX_MB_ENV, "0.1")  # about two charts of ~40 kB
    for seed in range(1, 6):
        strategy.hold_chart(players=3, rounds=1_000, seed=seed, progress=False)
        assert cache_bytes(tmp_path) <= 100_000
    assert 1 <= len(charts(tmp_path)) <= 3


def test_a_chart_being_drawn_and_leftover_locks(monkeypatch, tmp_path) -> None:
    """A held lock (another kernel drawing that chart) is never deleted; a lock or temporary
    file left without a chart by an interrupted draw is."""
    monkeypatch.setenv(strategy.CACHE_ENV, str(tmp_path))
    monkeypatch.setenv(strategy.CACHE_MAX_FILES_ENV, "1")
    busy = tmp_path / "hold_chart-busy.lock"
    stale = tmp_path / "hold_chart-stale.lock"
    stale_tmp = tmp_path / "hold_chart-stale.123.tmp"
    stale.write_text("")
    stale_tmp.write_text("{}")
    (tmp_path / "hold_chart-busy.json").write_text('{"alt": "", "rows": [], "png": ""}')
    past = time.time() - 3600
    for p in tmp_path.iterdir():
        os.utime(p, (past, past))
    with open(busy, "a+") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        strategy.hold_chart(players=3, rounds=1_000, seed=1, progress=False)
        names = {p.name for p in tmp_path.iterdir()}
        assert "hold_chart-busy.json" in names and "hold_chart-busy.lock" in names
        assert "hold_chart-stale.lock" not in names and "hold_chart-stale.123.tmp" not in names
    assert strategy.evict_charts(tmp_path) == 1  # released: now over the cap, it goes
    assert len(charts(tmp_path)) == 1


@pytest.mark.parametrize("bad", ["lots", "-3"])
def test_a_bad_cap_setting_falls_back_to_the_default(monkeypatch, tmp_path, bad) -> None:
    monkeypatch.setenv(strategy.CACHE_ENV, str(tmp_path))
    monkeypatch.setenv(strategy.CACHE_MAX_FILES_ENV, bad)
    strategy.hold_chart(players=3, rounds=1_000, seed=1, progress=False)
    assert len(charts(tmp_path)) == 1
