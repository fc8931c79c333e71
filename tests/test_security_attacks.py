"""One student cannot stop the class: the attacks of docs/security.md against a real Voila.

Mechanism checks (counts, status codes, kernels freed), never durations:

- three page-query websockets to `/voila/query/<any id>`, closed third, first, second, no
  longer leave a preheated kernel waiting forever: the page that takes it gets its query;
- a page's own computer (through nginx: `X-Real-IP` from loopback) cannot open that socket;
- a kernel takes at most `max_websockets_per_kernel` websockets, a computer at most
  `max_websockets_per_client`: the next handshake gets 429, other pages connect as before;
- a computer has at most `max_pages_per_client` pages: the next gets 429, another computer's
  page 200;
- with the server full (`max_kernels`, a pool refill refused), a closed tab's shutdown beacon
  still frees its kernel at once (204), not after the 120-s cull.
"""

from __future__ import annotations

import json
import re
import shutil
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import nbformat
import pytest
import requests
import websocket
from voila_server import (
    REPO_ROOT,
    kernel_processes,
    message,
    query_sockets_closed_out_of_order,
    read_log,
    running_voila,
)

pytestmark = [pytest.mark.serving, pytest.mark.timeout(300)]

KERNEL_ID = re.compile(r'"kernelId": "([0-9a-f-]{36})"')
TEACHER_KEY = "7K3M-Q9XD-2VRT-H4WN"
FIXTURES = REPO_ROOT / "tests" / "fixtures"


def _ws_url(url: str, path: str) -> str:
    return url.replace("http://", "ws://") + path


def _page(url: str, notebook: str, query: str = "", client: str | None = None,
          session: requests.Session | None = None, timeout: float = 120) -> requests.Response:
    headers = {"X-Real-IP": client} if client else {}
    return (session or requests).get(urljoin(url, f"voila/render/{notebook}{query}"),
                                     headers=headers, timeout=timeout)


def _kernel_socket(url: str, kernel_id: str, client: str | None = None) -> websocket.WebSocket:
    headers = [f"X-Real-IP: {client}"] if client else []
    return websocket.create_connection(
        _ws_url(url, f"api/kernels/{kernel_id}/channels?session_id={uuid.uuid4().hex}"),
        header=headers, timeout=60)


def _handshake_status(url: str, kernel_id: str, client: str | None = None) -> int:
    """101 if the kernel websocket opened (it is closed again), else the HTTP status."""
    try:
        ws = _kernel_socket(url, kernel_id, client)
    except websocket.WebSocketBadStatusException as e:
        return e.status_code
    ws.close()
    return 101


def _kernel_ids(process: Any) -> set[str]:
    found = set()
    for p in kernel_processes(process.pid):
        m = re.search(r"kernel-([0-9a-f-]{36})", " ".join(p.cmdline()))
        if m:
            found.add(m.group(1))
    return found


def _wait_quiet(process: Any, kernels: int, seconds: float = 120) -> None:
    """`kernels` kernels running and their notebooks done (each kernel's CPU near idle)."""
    deadline = time.monotonic() + seconds
    while len(kernel_processes(process.pid)) < kernels:
        assert time.monotonic() < deadline, read_log(process)[-2000:]
        time.sleep(0.3)
    for p in kernel_processes(process.pid):
        while p.cpu_percent(interval=0.3) > 5 and time.monotonic() < deadline:
            pass


# --- a server with preheated kernels (the page-query socket, a full server) ------------------


@pytest.fixture(scope="module")
def pooled(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Any]]:
    root = tmp_path_factory.mktemp("attacks-pooled")
    shutil.copy(FIXTURES / "one_button.ipynb", root)
    shutil.copy(FIXTURES / "pool" / "query_echo.ipynb", root)
    with running_voila(root, extra_args=["--VoilaKernelManager.fill_delay=0.2"]) as (url,
                                                                                  process):
        _wait_quiet(process, 2)  # one preheated kernel per notebook
        _wait_query_waiter(url, process)
        yield url, process


def _wait_query_waiter(url: str, process: Any, seconds: float = 120) -> None:
    """Until a kernel (query_echo's, preheated) holds its page-query websocket to the server:
    the kernels talk to the server over ipc otherwise, so a TCP connection to its port is it."""
    port = int(url.rstrip("/").rsplit(":", 1)[1])
    deadline = time.monotonic() + seconds
    while not any(c.raddr and c.raddr.port == port
                  for p in kernel_processes(process.pid) for c in p.net_connections("tcp")):
        assert time.monotonic() < deadline, read_log(process)[-2000:]
        time.sleep(0.3)


def test_query_sockets_closed_out_of_order_leave_the_waiting_kernel_alone(
        pooled: tuple[str, Any]) -> None:
    url, process = pooled
    query_sockets_closed_out_of_order(url, str(uuid.uuid4()))
    try:
        r = _page(url, "query_echo.ipynb", "?deal=K7QX", timeout=45)
    except (requests.Timeout, requests.ConnectionError):  # a read timeout is either
        pytest.fail("the page hung: its kernel never got its query")
    assert r.status_code == 200
    assert "deal from the URL: K7QX" in r.text


def test_a_students_computer_cannot_open_the_query_socket(pooled: tuple[str, Any]) -> None:
    url, process = pooled
    r = _page(url, "one_button.ipynb")
    kernel_id = KERNEL_ID.search(r.text).group(1)
    # refused before the upgrade: no websocket is ever opened, no file kept
    for headers, path in ((["X-Real-IP: 10.0.0.7"], kernel_id), ([], str(uuid.uuid4()))):
        with pytest.raises(websocket.WebSocketBadStatusException) as refused:
            websocket.create_connection(_ws_url(url, f"voila/query/{path}"), header=headers,
                                        timeout=10)
        assert refused.value.status_code == 403
    log = read_log(process)
    assert "Refused (page-query socket) from 10.0.0.7" in log
    assert "Refused (page-query socket) from this machine: no kernel" in log


def test_a_full_servers_closed_tab_frees_its_kernel(tmp_path: Any) -> None:
    """Two pages take the preheated kernels; the second one's refill is refused by
    max_kernels = 2, and Voila's pool keeps that refused start. The second tab's beacon must
    still shut its kernel down at once (it got 503: Voila re-raised the refusal)."""
    shutil.copy(FIXTURES / "one_button.ipynb", tmp_path)
    args = ["--VoilaKernelManager.fill_delay=0.2", "--ClassroomKernelManager.max_kernels=2"]
    full = "kernels running or starting (max_kernels = 2)"
    with running_voila(tmp_path, extra_args=args) as (url, process):
        _wait_quiet(process, 1)
        sessions = []
        for _ in range(2):
            s = requests.Session()
            r = _page(url, "one_button.ipynb", session=s)
            assert r.status_code == 200, r.text[:300]
            sessions.append((s, KERNEL_ID.search(r.text).group(1)))
            _wait_quiet(process, 2)
        deadline = time.monotonic() + 60
        while full not in read_log(process):  # the second page's refill, refused
            assert time.monotonic() < deadline, read_log(process)[-2000:]
            time.sleep(0.3)
        session, kernel_id = sessions[-1]
        xsrf = session.cookies.get("_xsrf")
        r = session.post(urljoin(url, f"voila/api/shutdown/{kernel_id}"),
                         files={"_xsrf": (None, xsrf)}, headers={"Origin": url.rstrip("/")},
                         timeout=30)
        assert r.status_code == 204, r.text[:300]
        deadline = time.monotonic() + 30
        while kernel_id in _kernel_ids(process):
            assert time.monotonic() < deadline, "the beacon did not free the kernel"
            time.sleep(0.3)


# --- a server without pools (connections and pages per computer) ------------------------------


@pytest.fixture(scope="module")
def plain(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Any]]:
    root = tmp_path_factory.mktemp("attacks-plain")
    shutil.copy(FIXTURES / "one_button.ipynb", root)
    gate = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        "from widgets import HitMeTable\nfrom widgets.page.teacher_key import teacher_only\n\n"
        "teacher_only(HitMeTable, players=3, seed=7, walkthrough=True)")])
    nbformat.write(gate, root / "gate.ipynb")
    args = ["--VoilaConfiguration.preheat_kernel=False",
            "--ClassroomKernelManager.max_pages_per_client=2",
            "--ClassroomKernelManager.max_unconnected_per_client=0",
            "--ClassroomKernelManager.max_websockets_per_kernel=3",
            "--ClassroomKernelManager.max_websockets_per_client=4"]
    with running_voila(root, extra_args=args, env={"ICG_TEACHER_KEY": TEACHER_KEY}) as (
            url, process):
        yield url, process


def test_websockets_per_kernel_and_per_computer_are_capped(plain: tuple[str, Any]) -> None:
    url, process = plain
    first = KERNEL_ID.search(_page(url, "one_button.ipynb").text).group(1)
    second = KERNEL_ID.search(_page(url, "one_button.ipynb").text).group(1)
    held = [_kernel_socket(url, first, "10.0.0.8") for _ in range(3)]
    try:
        assert _handshake_status(url, first, "10.0.0.9") == 429  # per kernel, any computer
        assert _handshake_status(url, first) == 429
        held.append(_kernel_socket(url, second, "10.0.0.8"))
        assert _handshake_status(url, second, "10.0.0.8") == 429  # per computer
        assert _handshake_status(url, second, "10.0.0.9") == 101  # another computer
    finally:
        for ws in held:
            ws.close()
    deadline = time.monotonic() + 30
    while _handshake_status(url, first, "10.0.0.8") != 101:  # the closed ones count no more
        assert time.monotonic() < deadline, "closed websockets still counted"
        time.sleep(0.3)
    log = read_log(process)
    assert "Refused (websockets per kernel)" in log
    assert "Refused (websockets per computer) from 10.0.0.8" in log


def test_pages_per_computer_are_capped(plain: tuple[str, Any]) -> None:
    url, process = plain
    statuses = [_page(url, "one_button.ipynb", client="10.0.0.20").status_code
                for _ in range(3)]
    assert statuses == [200, 200, 429]
    refused = _page(url, "one_button.ipynb", client="10.0.0.20")
    assert refused.status_code == 429 and "Close the lesson tabs" in refused.text
    assert _page(url, "one_button.ipynb", client="10.0.0.21").status_code == 200
    assert "Refused (pages open) from 10.0.0.20" in read_log(process)


def test_the_server_notes_each_pages_computer_for_its_kernel(plain: tuple[str, Any]) -> None:
    """Where a kernel reads its page's computer (the teacher's key's tries, per computer)."""
    url, process = plain
    r = _page(url, "one_button.ipynb", client="10.0.0.30")
    kernel_id = KERNEL_ID.search(r.text).group(1)
    connection = next(Path(part) for p in kernel_processes(process.pid) for part in p.cmdline()
                      if part.endswith(f"kernel-{kernel_id}.json"))
    note = connection.parent / "icg-clients" / kernel_id
    assert note.read_text() == "10.0.0.30"
    assert note.stat().st_mode & 0o077 == 0


def test_voila_refuses_to_start_with_a_key_a_student_could_guess(tmp_path: Path) -> None:
    shutil.copy(FIXTURES / "one_button.ipynb", tmp_path)
    with pytest.raises(RuntimeError, match="ICG_TEACHER_KEY is one of the keys a guesser"):
        with running_voila(tmp_path, env={"ICG_TEACHER_KEY": "password1234"},
                           timeout=30):
            pass



class GatePage:
    """A page with the teacher's key box, typed into as the page's widgets do."""

    def __init__(self, url: str, client: str) -> None:
        r = _page(url, "gate.ipynb", client=client)
        assert r.status_code == 200
        self.ws = _kernel_socket(url, KERNEL_ID.search(r.text).group(1), client)
        self.session, control = uuid.uuid4().hex, uuid.uuid4().hex
        self.ws.send(json.dumps(message("comm_open", self.session, {
            "comm_id": control, "target_name": "jupyter.widget.control", "data": {}},
            metadata={"version": "1.0.0"})))
        self.ws.send(json.dumps(message("comm_msg", self.session, {
            "comm_id": control, "data": {"method": "request_states"}})))
        states: dict[str, dict] = {}
        while not states:
            m = json.loads(self.ws.recv())
            c = m.get("content", {})
            if m.get("msg_type") == "comm_msg" and c.get("comm_id") == control:
                states = {k: v["state"] for k, v in c["data"]["states"].items()}
        self.box = next(k for k, v in states.items() if v["_model_name"] == "PasswordModel")
        self.button = next(k for k, v in states.items() if v["_model_name"] == "ButtonModel")

    def guess(self, text: str) -> str:
        """'wait' (too many tries) or 'miss' (checked: not the key); `self.seconds`: the wait
        the answer names. (A repeated identical answer sends no update: wait it out.)"""
        self.ws.send(json.dumps(message("comm_msg", self.session, {"comm_id": self.box, "data": {
            "method": "update", "state": {"value": text}, "buffer_paths": []}})))
        self.ws.send(json.dumps(message("comm_msg", self.session, {
            "comm_id": self.button, "data": {"method": "custom",
                                             "content": {"event": "click"}}})))
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            said = json.dumps(json.loads(self.ws.recv()).get("content", {}))
            assert text not in said, "the typed key came back to the page"
            if "nothing was unlocked" in said.lower():
                self.seconds = int(re.search(r"(\d+) second", said).group(1))
                return "wait" if "Too many tries" in said else "miss"
        raise AssertionError("the page got no answer")


def test_a_fresh_page_does_not_start_the_teachers_key_wait_over(
        plain: tuple[str, Any]) -> None:
    """Four wrong keys on one page make the computer wait 8 s; a page opened then from the
    same computer must wait too (before: its own kernel's record started at zero)."""
    url, process = plain
    first = GatePage(url, "10.0.0.40")
    for n in range(4):
        assert first.guess(f"WRONG-GUESS-{n:04d}") == "miss"
        if n < 3:
            time.sleep(first.seconds + 0.2)  # the computer's wait, as a patient guesser
    first.ws.close()
    fresh = GatePage(url, "10.0.0.40")
    assert fresh.guess("WRONG-GUESS-FRESH") == "wait"
    fresh.ws.close()
    other = GatePage(url, "10.0.0.41")  # another computer is not held up
    assert other.guess("WRONG-GUESS-OTHER") == "miss"
    other.ws.close()
