"""Where a table, a lesson piece and the teacher's key meet the live class the teacher runs
(widgets.together.live: the "Eyes on the teacher" cover, the exit ticket the teacher opened,
the roster's name picker).

The live class lives in the class's room store, which only the server has: on the static site
(Pyodide) every hook here is empty, and the server-only modules are never imported there."""

from __future__ import annotations

from typing import Any

from widgets.page.in_browser import IN_BROWSER


def page_parts(lesson: int | None = None, *, exit_ticket: bool = True) -> tuple[Any, ...]:
    """The live class's widgets for a table or a lesson piece; () where there is none."""
    if IN_BROWSER:
        return ()
    from widgets.together.live import page_parts as parts

    return parts(lesson, exit_ticket=exit_ticket)


def name_bar_parts(bar: Any) -> tuple[Any, ...]:
    """What a name bar adds on a page of the live class (the roster's picker, the cover)."""
    if IN_BROWSER:
        return ()
    from widgets.together.live import name_bar_parts as parts

    return parts(bar)


def note_exit_ticket(ticket: Any) -> None:
    """The page's exit ticket, shown on top when the teacher opens its lesson's ticket."""
    if IN_BROWSER:
        return
    from widgets.together.live import note_exit_ticket as note

    note(ticket)


def teacher_page() -> None:
    """This page is the teacher's (its key was typed): the live class never pauses it."""
    if IN_BROWSER:
        return
    from widgets.together.live import teacher_page as mark

    mark()
