"""Open files and unsent bytes: what one computer's connections may hold on the class server.

Each connection is an open file of the server's process, and every byte a page does not read
waits in the server's memory. What a script did to `make class` before (docs/security.md):
1000 half-open connections took all of a terminal's 1024 open files and another student's
request timed out; a page that never read its websocket grew the server by 305 MiB.

- `raise_open_file_limit()`: at start, the soft limit of open files goes up to the hard limit
  (a terminal's soft limit is often 1024 while its hard limit is far higher), and the server
  says so when that is still below `OPEN_FILES_NEEDED`;
- `GuardedHTTPServer` (what standalone Voila listens with, `install()`): a connection that has
  not sent its request's headers within `HEADER_SECONDS` (a half-open one), or its body within
  `BODY_SECONDS`, or an idle keep-alive one after `HEADER_SECONDS`, is closed; a body is at
  most `MAX_BODY_BYTES` (a lesson page posts a kernel's shutdown, a few bytes); one computer
  holds at most `ClassroomKernelManager.max_connections_per_client` connections at once (the
  next is closed at once, before it is read: one refusal line). Connections from this machine
  (the teacher's browser, the kernels, a proxy such as nginx, which limits its own clients)
  are not counted;
- websockets (`cap_unsent_bytes`): a websocket whose peer has left more than
  `MAX_UNSENT_BYTES` unread is closed (the bytes are dropped with it) and the server's C
  allocator is asked to give the freed memory back to the system (`malloc_trim`). Tornado's
  `websocket_ping_interval` / `websocket_ping_timeout` (voila.json) close a websocket whose
  peer stopped answering.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import logging
import resource
from typing import Any

from tornado.httpserver import HTTPServer
from tornado.ioloop import IOLoop
from tornado.iostream import IOStream, StreamClosedError

from serving.kernels import _is_loopback
from serving.refusal_log import RefusalLog

log = logging.getLogger("serving.connections")
REFUSALS = RefusalLog(log)

# Open files a class needs: 60 kernels with their ZMQ sockets, four websockets each holding
# four more, a few connections per student's device, the store, logs and Python's own.
OPEN_FILES_NEEDED = 8192
HEADER_SECONDS = 20.0  # a request's headers, or the next request on a kept-alive connection
BODY_SECONDS = 30.0
MAX_BODY_BYTES = 1024 * 1024
MAX_HEADER_BYTES = 64 * 1024
MAX_CONNECTIONS_PER_CLIENT = 64
MAX_UNSENT_BYTES = 4 * 1024 * 1024
# After a slow reader is cut off: at most one malloc_trim per this many seconds.
TRIM_SECONDS = 1.0


def raise_open_file_limit(needed: int = OPEN_FILES_NEEDED) -> tuple[int, int, str | None]:
    """Raise this process's soft RLIMIT_NOFILE to its hard limit. (soft, hard, warning): the
    warning says what to do when the limit is still below `needed` (None when it is not)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft == resource.RLIM_INFINITY or soft < hard:
        target = hard if hard != resource.RLIM_INFINITY else max(soft, needed * 8)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        except (ValueError, OSError):
            pass
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < needed:
        return soft, hard, (
            f"The server may open only {soft} files (a class needs about {needed}): a few "
            "students' pages could use them all. Raise the hard limit (ulimit -Hn; systemd: "
            "LimitNOFILE=65536, as in deploy/systemd) and start it again.")
    return soft, hard, None


def _per_client_cap(app: Any) -> int:
    manager = getattr(app, "settings", {}).get("kernel_manager")
    return int(getattr(manager, "max_connections_per_client", MAX_CONNECTIONS_PER_CLIENT))


class GuardedHTTPServer(HTTPServer):
    """Tornado's HTTPServer with the timeouts and the cap per computer of the module."""

    def initialize(self, request_callback: Any, **kwargs: Any) -> None:
        kwargs.setdefault("idle_connection_timeout", HEADER_SECONDS)
        kwargs.setdefault("body_timeout", BODY_SECONDS)
        kwargs.setdefault("max_body_size", MAX_BODY_BYTES)
        kwargs.setdefault("max_header_size", MAX_HEADER_BYTES)
        super().initialize(request_callback, **kwargs)
        self.per_client: dict[str, list[IOStream]] = {}
        self.app = request_callback

    def handle_stream(self, stream: IOStream, address: Any) -> None:
        host = address[0] if isinstance(address, tuple) and address else ""
        if host and not _is_loopback(host):
            cap = _per_client_cap(self.app)
            held = self.open_streams(host)
            if cap > 0 and len(held) >= cap:
                REFUSALS.refused("connections per computer", host, "Refused (connections per "
                                 "computer) from %s: %d open (max_connections_per_client = %d)",
                                 host, len(held), cap)
                stream.close()
                return
            held.append(stream)
        super().handle_stream(stream, address)

    def open_streams(self, host: str) -> list[IOStream]:
        """The connections of `host` still open (a websocket's too, after its upgrade)."""
        if len(self.per_client) > 4096:
            for other in [h for h, held in self.per_client.items()
                          if all(s.closed() for s in held)]:
                del self.per_client[other]
        held = [s for s in self.per_client.get(host, ()) if not s.closed()]
        self.per_client[host] = held
        return held


def guarded_listen(app: Any, port: int, address: str | None = None, **kwargs: Any) -> Any:
    """`tornado.web.Application.listen` with a `GuardedHTTPServer`."""
    listen_keys = ("family", "backlog", "flags", "reuse_port")
    listen_kw = {k: kwargs.pop(k) for k in listen_keys if k in kwargs}
    server = GuardedHTTPServer(app, **kwargs)
    server.listen(port, address=address, **listen_kw)
    return server


# --- unsent bytes on websockets ------------------------------------------------------------

_last_trim = [0.0]


def give_memory_back() -> bool:
    """Ask glibc to return freed heap memory to the system (False where there is none)."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        return bool(libc.malloc_trim(0))
    except (OSError, AttributeError):
        return False


def _trim_soon() -> None:
    loop = IOLoop.current()
    now = loop.time()
    if now - _last_trim[0] < TRIM_SECONDS:
        return
    _last_trim[0] = now

    def trim() -> None:
        import gc

        gc.collect()
        give_memory_back()

    loop.call_later(0.5, trim)
    loop.call_later(5.0, trim)  # after the kernel's replies still on their way are dropped


def cap_unsent_bytes() -> None:
    """Close a websocket (standalone Voila's) whose unread bytes pass `MAX_UNSENT_BYTES`."""
    from tornado.websocket import WebSocketProtocol13

    own = WebSocketProtocol13._write_frame
    if getattr(own, "_icg_capped", False):
        return

    @functools.wraps(own)
    def _write_frame(self: Any, fin: bool, opcode: int, data: bytes, flags: int = 0) -> Any:
        stream, handler, limit = self.stream, self.handler, MAX_UNSENT_BYTES
        if (stream is not None and "static_path" not in handler.settings
                and len(stream._write_buffer) + len(data) > limit):
            client = getattr(handler.request, "remote_ip", None)
            REFUSALS.refused("unread bytes", client, "Closed a websocket of %s (%s): more than "
                             "%d bytes it did not read", client or "this machine",
                             handler.request.path, limit)
            self._abort()
            _trim_soon()
            raise StreamClosedError()
        return own(self, fin, opcode, data, flags)

    _write_frame._icg_capped = True  # type: ignore[attr-defined]
    WebSocketProtocol13._write_frame = _write_frame

    own_write = WebSocketProtocol13.write_message

    @functools.wraps(own_write)
    def write_message(self: Any, message: Any, binary: bool = False) -> Any:
        task = own_write(self, message, binary)
        # A websocket cut off (or gone) fails every write still waiting: nobody awaits
        # them, and asyncio would log "Task exception was never retrieved" for each one.
        task.add_done_callback(_quiet_task)
        return task

    WebSocketProtocol13.write_message = write_message


def _quiet_task(task: Any) -> None:
    if not task.cancelled():
        task.exception()


_installed = False


def install() -> None:
    """For standalone Voila: the open-file limit raised (said when still short), its server a
    `GuardedHTTPServer`, websockets' unsent bytes capped. Once."""
    global _installed
    if _installed:
        return
    _installed = True
    soft, _hard, warning = raise_open_file_limit()
    if warning:
        log.warning(warning)
        print(warning, flush=True)
    else:
        log.info("Open files: up to %s", soft)
    cap_unsent_bytes()
    try:
        from voila.app import Voila
    except ImportError:
        return
    own_listen = Voila.listen

    @functools.wraps(own_listen)
    def listen(self: Any) -> Any:
        self.app.listen = functools.partial(guarded_listen, self.app)
        return own_listen(self)

    Voila.listen = listen
