"""The server's limits on one computer, checked without a server (docs/security.md).

- the page-query websocket (`/voila/query/<kernel id>`): Voila's own `on_close` removed the
  waiter of another kernel when three sockets to one id closed third, first, second; with
  `serving.query_socket` installed (as voila.py does) a waiter is removed only by its own
  connection, a second connection to the same kernel is refused, and a page's connection
  (from another computer, or through the proxy) is refused;
- one log line per refused attempt, at most a few per minute and kind, with a count of the rest;
- the 429 page for too many pages open from one computer, in English and Spanish.
"""

from __future__ import annotations

import logging
from types import SimpleNamespace
from typing import Any

import pytest
from tornado.httputil import HTTPHeaders, HTTPServerRequest, RequestStartLine
from voila.request_info_handler import RequestInfoSocketHandler

from serving import query_socket
from serving.refusal_log import RefusalLog
from widgets.words.page import refusal_words


class _Manager:
    client_address_header = "X-Real-IP"

    def __init__(self, kernels: set[str]) -> None:
        self.kernels = kernels

    def __contains__(self, kernel_id: str) -> bool:
        return kernel_id in self.kernels


def _socket(manager: _Manager, remote_ip: str = "127.0.0.1",
            headers: dict[str, str] | None = None) -> Any:
    """A RequestInfoSocketHandler as tornado makes one for a connection, its network side
    replaced by lists: what it sent, and the close code."""
    sock = object.__new__(RequestInfoSocketHandler)
    start = RequestStartLine("GET", "/voila/query/x", "HTTP/1.1")
    sent = HTTPHeaders({"Host": "127.0.0.1", **(headers or {})})
    sock.request = HTTPServerRequest(start_line=start, headers=sent)
    sock.request.remote_ip = remote_ip
    sock.application = SimpleNamespace(settings={"kernel_manager": manager})
    sock.sent = []
    sock.closed = None

    def close(code: int | None = None, reason: str | None = None) -> None:
        sock.closed = code
        sock.on_close()

    sock.close = close
    sock.write_message = sock.sent.append
    return sock


@pytest.fixture
def installed() -> Any:
    query_socket.install()
    RequestInfoSocketHandler._waiters.clear()
    RequestInfoSocketHandler._cache.clear()
    yield
    RequestInfoSocketHandler._waiters.clear()
    RequestInfoSocketHandler._cache.clear()


def test_closing_sockets_in_any_order_leaves_another_kernels_waiter(installed: None) -> None:
    manager = _Manager({"victim", "any"})
    victim = _socket(manager)
    victim.open("victim")
    attack = [_socket(manager) for _ in range(3)]
    for sock in attack:
        sock.open("any")
    for i in (2, 0, 1):  # the order that removed the victim's waiter upstream
        attack[i].on_close()
    assert RequestInfoSocketHandler._waiters.get("victim") is victim
    RequestInfoSocketHandler.send_updates({"kernel_id": "victim", "payload": "deal=K7QX"})
    assert victim.sent == ["deal=K7QX"]


def test_a_second_socket_for_a_kernel_is_refused_and_gets_nothing(installed: None) -> None:
    manager = _Manager({"k"})
    first, second = _socket(manager), _socket(manager)
    first.open("k")
    second.open("k")
    assert second.closed == query_socket.POLICY_VIOLATION
    assert RequestInfoSocketHandler._waiters["k"] is first
    RequestInfoSocketHandler.send_updates({"kernel_id": "k", "payload": "room=ZQ93"})
    assert first.sent == ["room=ZQ93"] and second.sent == []


@pytest.mark.parametrize("remote_ip, headers", [
    ("10.0.0.7", {}),                             # a student's computer, directly
    ("127.0.0.1", {"X-Real-IP": "10.0.0.7"}),     # the same student through nginx
])
def test_a_page_may_not_open_the_query_socket(installed: None, remote_ip: str,
                                              headers: dict[str, str]) -> None:
    manager = _Manager({"k"})
    RequestInfoSocketHandler._cache["k"] = "room=ZQ93"
    sock = _socket(manager, remote_ip, headers)
    sock.open("k")
    assert sock.closed == query_socket.POLICY_VIOLATION
    assert sock.sent == [] and "k" not in RequestInfoSocketHandler._waiters


def test_a_socket_for_no_kernel_is_refused(installed: None) -> None:
    sock = _socket(_Manager(set()))
    sock.open("0f0f0f0f-0000-0000-0000-000000000000")
    assert sock.closed == query_socket.POLICY_VIOLATION
    assert RequestInfoSocketHandler._waiters == {}


def test_refusals_are_logged_a_few_per_minute_then_counted(
        caplog: pytest.LogCaptureFixture) -> None:
    now = [0.0]
    refusals = RefusalLog(logging.getLogger("test.refusals"), burst=3, window=60.0,
                          clock=lambda: now[0])
    with caplog.at_level(logging.WARNING, logger="test.refusals"):
        for i in range(10_000):
            refusals.refused("websockets per kernel", f"10.0.0.{i % 5}", "kernel %s", "k")
        assert len(caplog.records) == 3
        now[0] = 61.0
        refusals.refused("websockets per kernel", "10.0.0.1", "kernel %s", "k")
    assert len(caplog.records) == 5
    summary = caplog.records[3].getMessage()
    assert "9997 more not logged" in summary and "5 address(es)" in summary
    assert refusals.refusals == 10_001


@pytest.mark.parametrize("lang, words", [
    ("en", "Close the lesson tabs"),
    ("es", "Cierra las pestañas"),
])
def test_too_many_pages_open_says_so_in_the_pages_language(lang: str, words: str) -> None:
    said = refusal_words(429, lang, kind="open")
    assert words in said["message"]
    assert said["heading"] != refusal_words(429, lang)["heading"]


def test_the_systemd_unit_raises_the_open_file_limit() -> None:
    """systemd's default of 1024 open files was reached by one student's script."""
    import re
    from pathlib import Path

    unit = (Path(__file__).resolve().parent.parent / "deploy/systemd/voila-class@.service")
    found = re.search(r"^LimitNOFILE=(\d+)$", unit.read_text(), re.M)
    assert found and int(found.group(1)) >= 16384


def test_the_kernel_manager_raises_zmqs_socket_cap() -> None:
    """ZMQ's own cap (1023 sockets, four per kernel websocket) failed new pages first."""
    import zmq

    from serving.kernels import ClassroomKernelManager

    manager = ClassroomKernelManager()
    assert manager.context.get(zmq.MAX_SOCKETS) > 1023
