"""The class server's kernel manager: a cap on kernels, a short cull for pages that never connect.

Every `GET /voila/render/<lesson>` starts a Python kernel (about 55 MB; 130 MB for the strategy
lab). A browser connects the page's websocket once the page has loaded and frees the kernel when
the tab closes; a script that only GETs pages never does either, and without this class its
kernels lived until the idle cull (10 minutes): 40 GETs in 12 s left 40 kernels (2.2 GB) and
slowed every other student's page from 3.1 s to 8.1 s.

`ClassroomKernelManager` (set as Voila's `multi_kernel_manager_class` in voila.json) adds:

- `max_kernels`: a kernel start beyond it is refused with HTTP 503 ("the class is full, try
  again in a minute", the classroom template's 503.html, with a `Retry-After` header) instead
  of starting one more kernel;
- `max_unconnected_per_client`: one computer (client address) may have only that many pages
  whose kernel started but whose page has not connected yet, counting for
  `unconnected_memory` seconds those culled because their page never connected; beyond it
  HTTP 429 (429.html, `Retry-After`). A browser connects within seconds of loading a page, so
  a class opening its lessons never comes near it, while a script that only GETs pages is
  stopped after a few kernels and cannot slow the other students' pages. The client address
  comes from the page request (`remember_page_client`, called by the prelaunch hook in
  voila_config.py): the connection's address, or on a connection from this machine (a proxy
  such as nginx) the `X-Real-IP` header the proxy sets; local requests without it (the
  teacher's browser on the server itself, tests, benchmarks) are not limited;
- `cull_unconnected_after`: a kernel whose page never opened its websocket is shut down that
  many seconds after its last activity (the end of the page's run); a kernel whose page did
  connect is left to the ordinary idle culling (`MappingKernelManager.cull_idle_timeout`);
- `kernel_oom_score_adj`: written to each kernel's /proc/<pid>/oom_score_adj once it has
  started, so that under memory pressure the kernel of one page is killed, not the server;
- `kernel_memory_limit`: an optional address-space limit (RLIMIT_AS) per kernel.

The checks live in the kernel manager, not in a request hook, so they hold whichever way Voila
starts kernels (one per request, or preheated pools) and for the Voila server extension too
(`ServerApp.kernel_manager_class`).
"""

from __future__ import annotations

import asyncio
import ipaddress
import resource
import time
from collections import Counter, deque
from contextvars import ContextVar
from datetime import datetime, timezone

from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from tornado import web
from tornado.httputil import HTTPHeaders
from tornado.ioloop import IOLoop
from traitlets import Float, Integer, Unicode

CLASS_FULL_MESSAGE = (
    "Every place on this lesson server is taken right now. "
    "Try again in a minute."
)

TOO_MANY_MESSAGE = (
    "Too many lesson pages were started from this computer without being opened. Wait for "
    "the pages already open to finish loading, then try again in a few minutes."
)

# The client address of the page request being served, set by `remember_page_client` in the
# request's own task and read by `ClassroomKernelManager.start_kernel` in the same task.
PAGE_CLIENT: ContextVar[str | None] = ContextVar("classroom_page_client", default=None)


def remember_page_client(handler: web.RequestHandler) -> None:
    """Note the address of the computer asking for a page (call from the prelaunch hook).

    The connection's address; on a connection from this machine, the `client_address_header`
    that a proxy in front (nginx) set. A student on the network cannot forge it: their own
    connection's address is not a loopback one. A request from this machine without that
    header (the teacher's browser on the server, tests, benchmarks) is not limited.
    """
    address = handler.request.remote_ip or ""
    if _is_loopback(address):
        header = getattr(handler.settings.get("kernel_manager"), "client_address_header", "")
        forwarded = handler.request.headers.get(header, "") if header else ""
        address = forwarded.split(",")[0].strip()
    PAGE_CLIENT.set(address or None)


def _is_loopback(address: str) -> bool:
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


class RetryAfterTransform(web.OutputTransform):
    """Adds `Retry-After` to 429 and 503 responses that lack it (tornado output transform)."""

    seconds = 60

    def transform_first_chunk(
        self, status_code: int, headers: HTTPHeaders, chunk: bytes, finishing: bool
    ) -> tuple[int, HTTPHeaders, bytes]:
        if status_code in (429, 503) and "Retry-After" not in headers:
            headers["Retry-After"] = str(self.seconds)
        return status_code, headers, chunk


class ClassroomKernelManager(AsyncMappingKernelManager):
    """A mapping kernel manager with a kernel cap and a short cull of never-connected kernels."""

    max_kernels = Integer(
        60,
        config=True,
        help="""Most kernels this server runs at once (0: no cap). Beyond it a page gets
        HTTP 503 with a "class is full" message instead of a kernel. 60 fits a 2-core server
        with 4 GB (about 55 MB per lesson kernel, 130 MB for the strategy lab).""",
    )

    max_unconnected_per_client = Integer(
        3,
        config=True,
        help="""Most kernels one client address may have whose page has not connected yet
        (0: no limit). Beyond it a page gets HTTP 429. Set 0 if the students reach the server
        through one shared address (NAT).""",
    )

    unconnected_memory = Float(
        180.0,
        config=True,
        help="""Seconds during which a kernel culled because its page never connected still
        counts against its client's max_unconnected_per_client.""",
    )

    client_address_header = Unicode(
        "X-Real-IP",
        config=True,
        help="""Request header that holds the student's address when a proxy on this machine
        sits in front (nginx's X-Real-IP); read only on connections from a loopback address.
        Empty: always the connection's address.""",
    )

    cull_unconnected_after = Float(
        75.0,
        config=True,
        help="""Seconds after its last activity (the end of its page's run) at which a kernel
        whose page never opened its websocket is shut down (0: never). A page in a browser
        connects within a few seconds of loading.""",
    )

    kernel_oom_score_adj = Integer(
        800,
        config=True,
        help="""Value written to each kernel's /proc/<pid>/oom_score_adj after it starts
        (-1000..1000; the server keeps its own, lower, score). None: leave it as inherited.""",
        min=-1000,
        max=1000,
        allow_none=True,
    )

    kernel_memory_limit = Integer(
        0,
        config=True,
        help="""Address-space limit (RLIMIT_AS, bytes) set on each kernel after it starts
        (0: none). A kernel that passes it gets MemoryError instead of growing.""",
    )

    retry_after = Integer(60, config=True, help="Retry-After (seconds) sent with a 503.")

    class_full_message = Unicode(CLASS_FULL_MESSAGE, config=True,
                                 help="What a page says when the class is full.")

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._starting = 0
        self._starting_by_client: Counter[str] = Counter()
        self._client_of: dict[str, str] = {}
        self._culled_unconnected: dict[str, deque[float]] = {}
        self._pooled: set[str] = set()
        self._connected_once: set[str] = set()
        self._first_connection_checks: dict[str, object] = {}
        self._transform_installed = False

    # --- starting ----------------------------------------------------------------------------

    def kernel_count(self) -> int:
        """Kernels running or starting."""
        return len(self._kernels) + self._starting

    def unconnected_count(self, client: str) -> int:
        """Kernels of this client address starting, or started with no page connected yet."""
        waiting = sum(1 for kernel_id, c in self._client_of.items()
                      if c == client and kernel_id in self._kernels
                      and kernel_id not in self._connected_once)
        culled = self._culled_unconnected.get(client)
        if culled:
            while culled and culled[0] < time.monotonic() - self.unconnected_memory:
                culled.popleft()
            if not culled:
                del self._culled_unconnected[client]
        return waiting + self._starting_by_client.get(client, 0) + len(culled or ())

    async def start_kernel(self, *args, **kwargs) -> str:
        """Start a kernel, or refuse: HTTP 503 when `max_kernels` are running or starting,
        429 when the page's client has `max_unconnected_per_client` pages still starting."""
        self._install_retry_after()
        kernel_id = kwargs.get("kernel_id")
        if kernel_id is not None and kernel_id in self:
            return await super().start_kernel(*args, **kwargs)
        if self.max_kernels > 0 and self.kernel_count() >= self.max_kernels:
            self.log.warning("Class full: %d kernels running or starting (max_kernels = %d); "
                             "a kernel start was refused.", self.kernel_count(), self.max_kernels)
            raise web.HTTPError(503, self.class_full_message, reason="Class Full")
        client = PAGE_CLIENT.get()
        PAGE_CLIENT.set(None)  # one kernel per page request
        limit = self.max_unconnected_per_client
        if client and limit > 0 and self.unconnected_count(client) >= limit:
            self.log.warning("Too many pages starting from %s: %d kernels without a connected "
                             "page (max_unconnected_per_client = %d); a kernel start was "
                             "refused.", client, self.unconnected_count(client), limit)
            raise web.HTTPError(429, TOO_MANY_MESSAGE, reason="Too Many Pages Starting")
        self._starting += 1
        if client:
            self._starting_by_client[client] += 1
        try:
            kernel_id = await super().start_kernel(*args, **kwargs)
        finally:
            self._starting -= 1
            if client:
                self._starting_by_client[client] -= 1
                if self._starting_by_client[client] <= 0:
                    del self._starting_by_client[client]
        if client:
            self._client_of[kernel_id] = client
        self._limit_kernel(kernel_id)
        if self.cull_unconnected_after > 0:
            self._schedule_first_connection_check(kernel_id, self.cull_unconnected_after)
        return kernel_id

    def _install_retry_after(self) -> None:
        """Give the server's 429 and 503 responses a Retry-After header (once the tornado
        application exists, at a kernel start)."""
        if self._transform_installed:
            return
        app = getattr(self.parent, "app", None) or getattr(self.parent, "web_app", None)
        if not isinstance(app, web.Application):
            return  # not yet (preheated kernels start before the application exists)
        self._transform_installed = True
        transform = type("RetryAfter", (RetryAfterTransform,), {"seconds": self.retry_after})
        app.add_transform(transform)

    def _kernel_pid(self, kernel_id: str) -> int | None:
        provisioner = getattr(self.get_kernel(kernel_id), "provisioner", None)
        pid = getattr(provisioner, "pid", None)
        return pid if isinstance(pid, int) else None

    def _limit_kernel(self, kernel_id: str) -> None:
        """Set the kernel process's OOM score and memory limit."""
        pid = self._kernel_pid(kernel_id)
        if pid is None:
            return
        if self.kernel_oom_score_adj is not None:
            try:
                with open(f"/proc/{pid}/oom_score_adj", "w") as f:
                    f.write(str(self.kernel_oom_score_adj))
            except OSError as e:
                self.log.warning("Could not set oom_score_adj of kernel %s: %s", kernel_id, e)
        if self.kernel_memory_limit > 0:
            limit = self.kernel_memory_limit
            try:
                resource.prlimit(pid, resource.RLIMIT_AS, (limit, limit))
            except (OSError, ValueError) as e:
                self.log.warning("Could not limit the memory of kernel %s: %s", kernel_id, e)

    # --- kernels whose page never connects ---------------------------------------------------

    def notify_connect(self, kernel_id: str) -> None:
        """A websocket connected to the kernel: it is now a page's, culled only when idle."""
        super().notify_connect(kernel_id)
        self._connected_once.add(kernel_id)
        handle = self._first_connection_checks.pop(kernel_id, None)
        if handle is not None:
            IOLoop.current().remove_timeout(handle)

    def _schedule_first_connection_check(self, kernel_id: str, delay: float) -> None:
        def check() -> None:
            self._first_connection_checks.pop(kernel_id, None)
            asyncio.ensure_future(self._cull_if_never_connected(kernel_id))

        self._first_connection_checks[kernel_id] = IOLoop.current().call_later(
            max(delay, 0.5), check
        )

    def _in_pool(self, kernel_id: str) -> bool:
        """Whether a preheated kernel is still waiting in Voila's pool for a page."""
        for pool in getattr(self, "_pools", {}).values():
            for item in pool:
                try:
                    if item.done() and item.result().get("kernel_id") == kernel_id:
                        return True
                except Exception:  # noqa: BLE001 - a failed pool item holds no kernel
                    continue
        return False

    async def _cull_if_never_connected(self, kernel_id: str) -> None:
        if kernel_id not in self._kernels or kernel_id in self._connected_once:
            return
        if self._in_pool(kernel_id):
            # Preheated and waiting for a page: its time starts when a page takes it.
            self._pooled.add(kernel_id)
            self._schedule_first_connection_check(kernel_id, self.cull_unconnected_after)
            return
        if kernel_id in self._pooled:
            self._pooled.discard(kernel_id)
            self._schedule_first_connection_check(kernel_id, self.cull_unconnected_after)
            return
        kernel = self._kernels[kernel_id]
        last = getattr(kernel, "last_activity", None)
        idle = (datetime.now(timezone.utc) - last).total_seconds() if last else float("inf")
        busy = getattr(kernel, "execution_state", None) == "busy"
        if busy or idle < self.cull_unconnected_after:
            # Its page is still running (or just finished): look again later.
            wait = self.cull_unconnected_after - (0 if busy else idle)
            self._schedule_first_connection_check(kernel_id, wait)
            return
        self.log.warning("Culling kernel %s: no page connected to it %.0f s after its last "
                         "activity.", kernel_id, idle)
        client = self._client_of.get(kernel_id)
        if client:
            self._culled_unconnected.setdefault(client, deque()).append(time.monotonic())
        try:
            await self.shutdown_kernel(kernel_id)
        except (KeyError, web.HTTPError):
            pass  # already gone

    def _forget(self, kernel_id: str) -> None:
        handle = self._first_connection_checks.pop(kernel_id, None)
        if handle is not None:
            IOLoop.current().remove_timeout(handle)
        self._connected_once.discard(kernel_id)
        self._client_of.pop(kernel_id, None)
        self._pooled.discard(kernel_id)

    async def shutdown_kernel(self, kernel_id: str, *args, **kwargs):
        """Shut a kernel down and forget its connection bookkeeping."""
        self._forget(kernel_id)
        return await super().shutdown_kernel(kernel_id, *args, **kwargs)

    def remove_kernel(self, kernel_id: str):
        """A kernel died (or was removed): forget its connection bookkeeping."""
        self._forget(kernel_id)
        return super().remove_kernel(kernel_id)
