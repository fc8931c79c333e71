"""Caps on what one page and one computer write to the class's store: name changes, pages
(presence) and answers, counted in the kernel and checked again in the store.

A script on one page once wrote 17,856 student names in 30 s; the class view then took 27 s to
open. A class's real rates are far lower: a student names themselves once or twice a lesson
(a pair, a typo, "Not you? Change"), a page notes where it is a few times, and a student
answers at most a few hundred questions in an hour. The caps leave room for that many times
over and stop a flood at once.

- `WriteCaps` (in each page's kernel, `widgets.lessons.student.Student`): per page, at most
  `PAGE_CAPS` in any hour (a rolling hour); per computer, `COMPUTER_CAPS` per clock hour
  (so at most twice that across the turn of an hour), counted for all the kernels of that
  computer in one SQLite file of the server's runtime folder (`SharedCounts`, as the
  teacher's key counts wrong tries). A write past a cap is not made; the first refusal of each
  kind on a page is logged once and said once on the page; the rest are only counted.
- `check_student_room` (in the store, `rooms.answers.ClassAnswers`): a day holds at most
  `MAX_STUDENTS_PER_DAY` students (the store refuses a new name past it with `AnswerRefused`), and
  at most `MAX_ANSWERS_PER_DAY` answers, whatever the kernels let through (many computers, a
  kernel that does not count).
"""

from __future__ import annotations

import logging
import os
import sqlite3
import threading
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

KINDS = ("name", "presence", "answer")
WINDOW = 3600.0  # seconds: caps count per hour
# One page (one kernel) an hour.
PAGE_CAPS = {"name": 20, "presence": 240, "answer": 1000}
# One computer (all its pages) an hour: a shared device used by several students in turn.
COMPUTER_CAPS = {"name": 40, "presence": 600, "answer": 2000}
# The store, whatever the kernels let through.
MAX_STUDENTS_PER_DAY = 600
MAX_ANSWERS_PER_DAY = 100_000
COUNTS_FILE = "icg-write-counts.sqlite3"


class SharedCounts:
    """Counts per (computer, kind) and hour, shared by the kernels of one server (SQLite)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def _connect(self) -> sqlite3.Connection:
        if not self.path.exists():
            fd = os.open(self.path, os.O_WRONLY | os.O_CREAT, 0o600)
            os.close(fd)
        db = sqlite3.connect(self.path, timeout=5, isolation_level=None)
        db.execute("CREATE TABLE IF NOT EXISTS counts (client TEXT NOT NULL, kind TEXT NOT "
                   "NULL, hour INTEGER NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (client, "
                   "kind, hour))")
        return db

    def take(self, client: str, kind: str, cap: int, now: float) -> bool:
        """Count one write of `kind` for `client` in this hour if under `cap` (True), else
        count nothing (False)."""
        hour = int(now // WINDOW)
        db = self._connect()
        try:
            db.execute("BEGIN IMMEDIATE")
            row = db.execute("SELECT n FROM counts WHERE client = ? AND kind = ? AND hour = ?",
                             (client, kind, hour)).fetchone()
            n = row[0] if row else 0
            if n >= cap:
                db.execute("COMMIT")
                return False
            db.execute("INSERT OR REPLACE INTO counts VALUES (?, ?, ?, ?)",
                       (client, kind, hour, n + 1))
            if n == 0:
                db.execute("DELETE FROM counts WHERE hour < ?", (hour - 1,))
            db.execute("COMMIT")
            return True
        finally:
            db.close()


class WriteCaps:
    """What one page may still write: `allow(kind)` counts one write of `kind` ("name",
    "presence", "answer") and says whether it may be made. `client` is the page's computer
    (None: the server's own machine, counted per page only); `shared` the counts of every
    kernel (None: per page only)."""

    def __init__(self, *, client: str | None = None, shared: SharedCounts | None = None,
                 clock: Callable[[], float] = time.time,
                 page_caps: dict[str, int] | None = None,
                 computer_caps: dict[str, int] | None = None) -> None:
        self.client = client
        self.shared = shared
        self.clock = clock
        self.page_caps = dict(PAGE_CAPS if page_caps is None else page_caps)
        self.computer_caps = dict(COMPUTER_CAPS if computer_caps is None else computer_caps)
        self._times: dict[str, deque[float]] = {}  # this page's writes of the last hour
        self.refused: dict[str, int] = {}  # refusals of each kind on this page
        self._lock = threading.Lock()

    def allow(self, kind: str) -> bool:
        with self._lock:
            now = self.clock()
            times = self._times.setdefault(kind, deque())
            while times and times[0] <= now - WINDOW:
                times.popleft()
            ok = len(times) < self.page_caps[kind]
            where = "page"
            if ok and self.client and self.shared is not None:
                try:
                    ok = self.shared.take(self.client, kind, self.computer_caps[kind], now)
                except (OSError, sqlite3.Error) as e:  # the page's own cap still holds
                    log.warning("write counts not read (%s): page cap only", e)
                where = "computer"
            if ok:
                times.append(now)
                return True
            self.refused[kind] = self.refused.get(kind, 0) + 1
            if self.refused[kind] == 1:
                log.warning("Refused (%s writes per %s) from %s: at most %d an hour; further "
                            "ones from this page are not logged", kind, where,
                            self.client or "this machine",
                            (self.computer_caps if where == "computer" else self.page_caps)[kind])
            return False

    def first_refusal(self, kind: str) -> bool:
        """True right after the first refusal of `kind` on this page (to say it once)."""
        return self.refused.get(kind, 0) == 1


def check_student_room(c: Any, day: str, key: str, answer: bool = False) -> str | None:
    """In the store's write transaction (`c`, a rooms.database.Cursor): why a new student of
    `day` past MAX_STUDENTS_PER_DAY, or an answer past MAX_ANSWERS_PER_DAY, is refused (the
    store raises AnswerRefused with it); None when it is not."""
    if answer:
        row = c.one("SELECT COUNT(*) FROM icg_class_answers WHERE day = ?", (day,))
        if row and int(row[0]) >= MAX_ANSWERS_PER_DAY:
            return f"day full: {MAX_ANSWERS_PER_DAY} answers"
    if c.one("SELECT 1 FROM icg_presence WHERE day = ? AND student_key = ?", (day, key)):
        return None
    row = c.one("SELECT COUNT(*) FROM icg_presence WHERE day = ?", (day,))
    if row and int(row[0]) >= MAX_STUDENTS_PER_DAY:
        return f"day full: {MAX_STUDENTS_PER_DAY} students"
    return None
