"""The room store's refusals (rooms.RoomError: a code and its data) as sentences."""

from __future__ import annotations

from typing import Any

from widgets.words.catalogues import N_, _, ngettext
from widgets.words.reasons import reason_text

# ----- the room store's refusals (rooms.RoomError: a code and its data) ----------------------
# Each code with its sentence; {room} is a room code as shown (KM7-Q4X), {n} a seat number as
# people count (from 1), {name} a player's name. Codes with two sentences: the second is for a
# room named by the class view (data "room"), the first for the student's own table.
ROOM_ERRORS: dict[str, str | tuple[str, str]] = {
    "refused": N_("That was refused."),
    "busy": N_("The room store is busy; nothing was changed. Try again in a moment."),
    "unavailable": N_("The room store cannot be reached; nothing was changed. The game goes "
                      "on when it is back."),
    "no-room": N_("There is no room {room}: check the code (it may have closed)."),
    "bad-code": N_("A room code is 6 characters: the digits 2 to 9 and the letters except I, "
                   "L, O and U (for example KM7-Q4X)."),
    "bad-name": N_("A name is 1 to {most} letters, digits, spaces or - ' ."),
    "poses-as-seat": N_("The name {name} reads like a computer player or an empty seat: "
                        "choose another name."),
    "moved-first": N_("The table changed while your move was made (someone else moved "
                      "first); look again and choose your move."),
    "table-changed": N_("The table changed before your move arrived (someone else moved "
                        "first). Look again and choose."),
    "host-only": N_("Only the student who opened this table can do this."),
    "damaged": N_("Room {room}: the saved game cannot be played (it was refused when "
                  "loaded)."),
    "no-free-code": N_("No free room code was found; try again."),
    "started": N_("This table has already started: ask the host, or come back to your own "
                  "seat with your seat link."),
    "name-taken": N_("The name {name} is taken at this table. If it is you, come back with "
                     "your seat link; otherwise add a letter."),
    "room-full": N_("Every seat at this table is taken."),
    "bad-link": N_("This seat link is not valid for this table."),
    "not-this-seat": N_("This seat link is not valid for this seat (or a computer player has "
                        "the seat: come back to it first)."),
    "no-seat": N_("There is no seat {n} at this table."),
    "no-student": (N_("Seat {n} has no student to replace."),
                   N_("Seat {n} of room {room} has no student to replace.")),
    "already-started": (N_("This table has already started."),
                        N_("Room {room} has already started.")),
    "other-game": N_("That change would put another game in the room."),
    "not-your-turn": N_("It is not your turn."),
    "illegal-move": N_("That move is not allowed: {reason}."),
    "wrong-pin": N_("That name and PIN do not hold a seat at this table."),
    "computer-already": N_("A computer player already plays for {name}."),
    "flapjack-shows-hands": N_("Flapjack shows every hand by itself when the game ends."),
    "face-up": N_("The cards of room {room} are already face up."),
    "not-all-done": N_("Room {room}: not every player is done yet; the cards turn up at the "
                       "end of the round."),
    "open-tables": N_("This computer already has {n} tables open: finish or close one before "
                      "opening another."),
    "tables-this-hour": N_("This computer opened {n} tables in the last hour: join a table, or "
                           "wait before opening another."),
}
# A room's status, as said in a sentence, and what a host's or teacher's change would make it.
ROOM_STATUS = {"waiting": N_("waiting"), "playing": N_("playing"), "paused": N_("paused"),
               "finished": N_("finished"), "closed": N_("closed")}
NOT_PLAYING = {"waiting": N_("The game has not started yet."),
               "paused": N_("The host has paused this table."),
               "finished": N_("This game is over."), "closed": N_("This table is closed."),
               "playing": N_("That was refused.")}
CANNOT_CHANGE = {
    "pause": (N_("This table is {status}: it cannot be paused."),
              N_("Room {room} is {status}: it cannot be paused.")),
    "resume": (N_("This table is {status}: it cannot be resumed."),
               N_("Room {room} is {status}: it cannot be resumed.")),
    "close": (N_("This table is {status}: it cannot be closed."),
              N_("Room {room} is {status}: it cannot be closed.")),
}


def room_error_text(error: Any) -> str:
    """A refusal of the room store (rooms.RoomError: `code` and `data`), or a
    malformed room code or name (rooms.codes.CodeError), as one sentence in the page's
    language. A developer's detail in the data (a driver's message) is never said."""
    from rooms.codes import MAX_NAME, CodeError

    if isinstance(error, CodeError):
        code = getattr(error, "code", "bad-code")
        d = {"most": MAX_NAME, "name": getattr(error, "name", "")}
    else:
        code, d = getattr(error, "code", "refused"), dict(getattr(error, "data", {}) or {})
    room = d.get("room")
    seat = d.get("seat")
    fields = {"room": room or "", "name": d.get("name", ""), "most": d.get("most", MAX_NAME),
              "n": seat + 1 if type(seat) is int else "?"}
    if code == "not-playing":
        return _(NOT_PLAYING.get(d.get("status"), NOT_PLAYING["playing"]))
    if code == "room-status":
        return _("Room {room} is {status}.").format(
            room=room or "", status=_(ROOM_STATUS.get(d.get("status"), "closed")))
    if code == "cannot-change" and d.get("action") in CANNOT_CHANGE:
        own, named = CANNOT_CHANGE[d["action"]]
        return _(named if room else own).format(
            room=room or "", status=_(ROOM_STATUS.get(d.get("status"), "closed")))
    if code == "empty-seats":
        n = d.get("count", 0)
        text = (ngettext("Room {room}: {n} seat is empty and it has no computer players; wait "
                         "for more students or make a new room.",
                         "Room {room}: {n} seats are empty and it has no computer players; "
                         "wait for more students or make a new room.", n) if room else
                ngettext("{n} seat is empty and this table has no computer players; wait for "
                         "more students or make a new room.",
                         "{n} seats are empty and this table has no computer players; wait "
                         "for more students or make a new room.", n))
        return text.format(room=room or "", n=n)
    if code in ("open-tables", "tables-this-hour"):
        return _(ROOM_ERRORS[code]).format(n=d.get("count", 0))
    if code == "pin-wait":
        n = d.get("seconds", 1)
        return ngettext("Too many wrong PINs for this seat: wait {n} second and try again.",
                        "Too many wrong PINs for this seat: wait {n} seconds and try again.",
                        n).format(n=n)
    if code in ("illegal-move", "not-your-turn") and isinstance(d.get("why"), dict):
        from engine.errors import Reason, Why

        why = dict(d["why"])
        try:
            reason = Reason(why.pop("reason"))
        except (KeyError, ValueError):
            reason = None
        if code == "illegal-move" and reason is not None:
            return _(ROOM_ERRORS["illegal-move"]).format(reason=reason_text(Why(reason, why)))
    text = ROOM_ERRORS.get(code, ROOM_ERRORS["refused"])
    if isinstance(text, tuple):
        text = text[1] if room else text[0]
    if code == "illegal-move":
        text = ROOM_ERRORS["refused"]
    return _(text).format(**fields)
