"""After a large day (300 students, 5,000 answers in a real SQLite store) one new answer makes
the class view's answers panel send only the panels whose HTML changed, and draw what it drew
before for the same data."""

from __future__ import annotations

import random

from rooms.answers import Answer, new_answer_id, open_answers
from widgets.together.dashboard import AnswersPanel

NOON = 1_796_130_000.0  # a Tuesday's noon, in 2026


def large_day(url: str, students: int = 300, answers: int = 5000) -> None:
    """`answers` exit-ticket and practice answers of `students` students, seen today."""
    rng = random.Random(7)
    store = open_answers(url)
    for i in range(answers):
        student = f"Student {i % students:03d}"
        right = rng.random() < 0.6
        activity = "exit-ticket" if i % 3 else "practice"
        store.record(Answer(new_answer_id(), student, 1 + i % 4, activity, str(1 + i % 6),
                            "sum", "3,-8", "-5" if right else "+5", right, i < 2 * students,
                            NOON - 3600 + i * 0.5, None if right else "sign-of-closer"))
    for s in range(students):
        store.seen(f"Student {s:03d}", 1 + s % 4, at=NOON - 60 + s * 0.1)


def one_new_answer(url: str) -> None:
    """A wrong exit-ticket answer of a student of the large day, a moment before NOON."""
    open_answers(url).record(Answer(new_answer_id(), "Student 007", 1, "exit-ticket", "9",
                                    "sum", "3,-8", "+5", False, True, NOON - 1,
                                    "sign-of-closer"))


def html_panels(panel: AnswersPanel) -> dict[str, object]:
    return {name: getattr(panel, name) for name in
            ("students", "tickets", "numbers", "mistakes", "skills", "unit", "missed")}


def test_one_answer_sends_only_the_changed_panels(rooms_url: str) -> None:
    large_day(rooms_url)
    panel = AnswersPanel(url=rooms_url, clock=lambda: NOON)
    before = {name: w.value for name, w in html_panels(panel).items()}
    sent: list[str] = []
    for name, w in html_panels(panel).items():
        w.observe(lambda _c, name=name: sent.append(name), names="value")
    one_new_answer(rooms_url)
    assert panel.poll() is True
    after = {name: w.value for name, w in html_panels(panel).items()}
    changed = {name for name in after if after[name] != before[name]}
    # an exit-ticket answer: its table, the mistakes and the student's last active time
    assert changed and not changed & {"unit", "skills", "numbers"}
    assert sorted(sent) == sorted(changed)  # one message per changed panel, none for the rest
    assert panel.poll() is False and len(sent) == len(changed)
    # the same data draws the same panels as a fresh view
    fresh = AnswersPanel(url=rooms_url, clock=lambda: NOON)
    assert {name: w.value for name, w in html_panels(fresh).items()} == after
