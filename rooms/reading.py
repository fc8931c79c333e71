"""Reading a room: its version (cheap enough to poll), its whole state (for the kernel only),
its public facts."""

from __future__ import annotations

from typing import Any

from rooms.codes import format_code
from rooms.errors import RoomNotFound
from rooms.records import RoomInfo, room_info
from rooms.transactions import StoreBase


class Reading(StoreBase):
    """A room's version, state and public facts; every room's facts."""

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
        return room_info(room, rows)

    def rooms(self) -> list[RoomInfo]:
        """Every room in the store (for the teacher's class view), oldest first."""
        with self._read() as c:
            codes = [r[0] for r in c.all("SELECT code FROM icg_rooms ORDER BY created", ())]
            out = []
            for code in codes:
                out.append(room_info(self._room_row(c, code), self._seat_rows(c, code)))
        return out

