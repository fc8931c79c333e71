"""The live class's refusals (rooms.live_class.LiveRefused: a code and its data) as sentences."""

from __future__ import annotations

from typing import Any

from widgets.words.catalogues import N_, _, ngettext
from widgets.words.room_errors import room_error_text

LIVE_ERRORS: dict[str, str] = {
    "locked": N_("The class is locked: no new names now. Ask your teacher."),
    "removed": N_("Your teacher removed this name from the class for now. Ask your teacher "
                  "to let you back."),
    "not-on-roster": N_("That name is not on the class list: choose your name in the list."),
    "bad-name": N_("A first name has 1 to 24 letters (spaces, - ' and . too)."),
    "bad-lesson": N_("Choose a lesson from the list."),
    "bad-size": N_("A class has 1 to {most} students."),
    "roster-too-long": N_("A class list has at most {most} names."),
    "no-page": N_("That page has a name now, or is no longer in the list: choose it again. "
                  "Nothing was changed."),
}


def live_error_text(error: Any) -> str:
    """The sentence for a live class's refusal (or any room store error), in the page's
    language."""
    code = getattr(error, "code", "")
    data = getattr(error, "data", {}) or {}
    if code == "wrong-code":
        n = int(data.get("seconds", 0))
        if n > 0:
            return ngettext("That is not your code. Too many tries: wait {n} second.",
                            "That is not your code. Too many tries: wait {n} seconds.",
                            n).format(n=n)
        return _("That is not your code: check it with your teacher and try again.")
    if code == "code-wait":
        n = int(data.get("seconds", 1))
        return ngettext("Too many wrong codes for this name: wait {n} second.",
                        "Too many wrong codes for this name: wait {n} seconds.", n).format(n=n)
    if code in LIVE_ERRORS:
        return _(LIVE_ERRORS[code]).format(**{k: v for k, v in data.items()
                                               if isinstance(v, (int, str))})
    return room_error_text(error)
