"""What a room is to its callers: its statuses, the tickets a host and a student hold, and
its public facts (no secret, no hidden card)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from engine.games import TABLE_PLAYERS
from rooms.codes import format_code

MAX_SEATS = TABLE_PLAYERS
WAITING, PLAYING, PAUSED, FINISHED, CLOSED = "waiting", "playing", "paused", "finished", "closed"


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



def room_info(room: dict[str, Any], rows: list[dict[str, Any]]) -> RoomInfo:
    seats = []
    for r in rows:
        computer = r["bot"] is not None and (r["name"] is None or bool(r["away"]))
        controller = "computer" if computer else "human" if r["name"] is not None else "empty"
        seats.append(SeatInfo(r["seat"], r["name"], controller, bool(r["away"]), r["last_seen"],
                              None if r["bot"] is None else json.loads(r["bot"])))
    return RoomInfo(room["code"], room["game"], room["status"], room["version"], room["turn"],
                    json.loads(room["settings"]), tuple(seats), room["created"], room["updated"])


