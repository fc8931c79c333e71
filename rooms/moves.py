"""Moves: one engine move in one transaction, checked against the version the page showed
(``UPDATE ... WHERE version = ?``: two clicks at once make exactly one move and one clear
refusal), and the move log."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from engine.errors import IllegalActionError
from rooms.codes import secret_matches
from rooms.database import Cursor, json_text
from rooms.errors import IllegalMove, NotAllowed, NotPlaying, NotYourTurn, TableChanged
from rooms.games import CHANGE, GAMES, action_to_json, apply_move, game_kind, log_entry
from rooms.records import FINISHED, PLAYING
from rooms.transactions import StoreBase


class Moves(StoreBase):
    """Making a move, and reading the move log."""

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
        action_text = json_text(action if action is not None else CHANGE, "action")
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
            status = FINISHED if kind.finished(new) else PLAYING
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

    def _check_mover(self, c: Cursor, room: dict[str, Any], seat: object,
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

    def move_count(self, code: object) -> int:
        code = self._code(code)
        with self._read() as c:
            return int(c.one("SELECT COUNT(*) FROM icg_moves WHERE code = ?", (code,))[0])

    def moves(self, code: object) -> list[tuple[int, int, dict[str, Any]]]:
        """The move log: (version, seat, action JSON) in order; the action as the engine writes
        it (`{"kind": ...}`, rooms.games.log_entry: older entries too)."""
        code = self._code(code)
        with self._read() as c:
            rows = c.all("SELECT version, seat, action FROM icg_moves WHERE code = ? "
                         "ORDER BY version", (code,))
        return [(int(v), int(s), log_entry(json.loads(a))) for v, s, a in rows]

