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
from widgets.rooms.codes import (
    CodeError,
    clean_name,
    format_code,
    hash_secret,
    new_code,
    new_secret,
    parse_code,
    secret_matches,
)
from widgets.rooms.games import GAMES, action_to_json, apply_move, game_kind

URL_ENV = "ICG_ROOMS_URL"
DEFAULT_PATH = Path(__file__).resolve().parent.parent.parent / ".rooms.sqlite3"
MAX_SETTINGS = 10_000  # characters of settings JSON
MAX_SEATS = 8
NOTIFY_CHANNEL = "icg_rooms"

WAITING, PLAYING, PAUSED, FINISHED, CLOSED = "waiting", "playing", "paused", "finished", "closed"


# ----- errors: each carries a sentence the page can show -------------------------------------
class RoomError(Exception):
    """Anything the room store refuses; `str(error)` is a sentence for the page."""


class StoreUnavailable(RoomError):
    """The store cannot be reached or stays locked; nothing was changed. Try again later."""


class RoomNotFound(RoomError):
    """No room has this code (never made, closed and expired, or mistyped)."""


class NotAllowed(RoomError):
    """A secret that does not hold this seat (or the host's key), or a room not open to this."""


class NameTaken(RoomError):
    """Another player at this table already has the name."""


class RoomFull(RoomError):
    """Every seat of the room is taken."""


class MoveRefused(RoomError):
    """A move that was not made; the room is exactly as it was."""


class TableChanged(MoveRefused):
    """The table changed since the page was drawn (someone else moved first)."""


class NotYourTurn(MoveRefused):
    """The engine refused the move because another player is to act."""


class IllegalMove(MoveRefused):
    """The engine refused the move for another reason (its message says which)."""


class NotPlaying(MoveRefused):
    """The room has not started, is paused, or is over."""


class DamagedRoom(RoomError):
    """The saved game in the store was refused by the engine's strict loader."""


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
        # isolation_level=None: no implicit transactions; every change runs in our own
        # BEGIN IMMEDIATE ... COMMIT (the write lock is taken at BEGIN, not half-way).
        conn = sqlite3.connect(self.path, timeout=self.busy_timeout, isolation_level=None,
                               check_same_thread=False)
        conn.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout * 1000)}")
        mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if mode.lower() != "wal":
            conn.close()
            raise StoreUnavailable(f"the room store {self.path} cannot use WAL mode ({mode})")
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
            for stmt in SCHEMA:
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
            return StoreUnavailable(f"The room store is busy ({text}); nothing was changed. "
                                    "Try again in a moment.")
        return StoreUnavailable(f"The room store cannot be reached ({text}); nothing was "
                                "changed. The game goes on when it is back.")

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
            raise RoomNotFound(f"There is no room {format_code(code)}: check the code "
                               "(it may have closed).")
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
            raise TableChanged("The table changed while your move was made (someone else "
                               "moved first); look again and choose your move.")
        if self._db.postgres:
            c.run("SELECT pg_notify(?, ?)", (NOTIFY_CHANNEL, f"{code}:{version + 1}"))
        return version + 1

    def _is_host(self, room: dict[str, Any], secret: object) -> bool:
        return secret_matches(room["host_hash"], room["code"], "host", secret)

    def _require_host(self, room: dict[str, Any], secret: object) -> None:
        if not self._is_host(room, secret):
            raise NotAllowed("Only the room's host can do this (the host's key was not given).")

    def _load_state(self, room: dict[str, Any]) -> Any:
        kind = GAMES.get(room["game"])
        if kind is None:
            raise DamagedRoom(f"Room {format_code(room['code'])} holds an unknown game.")
        try:
            return kind.load(json.loads(room["state"]))
        except (ConfigError, ValueError, TypeError, KeyError) as e:
            raise DamagedRoom(f"Room {format_code(room['code'])}: the stored game was refused "
                              f"({e}); it cannot be played.") from e

    @staticmethod
    def _code(code: object) -> str:
        try:
            return parse_code(code)
        except CodeError as e:
            raise RoomNotFound(str(e)) from e

    # ----- making and joining rooms ----------------------------------------------------------
    def create_room(
        self,
        state: Any,
        *,
        settings: dict[str, Any] | None = None,
        bots: dict[int, dict[str, Any]] | None = None,
        fill_bot: dict[str, Any] | None = None,
    ) -> HostTicket:
        """A new room holding `state` (a HitMeGame, HitMeRound or FlapjackState, one seat per
        player). `bots` gives some seats to computer players now; `fill_bot` is the computer
        player that takes the seats still empty when the host starts, and the seats of
        students who are away too long. The host's secret is returned once and kept hashed."""
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
        for _ in range(20):
            code, secret = new_code(), new_secret()
            try:
                with self._write() as c:
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
                return HostTicket(code, secret)
            except self._db.integrity():
                continue  # the code was taken: draw another
        raise RoomError("No free room code was found; try again.")

    def join(self, code: object, name: object) -> SeatTicket:
        """Take the first free seat of a room that has not started, under `name`. The seat's
        secret is returned once (the page keeps it to come back to this seat)."""
        code = self._code(code)
        try:
            shown, key = clean_name(name)
        except CodeError as e:
            raise NotAllowed(str(e)) from e
        secret = new_secret()
        now = time.time()
        try:
            with self._write() as c:
                room = self._room_row(c, code, lock=True)
                if room["status"] != WAITING:
                    raise NotAllowed("This table has already started: ask the host, or come "
                                     "back to your own seat with your seat link.")
                seats = self._seat_rows(c, code)
                if any(s["name_key"] == key for s in seats):
                    raise NameTaken(f"The name {shown} is taken at this table. If it is you, "
                                    "come back with your seat link; otherwise add a letter.")
                free = [s["seat"] for s in seats if s["name"] is None and s["bot"] is None]
                if not free:
                    raise RoomFull("Every seat at this table is taken.")
                seat = free[0]
                c.run("UPDATE icg_seats SET name = ?, name_key = ?, secret_hash = ?, "
                      "last_seen = ?, away = 0 WHERE code = ? AND seat = ?",
                      (shown, key, hash_secret(code, seat, secret), now, code, seat))
                self._bump(c, code, room["version"], now)
                self._start_if_full(c, code, now)
        except self._db.integrity() as e:  # the same name joined at the same moment
            raise NameTaken(f"The name {shown} is taken at this table.") from e
        return SeatTicket(code, seat, shown, secret)

    def _start_if_full(self, c: _Cursor, code: str, now: float) -> None:
        seats = self._seat_rows(c, code)
        if all(s["name"] is not None or s["bot"] is not None for s in seats):
            c.run("UPDATE icg_rooms SET status = ? WHERE code = ? AND status = ?",
                  (PLAYING, code, WAITING))

    def start(self, code: object, host_secret: object) -> int:
        """The host starts the room: empty seats go to the room's computer player (refused when
        it has none). Returns the new version."""
        code, now = self._code(code), time.time()
        with self._write() as c:
            room = self._room_row(c, code, lock=True)
            self._require_host(room, host_secret)
            if room["status"] != WAITING:
                raise NotAllowed("This table has already started.")
            empty = [s["seat"] for s in self._seat_rows(c, code)
                     if s["name"] is None and s["bot"] is None]
            if empty and room["fill_bot"] is None:
                raise NotAllowed(f"{len(empty)} seat(s) are empty and this room has no computer "
                                 "players: wait for more students or make a new room.")
            for s in empty:
                c.run("UPDATE icg_seats SET bot = ? WHERE code = ? AND seat = ?",
                      (room["fill_bot"], code, s))
            return self._bump(c, code, room["version"], now, status=PLAYING)

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
            raise NotAllowed("This seat link is not valid for this table.")
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
                raise NotAllowed(f"Seat {seat!r} has no student to replace.")
            self._hand_to_bot(c, room, rows[seat])
            return self._bump(c, code, room["version"], time.time())

    def _hand_to_bot(self, c: _Cursor, room: dict[str, Any], seat: dict[str, Any]) -> None:
        bot = seat["bot"] or room["fill_bot"] or json.dumps({"bot": "computer"})
        c.run("UPDATE icg_seats SET away = 1, bot = ? WHERE code = ? AND seat = ?",
              (bot, room["code"], seat["seat"]))

    def _set_status(self, code: object, host_secret: object, status: str,
                    allowed_from: tuple[str, ...]) -> int:
        code = self._code(code)
        with self._write() as c:
            room = self._room_row(c, code, lock=True)
            self._require_host(room, host_secret)
            if room["status"] not in allowed_from:
                raise NotAllowed(f"This table is {room['status']}.")
            return self._bump(c, code, room["version"], time.time(), status=status)

    def pause(self, code: object, host_secret: object) -> int:
        return self._set_status(code, host_secret, PAUSED, (PLAYING,))

    def resume(self, code: object, host_secret: object) -> int:
        return self._set_status(code, host_secret, PLAYING, (PAUSED,))

    def close_room(self, code: object, host_secret: object) -> int:
        """The host ends the room (it expires with the finished rooms)."""
        return self._set_status(code, host_secret, CLOSED, (WAITING, PLAYING, PAUSED, FINISHED))

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
        action_text = _json_text(action if action is not None else {"move": "change"}, "action")
        with self._write() as c:
            room = self._room_row(c, code)
            if expected_version is not None and room["version"] != expected_version:
                raise TableChanged("The table changed since you looked (someone else moved "
                                   "first); look again and choose your move.")
            if room["status"] != PLAYING:
                raise NotPlaying({WAITING: "The game has not started yet.",
                                  PAUSED: "The host has paused this table.",
                                  FINISHED: "This game is over.",
                                  CLOSED: "This table is closed."}[room["status"]])
            self._check_mover(c, room, seat, secret)
            kind = GAMES[room["game"]]
            state = self._load_state(room)
            try:
                new = change(state, seat)
            except IllegalActionError as e:
                current = kind.current(state)
                if current is not None and current != seat:
                    raise NotYourTurn(f"It is not your turn ({e}).") from e
                raise IllegalMove(f"That move is not allowed: {e}.") from e
            new = state if new is None else new
            if game_kind(new) != room["game"]:
                raise IllegalMove("That change would put another game in the room.")
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
            raise NotAllowed(f"There is no seat {seat!r} at this table.")
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
        raise NotAllowed("This seat link is not valid for this seat (or a computer player has "
                         "the seat: come back to it first).")

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
            raise RoomNotFound(f"There is no room {format_code(code)}.")
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
        """The move log: (version, seat, action JSON) in order."""
        code = self._code(code)
        with self._read() as c:
            rows = c.all("SELECT version, seat, action FROM icg_moves WHERE code = ? "
                         "ORDER BY version", (code,))
        return [(int(v), int(s), json.loads(a)) for v, s, a in rows]

    # ----- change notification ---------------------------------------------------------------
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
               now: float | None = None) -> list[str]:
        """Delete rooms finished or closed more than `finished_after` seconds ago, and rooms
        with no change for `abandoned_after` seconds. Returns their codes."""
        now = time.time() if now is None else now
        with self._write() as c:
            rows = c.all("SELECT code FROM icg_rooms WHERE (status IN (?, ?) AND updated < ?) "
                         "OR updated < ?",
                         (FINISHED, CLOSED, now - finished_after, now - abandoned_after))
            codes = [r[0] for r in rows]
            for code in codes:
                for table in ("icg_moves", "icg_seats", "icg_rooms"):
                    c.run(f"DELETE FROM {table} WHERE code = ?", (code,))
        return codes


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
