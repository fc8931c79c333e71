"""Networked play: rooms shared by every student's kernel (no ipywidgets, no sentences: a
refusal is a code and its numbers, made into words by widgets/words/).

`rooms.store.RoomStore` keeps rooms (one engine state each, its seats and move log) in SQLite
or PostgreSQL, its parts one idea each (lifecycle, presence, moves, reading, notify, pins,
checks, classroom, on rooms/transactions.py and rooms/database.py); `rooms.codes` makes and
checks room codes, seat secrets and names (`rooms.names`: names that pose as a seat);
`rooms.games` reads the kinds of room from the engine's registry (engine/games.py) and reads
the move log back (the engine's action JSON); `rooms.listen` is a kernel's one PostgreSQL
LISTEN thread. See docs/rooms.md.
"""

from __future__ import annotations

from rooms.checks import CheckSummary
from rooms.classroom import ClassRoom
from rooms.database import store_url
from rooms.errors import (
    DamagedRoom,
    IllegalMove,
    MoveRefused,
    NameTaken,
    NotAllowed,
    NotPlaying,
    NotYourTurn,
    RoomError,
    RoomFull,
    RoomNotFound,
    StoreUnavailable,
    TableChanged,
)
from rooms.records import (
    CLOSED,
    FINISHED,
    MAX_SEATS,
    PAUSED,
    PLAYING,
    WAITING,
    HostTicket,
    RoomInfo,
    SeatInfo,
    SeatTicket,
)
from rooms.store import RoomStore, open_store

__all__ = [
    "CLOSED", "FINISHED", "MAX_SEATS", "PAUSED", "PLAYING", "WAITING", "CheckSummary",
    "ClassRoom", "DamagedRoom", "HostTicket", "IllegalMove", "MoveRefused", "NameTaken",
    "NotAllowed", "NotPlaying", "NotYourTurn", "RoomError", "RoomFull", "RoomInfo",
    "RoomNotFound", "RoomStore", "SeatInfo", "SeatTicket", "StoreUnavailable", "TableChanged",
    "open_store", "store_url",
]
