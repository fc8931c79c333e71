"""The tables work in JupyterLab too (a teacher presenting the notebooks), not only in Voila.

JupyterLab runs on a free loopback port on a copy of the fixture notebooks; the test opens a
notebook, runs all cells from the Run menu and plays the start of a Hit Me round by clicks.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

FIXTURES = Path(__file__).resolve().parent / "fixtures"
ROOT = Path(__file__).resolve().parents[2]
TIMEOUT_MS = 120_000


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    sys.path.insert(0, str(ROOT / "tests"))
    from voila_server import free_port

    root = tmp_path_factory.mktemp("lab")
    shutil.copy(FIXTURES / "hit_me_table.ipynb", root / "hit_me_table.ipynb")
    port = free_port()
    log = open(root / "lab.log", "w")  # noqa: SIM115 - closed below
    cmd = [str(Path(sys.executable).with_name("jupyter")), "lab", "--no-browser",
           "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}",
           "--ServerApp.port_retries=0", f"--ServerApp.root_dir={root}",
           "--IdentityProvider.token=", "--ServerApp.password=",
           "--LabApp.news_url=", "--ServerApp.allow_root=True"]
    proc = subprocess.Popen(cmd, cwd=root, stdout=log, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL, start_new_session=True)
    url = f"http://127.0.0.1:{port}/"
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(url + "api/status", timeout=2)  # noqa: S310 - loopback
            break
        except OSError:
            time.sleep(0.5)
    else:
        proc.kill()
        pytest.fail("JupyterLab did not start:\n" + (root / "lab.log").read_text()[-2000:])
    yield url
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
    log.close()


def kernel_idle(lab: str, timeout: float = 90.0) -> None:
    """Wait until the notebook's kernel has started and is idle (JupyterLab's REST API)."""
    import json

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(lab + "api/sessions", timeout=5) as r:  # noqa: S310
                sessions = json.load(r)
            if any(s.get("kernel", {}).get("execution_state") == "idle" for s in sessions):
                return
        except OSError:
            pass
        time.sleep(0.5)
    pytest.fail("the notebook's kernel did not become idle in JupyterLab")


def dismiss_dialogs(page: Any, seen: list[str]) -> None:
    """Close any JupyterLab dialog (kernel choice, notices) with its default button, noting
    its text for the failure message."""
    dialogs = page.locator(".jp-Dialog")
    for _ in range(3):
        if dialogs.count() == 0 or not dialogs.first.is_visible():
            return
        seen.append(" ".join(dialogs.first.inner_text().split())[:200])
        accept = dialogs.first.locator(".jp-mod-accept")
        if accept.count():
            accept.first.click()
        else:
            page.keyboard.press("Escape")
        page.wait_for_timeout(300)


def test_hit_me_table_plays_in_jupyterlab(lab: str, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    dialogs: list[str] = []
    try:
        page.goto(lab + "lab/tree/hit_me_table.ipynb", timeout=TIMEOUT_MS)
        page.locator(".jp-Notebook").first.wait_for(timeout=TIMEOUT_MS)
        # Run > Run All Cells does nothing while the kernel is still starting: wait until it is
        # idle, then run (and run again if the table has not appeared after a while).
        kernel_idle(lab)
        peek = page.locator(".widget-button", has_text="Peek at my face-down card")
        for attempt in range(3):
            dismiss_dialogs(page, dialogs)
            page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
            page.locator(".lm-Menu-itemLabel", has_text="Run All Cells").first.click()
            try:
                peek.first.wait_for(timeout=30_000)
                break
            except Exception as e:  # noqa: BLE001 - playwright's TimeoutError: try again
                if attempt == 2:
                    raise AssertionError(f"no table after Run All Cells; dialogs seen: "
                                         f"{dialogs}") from e
        assert page.locator(".jupyter-widgets").count() > 0
        peek.first.click()
        hit = page.locator(".widget-button", has_text="Hit me!").first
        hit.wait_for(timeout=TIMEOUT_MS)
        page.wait_for_function(
            "() => [...document.querySelectorAll('.widget-button')]"
            ".some(b => b.textContent.includes('Hit me!') && !b.disabled)",
            timeout=TIMEOUT_MS)
        hit.click()
        log = page.locator(".jupyter-widgets", has_text="says \u201cHit me!\u201d").first
        log.wait_for(timeout=TIMEOUT_MS)
        assert "Traceback" not in page.content()
        page.screenshot(path=str(ROOT / "tests" / "artifacts" / "jupyterlab-hit-me.png"))
    finally:
        context.close()
