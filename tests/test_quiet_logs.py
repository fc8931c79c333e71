"""No anonymous request grows the server's log (serving/quiet_errors.py) against a real Voila:
`/logout`, template paths Voila cannot read and refused websocket handshakes get a short
answer without a traceback, and a flood of refused requests from one computer writes a few
access-log lines a minute. The short error page and the caps are unit-tested too."""

from __future__ import annotations

import logging
import re
import shutil
import uuid
from collections.abc import Iterator
from typing import Any
from urllib.parse import urljoin

import pytest
import requests
import websocket
from voila_server import REPO_ROOT, read_log, running_voila

from serving import quiet_errors
from serving.refusal_log import MAX_KINDS, RefusalLog

KERNEL_ID = re.compile(r'"kernelId": "([0-9a-f-]{36})"')
ANONYMOUS = ["logout", "login", "voila/templates/nothing/x.js",
             "voila/templates/classroom/static/..%2f..%2fconf.json",
             "voila/templates/no-such-template/static/a.js"]


def test_the_short_error_page_says_the_status_only() -> None:
    page = quiet_errors.short_page(429, "Too Many <Connections>")
    assert "<h1>429 Too Many &lt;Connections&gt;</h1>" in page and "/" not in page.replace(
        "</", "").replace("<!DOCTYPE html>", "")
    assert "404 Not Found" in quiet_errors.short_page(404)


def test_lines_named_after_a_computer_do_not_grow_without_end() -> None:
    now = [0.0]
    log = RefusalLog(logging.getLogger("test.kinds"), burst=1, window=60, clock=lambda: now[0])
    for i in range(MAX_KINDS + 500):
        assert log.burst_left(f"HTTP 4xx from 10.0.{i // 250}.{i % 250}", "x")
    assert len(log._windows) <= MAX_KINDS
    assert not log.burst_left("HTTP 4xx from 10.0.9.249", "x")  # still counted in its window
    now[0] = 61.0
    assert log.burst_left("HTTP 4xx from 10.0.9.249", "x")


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Any]]:
    root = tmp_path_factory.mktemp("quiet")
    shutil.copy(REPO_ROOT / "tests" / "fixtures" / "one_button.ipynb", root)
    args = ["--VoilaConfiguration.preheat_kernel=False",
            "--ClassroomKernelManager.max_websockets_per_kernel=1"]
    with running_voila(root, extra_args=args) as (url, process):
        yield url, process


@pytest.mark.serving
@pytest.mark.timeout(180)
class TestOnAServer:

    def test_anonymous_requests_get_a_404_and_no_traceback(self, served: tuple) -> None:
        url, process = served
        for path in ANONYMOUS:
            r = requests.get(urljoin(url, path), timeout=30)
            assert r.status_code == 404, path
            assert "Traceback" not in r.text and str(REPO_ROOT) not in r.text
        log = read_log(process)
        assert "Traceback" not in log and "Uncaught exception" not in log

    def test_a_refused_handshake_gets_a_short_429(self, served: tuple) -> None:
        url, process = served
        r = requests.get(urljoin(url, "voila/render/one_button.ipynb"), timeout=120)
        kernel_id = KERNEL_ID.search(r.text).group(1)
        ws_url = url.replace("http://", "ws://") + f"api/kernels/{kernel_id}/channels"
        held = websocket.create_connection(f"{ws_url}?session_id={uuid.uuid4().hex}",
                                           timeout=60)
        try:
            for _ in range(30):
                with pytest.raises(websocket.WebSocketBadStatusException) as e:
                    websocket.create_connection(f"{ws_url}?session_id={uuid.uuid4().hex}",
                                                timeout=60)
                assert e.value.status_code == 429
        finally:
            held.close()
        log = read_log(process)
        assert "Traceback" not in log and "429.html" not in log
        assert log.count("Refused (websockets per kernel)") <= 5  # the refusal log's burst

    def test_a_flood_from_one_computer_writes_a_few_lines(self, served: tuple) -> None:
        url, process = served
        before = len(read_log(process))
        with requests.Session() as s:
            for _ in range(300):
                assert s.get(urljoin(url, "logout"), timeout=30).status_code == 404
        grown = read_log(process)[before:]
        assert grown.count("GET /logout") <= quiet_errors.ACCESS_BURST
        assert len(grown) < 5000


@pytest.mark.serving
@pytest.mark.timeout(180)
def test_a_repeated_message_is_dropped_before_the_kernel(served: tuple) -> None:
    """The same frame sent again (same message id): the kernel would log a traceback for its
    repeated signature each time, outside any limit. The guard drops the copies."""
    import json
    import time

    from voila_server import message

    url, process = served
    r = requests.get(urljoin(url, "voila/render/one_button.ipynb"), timeout=120)
    kernel_id = KERNEL_ID.search(r.text).group(1)
    ws = websocket.create_connection(url.replace("http://", "ws://")
                                     + f"api/kernels/{kernel_id}/channels"
                                     f"?session_id={uuid.uuid4().hex}", timeout=60)
    try:
        frame = json.dumps(message("kernel_info_request", uuid.uuid4().hex, {}))
        for _ in range(50):
            ws.send(frame)
        last = message("kernel_info_request", uuid.uuid4().hex, {})
        ws.send(json.dumps(last))
        replies = 0
        while True:
            m = json.loads(ws.recv())
            if m.get("msg_type") == "kernel_info_reply":
                replies += 1
                if m["parent_header"]["msg_id"] == last["header"]["msg_id"]:
                    break
    finally:
        ws.close()
    time.sleep(1)
    log = read_log(process)
    assert replies == 2  # the first copy and the last request
    assert "Duplicate Signature" not in log and "Traceback" not in log
    assert "sent again" in log
