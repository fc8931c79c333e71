"""The room store's refusals: a code and its numbers, never a sentence.

Each class has a default code; `widgets.words.room_error_text(error)` makes the sentence in the
page's language.
"""

from __future__ import annotations

from typing import Any


class RoomError(Exception):
    """Anything the room store refuses: `code` says what (each class has a default; the codes
    are listed with their sentences in widgets.words.ROOM_ERRORS) and `data` its numbers and
    names (JSON-ready: a room code as shown, a seat number from 0, a name, seconds). `str()`
    is the code and data, for a developer's log; a page shows
    `widgets.words.room_error_text(error)`, in its own language."""

    code = "refused"

    def __init__(self, code: str | None = None, /, **data: Any) -> None:
        self.code = code if code is not None else type(self).code
        self.data = data
        super().__init__(self.code, data)

    def __str__(self) -> str:
        if not self.data:
            return self.code
        return f"{self.code}: " + ", ".join(f"{k}={v!r}" for k, v in self.data.items())


class StoreUnavailable(RoomError):
    """The store cannot be reached or stays locked; nothing was changed. Try again later."""

    code = "unavailable"


class RoomNotFound(RoomError):
    """No room has this code (never made, closed and expired, or mistyped)."""

    code = "no-room"


class NotAllowed(RoomError):
    """A secret that does not hold this seat (or the host's key), or a room not open to this."""

    code = "not-allowed"


class NameTaken(RoomError):
    """Another player at this table already has the name."""

    code = "name-taken"


class RoomFull(RoomError):
    """Every seat of the room is taken."""

    code = "room-full"


class MoveRefused(RoomError):
    """A move that was not made; the room is exactly as it was."""

    code = "move-refused"


class TableChanged(MoveRefused):
    """The table changed since the page was drawn (someone else moved first)."""

    code = "table-changed"


class NotYourTurn(MoveRefused):
    """The engine refused the move because another player is to act."""

    code = "not-your-turn"


class IllegalMove(MoveRefused):
    """The engine refused the move for another reason (its message says which)."""

    code = "illegal-move"


class NotPlaying(MoveRefused):
    """The room has not started, is paused, or is over."""

    code = "not-playing"


class DamagedRoom(RoomError):
    """The saved game in the store was refused by the engine's strict loader."""

    code = "damaged"

