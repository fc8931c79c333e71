"""The room store's base: one connection to its database, transactions, the reads every part
of the store shares (a room's row, its seats, a checked seat, the next version), and the
tables made on first use."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from engine.errors import ConfigError
from rooms.codes import CodeError, format_code, parse_code, secret_matches
from rooms.database import (
    CLASS_SCHEMA,
    EXTRA_SCHEMA,
    NOTIFY_CHANNEL,
    OWNER_SCHEMA,
    SCHEMA,
    Cursor,
    Transactions,
)
from rooms.errors import DamagedRoom, NotAllowed, RoomNotFound, TableChanged
from rooms.games import GAMES


class StoreBase(Transactions):
    """What every part of the room store stands on (see rooms.store.RoomStore)."""

    def __init__(self, url: str, *, busy_timeout: float = 5.0) -> None:
        super().__init__(url, busy_timeout=busy_timeout)
        self._listener: Any = None
        # Called inside a move's transaction just before COMMIT (the kill test's hook).
        self._before_commit: Callable[[], None] | None = None
        with self._write() as c:
            if self._db.postgres:  # two kernels creating the tables at once
                c.execute("SELECT pg_advisory_xact_lock(4242)")
            for stmt in SCHEMA + CLASS_SCHEMA:
                c.execute(stmt.format(real=self._db.real))

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
    def _room_row(self, c: Cursor, code: str, lock: bool = False) -> dict[str, Any]:
        row = c.one("SELECT code, game, settings, state, version, status, turn, seats, "
                    "host_hash, fill_bot, created, updated FROM icg_rooms WHERE code = ?"
                    + (self._db.lock_row if lock else ""), (code,))
        if row is None:
            raise RoomNotFound("no-room", room=format_code(code))
        keys = ("code", "game", "settings", "state", "version", "status", "turn", "seats",
                "host_hash", "fill_bot", "created", "updated")
        return dict(zip(keys, row, strict=True))

    def _seat_rows(self, c: Cursor, code: str) -> list[dict[str, Any]]:
        rows = c.all("SELECT seat, name, name_key, secret_hash, bot, away, last_seen "
                     "FROM icg_seats WHERE code = ? ORDER BY seat", (code,))
        keys = ("seat", "name", "name_key", "secret_hash", "bot", "away", "last_seen")
        return [dict(zip(keys, r, strict=True)) for r in rows]

    def _bump(self, c: Cursor, code: str, version: int, now: float, **columns: Any) -> int:
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

    def _check_seat(self, c: Cursor, room: dict[str, Any], seat: object,
                    secret: object) -> dict[str, Any]:
        rows = self._seat_rows(c, room["code"])
        if not (type(seat) is int and 0 <= seat < len(rows)) or not secret_matches(
                rows[seat]["secret_hash"], room["code"], seat, secret):
            raise NotAllowed("bad-link")
        return rows[seat]

    def _notify(self, c: Cursor, code: str, version: int) -> None:
        if self._db.postgres:  # delivered at COMMIT, to every kernel that listens
            c.run("SELECT pg_notify(?, ?)", (NOTIFY_CHANNEL, f"{code}:{version}"))

    # ----- tables made on first use ------------------------------------------------------------
    def _owner_table(self) -> None:
        if getattr(self, "_owners_ready", False):
            return
        with self._write() as c:
            if self._db.postgres:
                c.execute("SELECT pg_advisory_xact_lock(4244)")
            c.execute(OWNER_SCHEMA.format(real=self._db.real))
        self._owners_ready = True

    def _extra_tables(self) -> None:
        """The seat PINs' and announce checks' tables; rows of rooms that no longer exist are
        deleted when a store first makes them."""
        if getattr(self, "_extra_ready", False):
            return
        with self._write() as c:
            if self._db.postgres:
                c.execute("SELECT pg_advisory_xact_lock(4243)")
            for stmt in EXTRA_SCHEMA:
                c.execute(stmt.format(real=self._db.real))
            for table in ("icg_seat_pins", "icg_checks"):
                c.run(f"DELETE FROM {table} WHERE code NOT IN (SELECT code FROM icg_rooms)")
        self._extra_ready = True
