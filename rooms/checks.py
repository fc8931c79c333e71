"""Announce checks (Hit Me): each student's check of a round, written by their seat's
session once per seat and round, and summed up per student for the teacher's class view."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from engine.errors import ConfigError
from rooms.codes import format_code
from rooms.database import CHECKS_TABLE
from rooms.transactions import StoreBase


@dataclass(frozen=True)
class CheckSummary:
    """One student's announce checks (Hit Me): how many, right at the first try, misses, and
    which first mistakes how often (('abs', 2), ('sum', 1))."""

    code: str
    shown: str
    seat: int
    name: str
    checks: int
    first_try: int
    misses: int
    mistakes: tuple[tuple[str, int], ...]



class AnnounceChecks(StoreBase):
    """Recording and reading the announce checks."""

    MISTAKES = ("sum", "abs", "shown")

    def record_check(self, code: object, seat: object, secret: object, round_index: object,
                     first_try: bool, misses: int, mistake: str | None) -> int:
        """A student's announce check of one Hit Me round (first try right?, wrong tries, the
        first mistake: 'sum' (the sum), 'abs' (the sum right, |sum| wrong) or 'shown' (Show me
        gave the answer)), once per seat and round (a second record is ignored). The seat's own
        secret only. Bumps the room's version (every page sees who has announced); returns it."""
        code = self._code(code)
        self._extra_tables()
        if not (type(round_index) is int and 0 <= round_index < 10_000
                and type(first_try) is bool and type(misses) is int and 0 <= misses < 1000
                and (mistake is None or mistake in self.MISTAKES)):
            raise ConfigError("record_check: round, first_try, misses or mistake is not valid")
        now = time.time()
        with self._write() as c:
            room = self._room_row(c, code, lock=True)
            row = self._check_seat(c, room, seat, secret)
            done = c.one("SELECT 1 FROM icg_checks WHERE code = ? AND seat = ? AND round = ?",
                         (code, seat, round_index))
            if done is not None:
                return room["version"]
            c.run("INSERT INTO icg_checks (code, seat, round, name, first_try, misses, mistake, "
                  "at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                  (code, seat, round_index, row["name"], int(first_try), misses, mistake, now))
            return self._bump(c, code, room["version"], now)

    def checks(self, code: object | None = None) -> list[dict[str, Any]]:
        """Announce-check results, oldest first: each {code, seat, round, name, first_try,
        misses, mistake, at}; one room's, or every room's (the class view)."""
        self._extra_tables()
        keys = ("code", "seat", "round", "name", "first_try", "misses", "mistake", "at")
        sql = ("SELECT code, seat, round, name, first_try, misses, mistake, at FROM icg_checks"
               + ("" if code is None else " WHERE code = ?") + " ORDER BY at, seat")
        with self._read() as c:
            rows = c.all(sql, () if code is None else (self._code(code),))
        out = [dict(zip(keys, r, strict=True)) for r in rows]
        for r in out:
            r["first_try"] = bool(r["first_try"])
        return out

    def class_checks(self) -> list[CheckSummary]:
        """Per student, the announce-check results of every room: checks, right at the first
        try, misses, and which first mistakes ('sum', 'abs', 'shown'). Read from the table the
        seats' sessions write (`record_check`: one row per seat and round in CHECKS_TABLE);
        none yet gives []."""
        with self._read() as c:
            if self._db.postgres:
                there = c.one("SELECT to_regclass(?)", (CHECKS_TABLE,))[0] is not None
            else:
                there = c.one("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' "
                              "AND name = ?", (CHECKS_TABLE,))[0] > 0
            rows = c.all(f"SELECT code, seat, name, first_try, misses, mistake "  # noqa: S608
                         f"FROM {CHECKS_TABLE} ORDER BY at, seat", ()) if there else []
        out: dict[tuple[str, int], dict[str, Any]] = {}
        for code, seat, name, first_try, misses, mistake in rows:
            s = out.setdefault((code, int(seat)), {"name": name, "checks": 0, "first_try": 0,
                                                   "misses": 0, "mistakes": {}})
            s["checks"] += 1
            s["first_try"] += 1 if first_try else 0
            s["misses"] += int(misses)
            if mistake:
                s["mistakes"][mistake] = s["mistakes"].get(mistake, 0) + 1
        return [CheckSummary(code, format_code(code), seat, v["name"], v["checks"],
                             v["first_try"], v["misses"], tuple(sorted(v["mistakes"].items())))
                for (code, seat), v in sorted(out.items())]
