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
  comes from the page request (`PageRequestTransform`, a tornado output transform this class
  installs, which also gives the page its `_xsrf` cookie): the connection's address, or on a
  connection from this machine (a proxy such as nginx) the `X-Real-IP` header the proxy sets;
  local requests without it (the teacher's browser on the server itself, tests, benchmarks)
  are not limited;
- `cull_unconnected_after`: a kernel whose page never opened its websocket is shut down that
  many seconds after its last activity (the end of the page's run);
- `cull_disconnected_after`: a kernel whose page connected and whose last websocket closed is
  shut down that many seconds later unless a page connects again (a tab closed without its
  shutdown beacon); an open page is left to the ordinary idle culling
  (`MappingKernelManager.cull_idle_timeout`);
- `kernel_oom_score_adj`: written to each kernel's /proc/<pid>/oom_score_adj once it has
  started, so that under memory pressure the kernel of one page is killed, not the server;
- `kernel_memory_limit`: an optional address-space limit (RLIMIT_AS) per kernel;
- `bound_kernel_output`: the kernels' stdout and stderr go through the server's log
  (serving/kernel_output.py), bounded like every other line, not to the terminal directly;
- with Voila's `preheat_kernel` (voila.json): pools of kernels that have run their lesson
  before a student asks. A pooled kernel counts for a computer, and the short cull's clock
  starts, when a page takes it; a waiting one is never culled; one that died or was restarted
  while waiting is never handed out but shut down and replaced; pools refill after kernels
  are shut down (also when `max_kernels` refused a refill); `pool_lesson`/`pool_lesson_size`
  give the lesson a class is about to open its own pool size; `pool_fill_concurrency` pooled
  kernels start at a time.

The checks live in the kernel manager, not in a request hook, so they hold whichever way Voila
starts kernels (one per request, or preheated pools) and for the Voila server extension too
(`ServerApp.kernel_manager_class`).
"""

from __future__ import annotations

import asyncio
import binascii
import email.utils
import functools
import http.cookies
import ipaddress
import os
import resource
import time
from collections import Counter, deque
from contextvars import ContextVar
from datetime import datetime, timezone

from jupyter_core.utils import ensure_async
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from tornado import web
from tornado.httputil import HTTPHeaders, HTTPServerRequest
from tornado.ioloop import IOLoop
from traitlets import Bool, Float, Integer, Unicode

from serving.kernel_output import KernelOutput
from serving.refusal_log import RefusalLog

# A discarded kernel is watched this many half-seconds after its shutdown, for a restart that
# was under way and starts its new process afterwards.
DISCARD_WATCH_STEPS = 40

CLASS_FULL_MESSAGE = (
    "Every place on this lesson server is taken right now. "
    "Try again in a minute."
)

TOO_MANY_OPEN_MESSAGE = (
    "Too many lesson pages are open from this computer. Close the lesson tabs you no longer "
    "use, then try again."
)

TOO_MANY_MESSAGE = (
    "Too many lesson pages were started from this computer without being opened. Wait for "
    "the pages already open to finish loading, then try again in a few minutes."
)

# The client address of the page request being served, set by `remember_page_client` in the
# request's own task and read by `ClassroomKernelManager.start_kernel` in the same task.
PAGE_CLIENT: ContextVar[str | None] = ContextVar("classroom_page_client", default=None)
# The page request's path and Accept-Language header, set with PAGE_CLIENT: the language of
# the 503 and 429 pages a refused page gets (`refusal`).
PAGE_REQUEST: ContextVar[tuple[str, str]] = ContextVar("classroom_page_request",
                                                       default=("", ""))


class Refusal(web.HTTPError):
    """A page refused before its lesson starts (503 the class is full, 429 too many pages
    starting). `words` are the page's heading and sentences in the request's language
    (widgets.words.page.refusal_words), which the template's 503.html and 429.html show."""

    def __init__(self, status_code: int, log_message: str, reason: str,
                 words: dict[str, str]) -> None:
        super().__init__(status_code, log_message, reason=reason)
        self.words = words


def refusal(status_code: int, log_message: str, reason: str, message: str = "",
            kind: str = "") -> Refusal:
    """The refusal of the page being served, its words in the page's language: the lesson
    folder it asked for (/voila/render/es/...) or its browser's Accept-Language. `kind`
    "open": too many pages open from one computer (429)."""
    path, accept = PAGE_REQUEST.get()
    try:
        from widgets.words.page import refusal_words, request_language

        words = refusal_words(status_code, request_language(path, accept), message, kind=kind)
    except Exception:  # noqa: BLE001 - a refusal must never fail for want of words
        words = {}
    return Refusal(status_code, log_message, reason, words)


def client_address(request: HTTPServerRequest, header: str = "X-Real-IP") -> str | None:
    """The address of the computer that sent `request`: the connection's address, or on a
    connection from this machine (a proxy such as nginx) the `header` the proxy sets. A
    student on the network cannot forge it: their own connection's address is not a loopback
    one. A request from this machine without that header (the teacher's browser on the
    server, tests, benchmarks) has none (it is not limited)."""
    address = request.remote_ip or ""
    if _is_loopback(address):
        forwarded = request.headers.get(header, "") if header else ""
        address = forwarded.split(",")[0].strip()
    return address or None


def remember_page_client(handler: web.RequestHandler) -> None:
    """Note the address of the computer asking for a page (call from the prelaunch hook).

    The connection's address; on a connection from this machine, the `client_address_header`
    that a proxy in front (nginx) set. A student on the network cannot forge it: their own
    connection's address is not a loopback one. A request from this machine without that
    header (the teacher's browser on the server, tests, benchmarks) is not limited.
    """
    header = getattr(handler.settings.get("kernel_manager"), "client_address_header", "")
    PAGE_CLIENT.set(client_address(handler.request, header))
    PAGE_REQUEST.set((handler.request.path or "",
                      handler.request.headers.get("Accept-Language", "")))


def forget_page_request(kernel_id: str) -> None:
    """Drop what Voila keeps of the page request that took a preheated kernel.

    When a page takes a pooled kernel, Voila's handler stores the request (its URL's query,
    host and port) in `RequestInfoSocketHandler._cache`, a class-level dict, until the kernel
    asks for it over `voila/query/<kernel id>` (`get_query_string`, our
    `widgets.page.query.page_query`). Lesson pages never ask, and Voila never removes an
    entry: without this, the server kept one entry per pooled page for its whole life (a query
    string may be as long as the URL a student types), and handed it to whoever opened that
    websocket after the tab had closed.
    """
    try:
        from voila.request_info_handler import RequestInfoSocketHandler
    except ImportError:  # Voila absent (a plain Jupyter server without the extension)
        return
    RequestInfoSocketHandler._cache.pop(kernel_id, None)


def _size(part: object) -> int:
    """Bytes of one part of a ZMQ message (bytes, or a zmq.Frame)."""
    try:
        return len(part)  # type: ignore[arg-type]
    except TypeError:
        return len(getattr(part, "bytes", b""))


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


class PageRequestTransform(web.OutputTransform):
    """Does what the prelaunch hook did, for every page however its kernel is found (Voila
    refuses a prelaunch hook with preheated kernels). Tornado makes one per request, before the
    request's handler runs:

    - it notes the requesting computer (`client_address`) in `PAGE_CLIENT`, read by the kernel
      manager where a kernel is started for a page or a preheated one is handed to it;
    - an HTML page answer to a browser without an `_xsrf` cookie gets one (Tornado's own
      `xsrf_token`, with the application's `xsrf_cookie_kwargs`), so that closing the tab can
      POST the kernel shutdown (voila-dashboards/voila#1458).
    """

    application: web.Application | None = None
    header = "X-Real-IP"

    def __init__(self, request: HTTPServerRequest) -> None:
        super().__init__(request)
        self.request = request
        PAGE_CLIENT.set(client_address(request, self.header))
        PAGE_REQUEST.set((request.path or "", request.headers.get("Accept-Language", "")))

    def transform_first_chunk(
        self, status_code: int, headers: HTTPHeaders, chunk: bytes, finishing: bool
    ) -> tuple[int, HTTPHeaders, bytes]:
        if (self.application is not None and self.request.method == "GET"
                and status_code == 200
                and headers.get("Content-Type", "").startswith("text/html")
                and "_xsrf" not in self.request.cookies
                and not any(c.startswith("_xsrf=") for c in headers.get_list("Set-Cookie"))):
            headers.add("Set-Cookie", new_xsrf_cookie(self.application.settings))
        return status_code, headers, chunk


def new_xsrf_cookie(settings: dict) -> str:
    """A Set-Cookie value for a new `_xsrf` token in Tornado's own format (version 2: a
    random token under a random mask, and the time), with the application's
    `xsrf_cookie_kwargs` (SameSite=Strict here), as `RequestHandler.xsrf_token` sets it."""
    token, mask = os.urandom(16), os.urandom(4)
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(token))
    value = "|".join(["2", binascii.b2a_hex(mask).decode(), binascii.b2a_hex(masked).decode(),
                      str(int(time.time()))])
    cookie = http.cookies.SimpleCookie()
    cookie["_xsrf"] = value
    morsel = cookie["_xsrf"]
    kwargs = {"path": "/", **dict(settings.get("xsrf_cookie_kwargs") or {})}
    expires_days = kwargs.pop("expires_days", None)
    if expires_days is not None:
        morsel["expires"] = email.utils.formatdate(time.time() + 86400 * expires_days,
                                                   usegmt=True)
    for key, val in kwargs.items():
        if key == "max_age":
            key = "max-age"
        if val is True:
            morsel[key] = True
        elif val:
            morsel[key] = str(val)
    return morsel.OutputString(None)


def install_page_transform(app: web.Application, header: str = "X-Real-IP") -> bool:
    """Add `PageRequestTransform` to a tornado application once; True if it was added now."""
    if any(isinstance(t, type) and issubclass(t, PageRequestTransform) for t in app.transforms):
        return False
    app.add_transform(type("PageRequest", (PageRequestTransform,),
                           {"application": app, "header": header}))
    return True


class ClassroomKernelManager(AsyncMappingKernelManager):
    """A mapping kernel manager with a kernel cap and a short cull of never-connected kernels."""

    max_kernels = Integer(
        60,
        config=True,
        help="""Most kernels this server runs at once (0: no cap). Beyond it a page gets
        HTTP 503 with a "class is full" message instead of a kernel. 60 fits a 2-core server
        with 4 GB (about 55 MB per lesson kernel, 130 MB for the strategy lab).""",
    )

    bound_kernel_output = Bool(
        True,
        config=True,
        help="""Kernels write their stdout and stderr to a pipe the server reads, each line
        logged through the server's log (`serving.kernel_output`), which `make class` bounds
        (serving/log_cap.py); False: they write to the server's terminal directly.""",
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

    cull_disconnected_after = Float(
        120.0,
        config=True,
        help="""Seconds after its page's last websocket closed at which a kernel is shut down
        if no page connected again (0: never; then only the idle cull frees it). A closed tab
        usually frees its kernel at once (the page's beforeunload beacon); a tab that could not
        send it (a crashed or killed browser, a tablet that dropped the page, a laptop put to
        sleep) would otherwise hold its kernel for `cull_idle_timeout` (10 minutes) while the
        class reloads pages, and fill `max_kernels`. A page whose connection drops for a moment
        reconnects well within it.""",
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

    max_pages_per_client = Integer(
        8,
        config=True,
        help="""Most lesson pages (kernels, connected or not) one client address may have at
        once (0: no limit). Beyond it a page gets HTTP 429 ("too many lesson pages are open
        from this computer"). A student has one or two lessons open; without it one computer
        could take every one of `max_kernels`. Set 0 if the students reach the server through
        one shared address (NAT).""",
    )

    max_websockets_per_kernel = Integer(
        4,
        config=True,
        help="""Most kernel websockets open at once to one kernel (0: no limit). A page opens
        one (a reconnecting page replaces its own). Each holds four ZMQ sockets; 300 to one
        kernel exhausted ZMQ's sockets and every new page failed. Beyond it the websocket
        handshake gets HTTP 429.""",
    )

    max_websockets_per_client = Integer(
        16,
        config=True,
        help="""Most kernel websockets one client address may have open at once, over all
        its kernels (0: no limit). Beyond it the handshake gets HTTP 429. Set 0 behind one
        shared address (NAT).""",
    )

    max_connections_per_client = Integer(
        64,
        config=True,
        help="""Most connections (HTTP and websockets, each an open file of the server) one
        client address may hold at once (0: no limit); the next is closed before it is read
        (serving/connections.py, standalone Voila). A browser keeps about six per server and
        a page's websockets. Connections from this machine (a proxy) are not counted. Set 0
        behind one shared address (NAT).""",
    )

    max_buffered_bytes = Integer(
        1024 * 1024,
        config=True,
        help="""Most bytes of a kernel's messages kept for a page whose websocket closed, until
        it reconnects (jupyter_server's buffer has no bound: a page that sent 6000 widget-state
        requests and left kept 305 MiB in the server). Past it the buffer is dropped (a page
        that reconnects later fetches its widgets' states again). 0: no bound.""",
    )

    zmq_max_sockets = Integer(
        8192,
        config=True,
        help="""ZMQ sockets the server may hold (its context's MAX_SOCKETS; ZMQ's default is
        1023), at most the process's open-file limit (LimitNOFILE in deploy/systemd). Each
        kernel websocket holds four; at 1023 new pages' kernel handshakes failed with "Too
        many open files" while files were still free.""",
    )

    retry_after = Integer(60, config=True, help="Retry-After (seconds) sent with a 503.")

    pool_fill_concurrency = Integer(
        2,
        config=True,
        help="""Most preheated kernels starting at once (0: no limit). A class taking 30
        pooled pages at once triggers 30 refills; started two at a time they leave the CPU to
        the students' pages instead of all competing with them.""",
    )

    follow_todays_lesson = Bool(
        True,
        config=True,
        help="""With Voila's preheat_kernel: keep a pool of today's lesson (chosen by the
        teacher on the class page) as large as the class, within the memory free, and drain
        the pools of the lessons no longer chosen (serving/todays_lesson.py).""",
    )
    pool_lesson = Unicode(
        "",
        config=True,
        help="""With Voila's preheat_kernel: the notebook a class is about to open (its path
        under the served folder, e.g. 03_hit_me.ipynb; the .ipynb may be left out). Its pool
        of preheated kernels gets pool_lesson_size kernels (about 54 MiB each); the other
        notebooks keep kernel_pools_config's sizes. `make serve POOL_LESSON=03_hit_me POOL=30`.""",
    )

    pool_lesson_size = Integer(
        30,
        config=True,
        help="Size of pool_lesson's pool of preheated kernels (one per student who opens it "
        "at once).",
    )

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
        self._disconnect_checks: dict[str, object] = {}
        self._transform_installed = False
        self._page_transform_installed = False
        self._restarted: set[str] = set()
        self._closing = False
        self._pool_starts: asyncio.Semaphore | None = None
        self.refusals = RefusalLog(self.log)
        self.kernel_output = KernelOutput()
        self._raise_zmq_socket_cap()
        self._use_pool_lesson()
        self.todays_lesson = None  # serving.todays_lesson.TodaysLesson, with pools
        try:
            IOLoop.current().add_callback(self._install_page_transform)
            IOLoop.current().add_callback(self._follow_todays_lesson)
        except RuntimeError:  # no event loop (a unit test constructing the class)
            pass

    def _follow_todays_lesson(self) -> None:
        """With pools (Voila's preheat): keep today's lesson ready (serving/todays_lesson.py)."""
        if self.follow_todays_lesson and hasattr(self, "fill_if_needed"):
            from serving.todays_lesson import TodaysLesson

            self.todays_lesson = TodaysLesson(self)
            self.todays_lesson.start()

    def _raise_zmq_socket_cap(self) -> None:
        if self.zmq_max_sockets <= 0:
            return
        try:
            import zmq

            soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
            cap = self.zmq_max_sockets if soft == resource.RLIM_INFINITY else min(
                self.zmq_max_sockets, max(soft - 64, 1023))
            self.context.set(zmq.MAX_SOCKETS, cap)
        except Exception as e:  # noqa: BLE001 - a context that refuses keeps its own cap
            self.log.warning("Could not raise the ZMQ socket cap: %s", e)

    def _use_pool_lesson(self) -> None:
        """Give `pool_lesson` its pool size (before Voila's manager fills the pools)."""
        if not self.pool_lesson or not hasattr(self, "kernel_pools_config"):
            return
        name = self.pool_lesson if self.pool_lesson.endswith(".ipynb") else (
            self.pool_lesson + ".ipynb")
        pools = dict(self.kernel_pools_config)
        pools[name] = {**pools.get(name, {}), "pool_size": max(self.pool_lesson_size, 0)}
        self.kernel_pools_config = pools
        if hasattr(self, "preheat_denylist"):
            self.preheat_denylist = [p for p in self.preheat_denylist
                                     if p not in (name, self.pool_lesson)]
        self.log.info("Pool of preheated kernels for %s: %d (about %d MiB)", name,
                      self.pool_lesson_size, 54 * self.pool_lesson_size)

    def _install_page_transform(self) -> None:
        """Once the tornado application exists: the page transform (client address, _xsrf
        cookie) on every request."""
        if self._page_transform_installed:
            return
        app = getattr(self.parent, "app", None) or getattr(self.parent, "web_app", None)
        if not isinstance(app, web.Application):
            IOLoop.current().call_later(0.2, self._install_page_transform)
            return
        self._page_transform_installed = True
        install_page_transform(app, self.client_address_header)

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
            self.refusals.refused("class full", PAGE_CLIENT.get(),
                                  "Class full: %d kernels running or starting (max_kernels = "
                                  "%d); a kernel start was refused.", self.kernel_count(),
                                  self.max_kernels)
            own = self.class_full_message if self.class_full_message != CLASS_FULL_MESSAGE else ""
            raise refusal(503, self.class_full_message, "Class Full", own)
        client = PAGE_CLIENT.get()
        PAGE_CLIENT.set(None)  # one kernel per page request
        self._refuse_if_too_many(client)
        if self.bound_kernel_output:  # through the server's bounded log
            kwargs.setdefault("stdout", self.kernel_output.fd())
            kwargs.setdefault("stderr", self.kernel_output.fd())
        self._starting += 1
        if client:
            self._starting_by_client[client] += 1
        try:
            if self._is_pool_start(kwargs) and self.pool_fill_concurrency > 0:
                if self._pool_starts is None:
                    self._pool_starts = asyncio.Semaphore(self.pool_fill_concurrency)
                async with self._pool_starts:
                    kernel_id = await super().start_kernel(*args, **kwargs)
            else:
                kernel_id = await super().start_kernel(*args, **kwargs)
        finally:
            self._starting -= 1
            if client:
                self._starting_by_client[client] -= 1
                if self._starting_by_client[client] <= 0:
                    del self._starting_by_client[client]
        if client:
            self._client_of[kernel_id] = client
            self._note_client(kernel_id, client)
        self._limit_kernel(kernel_id)
        try:
            self.add_restart_callback(
                kernel_id, functools.partial(self._kernel_restarted, kernel_id), "restart")
        except Exception as e:  # noqa: BLE001 - a kernel without a restarter
            self.log.debug("No restart callback for kernel %s: %s", kernel_id, e)
        if self.cull_unconnected_after > 0:
            self._schedule_first_connection_check(kernel_id, self.cull_unconnected_after)
        return kernel_id

    @staticmethod
    def _is_pool_start(kwargs: dict) -> bool:
        """A start for Voila's pool (it sets VOILA_PREHEAT=True in the kernel's environment)."""
        return (kwargs.get("env") or {}).get("VOILA_PREHEAT") == "True"

    def page_count(self, client: str) -> int:
        """Kernels of this client address running or starting, connected or not."""
        running = sum(1 for kernel_id, c in self._client_of.items()
                      if c == client and kernel_id in self._kernels)
        return running + self._starting_by_client.get(client, 0)

    def _refuse_if_too_many(self, client: str | None) -> None:
        """HTTP 429 when `client` already has `max_unconnected_per_client` pages whose kernel
        started (or was handed over) and whose page has not connected, or
        `max_pages_per_client` pages in all."""
        if not client:
            return
        limit = self.max_unconnected_per_client
        if limit > 0 and self.unconnected_count(client) >= limit:
            self.refusals.refused("pages starting", client,
                                  "Too many pages starting from %s: %d kernels without a "
                                  "connected page (max_unconnected_per_client = %d); a page "
                                  "was refused.", client, self.unconnected_count(client), limit)
            raise refusal(429, TOO_MANY_MESSAGE, "Too Many Pages Starting")
        limit = self.max_pages_per_client
        if limit > 0 and self.page_count(client) >= limit:
            self.refusals.refused("pages open", client,
                                  "Refused (pages open) from %s: %d pages open "
                                  "(max_pages_per_client = %d); a page was refused.", client,
                                  self.page_count(client), limit)
            raise refusal(429, TOO_MANY_OPEN_MESSAGE, "Too Many Pages Open", kind="open")

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
        self._cancel_disconnect_check(kernel_id)

    def notify_disconnect(self, kernel_id: str) -> None:
        """A websocket to the kernel closed: if it was the last, the kernel goes
        `cull_disconnected_after` seconds later unless a page connects again."""
        super().notify_disconnect(kernel_id)
        if self.cull_disconnected_after <= 0 or self._kernel_connections.get(kernel_id, 1) > 0:
            return
        self._cancel_disconnect_check(kernel_id)

        def check() -> None:
            self._disconnect_checks.pop(kernel_id, None)
            asyncio.ensure_future(self._cull_if_still_disconnected(kernel_id))

        self._disconnect_checks[kernel_id] = IOLoop.current().call_later(
            max(self.cull_disconnected_after, 0.5), check)

    def _cancel_disconnect_check(self, kernel_id: str) -> None:
        handle = self._disconnect_checks.pop(kernel_id, None)
        if handle is not None:
            IOLoop.current().remove_timeout(handle)

    async def _cull_if_still_disconnected(self, kernel_id: str) -> None:
        if kernel_id not in self._kernels or self._kernel_connections.get(kernel_id, 0) > 0:
            return
        self.log.warning("Culling kernel %s: its page closed its connection %.0f s ago and "
                         "did not come back.", kernel_id, self.cull_disconnected_after)
        try:
            await self.shutdown_kernel(kernel_id)
        except (KeyError, web.HTTPError):
            pass  # already gone

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

    # --- preheated kernels (Voila's preheat_kernel) ---------------------------------------------

    def __init_subclass__(cls, **kwargs):
        """Voila's factory subclasses this class to add its pools (`VoilaKernelManager`); its
        `get_rendered_notebook` hands a pooled kernel to a page. Wrap it: the per-computer
        limit, a check that the kernel is alive, and the short cull's clock start there."""
        super().__init_subclass__(**kwargs)
        take = cls.__dict__.get("get_rendered_notebook")
        if take is None:
            return

        @functools.wraps(take)
        async def get_rendered_notebook(self, notebook_name=None, **kw):
            client = PAGE_CLIENT.get()
            PAGE_CLIENT.set(None)  # the refills started below belong to no page
            self._refuse_if_too_many(client)
            await self._prepare_pool(notebook_name)
            render_task, rendered, kernel_id = await take(self, notebook_name=notebook_name,
                                                          **kw)
            self._hand_out(kernel_id, client)
            return render_task, rendered, kernel_id

        cls.get_rendered_notebook = get_rendered_notebook

        own_shutdown = cls.__dict__.get("shutdown_kernel")
        if own_shutdown is not None:
            @functools.wraps(own_shutdown)
            async def shutdown_kernel(self, kernel_id, *args, **kw):
                # Voila's shutdown looks for the kernel in its pools by calling `result()` on
                # every finished start, which raises again for a start that max_kernels
                # refused: every shutdown (a closed tab's beacon) then failed with 503 while
                # the server was full. Those starts hold no kernel: drop them first.
                self._drop_failed_starts()
                return await own_shutdown(self, kernel_id, *args, **kw)

            cls.shutdown_kernel = shutdown_kernel

    def _pool_size(self, notebook_name: str) -> int:
        """The configured size of a notebook's pool (as Voila's fill_if_needed reads it)."""
        pools = getattr(self, "kernel_pools_config", {}) or {}
        default = pools.get("default", {})
        return int(pools.get(notebook_name, default).get("pool_size",
                                                         default.get("pool_size", 1)))

    async def _kernel_usable(self, kernel_id: str) -> bool:
        if kernel_id not in self or kernel_id in self._restarted:
            return False
        return await self._alive(kernel_id)

    async def _prepare_pool(self, notebook_name: str) -> None:
        """Before a page takes a kernel from a pool: drop the failed starts and the kernels
        that died or were restarted (empty) while waiting, replacing them, and put the kernels
        whose notebook has finished running first."""
        pool = getattr(self, "_pools", {}).get(notebook_name)
        if pool is None:
            return
        ready, running, waiting = [], [], []
        for item in list(pool):
            if not item.done():
                waiting.append(item)
                continue
            try:
                content = item.result()
                kernel_id = content["kernel_id"]
            except Exception as e:  # noqa: BLE001 - a start refused (cap) or failed
                self.log.warning("Dropping a failed preheated kernel start for %s: %s",
                                 notebook_name, e)
                continue
            if not await self._kernel_usable(kernel_id):
                self.log.warning("Preheated kernel %s for %s is dead or was restarted: "
                                 "replacing it.", kernel_id, notebook_name)
                if item in pool:
                    pool.remove(item)
                asyncio.ensure_future(self._discard(kernel_id,
                                                    after_restart=kernel_id in self._restarted))
                continue
            (ready if content["task"].done() else running).append(item)
        pool[:] = ready + running + waiting
        if not pool and hasattr(self, "fill_if_needed"):
            # Nothing usable left: start one now (the page waits for it, as without a pool).
            self.fill_if_needed(delay=0, notebook_name=notebook_name)

    def _hand_out(self, kernel_id: str, client: str | None) -> None:
        """A page took this preheated kernel: it counts for its computer, and the idle cull's
        and the short cull's clocks start now."""
        self._pooled.discard(kernel_id)
        if client:
            self._client_of[kernel_id] = client
            self._note_client(kernel_id, client)
        # Its idle time starts now: a kernel that waited in the pool longer than the idle cull
        # would otherwise be culled by the next cull pass, before its page has connected.
        kernel = self._kernels.get(kernel_id)
        if kernel is not None:
            kernel.last_activity = datetime.now(timezone.utc)
        handle = self._first_connection_checks.pop(kernel_id, None)
        if handle is not None:
            IOLoop.current().remove_timeout(handle)
        if self.cull_unconnected_after > 0 and kernel_id not in self._connected_once:
            self._schedule_first_connection_check(kernel_id, self.cull_unconnected_after)

    def _pool_of(self, kernel_id: str) -> str | None:
        for name, pool in getattr(self, "_pools", {}).items():
            for item in pool:
                try:
                    if item.done() and item.result().get("kernel_id") == kernel_id:
                        return name
                except Exception:  # noqa: BLE001 - a failed start holds no kernel
                    continue
        return None

    def _kernel_restarted(self, kernel_id: str) -> None:
        """jupyter_server restarts a dead kernel: it will no longer hold its notebook's
        widgets. A page's kernel is left to the page (its template shows the kernel-death
        message); a pooled one leaves the pool now, is replaced, and is shut down once the
        restart is over (a shutdown during the restart leaves the new process running)."""
        self._restarted.add(kernel_id)
        name = self._pool_of(kernel_id)
        if name is None:
            return
        self.log.warning("Preheated kernel %s for %s died while waiting: replacing it.",
                         kernel_id, name)
        pool = self._pools[name]
        for item in list(pool):
            try:
                if item.done() and item.result().get("kernel_id") == kernel_id:
                    pool.remove(item)
            except Exception:  # noqa: BLE001 - a failed start holds no kernel
                continue
        self._refill_pools()
        asyncio.ensure_future(self._discard(kernel_id, after_restart=True))

    async def _discard(self, kernel_id: str, after_restart: bool = False) -> None:
        if after_restart:
            for _ in range(60):  # the restart's new process, then shut it down
                await asyncio.sleep(0.5)
                if kernel_id not in self or await self._alive(kernel_id):
                    break
        try:
            kernel = self.get_kernel(kernel_id)
        except Exception:  # noqa: BLE001 - already gone
            kernel = None
        try:
            await self.shutdown_kernel(kernel_id, now=True)
        except Exception as e:  # noqa: BLE001 - already gone
            self.log.debug("Kernel %s already gone: %s", kernel_id, e)
        if kernel is None:
            return
        # A restart under way when the kernel was shut down (jupyter_server's restarter noticed
        # the death at the same moment) starts its new process afterwards, outside the
        # manager's list: that process is shut down too.
        for _ in range(DISCARD_WATCH_STEPS):
            await asyncio.sleep(0.5)
            try:
                if await ensure_async(kernel.is_alive()):
                    self.log.warning("Kernel %s came back from a restart after its shutdown: "
                                     "shutting it down.", kernel_id)
                    await ensure_async(kernel.shutdown_kernel(now=True))
                    return
            except Exception as e:  # noqa: BLE001 - nothing left to shut down
                self.log.debug("Kernel %s: %s", kernel_id, e)
                return

    async def _alive(self, kernel_id: str) -> bool:
        try:
            return bool(await ensure_async(self.get_kernel(kernel_id).is_alive()))
        except Exception:  # noqa: BLE001 - a kernel we cannot ask is not alive
            return False

    def _drop_failed_starts(self) -> None:
        """Remove the pool items whose start failed or was refused (they hold no kernel)."""
        for pool in getattr(self, "_pools", {}).values():
            for item in list(pool):
                if item.done() and (item.cancelled() or item.exception() is not None):
                    pool.remove(item)

    def _refill_pools(self) -> None:
        """Bring every pool back to its size (a kernel left a pool, or room under max_kernels
        came free after a refill was refused)."""
        if self._closing or not hasattr(self, "fill_if_needed"):
            return
        for name, pool in list(getattr(self, "_pools", {}).items()):
            for item in list(pool):  # starts refused by max_kernels (or failed) hold no kernel
                if item.done() and (item.cancelled() or item.exception() is not None):
                    pool.remove(item)
            if len(pool) < self._pool_size(name):
                self.fill_if_needed(notebook_name=name)

    async def cull_kernel_if_idle(self, kernel_id: str):
        """The idle cull, skipping a kernel still starting (jupyter_server's check fails on
        its empty `last_activity`; with a pool starting many kernels the log filled with it)."""
        try:
            started = self._kernels[kernel_id].last_activity is not None
        except Exception:  # noqa: BLE001 - KeyError, or traitlets' error for an unset value
            started = False
        if not started:
            return None
        return await super().cull_kernel_if_idle(kernel_id)

    async def shutdown_all(self, *args, **kwargs):
        """Shut every kernel down, refilling no pool."""
        self._closing = True
        return await super().shutdown_all(*args, **kwargs)

    def start_buffering(self, kernel_id, session_key, channels):
        """jupyter_server's buffer of a disconnected page's messages, bounded by
        `max_buffered_bytes`: past it the buffer is dropped and its streams closed."""
        super().start_buffering(kernel_id, session_key, channels)
        info = self._kernel_buffers.get(kernel_id)
        if self.max_buffered_bytes <= 0 or not info or "buffer" not in info:
            return
        held = [0]

        def buffer_msg(channel: str, msg_parts: list) -> None:
            if self._kernel_buffers.get(kernel_id) is not info:
                return
            held[0] += sum(_size(part) for part in msg_parts)
            if held[0] > self.max_buffered_bytes:
                self.refusals.refused("buffered bytes", None, "Dropped the buffered messages "
                                      "of kernel %s: more than %d bytes for a page that left",
                                      kernel_id, self.max_buffered_bytes)
                info["buffer"].clear()
                IOLoop.current().add_callback(self._drop_buffer, kernel_id, info)
                return
            info["buffer"].append((channel, msg_parts))

        for channel, stream in channels.items():
            stream.on_recv(functools.partial(buffer_msg, channel))

    def _drop_buffer(self, kernel_id: str, info: dict) -> None:
        if self._kernel_buffers.get(kernel_id) is info:
            try:
                self.stop_buffering(kernel_id)
            except Exception as e:  # noqa: BLE001 - the kernel is gone already
                self.log.debug("Buffer of kernel %s: %s", kernel_id, e)

    def _client_file(self, kernel_id: str) -> str | None:
        """Where the kernel finds its page's computer: `icg-clients/<kernel id>` beside its
        connection file (widgets.page.teacher_key.page_client reads it; the teacher's key's wrong
        tries are counted per computer)."""
        try:
            connection = self.get_kernel(kernel_id).connection_file
        except Exception:  # noqa: BLE001 - gone, or a kernel without a connection file
            return None
        if not connection:
            return None
        return os.path.join(os.path.dirname(connection), "icg-clients", kernel_id)

    def _note_client(self, kernel_id: str, client: str) -> None:
        path = self._client_file(kernel_id)
        if path is None:
            return
        try:
            os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(client)
        except OSError as e:
            self.log.warning("Could not note the computer of kernel %s: %s", kernel_id, e)

    def _forget_client(self, kernel_id: str) -> None:
        path = self._client_file(kernel_id)
        if path is not None:
            try:
                os.unlink(path)
            except OSError:
                pass

    def _forget(self, kernel_id: str) -> None:
        handle = self._first_connection_checks.pop(kernel_id, None)
        if handle is not None:
            IOLoop.current().remove_timeout(handle)
        self._cancel_disconnect_check(kernel_id)
        self._connected_once.discard(kernel_id)
        self._client_of.pop(kernel_id, None)
        self._pooled.discard(kernel_id)
        self._restarted.discard(kernel_id)
        forget_page_request(kernel_id)

    async def shutdown_kernel(self, kernel_id: str, *args, **kwargs):
        """Shut a kernel down and forget its connection bookkeeping."""
        self._forget_client(kernel_id)
        self._forget(kernel_id)
        try:
            return await super().shutdown_kernel(kernel_id, *args, **kwargs)
        finally:
            self._refill_pools()

    def remove_kernel(self, kernel_id: str):
        """A kernel died (or was removed): forget its connection bookkeeping."""
        self._forget_client(kernel_id)
        self._forget(kernel_id)
        return super().remove_kernel(kernel_id)
