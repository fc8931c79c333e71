"""The teacher's dashboard of the class's answers (widgets/together/dashboard.py, in the class
view): the pure summary, and the panel on a real store (SQLite and PostgreSQL): students and
their pages, exit tickets by question, wrong answers by mistake, names hidden for the
projector, the day's CSV, deletion."""

from __future__ import annotations

import base64
import re
import time

import pytest

from rooms.answers import Answer, day_of, new_answer_id, open_answers
from widgets.together.class_view import ClassView
from widgets.together.dashboard import AnswersPanel, summarise

NOON = time.mktime((2026, 12, 1, 12, 0, 0, 0, 0, -1))


def ans(student: str, question: str, given: str, right: bool, *, at: float = NOON,
        mistake: str | None = None, activity: str = "exit-ticket", first_try: bool = True,
        lesson: int = 1, prompt: str = "Work out +3 + (-8).") -> Answer:
    return Answer(new_answer_id(), student, lesson, activity, question, prompt, given, right,
                  first_try, at, mistake)


MORNING = [
    ans("Ana", "4", "-5", True, at=NOON),
    ans("Ben", "4", "+5", False, at=NOON + 1, mistake="sign-of-closer"),
    ans("Cam", "4", "-11", False, at=NOON + 2, mistake="added-abs"),
    ans("Ana", "5", "-4", True, at=NOON + 3, prompt="Work out -3 + (-4) + (+3)."),
    ans("Ben", "5", "-4", True, at=NOON + 4, prompt="Work out -3 + (-4) + (+3)."),
    ans("Cam", "4", "-5", True, at=NOON + 5, first_try=False),  # a later try: not counted
    ans("Dee", "3-1", "-7", False, at=NOON + 6, activity="practice", lesson=2,
        mistake="sign-of-closer", prompt="|+3 + (-10)|"),
    ans("Dee", "3-2", "9", False, at=NOON + 7, activity="practice", lesson=2),
]


def text(html_: str) -> str:
    return re.sub(r"<[^>]+>", " ", html_)


def test_summary_of_a_morning() -> None:
    s = summarise(MORNING)
    assert [(r.lesson, r.question, r.first, r.right, r.share) for r in s.questions] == [
        (1, "4", 3, 1, 1 / 3), (1, "5", 2, 2, 1.0)]
    assert s.marks == {"Ana": {(1, "4"): True, (1, "5"): True},
                       "Ben": {(1, "4"): False, (1, "5"): True},
                       "Cam": {(1, "4"): False}}
    assert {k: [a.student for a in v] for k, v in s.mistakes.items()} == {
        "sign-of-closer": ["Ben", "Dee"], "added-abs": ["Cam"]}
    assert s.other_wrong == 1


@pytest.fixture
def panel(rooms_url: str) -> AnswersPanel:
    store = open_answers(rooms_url)
    for a in MORNING:
        store.record(a)
    store.seen("Eve", 3, at=NOON + 30)
    return AnswersPanel(url=rooms_url, clock=lambda: NOON + 60)


def test_the_dashboard_shows_students_tickets_and_mistakes(panel: AnswersPanel) -> None:
    students = text(panel.students.value)
    for name, page in (("Ana", "1. Integers with cards"), ("Dee", "2. Absolute value"),
                       ("Eve", "3. Hit Me")):
        assert re.search(rf"{name}\s+{re.escape(page)}", students), (name, students)
    assert "under a minute" in students
    tickets = text(panel.tickets.value)
    assert re.search(r"Work out \+3 \+ \(-8\)\.\s+3\s+1\s+33%", tickets)
    assert re.search(r"Work out -3 \+ \(-4\) \+ \(\+3\)\.\s+2\s+2\s+100%", tickets)
    assert re.search(r"Ben\s+\u2717 wrong answer\s+\u2714 right answer", tickets)
    mistakes = panel.mistakes.value
    assert "data-mistake='sign-of-closer'" in mistakes
    assert re.search(r"right size, sign of the number closer to zero\s+2\s+"
                     r"Ben, Work out \+3 \+ \(-8\)\.: \+5", text(mistakes))
    assert "added the sizes when the signs differ" in mistakes
    assert "Other wrong answers: 1" in mistakes


def test_projector_mode_hides_every_name(panel: AnswersPanel) -> None:
    panel.hide_names.value = True
    shown = "".join(w.value for w in (panel.students, panel.tickets, panel.mistakes))
    for name in ("Ana", "Ben", "Cam", "Dee", "Eve"):
        assert name not in shown
    assert "33%" in shown and "+5" in shown
    assert "right size, sign of the number closer to zero" in shown
    panel.hide_names.value = False
    assert "Ana" in panel.tickets.value


def test_the_csv_link_holds_the_days_rows(panel: AnswersPanel) -> None:
    assert panel.download.value == ""  # made when the teacher asks: not sent at every redraw
    assert panel.make_csv() is True
    link = panel.download.value
    assert "download='class-answers-2026-12-01.csv'" in link
    assert "8 rows, made at " in link
    data = base64.b64decode(re.search(r"base64,([A-Za-z0-9+/=]+)'", link).group(1)).decode()
    lines = data.strip().split("\r\n")
    assert len(lines) == 9 and lines[0].startswith("time,student,lesson")
    assert [line.split(",")[1] for line in lines[1:4]] == ["Ana", "Ben", "Cam"]


def test_delete_today_asks_first(panel: AnswersPanel) -> None:
    assert panel.delete_today() is False  # not asked yet: nothing deleted
    assert len(panel.answers.answers(day_of(NOON))) == 8
    panel.ask_delete()
    panel.cancel_delete()
    assert len(panel.answers.answers(day_of(NOON))) == 8
    panel.ask_delete()
    assert panel.delete_today() is True
    assert panel.answers.answers(day_of(NOON)) == [] and panel.answers.presence(
        day_of(NOON)) == []
    assert "No exit-ticket answer yet" in panel.tickets.value
    assert panel.download.value == "" and "(8 answers)" in panel.message.value
    panel.make_csv()
    assert "0 rows" in panel.download.value


def test_keep_days_set_by_the_teacher(panel: AnswersPanel) -> None:
    assert panel.keep_box.value == 7
    old = ans("Old", "1", "3", False, at=NOON - 3 * 86400)
    panel.answers.record(old)
    panel.keep_box.value = 3
    assert panel.set_keep_days() is True
    assert panel.answers.keep_days() == 3 and panel.answers.answers(day_of(old.at)) == []
    assert "kept 3 days" in panel.message.value


def test_the_class_view_redraws_when_an_answer_comes(rooms_url: str) -> None:
    from rooms import open_store

    view = ClassView(open_store(rooms_url), poll=False)
    try:
        assert view.answers_panel in view.children
        assert "No exit-ticket answer yet" in view.answers_panel.tickets.value
        assert view.poll() is False
        open_answers(rooms_url).record(ans("Ana", "4", "+5", False, at=time.time(),
                                           mistake="sign-of-closer"))
        assert view.poll() is True
        assert "right size, sign of the number closer to zero" in view.answers_panel.mistakes.value
    finally:
        view.stop()
