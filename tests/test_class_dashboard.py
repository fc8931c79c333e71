"""The teacher's dashboard of the class's answers (widgets/together/dashboard.py, in the class
view): the pure summary, and the panel on a real store (SQLite and PostgreSQL): students and
their pages, exit tickets by question, wrong answers by mistake, names hidden for the
projector, the day's CSV, deletion."""

from __future__ import annotations

import base64
import csv
import html
import io
import re
import time

import pytest

from engine.mistakes import classify
from engine.questions import TARGETED_ITEMS
from rooms.answers import Answer, day_of, new_answer_id, open_answers
from widgets.lessons.exit_ticket import TICKETS
from widgets.together.class_view import ClassView
from widgets.together.dashboard import AnswersPanel, summarise

NOON = time.mktime((2026, 12, 1, 12, 0, 0, 0, 0, -1))


def ans(student: str, question: str, given: str, right: bool, *, at: float = NOON,
        mistake: str | None = None, activity: str = "exit-ticket", first_try: bool = True,
        lesson: int = 1, kind: str = "sum", terms: str = "3,-8") -> Answer:
    return Answer(new_answer_id(), student, lesson, activity, question, kind, terms, given,
                  right, first_try, at, mistake)


MORNING = [
    ans("Ana", "4", "-5", True, at=NOON),
    ans("Ben", "4", "+5", False, at=NOON + 1, mistake="sign-of-closer"),
    ans("Cam", "4", "-11", False, at=NOON + 2, mistake="added-abs"),
    ans("Ana", "5", "-4", True, at=NOON + 3, terms="-3,-4,3"),
    ans("Ben", "5", "-4", True, at=NOON + 4, terms="-3,-4,3"),
    ans("Cam", "4", "-5", True, at=NOON + 5, first_try=False),  # a later try: not counted
    ans("Dee", "3-1", "-7", False, at=NOON + 6, activity="practice", lesson=2,
        mistake="sign-of-closer", kind="abs-sum", terms="3,-10"),
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
    assert re.search(r"right size, sign of the number closer to zero\s+2\s+Ben ×1, Dee ×1\s+"
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
    assert len(lines) == 9 and lines[0].startswith("time,student,with,lesson")
    # every record written in the reader's language: the question's words, the mistake's label
    rows = list(csv.reader(io.StringIO(data)))
    assert ["Ben", "", "1", "exit ticket", "4", "Work out +3 + (-8).", "+5", "0", "1",
            "right size, sign of the number closer to zero", "sign-of-closer"] == rows[2][1:12]
    assert rows[7][6:8] == ["|+3 + (-10)| = ?", "-7"]
    assert [line.split(",")[1] for line in lines[1:4]] == ["Ana", "Ben", "Cam"]


def test_delete_today_asks_first(panel: AnswersPanel) -> None:
    assert panel.delete_today() is False  # not asked yet: nothing deleted
    assert len(panel.answers.answers(day_of(NOON))) == 8
    panel.ask_delete()
    panel.cancel_delete()
    assert len(panel.answers.answers(day_of(NOON))) == 8
    assert panel.make_csv() is True and panel.make_gradebook() is True
    panel.ask_delete()
    assert panel.delete_today() is True
    assert panel.answers.answers(day_of(NOON)) == [] and panel.answers.presence(
        day_of(NOON)) == []
    assert "No exit-ticket answer yet" in panel.tickets.value
    # the files made before hold what was deleted: their links go too
    assert panel.download.value == "" and panel.gradebook.value == ""
    assert "(8 answers)" in panel.message.value
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


def test_hit_me_checks_of_a_lesson_page_show_in_the_class_view(rooms_url: str) -> None:
    """A lesson page's Hit Me table reports its end-of-round checks to the store; the class
    view's checks list them per student (not "No check yet")."""
    from rooms import open_store

    now = time.time()
    store = open_answers(rooms_url)
    for i, (student, given_sum, first) in enumerate(
            [("Ana", "-3", True), ("Ben", "+3", True), ("Ben", "-3", False), ("Cam", "-3", True)]):
        for kind, given, right in (("sum", given_sum, given_sum == "-3"),
                                   ("abs-sum", "3", True)):
            item = f"hit-me 77 1 {'sum' if kind == 'sum' else '|sum|'}"
            store.record(Answer(new_answer_id(), student, 3, "check", item, kind, "6,-9", given,
                                right, first, now + i, None if right else "sign-of-closer"))
    view = ClassView(open_store(rooms_url), poll=False)
    try:
        checks = text(view.checks.value)
        assert "No check yet" not in checks
        for name in ("Ana", "Ben", "Cam"):
            assert name in checks
        ben = re.search(r"Ben\s+Hit Me, lesson 3\s+(\d+)\s+(\d+)\s+(\d+)\s+([^\n]+)", checks)
        assert ben is not None and ben.groups()[:3] == ("1", "0", "1")
        assert "right size, sign of the number closer to zero \u00d71" in ben.group(4)
    finally:
        view.stop()


def test_flapjack_and_lesson_checks_show_per_student_and_place_and_a_pair_as_a_pair(
        rooms_url: str) -> None:
    """A Flapjack table's new totals and lesson 2's first-try check show per student beside
    the Hit Me checks, each under its place, in English and Spanish; a pair's exit-ticket marks
    show under "Ana (with Ben)"."""
    from rooms import open_store
    from widgets.together.class_view import checks_html
    from widgets.words import mistake_label, speaking

    now = time.time()
    rows = [
        # Flapjack: move 4 right at once; move 5 wrong first (-5 - (-2) = +3), then right
        Answer(new_answer_id(), "Dee", 5, "check", "flapjack 91 4 sum", "sum", "6,-8", "-2",
               True, True, now),
        Answer(new_answer_id(), "Dee", 5, "check", "flapjack 91 5 difference", "difference",
               "-5,-2", "+3", False, True, now + 1, "two-negatives-positive"),
        Answer(new_answer_id(), "Dee", 5, "check", "flapjack 91 5 difference", "difference",
               "-5,-2", "-3", True, False, now + 2),
        # lesson 2's own check, two questions
        Answer(new_answer_id(), "Eli", 2, "check", "4411-1", "abs", "-11", "-11", False, True,
               now + 3, "abs-kept-sign"),
        Answer(new_answer_id(), "Eli", 2, "check", "4411-2", "abs", "7", "7", True, True,
               now + 4),
        # a pair at one device takes lesson 1's ticket
        Answer(new_answer_id(), "Ana", 1, "exit-ticket", "1", "greater", "-6,-1,4", "-1",
               True, True, now + 5, partner="Ben"),
        Answer(new_answer_id(), "Ben", 1, "exit-ticket", "1", "greater", "-6,-1,4", "-1",
               True, True, now + 5, partner="Ana"),
    ]
    summary = summarise(rows)
    places = {(c.name, c.shown): (c.checks, c.first_try, c.misses, c.mistakes)
              for c in summary.table_checks}
    assert places == {
        ("Dee", "Flapjack, lesson 5"): (2, 1, 1, (("two-negatives-positive", 1),)),
        ("Eli", "Lesson 2's check"): (2, 1, 1, (("abs-kept-sign", 1),)),
    }
    store = open_answers(rooms_url)
    for a in rows:
        store.record(a)
    view = ClassView(open_store(rooms_url), poll=False)
    try:
        checks = html.unescape(text(view.checks.value))
        assert re.search(r"Dee\s+Flapjack, lesson 5\s+2\s+1\s+1\s+", checks), checks
        assert re.search(r"Eli\s+Lesson 2's check\s+2\s+1\s+1\s+", checks), checks
        marks = text(view.answers_panel.tickets.value)
        assert "Ana (with Ben)" in marks and "Ben (with Ana)" in marks
    finally:
        view.stop()
    with speaking("es"):
        summary = summarise(rows)
        shown = {c.shown for c in summary.table_checks}
        assert "Flapjack, lección 5" in shown, shown
        spanish = checks_html(summary.table_checks, mistake_label)
        assert "No check yet" not in spanish and "Dónde" in spanish


def test_every_record_is_written_in_the_readers_language() -> None:
    """No sentence is stored: the same records read in English and in Spanish, a generated
    question's words too."""
    from widgets.together.dashboard import csv_row, given_words, question_words
    from widgets.words import speaking

    ticket, practice = MORNING[1], MORNING[6]
    greater = ans("Eve", "2", "-6", False, kind="greater", terms="-6,-1,4",
                  activity="practice", lesson=1)
    closer = ans("Eve", "9-1", "0", False, kind="closer", terms="-2,5", activity="practice")
    with speaking("en"):
        assert question_words(ticket) == "Work out +3 + (-8)."
        assert question_words(practice) == "|+3 + (-10)| = ?"
        assert question_words(greater) == "Which is greater: -6, -1 or +4?"
        assert given_words(closer) == "the same"
        english = csv_row(ticket)
    with speaking("es"):
        assert question_words(ticket) == "Calcula +3 + (-8)."
        assert question_words(practice) == "|+3 + (-10)| = ?"
        assert question_words(greater) == "¿Cuál es mayor: -6, -1 o +4?"
        assert given_words(closer) == "lo mismo"
        spanish = csv_row(ticket)
    assert english[10] == "right size, sign of the number closer to zero"
    assert spanish[10] == "valor absoluto correcto, signo del número más cercano al cero"
    assert english[4] == "exit ticket" and spanish[4] == "ticket de salida"


def practice(student: str, skill: str, n: int, right: bool, at: float, *,
             mistake: str | None = None, kind: str = "sum", terms: str = "3,-8",
             given: str = "+5") -> Answer:
    return Answer(new_answer_id(), student, 4, "practice", f"{skill} 77-{n}", kind, terms,
                  given, right, True, at, mistake)


def test_the_dashboard_acts_skills_practise_this_most_missed_gradebook(
        rooms_url: str, tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    from rooms.answers import Outbox
    from widgets.lessons.practice import SkillPractice
    from widgets.lessons.student import Student

    store = open_answers(rooms_url)
    now = time.time()
    for i in range(3):  # Ana masters adding two integers
        store.record(practice("Ana", "add-2", i, True, now + i))
    for i in range(10):  # Ben: 10 today without mastery
        store.record(practice("Ben", "add-2", i, False, now + 10 + i, mistake="added-abs",
                              given="+11"))
    store.record(practice("Cam", "subtract", 1, False, now + 30, mistake="added-abs",
                          given="-11"))
    for a in MORNING[:5]:  # the exit ticket of lesson 1
        store.record(Answer(**{**a.__dict__, "answer_id": new_answer_id(), "at": now + 40}))
    panel = AnswersPanel(store, clock=time.time)
    skills = text(panel.skills.value)
    assert re.search(r"Ana\s+mastered\s+not started", skills)
    assert re.search(r"Ben\s+ask the teacher", skills) and "data-flagged='1'" in panel.skills.value
    assert re.search(r"Cam\s+not started\s+not started\s+practising", skills)
    # each mistake with the students who showed it and how often
    assert re.search(r"added the sizes when the signs differ\s+12\s+Ben ×10, Cam ×2",
                     text(panel.mistakes.value))
    # most missed: the items and their common wrong answers, no names
    missed = text(panel.missed.value)
    assert re.search(r"Adding two integers\s+10\s+\+3 \+ \(-8\) = \? → \+11 ×10", missed)
    assert "Ben" not in missed
    # projector mode: no name anywhere
    panel.hide_names.value = True
    for name in ("Ana", "Ben", "Cam"):
        assert name not in panel.skills.value and name not in panel.mistakes.value
    panel.hide_names.value = False
    # "practise this" reaches the student's practice page
    ben = Student()
    ben.outbox = Outbox(lambda: open_answers(rooms_url), thread=False)
    ben.set_names(("Ben",))
    page = SkillPractice(skills=["add-2", "subtract"], seed=4, student=ben)
    page.pick("subtract")
    panel.practise_choice.value = "added-abs"
    assert panel.practise_this() is True and "2 students" in panel.message.value
    answer_right_once(page)
    assert page.skill == "add-2" and "Your teacher asks you to practise this" in \
        page.standing.value
    # its questions are aimed at the mistake: the sizes can be added (the signs differ)
    assert any(classify(page.shape, g) == "added-abs" for g in range(-40, 41)), page.shape
    assert page.targets == ["added-abs"] * (TARGETED_ITEMS - 1)
    assert store.practice_asked("Ben") == []  # taken up: not offered again
    # the gradebook: a row per student, a column per exit ticket and per skill
    assert panel.make_gradebook() is True
    data = base64.b64decode(re.search(r"base64,([A-Za-z0-9+/=]+)'",
                                      panel.gradebook.value).group(1)).decode()
    rows = list(csv.reader(io.StringIO(data)))
    assert rows[0][:3] == ["student", "exit ticket, lesson 1 (out of 5)",
                           "exit ticket, lesson 2 (out of 5)"]
    assert rows[0][-7:] == ["Adding two integers", "Adding three integers",
                            "Subtracting integers", "Absolute value",
                            "Distance on the number line", "Greater and less", "Closer to zero"]
    by_name = {r[0]: r for r in rows[1:]}
    adding = rows[0].index("Adding two integers")
    assert by_name["Ana"][1] == "2" and by_name["Ana"][adding] == "mastered"
    assert by_name["Ben"][adding] == "ask the teacher" and by_name["Cam"][1] == "0"


def test_the_gradebook_holds_every_kept_days_exit_tickets(rooms_url: str) -> None:
    """Lesson 1's ticket two days ago, lesson 2's today: one row holds both scores, as numbers
    a spreadsheet reads as numbers; a ticket taken again on a later day keeps the first day's
    score; a student seen only on an earlier day has a row too."""
    store = open_answers(rooms_url)
    now = time.time()
    before = now - 2 * 86400

    def ticket(student: str, lesson: int, item: str, right: bool, at: float) -> Answer:
        return Answer(new_answer_id(), student, lesson, "exit-ticket", item, "sum", "3,-8",
                      "-5" if right else "+5", right, True, at, None if right else
                      "sign-of-closer")

    for i, right in enumerate([True, True, False, True, True]):
        store.record(ticket("Ana", 1, str(i + 1), right, before + i))
    store.record(ticket("Eli", 1, "1", True, before + 10))  # not here today
    for i in range(5):  # lesson 1's ticket again today: the first day's score stays
        store.record(ticket("Ana", 1, str(i + 1), False, now + i))
    for i, right in enumerate([True, False, True, False, True]):
        store.record(ticket("Ana", 2, str(i + 1), right, now + 10 + i))
    panel = AnswersPanel(store, clock=lambda: now + 60)
    assert panel.make_gradebook() is True
    data = base64.b64decode(re.search(r"base64,([A-Za-z0-9+/=]+)'",
                                      panel.gradebook.value).group(1)).decode()
    rows = {r[0]: r for r in csv.reader(io.StringIO(data))}
    assert rows["Ana"][1:3] == ["4", "3"]
    assert rows["Eli"][1:3] == ["1", ""]
    assert all(re.fullmatch(r"\d*", cell) for r in rows.values() if r[0] != "student"
               for cell in r[1:1 + len(TICKETS)])


def answer_right_once(p) -> None:
    shape = p.shape
    if shape.kind in ("greater", "less", "closer"):
        p.choose(shape.options().index(shape.answer))
    else:
        p.answer.value = str(shape.answer)
        p.check_typed()
    p.next_question()


def own(student: str, question: str, kind: str, terms: str, given: str, right: bool,
        variant: int, *, at: float = NOON, mistake: str | None = None,
        lesson: int = 1) -> Answer:
    """An exit-ticket answer to the student's own numbers (`variant`)."""
    return Answer(new_answer_id(), student, lesson, "exit-ticket", question, kind, terms, given,
                  right, True, at, mistake, variant)


def test_an_answer_reads_back_with_the_students_own_numbers() -> None:
    """A choice in words answered with a student's own numbers: the question as they read it
    and the choice they pressed, in the teacher's language; the table of the questions keeps
    the printed words and says the numbers are each student's."""
    from widgets.together.dashboard import given_words, question_words, tickets_html
    from widgets.words import speaking

    sign = own("Ana", "3", "sum", "-7,2", "5", False, 77, mistake="sign-of-closer")
    sums = own("Ben", "4", "sum", "5,-9", "-4", True, 88)
    with speaking("en"):
        assert question_words(sign) == ("Before you work it out: is -7 + (+2) positive, "
                                        "negative or zero?")
        assert given_words(sign) == "Positive"
        assert question_words(sums) == "Work out: +5 + (-9) = ?"
        table = text(tickets_html(summarise([sums]), hide_names=False))
        assert re.search(r"Work out \+3 \+ \(-8\)\. \(each student has their own numbers\)"
                         r"\s+1\s+1\s+100%", table)
    with speaking("es"):
        assert question_words(sign) == ("Antes de calcularlo: ¿-7 + (+2) es positivo, "
                                        "negativo o cero?")
        assert given_words(sign) == "Positivo"


def test_the_teachers_key_shows_one_chosen_students_numbers() -> None:
    """Every student of a class of 30 has numbers of their own: the key is a line until the
    teacher chooses a student, then that student's questions as they read them, each with
    its variant, the right answer for their numbers and theirs; nothing with names hidden."""
    from widgets.together.dashboard import variants_html

    answers = []
    for n in range(30):
        name = f"Student {n:02d}"
        a, b = -(n % 9) - 3, n % 2 + 1  # -3 + (+1) ... -11 + (+2): negative sums
        answers += [own(name, "3", "sum", f"{a},{b}", str(-(a + b)), False, 100 + n,
                        mistake="sign-of-closer"),
                    own(name, "4", "sum", f"{b},{a}", str(a + b), True, 100 + n)]
    answers.append(ans("Ben", "1", "-6", True, kind="ticket", terms=""))
    line = text(variants_html(answers, hide_names=False))
    assert "30 students answered an exit ticket with their own numbers" in line
    assert "<table" not in variants_html(answers, hide_names=False)
    key = variants_html(answers, hide_names=False, student="Student 07")
    assert key.count("<tr>") == 3  # a heading and two answers
    assert "Student 06" not in key and "Student 08" not in key
    assert re.search(r"L1\.3\s+107\s+Before you work it out: is -10 \+ \(\+2\) positive, "
                     r"negative or zero\?\s+Negative\s+Positive\s+\u2717 wrong answer", text(key))
    assert re.search(r"L1\.4\s+107\s+Work out: \+2 \+ \(-10\) = \?\s+-8\s+-8\s+"
                     r"\u2714 right answer", text(key))
    # Ben answered with the ticket's own numbers only: not one to choose
    assert variants_html(answers, hide_names=False, student="Ben") == variants_html(
        answers, hide_names=False)
    assert variants_html(answers, hide_names=True, student="Student 07") == ""


def test_most_missed_shows_a_wrong_number_with_the_students_own_question() -> None:
    """Two students miss the same question, each on their own numbers, with the same wrong
    number: each is shown with its question; a choice in words counts together."""
    from widgets.together.dashboard import most_missed_html

    wrong = [own("Ana", "4", "sum", "4,-9", "+5", False, 11, mistake="sign-of-closer"),
             own("Ben", "4", "sum", "2,-7", "+5", False, 12, mistake="sign-of-closer"),
             own("Ana", "3", "sum", "-7,2", "5", False, 11, mistake="sign-of-closer"),
             own("Ben", "3", "sum", "-9,5", "4", False, 12, mistake="sign-of-closer")]
    missed = text(most_missed_html(summarise(wrong)))
    assert "Work out: +4 + (-9) = ? → +5 ×1" in missed
    assert "Work out: +2 + (-7) = ? → +5 ×1" in missed and "+5 ×2" not in missed
    assert "Positive ×2" in missed
    assert "Work out +3 + (-8). (each student has their own numbers)" in missed


def test_the_panel_lists_the_students_to_choose_and_hides_them_on_the_projector(
        rooms_url: str) -> None:
    store = open_answers(rooms_url)
    for a in (own("Ana", "4", "sum", "5,-9", "-4", True, 4242),
              own("Ben", "4", "sum", "2,-7", "+5", False, 77, mistake="sign-of-closer")):
        store.record(a)
    panel = AnswersPanel(url=rooms_url, clock=lambda: NOON + 60)
    assert [v for _label, v in panel.numbers_of.options] == ["", "Ana", "Ben"]
    assert "2 students answered" in panel.numbers.value and "Ana" not in panel.numbers.value
    panel.numbers_of.value = "Ben"
    assert re.search(r"Work out: \+2 \+ \(-7\) = \?\s+-5\s+\+5", text(panel.numbers.value))
    panel.refresh()  # the class view's polling keeps the teacher's choice
    assert panel.numbers_of.value == "Ben" and "+2 + (-7)" in panel.numbers.value
    panel.hide_names.value = True
    assert panel.numbers_of.layout.display == "none" and panel.numbers.value == ""
    assert [v for _label, v in panel.numbers_of.options] == [""]  # no name in the page
    panel.hide_names.value = False
    assert panel.numbers_of.layout.display != "none" and "+2 + (-7)" in panel.numbers.value


def test_a_skill_mastered_on_an_earlier_day_stays_mastered(rooms_url: str) -> None:
    """The skills table and the gradebook read every kept day's practice, not today's alone:
    Dee mastered subtracting yesterday and only answers an exit ticket today."""
    store = open_answers(rooms_url)
    now = time.time()
    yesterday = now - 86_400
    for i in range(3):
        store.record(practice("dee", "subtract", i, True, yesterday + i, kind="difference"))
    store.record(practice("Eve", "abs", 1, False, yesterday + 5, kind="abs"))
    store.record(Answer(**{**MORNING[0].__dict__, "answer_id": new_answer_id(),
                           "student": "Dee", "at": now}))
    panel = AnswersPanel(store, clock=time.time)
    skills = text(panel.skills.value)
    assert re.search(r"Dee\s+not started\s+not started\s+mastered", skills), skills
    assert re.search(r"Eve\s+not started\s+not started\s+not started\s+practising", skills)
    assert panel.make_gradebook() is True
    data = base64.b64decode(re.search(r"base64,([A-Za-z0-9+/=]+)'",
                                      panel.gradebook.value).group(1)).decode()
    by_name = {r[0]: r for r in list(csv.reader(io.StringIO(data)))[1:]}
    assert by_name["Dee"][-5] == "mastered"


def test_the_dashboard_acts_in_spanish(rooms_url: str) -> None:
    """The skills table, "practise this" and the gradebook in the Spanish class view."""
    from widgets.words import speaking

    store = open_answers(rooms_url)
    now = time.time()
    for i in range(3):
        store.record(practice("Ana", "add-2", i, True, now + i))
    store.record(practice("Ben", "add-2", 9, False, now + 10, mistake="added-abs", given="+11"))
    with speaking("es"):
        panel = AnswersPanel(store, clock=time.time)
        skills = text(panel.skills.value)
        assert "Sumar dos enteros" in skills and re.search(r"Ana\s+dominada", skills), skills
        panel.practise_choice.value = "added-abs"
        assert panel.practise_this() is True
        assert "1 estudiante practicará" in text(panel.message.value)
        assert panel.make_gradebook() is True
        data = base64.b64decode(re.search(r"base64,([A-Za-z0-9+/=]+)'",
                                          panel.gradebook.value).group(1)).decode()
    rows = list(csv.reader(io.StringIO(data)))
    assert rows[0][0] == "estudiante" and "Sumar dos enteros" in rows[0]
    by_name = {r[0]: r for r in rows[1:]}
    assert by_name["Ana"][rows[0].index("Sumar dos enteros")] == "dominada"


def test_most_missed_never_mixes_two_practice_questions() -> None:
    """Two students miss different questions of one skill with the same wrong number: the
    skill's row shows each question with its wrong answer, not "+11 ×2"."""
    from widgets.together.dashboard import most_missed_html

    now = NOON
    wrong = [practice("Ana", "add-2", 1, False, now, terms="3,-8", given="+11"),
             practice("Ben", "add-2", 2, False, now + 1, terms="-4,7", given="+11")]
    missed = text(most_missed_html(summarise(wrong)))
    assert "+3 + (-8) = ? → +11 ×1" in missed and "-4 + (+7) = ? → +11 ×1" in missed
    assert "+11 ×2" not in missed


def take_check(url: str, name: str, which: str, wrong: set[int], at: float) -> None:
    """`name` takes a unit check on their page at `at`, each question right but those in
    `wrong` (answered with their first typical wrong answer); the answers reach the store."""
    from rooms.answers import Outbox
    from widgets.lessons import unit_check as uc
    from widgets.lessons.student import Student

    s = Student(clock=lambda: at)
    s.outbox = Outbox(lambda: open_answers(url), thread=False)
    s.set_names((name,))
    check = uc.UnitCheck(which, student=s)
    check.start()
    for n in range(1, 9):
        item = check.items[check.index]
        given = uc.traps(item)[0][0] if n in wrong else str(item.answer)
        if item.choices:
            check.choose(item.choices.index(given))
        else:
            check.entry.value = given
            check.check_typed()
        check.next_question()
    assert check.finished and s.outbox.flush() == 0


def test_the_dashboard_puts_each_students_start_and_end_side_by_side(rooms_url: str) -> None:
    """The readiness check ten days ago and the end-of-unit check today, answered on the
    students' pages: per student and skill the start's mark beside the end's, the scores, the
    class's share right at each; a check taken again on a later day keeps the first day's;
    names hidden on the projector; both checks in the gradebook; in the teacher's language."""
    from widgets.lessons.unit_check import READINESS, UNIT_END
    from widgets.words import speaking

    store = open_answers(rooms_url)
    store.set_keep_days(30)  # longer than the unit
    start, later = NOON - 10 * 86400, NOON - 3 * 86400
    take_check(rooms_url, "Ana", READINESS, {2, 4}, start)
    take_check(rooms_url, "Ben", READINESS, {8}, start + 10)
    take_check(rooms_url, "Cam", READINESS, {1, 2, 3}, start + 20)
    take_check(rooms_url, "Ana", READINESS, set(), later)  # again, another day: not counted
    take_check(rooms_url, "Ana", UNIT_END, set(), NOON)
    take_check(rooms_url, "Ben", UNIT_END, {1, 8}, NOON + 10)
    panel = AnswersPanel(url=rooms_url, clock=lambda: NOON + 60)
    table = text(panel.unit.value)
    head = ("Student Readiness check (out of 8) End-of-unit check (out of 8) Adding different "
            "signs Adding two negatives Three terms with a zero pair Subtracting a negative "
            "Absolute value Distance across zero Comparing negatives Closer to zero")
    assert head in " ".join(table.split())
    right, wrong, none = "\u2714", "\u2717", "\u2013"
    assert re.search(r"Whole class \(3 students\), share right\s+75%\s+88%\s+67% → 50%\s+"
                     r"33% → 100%\s+67% → 100%\s+67% → 100%\s+(100% → 100%\s+){3}67% → 50%",
                     table), table
    assert re.search(rf"Ana\s+6\s+8\s+{right} → {right}\s+{wrong} → {right}\s+{right} → "
                     rf"{right}\s+{wrong} → {right}\s+", table), table
    assert re.search(rf"Ben\s+7\s+6\s+{right} → {wrong}\s+({right} → {right}\s+){{6}}"
                     rf"{wrong} → {wrong}", table), table
    assert re.search(rf"Cam\s+5\s+\u2014\s+({wrong} → {none}\s+){{3}}", table), table
    # the mistakes and the students' own numbers read today's end-of-unit answers
    assert "Ben" in panel.mistakes.value and "Work out: " in text(panel.mistakes.value)
    panel.numbers_of.value = "Ben"
    assert re.search(r"END\.1\s+\d+\s+Work out: ", text(panel.numbers.value))
    # the projector: the class's row alone
    panel.hide_names.value = True
    assert "Whole class (3 students)" in panel.unit.value
    for name in ("Ana", "Ben", "Cam"):
        assert name not in panel.unit.value
    panel.hide_names.value = False
    # the gradebook: a column for each check, after the exit tickets
    assert panel.make_gradebook() is True
    data = base64.b64decode(re.search(r"base64,([A-Za-z0-9+/=]+)'",
                                      panel.gradebook.value).group(1)).decode()
    rows = list(csv.reader(io.StringIO(data)))
    starts, ends = (rows[0].index(f"{c} check (out of 8)") for c in ("readiness", "end-of-unit"))
    assert starts == len(TICKETS) + 1 and ends == starts + 1
    by_name = {r[0]: r for r in rows[1:]}
    assert [by_name[n][starts:ends + 1] for n in ("Ana", "Ben", "Cam")] == [
        ["6", "8"], ["7", "6"], ["5", ""]]
    assert panel.make_csv() is True
    answers = base64.b64decode(re.search(r"base64,([A-Za-z0-9+/=]+)'",
                                         panel.download.value).group(1)).decode()
    assert ",end-of-unit check,1,Work out: " in answers
    with speaking("es"):
        spanish = AnswersPanel(url=rooms_url, clock=lambda: NOON + 60)
        shown = " ".join(text(spanish.unit.value).split())
    assert "Prueba de inicio (sobre 8) Prueba de fin de unidad (sobre 8) Sumar con signos " \
           "distintos" in shown and "Toda la clase (3 estudiantes)" in shown


def test_items_of_a_family_read_back_with_the_students_numbers_and_choice() -> None:
    """The card that makes a Flapjack with a student's own total, the zero-pair move with
    their own hand, a conceptual choice in another order: the key shows each as the student
    read it, the right answer for their numbers and the choice they pressed, in the teacher's
    language."""
    from widgets.lessons import exit_ticket as et
    from widgets.together.dashboard import given_words, question_words, variants_html
    from widgets.words import speaking

    flapjack = et.vary(et.TICKETS[5][1], 31, 1)
    total = flapjack.numbers[0]
    wrong = next(c for c in flapjack.choices if c != flapjack.answer)
    tie = et.vary(et.TICKETS[6][3], 31, 3)
    answers = [own("Ana", "2", "ticket", ",".join(map(str, flapjack.numbers)),
                   flapjack.given_data(wrong), False, 31, lesson=5),
               own("Ana", "4", "ticket", "", tie.given_data(tie.answer), True, 31, lesson=6)]
    with speaking("en"):
        assert question_words(answers[0]) == f"The total is {total:+d}. Which card makes a " \
                                             "Flapjack?"
        assert given_words(answers[0]) == wrong and given_words(answers[1]) == "Half a win"
        key = text(variants_html(answers, hide_names=False, student="Ana"))
        assert re.search(rf"L5\.2\s+31\s+The total is \{total:+d}\. Which card makes a "
                         rf"Flapjack\?\s+{re.escape(flapjack.answer)}\s+{re.escape(wrong)}\s+"
                         r"\u2717 wrong answer", key), key
        assert re.search(r"L6\.4\s+Two players tie.*Half a win\s+Half a win\s+\u2714", key), key
    with speaking("es"):
        assert question_words(answers[0]) == f"El total es {total:+d}. ¿Qué carta hace un " \
                                             "Flapjack?"
        assert given_words(answers[1]) == "Media victoria"
