"""Class administration: what the teacher's class view reads of every room (only what every
player may see) and the teacher's changes to a room (start, pause, resume, close, a seat to
the computer player, the cards turned up), each written to the class log."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from engine.flapjack import FlapjackState
from engine.hit_me import HitMeGame, Reveal
from rooms.codes import format_code
from rooms.database import json_text
from rooms.errors import DamagedRoom, NotAllowed
from rooms.lifecycle import TEACHER, RoomLifecycle
from rooms.presence import Presence
from rooms.records import CLOSED, FINISHED, PAUSED, PLAYING, WAITING, RoomInfo, room_info

TEACHER_SEAT = -1  # the move log's seat for the teacher's reveal
_ROOM_KEYS = ("code", "game", "settings", "state", "version", "status", "turn", "seats",
              "host_hash", "fill_bot", "created", "updated")


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


class ClassAdmin(RoomLifecycle, Presence):
    """The teacher's class view's reads and changes."""

    # Everything here serves the teacher's class view (widgets/together/class_view.py). These
    # methods take no host secret: the teacher acts on every room of the class, and the class
    # view is built only after the teacher's key was typed (widgets.page.teacher_key.teacher_only),
    # so the check is there, at the widget level. A student's page never runs them (Voila runs
    # no code a page sends). Each action is one transaction that bumps the room's version (every
    # page redraws) and writes a row of `icg_class_log` (a table of its own).

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
            info = room_info(room, rows)
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
        return self._transition(code, "start", PLAYING, (WAITING,), by=TEACHER, now=now)

    def class_pause(self, code: object, now: float | None = None) -> int:
        """Pause a playing room: every move is refused with "paused" until it is resumed."""
        return self._transition(code, "pause", PAUSED, (PLAYING,), by=TEACHER, now=now)

    def class_resume(self, code: object, now: float | None = None) -> int:
        return self._transition(code, "resume", PLAYING, (PAUSED,), by=TEACHER, now=now)

    def class_close(self, code: object, now: float | None = None) -> int:
        """Close a room (any status but closed): no more moves; it expires with the finished
        rooms."""
        return self._transition(code, "close", CLOSED, (WAITING, PLAYING, PAUSED, FINISHED),
                                by=TEACHER, now=now)

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
            if not rnd.players_done:
                raise NotAllowed("not-all-done", room=format_code(code))
            if room["game"] == "hit-me":
                state.finish_round()  # cards up and the round in the score table
            else:
                rnd.apply_action(Reveal())
            state_text = json.dumps(state.to_json(), separators=(",", ":"))
            version = self._class_change(c, room, "reveal", None, now, state=state_text)
            c.run("INSERT INTO icg_moves (code, version, seat, action, at) VALUES (?, ?, ?, ?, ?)",
                  (code, version, TEACHER_SEAT, json_text(Reveal().to_json(), "action"), now))
            return version


    def class_log(self, code: object) -> list[tuple[float, str, int | None, int]]:
        """The teacher's actions on a room: (time, action, seat or None, version), in order."""
        code = self._code(code)
        with self._read() as c:
            rows = c.all("SELECT at, action, seat, version FROM icg_class_log WHERE code = ? "
                         "ORDER BY version", (code,))
        return [(float(a), str(b), None if s is None else int(s), int(v)) for a, b, s, v in rows]


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
        return _PublicFacts("over" if state.is_over else "play",
                            tuple(len(t) for t in state.tricks), "cards won", False)
    if isinstance(state, HitMeGame):
        rnd = state.round
        wins = list(state.wins)
        if rnd.revealed and not state._recorded:  # noqa: SLF001 - read only
            res = rnd.result()  # this round's win, before the next deal records it
            if not res.tie:
                wins[res.winners[0]] += 1
        return _PublicFacts(str(rnd.phase), tuple(wins), "rounds won", rnd.phase == "announce")
    rnd = state
    res = rnd.result() if rnd.revealed else None
    return _PublicFacts(str(rnd.phase), None if res is None else tuple(res.scores),
                        "distance from zero" if res is not None else "",
                        rnd.phase == "announce")
