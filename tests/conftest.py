"""Shared test helpers: repository paths, CI flag, artifact folder, Hypothesis profile."""

from __future__ import annotations

import itertools
import os
import tempfile
from collections import defaultdict
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parent.parent
LESSONS_DIR = ROOT / "lessons"
ARTIFACTS_DIR = ROOT / "tests" / "artifacts"
# True under CI (CI=true): tests that would skip locally for a missing tool must fail instead.
IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}

# The strategy lab's chart cache (widgets/lessons/strategy/) goes to a fresh folder for each test
# run (Voila servers and nbval kernels started by the tests inherit it), not to ~/.cache;
# `make test` gives its stages one folder, emptied at its start.
if "ICG_CHART_CACHE" not in os.environ:
    os.environ["ICG_CHART_CACHE"] = tempfile.mkdtemp(prefix="icg-chart-cache-")

# The class's room store (answers, names, the live class) of every server, kernel and store the
# tests start without naming one: a fresh SQLite file for each test process (each xdist worker),
# never the developer's own .rooms.sqlite3 beside the project, nor a store another worker's
# pages share.
os.environ["ICG_ROOMS_URL"] = (
    f"sqlite:///{tempfile.mkdtemp(prefix='icg-test-rooms-')}/rooms.sqlite3")

# Two slow cores: wall-clock deadlines make property tests flaky, so none.
settings.register_profile("project", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("project")


@pytest.fixture()
def server_key(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> str:
    """The server has a teacher's key, TEACHER_KEY, and no key file."""
    from helpers import TEACHER_KEY

    from widgets.page import teacher_key as tk

    monkeypatch.setenv(tk.KEY_ENV, TEACHER_KEY)
    monkeypatch.setenv(tk.KEY_FILE_ENV, str(tmp_path / "no-such-file"))
    return TEACHER_KEY


@pytest.fixture(scope="session")
def repo_root() -> Path:
    """The repository root (where pyproject.toml and voila.json live)."""
    return ROOT


@pytest.fixture(scope="session")
def artifacts_dir() -> Path:
    """tests/artifacts/ (git-ignored), created on demand, for screenshots and reports."""
    ARTIFACTS_DIR.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS_DIR


# ----- the room store (rooms/): SQLite always, PostgreSQL on a throwaway cluster -----
@pytest.fixture(scope="session")
def pg_cluster():  # noqa: ANN201 - a generator fixture
    """A PostgreSQL cluster in a temporary folder (tests/pg_cluster.py); skips locally without
    the binaries, fails under CI=true."""
    from pg_cluster import pg_cluster as cluster

    yield from cluster()


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.pg)])
def rooms_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, empty room store's URL: an SQLite file, or a new PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'rooms.sqlite3'}"
    cluster = request.getfixturevalue("pg_cluster")
    return cluster.create_db(f"t{next(_ROOMS_DB_NUMBERS)}_{os.getpid()}")


_ROOMS_DB_NUMBERS = itertools.count()


# The files that take longest (the "slowest files" list at the end of each stage, on the
# project's machine), longest first. They run first: make test's workers (pytest-xdist, a file
# each, in the order collected) take the next file when they are nearly done, and a long file
# taken last leaves the other workers idle at the end.
LONGEST_FIRST = (
    # unit stage: servers started, kernels culled, the strategy lab's 100,000-round figures,
    # whole games
    "test_security_http.py", "test_lesson_figures.py", "test_security_ws.py", "test_pool.py",
    "test_serving.py", "test_security_attacks.py", "test_random_play.py", "test_log_bound.py",
    "test_observations.py", "test_widget_safety.py", "test_table_games.py",
    "test_teacher_key.py",
    # browser stage: every lesson at every device size, the static site, a Spanish journey,
    # the WebKit journeys, the hub, practice, three students' games
    "test_devices.py", "test_site.py", "test_spanish.py", "test_webkit_site.py", "test_hub.py",
    "test_practice_page.py", "test_play_together_hit_me.py", "test_site_start.py",
    "test_play_focus.py", "test_play_together_flapjack.py", "test_kernel_death.py",
    "test_class_morning.py", "test_lesson_pages.py", "test_live_class.py", "test_pages.py",
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Every test that starts the throwaway PostgreSQL cluster is marked `pg` (make check leaves
    them out); every test under tests/browser/ is marked `browser`. The longest files first
    (LONGEST_FIRST), the others in their usual order."""
    for item in items:
        if "pg_cluster" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.pg)
        if "browser" in item.path.parent.name:
            item.add_marker(pytest.mark.browser)
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))  # stable within a file


# ----- where a stage's time goes: its slowest files ---------------------------------------------
_FILE_SECONDS: defaultdict[str, float] = defaultdict(float)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Each test's setup, call and teardown, summed by file (under pytest-xdist the main process
    gets every worker's reports)."""
    _FILE_SECONDS[report.nodeid.split("::")[0]] += report.duration


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """The 15 slowest files of the run, with their share of the tests' summed time (what
    LONGEST_FIRST orders)."""
    if hasattr(terminalreporter.config, "workerinput") or len(_FILE_SECONDS) < 2:
        return
    total = sum(_FILE_SECONDS.values())
    terminalreporter.write_sep("=", f"slowest 15 files ({total:.0f} s of tests in all)")
    for path, seconds in sorted(_FILE_SECONDS.items(), key=lambda kv: -kv[1])[:15]:
        terminalreporter.write_line(f"{seconds:8.1f}s {path}")
