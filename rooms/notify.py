"""Change notification: PostgreSQL's NOTIFY to every kernel that listens (rooms/listen.py),
or polling the room's version on SQLite."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from rooms.database import NOTIFY_CHANNEL
from rooms.transactions import StoreBase


class Notifications(StoreBase):
    """Waiting for a room to change, and subscribing to its changes."""

    def subscribe(self, code: object | None, callback: Callable[[], None]) -> Any:
        """PostgreSQL: call `callback()` on the running asyncio loop whenever room `code` (None:
        any room) changes, through the kernel's one LISTEN thread (rooms/listen.py).
        Returns a Subscription (`connected`, `close()`), or None on SQLite or without a running
        loop (then the caller polls)."""
        from rooms import listen

        loop = listen.running_loop()
        if not self._db.postgres or loop is None:
            return None
        room = None if code is None else self._code(code)
        db = self._db
        return listen.listener_for(self.url, db.connect, NOTIFY_CHANNEL, db.errors()) \
            .subscribe(room, callback, loop)

    def wait_for_change(self, code: object, version: int, timeout: float,
                        interval: float = 0.25, listen: bool = True) -> int:
        """Wait until the room's version is not `version` (or `timeout` seconds pass) and return
        the version. SQLite (or `listen=False`): polls `current_version` every `interval`
        seconds. PostgreSQL: waits for the NOTIFY each change sends (LISTEN on a connection of
        its own, opened on first use)."""
        code = self._code(code)
        deadline = time.monotonic() + timeout
        if self._db.postgres and listen:
            return self._wait_notify(code, version, deadline)
        while True:
            now_version = self.current_version(code)
            left = deadline - time.monotonic()
            if now_version != version or left <= 0:
                return now_version
            time.sleep(min(interval, left))

    def _wait_notify(self, code: str, version: int, deadline: float) -> int:
        try:
            if self._listener is None:
                self._listener = self._db.connect()
                self._listener.execute(f"LISTEN {NOTIFY_CHANNEL}")
            listener = self._listener
            current = self.current_version(code)  # after LISTEN: no change is missed
            while current == version:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                for note in listener.notifies(timeout=left, stop_after=1):
                    room, _, v = note.payload.partition(":")
                    if room == code:
                        current = int(v)
            return current
        except self._db.errors() as e:
            listener, self._listener = self._listener, None
            if listener is not None:
                try:
                    listener.close()
                except Exception:  # noqa: BLE001
                    pass
            raise self._unavailable(e) from e

