"""The live class the teacher runs, in the room store's database: today's lesson and the class
size, pause, the exit ticket opened for a lesson, lock and late joiners, the roster with its
confirmation codes, and each student page's claim on a name.

    live = open_live_class()                  # the room store's URL ($ICG_ROOMS_URL or SQLite)
    live.set_lesson(3, class_size=28)         # today's lesson: its kernels are kept ready
    live.set_roster(read_class_list(text))    # first names, or a Google Classroom CSV
    pick = live.pick("Ana", code="K7M2")      # a student's page: Pick("in", "Ana", token)
    live.page(pick.token)                     # what that page is now: in, waiting, moved...
    live.pause(); live.resume()               # every student page behind "Eyes on the teacher"
    live.remove("Ana"); live.let_back("Ana")  # that page is out (after a reload too) until back
    token = live.open_page(2)                 # a page opened, no name yet: in the teacher's list
    live.remove_page(page_id); live.let_back_page(page_id)  # such a page, by its id

One row (`icg_live_class`) holds the class's settings and a version every change bumps, so a
student page polls one small read (`page_stamp`). Each student page has a token (128 bits,
made here, returned once, kept by the page's device; the store keeps its SHA-256) and a row in
`icg_live_pages`: `open` (opened, no name yet: its lesson and when it opened), `in` (it holds
its name: at most one page a name, a UNIQUE partial index), `waiting` (for the teacher's
approval), `moved` (the name went to another device), `freed` (the teacher freed the name, or
refused it), `removed` (out until the teacher lets it back). A removed name stays removed
whatever page picks it, so a reload or another tab does not get back in; a page removed before
it had a name stays out by its token (its device keeps it). The teacher names a page without a
name by its id (`PageInfo.page`: the SHA-256 of its token, never sent to a page).

Every change here is the teacher's, made only on the class page behind the teacher's key
(widgets/together/live.py, widgets/together/class_view.py); a student page calls only
`open_page`, `pick`, `forget`, `page`, `page_stamp`, `note_seat` and `seat_of`, each with its
own token. No ipywidgets and no
sentence here: a refusal is a `LiveRefused` with a code (words: widgets.words.room_error_text).
"""

from __future__ import annotations

import csv
import hashlib
import io
import re
import secrets
import time
from dataclasses import dataclass
from typing import Any

from rooms.codes import ALPHABET, CodeError, clean_name, hash_secret, new_secret
from rooms.database import Cursor, Transactions, store_url
from rooms.errors import RoomError, RoomNotFound
from rooms.records import SeatTicket

DEFAULT_CLASS_SIZE = 30
MAX_CLASS_SIZE = 60
MAX_ROSTER = 60
CONFIRM_LEN = 4
MAX_LESSON = 99
CODE_MISSES_FREE = 3  # wrong confirmation codes for a name before each try must wait
MAX_CODE_WAIT = 600.0

PAGE_STATES = ("open", "in", "waiting", "moved", "freed", "removed")
PAGE_ID_LEN = 64  # a page's id: the hex SHA-256 of its token

SCHEMA = [
    """CREATE TABLE IF NOT EXISTS icg_live_class (
        id INTEGER PRIMARY KEY,
        lesson INTEGER,
        class_size INTEGER NOT NULL,
        paused INTEGER NOT NULL,
        exit_ticket INTEGER,
        locked INTEGER NOT NULL,
        late_join INTEGER NOT NULL,
        approve INTEGER NOT NULL,
        confirm INTEGER NOT NULL,
        version INTEGER NOT NULL,
        pool_ready INTEGER,
        updated {real} NOT NULL,
        lang TEXT NOT NULL DEFAULT '')""",
    """CREATE TABLE IF NOT EXISTS icg_live_roster (
        name_key TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        place INTEGER NOT NULL,
        code TEXT NOT NULL,
        misses INTEGER NOT NULL,
        next_try {real} NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS icg_live_pages (
        token_hash TEXT PRIMARY KEY,
        name_key TEXT NOT NULL,
        name TEXT NOT NULL,
        state TEXT NOT NULL,
        room TEXT,
        seat INTEGER,
        at {real} NOT NULL,
        lesson INTEGER,
        opened {real})""",
    "CREATE UNIQUE INDEX IF NOT EXISTS icg_live_one_page ON icg_live_pages (name_key) "
    "WHERE state = 'in'",
    "CREATE INDEX IF NOT EXISTS icg_live_pages_name ON icg_live_pages (name_key)",
]


class LiveRefused(RoomError):
    """A pick or a change the live class refuses: `locked`, `removed`, `not-on-roster`,
    `wrong-code` (`seconds` to wait when the tries are used up: `code-wait`), `bad-name`,
    `bad-lesson`, `bad-size`, `roster-too-long`, `no-page` (a page id the class does not
    know)."""

    code = "live-refused"


@dataclass(frozen=True)
class LiveState:
    """The class's settings as every page reads them."""

    lesson: int | None
    class_size: int
    paused: bool
    exit_ticket: int | None
    locked: bool
    late_join: bool
    approve: bool
    confirm: bool
    version: int
    pool_ready: int | None = None  # kernels of today's lesson the server keeps ready
    lang: str = ""  # the class's language: today's lesson in its folder ('': lessons/ itself)


@dataclass(frozen=True)
class Pick:
    """What a pick gave: `state` `in` (the page holds the name) or `waiting` (for the
    teacher), the name as the roster spells it, and the page's token (keep it)."""

    state: str
    name: str
    token: str


@dataclass(frozen=True)
class PageInfo:
    """One student page as the teacher sees it (no token). `name` is "" for a page that has
    no name yet (`open`, or removed before it had one): the teacher names it by `page`."""

    name: str
    state: str
    at: float
    room: str | None
    seat: int | None
    moving: bool  # a waiting page asking for a name another page holds
    page: str = ""  # the page's id (the SHA-256 of its token)
    lesson: int | None = None  # the lesson it opened on (None: a page of no lesson)
    opened: float = 0.0  # when it was opened (0: not known)


@dataclass(frozen=True)
class RosterName:
    name: str
    code: str
    state: str  # the state of the page that has the name: "" (none), in, waiting, removed


def token_hash(token: str) -> str:
    return hashlib.sha256(f"icg-live:{token}".encode()).hexdigest()


def new_confirm_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(CONFIRM_LEN))


def _name(text: object) -> tuple[str, str]:
    try:
        return clean_name(text)
    except CodeError as e:
        raise LiveRefused("bad-name", why=e.code) from e


FIRST_NAME_HEADERS = ("first name", "first", "given name", "firstname", "nombre",
                      "student first name", "first name [required]")
LAST_NAME_HEADERS = ("last name", "last", "family name", "surname", "lastname", "apellido",
                     "apellidos", "student last name", "last name [required]")


def read_class_list(text: str) -> tuple[list[str], list[str]]:
    """The first names of a class list: one a line, or a CSV (Google Classroom's export, a
    spreadsheet's) with a first-name column (and a last-name one: two students of one first
    name get its initial, "Ana M."). Returns (names in order, lines not taken: bad names and
    repeats, as typed)."""
    text = text.lstrip("\ufeff")
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        return [], []
    delimiter = next((d for d in (",", ";", "\t") if d in lines[0]), None)
    firsts: list[str]
    lasts: list[str]
    if delimiter is None:
        firsts, lasts = [line.strip() for line in lines], ["" for _ in lines]
    else:
        rows = list(csv.reader(io.StringIO("\n".join(lines)), delimiter=delimiter))
        header = [h.strip().casefold() for h in rows[0]]
        first_col = next((i for i, h in enumerate(header) if h in FIRST_NAME_HEADERS), None)
        last_col = next((i for i, h in enumerate(header) if h in LAST_NAME_HEADERS), None)
        if first_col is None:  # no header: the first field of each line
            first_col, body = 0, rows
        else:
            body = rows[1:]
        firsts = [r[first_col].strip() if len(r) > first_col else "" for r in body]
        lasts = [r[last_col].strip() if last_col is not None and len(r) > last_col else ""
                 for r in body]
    keys: dict[str, int] = {}
    for first in firsts:
        try:
            keys[clean_name(first)[1]] = keys.get(clean_name(first)[1], 0) + 1
        except CodeError:
            pass
    names: list[str] = []
    seen: set[str] = set()
    left: list[str] = []
    for first, last in zip(firsts, lasts, strict=True):
        try:
            name, key = clean_name(first)
            if keys.get(key, 0) > 1 and last:
                name, key = clean_name(f"{name} {last[0].upper()}.")
        except CodeError:
            left.append(first)
            continue
        if key in seen:
            left.append(first)
            continue
        seen.add(key)
        names.append(name)
    return names, left


def open_live_class(url: str | None = None, **kw: Any) -> LiveClass:
    """The live class in the room store's database at `url` (default: `store_url()`)."""
    return LiveClass(url or store_url(), **kw)


class LiveClass(Transactions):
    """The live class (see the module's text). Thread-safe; every method raises
    StoreUnavailable when the database cannot be reached (nothing was changed then)."""

    def __init__(self, url: str, *, busy_timeout: float = 5.0) -> None:
        super().__init__(url, busy_timeout=busy_timeout)
        with self._write() as c:
            if self._db.postgres:  # two kernels creating the tables at once
                c.execute("SELECT pg_advisory_xact_lock(4244)")
            for stmt in SCHEMA:
                c.execute(stmt.format(real=self._db.real))
            self._add_column(c, "icg_live_class", "lang", "TEXT NOT NULL DEFAULT ''")
            self._add_column(c, "icg_live_pages", "lesson", "INTEGER")
            self._add_column(c, "icg_live_pages", "opened", self._db.real)
            c.run("INSERT INTO icg_live_class (id, lesson, class_size, paused, exit_ticket, "
                  "locked, late_join, approve, confirm, version, updated) "
                  "VALUES (1, NULL, ?, 0, NULL, 0, 1, 0, 0, 0, ?) ON CONFLICT (id) DO NOTHING",
                  (DEFAULT_CLASS_SIZE, time.time()))

    def close(self) -> None:
        with self._lock:
            self._drop_connection()

    # ----- reading --------------------------------------------------------------------------
    def _state(self, c: Cursor, lock: bool = False) -> LiveState:
        row = c.one("SELECT lesson, class_size, paused, exit_ticket, locked, late_join, "
                    "approve, confirm, version, pool_ready, lang FROM icg_live_class WHERE id = 1"
                    + (self._db.lock_row if lock else ""), ())
        return LiveState(None if row[0] is None else int(row[0]), int(row[1]), bool(row[2]),
                         None if row[3] is None else int(row[3]), bool(row[4]), bool(row[5]),
                         bool(row[6]), bool(row[7]), int(row[8]),
                         None if row[9] is None else int(row[9]), str(row[10] or ""))

    def state(self) -> LiveState:
        with self._read() as c:
            return self._state(c)

    def version(self) -> int:
        with self._read() as c:
            return int(c.one("SELECT version FROM icg_live_class WHERE id = 1", ())[0])

    def page_stamp(self, token: str | None) -> tuple[LiveState, str | None, str | None]:
        """A student page's one poll: the class's state, and this page's state and name."""
        with self._read() as c:
            state = self._state(c)
            row = None if not token else c.one(
                "SELECT state, name FROM icg_live_pages WHERE token_hash = ?",
                (token_hash(token),))
        return state, (row[0] if row else None), ((row[1] or None) if row else None)

    def page(self, token: str) -> tuple[str | None, str | None]:
        """This page's state (`open`, `in`, `waiting`, `moved`, `freed`, `removed`; None:
        unknown) and its name (None: it has none)."""
        return self.page_stamp(token)[1:]

    def pages(self) -> list[PageInfo]:
        """Every page that is in, waiting or removed, by name, then the pages without a name
        (open, or removed before they had one) in the order they opened (the teacher's
        list)."""
        with self._read() as c:
            rows = c.all("SELECT name, state, at, room, seat, name_key, token_hash, lesson, "
                         "opened FROM icg_live_pages WHERE state IN ('open', 'in', 'waiting', "
                         "'removed') ORDER BY name_key, at", ())
            holders = {r[5] for r in rows if r[1] == "in"}
        pages = [PageInfo(r[0], r[1], float(r[2]), r[3], None if r[4] is None else int(r[4]),
                          r[1] == "waiting" and r[5] in holders, r[6],
                          None if r[7] is None else int(r[7]),
                          float(r[8]) if r[8] is not None else float(r[2])) for r in rows]
        return ([p for p in pages if p.name] +
                sorted((p for p in pages if not p.name), key=lambda p: p.opened))

    def roster(self) -> list[RosterName]:
        with self._read() as c:
            rows = c.all("SELECT name, code, name_key FROM icg_live_roster ORDER BY place", ())
            states = dict(c.all("SELECT name_key, state FROM icg_live_pages "
                                "WHERE state IN ('in', 'removed')", ()))
        return [RosterName(r[0], r[1], states.get(r[2], "")) for r in rows]

    def roster_names(self) -> list[str]:
        """The roster's names only (what a student page may show: no codes)."""
        with self._read() as c:
            return [r[0] for r in c.all("SELECT name FROM icg_live_roster ORDER BY place", ())]

    # ----- the teacher's changes ------------------------------------------------------------
    def _change(self, **columns: Any) -> LiveState:
        with self._write() as c:
            self._bump(c, **columns)
            return self._state(c)

    def _bump(self, c: Cursor, **columns: Any) -> None:
        sets = "".join(f", {k} = ?" for k in columns)
        c.run(f"UPDATE icg_live_class SET version = version + 1, updated = ?{sets} "
              "WHERE id = 1", (time.time(), *columns.values()))

    def set_lesson(self, lesson: int | None, class_size: int | None = None,
                   lang: str | None = None) -> LiveState:
        """Today's lesson (its number; None: none chosen), the class size (1 to 60) and the
        class's language (its lessons' folder, 'es'; '' or 'en': lessons/ itself)."""
        if lesson is not None and (type(lesson) is not int or not 1 <= lesson <= MAX_LESSON):
            raise LiveRefused("bad-lesson")
        if lang is not None and (not isinstance(lang, str)
                                 or not re.fullmatch(r"(?:[a-z]{2,3})?", lang)):
            raise LiveRefused("bad-lesson")
        columns: dict[str, Any] = {"lesson": lesson}
        if lang is not None:
            columns["lang"] = "" if lang == "en" else lang
        if class_size is not None:
            if type(class_size) is not int or not 1 <= class_size <= MAX_CLASS_SIZE:
                raise LiveRefused("bad-size", most=MAX_CLASS_SIZE)
            columns["class_size"] = class_size
        return self._change(**columns)

    def report_pool(self, ready: int, wanted: int) -> None:
        """The server's word on today's lesson: `ready` kernels kept (of `wanted`)."""
        with self._write() as c:
            self._bump(c, pool_ready=int(ready))

    def pause(self) -> LiveState:
        return self._change(paused=1)

    def resume(self) -> LiveState:
        return self._change(paused=0)

    def open_exit_ticket(self, lesson: int | None) -> LiveState:
        """The exit ticket of `lesson` on every page of that lesson (None: closed again)."""
        if lesson is not None and (type(lesson) is not int or not 1 <= lesson <= MAX_LESSON):
            raise LiveRefused("bad-lesson")
        return self._change(exit_ticket=lesson)

    def set_options(self, *, locked: bool | None = None, late_join: bool | None = None,
                    approve: bool | None = None, confirm: bool | None = None) -> LiveState:
        given = {"locked": locked, "late_join": late_join, "approve": approve,
                 "confirm": confirm}
        return self._change(**{k: int(bool(v)) for k, v in given.items() if v is not None})

    def set_roster(self, names: list[str]) -> list[RosterName]:
        """The class list (replacing the last one), each name with a new confirmation code.
        Pages that hold a name stay; names checked as a student's first name."""
        if len(names) > MAX_ROSTER:
            raise LiveRefused("roster-too-long", most=MAX_ROSTER)
        clean: list[tuple[str, str]] = []
        keys: set[str] = set()
        for text in names:
            name, key = _name(text)
            if key not in keys:
                keys.add(key)
                clean.append((name, key))
        with self._write() as c:
            c.run("DELETE FROM icg_live_roster")
            for place, (name, key) in enumerate(clean):
                c.run("INSERT INTO icg_live_roster (name_key, name, place, code, misses, "
                      "next_try) VALUES (?, ?, ?, ?, 0, 0)", (key, name, place,
                                                              new_confirm_code()))
            self._bump(c)
        return self.roster()

    def free(self, name: str) -> int:
        """The name's page lets it go (that page is told; the name can be picked again)."""
        return self._set_pages(name, ("in", "waiting"), "freed")

    def remove(self, name: str) -> int:
        """Every page of the name is out, and the name cannot be picked, until `let_back`."""
        return self._set_pages(name, ("in", "waiting"), "removed")

    def remove_page(self, page: str) -> bool:
        """The page without a name `page` (its id) is out: it is told, and stays out after a
        reload (its device keeps its token) until `let_back_page`. False: no such page, or it
        has a name now (remove it by its name)."""
        return self._move_nameless_page(page, "open", "removed")

    def let_back_page(self, page: str) -> bool:
        """A page removed before it had a name is back (open: it may name itself)."""
        return self._move_nameless_page(page, "removed", "open")

    def _move_nameless_page(self, page: str, was: str, state: str) -> bool:
        """The page without a name `page` (its id) goes from `was` to `state`; False: no such
        page in `was`, or it has a name now."""
        with self._write() as c:
            n = c.run("UPDATE icg_live_pages SET state = ?, at = ? WHERE token_hash = ? "
                      "AND name_key = '' AND state = ?", (state, time.time(), _page_id(page), was))
            if n:
                self._bump(c)
        return n == 1

    def let_back(self, name: str) -> int:
        """A removed name (and its page) back in the class: the page that was removed last
        holds the name again; the others may pick it as any page."""
        _shown, key = _name(name)
        with self._write() as c:
            rows = c.all("SELECT token_hash FROM icg_live_pages WHERE name_key = ? AND "
                         "state = 'removed' ORDER BY at DESC", (key,))
            if not rows:
                return 0
            c.run("UPDATE icg_live_pages SET state = 'freed' WHERE name_key = ? AND "
                  "state = 'removed'", (key,))
            c.run("UPDATE icg_live_pages SET state = 'in', at = ? WHERE token_hash = ?",
                  (time.time(), rows[0][0]))
            self._bump(c)
        return len(rows)

    def approve(self, name: str) -> bool:
        """The waiting page of `name` gets it (a page that held it is told it moved)."""
        _shown, key = _name(name)
        with self._write() as c:
            self._state(c, lock=True)
            row = c.one("SELECT token_hash FROM icg_live_pages WHERE name_key = ? AND "
                        "state = 'waiting' ORDER BY at DESC", (key,))
            if row is None:
                return False
            self._move_to(c, key, row[0])
            self._bump(c)
        return True

    def refuse(self, name: str) -> int:
        """The waiting pages of `name` are told no (they may pick again)."""
        _shown, key = _name(name)
        with self._write() as c:
            n = c.run("UPDATE icg_live_pages SET state = 'freed' WHERE name_key = ? AND "
                      "state = 'waiting'", (key,))
            self._bump(c)
        return n

    def end_day(self) -> None:
        """A new class: every page forgotten, pause, exit ticket and lock off."""
        with self._write() as c:
            c.run("DELETE FROM icg_live_pages")
            self._bump(c, paused=0, exit_ticket=None, locked=0)

    def _set_pages(self, name: str, states: tuple[str, ...], to: str) -> int:
        _shown, key = _name(name)
        marks = ", ".join("?" for _s in states)
        with self._write() as c:
            n = c.run(f"UPDATE icg_live_pages SET state = ?, at = ? WHERE name_key = ? AND "
                      f"state IN ({marks})", (to, time.time(), key, *states))
            if to == "removed" and n == 0:  # a name nobody holds yet: kept out all the same
                c.run("INSERT INTO icg_live_pages (token_hash, name_key, name, state, at) "
                      "VALUES (?, ?, ?, 'removed', ?)", (token_hash(new_secret()), key,
                                                          _shown, time.time()))
                n = 1
            self._bump(c)
        return n

    def _move_to(self, c: Cursor, key: str, new_hash: str) -> None:
        """The name goes to the page `new_hash`, with the old page's seat; the old is `moved`."""
        old = c.one("SELECT token_hash, room, seat FROM icg_live_pages WHERE name_key = ? AND "
                    "state = 'in'", (key,))
        if old is not None and old[0] != new_hash:
            c.run("UPDATE icg_live_pages SET state = 'moved' WHERE token_hash = ?", (old[0],))
            c.run("UPDATE icg_live_pages SET room = ?, seat = ? WHERE token_hash = ?",
                  (old[1], old[2], new_hash))
        c.run("UPDATE icg_live_pages SET state = 'in', at = ? WHERE token_hash = ?",
              (time.time(), new_hash))

    # ----- a student's page -----------------------------------------------------------------
    def open_page(self, lesson: int | None = None, *, now: float | None = None) -> str:
        """A student page opened (no name yet): its row in the teacher's list, with its lesson
        and when it opened. Returns its token (the page's device keeps it; `pick` with it
        names the page)."""
        if lesson is not None and (type(lesson) is not int or not 1 <= lesson <= MAX_LESSON):
            raise LiveRefused("bad-lesson")
        now = time.time() if now is None else now
        token = new_secret()
        with self._write() as c:
            c.run("INSERT INTO icg_live_pages (token_hash, name_key, name, state, at, lesson, "
                  "opened) VALUES (?, '', '', 'open', ?, ?, ?)",
                  (token_hash(token), now, lesson, now))
            self._bump(c)
        return token

    def pick(self, name: object, *, token: str | None = None, code: object = None,
             now: float | None = None) -> Pick:
        """A page takes a name: from the roster when there is one (look-alikes are the same
        name, shown as the roster spells it), checked with its confirmation code when the
        teacher turned codes on. The result is `in`, or `waiting` for the teacher (approval on,
        late joiners of a locked class, or a name another page holds and no code to move it).
        Refused: `removed`, `locked`, `not-on-roster`, `wrong-code`, `code-wait`, `bad-name`.
        `token`: the page's own (a reload); a new one is made and returned otherwise."""
        shown, key = _name(name)
        now = time.time() if now is None else now
        with self._write() as c:
            got = self._pick(c, shown, key, token, code, now)
        if isinstance(got, LiveRefused):  # a wrong code: counted (committed), then refused
            raise got
        return got

    def _pick(self, c: Cursor, shown: str, key: str, token: str | None, code: object,
              now: float) -> Pick | LiveRefused:
        state = self._state(c, lock=True)
        roster = c.all("SELECT name_key, name, code, misses, next_try FROM icg_live_roster",
                       ())
        mine = None
        if token:
            mine = c.one("SELECT state, name_key FROM icg_live_pages WHERE token_hash = ?",
                         (token_hash(token),))
        if mine is not None and mine[0] == "removed":
            raise LiveRefused("removed")
        if mine is not None and mine[0] == "in" and mine[1] == key:
            return Pick("in", shown, token or "")
        if c.one("SELECT 1 FROM icg_live_pages WHERE name_key = ? AND state = 'removed'",
                 (key,)) is not None:
            raise LiveRefused("removed")
        code_right = False
        if roster:
            entry = next((r for r in roster if r[0] == key), None)
            if entry is None:
                raise LiveRefused("not-on-roster")
            shown = entry[1]
            if state.confirm:
                if now < float(entry[4]):
                    raise LiveRefused("code-wait", seconds=int(float(entry[4]) - now) + 1)
                typed = "".join(str(code or "").split()).upper()
                if not secrets.compare_digest(typed.encode(), entry[2].encode()):
                    misses = int(entry[3]) + 1
                    wait = (0.0 if misses < CODE_MISSES_FREE else
                            min(2.0 ** (misses - CODE_MISSES_FREE + 1), MAX_CODE_WAIT))
                    c.run("UPDATE icg_live_roster SET misses = ?, next_try = ? "
                          "WHERE name_key = ?", (misses, now + wait, key))
                    return LiveRefused("wrong-code", seconds=int(wait))
                c.run("UPDATE icg_live_roster SET misses = 0, next_try = 0 "
                      "WHERE name_key = ?", (key,))
                code_right = True
        held = c.one("SELECT token_hash FROM icg_live_pages WHERE name_key = ? AND "
                     "state = 'in'", (key,)) is not None
        if held:
            wanted = "in" if code_right else "waiting"
        elif state.locked:
            if not state.late_join:
                raise LiveRefused("locked")
            wanted = "waiting"
        elif state.approve and not roster:
            wanted = "waiting"
        else:
            wanted = "in"
        token = token or new_secret()
        h = token_hash(token)
        was = c.one("SELECT lesson, opened FROM icg_live_pages WHERE token_hash = ?", (h,))
        c.run("DELETE FROM icg_live_pages WHERE token_hash = ?", (h,))
        c.run("INSERT INTO icg_live_pages (token_hash, name_key, name, state, at, lesson, "
              "opened) VALUES (?, ?, ?, 'waiting', ?, ?, ?)",
              (h, key, shown, now, was[0] if was else None,
               was[1] if was and was[1] is not None else now))
        if wanted == "in":
            self._move_to(c, key, h)
        self._bump(c)
        return Pick(wanted, shown, token)

    def forget(self, token: str) -> bool:
        """A page drops its own row while it has no name (open), waits, or was freed: its
        device had another token, the page's own from before a reload (or the page is the
        teacher's). A removed page stays removed."""
        with self._write() as c:
            n = c.run("DELETE FROM icg_live_pages WHERE token_hash = ? AND "
                      "state IN ('open', 'waiting', 'freed')", (token_hash(token),))
            if n:
                self._bump(c)
        return n == 1

    def note_seat(self, token: str, room: str | None, seat: int | None) -> bool:
        """The page's play-together seat (room code and seat), found again by its name's next
        page when the student moves to another device."""
        with self._write() as c:
            n = c.run("UPDATE icg_live_pages SET room = ?, seat = ? WHERE token_hash = ? AND "
                      "state = 'in'", (room, seat, token_hash(token)))
        return n == 1

    def seat_of(self, token: str) -> tuple[str, int] | None:
        """The seat this page's name had (its own, or its page before a move)."""
        with self._read() as c:
            row = c.one("SELECT room, seat FROM icg_live_pages WHERE token_hash = ? AND "
                        "state = 'in'", (token_hash(token),))
        if row is None or row[0] is None or row[1] is None:
            return None
        return row[0], int(row[1])


def _page_id(page: object) -> str:
    """A page id as the teacher's list gives it (the hex SHA-256 of a token); `no-page`
    otherwise."""
    if not isinstance(page, str) or not re.fullmatch(f"[0-9a-f]{{{PAGE_ID_LEN}}}", page):
        raise LiveRefused("no-page")
    return page


def take_seat_back(rooms: Any, live: LiveClass, token: str,
                   now: float | None = None) -> SeatTicket | None:
    """The play-together seat of the name this page holds (noted by its page before a move to
    another device), with a new secret: a `SeatTicket`, or None (no seat, or the room is gone).
    The old page's secret stops working (its seat session says the seat was taken on another
    page); a computer player that had the seat gives it back."""
    where = live.seat_of(token)
    if where is None:
        return None
    code, seat = where
    now = time.time() if now is None else now
    secret = new_secret()
    try:
        with rooms._write() as c:
            room = rooms._room_row(c, code, lock=True)
            row = c.one("SELECT name FROM icg_seats WHERE code = ? AND seat = ?", (code, seat))
            if row is None or row[0] is None or room["status"] == "closed":
                return None
            c.run("UPDATE icg_seats SET secret_hash = ?, away = 0, last_seen = ? "
                  "WHERE code = ? AND seat = ?", (hash_secret(code, seat, secret), now, code,
                                                  seat))
            rooms._bump(c, code, room["version"], now)
    except RoomNotFound:
        return None
    return SeatTicket(code, seat, row[0], secret)
