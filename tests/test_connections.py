"""What one computer's connections may hold (serving/connections.py), on tornado's real
HTTP server and websockets in this process: the open-file limit raised at start, half-open
connections closed, connections per computer capped, a websocket that does not read cut off
after a bound of unsent bytes. The same server is what standalone Voila listens with
(test_security_attacks.py, benchmarks/attacks.py)."""

from __future__ import annotations

import asyncio
import base64
import os
import socket
import subprocess
import sys
from types import SimpleNamespace
from typing import Any

import pytest
from tornado import web, websocket
from tornado.iostream import IOStream

from serving import connections

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(code: str) -> str:
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, check=True, timeout=60).stdout


def test_the_soft_open_file_limit_is_raised_to_the_hard_one() -> None:
    out = run("import resource\n"
              "from serving.connections import raise_open_file_limit\n"
              "soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)\n"
              "resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard))\n"
              "got = raise_open_file_limit(needed=100)\n"
              "print(got[0] == hard or got[0] > 256, got[2])\n")
    assert out.split() == ["True", "None"]


def test_a_hard_limit_below_a_class_is_said() -> None:
    out = run("import resource\n"
              "from serving.connections import raise_open_file_limit\n"
              "resource.setrlimit(resource.RLIMIT_NOFILE, (300, 600))\n"
              "soft, hard, warning = raise_open_file_limit(needed=8192)\n"
              "print(soft, hard)\nprint(warning)\n")
    first, warning = out.split("\n", 1)
    assert first == "600 600"
    assert "only 600 files" in warning and "LimitNOFILE" in warning


class Hello(web.RequestHandler):
    def get(self) -> None:
        self.finish("hello")


class Flood(websocket.WebSocketHandler):
    closed: list[bool] = []

    def open(self) -> None:
        chunk = b"x" * 65536
        try:
            for _ in range(400):  # 25 MiB to a page that reads none of it
                self.write_message(chunk, binary=True)
        except websocket.WebSocketClosedError:
            pass

    def on_close(self) -> None:
        Flood.closed.append(True)


def serve(cap: int = 3, **kw: Any) -> tuple[connections.GuardedHTTPServer, int]:
    manager = SimpleNamespace(max_connections_per_client=cap)
    app = web.Application([("/", Hello), ("/flood", Flood)], kernel_manager=manager)
    server = connections.GuardedHTTPServer(app, **kw)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    sock.setblocking(False)
    server.add_sockets([sock])
    return server, sock.getsockname()[1]


async def closed_by_peer(sock: socket.socket, seconds: float) -> bool:
    loop = asyncio.get_running_loop()
    sock.setblocking(False)
    try:
        data = await asyncio.wait_for(loop.sock_recv(sock, 1024), seconds)
    except asyncio.TimeoutError:
        return False
    return data == b""


def test_a_half_open_connection_is_closed_and_others_are_served() -> None:
    async def main() -> None:
        server, port = serve(idle_connection_timeout=0.5)
        half = socket.create_connection(("127.0.0.1", port))
        half.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")  # headers never finished
        assert await closed_by_peer(half, 5.0)
        idle = socket.create_connection(("127.0.0.1", port))  # sends nothing at all
        assert await closed_by_peer(idle, 5.0)
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        assert (await reader.read()).endswith(b"hello")
        server.stop()

    asyncio.run(main())


def test_connections_per_computer_are_capped() -> None:
    """A computer on the network (its address in handle_stream) holds at most the cap; the
    next is closed unread; one closed, the next is served; another computer is not counted."""
    async def main() -> None:
        server, _port = serve(cap=3)
        pairs = [socket.socketpair() for _ in range(6)]
        streams = [IOStream(a) for a, _b in pairs]
        for s in streams[:4]:
            server.handle_stream(s, ("10.0.0.7", 40000))
        assert [s.closed() for s in streams[:4]] == [False, False, False, True]
        server.handle_stream(streams[4], ("10.0.0.8", 40000))
        assert not streams[4].closed()
        streams[0].close()
        server.handle_stream(streams[5], ("10.0.0.7", 40001))
        assert not streams[5].closed()
        here = IOStream(socket.socketpair()[0])
        for _ in range(5):  # this machine (the teacher, the kernels, a proxy): not counted
            server.handle_stream(IOStream(socket.socketpair()[0]), ("127.0.0.1", 1))
        server.handle_stream(here, ("127.0.0.1", 1))
        assert not here.closed()
        server.stop()

    asyncio.run(main())


def test_a_websocket_that_does_not_read_is_cut_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(connections, "MAX_UNSENT_BYTES", 1024 * 1024)
    connections.cap_unsent_bytes()
    Flood.closed.clear()

    async def main() -> None:
        server, port = serve()
        sock = socket.create_connection(("127.0.0.1", port))
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        key = base64.b64encode(os.urandom(16)).decode()
        sock.sendall((f"GET /flood HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
                      f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                      "Sec-WebSocket-Version: 13\r\n\r\n").encode())
        for _ in range(100):  # it never reads: the server gives up on it
            await asyncio.sleep(0.05)
            if Flood.closed:
                break
        assert Flood.closed
        sock.close()
        server.stop()

    asyncio.run(main())


class FakeStream:
    """A ZMQ stream as jupyter_server's buffering uses it."""

    def __init__(self) -> None:
        self.socket = SimpleNamespace(closed=False)
        self.callback: Any = None

    def on_recv(self, callback: Any) -> None:
        self.callback = callback

    def close(self) -> None:
        self.socket.closed = True

    def closed(self) -> bool:
        return self.socket.closed


def test_a_left_pages_buffered_messages_are_bounded() -> None:
    """jupyter_server keeps a disconnected page's messages with no bound; the class server's
    kernel manager drops them past max_buffered_bytes."""
    from serving.kernels import ClassroomKernelManager

    async def main() -> None:
        manager = ClassroomKernelManager()
        manager.max_buffered_bytes = 100_000
        manager._check_kernel_id = lambda kernel_id: None
        stream = FakeStream()
        manager.start_buffering("k", "session", {"iopub": stream})
        for _ in range(5):
            stream.callback([b"x" * 10_000])
        assert len(manager._kernel_buffers["k"]["buffer"]) == 5  # a short absence is kept
        for _ in range(20):
            stream.callback([b"x" * 10_000])
        await asyncio.sleep(0.05)
        assert "k" not in manager._kernel_buffers and stream.closed()

    asyncio.run(main())
