"""Who did it: a seat's name, "You" for the viewer, names joined."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from widgets.words.catalogues import _


def name_of(names: Sequence[str], seat: int | None) -> str:
    """The name of a seat ('Ben'); 'Player 3' for a seat with no name; '' for the table."""
    if seat is None:
        return ""
    if 0 <= seat < len(names):
        return names[seat]
    return _("Player {n}").format(n=seat + 1)


def addressed(names: Sequence[str], viewer: int | None) -> int | None:
    """The seat spoken to as "you": the viewer, when the table calls them "You"."""
    if viewer is not None and 0 <= viewer < len(names) and names[viewer] in ("You", _("You")):
        return viewer
    return None


def say(seat: int | None, names: Sequence[str], you: int | None, you_form: str,
         other_form: str, **kw: Any) -> str:
    """Fill in the second-person form when `seat` is the addressed viewer, else the third
    (both already translated)."""
    if seat is not None and seat == you:
        return you_form.format(**kw)
    return other_form.format(name=name_of(names, seat), **kw)


def join_names(names: Sequence[str], seats: Sequence[int]) -> str:
    """'Ana', 'Ana and Ben', 'Ana, Ben and Cam'."""
    who = [name_of(names, s) for s in seats]
    if len(who) <= 1:
        return "".join(who)
    return _("{first} and {last}").format(first=", ".join(who[:-1]), last=who[-1])
