"""Lesson pages served from preheated kernels (voila.json: preheat_kernel, kernel_pools_config;
serving/kernels.py), on a real Voila server on 127.0.0.1 with the project's configuration.

- every pooled page is a fresh game: a different deal (face-up cards and the computers' moves,
  as the page's widgets show them; each kernel draws its own seed, and one seed always gives
  the same deal);
- a pooled kernel waiting longer than the idle cull is not culled, and its page still works;
- a pooled kernel that died while waiting is never handed to a page: the page gets a live one,
  and the pool is back to its size afterwards;
- a page taken from the pool still gets the `_xsrf` cookie, and closing its tab frees the kernel;
- a computer that only GETs pooled pages meets the per-computer limit (HTTP 429);
- a page that reads its URL (`widgets.page.query.page_query`) gets its own query from a
  pooled kernel;
- once a pooled page's tab is closed, the server keeps nothing of its request (Voila's
  request-info cache grew by one entry per pooled page).
"""

from __future__ import annotations

import json
import re
import shutil
import time
import uuid
from collections.abc import Iterator
from typing import Any
from urllib.parse import urljoin

import psutil
import pytest
import requests
import websocket
from voila_server import REPO_ROOT, kernel_processes, read_log, running_voila

LESSON = "03_hit_me.ipynb"
POOL = 4
IDLE_CULL = 8  # seconds: MappingKernelManager.cull_idle_timeout in these tests
KERNEL_ID = re.compile(r'"kernelId": "([0-9a-f-]{36})"')
TAKEN = "Using pre-heated kernel"

pytestmark = [pytest.mark.timeout(240), pytest.mark.serving]


def _msg(session: str, msg_type: str, content: dict, metadata: dict | None = None) -> dict:
    return {
        "header": {"msg_id": uuid.uuid4().hex, "username": "student", "session": session,
                   "msg_type": msg_type, "version": "5.3", "date": "2026-01-01T00:00:00Z"},
        "parent_header": {}, "metadata": metadata or {}, "content": content,
        "channel": "shell", "buffers": [],
    }


class Page:
    """One student's page: the HTML, its kernel, and the widget states from the kernel
    (asked for as the page's widget manager does)."""

    def __init__(self, url: str, query: str = "") -> None:
        self.url = url
        self.session = requests.Session()
        self.response = self.session.get(urljoin(url, f"voila/render/{LESSON}{query}"),
                                         timeout=120)
        assert self.response.status_code == 200, self.response.text[:500]
        self.kernel_id = KERNEL_ID.search(self.response.text).group(1)
        self.ws_session = uuid.uuid4().hex
        self.ws = websocket.create_connection(
            url.replace("http://", "ws://")
            + f"api/kernels/{self.kernel_id}/channels?session_id={self.ws_session}",
            timeout=30)
        control = uuid.uuid4().hex
        self.ws.send(json.dumps(_msg(self.ws_session, "comm_open", {
            "comm_id": control, "target_name": "jupyter.widget.control", "data": {}},
            {"version": "1.0.0"})))
        self.ws.send(json.dumps(_msg(self.ws_session, "comm_msg", {
            "comm_id": control, "data": {"method": "request_states"}})))
        self.states: dict[str, dict] = {}
        deadline = time.monotonic() + 60
        while not self.states:
            assert time.monotonic() < deadline, "no widget states from the kernel"
            m = json.loads(self.ws.recv())
            c = m.get("content", {})
            if m.get("msg_type") == "comm_msg" and c.get("comm_id") == control \
                    and c.get("data", {}).get("method") == "update_states":
                self.states = {k: v["state"] for k, v in c["data"]["states"].items()}

    def html(self, marker: str) -> str:
        found = [s.get("value", "") for s in self.states.values()
                 if s.get("_model_name") == "HTMLModel" and marker in s.get("value", "")]
        assert found, f"no widget with {marker!r}"
        return found[0]

    def button(self, label: str) -> str:
        for comm_id, s in self.states.items():
            if s.get("_model_name") == "ButtonModel" and s.get("description") == label:
                return comm_id
        raise AssertionError(f"no button {label!r}")

    def close(self) -> int:
        """Close the tab as the page does on beforeunload."""
        self.ws.close()
        xsrf = self.session.cookies.get("_xsrf")
        assert xsrf, "the pooled page did not set the _xsrf cookie"
        return self.session.post(
            urljoin(self.url, f"voila/api/shutdown/{self.kernel_id}"),
            files={"_xsrf": (None, xsrf)}, headers={"Origin": self.url.rstrip("/")},
            timeout=30).status_code


def _kernel_ids(process: Any) -> dict[str, psutil.Process]:
    found = {}
    for p in kernel_processes(process.pid):
        cmd = " ".join(p.cmdline())
        m = re.search(r"kernel-([0-9a-f-]{36})", cmd)
        if m:
            found[m.group(1)] = p
    return found


def _wait_pool_full(process: Any, seconds: float = 120) -> None:
    """POOL kernels for the lesson plus one for each other notebook, and their notebooks run."""
    deadline = time.monotonic() + seconds
    while True:
        while len(_kernel_ids(process)) < POOL + 2:
            assert time.monotonic() < deadline, read_log(process)[-2000:]
            time.sleep(0.5)
        try:
            for p in _kernel_ids(process).values():  # the notebooks have finished running
                while p.cpu_percent(interval=0.3) > 5 and time.monotonic() < deadline:
                    pass
            return
        except psutil.NoSuchProcess:
            # a kernel went away while we looked (an earlier test's closed page culled): the
            # pool refills; count again
            assert time.monotonic() < deadline, read_log(process)[-2000:]


@pytest.fixture(scope="module")
def pooled(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Any]]:
    root = tmp_path_factory.mktemp("pooled")
    shutil.copy(REPO_ROOT / "lessons" / LESSON, root / LESSON)
    shutil.copy(REPO_ROOT / "tests" / "fixtures" / "one_button.ipynb", root)
    shutil.copy(REPO_ROOT / "tests" / "fixtures" / "pool" / "query_echo.ipynb", root)
    args = [
        "--ClassroomKernelManager.pool_lesson=03_hit_me",
        f"--ClassroomKernelManager.pool_lesson_size={POOL}",
        "--VoilaKernelManager.fill_delay=0.5",
        "--ClassroomKernelManager.cull_unconnected_after=30",
        f"--MappingKernelManager.cull_idle_timeout={IDLE_CULL}",
        "--MappingKernelManager.cull_interval=2",
    ]
    with running_voila(root, extra_args=args) as (url, process):
        _wait_pool_full(process)
        yield url, process


def test_pooled_pages_are_fresh_games(pooled: tuple[str, Any]) -> None:
    url, process = pooled
    taken_before = read_log(process).count(TAKEN)
    pages = [Page(url) for _ in range(POOL)]
    assert read_log(process).count(TAKEN) - taken_before == POOL, "not served from the pool"
    # The deal as each page shows it: the face-up cards and the computers' first moves, all
    # drawn from the kernel's own seed (a fresh one from the system's entropy per kernel; the
    # same seed would give the same deal).
    deals = [page.html('class="icg-seats"') + page.html('class="icg-log"') for page in pages]
    assert len(set(deals)) == POOL, "two pooled pages show the same deal"
    statuses = [page.close() for page in pages]
    assert statuses == [204] * POOL
    deadline = time.monotonic() + 60
    while any(page.kernel_id in _kernel_ids(process) for page in pages):
        assert time.monotonic() < deadline, "closing the tabs did not free their kernels"
        time.sleep(0.5)
    _wait_pool_full(process)  # refilled in the background


def test_an_idle_pooled_kernel_is_not_culled(pooled: tuple[str, Any]) -> None:
    url, process = pooled
    _wait_pool_full(process)
    waiting = set(_kernel_ids(process))
    time.sleep(IDLE_CULL + 6)  # past the idle cull, checked every 2 s
    assert waiting <= set(_kernel_ids(process)), "a kernel waiting in the pool was culled"
    page = Page(url)
    assert page.kernel_id in waiting
    assert page.button("Hold")
    assert page.close() == 204


def test_a_dead_pooled_kernel_is_replaced(pooled: tuple[str, Any]) -> None:
    url, process = pooled
    _wait_pool_full(process)
    killed = _kernel_ids(process)
    for p in killed.values():
        p.kill()
    for p in killed.values():
        p.wait(timeout=10)
    page = Page(url)  # at once: before jupyter_server has noticed the deaths
    assert page.kernel_id not in killed
    assert page.button("Hold") and page.html('class="icg-seats"')
    assert page.close() == 204
    pages = [Page(url) for _ in range(2)]  # a little later: after the restarter's check
    for p in pages:
        assert p.kernel_id not in killed and p.button("Hold")
        assert p.close() == 204
    _wait_pool_full(process)
    deadline = time.monotonic() + 40  # the killed ones, restarted by jupyter_server, shut down
    while set(killed) & set(_kernel_ids(process)):
        assert time.monotonic() < deadline, "a killed pooled kernel is still running"
        time.sleep(0.5)
    assert "died while waiting" in read_log(process) or "dead or was restarted" in \
        read_log(process)


def test_pooled_pages_count_for_the_computer_that_took_them(pooled: tuple[str, Any]) -> None:
    url, process = pooled
    _wait_pool_full(process)
    statuses = []
    for _ in range(4):
        r = requests.get(urljoin(url, f"voila/render/{LESSON}"),
                         headers={"X-Real-IP": "10.0.0.66"}, timeout=120)
        statuses.append(r.status_code)
    assert statuses == [200, 200, 200, 429], statuses
    assert "Retry-After" in r.headers


def test_a_pooled_page_reads_its_own_url(pooled: tuple[str, Any]) -> None:
    url, process = pooled
    _wait_pool_full(process)
    for deal in ("K7QX", "B2MN"):
        taken_before = read_log(process).count(TAKEN)
        r = requests.get(urljoin(url, f"voila/render/query_echo.ipynb?deal={deal}"), timeout=120)
        assert r.status_code == 200
        assert read_log(process).count(TAKEN) == taken_before + 1, "not served from the pool"
        assert f"deal from the URL: {deal}" in r.text


def test_a_closed_pooled_page_leaves_no_request_behind(pooled: tuple[str, Any]) -> None:
    """Voila keeps the request of a page that took a pooled kernel (for `get_query_string`)
    until the kernel asks for it, and lesson pages never ask: the server kept one entry per
    pooled page all day, and sent it to whoever opened `voila/query/<kernel id>` later."""
    url, process = pooled
    _wait_pool_full(process)
    page = Page(url, query="?room=ZQ93")
    query_ws = url.replace("http://", "ws://") + f"voila/query/{page.kernel_id}"
    ws = websocket.create_connection(query_ws, timeout=20)
    assert "room=ZQ93" in ws.recv()  # the control: held for the kernel while its page is open
    ws.close()
    assert page.close() == 204
    deadline = time.monotonic() + 60
    while page.kernel_id in _kernel_ids(process):
        assert time.monotonic() < deadline, "closing the tab did not free its kernel"
        time.sleep(0.5)
    try:  # the server refuses the upgrade (no such kernel): never the page's request
        ws = websocket.create_connection(query_ws, timeout=3)
    except websocket.WebSocketBadStatusException as e:
        assert e.status_code == 403
        return
    try:  # or it closes the socket, or keeps silent
        assert not ws.recv()
    except websocket.WebSocketTimeoutException:
        pass
    finally:
        ws.close()
