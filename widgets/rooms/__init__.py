"""Networked play: rooms shared by every student's kernel (no ipywidgets here).

`widgets.rooms.store` keeps rooms (one engine state each, its seats and move log) in SQLite or
PostgreSQL; `widgets.rooms.codes` makes and checks room codes, seat secrets and names;
`widgets.rooms.games` says how each game's state is loaded and its moves logged.
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
