"""A class's morning in Chromium, on `make class`'s server (serving/class_server.py, bound to
127.0.0.1 so that nothing is sent to a network address).

Three students open lesson 1 at the address the server prints, each in a browser of their own
(their own localStorage), type a first name on the exit ticket and answer it, each reading their
own numbers on the page (Ben answers question 4, +3 + (-8) on the printed ticket, with the
opposite of his sum: the sign of the number closer to zero). A reload keeps Ana's name (the
device remembers it for the day). No student's page receives another student's name. The
teacher opens the class view with the key: the three students, the wrong answer under its
mistake, one student's own numbers when the teacher chooses them; the CSV holds the rows;
"Delete today's class data" empties the store and the dashboard.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

from conftest import KEY, ClassServer, format_violations, ticket_question, unlock_teacher
from helpers import ticket_answer

from rooms.answers import open_answers

LESSON_PAGE = "voila/render/01_integers_with_cards.ipynb"
RIGHT, OPPOSITE = "right", "the opposite of the right sum"
# lesson 1's exit ticket: how each student answers, question by question (question 4, a sum of
# two numbers of different signs and sizes: its opposite is the sign of the one closer to zero)
PLANS = {
    "Ana": [RIGHT] * 5,
    "Ben": [RIGHT, RIGHT, RIGHT, OPPOSITE, RIGHT],
    "Cam": [RIGHT] * 5,
}


def answer_the_ticket(page: Any, plan: list[str]) -> list[str]:
    """Answer the exit ticket on the page, reading each question's numbers there (each student
    has their own); returns what was typed or pressed."""
    page = page.locator(".icg-exit-ticket")
    given = []
    for i, how in enumerate(plan):
        prompt, choices = ticket_question(page, i + 1, len(plan))
        answer = ticket_answer(prompt, choices)
        if how == OPPOSITE:
            answer = f"{-int(answer):+d}"
        if choices:
            page.get_by_role("button", name=answer, exact=True).click()
        else:
            box = page.get_by_label("Answer:")
            box.fill(answer)
            box.press("Tab")
            page.get_by_role("button", name="Check").click()
        given.append(answer)
        page.locator("p[role=status]").filter(has_text=re.compile("Right|Not this time")) \
            .first.wait_for(timeout=30_000)
        last = i == len(plan) - 1
        page.get_by_role("button", name="See my score" if last else "Next question").click()
    page.get_by_text("Your code:").wait_for(timeout=30_000)
    return given


def test_a_class_morning(class_server: ClassServer, open_page: Any, tmp_path: Path) -> None:
    server, address, rooms_url = class_server, class_server.address, class_server.rooms_url
    store = open_answers(rooms_url)
    students, given = {}, {}
    for name, plan in PLANS.items():
        vp = open_page(f"student-{name}")
        vp.open(address + LESSON_PAGE)
        page = vp.page.locator(".icg-exit-ticket")
        page.get_by_role("button", name="Start the exit ticket").click()
        page.get_by_label("Your first name:").fill(name)
        page.get_by_label("Your first name:").press("Tab")
        vp.wait_synced()
        page.get_by_role("button", name="That's me").click()
        page.get_by_text(f"Answering as {name}.").wait_for(timeout=30_000)
        if name == "Ana":  # the name bar: labelled boxes and buttons
            violations = vp.axe_violations()
            assert violations == [], format_violations(violations)
        given[name] = answer_the_ticket(vp.page, plan)
        students[name] = vp

    # The device remembers the name for the day: a reload does not ask again.
    ana = students["Ana"]
    ana.open(address + LESSON_PAGE)
    ana.page.get_by_role("button", name="Start the exit ticket").click()
    ana.page.get_by_text("Answering as Ana.").wait_for(timeout=30_000)
    assert not ana.page.get_by_label("Your first name:").is_visible()

    # Every answer reached the store; no page received another student's name.
    end = time.monotonic() + 30
    while len(store.answers()) < 15 and time.monotonic() < end:
        time.sleep(0.2)
    rows = store.answers()
    assert len(rows) == 15
    ben_wrong = given["Ben"][3]
    assert [(a.student, a.given, a.mistake) for a in rows if not a.right] == [
        ("Ben", ben_wrong, "sign-of-closer")]
    # each student's numbers: the questions that vary, other than a neighbour's
    numbers = {name: [a.terms for a in rows if a.student == name and a.variant]
               for name in PLANS}
    assert all(len(n) == 4 for n in numbers.values()) and numbers["Ana"] != numbers["Ben"]
    for name, vp in students.items():
        received = vp.everything_received()
        for other in PLANS:
            if other != name:
                assert other not in received, f"{other}'s name reached {name}'s page"
        assert vp.problems() == []

    # The teacher's dashboard.
    teacher = open_page("teacher")
    teacher.open(server.page_url("class_view.ipynb"))
    page = teacher.page
    assert "Ben" not in teacher.everything_received()  # locked: nothing of the class sent
    unlock_teacher(teacher, KEY)
    listed = page.locator(".icg-class-students-table")
    listed.wait_for(timeout=30_000)
    for name in PLANS:
        assert re.search(rf"{name}\s+1\. Integers with cards", listed.inner_text())
    mistake = page.locator("tr[data-mistake='sign-of-closer']")
    assert "right size, sign of the number closer to zero" in mistake.inner_text()
    assert "Ben" in mistake.inner_text() and ben_wrong in mistake.inner_text()
    assert re.search(r"Work out \+3 \+ \(-8\)\. \(each student has their own numbers\)"
                     r"\s+3\s+2\s+67%", page.locator(".icg-class-questions-table").inner_text())
    # the teacher's key: one student's own numbers, when the teacher chooses them
    page.get_by_label("Show the numbers of:").select_option("Ben")
    key = page.locator(".icg-class-variants-table")
    key.wait_for(timeout=15_000)
    assert ben_wrong in key.inner_text() and "Ana" not in key.inner_text()
    violations = teacher.axe_violations()  # the dashboard: table headers, labelled controls
    assert violations == [], format_violations(violations)

    # The projector hides the names.
    page.get_by_role("button", name="Projector: hide names").click()
    page.get_by_text("3 students today (names hidden).").wait_for(timeout=15_000)
    assert "Ben" not in page.locator(".icg-class-answers").inner_text()
    page.get_by_role("button", name="Projector: hide names").click()
    listed.wait_for(timeout=15_000)

    # The CSV of the day holds the rows.
    page.get_by_role("button", name="Make the CSV of today's answers").click()
    with page.expect_download(timeout=30_000) as got:
        page.get_by_role("button", name=re.compile(r"Download today's answers")).click()
    csv_path = tmp_path / "answers.csv"
    got.value.save_as(csv_path)
    lines = csv_path.read_text(encoding="utf-8").strip().splitlines()
    assert lines[0].startswith("time,student,with,lesson,activity,item,question,answer")
    assert len(lines) == 16
    assert sorted({line.split(",")[1] for line in lines[1:]}) == ["Ana", "Ben", "Cam"]

    # "Delete today's class data" (asked twice) empties it.
    page.get_by_role("button", name="Delete today's class data").click()
    page.get_by_role("button", name="Yes, delete every answer and name of today").click()
    page.get_by_text("No exit-ticket answer yet today.").wait_for(timeout=30_000)
    assert store.answers() == [] and store.presence() == []
    assert page.locator(".icg-class-csv-link").count() == 0
    assert teacher.problems() == []
