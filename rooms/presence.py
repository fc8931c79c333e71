"""Who is at the table: a student back at their seat, a page that says it is open, seats of
students away too long (or replaced by the host) handed to the room's computer player."""

from __future__ import annotations

import json
import time
from typing import Any

from rooms.database import Cursor
from rooms.errors import NotAllowed
from rooms.records import PAUSED, PLAYING
from rooms.transactions import StoreBase


class Presence(StoreBase):
    """Rejoining, presence and handing seats to the computer player."""

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

    def _hand_to_bot(self, c: Cursor, room: dict[str, Any], seat: dict[str, Any]) -> None:
        bot = seat["bot"] or room["fill_bot"] or json.dumps({"bot": "computer"})
        c.run("UPDATE icg_seats SET away = 1, bot = ? WHERE code = ? AND seat = ?",
              (bot, room["code"], seat["seat"]))

