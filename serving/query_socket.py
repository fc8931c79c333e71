"""The page-query websocket (`/voila/query/<kernel id>`) with sound bookkeeping.

With preheated kernels, a kernel that reads its page's URL
(`widgets.page.query.page_query`, or
Voila's `get_query_string`) waits on a websocket to `/voila/query/<its kernel id>` until a page
takes it; Voila's `RequestInfoSocketHandler` keeps one waiter per kernel id in a class-level
dict and sends the page's request to it. Upstream (Voila 0.5, checked up to the version in
this environment) it has three faults:

- `on_close` looks for its own entry in the dict and, when it is not there (a second
  connection to the same id replaced it, or it was already removed), deletes the *last* entry
  of the dict, which belongs to another kernel: three websockets to any id, closed third,
  first, second, removed the waiter of a preheated kernel; that kernel waited forever and the
  page that took it hung (with an empty dict it raises UnboundLocalError instead);
- `open` replaces the waiter of a kernel id with whoever connects last, so a second
  connection takes the request meant for the kernel;
- anyone may open it, for any id, from any computer; each connection is held open for good.

`install()` replaces the handler's `open` and `on_close` (the class stays Voila's: its
`send_updates` and `_cache` are what Voila's page handler uses):

- only a connection from this machine without the proxy's client header (the kernel itself,
  which connects to the server's own address) may open it: a student's, directly or through
  nginx, is closed with code 1008;
- only for a kernel the server runs, and only one waiter per kernel: a second connection is
  closed, the first keeps its place;
- a waiter is removed only by its own connection's close;
- each of these refusals is made before the websocket upgrade (HTTP 403: no websocket is
  opened, no file kept); `open` checks again.

Each refusal is logged through `serving.refusal_log` (rate-limited).
"""

from __future__ import annotations

import logging
from typing import Any

from serving.kernels import client_address
from serving.refusal_log import RefusalLog

POLICY_VIOLATION = 1008
log = logging.getLogger("serving.query_socket")
REFUSALS = RefusalLog(log)


def _header(handler: Any) -> str:
    manager = handler.settings.get("kernel_manager")
    return getattr(manager, "client_address_header", "X-Real-IP")


def _known_kernel(handler: Any, kernel_id: str) -> bool:
    manager = handler.settings.get("kernel_manager")
    if manager is None:
        return True
    try:
        return kernel_id in manager
    except Exception:  # noqa: BLE001 - a manager we cannot ask: refuse
        return False


def refusal(handler: Any, kernel_id: str) -> str | None:
    """Why this request may not hold `kernel_id`'s page-query socket (None: it may); logged."""
    client = client_address(handler.request, _header(handler))
    if client is not None:
        REFUSALS.refused("page-query socket", client, "Refused (page-query socket) from %s: "
                         "only the server's kernels may open it", client)
        return "not for pages"
    if not _known_kernel(handler, kernel_id):
        REFUSALS.refused("page-query socket", client, "Refused (page-query socket) from this "
                         "machine: no kernel %s", kernel_id)
        return "no such kernel"
    waiter = _waiters(type(handler)).get(kernel_id)
    if waiter is not None and waiter is not handler:
        REFUSALS.refused("page-query socket", client, "Refused (page-query socket) from this "
                         "machine: kernel %s already has its waiter", kernel_id)
        return "already waiting"
    return None


async def guarded_get(self: Any, *args: Any, **kwargs: Any) -> None:
    """Refuse before the websocket upgrade (HTTP 403, no websocket, no open file kept): a
    request from a page, for no kernel, or for a kernel that has its waiter."""
    kernel_id = args[0] if args else kwargs.get("kernel_id", "")
    why = refusal(self, kernel_id)
    if why is not None:
        self._icg_kernel_id = None
        self.set_status(403)
        self.set_header("Connection", "close")
        self.finish(why)
        return
    await _OWN_GET[0](self, *args, **kwargs)


_OWN_GET: list[Any] = []


def guarded_open(self: Any, kernel_id: str) -> None:
    """Register this connection as `kernel_id`'s waiter, or close it (see the module)."""
    self._icg_kernel_id = None
    why = refusal(self, kernel_id)
    if why is not None:
        self.close(POLICY_VIOLATION, why)
        return
    waiters = _waiters(type(self))
    waiters[kernel_id] = self
    self._icg_kernel_id = kernel_id
    cache = _cache(type(self))
    if kernel_id in cache:
        self.write_message(cache[kernel_id])


def guarded_on_close(self: Any) -> None:
    """Remove this connection's own waiter entry, and nothing else."""
    kernel_id = getattr(self, "_icg_kernel_id", None)
    waiters = _waiters(type(self))
    if kernel_id is not None and waiters.get(kernel_id) is self:
        del waiters[kernel_id]


def _owner(cls: type) -> type:
    """The class whose `_waiters` and `_cache` Voila's page handler uses."""
    for klass in cls.__mro__:
        if "_waiters" in klass.__dict__:
            return klass
    return cls


def _waiters(cls: type) -> dict[str, Any]:
    return _owner(cls)._waiters


def _cache(cls: type) -> dict[str, Any]:
    return _owner(cls)._cache


def install() -> bool:
    """Give Voila's RequestInfoSocketHandler the guarded `open` and `on_close`; False when
    Voila is absent."""
    try:
        from voila.request_info_handler import RequestInfoSocketHandler
    except ImportError:
        return False
    if not _OWN_GET:
        _OWN_GET.append(RequestInfoSocketHandler.get)
        RequestInfoSocketHandler.get = guarded_get
    RequestInfoSocketHandler.open = guarded_open
    RequestInfoSocketHandler.on_close = guarded_on_close
    return True
