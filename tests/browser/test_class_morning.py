"""A class's morning in Chromium, on `make class`'s server (serving/class_server.py, bound to
127.0.0.1 so that nothing is sent to a network address).

Three students open lesson 1 at the address the server prints, each in a browser of their own
(their own localStorage), type a first name on the exit ticket and answer it, each reading their
own numbers on the page (Ben answers question 4, +3 + (-8) on the printed ticket, with the
opposite of his sum: the sign of the number closer to zero). Retakes: Cam presses "Next student
at this device" and names herself again; a reload keeps Ana's name (the device remembers it for
the day) and she takes the ticket again. Each retake has other numbers than the first take,
and none of its answers is a first try: the teacher's marks and scores stay the first take's
(Cam's retake misses question 4; her first take did not). No student's page receives another
student's name. The teacher opens the class view with the key: the three students, the wrong
answers under their mistake, one student's own numbers when the teacher chooses them; the CSV
of the day holds the rows; the gradebook CSV a row per student (Cam practised absolute value
earlier: mastered). The Spanish class view shows the same in Spanish (the mistake, the
mastery, the gradebook's header). "Delete today's class data" empties the store and the
dashboard (and takes away the files made before).
"""

from __future__ import annotations

import csv
import re
import time
from collections import Counter
from pathlib import Path
from typing import Any

from conftest import KEY, ClassServer, format_violations, ticket_question, unlock_teacher
from helpers import ticket_answer

from engine.questions import SKILLS
from rooms.answers import Answer, new_answer_id, open_answers
from widgets.together.dashboard import gradebook_header
from widgets.words import _, mistake_label, skill_name, speaking, status_name

LESSON_PAGE = "voila/render/01_integers_with_cards.ipynb"
RIGHT, OPPOSITE = "right", "the opposite of the right sum"
# lesson 1's exit ticket: how each student answers, question by question (question 4, a sum of
# two numbers of different signs and sizes: its opposite is the sign of the one closer to zero)
PLANS = {
    "Ana": [RIGHT] * 5,
    "Ben": [RIGHT, RIGHT, RIGHT, OPPOSITE, RIGHT],
    "Cam": [RIGHT] * 5,
}
RETAKES = {  # after "Next student at this device" (Cam), after a reload (Ana)
    "Cam": [RIGHT, RIGHT, RIGHT, OPPOSITE, RIGHT],
    "Ana": [RIGHT] * 5,
}


def answer_the_ticket(page: Any, plan: list[str]) -> tuple[list[str], list[str]]:
    """Answer the exit ticket on the page, reading each question's numbers there (each student
    has their own); returns what was typed or pressed, and the questions as read."""
    page = page.locator(".icg-exit-ticket")
    given, prompts = [], []
    for i, how in enumerate(plan):
        prompt, choices = ticket_question(page, i + 1, len(plan))
        prompts.append(prompt)
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
    return given, prompts


def download(page: Any, make: str, link: re.Pattern[str], path: Path) -> list[list[str]]:
    """Press `make`, download the file its `link` gives, and read it as CSV rows."""
    page.get_by_role("button", name=make).click()
    with page.expect_download(timeout=30_000) as got:
        page.get_by_role("button", name=link).click()
    got.value.save_as(path)
    return list(csv.reader(path.open(encoding="utf-8", newline="")))


def skill_row(name: str, mastered: str) -> re.Pattern[str]:
    """A student's row of the skills table (in the language spoken now): `mastered` mastered,
    every other skill not started."""
    marks = [status_name("mastered" if k == mastered else "not-started") for k in SKILLS]
    return re.compile(re.escape(name) + "".join(r"\s+" + re.escape(m) for m in marks))


def test_a_class_morning(class_server: ClassServer, open_page: Any, tmp_path: Path) -> None:
    server, address, rooms_url = class_server, class_server.address, class_server.rooms_url
    store = open_answers(rooms_url)
    # Cam practised absolute value before class (the practice page: test_practice_page.py):
    # three right first tries, mastered.
    for i in range(3):
        store.record(Answer(answer_id=new_answer_id(), student="Cam", lesson=0,
                            activity="practice", item=f"abs 99-{i}", kind="abs", terms="-4",
                            given="4", right=True, first_try=True, at=time.time()))
    practice = 3
    students, given, prompts = {}, {}, {}
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
        given[name], prompts[name] = answer_the_ticket(vp.page, plan)
        students[name] = vp

    # A retake at the same page: the next student at this device is Cam again.
    cam = students["Cam"].page.locator(".icg-exit-ticket")
    cam.get_by_role("button", name="Next student at this device").click()
    cam.get_by_text("Answering as Cam.").wait_for(state="hidden", timeout=30_000)
    cam.get_by_label("Your first name:").fill("Cam")
    cam.get_by_label("Your first name:").press("Tab")
    students["Cam"].wait_synced()
    cam.get_by_role("button", name="That's me").click()
    cam.get_by_text("Answering as Cam.").wait_for(timeout=30_000)
    retaken = {"Cam": answer_the_ticket(students["Cam"].page, RETAKES["Cam"])}

    # The device remembers the name for the day: a reload does not ask again; a retake.
    ana = students["Ana"]
    ana.open(address + LESSON_PAGE)
    ana.page.get_by_role("button", name="Start the exit ticket").click()
    ana.page.get_by_text("Answering as Ana.").wait_for(timeout=30_000)
    assert not ana.page.get_by_label("Your first name:").is_visible()
    retaken["Ana"] = answer_the_ticket(ana.page, RETAKES["Ana"])
    for name, (_given, read) in retaken.items():  # a retake's numbers: other than the first's
        assert read != prompts[name], name

    # Every answer reached the store; no page received another student's name.
    end = time.monotonic() + 30
    while len(store.answers()) < practice + 25 and time.monotonic() < end:
        time.sleep(0.2)
    rows = [a for a in store.answers() if a.activity == "exit-ticket"]
    assert len(rows) == 25 and len(store.answers()) == practice + 25
    # one first try per student and question: the retakes' answers are none
    firsts = Counter((a.student, a.item) for a in rows if a.first_try)
    assert len(firsts) == 15 and set(firsts.values()) == {1}
    assert Counter(a.student for a in rows if not a.first_try) == {"Ana": 5, "Cam": 5}
    ben_wrong, cam_wrong = given["Ben"][3], retaken["Cam"][0][3]
    assert sorted((a.student, a.given, a.mistake, a.first_try) for a in rows if not a.right) \
        == [("Ben", ben_wrong, "sign-of-closer", True), ("Cam", cam_wrong, "sign-of-closer",
                                                         False)]
    # each student's numbers: the questions that vary, other than a neighbour's and than the
    # student's own first take's
    numbers = {name: [a.terms for a in rows if a.student == name and a.variant and a.first_try]
               for name in PLANS}
    assert all(len(n) == 5 for n in numbers.values()) and numbers["Ana"] != numbers["Ben"]
    for name in RETAKES:
        again = [a.terms for a in rows if a.student == name and a.variant and not a.first_try]
        assert again and again != numbers[name], name
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
    assert "Ben \u00d71, Cam \u00d71" in mistake.inner_text()
    assert ben_wrong in mistake.inner_text() and cam_wrong in mistake.inner_text()
    # the first answers only: 3 to each question, Cam's retake not among them
    assert re.search(r"Work out \+3 \+ \(-8\)\. \(each student has their own numbers\)"
                     r"\s+3\s+2\s+67%", page.locator(".icg-class-questions-table").inner_text())
    marks = page.locator(".icg-class-marks-table").inner_text()
    assert re.search(r"Cam(\s+\u2714 right answer){5}", marks), marks
    assert re.search(r"Ben(\s+\u2714 right answer){3}\s+\u2717 wrong answer", marks), marks
    skills = page.locator(".icg-class-skills-table").inner_text()
    assert skill_row("Cam", "abs").search(skills), skills
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
    lines = download(page, "Make the CSV of today's answers",
                     re.compile(r"Download today's answers"), tmp_path / "answers.csv")
    assert ",".join(lines[0]).startswith("time,student,with,lesson,activity,item,question,answer")
    assert len(lines) == 1 + 25 + practice
    assert sorted({line[1] for line in lines[1:]}) == ["Ana", "Ben", "Cam"]

    # The gradebook: a row per student, the first take's score, the skills' standing.
    book = download(page, "Make the gradebook CSV", re.compile(r"Download the gradebook"),
                    tmp_path / "gradebook.csv")
    assert book[0] == gradebook_header()
    lesson_1 = book[0].index("exit ticket, lesson 1 (out of 5)")
    by_name = {row[0]: dict(zip(book[0], row, strict=True)) for row in book[1:]}
    assert sorted(by_name) == ["Ana", "Ben", "Cam"]
    assert [by_name[n][book[0][lesson_1]] for n in ("Ana", "Ben", "Cam")] == ["5", "4", "5"]
    assert {k: by_name["Cam"][skill_name(k)] for k in ("abs", "add-2")} == {
        "abs": "mastered", "add-2": "not started"}
    assert by_name["Ben"][skill_name("abs")] == "not started"

    # The Spanish class view: the same day, read in Spanish.
    with speaking("es"):
        es = {"unlock": _("Unlock the teacher's controls"), "make": _("Make the gradebook CSV"),
              "link": _("Download the gradebook (CSV, {n} students, made at {time})")
              .split("(")[0].strip(), "label": mistake_label("sign-of-closer"),
              "skills": skill_row("Cam", "abs"), "header": gradebook_header(),
              "abs": skill_name("abs"), "mastered": status_name("mastered"),
              "right": "\u2714 " + _("right answer")}
    maestra = open_page("teacher-es")
    maestra.open(server.page_url("es/class_view.ipynb"))
    unlock_teacher(maestra, KEY, es["unlock"])
    mistake_es = maestra.page.locator("tr[data-mistake='sign-of-closer']")
    mistake_es.wait_for(timeout=30_000)
    assert es["label"] in mistake_es.inner_text()
    assert "Ben \u00d71, Cam \u00d71" in mistake_es.inner_text()
    marks_es = maestra.page.locator(".icg-class-marks-table").inner_text()
    assert re.search("Cam" + rf"(\s+{re.escape(es['right'])}){{5}}", marks_es), marks_es
    skills_es = maestra.page.locator(".icg-class-skills-table").inner_text()
    assert es["skills"].search(skills_es), skills_es
    book_es = download(maestra.page, es["make"], re.compile(re.escape(es["link"])),
                       tmp_path / "libro.csv")
    assert book_es[0] == es["header"] and book_es[0][0] == "estudiante"
    cam_es = dict(zip(book_es[0], next(r for r in book_es[1:] if r[0] == "Cam"), strict=True))
    assert (cam_es[book_es[0][lesson_1]], cam_es[es["abs"]]) == ("5", es["mastered"])
    assert es["mastered"] == "dominada"  # Spanish words, not the English ones
    assert maestra.problems() == []

    # "Delete today's class data" (asked twice) empties it.
    page.get_by_role("button", name="Delete today's class data").click()
    page.get_by_role("button", name="Yes, delete every answer and name of today").click()
    page.get_by_text("No exit-ticket answer yet today.").wait_for(timeout=30_000)
    assert store.answers() == [] and store.presence() == []
    assert page.locator(".icg-class-csv-link").count() == 0
    assert teacher.problems() == []
