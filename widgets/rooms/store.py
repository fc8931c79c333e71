"""The room store: rooms shared by every student's kernel, on SQLite (default) or PostgreSQL.

A room is one engine state (saved with the engine's `to_json`, loaded back with its strict
`from_json`), its settings, a version number, its seats and a move log. Every change is one
transaction; a move is checked against the version the page showed and written with
``UPDATE ... WHERE version = ?``, so two clicks at once make exactly one move and one clear
refusal (`TableChanged` or `NotYourTurn`), never a lost or doubled move.

    store = open_store()                      # $ICG_ROOMS_URL, else .rooms.sqlite3
    host = store.create_room(HitMeGame(cfg, seed=...), fill_bot={"bot": "careful"})
    me = store.join(host.code, "Ana")        # SeatTicket(code, seat, secret)
    version, state = store.load(me.code)
    store.play(me.code, me.seat, me.secret, Hit(), expected_version=version)

Only the kernel holds the whole state: this module never builds what a page sees. It imports
no ipywidgets. Design, store choice and what is left: docs/rooms.md.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.errors import ConfigError, IllegalActionError
from engine.flapjack import FlapjackState
from engine.hit_me import HitMeGame, Reveal
from widgets.rooms.codes import (
    MAX_NAME,
    CodeError,
    clean_name,
    format_code,
    hash_secret,
    new_code,
    new_secret,
    parse_code,
    secret_matches,
)
from widgets.rooms.games import (
    CHANGE,
    GAMES,
    action_to_json,
    apply_move,
    game_kind,
    log_entry,
)

URL_ENV = "ICG_ROOMS_URL"
DEFAULT_PATH = Path(__file__).resolve().parent.parent.parent / ".rooms.sqlite3"
MAX_SETTINGS = 10_000  # characters of settings JSON
MAX_SEATS = 8
NOTIFY_CHANNEL = "icg_rooms"

WAITING, PLAYING, PAUSED, FINISHED, CLOSED = "waiting", "playing", "paused", "finished", "closed"


# ----- errors: a code and its numbers; widgets.words.room_error_text makes the sentence -------
class RoomError(Exception):
    """Anything the room store refuses: `code` says what (each class has a default; the codes
    are listed with their sentences in widgets.words.ROOM_ERRORS) and `data` its numbers and
    names (JSON-ready: a room code as shown, a seat number from 0, a name, seconds). `str()`
    is the code and data, for a developer's log; a page shows
    `widgets.words.room_error_text(error)`, in its own language."""

    code = "refused"

    def __init__(self, code: str | None = None, /, **data: Any) -> None:
        self.code = code if code is not None else type(self).code
        self.data = data
        super().__init__(self.code, data)

    def __str__(self) -> str:
        if not self.data:
            return self.code
        return f"{self.code}: " + ", ".join(f"{k}={v!r}" for k, v in self.data.items())


class StoreUnavailable(RoomError):
    """The store cannot be reached or stays locked; nothing was changed. Try again later."""

    code = "unavailable"


class RoomNotFound(RoomError):
    """No room has this code (never made, closed and expired, or mistyped)."""

    code = "no-room"


class NotAllowed(RoomError):
    """A secret that does not hold this seat (or the host's key), or a room not open to this."""

    code = "not-allowed"


class NameTaken(RoomError):
    """Another player at this table already has the name."""

    code = "name-taken"


class RoomFull(RoomError):
    """Every seat of the room is taken."""

    code = "room-full"


class MoveRefused(RoomError):
    """A move that was not made; the room is exactly as it was."""

    code = "move-refused"


class TableChanged(MoveRefused):
    """The table changed since the page was drawn (someone else moved first)."""

    code = "table-changed"


class NotYourTurn(MoveRefused):
    """The engine refused the move because another player is to act."""

    code = "not-your-turn"


class IllegalMove(MoveRefused):
    """The engine refused the move for another reason (its message says which)."""

    code = "illegal-move"


class NotPlaying(MoveRefused):
    """The room has not started, is paused, or is over."""

    code = "not-playing"


class DamagedRoom(RoomError):
    """The saved game in the store was refused by the engine's strict loader."""

    code = "damaged"


# ----- what callers get back -----------------------------------------------------------------
@dataclass(frozen=True)
class HostTicket:
    """What the room's maker holds: the code to share and the host's secret (keep it private)."""

    code: str
    secret: str

    @property
    def shown(self) -> str:
        return format_code(self.code)


@dataclass(frozen=True)
class SeatTicket:
    """What a student's page holds: room, seat and the seat's secret."""

    code: str
    seat: int
    name: str
    secret: str


@dataclass(frozen=True)
class SeatInfo:
    """A seat as anyone at the table may see it (no secret, no hash)."""

    seat: int
    name: str | None
    controller: str  # "human", "computer" or "empty"
    away: bool
    last_seen: float | None
    bot: dict[str, Any] | None


@dataclass(frozen=True)
class RoomInfo:
    """A room's public facts: for the class view and the tables' headers."""

    code: str
    game: str
    status: str
    version: int
    turn: int | None
    settings: dict[str, Any]
    seats: tuple[SeatInfo, ...]
    created: float
    updated: float


# ----- the two databases behind one small interface ------------------------------------------
SCHEMA = [
    """CREATE TABLE IF NOT EXISTS icg_rooms (
        code TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        settings TEXT NOT NULL,
        state TEXT NOT NULL,
        version INTEGER NOT NULL,
        status TEXT NOT NULL,
        turn INTEGER,
        seats INTEGER NOT NULL,
        host_hash TEXT NOT NULL,
        fill_bot TEXT,
        created {real} NOT NULL,
        updated {real} NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS icg_seats (
        code TEXT NOT NULL,
        seat INTEGER NOT NULL,
        name TEXT,
        name_key TEXT,
        secret_hash TEXT,
        bot TEXT,
        away INTEGER NOT NULL DEFAULT 0,
        last_seen {real},
        PRIMARY KEY (code, seat),
        UNIQUE (code, name_key))""",
    """CREATE TABLE IF NOT EXISTS icg_moves (
        code TEXT NOT NULL,
        version INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        action TEXT NOT NULL,
        at {real} NOT NULL,
        PRIMARY KEY (code, version))""",
    "CREATE INDEX IF NOT EXISTS icg_rooms_updated ON icg_rooms (status, updated)",
]


class _Database:
    """One connection to SQLite or PostgreSQL, the same SQL for both (`?` placeholders)."""

    postgres = False

    def connect(self) -> Any:
        raise NotImplementedError

    def sql(self, text: str) -> str:
        return text

    begin_write = "BEGIN IMMEDIATE"
    lock_row = ""


class _SQLite(_Database):
    def __init__(self, path: Path, busy_timeout: float) -> None:
        self.path, self.busy_timeout = path, busy_timeout
        self.real = "REAL"

    def connect(self) -> Any:
        # The store holds every hidden card and generator state: readable by the server's
        # user only (SQLite gives its -wal and -shm files the database file's mode).
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as e:
            raise sqlite3.OperationalError(f"unable to open database file: {e.strerror}") from e
        try:
            if os.fstat(fd).st_mode & 0o077 and os.fstat(fd).st_uid == os.getuid():
                os.fchmod(fd, 0o600)
        finally:
            os.close(fd)
        # isolation_level=None: no implicit transactions; every change runs in our own
        # BEGIN IMMEDIATE ... COMMIT (the write lock is taken at BEGIN, not half-way).
        conn = sqlite3.connect(self.path, timeout=self.busy_timeout, isolation_level=None,
                               check_same_thread=False)
        conn.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout * 1000)}")
        mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if mode.lower() != "wal":
            conn.close()
            raise StoreUnavailable("unavailable", error=f"{self.path} cannot use WAL mode ({mode})")
        # WAL + NORMAL: a killed process loses nothing committed; only a power cut can lose
        # the last moves (never half of one).
        conn.execute("PRAGMA synchronous = NORMAL")
        return conn

    def errors(self) -> tuple[type[BaseException], ...]:
        return (sqlite3.OperationalError, sqlite3.DatabaseError)

    def integrity(self) -> tuple[type[BaseException], ...]:
        return (sqlite3.IntegrityError,)


class _Postgres(_Database):
    postgres = True
    begin_write = "BEGIN"
    lock_row = " FOR UPDATE"

    def __init__(self, url: str, connect_timeout: float) -> None:
        import psycopg  # only when a PostgreSQL URL is given

        self.psycopg, self.url, self.connect_timeout = psycopg, url, connect_timeout
        self.real = "DOUBLE PRECISION"

    def connect(self) -> Any:
        return self.psycopg.connect(self.url, autocommit=True,
                                    connect_timeout=max(1, int(self.connect_timeout)))

    def sql(self, text: str) -> str:
        return text.replace("%", "%%").replace("?", "%s")

    def errors(self) -> tuple[type[BaseException], ...]:
        e = self.psycopg
        return (e.OperationalError, e.InterfaceError, e.errors.LockNotAvailable,
                e.errors.QueryCanceled)

    def integrity(self) -> tuple[type[BaseException], ...]:
        return (self.psycopg.IntegrityError,)


def store_url() -> str:
    """The store's URL: $ICG_ROOMS_URL, else the SQLite file .rooms.sqlite3 beside the project."""
    return os.environ.get(URL_ENV, "").strip() or f"sqlite:///{DEFAULT_PATH}"


def _database(url: str, busy_timeout: float) -> _Database:
    if url.startswith(("postgresql://", "postgres://")):
        return _Postgres(url, busy_timeout)
    if url.startswith("sqlite:///"):
        return _SQLite(Path(url[len("sqlite:///"):]), busy_timeout)
    if "://" not in url:
        return _SQLite(Path(url), busy_timeout)
    raise ConfigError(f"{URL_ENV} must be sqlite:///<file> or postgresql://...; got {url!r}")


def open_store(url: str | None = None, **kw: Any) -> RoomStore:
    """The room store at `url` (default: `store_url()`)."""
    return RoomStore(url or store_url(), **kw)


class RoomStore:
    """Rooms in one database, shared by every kernel that opens the same URL.

    Thread-safe (one connection, one lock). Every method raises `StoreUnavailable` when the
    database cannot be reached or stays locked longer than `busy_timeout` seconds; the change
    asked for was then not made, and the same call can be tried again.
    """

    def __init__(self, url: str, *, busy_timeout: float = 5.0) -> None:
        self.url = url
        self._db = _database(url, busy_timeout)
        self._lock = threading.RLock()
        self._conn: Any = None
        self._listener: Any = None
        # Called inside a move's transaction just before COMMIT (the kill test's hook).
        self._before_commit: Callable[[], None] | None = None
        with self._write() as c:
            if self._db.postgres:  # two kernels creating the tables at once
                c.execute("SELECT pg_advisory_xact_lock(4242)")
            for stmt in SCHEMA + CLASS_SCHEMA:
                c.execute(stmt.format(real=self._db.real))

    @property
    def kind(self) -> str:
        """'sqlite' or 'postgresql'."""
        return "postgresql" if self._db.postgres else "sqlite"

    # ----- connections and transactions ------------------------------------------------------
    def _connection(self) -> Any:
        if self._conn is None:
            try:
                self._conn = self._db.connect()
            except self._db.errors() as e:
                raise self._unavailable(e) from e
        return self._conn

    def _unavailable(self, e: BaseException) -> StoreUnavailable:
        text = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        if "locked" in text or "busy" in text:
            return StoreUnavailable("busy", error=text)
        return StoreUnavailable("unavailable", error=text)

    def _drop_connection(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            try:
                conn.close()
            except Exception:  # noqa: BLE001 - a broken connection may fail to close
                pass

    @contextmanager
    def _cursor(self, write: bool) -> Iterator[_Cursor]:
        with self._lock:
            conn = self._connection()
            begun = False
            try:
                conn.execute(self._db.begin_write if write else "BEGIN")
                begun = True
                yield _Cursor(conn, self._db)
                conn.execute("COMMIT")
            except BaseException as e:
                if begun:
                    try:
                        conn.execute("ROLLBACK")
                    except Exception:  # noqa: BLE001 - the connection is dropped below
                        self._drop_connection()
                if isinstance(e, self._db.errors()) and not isinstance(e, self._db.integrity()):
                    self._drop_connection()
                    raise self._unavailable(e) from e
                raise

    def _write(self) -> Any:
        return self._cursor(write=True)

    def _read(self) -> Any:
        return self._cursor(write=False)

    def close(self) -> None:
        """Close the store's connections (a later call opens them again)."""
        with self._lock:
            self._drop_connection()
            if self._listener is not None:
                listener, self._listener = self._listener, None
                try:
                    listener.close()
                except Exception:  # noqa: BLE001
                    pass

    # ----- helpers -----------------------------------------------------------------------------
    def _room_row(self, c: _Cursor, code: str, lock: bool = False) -> dict[str, Any]:
        row = c.one("SELECT code, game, settings, state, version, status, turn, seats, "
                    "host_hash, fill_bot, created, updated FROM icg_rooms WHERE code = ?"
                    + (self._db.lock_row if lock else ""), (code,))
        if row is None:
            raise RoomNotFound("no-room", room=format_code(code))
        keys = ("code", "game", "settings", "state", "version", "status", "turn", "seats",
                "host_hash", "fill_bot", "created", "updated")
        return dict(zip(keys, row, strict=True))

    def _seat_rows(self, c: _Cursor, code: str) -> list[dict[str, Any]]:
        rows = c.all("SELECT seat, name, name_key, secret_hash, bot, away, last_seen "
                     "FROM icg_seats WHERE code = ? ORDER BY seat", (code,))
        keys = ("seat", "name", "name_key", "secret_hash", "bot", "away", "last_seen")
        return [dict(zip(keys, r, strict=True)) for r in rows]

    def _bump(self, c: _Cursor, code: str, version: int, now: float, **columns: Any) -> int:
        """Write the room's next version (and columns) if it is still `version`."""
        sets = "".join(f", {k} = ?" for k in columns)
        n = c.run(f"UPDATE icg_rooms SET version = version + 1, updated = ?{sets} "
                  "WHERE code = ? AND version = ?", (now, *columns.values(), code, version))
        if n != 1:
            raise TableChanged("moved-first")
        if self._db.postgres:
            self._notify(c, code, version + 1)
        return version + 1

    def _is_host(self, room: dict[str, Any], secret: object) -> bool:
        return secret_matches(room["host_hash"], room["code"], "host", secret)

    def _require_host(self, room: dict[str, Any], secret: object) -> None:
        if not self._is_host(room, secret):
            raise NotAllowed("host-only")

    def _load_state(self, room: dict[str, Any]) -> Any:
        kind = GAMES.get(room["game"])
        if kind is None:
            raise DamagedRoom("damaged", room=format_code(room["code"]), error="unknown game")
        try:
            return kind.load(json.loads(room["state"]))
        except (ConfigError, ValueError, TypeError, KeyError) as e:
            raise DamagedRoom("damaged", room=format_code(room["code"]), error=str(e)) from e

    @staticmethod
    def _code(code: object) -> str:
        try:
            return parse_code(code)
        except CodeError as e:
            raise RoomNotFound("bad-code") from e

    # ----- making and joining rooms ----------------------------------------------------------
    def create_room(
        self,
        state: Any,
        *,
        settings: dict[str, Any] | None = None,
        bots: dict[int, dict[str, Any]] | None = None,
        fill_bot: dict[str, Any] | None = None,
        client: str | None = None,
    ) -> HostTicket:
        """A new room holding `state` (a HitMeGame, HitMeRound or FlapjackState, one seat per
        player). `bots` gives some seats to computer players now; `fill_bot` is the computer
        player that takes the seats still empty when the host starts, and the seats of
        students who are away too long. The host's secret is returned once and kept hashed.
        `client`: the computer asking (its page's address); one computer may have
        MAX_OPEN_ROOMS_PER_CLIENT rooms open and make MAX_NEW_ROOMS_PER_CLIENT_HOUR an hour.
        Old rooms are expired here too, every EXPIRE_EVERY seconds, class view open or not."""
        game = game_kind(state)
        seats = state.round.players if game == "hit-me" else state.players
        if not 2 <= seats <= MAX_SEATS:
            raise ConfigError(f"a room has 2 to {MAX_SEATS} seats; got {seats}")
        settings_text = _json_text(settings or {}, "settings")
        fill_text = None if fill_bot is None else _json_text(fill_bot, "fill_bot")
        bots = dict(bots or {})
        for seat, spec in bots.items():
            if not (type(seat) is int and 0 <= seat < seats):
                raise ConfigError(f"bots: no seat {seat!r} in a room of {seats}")
            _json_text(spec, "bot")
        state_text = json.dumps(state.to_json(), separators=(",", ":"))
        GAMES[game].load(json.loads(state_text))  # what is stored must load back
        turn = GAMES[game].current(state)
        now = time.time()
        self._expire_now_and_then(now)
        if client:
            self._owner_table()
        for _ in range(20):
            code, secret = new_code(), new_secret()
            try:
                with self._write() as c:
                    if client:
                        self._check_rooms_of(c, client, now)
                        c.run("INSERT INTO icg_room_owners (code, client, created) "
                              "VALUES (?, ?, ?)", (code, client[:64], now))
                    c.run("INSERT INTO icg_rooms (code, game, settings, state, version, status, "
                          "turn, seats, host_hash, fill_bot, created, updated) "
                          "VALUES (?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?)",
                          (code, game, settings_text, state_text, WAITING, turn, seats,
                           hash_secret(code, "host", secret), fill_text, now, now))
                    for s in range(seats):
                        spec = bots.get(s)
                        c.run("INSERT INTO icg_seats (code, seat, bot) VALUES (?, ?, ?)",
                              (code, s, None if spec is None else json.dumps(spec)))
                    self._start_if_full(c, code, now)
                    self._notify(c, code, 1)  # the class view sees the new room at once
                return HostTicket(code, secret)
            except self._db.integrity():
                continue  # the code was taken: draw another
        raise RoomError("no-free-code")

    def join(self, code: object, name: object) -> SeatTicket:
        """Take the first free seat of a room that has not started, under `name`. The seat's
        secret is returned once (the page keeps it to come back to this seat)."""
        code = self._code(code)
        try:
            shown, key = clean_name(name)
        except CodeError as e:
            raise NotAllowed(e.code, most=MAX_NAME, name=e.name) from e
        secret = new_secret()
        now = time.time()
        try:
            with self._write() as c:
                room = self._room_row(c, code, lock=True)
                if room["status"] != WAITING:
                    raise NotAllowed("started")
                seats = self._seat_rows(c, code)
                if any(s["name_key"] == key for s in seats):
                    raise NameTaken("name-taken", name=shown)
                free = [s["seat"] for s in seats if s["name"] is None and s["bot"] is None]
                if not free:
                    raise RoomFull("room-full")
                seat = free[0]
                c.run("UPDATE icg_seats SET name = ?, name_key = ?, secret_hash = ?, "
                      "last_seen = ?, away = 0 WHERE code = ? AND seat = ?",
                      (shown, key, hash_secret(code, seat, secret), now, code, seat))
                self._bump(c, code, room["version"], now)
                self._start_if_full(c, code, now)
        except self._db.integrity() as e:  # the same name joined at the same moment
            raise NameTaken("name-taken", name=shown) from e
        return SeatTicket(code, seat, shown, secret)

    def _start_if_full(self, c: _Cursor, code: str, now: float) -> None:
        seats = self._seat_rows(c, code)
        if all(s["name"] is not None or s["bot"] is not None for s in seats):
            c.run("UPDATE icg_rooms SET status = ? WHERE code = ? AND status = ?",
                  (PLAYING, code, WAITING))

    def start(self, code: object, host_secret: object) -> int:
        """The host starts the room: empty seats go to the room's computer player (refused when
        it has none). Returns the new version."""
        return self._transition(code, "start", PLAYING, (WAITING,), by=host_secret)

    def rejoin(self, code: object, seat: object, secret: object) -> int:
        """A student back at their seat (reload, new device): the secret is checked, the seat is
        theirs again if a computer player had taken it over. Returns the room's version."""
        code, now = self._code(code), time.time()
        with self._write() as c:
            room = self._room_row(c, code, lock=True)
            row = self._check_seat(c, room, seat, secret)
            if row["away"]:
                c.run("UPDATE icg_seats SET away = 0, last_seen = ? WHERE code = ? AND seat = ?",
                      (now, code, seat))
                return self._bump(c, code, room["version"], now)
            c.run("UPDATE icg_seats SET last_seen = ? WHERE code = ? AND seat = ?",
                  (now, code, seat))
            return room["version"]

    def _check_seat(self, c: _Cursor, room: dict[str, Any], seat: object,
                    secret: object) -> dict[str, Any]:
        rows = self._seat_rows(c, room["code"])
        if not (type(seat) is int and 0 <= seat < len(rows)) or not secret_matches(
                rows[seat]["secret_hash"], room["code"], seat, secret):
            raise NotAllowed("bad-link")
        return rows[seat]

    def touch(self, code: object, seat: object, secret: object) -> None:
        """Presence: the seat's page is open (call every few seconds, not on every poll)."""
        code, now = self._code(code), time.time()
        with self._write() as c:
            room = self._room_row(c, code)
            self._check_seat(c, room, seat, secret)
            c.run("UPDATE icg_seats SET last_seen = ? WHERE code = ? AND seat = ?",
                  (now, code, seat))

    def mark_absent(self, code: object, absent_after: float, now: float | None = None
                    ) -> list[int]:
        """Seats of students not seen for `absent_after` seconds go to the room's computer
        player (their own bot spec, else the room's); they come back with `rejoin`. Any kernel
        may call this: it follows the rule only. Returns the seats marked."""
        code = self._code(code)
        now = time.time() if now is None else now
        with self._write() as c:
            room = self._room_row(c, code, lock=True)
            if room["status"] not in (PLAYING, PAUSED):
                return []
            marked = [s for s in self._seat_rows(c, code)
                      if s["name"] is not None and not s["away"]
                      and (s["last_seen"] or 0) < now - absent_after]
            if not marked:
                return []
            for s in marked:
                self._hand_to_bot(c, room, s)
            self._bump(c, code, room["version"], time.time())
            return [s["seat"] for s in marked]

    def replace_seat(self, code: object, host_secret: object, seat: object) -> int:
        """The host gives a student's seat to a computer player at once (the student can take
        it back with `rejoin`). Returns the new version."""
        code = self._code(code)
        with self._write() as c:
            room = self._room_row(c, code, lock=True)
            self._require_host(room, host_secret)
            rows = self._seat_rows(c, code)
            if not (type(seat) is int and 0 <= seat < len(rows)) or rows[seat]["name"] is None:
                raise NotAllowed("no-student", seat=seat if type(seat) is int else None)
            self._hand_to_bot(c, room, rows[seat])
            return self._bump(c, code, room["version"], time.time())

    def _hand_to_bot(self, c: _Cursor, room: dict[str, Any], seat: dict[str, Any]) -> None:
        bot = seat["bot"] or room["fill_bot"] or json.dumps({"bot": "computer"})
        c.run("UPDATE icg_seats SET away = 1, bot = ? WHERE code = ? AND seat = ?",
              (bot, room["code"], seat["seat"]))

    def _transition(self, code: object, action: str, status: str,
                    allowed_from: tuple[str, ...], *, by: object,
                    now: float | None = None) -> int:
        """The one transaction that starts, pauses, resumes or closes a room, by its host
        (`by` is the host secret the page sent, checked here) or by the class view (`by` is
        _TEACHER: the teacher's key was checked before; logged in the class log). Starting
        gives the empty seats to the room's computer player (refused when it has none).
        Returns the new version."""
        code, now = self._code(code), time.time() if now is None else now
        teacher = by is _TEACHER
        room_shown = format_code(code) if teacher else None  # None: the host's own table
        with self._write() as c:
            room = self._room_row(c, code, lock=True)
            if not teacher:
                self._require_host(room, by)
            if room["status"] not in allowed_from:
                raise NotAllowed("already-started", room=room_shown) if action == "start" else \
                    NotAllowed("cannot-change", room=room_shown, status=room["status"],
                               action=action)
            if action == "start":
                empty = [s["seat"] for s in self._seat_rows(c, code)
                         if s["name"] is None and s["bot"] is None]
                if empty and room["fill_bot"] is None:
                    raise NotAllowed("empty-seats", room=room_shown, count=len(empty))
                for seat in empty:
                    c.run("UPDATE icg_seats SET bot = ? WHERE code = ? AND seat = ?",
                          (room["fill_bot"], code, seat))
            if teacher:
                return self._class_change(c, room, action, None, now, status=status)
            return self._bump(c, code, room["version"], now, status=status)

    def pause(self, code: object, host_secret: object) -> int:
        return self._transition(code, "pause", PAUSED, (PLAYING,), by=host_secret)

    def resume(self, code: object, host_secret: object) -> int:
        return self._transition(code, "resume", PLAYING, (PAUSED,), by=host_secret)

    def close_room(self, code: object, host_secret: object) -> int:
        """The host ends the room (it expires with the finished rooms)."""
        return self._transition(code, "close", CLOSED, (WAITING, PLAYING, PAUSED, FINISHED),
                                by=host_secret)

    # ----- moves -----------------------------------------------------------------------------
    def move(
        self,
        code: object,
        seat: object,
        secret: object,
        change: Callable[[Any, int], Any],
        *,
        action: dict[str, Any] | None = None,
        expected_version: int | None = None,
    ) -> int:
        """Make one move in one transaction and return the new version.

        `change(state, seat)` gets the engine state loaded from the store (strictly) and
        returns the new state (or changes it in place and returns None); an
        IllegalActionError from it refuses the move. `secret` is the seat's own, or for a seat
        played by the computer the host's or any seated student's (the kernel running the
        computer player). `expected_version` is the version the page showed: if another move
        came first, `TableChanged`. `action` (JSON) goes to the move log.
        """
        code, now = self._code(code), time.time()
        action_text = _json_text(action if action is not None else CHANGE, "action")
        with self._write() as c:
            room = self._room_row(c, code)
            if expected_version is not None and room["version"] != expected_version:
                raise TableChanged("table-changed")
            if room["status"] != PLAYING:
                raise NotPlaying("not-playing", status=room["status"])
            self._check_mover(c, room, seat, secret)
            kind = GAMES[room["game"]]
            state = self._load_state(room)
            try:
                new = change(state, seat)
            except IllegalActionError as e:
                current = kind.current(state)
                if current is not None and current != seat:
                    raise NotYourTurn("not-your-turn", why=e.why.to_json()) from e
                raise IllegalMove("illegal-move", why=e.why.to_json()) from e
            new = state if new is None else new
            if game_kind(new) != room["game"]:
                raise IllegalMove("other-game")
            state_text = json.dumps(new.to_json(), separators=(",", ":"))
            status = FINISHED if kind.over(new) else PLAYING
            version = self._bump(c, code, room["version"], now, state=state_text,
                                 turn=kind.current(new), status=status)
            c.run("INSERT INTO icg_moves (code, version, seat, action, at) VALUES (?, ?, ?, ?, ?)",
                  (code, version, seat, action_text, now))
            if self._before_commit is not None:
                self._before_commit()
            return version

    def play(self, code: object, seat: object, secret: object, action: Any, *,
             expected_version: int | None = None) -> int:
        """One engine move (Hit(), Hold(), ChooseAce(...), Play(...)) by `seat`."""
        return self.move(code, seat, secret, apply_move(action), action=action_to_json(action),
                         expected_version=expected_version)

    def _check_mover(self, c: _Cursor, room: dict[str, Any], seat: object,
                     secret: object) -> None:
        rows = self._seat_rows(c, room["code"])
        if not (type(seat) is int and 0 <= seat < len(rows)):
            raise NotAllowed("no-seat", seat=seat if type(seat) is int else None)
        row = rows[seat]
        computer = row["bot"] is not None and (row["name"] is None or row["away"])
        if computer:
            if self._is_host(room, secret) or any(
                    r["name"] is not None and not r["away"]
                    and secret_matches(r["secret_hash"], room["code"], r["seat"], secret)
                    for r in rows):
                return
        elif secret_matches(row["secret_hash"], room["code"], seat, secret):
            return
        raise NotAllowed("not-this-seat")

    # ----- reading -----------------------------------------------------------------------------
    def current_version(self, code: object) -> int:
        """The room's version: one read of the primary key (cheap enough to poll)."""
        code = self._code(code)
        with self._lock:
            conn = self._connection()
            try:
                row = conn.execute(self._db.sql("SELECT version FROM icg_rooms WHERE code = ?"),
                                   (code,)).fetchone()
            except self._db.errors() as e:
                self._drop_connection()
                raise self._unavailable(e) from e
        if row is None:
            raise RoomNotFound("no-room", room=format_code(code))
        return int(row[0])

    def load(self, code: object) -> tuple[int, Any]:
        """The version and the whole engine state (for the kernel only: never send it to a
        page; a page gets its seat's observation)."""
        code = self._code(code)
        with self._read() as c:
            room = self._room_row(c, code)
        return room["version"], self._load_state(room)

    def room(self, code: object) -> RoomInfo:
        """The room's public facts: status, whose turn, seats (names, who plays them)."""
        code = self._code(code)
        with self._read() as c:
            room = self._room_row(c, code)
            rows = self._seat_rows(c, code)
        return _room_info(room, rows)

    def rooms(self) -> list[RoomInfo]:
        """Every room in the store (for the teacher's class view), oldest first."""
        with self._read() as c:
            codes = [r[0] for r in c.all("SELECT code FROM icg_rooms ORDER BY created", ())]
            out = []
            for code in codes:
                out.append(_room_info(self._room_row(c, code), self._seat_rows(c, code)))
        return out

    def move_count(self, code: object) -> int:
        code = self._code(code)
        with self._read() as c:
            return int(c.one("SELECT COUNT(*) FROM icg_moves WHERE code = ?", (code,))[0])

    def moves(self, code: object) -> list[tuple[int, int, dict[str, Any]]]:
        """The move log: (version, seat, action JSON) in order; the action as the engine writes
        it (`{"kind": ...}`, widgets.rooms.games.log_entry: older entries too)."""
        code = self._code(code)
        with self._read() as c:
            rows = c.all("SELECT version, seat, action FROM icg_moves WHERE code = ? "
                         "ORDER BY version", (code,))
        return [(int(v), int(s), log_entry(json.loads(a))) for v, s, a in rows]

    # ----- change notification ---------------------------------------------------------------
    def subscribe(self, code: object | None, callback: Callable[[], None]) -> Any:
        """PostgreSQL: call `callback()` on the running asyncio loop whenever room `code` (None:
        any room) changes, through the kernel's one LISTEN thread (widgets/rooms/listen.py).
        Returns a Subscription (`connected`, `close()`), or None on SQLite or without a running
        loop (then the caller polls)."""
        from widgets.rooms import listen

        loop = listen.running_loop()
        if not self._db.postgres or loop is None:
            return None
        room = None if code is None else self._code(code)
        db = self._db
        return listen.listener_for(self.url, db.connect, NOTIFY_CHANNEL, db.errors()) \
            .subscribe(room, callback, loop)

    def _notify(self, c: _Cursor, code: str, version: int) -> None:
        if self._db.postgres:  # delivered at COMMIT, to every kernel that listens
            c.run("SELECT pg_notify(?, ?)", (NOTIFY_CHANNEL, f"{code}:{version}"))

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

    # ----- expiry ----------------------------------------------------------------------------
    def expire(self, finished_after: float = 6 * 3600, abandoned_after: float = 24 * 3600,
               now: float | None = None, waiting_after: float = 2 * 3600) -> list[str]:
        """Delete rooms finished or closed more than `finished_after` seconds ago, rooms still
        waiting for players `waiting_after` seconds after their last change, and rooms with no
        change for `abandoned_after` seconds. Returns their codes."""
        now = time.time() if now is None else now
        with self._write() as c:
            rows = c.all("SELECT code FROM icg_rooms WHERE (status IN (?, ?) AND updated < ?) "
                         "OR (status = ? AND updated < ?) OR updated < ?",
                         (FINISHED, CLOSED, now - finished_after, WAITING,
                          now - waiting_after, now - abandoned_after))
            codes = [r[0] for r in rows]
            for code in codes:
                for table in ("icg_class_log", "icg_moves", "icg_seats", "icg_rooms"):
                    c.run(f"DELETE FROM {table} WHERE code = ?", (code,))
                self._notify(c, code, 0)
        return codes

    # ----- rooms per computer, and expiry without a class view ------------------------------
    MAX_OPEN_ROOMS_PER_CLIENT = 3
    MAX_NEW_ROOMS_PER_CLIENT_HOUR = 12
    EXPIRE_EVERY = 600.0
    OWNER_SCHEMA = """CREATE TABLE IF NOT EXISTS icg_room_owners (
        code TEXT PRIMARY KEY,
        client TEXT NOT NULL,
        created {real} NOT NULL)"""

    def _owner_table(self) -> None:
        if getattr(self, "_owners_ready", False):
            return
        with self._write() as c:
            if self._db.postgres:
                c.execute("SELECT pg_advisory_xact_lock(4244)")
            c.execute(self.OWNER_SCHEMA.format(real=self._db.real))
        self._owners_ready = True

    def _check_rooms_of(self, c: _Cursor, client: str, now: float) -> None:
        from widgets.words import _

        c.run("DELETE FROM icg_room_owners WHERE created < ? AND code NOT IN "
              "(SELECT code FROM icg_rooms)", (now - 3600,))
        open_rooms = c.one("SELECT COUNT(*) FROM icg_room_owners o JOIN icg_rooms r "
                           "ON r.code = o.code WHERE o.client = ? AND r.status IN (?, ?, ?)",
                           (client[:64], WAITING, PLAYING, PAUSED))[0]
        if open_rooms >= self.MAX_OPEN_ROOMS_PER_CLIENT:
            raise NotAllowed(_("This computer already has {n} tables open: finish or close "
                               "one before opening another.").format(n=open_rooms))
        recent = c.one("SELECT COUNT(*) FROM icg_room_owners WHERE client = ? AND created > ?",
                       (client[:64], now - 3600))[0]
        if recent >= self.MAX_NEW_ROOMS_PER_CLIENT_HOUR:
            raise NotAllowed(_("This computer opened {n} tables in the last hour: join a "
                               "table, or wait before opening another.").format(n=recent))

    def _expire_now_and_then(self, now: float) -> None:
        last = getattr(self, "_expired_at", None)
        if last is not None and now - last < self.EXPIRE_EVERY:
            return
        self._expired_at = now
        try:
            self.expire(now=now)
        except RoomError:  # busy: the next room made tries again
            self._expired_at = None

    # =============================================================================================
    # ----- students' side (rooms-seat): seat PINs and announce-check results ------------------
    # Two tables of their own, made on first use (IF NOT EXISTS): icg_seat_pins and icg_checks.
    # Rows of rooms that no longer exist are deleted when a store first makes them.
    # =============================================================================================
    EXTRA_SCHEMA = (
        """CREATE TABLE IF NOT EXISTS icg_seat_pins (
            code TEXT NOT NULL,
            seat INTEGER NOT NULL,
            pin_hash TEXT NOT NULL,
            fails INTEGER NOT NULL DEFAULT 0,
            locked_until {real} NOT NULL DEFAULT 0,
            PRIMARY KEY (code, seat))""",
        """CREATE TABLE IF NOT EXISTS icg_checks (
            code TEXT NOT NULL,
            seat INTEGER NOT NULL,
            round INTEGER NOT NULL,
            name TEXT NOT NULL,
            first_try INTEGER NOT NULL,
            misses INTEGER NOT NULL,
            mistake TEXT,
            at {real} NOT NULL,
            PRIMARY KEY (code, seat, round))""",
    )
    PIN_DIGITS = 6
    PIN_FREE_FAILS = 3  # wrong PINs before the seat's PIN waits (then 2, 4, 8 ... 600 s)
    MISTAKES = ("sum", "abs", "shown")

    def _extra_tables(self) -> None:
        if getattr(self, "_extra_ready", False):
            return
        with self._write() as c:
            if self._db.postgres:
                c.execute("SELECT pg_advisory_xact_lock(4243)")
            for stmt in self.EXTRA_SCHEMA:
                c.execute(stmt.format(real=self._db.real))
            for table in ("icg_seat_pins", "icg_checks"):
                c.run(f"DELETE FROM {table} WHERE code NOT IN (SELECT code FROM icg_rooms)")
        self._extra_ready = True

    def new_pin(self, code: object, seat: object, secret: object) -> str:
        """A fresh 6-digit PIN for the seat (the old one stops working), for the student to
        write down: `rejoin_pin(code, name, pin)` gives the seat back on another page. Only
        the seat's own secret may ask. The store keeps a hash of it."""
        import secrets as _secrets

        code = self._code(code)
        self._extra_tables()
        pin = "".join(_secrets.choice("0123456789") for _ in range(self.PIN_DIGITS))
        with self._write() as c:
            room = self._room_row(c, code)
            self._check_seat(c, room, seat, secret)
            c.run("DELETE FROM icg_seat_pins WHERE code = ? AND seat = ?", (code, seat))
            c.run("INSERT INTO icg_seat_pins (code, seat, pin_hash) VALUES (?, ?, ?)",
                  (code, seat, hash_secret(code, f"pin{seat}", pin)))
        return pin

    def first_pin(self, code: object, seat: object, secret: object) -> str | None:
        """The seat's PIN if it has none yet, made now for the student to write down; None
        when it has one: a seat's PIN stays the same (a page reopened, a seat link, a PIN
        rejoin on another device) until the student asks for a new one (`new_pin`). Only the
        seat's own secret may ask."""
        import secrets as _secrets

        code = self._code(code)
        self._extra_tables()
        pin = "".join(_secrets.choice("0123456789") for _ in range(self.PIN_DIGITS))
        with self._write() as c:
            room = self._room_row(c, code, lock=True)  # (two pages of a seat: one PIN)
            self._check_seat(c, room, seat, secret)
            if c.one("SELECT 1 FROM icg_seat_pins WHERE code = ? AND seat = ?",
                     (code, seat)) is not None:
                return None
            c.run("INSERT INTO icg_seat_pins (code, seat, pin_hash) VALUES (?, ?, ?)",
                  (code, seat, hash_secret(code, f"pin{seat}", pin)))
        return pin

    def rejoin_pin(self, code: object, name: object, pin: object,
                   now: float | None = None) -> SeatTicket:
        """Back to one's seat from another page with the room code, one's name and the seat
        PIN. The seat gets a new secret (the old link stops working) and comes back from the
        computer player if it had it. Wrong PINs for a seat are counted in the store (for
        every kernel): after 3, each try waits 2, 4, 8 ... up to 600 seconds."""
        code = self._code(code)
        self._extra_tables()
        now = time.time() if now is None else now
        try:
            _, key = clean_name(name)
        except CodeError as e:
            raise NotAllowed(e.code, most=MAX_NAME, name=e.name) from e
        wrong = NotAllowed("wrong-pin")
        secret = new_secret()
        with self._write() as c:
            room = self._room_row(c, code, lock=True)
            rows = [s for s in self._seat_rows(c, code) if s["name_key"] == key]
            if not rows:
                raise wrong
            seat = rows[0]
            pin_row = c.one("SELECT pin_hash, fails, locked_until FROM icg_seat_pins "
                            "WHERE code = ? AND seat = ?", (code, seat["seat"]))
            if pin_row is None:
                raise wrong
            pin_hash, fails, locked_until = pin_row
            if locked_until > now:
                raise NotAllowed("pin-wait", seconds=int(locked_until - now) + 1)
            if not (isinstance(pin, str) and pin.strip().isdigit() and secret_matches(
                    pin_hash, code, f"pin{seat['seat']}", pin.strip())):
                fails += 1
                wait = 0.0 if fails < self.PIN_FREE_FAILS else min(
                    600.0, 2.0 ** (fails - self.PIN_FREE_FAILS + 1))
                # kept even though the transaction is refused below: commit it first
                c.run("UPDATE icg_seat_pins SET fails = ?, locked_until = ? "
                      "WHERE code = ? AND seat = ?", (fails, now + wait, code, seat["seat"]))
                failed = True
            else:
                failed = False
                c.run("UPDATE icg_seat_pins SET fails = 0, locked_until = 0 "
                      "WHERE code = ? AND seat = ?", (code, seat["seat"]))
                c.run("UPDATE icg_seats SET secret_hash = ?, away = 0, last_seen = ? "
                      "WHERE code = ? AND seat = ?",
                      (hash_secret(code, seat["seat"], secret), now, code, seat["seat"]))
                self._bump(c, code, room["version"], time.time())
        if failed:
            raise wrong
        return SeatTicket(code, seat["seat"], seat["name"], secret)

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


    # ===== class management: the teacher's class view =========================================
    # Everything below serves the teacher's class view (widgets/rooms/classview.py). These
    # methods take no host secret: the teacher acts on every room of the class, and the class
    # view is built only after the teacher's key was typed (widgets/teacher_key.teacher_only),
    # so the check is there, at the widget level. A student's page never runs them (Voila runs
    # no code a page sends). Each action is one transaction that bumps the room's version (every
    # page redraws) and writes a row of `icg_class_log` (a table of its own; the tables above are
    # left as they are).

    def class_rooms(self, stuck_after: float = 120.0, now: float | None = None
                    ) -> list[ClassRoom]:
        """Every room (oldest first) with what the class view shows: players, whose turn,
        public scores, version, move count, last move, and whether it is stuck (playing, and no
        move for `stuck_after` seconds since the last move, start or resume). One read
        transaction; each room's state is loaded (strictly) only when its version changed."""
        now = time.time() if now is None else now
        with self._read() as c:
            rooms = [dict(zip(_ROOM_KEYS, r, strict=True)) for r in c.all(
                f"SELECT {', '.join(_ROOM_KEYS)} FROM icg_rooms ORDER BY created, code", ())]
            seats: dict[str, list[dict[str, Any]]] = {}
            for r in c.all("SELECT code, seat, name, name_key, secret_hash, bot, away, last_seen "
                           "FROM icg_seats ORDER BY code, seat", ()):
                seats.setdefault(r[0], []).append(dict(zip(
                    ("seat", "name", "name_key", "secret_hash", "bot", "away", "last_seen"),
                    r[1:], strict=True)))
            moves = {r[0]: (int(r[1]), r[2]) for r in c.all(
                "SELECT code, COUNT(*), MAX(at) FROM icg_moves GROUP BY code", ())}
            went_on = {r[0]: r[1] for r in c.all(
                "SELECT code, MAX(at) FROM icg_class_log WHERE action IN (?, ?) GROUP BY code",
                ("start", "resume"))}
        cache = self.__dict__.setdefault("_class_cache", {})
        out = []
        for room in rooms:
            code = room["code"]
            rows = seats.get(code, [])
            info = _room_info(room, rows)
            key = (code, room["version"])
            if key not in cache:
                try:
                    cache[key] = _public_facts(self._load_state(room))
                except DamagedRoom:
                    cache[key] = _PublicFacts("damaged", None, "", False)
            facts = cache[key]
            count, last_move = moves.get(code, (0, None))
            since = max(x for x in (last_move, went_on.get(code), 0.0) if x is not None)
            if not since:
                since = room["updated"]
            idle = max(0.0, now - since)
            turn_name = None
            if room["turn"] is not None and 0 <= room["turn"] < len(rows):
                turn_name = rows[room["turn"]]["name"] or f"seat {room['turn'] + 1}"
            out.append(ClassRoom(
                info=info, shown=format_code(code), turn_name=turn_name, phase=facts.phase,
                scores=facts.scores, score_kind=facts.score_kind, can_reveal=facts.can_reveal,
                moves=count, last_move=last_move, idle=idle,
                stuck=room["status"] == PLAYING and idle >= stuck_after))
        live = {(r["code"], r["version"]) for r in rooms}
        for key in [k for k in cache if k not in live]:
            del cache[key]
        return out

    def class_stamp(self) -> tuple[Any, ...]:
        """Changes whenever any room changes (a version, a room made or deleted): the class
        view polls this (one small read) and redraws only when it changed."""
        with self._lock:
            conn = self._connection()
            try:
                row = conn.execute("SELECT COUNT(*), SUM(version), MAX(updated) "
                                   "FROM icg_rooms").fetchone()
            except self._db.errors() as e:
                self._drop_connection()
                raise self._unavailable(e) from e
        return tuple(row)

    def class_start(self, code: object, now: float | None = None) -> int:
        """Start a waiting room; its empty seats go to its computer player (refused when it has
        none). Returns the new version."""
        return self._transition(code, "start", PLAYING, (WAITING,), by=_TEACHER, now=now)

    def class_pause(self, code: object, now: float | None = None) -> int:
        """Pause a playing room: every move is refused with "paused" until it is resumed."""
        return self._transition(code, "pause", PAUSED, (PLAYING,), by=_TEACHER, now=now)

    def class_resume(self, code: object, now: float | None = None) -> int:
        return self._transition(code, "resume", PLAYING, (PAUSED,), by=_TEACHER, now=now)

    def class_close(self, code: object, now: float | None = None) -> int:
        """Close a room (any status but closed): no more moves; it expires with the finished
        rooms."""
        return self._transition(code, "close", CLOSED, (WAITING, PLAYING, PAUSED, FINISHED),
                                by=_TEACHER, now=now)

    def class_replace(self, code: object, seat: object, now: float | None = None) -> int:
        """Give a student's seat to the room's computer player at once (an absent student);
        the student takes it back with their seat link (`rejoin`)."""
        code, now = self._code(code), time.time() if now is None else now
        with self._write() as c:
            room = self._room_row(c, code, lock=True)
            if room["status"] in (FINISHED, CLOSED):
                raise NotAllowed("room-status", room=format_code(code), status=room["status"])
            rows = self._seat_rows(c, code)
            if not (type(seat) is int and 0 <= seat < len(rows)) or rows[seat]["name"] is None:
                raise NotAllowed("no-student", room=format_code(code),
                                 seat=seat if type(seat) is int else None)
            if rows[seat]["away"]:
                raise NotAllowed("computer-already", name=rows[seat]["name"])
            self._hand_to_bot(c, room, rows[seat])
            return self._class_change(c, room, "replace", seat, now)

    def class_reveal(self, code: object, now: float | None = None) -> int:
        """Turn every face-down card up at the end of a Hit Me round (every player is done:
        the announce step). Logged in the move log as seat -1 (the teacher). Flapjack shows
        every hand by itself when the game ends."""
        code, now = self._code(code), time.time() if now is None else now
        with self._write() as c:
            room = self._room_row(c, code, lock=True)
            if room["status"] in (CLOSED,):
                raise NotAllowed("room-status", room=format_code(code), status=CLOSED)
            state = self._load_state(room)
            if room["game"] == "flapjack":
                raise NotAllowed("flapjack-shows-hands")
            rnd = state.round if room["game"] == "hit-me" else state
            if rnd.revealed:
                raise NotAllowed("face-up", room=format_code(code))
            if not rnd.over:
                raise NotAllowed("not-all-done", room=format_code(code))
            if room["game"] == "hit-me":
                state.finish_round()  # cards up and the round in the score table
            else:
                rnd.apply_action(Reveal())
            state_text = json.dumps(state.to_json(), separators=(",", ":"))
            version = self._class_change(c, room, "reveal", None, now, state=state_text)
            c.run("INSERT INTO icg_moves (code, version, seat, action, at) VALUES (?, ?, ?, ?, ?)",
                  (code, version, TEACHER_SEAT, _json_text(Reveal().to_json(), "action"), now))
            return version

    def _class_change(self, c: _Cursor, room: dict[str, Any], action: str, seat: int | None,
                      now: float, **columns: Any) -> int:
        version = self._bump(c, room["code"], room["version"], now, **columns)
        c.run("INSERT INTO icg_class_log (code, at, action, seat, version) VALUES (?, ?, ?, ?, ?)",
              (room["code"], now, action, seat, version))
        return version

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

    def class_log(self, code: object) -> list[tuple[float, str, int | None, int]]:
        """The teacher's actions on a room: (time, action, seat or None, version), in order."""
        code = self._code(code)
        with self._read() as c:
            rows = c.all("SELECT at, action, seat, version FROM icg_class_log WHERE code = ? "
                         "ORDER BY version", (code,))
        return [(float(a), str(b), None if s is None else int(s), int(v)) for a, b, s, v in rows]


class _Cursor:
    """Runs the store's SQL on one connection inside a transaction."""

    def __init__(self, conn: Any, db: _Database) -> None:
        self.conn, self.db = conn, db

    def run(self, sql: str, params: tuple[Any, ...] = ()) -> int:
        return self.conn.execute(self.db.sql(sql), params).rowcount

    def execute(self, sql: str) -> None:
        self.conn.execute(sql)

    def one(self, sql: str, params: tuple[Any, ...]) -> Any:
        return self.conn.execute(self.db.sql(sql), params).fetchone()

    def all(self, sql: str, params: tuple[Any, ...]) -> list[Any]:
        return list(self.conn.execute(self.db.sql(sql), params).fetchall())


def _json_text(value: Any, what: str) -> str:
    try:
        text = json.dumps(value, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as e:
        raise ConfigError(f"{what} must be JSON data: {e}") from e
    if len(text) > MAX_SETTINGS:
        raise ConfigError(f"{what} is too long ({len(text)} characters; at most {MAX_SETTINGS})")
    return text


def _room_info(room: dict[str, Any], rows: list[dict[str, Any]]) -> RoomInfo:
    seats = []
    for r in rows:
        computer = r["bot"] is not None and (r["name"] is None or bool(r["away"]))
        controller = "computer" if computer else "human" if r["name"] is not None else "empty"
        seats.append(SeatInfo(r["seat"], r["name"], controller, bool(r["away"]), r["last_seen"],
                              None if r["bot"] is None else json.loads(r["bot"])))
    return RoomInfo(room["code"], room["game"], room["status"], room["version"], room["turn"],
                    json.loads(room["settings"]), tuple(seats), room["created"], room["updated"])


# ===== class management: tables and what the class view reads ==================================
CLASS_SCHEMA = [
    """CREATE TABLE IF NOT EXISTS icg_class_log (
        code TEXT NOT NULL,
        version INTEGER NOT NULL,
        at {real} NOT NULL,
        action TEXT NOT NULL,
        seat INTEGER,
        PRIMARY KEY (code, version))""",
]
# Written by the seats' sessions (`record_check`, branch rooms-seat): code, seat, round, name,
# first_try, misses, mistake ('sum', 'abs' or 'shown'), at; one row per seat and round.
CHECKS_TABLE = "icg_checks"
TEACHER_SEAT = -1  # the move log's seat for the teacher's reveal
_ROOM_KEYS = ("code", "game", "settings", "state", "version", "status", "turn", "seats",
              "host_hash", "fill_bot", "created", "updated")
# `by` of the class view's room changes (RoomStore._transition): the teacher's key was checked
# before the call. A private object, so that no value a page sends (None included) can be it.
_TEACHER = object()


@dataclass(frozen=True)
class ClassRoom:
    """One room as the teacher's class view shows it: only what every player may see."""

    info: RoomInfo
    shown: str  # the room code as read aloud, KM7-Q4X
    turn_name: str | None
    phase: str  # 'play', 'announce' (Hit Me: everyone done, cards still down), 'revealed', 'over'
    scores: tuple[int, ...] | None
    score_kind: str  # 'rounds won', 'distance from zero', 'cards won' or ''
    can_reveal: bool
    moves: int
    last_move: float | None
    idle: float  # seconds since the last move (or start, or resume)
    stuck: bool


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


@dataclass(frozen=True)
class _PublicFacts:
    phase: str
    scores: tuple[int, ...] | None
    score_kind: str
    can_reveal: bool


def _public_facts(state: Any) -> _PublicFacts:
    """Phase and scores from the public part of a state only (never a face-down card): Hit Me
    rounds won, a round's distances once its cards are up, Flapjack cards won."""
    if isinstance(state, FlapjackState):
        return _PublicFacts("over" if state.over else "play",
                            tuple(len(t) for t in state.tricks), "cards won", False)
    if isinstance(state, HitMeGame):
        rnd = state.round
        wins = list(state.wins)
        if rnd.revealed and not state._recorded:  # noqa: SLF001 - read only
            res = rnd.result()  # this round's win, before the next deal records it
            if not res.tie:
                wins[res.winners[0]] += 1
        return _PublicFacts(rnd.phase, tuple(wins), "rounds won", rnd.over and not rnd.revealed)
    rnd = state
    res = rnd.result() if rnd.revealed else None
    return _PublicFacts(rnd.phase, None if res is None else tuple(res.scores),
                        "distance from zero" if res is not None else "",
                        rnd.over and not rnd.revealed)
