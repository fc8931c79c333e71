"""One log line per refused attempt, rate-limited so that no attack fills the disk.

Every refusal the server makes (a page, a websocket, a query socket, beyond a limit) is worth a
line in the log: the teacher or the school's technician sees who hit which limit. An attack
makes thousands of them a second; written as they come they once filled 2.3 GB in two minutes.
`RefusalLog.refused(kind, client, text)` writes the line for the first `burst` refusals of a
kind in each `window` seconds, counts the rest, and writes one summary line (how many were not
written) with the first refusal of the next window. `burst_left` is the same count for a
caller that writes its own line (a traceback, an access-log line). The clock is injectable
(tests).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field

# Kinds tracked at once (a kind may name a computer).
MAX_KINDS = 2000


@dataclass
class _Window:
    start: float
    written: int = 0
    skipped: int = 0
    clients: set[str] = field(default_factory=set)


class RefusalLog:
    """Log lines for refusals, at most `burst` per kind every `window` seconds."""

    def __init__(self, log: logging.Logger | logging.LoggerAdapter, *, burst: int = 5,
                 window: float = 60.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.log = log
        self.burst = burst
        self.window = window
        self.clock = clock
        self._windows: dict[str, _Window] = {}
        self.refusals = 0

    def refused(self, kind: str, client: str | None, text: str, *args: object) -> bool:
        """Note one refusal of `kind` (e.g. "websockets per kernel") from `client`; the line
        is `text % args`. True if a line was written for it."""
        if not self.burst_left(kind, client):
            return False
        self.log.warning(text, *args)
        return True

    def burst_left(self, kind: str, client: str | None) -> bool:
        """Count one event of `kind` from `client`: True if its line may be written now (the
        caller writes it), False if it is only counted. Writes the summary of the window
        before, if lines were left out there."""
        self.refusals += 1
        now = self.clock()
        win = self._windows.get(kind)
        if win is None or now - win.start >= self.window:
            if win is not None and win.skipped:
                self.log.warning("Refused (%s): %d more not logged in %.0f s, from %d "
                                 "address(es).", kind, win.skipped, self.window,
                                 len(win.clients))
            if win is None and len(self._windows) >= MAX_KINDS:
                self._forget_old(now)
            win = self._windows[kind] = _Window(start=now)
        if win.written >= self.burst:
            win.skipped += 1
            if len(win.clients) < 1000:
                win.clients.add(client or "local")
            return False
        win.written += 1
        return True

    def _forget_old(self, now: float) -> None:
        """Drop the windows that are over (their summaries written): kinds named after a
        computer must not grow without end."""
        for kind, win in list(self._windows.items()):
            if now - win.start >= self.window:
                if win.skipped:
                    self.log.warning("Refused (%s): %d more not logged in %.0f s, from %d "
                                     "address(es).", kind, win.skipped, self.window,
                                     len(win.clients))
                del self._windows[kind]
        if len(self._windows) >= MAX_KINDS:  # all live: the oldest goes
            oldest = min(self._windows, key=lambda k: self._windows[k].start)
            del self._windows[oldest]
