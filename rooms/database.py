"""The two databases behind the room store (SQLite by default, PostgreSQL), one small
interface and the same SQL for both; the tables the store keeps; JSON columns checked."""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from engine.errors import ConfigError
from rooms.errors import StoreUnavailable

URL_ENV = "ICG_ROOMS_URL"
DEFAULT_PATH = Path(__file__).resolve().parent.parent / ".rooms.sqlite3"
MAX_SETTINGS = 10_000  # characters of settings JSON
NOTIFY_CHANNEL = "icg_rooms"


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

CLASS_SCHEMA = [
    """CREATE TABLE IF NOT EXISTS icg_class_log (
        code TEXT NOT NULL,
        version INTEGER NOT NULL,
        at {real} NOT NULL,
        action TEXT NOT NULL,
        seat INTEGER,
        PRIMARY KEY (code, version))""",
]
# Rooms per computer: which computer (its page's address) made each room.
OWNER_SCHEMA = """CREATE TABLE IF NOT EXISTS icg_room_owners (
    code TEXT PRIMARY KEY,
    client TEXT NOT NULL,
    created {real} NOT NULL)"""
# The students' side, made on first use: seat PINs and announce-check results (one row per
# seat and round: code, seat, round, name, first_try, misses, mistake ('sum', 'abs' or
# 'shown'), at).
CHECKS_TABLE = "icg_checks"
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


class Database:
    """One connection to SQLite or PostgreSQL, the same SQL for both (`?` placeholders)."""

    postgres = False

    def connect(self) -> Any:
        raise NotImplementedError

    def sql(self, text: str) -> str:
        return text

    begin_write = "BEGIN IMMEDIATE"
    lock_row = ""


class SQLite(Database):
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


class Postgres(Database):
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


def make_database(url: str, busy_timeout: float) -> Database:
    if url.startswith(("postgresql://", "postgres://")):
        return Postgres(url, busy_timeout)
    if url.startswith("sqlite:///"):
        return SQLite(Path(url[len("sqlite:///"):]), busy_timeout)
    if "://" not in url:
        return SQLite(Path(url), busy_timeout)
    raise ConfigError(f"{URL_ENV} must be sqlite:///<file> or postgresql://...; got {url!r}")


class Cursor:
    """Runs the store's SQL on one connection inside a transaction."""

    def __init__(self, conn: Any, db: Database) -> None:
        self.conn, self.db = conn, db

    def run(self, sql: str, params: tuple[Any, ...] = ()) -> int:
        return self.conn.execute(self.db.sql(sql), params).rowcount

    def execute(self, sql: str) -> None:
        self.conn.execute(sql)

    def one(self, sql: str, params: tuple[Any, ...]) -> Any:
        return self.conn.execute(self.db.sql(sql), params).fetchone()

    def all(self, sql: str, params: tuple[Any, ...]) -> list[Any]:
        return list(self.conn.execute(self.db.sql(sql), params).fetchall())


class Transactions:
    """One connection to the store's database, shared by a kernel's threads under one lock, and
    its transactions: `_write()` / `_read()` yield a Cursor between BEGIN (BEGIN IMMEDIATE on
    SQLite for a write: its lock taken at the start) and COMMIT. A database error rolls back,
    drops the connection (the next call opens it again) and is raised as StoreUnavailable."""

    def __init__(self, url: str, *, busy_timeout: float = 5.0) -> None:
        self.url = url
        self._db = make_database(url, busy_timeout)
        self._lock = threading.RLock()
        self._conn: Any = None

    @property
    def kind(self) -> str:
        """'sqlite' or 'postgresql'."""
        return "postgresql" if self._db.postgres else "sqlite"

    def _add_column(self, c: Cursor, table: str, column: str, decl: str) -> None:
        """`table` made by an older version gets `column` (`decl`: its type and default)."""
        sql = f"ALTER TABLE {table} ADD COLUMN {{}}{column} {decl}"
        if self._db.postgres:
            c.execute(sql.format("IF NOT EXISTS "))
        elif not any(r[1] == column for r in c.all(f"PRAGMA table_info({table})", ())):
            c.execute(sql.format(""))

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
    def _cursor(self, write: bool) -> Iterator[Cursor]:
        with self._lock:
            conn = self._connection()
            begun = False
            try:
                conn.execute(self._db.begin_write if write else "BEGIN")
                begun = True
                yield Cursor(conn, self._db)
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


def json_text(value: Any, what: str) -> str:
    try:
        text = json.dumps(value, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as e:
        raise ConfigError(f"{what} must be JSON data: {e}") from e
    if len(text) > MAX_SETTINGS:
        raise ConfigError(f"{what} is too long ({len(text)} characters; at most {MAX_SETTINGS})")
    return text


