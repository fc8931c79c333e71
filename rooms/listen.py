"""PostgreSQL LISTEN/NOTIFY for the rooms: one listener per kernel and store URL.

Every change of a room sends `pg_notify('icg_rooms', '<code>:<version>')` inside its
transaction (rooms/transactions.py), so PostgreSQL delivers it at COMMIT. A kernel's seat
pages and class view subscribe here instead of polling every fraction of a second:

* one daemon thread per URL with a connection of its own runs `LISTEN icg_rooms` and waits for
  notifications (psycopg 3's `Connection.notifies`, woken at least every `CHECK_EVERY` seconds to
  see whether it should stop);
* a notification for a room calls each subscriber of that room (and each subscriber of every
  room) on the asyncio loop it subscribed from, with `loop.call_soon_threadsafe`: the widgets are
  only ever touched on the kernel's own loop;
* when the connection drops (server restarted, backend terminated) the thread reconnects with a
  growing pause (0.2 s up to 5 s); while it is down `Subscription.connected` is False and the
  subscribers poll at their short interval, as on SQLite. After every (re)connection each
  subscriber is woken once: a change made while nobody listened is not missed;
* when the last subscriber closes, the thread closes its connection and ends.

SQLite has no notifications: `subscribe` returns None there and the pages keep polling.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import threading
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)

CHECK_EVERY = 0.5  # seconds: how often the waiting thread looks whether it should stop
RETRY_FROM, RETRY_TO = 0.2, 5.0  # seconds between reconnection attempts (doubling)


class Subscription:
    """One subscriber's handle: `connected` (a notification will come), `close()`."""

    def __init__(self, listener: Listener, token: int) -> None:
        self._listener, self._token = listener, token

    @property
    def connected(self) -> bool:
        return self._listener.connected.is_set()

    @property
    def listener(self) -> Listener:
        return self._listener

    def close(self, wait: bool = False) -> None:
        """Stop the callbacks; the last subscriber's close ends the thread within
        `CHECK_EVERY` seconds (`wait`: until it has ended)."""
        self._listener.unsubscribe(self._token, wait)


class Listener:
    """LISTEN on one channel of one database, in a daemon thread (see the module docstring).

    `connect()` opens a new autocommit connection (psycopg 3); `errors` are the exceptions that
    mean the connection is gone."""

    def __init__(self, connect: Callable[[], Any], channel: str,
                 errors: tuple[type[BaseException], ...]) -> None:
        self._connect, self.channel, self._errors = connect, channel, errors
        self._lock = threading.Lock()
        self._subs: dict[int, tuple[str | None, Callable[[], None], Any]] = {}
        self._ids = itertools.count(1)
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._conn: Any = None
        self.connected = threading.Event()
        self.connections = 0  # how many times it connected (1 + reconnections)
        self.notifications = 0

    # ----- subscribers ---------------------------------------------------------------------
    def subscribe(self, code: str | None, callback: Callable[[], None],
                  loop: asyncio.AbstractEventLoop) -> Subscription:
        """Call `callback()` on `loop` whenever room `code` changes (None: any room)."""
        with self._lock:
            token = next(self._ids)
            self._subs[token] = (code, callback, loop)
            if self._thread is None or not self._thread.is_alive():
                self._stop = threading.Event()
                self._thread = threading.Thread(target=self._run, args=(self._stop,),
                                                name=f"icg-listen-{self.channel}", daemon=True)
                self._thread.start()
        return Subscription(self, token)

    def unsubscribe(self, token: int, wait: bool = False) -> None:
        """Forget one subscriber; the last one stops the thread (`wait`: joins it)."""
        with self._lock:
            self._subs.pop(token, None)
            if self._subs or self._thread is None:
                return
            thread, self._thread = self._thread, None
            self._stop.set()
        if wait and thread is not threading.current_thread():
            thread.join(CHECK_EVERY * 4 + 1.0)

    @property
    def running(self) -> bool:
        t = self._thread
        return t is not None and t.is_alive()

    def _wake(self, code: str | None) -> None:
        with self._lock:
            targets = [(cb, loop) for c, cb, loop in self._subs.values()
                       if code is None or c is None or c == code]
        for cb, loop in targets:
            try:
                loop.call_soon_threadsafe(cb)
            except RuntimeError:  # the loop is closed: its kernel is going away
                pass

    # ----- the thread ----------------------------------------------------------------------
    def _run(self, stop: threading.Event) -> None:
        delay = RETRY_FROM
        while not stop.is_set():
            conn = None
            try:
                conn = self._connect()
                conn.execute(f"LISTEN {self.channel}")
                with self._lock:
                    if stop.is_set():  # closed meanwhile (a newer thread may be starting)
                        break
                    self._conn = conn
                    self.connections += 1
                    self.connected.set()
                delay = RETRY_FROM
                self._wake(None)  # whatever changed while nobody listened
                while not stop.is_set():
                    for note in conn.notifies(timeout=CHECK_EVERY):
                        self.notifications += 1
                        code, _, _version = str(note.payload).partition(":")
                        self._wake(code or None)
                        if stop.is_set():
                            break
            except self._errors as e:
                if not stop.is_set():
                    log.warning("room notifications lost (%s); polling until reconnected",
                                str(e).strip().splitlines()[0] if str(e).strip() else e)
            except Exception:  # noqa: BLE001 - the thread must go on (or end cleanly)
                log.exception("room listener failed")
            finally:
                with self._lock:
                    if stop is self._stop:  # not when a newer thread took over
                        self.connected.clear()
                        self._conn = None
                if conn is not None:
                    try:
                        conn.close()
                    except Exception:  # noqa: BLE001 - a broken connection may fail to close
                        pass
            if stop.wait(delay):
                break
            delay = min(RETRY_TO, delay * 2)

    def backend_pid(self) -> int | None:
        """The server process of the LISTEN connection (tests terminate it)."""
        conn = self._conn
        return None if conn is None else conn.info.backend_pid


_listeners: dict[str, Listener] = {}
_registry_lock = threading.Lock()


def listener_for(url: str, connect: Callable[[], Any], channel: str,
                 errors: tuple[type[BaseException], ...]) -> Listener:
    """The kernel's one listener for `url` (made on first use)."""
    with _registry_lock:
        got = _listeners.get(url)
        if got is None:
            got = _listeners[url] = Listener(connect, channel, errors)
        return got


def running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None
