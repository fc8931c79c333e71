"""Networked play: rooms shared by every student's kernel (no ipywidgets here).

`widgets.rooms.store` keeps rooms (one engine state each, its seats and move log) in SQLite or
PostgreSQL; `widgets.rooms.codes` makes and checks room codes, seat secrets and names;
`widgets.rooms.games` reads the kinds of room from the engine's registry (engine/games.py)
and reads the move log back (the engine's action JSON).
See docs/rooms.md.
"""

from __future__ import annotations

from widgets.rooms.store import (
    DamagedRoom,
    HostTicket,
    IllegalMove,
    MoveRefused,
    NameTaken,
    NotAllowed,
    NotPlaying,
    NotYourTurn,
    RoomError,
    RoomFull,
    RoomInfo,
    RoomNotFound,
    RoomStore,
    SeatInfo,
    SeatTicket,
    StoreUnavailable,
    TableChanged,
    open_store,
    store_url,
)

__all__ = [
    "DamagedRoom", "HostTicket", "IllegalMove", "MoveRefused", "NameTaken", "NotAllowed",
    "NotPlaying", "NotYourTurn", "RoomError", "RoomFull", "RoomInfo", "RoomNotFound",
    "RoomStore", "SeatInfo", "SeatTicket", "StoreUnavailable", "TableChanged", "open_store",
    "store_url",
]
