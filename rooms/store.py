"""The room store: rooms shared by every student's kernel, on SQLite (default) or PostgreSQL.

A room is one engine state (saved with the engine's `to_json`, loaded back with its strict
`from_json`), its settings, a version number, its seats and a move log. Every change is one
transaction; a move is checked against the version the page showed and written with
``UPDATE ... WHERE version = ?``, so two clicks at once make exactly one move and one clear
refusal (`TableChanged` or `NotYourTurn`), never a lost or doubled move.

    store = open_store()                      # $ICG_ROOMS_URL, else .rooms.sqlite3
    host = store.create_room(HitMeGame(cfg, seed=...), fill_bot={"bot": "careful"})
    me = store.join(host.code, "Ana")        # SeatTicket(code, seat, secret)
    version, state = store.load(me.code)
    store.play(me.code, me.seat, me.secret, Hit(), expected_version=version)

Only the kernel holds the whole state: the store never builds what a page sees. It imports
no ipywidgets. Design, store choice and what is left: docs/rooms.md.
"""

from __future__ import annotations

from typing import Any

from rooms.checks import AnnounceChecks
from rooms.classroom import ClassAdmin
from rooms.database import store_url
from rooms.moves import Moves
from rooms.notify import Notifications
from rooms.pins import SeatPins
from rooms.reading import Reading


class RoomStore(ClassAdmin, Moves, Reading, Notifications, SeatPins, AnnounceChecks):
    """Rooms in one database, shared by every kernel that opens the same URL: the parts of the
    store, one idea each (rooms/transactions.py is the base they share):

    - rooms/lifecycle.py: making, joining, starting, pausing, closing and expiring rooms;
    - rooms/presence.py: a student back at their seat, presence, seats to the computer player;
    - rooms/moves.py: moves and the move log; rooms/reading.py: versions, states, public facts;
    - rooms/notify.py: waiting for a change (PostgreSQL NOTIFY, or polling);
    - rooms/pins.py: seat PINs; rooms/checks.py: announce checks;
    - rooms/classroom.py: the teacher's class view (its reads and changes).

    Thread-safe (one connection, one lock). Every method raises `StoreUnavailable` when the
    database cannot be reached or stays locked longer than `busy_timeout` seconds; the change
    asked for was then not made, and the same call can be tried again.
    """


def open_store(url: str | None = None, **kw: Any) -> RoomStore:
    """The room store at `url` (default: `store_url()`)."""
    return RoomStore(url or store_url(), **kw)
