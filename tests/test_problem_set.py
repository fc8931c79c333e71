"""The lessons' problem sets (widgets/lessons/problem_set.py): homework at the end of lessons 1
to 6. Each set's questions are right and shaped, every typical wrong answer is named with its
mistake, each student has numbers of their own (a story keeps its words, its cards stay cards
of its game), the first answer counts, the answers reach the class's store under the set's
own activity and the teacher's dashboard and gradebook read them; on paper each set has its
own numbers and room to write, its key only in the teacher's part; the words speak Spanish;
every lesson page, in every language, ends with its set before its links."""

from __future__ import annotations

import base64
import csv
import html as html_module
import importlib.util
import io
import re
from pathlib import Path

import nbformat
import pytest
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po
from helpers import click_every_answer_right
from widget_helpers import errors_raise  # noqa: F401 - autouse: click handlers raise

from engine.mistakes import CHOICE_KINDS, MISTAKES
from rooms.answers import Answer, Outbox, day_of, new_answer_id, open_answers
from widgets.lessons import course, kit
from widgets.lessons import exit_ticket as et
from widgets.lessons import problem_set as ps
from widgets.lessons.problem_set import PROBLEM_SET, ProblemSet
from widgets.lessons.student import Student, today
from widgets.lessons.unit_check import traps
from widgets.table.render import esc
from widgets.words import mistake_feedback, mistake_label, speaking

ROOT = Path(__file__).resolve().parent.parent
NOON = 1796126400.0  # 2026-12-01, around noon UTC
LESSONS = [lesson.number for lesson in course.student_lessons()]

# each set's right answers with its printed numbers, worked out by hand (a typed number as
# the page shows it, a choice's label)
ANSWERS = {
    1: ["-3", "-10", "+2", "-2", "Negative", "+3", "-4"],
    2: ["13", "+4", "Same distance", "3", "9", "+3", "-11"],
    3: ["-3", "5", "Ana", "-9", "They tie", "-4", "-4"],
    4: ["-2", "+8", "-9", "+2", "-11", "17", "-8 < -3"],
    5: ["-4", "-13", "-5", "+11", "11", "Positive", "-4"],
    6: ["5", "Ana", "-5", "-9", "13", "-11", "+3"],
}
# a typical wrong answer of some questions and the mistake it shows: (lesson, question) ->
TYPICAL = {
    (1, 1): ("+3", "sign-of-closer"), (1, 2): ("+10", "two-negatives-positive"),
    (1, 4): ("-7", "farther-is-greater"), (1, 7): ("-16", "added-abs"),
    (2, 1): ("-13", "abs-kept-sign"), (2, 2): ("-7", "lesser-is-closer"),
    (2, 6): ("-1", "closer-is-greater"), (3, 2): ("-5", "abs-kept-sign"),
    (3, 3): ("Cam", "lesser-is-closer"), (4, 1): ("+2", "two-negatives-positive"),
    (4, 2): ("-2", "subtract-negative-left"), (4, 3): ("+5", "subtract-positive-right"),
    (4, 4): ("-10", "subtract-negative-left"), (4, 6): ("7", "distance-sizes-subtracted"),
    (4, 7): ("-8 > -3", "farther-is-greater"), (5, 3): ("+5", "two-negatives-positive"),
    (5, 6): ("Negative", "sign-of-closer"), (6, 5): ("1", "distance-sizes-subtracted"),
    (6, 6): ("+11", "two-negatives-positive"),
}
# the words a set's question is told in, where it has a story (money, temperature, sea level,
# a lift, the card games)
CONTEXTS = ("dollars", "debt", "°C", "sea level", "floor", "Hit Me", "Flapjack", "Final sums")


def _given(item: et.Item, text: str) -> int | str:
    return text if item.choices else int(text)


def answer(t: ProblemSet, right: bool, go_on: bool = True) -> str | None:
    """Answer the question on the screen: right, or with its first named wrong answer (its
    mistake returned); then the next question (`go_on`)."""
    item = t.items[t.index]
    given, mistake = (str(item.answer), None) if right else traps(item)[0]
    if item.choices:
        t.choose([et.shown(c) for c in item.choices].index(
            et.shown(item.answer) if right else given))
    else:
        t.entry.value = given
        t.check_typed()
    if go_on:
        t.next_question()
    return mistake


# ----- the questions -----------------------------------------------------------------------
def test_a_set_for_each_lesson() -> None:
    assert list(ps.SETS) == LESSONS == [1, 2, 3, 4, 5, 6]
    with pytest.raises(ValueError):
        ps.set_items(7)
    with pytest.raises(ValueError):
        ProblemSet(lesson=0)


@pytest.mark.parametrize("lesson", LESSONS)
def test_each_question_is_right_and_shaped(lesson: int) -> None:
    """Six to eight questions, each with its shape and the answer worked out by hand; a
    choice has three options or more, one of them right; a story in words where it fits."""
    items = ps.set_items(lesson)
    assert ps.MIN_PROBLEMS <= len(items) <= ps.MAX_PROBLEMS
    assert [i.answer_text for i in items] == ANSWERS[lesson]
    for item in items:
        assert item.shape is not None
        right = item.picks[item.choices.index(item.answer)] if item.choices else item.answer
        assert item.shape.answer == right
        assert item.mistake(item.answer) is None
        if item.choices:
            assert len(item.choices) >= 3 and item.choices.count(item.answer) == 1
    stories = [i for i in items if any(c in i.prompt for c in CONTEXTS)]
    assert stories, "a question in words about money, temperature or the games"
    # no question gives its method away
    assert not any(w in i.prompt for i in items for w in ("from zero", "zero pair"))


def test_the_sets_ask_the_lessons_skills_and_their_contexts() -> None:
    kinds = {lesson: {i.shape.kind for i in ps.set_items(lesson)} for lesson in LESSONS}
    assert "sum" in kinds[1] and "greater" in kinds[1]
    assert {"abs", "closer"} <= kinds[2]
    assert {"sum", "abs-sum", "closer"} <= kinds[3]
    assert {"difference", "distance"} <= kinds[4]
    assert "difference" in kinds[5]  # subtracting a negative in play
    words = " ".join(i.prompt for lesson in LESSONS for i in ps.set_items(lesson))
    for context in ("dollars", "debt", "°C", "sea level", "floor", "Hit Me", "Flapjack"):
        assert context in words, context


@pytest.mark.parametrize("lesson", LESSONS)
def test_every_question_names_its_typical_wrong_answers(lesson: int) -> None:
    """Every question has a wrong answer whose mistake is named; the typical ones listed here
    show their mistake; every named mistake is one the dashboard knows."""
    for n, item in enumerate(ps.set_items(lesson), start=1):
        named = traps(item)
        assert named, (lesson, n, item.prompt)
        assert all(m in MISTAKES for _g, m in named)
        if (lesson, n) in TYPICAL:
            given, mistake = TYPICAL[(lesson, n)]
            assert item.mistake(_given(item, given)) == mistake, (lesson, n)


@pytest.mark.parametrize("lesson", LESSONS)
def test_a_wrong_answer_is_named_at_once_and_the_code_marks_it(lesson: int) -> None:
    """Each question answered with its first named wrong answer, with the student's own
    numbers: the feedback names the mistake, and the code is P<lesson>- and all X."""
    t = ProblemSet(lesson=lesson, student=Student())
    t.start()
    for _n in range(len(t.items)):
        mistake = answer(t, right=False, go_on=False)
        assert esc(mistake_feedback(mistake)) in t.feedback.value, t.items[t.index].prompt
        t.next_question()
    assert t.finished and t.score == 0
    assert t.code == f"P{lesson}-" + "X" * len(t.items)
    assert "the number after P is the lesson" in t.result.value


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("lesson", LESSONS)
def test_a_full_run_by_clicks_scores_all_and_gives_its_code(lesson: int, lang: str) -> None:
    t = ProblemSet(lesson=lesson, lang=lang, student=Student())
    click_every_answer_right(t, lang)
    n = len(t.items)
    assert t.score == n and t.code == f"P{lesson}-" + "R" * n
    score = f"Score: {n} of {n}." if lang == "en" else f"Puntuación: {n} de {n}."
    assert score in t.result.value and t.code in t.result.value


def test_the_first_answer_counts() -> None:
    """A second answer to an answered question is refused with a message and changes nothing;
    a typing slip (no number) gets a message and does not count."""
    t = ProblemSet(lesson=4, student=Student())
    t.start()
    t.entry.value = "four"
    t.check_typed()
    assert t.marks == [] and "digits" in t.status.value
    answer(t, right=False, go_on=False)
    assert t.marks == [False]
    t.entry.value = str(t.items[0].answer)
    assert t.check_typed() is None
    assert t.marks == [False] and "This question is answered" in t.status.value
    t.next_question()
    answer(t, right=True)
    assert t.marks == [False, True]


# ----- each student's numbers --------------------------------------------------------------
@pytest.mark.parametrize("lesson", LESSONS)
def test_each_student_has_numbers_of_their_own_that_keep_the_traps(lesson: int) -> None:
    """Over 200 variants every question takes other numbers; a story keeps its words with the
    new numbers (a Hit Me card stays A to 10); the right choice keeps its place and each wrong
    answer shows the same mistakes as on the printed numbers (an absolute value of a sum: its
    sizes added)."""
    for i, item in enumerate(ps.set_items(lesson)):
        varied = 0
        for variant in range(1, 201):
            new = et.vary(item, variant, i)
            if new is item:
                continue
            varied += 1
            assert new.shape.kind == item.shape.kind and new.shape.terms != item.shape.terms
            mistakes = {m for _g, m in traps(new)}
            if item.shape.kind == "abs-sum":
                # the sum's sign may change (exit_ticket.vary keeps the answer's sign, and an
                # absolute value is never negative): the sizes added stays a trap
                assert "added-abs" in mistakes, new.prompt
            else:
                assert mistakes == {m for _g, m in traps(item)}, new.prompt
            if item.template:
                assert new.prompt == et.fill(item.template, new.shape.terms)
            if "Hit Me" in item.prompt:
                ranks = re.findall(r"(\w+)[\u2660\u2663\u2665\u2666]", new.prompt)
                assert all(r in {"A", *map(str, range(2, 11))} for r in ranks), new.prompt
            if new.shape.kind in CHOICE_KINDS:
                assert new.choices.index(new.answer) == item.choices.index(item.answer)
        assert varied >= 180, (lesson, i, item.prompt)


@pytest.fixture
def named(tmp_path: Path) -> Student:
    ticks = iter(range(10**6))
    s = Student(clock=lambda: NOON + next(ticks))
    url = f"sqlite:///{tmp_path / 'rooms.sqlite3'}"
    s.outbox = Outbox(lambda: open_answers(url), thread=False)
    s.url = url  # type: ignore[attr-defined]
    s.set_names(("Ana",))
    return s


def test_a_named_students_numbers_are_their_own_and_not_the_exit_tickets(
        named: Student) -> None:
    t = ProblemSet(lesson=3, student=named)
    t.start()
    variant = et.variant_for("Ana", today(named.clock()), 3, 0, PROBLEM_SET)
    assert set(t.variants) == {variant}
    assert variant != et.variant_for("Ana", today(named.clock()), 3, 0)  # lesson 3's ticket
    assert all(new is not old for new, old in zip(t.items, t.base_items, strict=True))
    other = Student(clock=named.clock)
    other.set_names(("Ben",))
    ben = ProblemSet(lesson=3, student=other)
    ben.start()
    assert [i.shape.terms for i in ben.items] != [i.shape.terms for i in t.items]


def test_the_answers_reach_the_store_under_the_sets_activity(named: Student) -> None:
    """A named student's answers: filed under 'problem-set' and the lesson, with the mistake
    each wrong one shows and the student's numbers; a second take the same day is no first
    try."""
    t = ProblemSet(lesson=4, student=named)
    t.start()
    wrong = {1, 4, 6}
    for n in range(1, len(t.items) + 1):
        answer(t, right=n not in wrong)
    assert named.outbox.flush() == 0
    rows = open_answers(named.url).answers(day_of(NOON))  # type: ignore[attr-defined]
    assert {(a.activity, a.lesson) for a in rows} == {(PROBLEM_SET, 4)}
    assert [a.item for a in rows] == [str(n) for n in range(1, 8)]
    assert [a.right for a in rows] == [n not in wrong for n in range(1, 8)]
    assert [a.mistake for a in rows] == [
        traps(item)[0][1] if n in wrong else None for n, item in enumerate(t.items, start=1)]
    assert [a.terms for a in rows] == [",".join(map(str, i.shape.terms)) for i in t.items]
    assert all(a.first_try for a in rows)
    again = ProblemSet(lesson=4, student=named)  # a reload after finishing: a retake
    again.start()
    assert again.repeated == {str(n) for n in range(1, 8)}
    answer(again, right=True)
    assert named.outbox.flush() == 0
    rows = open_answers(named.url).answers(day_of(NOON))  # type: ignore[attr-defined]
    assert len(rows) == 8 and not rows[-1].first_try


def test_the_static_site_keeps_nothing_and_says_it_is_homework(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """In the browser's kernel (no server): no name is asked, nothing is recorded, the set
    says it is homework and ends with the code to write down."""
    monkeypatch.setattr(ps, "IN_BROWSER", True)
    monkeypatch.setattr(et, "IN_BROWSER", True)
    t = ProblemSet(lesson=2)
    assert "Homework: this page keeps nothing" in t.header.value
    assert t.recall is None
    t.start()
    assert t.name_bar is None
    while not t.finished:
        answer(t, right=True)
    assert t.code == "P2-RRRRRRR" and "Write it down for your teacher" in t.result.value
    es = ProblemSet(lesson=2, lang="es")
    assert "Tarea: esta página no guarda nada" in es.header.value
    monkeypatch.setattr(ps, "IN_BROWSER", False)
    assert "Homework" not in ProblemSet(lesson=2).header.value


def test_a_set_is_neither_the_exit_ticket_the_live_class_opens_nor_heavy(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from ipywidgets.widgets.widget import _instances
    from test_widget_budget import EXIT_TICKET_BUDGET

    from widgets.page import live_gate
    from widgets.table.shell import LazyPart

    noted = []
    monkeypatch.setattr(live_gate, "note_exit_ticket", noted.append)
    ProblemSet(lesson=1)
    assert noted == []
    before = set(_instances)
    t = ProblemSet(lesson=5)
    assert len(set(_instances) - before) <= EXIT_TICKET_BUDGET
    assert not LazyPart.built(t, "body")
    assert "icg-problem-set" in t._dom_classes


# ----- the teacher's dashboard -------------------------------------------------------------
def _set_answer(student: str, lesson: int, item: str, right: bool, at: float) -> Answer:
    base = ps.set_items(lesson)[int(item) - 1]
    given, mistake = (base.answer_text, None) if right else traps(base)[0]
    return Answer(new_answer_id(), student, lesson, PROBLEM_SET, item, base.shape.kind,
                  ",".join(map(str, base.shape.terms)), given, right, True, at, mistake)


def test_the_dashboard_reads_the_sets_and_the_gradebook_scores_them(tmp_path: Path) -> None:
    """The mistakes and the most missed list the set's wrong answers, its question named
    'P4.1'; the gradebook has a column per lesson's set (the first day's score, every day
    kept), after the unit checks and before the skills."""
    from widgets.together import dashboard as db

    store = open_answers(f"sqlite:///{tmp_path / 'rooms.sqlite3'}")
    before = NOON - 2 * 86400
    for n in range(1, 8):
        store.record(_set_answer("Ana", 3, str(n), n != 2, before + n))
        store.record(_set_answer("Ana", 3, str(n), False, NOON - 100 + n))  # again: not counted
    for n in range(1, 8):
        store.record(_set_answer("Ana", 4, str(n), n not in (1, 5), NOON + n))
        store.record(_set_answer("Ben", 4, str(n), n != 1, NOON + 10 + n))
    answers = store.answers(day_of(NOON))
    first = next(a for a in answers if a.student == "Ana" and a.lesson == 4 and a.item == "1")
    assert db.question_label(first) == "P4.1"
    assert db.ticket_item(first) is ps.set_items(4)[0]
    assert db.question_words(first) == ps.set_items(4)[0].prompt
    summary = db.summarise(answers)
    assert len(summary.missed[(4, "P4.1")]) == 2
    mistake = traps(ps.set_items(4)[0])[0][1]
    assert {a.student for a in summary.mistakes[mistake]} == {"Ana", "Ben"}
    missed = db.most_missed_html(summary)
    assert missed.index(esc(ps.set_items(4)[0].prompt)) < missed.index("\u00d72")
    panel = db.AnswersPanel(store, clock=lambda: NOON + 60)
    assert panel.make_gradebook() is True
    data = base64.b64decode(re.search(r"base64,([A-Za-z0-9+/=]+)'",
                                      panel.gradebook.value).group(1)).decode()
    rows = list(csv.reader(io.StringIO(data)))
    head = rows[0]
    columns = [head.index(f"problem set, lesson {n} (out of 7)") for n in LESSONS]
    assert columns == list(range(head.index("end-of-unit check (out of 8)") + 1,
                                 head.index("Adding two integers")))
    by_name = {r[0]: r for r in rows[1:]}
    assert [by_name["Ana"][c] for c in columns] == ["", "", "6", "5", "", ""]
    assert [by_name["Ben"][c] for c in columns] == ["", "", "", "6", "", ""]
    assert panel.make_csv() is True
    text = base64.b64decode(re.search(r"base64,([A-Za-z0-9+/=]+)'",
                                      panel.download.value).group(1)).decode()
    assert ",problem set,1," in text


def test_the_teachers_key_of_own_numbers_shows_the_sets_questions(named: Student) -> None:
    from widgets.together import dashboard as db

    t = ProblemSet(lesson=3, student=named)
    t.start()
    answer(t, right=False)
    assert named.outbox.flush() == 0
    answers = open_answers(named.url).answers(day_of(NOON))  # type: ignore[attr-defined]
    assert db.own_numbers_students(answers) == ["Ana"]
    key = db.variants_html(answers, False, "Ana")
    assert "P3.1" in key and esc(t.items[0].prompt) in key
    assert t.items[0].answer_text in key


# ----- on paper --------------------------------------------------------------------------------
def _plain(text: str) -> str:
    return " ".join(html_module.unescape(re.sub(r"<[^>]+>", " ", text)).split())


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_kit_prints_each_set_with_room_to_write_and_no_answer(lang: str) -> None:
    with speaking(lang):
        sheets = kit.problem_set_sheets()
        titles = [_plain(esc(kit._problem_set_title(n))) for n in LESSONS]
        items = {n: ps.set_items(n) for n in LESSONS}
        prompts = {n: [_plain(esc(et.shown(i.prompt))) for i in items[n]] for n in LESSONS}
        choices = {n: [" / ".join(et.shown(c) for c in i.choices) for i in items[n]
                       if i.choices] for n in LESSONS}
        labels = {mistake_label(m) for m in MISTAKES}
    assert sheets.count("<section class='icg-kit-sheet'>") == len(LESSONS)
    plain = _plain(sheets)
    for n, title in zip(LESSONS, titles, strict=True):
        card = plain.split(title)[1].split(titles[n] if n < len(titles) else "\0")[0]
        assert all(p in card for p in prompts[n]) and all(c in card for c in choices[n])
        assert len(re.findall(r"(?<!_)_{6}(?!_)", card)) == sum(not i.choices for i in items[n])
        assert f"P{n}-" + " ".join("__" for _i in items[n]) in card
    assert sheets.count("icg-kit-work") == sum(len(i) for i in items.values())
    assert not any(label in plain for label in labels)
    if lang == "es":
        assert "Serie de problemas, lección 1: Enteros con cartas" in plain
        assert "Tarea: resuelve cada pregunta" in plain
    kit_html = kit.kit_html(lang)
    assert sheets in kit_html and "answer key" not in kit_html


def test_the_key_gives_each_answer_and_names_the_typical_mistakes() -> None:
    key = _plain(kit.problem_set_key_sheet())
    assert "Problem sets: answer key (for the teacher)" in key
    for n in LESSONS:
        for item in ps.set_items(n):
            row = key.split(_plain(esc(et.shown(item.prompt))))[1]
            assert row.startswith(f" {et.shown(item.answer_text)} "), (n, item.prompt, row[:40])
            for given, mistake in traps(item):
                assert given in row.split(mistake_label(mistake))[0], (item.prompt, given)
    with speaking("es"):
        spanish = _plain(kit.problem_set_key_sheet())
    assert "Series de problemas: clave de respuestas (para el docente)" in spanish
    assert "Calcula: +5 + (-8) = ? -3" in spanish
    assert "9. Problem sets of lessons 1, 2, 3, 4, 5, 6" in kit.kit_contents()


def test_the_key_is_a_teachers_part(monkeypatch: pytest.MonkeyPatch) -> None:
    """Locked, the part holds one line and no answer; open, it is the key sheet."""
    from widgets.lessons import teacher_parts as tp

    monkeypatch.setattr(tp._Page, "unlocked", False)
    monkeypatch.setattr(tp._Page, "parts", [])
    part = tp.teacher_part("problem-set-key")
    assert part.content is None and "The problem sets with their answers" in \
        part.children[0].value
    tp.open_without_key()
    assert "Problem sets: answer key (for the teacher)" in html_module.unescape(
        part.content.value)


def test_the_public_site_leaves_the_key_out(tmp_path: Path) -> None:
    """The static site's public build keeps every lesson's set and drops the kit's key cell
    (a key in a static page is no secret); a teacher's build opens it with no key."""
    spec = importlib.util.spec_from_file_location("build_site", ROOT / "tools" / "build_site.py")
    build_site = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build_site)
    for teacher in (False, True):
        src = tmp_path / ("teacher" if teacher else "public")
        build_site.notebooks(src, teacher)
        for folder in ("", "es/"):
            kit_code = [c.source for c in nbformat.read(
                src / "files" / f"{folder}printable_kit.ipynb", as_version=4).cells
                if c.cell_type == "code"]
            keys = [c for c in kit_code if '"problem-set-key"' in c]
            assert len(keys) == teacher
            for lesson in course.student_lessons():
                nb = nbformat.read(src / "files" / f"{folder}{lesson.file}", as_version=4)
                assert any(f"ProblemSet(lesson={lesson.number})" in c.source for c in nb.cells)


# ----- the words ---------------------------------------------------------------------------
def test_every_word_of_the_sets_is_in_spanish() -> None:
    """Every sentence marked in the problem sets' module has its Spanish; the set, its
    questions and its key speak Spanish."""
    with (ROOT / "widgets" / "locale" / "es" / "LC_MESSAGES" / "icg.po").open("rb") as f:
        po = {m.id: m.string for m in read_po(f) if m.id}
    marked = [msg for _l, msg, _c, _x in extract_from_file(
        "python", ROOT / "widgets" / "lessons" / "problem_set.py",
        keywords={"_": None, "N_": None})]
    assert len(marked) > 30
    assert all(po.get(m) for m in marked), [m for m in marked if not po.get(m)]
    for msgid in ("problem set", "problem set, lesson {lesson} (out of {n})",
                  "The problem sets with their answers",
                  "Problem sets: answer key (for the teacher)"):
        assert po.get(msgid), msgid
    t = ProblemSet(lesson=4, lang="es")
    assert t.start_button.description == "Empezar la serie de problemas"
    assert "Serie de problemas, lección 4:" in t.header.value and "7 preguntas" in t.header.value
    t.check_typed()
    assert "Pulsa primero Empezar la serie de problemas." in t.status.value
    with speaking("es"):
        prompts = [et.shown(i.prompt) for i in ps.set_items(4)]
        choices = [et.shown(c) for c in ps.set_items(3)[4].choices]
    assert prompts[0] == "Calcula: -6 - (-4) = ?"
    assert prompts[3].startswith("En total tienes -4 dólares") and "deuda" in prompts[3]
    assert "termómetro" in prompts[4] and "final menos inicio" in prompts[4]
    assert choices == ["Dee", "Eli", "Empatan"]
    with speaking("es"):
        plan = course.lesson_plan_text("es")
    assert plan.count("la serie de problemas de la lección, unos 15 minutos") == len(LESSONS)


def test_every_plan_gives_the_set_as_homework_with_its_minutes() -> None:
    plan = course.lesson_plan_text("en")
    assert plan.count(f"the lesson's problem set, about {course.PROBLEM_SET} minutes") == \
        len(LESSONS)
    for lesson in course.student_lessons():  # homework: not in the periods' minutes
        assert sum(m for _s, m in lesson.plan) == lesson.minutes


# ----- the lesson pages ------------------------------------------------------------------------
PAGES = [f"{course.FOLDERS[code]}/{lesson.file}".lstrip("/")
         for code in course.LANGUAGES for lesson in course.student_lessons()]
HEADINGS = {"en": "## Problem set\n", "es": "## Serie de problemas\n"}
BUTTONS = {"en": "**Start the problem set**", "es": "**Empezar la serie de problemas**"}


@pytest.mark.parametrize("page", PAGES)
def test_every_lesson_page_ends_with_its_set_before_its_links(page: str) -> None:
    """The set is the last section of each lesson's page, in every language: a heading, a
    short Markdown that says it is homework, names its button and its code, and a cell of two
    lines that shows the lesson's set."""
    nb = nbformat.read(course.LESSONS_DIR / page, as_version=4)
    lang = nb.metadata.get("icg", {}).get("lang", "en")
    number = course.by_file(Path(page).name).number
    intro, cell, nav = nb.cells[-3:]
    assert "lesson_nav(" in nav.source
    assert intro.cell_type == "markdown" and intro.source.startswith(HEADINGS[lang])
    assert BUTTONS[lang] in intro.source and f"P{number}-RRXRRRR" in intro.source
    assert ("Homework" if lang == "en" else "Tarea") in intro.source
    assert len(re.findall(r"\w+", intro.source)) <= 130, "keep the introduction short"
    assert [ln for ln in cell.source.splitlines() if ln.strip()] == [
        "from widgets.lessons.problem_set import ProblemSet", f"ProblemSet(lesson={number})"]
    assert cell.outputs == [] and cell.execution_count is None
    assert sum("ProblemSet(" in c.source for c in nb.cells) == 1


@pytest.mark.parametrize("folder", ["", "es/"])
def test_the_kit_page_holds_the_sets_key_behind_the_teachers_key(folder: str) -> None:
    nb = nbformat.read(course.LESSONS_DIR / f"{folder}printable_kit.ipynb", as_version=4)
    code = [c.source for c in nb.cells if c.cell_type == "code"]
    unit = next(i for i, c in enumerate(code) if '"unit-check-key", key_box=True' in c)
    assert code[unit + 1].splitlines()[-1] == 'teacher_part("problem-set-key")'
