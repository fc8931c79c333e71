"""A room's life: made (at most so many per computer), joined, started, paused, resumed,
closed, and deleted when old."""

from __future__ import annotations

import json
import time
from typing import Any

from engine.errors import ConfigError
from rooms.codes import (
    MAX_NAME,
    CodeError,
    clean_name,
    format_code,
    hash_secret,
    new_code,
    new_secret,
)
from rooms.database import Cursor, json_text
from rooms.errors import NameTaken, NotAllowed, RoomError, RoomFull
from rooms.games import GAMES, deal_in_play, game_kind
from rooms.records import (
    CLOSED,
    FINISHED,
    MAX_SEATS,
    PAUSED,
    PLAYING,
    WAITING,
    HostTicket,
    SeatTicket,
)
from rooms.transactions import StoreBase

# `by` of the class view's room changes (`RoomLifecycle._transition`): the teacher's key was
# checked before the call. A private object, so that no value a page sends (None included) can
# be it.
TEACHER = object()


class RoomLifecycle(StoreBase):
    """Making, joining, starting, pausing, resuming, closing and expiring rooms."""

    MAX_OPEN_ROOMS_PER_CLIENT = 3
    MAX_NEW_ROOMS_PER_CLIENT_HOUR = 12
    EXPIRE_EVERY = 600.0

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
        seats = deal_in_play(state).players
        if not 2 <= seats <= MAX_SEATS:
            raise ConfigError(f"a room has 2 to {MAX_SEATS} seats; got {seats}")
        settings_text = json_text(settings or {}, "settings")
        fill_text = None if fill_bot is None else json_text(fill_bot, "fill_bot")
        bots = dict(bots or {})
        for seat, spec in bots.items():
            if not (type(seat) is int and 0 <= seat < seats):
                raise ConfigError(f"bots: no seat {seat!r} in a room of {seats}")
            json_text(spec, "bot")
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

    def _start_if_full(self, c: Cursor, code: str, now: float) -> None:
        seats = self._seat_rows(c, code)
        if all(s["name"] is not None or s["bot"] is not None for s in seats):
            c.run("UPDATE icg_rooms SET status = ? WHERE code = ? AND status = ?",
                  (PLAYING, code, WAITING))

    def start(self, code: object, host_secret: object) -> int:
        """The host starts the room: empty seats go to the room's computer player (refused when
        it has none). Returns the new version."""
        return self._transition(code, "start", PLAYING, (WAITING,), by=host_secret)

    def _transition(self, code: object, action: str, status: str,
                    allowed_from: tuple[str, ...], *, by: object,
                    now: float | None = None) -> int:
        """The one transaction that starts, pauses, resumes or closes a room, by its host
        (`by` is the host secret the page sent, checked here) or by the class view (`by` is
        TEACHER: the teacher's key was checked before; logged in the class log). Starting
        gives the empty seats to the room's computer player (refused when it has none).
        Returns the new version."""
        code, now = self._code(code), time.time() if now is None else now
        teacher = by is TEACHER
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

    def _class_change(self, c: Cursor, room: dict[str, Any], action: str, seat: int | None,
                      now: float, **columns: Any) -> int:
        """The next version, written with a row of the class log (the teacher's change)."""
        version = self._bump(c, room["code"], room["version"], now, **columns)
        c.run("INSERT INTO icg_class_log (code, at, action, seat, version) VALUES (?, ?, ?, ?, ?)",
              (room["code"], now, action, seat, version))
        return version

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
    def _check_rooms_of(self, c: Cursor, client: str, now: float) -> None:
        c.run("DELETE FROM icg_room_owners WHERE created < ? AND code NOT IN "
              "(SELECT code FROM icg_rooms)", (now - 3600,))
        open_rooms = c.one("SELECT COUNT(*) FROM icg_room_owners o JOIN icg_rooms r "
                           "ON r.code = o.code WHERE o.client = ? AND r.status IN (?, ?, ?)",
                           (client[:64], WAITING, PLAYING, PAUSED))[0]
        if open_rooms >= self.MAX_OPEN_ROOMS_PER_CLIENT:
            raise NotAllowed("open-tables", count=int(open_rooms))
        recent = c.one("SELECT COUNT(*) FROM icg_room_owners WHERE client = ? AND created > ?",
                       (client[:64], now - 3600))[0]
        if recent >= self.MAX_NEW_ROOMS_PER_CLIENT_HOUR:
            raise NotAllowed("tables-this-hour", count=int(recent))

    def _expire_now_and_then(self, now: float) -> None:
        last = getattr(self, "_expired_at", None)
        if last is not None and now - last < self.EXPIRE_EVERY:
            return
        self._expired_at = now
        try:
            self.expire(now=now)
        except RoomError:  # busy: the next room made tries again
            self._expired_at = None

