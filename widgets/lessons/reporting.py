"""What a lesson page gives its table to report to (`on_answer`): the class's store, under the
page's student (widgets/lessons/student.py), filed under the page's lesson.

    HitMeTable(players=3, on_answer=reporter("hit_me"))

On the static site (no server) there is no store: `reporter` gives None and imports nothing of
it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.questions import SumCheck
from widgets.lessons.course import lesson_number
from widgets.page.in_browser import IN_BROWSER


def reporter(lesson: int | str, *, student: Any = None) -> Callable[[SumCheck], None] | None:
    """The `on_answer` of a table on the page of `lesson` (its number, or its page's name,
    'hit_me'): each check the table reports goes to the class's store as the answers of the
    page's student (`student`: a widgets.lessons.student.Student; default: the page's)."""
    number = lesson_number(lesson) if isinstance(lesson, str) else lesson
    if IN_BROWSER:
        return None

    def on_answer(check: SumCheck) -> None:
        from widgets.lessons.student import record_sum_check

        record_sum_check(lesson=number, item=check.item, terms=check.terms,
                         given_sum=check.given_sum, given_abs=check.given_abs,
                         first_try=check.first_try, student=student, kind=check.kind)

    return on_answer
