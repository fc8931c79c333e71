"""The lesson notebooks keep their shape: objectives first, a check last, thin code cells,
no stray outputs, credits, no external links except the credited reference, own words.

Every language: the English lessons (lessons/*.ipynb) and the Spanish ones (lessons/es/, the
same file names) pass the same checks, each in its own words (WORDS); a page is named by its
path in lessons/ ("02_absolute_value.ipynb", "es/02_absolute_value.ipynb"). A Spanish notebook
opens with the cell that sets the kernel's language and carries "icg": {"lang": "es"} in its
metadata; `load` checks that cell and hands the checks the lesson without it.

The notebooks are the lesson text (a teacher edits them in JupyterLab); the list of lessons
(files, titles, minutes, order) is widgets/lessons/course.py. Each structure check is a function of
a
notebook path, so that a test can run them all on an edited copy."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from widgets.lessons import course

ROOT = Path(__file__).resolve().parent.parent
LESSONS_DIR = ROOT / "lessons"
SEEDS_DIR = ROOT.parent / "shared" / "seeds"
NAMES = list(course.FILES)  # the English pages
TRANSLATED = [code for code in course.LANGUAGES if code != "en"]
# every page of every language, by its path in lessons/
PAGES = NAMES + [f"{course.FOLDERS[code]}/{f}" for code in TRANSLATED for f in course.FILES]
CHECK_MARK = "# NBVAL_CHECK_OUTPUT"
MAX_CODE_LINES = 8
LOGIC = re.compile(r"^\s*(def|class|for|while|if|elif|else|try|except|with|lambda)\b|\blambda\b")
URL = re.compile(r"https?://[^\s)>\]\"']+")
ALLOWED_HOSTS = {"denisegaskins.com", "127.0.0.1", "localhost"}
CREDITS = {  # notebook -> names that must appear in it
    "00_start_here.ipynb": ["Denise Gaskins", "Lisa in AZ", "Prealgebra & Geometry",
                            "Let's Play Math"],
    "03_hit_me.ipynb": ["Denise Gaskins", "Prealgebra & Geometry"],
    "05_flapjack.ipynb": ["Lisa in AZ", "Let's Play Math"],
    "teacher_guide.ipynb": ["Denise Gaskins", "Lisa in AZ"],
}


# The words a lesson's structure is recognised by, in each language.
WORDS: dict[str, dict] = {
    "en": {
        "objectives": "### Objectives", "time": r"\*\*Time:\*\* (\d+) minutes",
        "readiness": "## Check your readiness", "unit_end": "## End-of-unit check",
        "time_mark": "**Time:**", "check": "## Check", "exit": "## Exit ticket",
        "warm_up": "## Warm-up", "key_ideas": "## Key ideas", "talk": "## Talk about it",
        "contexts": ("°C", "thermometer", "sea level", "golf", "$", "money", "forecast", "floor",
                     "elevation"),
        "unanswered": "think about it",
        "needs_code": (),
        "practice": ("practice code", "Start this code", "New set"),
        "deal": ("deal code", "Settings", "Deal code"),
        "imprecise": r"\S*\b(?:bigger|smaller)\b\S*",
        "lessons_heading": "## The lessons",
        "guide_link": "[Teacher guide](teacher_guide.ipynb)",
        "grades": "grades", "next": "Next lesson: ", "back": "Back to start",
        "guide_topics": (
            "Running each lesson", "deal code", "Discussion questions", "Misconceptions",
            "Variations", "make serve", "docs/deploy.md",
            # a run-book
            "Setting up, from a fresh machine", "school network", "Answer key",
            "Answers to the activities and chart questions", "A class without devices",
            "Standards", "6.NS.5", "6.NS.6", "6.NS.7", "7.NS.1", "Exit tickets",
            "What to do with the results"),
        "plan": ("One 45-minute period", "periods of 25 minutes", "Minute by minute:", "Support:",
                 "Extension:",
                 "Standards:"),
    },
    "es": {
        "objectives": "### Objetivos", "time": r"\*\*Tiempo:\*\* (\d+) minutos",
        "readiness": "## Comprueba tu punto de partida", "unit_end": "## Prueba de fin de unidad",
        "time_mark": "**Tiempo:**", "check": "## Comprobación", "exit": "## Ticket de salida",
        "warm_up": "## Calentamiento", "key_ideas": "## Ideas clave", "talk": "## Hablemos",
        "contexts": ("°C", "termómetro", "nivel del mar", "golf", "$", "dinero", "pronóstico",
                     "piso",
                     "altitud"),
        "unanswered": "piensa en ello",
        "needs_code": (r"ejecuta (la|esta|esa) celda|vuelve a ejecutar|cambia el código|"
                       r"edita el código|en el código"),
        "practice": ("código de práctica", "Empezar este código", "Nueva serie"),
        "deal": ("código de reparto", "Ajustes", "Código de reparto"),
        "imprecise": r"\S*\b(?:más grande|más pequeñ[oa]s?)\b\S*",
        "lessons_heading": "## Las lecciones",
        "guide_link": "[Guía docente](teacher_guide.ipynb)",
        "grades": "grado", "next": "Siguiente lección: ", "back": "Volver al inicio",
        "guide_topics": (
            "Cómo dar cada lección", "código de reparto", "Preguntas para conversar",
            "Ideas erróneas", "Variantes", "make serve", "docs/deploy.md",
            "Instalación, desde una computadora nueva", "red de una escuela", "Clave de respuestas",
            "Respuestas de las actividades y de las preguntas sobre los gráficos",
            "Una clase sin dispositivos", "Estándares", "6.NS.5", "6.NS.6", "6.NS.7", "7.NS.1",
            "Tickets de salida", "Qué hacer con los resultados"),
        "plan": ("Una clase de 45 minutos", "clases de 25 minutos", "Minuto a minuto:", "Apoyo:",
                 "Ampliación:",
                 "Estándares:"),
    },
}
LANGUAGE_CELL = 'from widgets.words import set_language\n\nset_language("{code}")'


def lang_of(nb: nbformat.NotebookNode) -> str:
    return nb.metadata.get("icg", {}).get("lang", "en")


def page_name(name: str | Path) -> str:
    """The page's file name in widgets/lessons/course.py (the same in every language)."""
    return Path(name).name


def load(name: str | Path) -> nbformat.NotebookNode:
    """The notebook (an absolute path stays as it is); for a language other than English,
    without its first cell, which sets the kernel's language (checked here)."""
    nb = nbformat.read(LESSONS_DIR / name, as_version=4)
    code = lang_of(nb)
    if code != "en":
        first = nb.cells[0]
        assert first.cell_type == "code" and first.source == LANGUAGE_CELL.format(code=code), \
            f"{name}: the first cell must set the language: {first.source!r}"
        nb.cells = nb.cells[1:]
    return nb


def words(nb: nbformat.NotebookNode) -> dict:
    return WORDS[lang_of(nb)]


def markdown(nb: nbformat.NotebookNode) -> str:
    return "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")


UNIT_CHECK = 'UnitCheck("{which}")'  # a unit check's cell (widgets/lessons/unit_check.py)


def is_unit_check(cell: nbformat.NotebookNode, which: str) -> bool:
    return cell.cell_type == "code" and UNIT_CHECK.format(which=which) in cell.source


def is_problem_set(cell: nbformat.NotebookNode) -> bool:
    """A lesson's problem set (widgets/lessons/problem_set.py): the last section of its page."""
    return cell.cell_type == "code" and "ProblemSet(lesson=" in cell.source


def page_cells(nb: nbformat.NotebookNode) -> list:
    """The cells of a page without its closing "Next lesson / Back to start" cell
    (test_every_page_ends_with_its_links checks that one), nor a lesson's problem set before
    it, its heading and its cell (tests/test_problem_set.py checks them)."""
    cells = list(nb.cells)
    if cells and cells[-1].cell_type == "code" and "lesson_nav(" in cells[-1].source:
        cells = cells[:-1]
    if cells and is_problem_set(cells[-1]):
        cells = cells[:-2]
    return cells


def lesson_cells(nb: nbformat.NotebookNode) -> list:
    """The cells of the lesson proper: the page's cells (`page_cells`) without the end-of-unit
    check after the last lesson's exit ticket (test_the_unit_checks_open_and_close_the_unit
    checks it)."""
    cells = page_cells(nb)
    if cells and is_unit_check(cells[-1], "unit-check"):
        cells = cells[:-2]  # its heading and its cell
    return cells


def opening_cells(nb: nbformat.NotebookNode) -> list:
    """The cells after the objectives: without the readiness check that opens the first
    lesson (test_the_unit_checks_open_and_close_the_unit checks it)."""
    cells = list(nb.cells[1:])
    if len(cells) > 1 and is_unit_check(cells[1], "readiness"):
        cells = cells[2:]
    return cells


def is_checked(cell: nbformat.NotebookNode) -> bool:
    return cell.cell_type == "code" and cell.source.lstrip().startswith(CHECK_MARK)


def test_every_lesson_exists() -> None:
    assert sorted(p.name for p in LESSONS_DIR.glob("*.ipynb")) == sorted(NAMES)
    for code in TRANSLATED:
        there = sorted(p.name for p in (LESSONS_DIR / course.FOLDERS[code]).glob("*.ipynb"))
        assert there == sorted(NAMES), f"lessons/{course.FOLDERS[code]}/ in {code}: {there}"
    assert sorted(p.name for p in LESSONS_DIR.iterdir() if p.is_dir()
                  and not p.name.startswith(".")) == sorted(course.FOLDERS[c] for c in TRANSLATED)


HEADING_NUMBER = {"en": r"# Lesson (\d+): ", "es": r"# Lección (\d+): "}
FILE_NUMBER = re.compile(r"^(\d\d)_[a-z_]+\.ipynb$")


@pytest.mark.parametrize("name", PAGES)
def test_a_lessons_file_number_is_its_lesson_number(name: str) -> None:
    """A lesson's file starts with its number in the unit, and its heading says the same
    number ("# Lesson 4: ...", "# Lección 4: ..."); the start page is 00 and the pages that are
    not lessons carry no number, so no page shares a number with a lesson."""
    lesson = course.by_file(page_name(name))
    number = FILE_NUMBER.match(lesson.file)
    nb = load(name)
    title = nb.cells[0].source.splitlines()[0]
    stated = re.match(HEADING_NUMBER[lang_of(nb)], title)
    if lesson.role == "lesson":
        assert number and int(number.group(1)) == lesson.number, (name, lesson.number)
        assert stated and int(stated.group(1)) == lesson.number, (name, title)
    else:
        assert stated is None, (name, title)
        assert number is None if lesson.role != "start" else number.group(1) == "00", name


def test_the_lesson_numbers_run_from_one_in_file_order() -> None:
    numbers = [course.by_file(f).number for f in sorted(NAMES) if FILE_NUMBER.match(f)]
    assert [n for n in numbers if n] == list(range(1, len(course.student_lessons()) + 1))
    assert [lesson.file for lesson in course.student_lessons()] == sorted(
        f for f in NAMES if course.by_file(f).role == "lesson")


@pytest.mark.parametrize("name", PAGES)
def test_metadata(name: str) -> None:
    nb = load(name)
    nbformat.validate(nb)
    assert nb.metadata.get("title", "").strip(), "metadata.title is missing"
    assert nb.metadata["kernelspec"]["name"] == "python3"
    path = LESSONS_DIR / name
    if LESSONS_DIR in path.parents:  # an edited copy elsewhere keeps its own language
        folder = path.parent.relative_to(LESSONS_DIR).as_posix().strip(".")
        assert lang_of(nb) == course.language_of_folder(folder), \
            f"{name}: metadata icg.lang must be its folder's language"


@pytest.mark.parametrize("name", PAGES)
def test_objectives_open_and_check_closes(name: str | Path) -> None:
    nb = load(name)
    w = words(nb)
    first = nb.cells[0]
    assert first.cell_type == "markdown"
    assert first.source.startswith("# ")
    assert w["objectives"] in first.source and w["time_mark"] in first.source
    assert first.source.count("\n- ") >= 2, "list at least two objectives"
    if course.by_file(Path(name).name).role == "kit":
        return  # sheets to print: no check of its own (the exit tickets are in it)
    cells = lesson_cells(nb)
    headings = [i for i, c in enumerate(cells)
                if c.cell_type == "markdown" and w["check"] in c.source]
    assert headings, "no '## Check' section"
    closing = cells[headings[-1]:]
    assert len(closing) <= 6, "the check must come at the end"
    text = "".join(c.source for c in closing)
    assert "<details>" in text or "AbsoluteValuePractice" in text
    if "<details>" in text:
        assert text.count("<details>") == text.count("</details>") >= 3
    if course.by_file(Path(name).name).role == "lesson":
        _ends_with_an_exit_ticket(nb, course.by_file(Path(name).name).number)


def _ends_with_an_exit_ticket(nb: nbformat.NotebookNode, number: int) -> None:
    """A lesson's last cells: the '## Exit ticket' heading, then the ticket of that lesson."""
    heading, ticket = lesson_cells(nb)[-2:]
    assert heading.cell_type == "markdown" and heading.source.startswith(words(nb)["exit"])
    assert ticket.cell_type == "code"
    assert f"ExitTicket(lesson={number})" in ticket.source, ticket.source


STUDENT_PAGES = [p for p in PAGES if course.by_file(page_name(p)).role == "lesson"]


@pytest.mark.parametrize("name", STUDENT_PAGES)
def test_lesson_opens_with_a_warm_up_and_closes_with_key_ideas(name: str | Path) -> None:
    """A short warm-up in a real context right after the objectives, with answers; before the
    exit ticket, the key ideas and debrief questions that all have answers."""
    nb = load(name)
    w = words(nb)
    warm = opening_cells(nb)[0]
    assert warm.cell_type == "markdown" and warm.source.startswith(w["warm_up"]), warm.source
    assert any(c in warm.source for c in w["contexts"]), "a real context (temperature, money...)"
    assert warm.source.count("<details>") >= 1
    assert len(re.findall(r"\w+", warm.source)) <= 150, "keep the warm-up short"
    close = lesson_cells(nb)[-3]
    assert close.cell_type == "markdown" and close.source.startswith(w["key_ideas"])
    ideas = close.source.split(w["talk"])[0]
    assert ideas.count("\n- ") >= 3, "at least three key ideas"
    assert w["talk"] in close.source
    debrief = close.source.split(w["talk"])[1]
    questions = re.findall(r"^\d+\. ", debrief, flags=re.MULTILINE)
    assert len(questions) >= 2 and debrief.count("<details>") == len(questions), \
        "every debrief question has its answer"
    assert w["unanswered"] not in markdown(nb).lower(), "questions without answers"


# Instructions a student on a Voila page (no code shown, none to edit) cannot follow.
NEEDS_CODE = re.compile(
    r"run (the|this|that) cell|re-?run|seed\s*=|change the code|edit the code|in the code|"
    r"\b[A-Za-z_]+\([^)]*=[^)]*\)|jupyterlab|shift\s*\+\s*enter", re.IGNORECASE)


@pytest.mark.parametrize("name", [p for p in PAGES if course.by_file(page_name(p)).role != "guide"])
def test_no_student_instruction_needs_code(name: str | Path) -> None:
    nb = load(name)
    w = words(nb)
    text = markdown(nb)
    found = NEEDS_CODE.findall(text)
    assert not NEEDS_CODE.search(text), f"{name}: an instruction needs code: {found}"
    if w["needs_code"]:
        found = re.findall(w["needs_code"], text, flags=re.IGNORECASE)
        assert not found, f"{name}: an instruction needs code: {found}"
    practice, start, new = w["practice"]
    if practice in text.lower():  # promised: a box to type it in
        assert start in text and new in text
    deal, settings, box = w["deal"]
    if deal in text.lower():
        assert settings in text or box in text


@pytest.mark.parametrize("name", PAGES)
def test_code_cells_are_thin(name: str) -> None:
    for cell in load(name).cells:
        if cell.cell_type != "code":
            continue
        lines = [ln for ln in cell.source.splitlines() if ln.strip()]
        assert 1 <= len(lines) <= MAX_CODE_LINES, cell.source
        for ln in lines:
            assert not LOGIC.search(ln), f"logic in a lesson cell: {ln!r}"
            assert not ln.lstrip().startswith(("!", "%")), f"shell or magic: {ln!r}"
        assert any(ln.startswith(("from widgets", "from engine")) for ln in lines), cell.source


@pytest.mark.parametrize("name", PAGES)
def test_only_checked_cells_keep_outputs(name: str) -> None:
    nb = load(name)
    checked = [c for c in nb.cells if is_checked(c)]
    assert checked, "at least one checked cell (# NBVAL_CHECK_OUTPUT) per lesson"
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        if is_checked(cell):
            text = "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")
            assert text.strip(), "a checked cell needs its stored output"
            assert all(o.output_type == "stream" for o in cell.outputs)
        else:
            assert cell.outputs == [] and cell.execution_count is None, cell.source
    assert "widgets" not in nb.metadata, "widget state must not be committed"


@pytest.mark.parametrize("name", [p for p in PAGES if page_name(p) in CREDITS])
def test_credits(name: str) -> None:
    text = markdown(load(name))
    for who in CREDITS[page_name(name)]:
        assert who in text, f"{name} must credit {who}"


@pytest.mark.parametrize("name", PAGES)
def test_no_external_urls_except_credited_references(name: str) -> None:
    nb = load(name)
    for cell in nb.cells:
        for line in cell.source.splitlines():
            for url in URL.findall(line):
                assert cell.cell_type == "markdown", f"URL in a code cell: {url}"
                host = re.sub(r"^https?://", "", url).split("/")[0].split(":")[0]
                assert host in ALLOWED_HOSTS, f"external URL: {url}"
                if host == "denisegaskins.com":
                    assert "Let's Play Math" in line, "a reference link must carry its credit"


@pytest.mark.parametrize("name", [p for p in PAGES if page_name(p) != "00_start_here.ipynb"])
def test_every_page_ends_with_its_links(name: str) -> None:
    """Every page but the start page ends with 'Next lesson' (in the order of the unit) and
    'Back to start', made from widgets/lessons/course.py, so that the links cannot drift. The links
    are
    relative, so a Spanish page links Spanish pages (lessons/es/), with Spanish words."""
    nb = load(name)
    w, code, file = words(nb), lang_of(nb), page_name(name)
    last = nb.cells[-1]
    assert last.cell_type == "code" and f'lesson_nav("{file}")' in last.source, last.source
    assert [c for c in nb.cells if "lesson_nav(" in c.source] == [last]
    links = re.findall(r"href='([^']+)'>([^<]+)<", course.lesson_nav_html(file, code))
    assert links[-1] == ("00_start_here.ipynb", w["back"])
    order = [lesson.file for lesson in course.student_lessons(code)]
    if file in order[:-1]:
        nxt = course.by_file(order[order.index(file) + 1], code)
        assert links[0] == (nxt.file, f"{w['next']}{nxt.number}. {nxt.title}")
        assert (course.folder(code) / nxt.file).exists()
    else:
        assert len(links) == 1


START_PAGES = [p for p in PAGES if page_name(p) == "00_start_here.ipynb"]


@pytest.mark.parametrize("name", START_PAGES)
def test_start_page_puts_the_lessons_first(name: str) -> None:
    """The lesson links come right after the objectives; the teacher guide is a link."""
    nb = load(name)
    w = words(nb)
    assert nb.cells[1].source.startswith(w["lessons_heading"])
    assert w["guide_link"] in nb.cells[1].source
    assert "lesson_links()" in nb.cells[2].source


@pytest.mark.parametrize("name", START_PAGES)
def test_start_page_links_every_lesson_relatively(name: str) -> None:
    nb = load(name)
    code = lang_of(nb)
    sources = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    assert "lesson_links()" in sources and "course_plan()" in sources, (
        "read widgets/lessons/course.py")
    table = course.lesson_links(code).data
    links = re.findall(r"href='([^']+)'", table)
    assert links == [f for f in NAMES if f != "00_start_here.ipynb"]
    for link in links:
        assert not link.startswith(("/", "http")), f"links must be relative: {link}"
        assert (course.folder(code) / link).exists(), link
    titles = re.findall(r"href='[^']+'>([^<]+)<", table)
    assert titles == [course.display_name(lesson) for lesson in course.lessons(code)
                      if lesson.role != "start"]
    assert re.search(r"\d+ min", table), "say how long each lesson takes"
    assert words(nb)["grades"] in markdown(nb).lower(), "say who the lessons are for"


def test_the_plan_counts_real_periods() -> None:
    """Each lesson's plan adds up to its minutes and starts the devices; the periods counted
    are the ones the plans need (a lesson longer than a period takes two), and no period of
    a plan holds more than its minutes."""
    lessons = course.student_lessons()
    for lesson in lessons:
        assert sum(m for _step, m in lesson.plan) == lesson.minutes, lesson.file
        assert lesson.plan[0][0] == course.DEVICES
        for length in (course.PERIOD, course.SHORT_PERIOD):
            parts = course.period_parts(lesson, length)
            assert all(used <= length for _start, used in parts), (lesson.file, length, parts)
            assert sum(used for _start, used in parts) == \
                lesson.minutes + course.RECAP * (len(parts) - 1)
    # lesson 1 opens with the readiness check, lesson 6 closes with the end-of-unit check
    assert [course.periods(lesson) for lesson in lessons] == [2, 1, 1, 2, 2, 2]
    plan = course.course_plan()
    long = sum(course.periods(lesson) for lesson in lessons)
    short = sum(course.periods(lesson, course.SHORT_PERIOD) for lesson in lessons)
    assert f"{long} periods of {course.PERIOD} minutes" in plan
    assert f"{short} periods of {course.SHORT_PERIOD} minutes" in plan
    # lesson 2 stops at its practice, not after ten minutes
    two = course.by_file("02_absolute_value.ipynb")
    assert [used for _start, used in course.period_parts(two, course.SHORT_PERIOD)] == [22, 25]


@pytest.mark.parametrize("name", STUDENT_PAGES)
def test_lesson_time_and_plan_agree_with_the_list(name: str) -> None:
    """The time a lesson states is the one in widgets/lessons/course.py, and every heading of its
    plan
    is a heading of the English lesson; where a translation's plan stops is a heading of the
    translation (the same place among its headings)."""
    nb = load(name)
    lesson = course.by_file(Path(name).name, lang_of(nb))
    stated = re.search(words(nb)["time"], nb.cells[0].source)
    assert stated and int(stated.group(1)) == lesson.minutes, (
        f"{name}: the opening says {stated and stated.group(0)}, widgets/lessons/course.py says "
        f"{lesson.minutes} minutes")
    english = course.headings(course.by_file(Path(name).name, "en"))
    own = [h.strip() for h in re.findall(r"^##+ (.+)$", markdown(nb), flags=re.MULTILINE)]
    assert len(own) == len(english)
    for step, _minutes in lesson.plan:
        assert step == course.DEVICES or step in english, f"{name}: no heading {step!r}"
    text = course.lesson_plan_text(lang_of(nb))
    for start, _used in course.period_parts(lesson, course.SHORT_PERIOD)[1:]:
        assert f'"{own[english.index(lesson.plan[start][0])]}"' in text


@pytest.mark.parametrize("name", STUDENT_PAGES)
def test_the_unit_checks_open_and_close_the_unit(name: str) -> None:
    """The readiness check opens the first lesson, right after its objectives (a heading, a
    short introduction and the check: a cell of two lines); the end-of-unit check closes the
    last one, after its exit ticket and before its problem set and links. No other lesson
    holds either, and each plan gives them their minutes."""
    nb = load(name)
    w = words(nb)
    lesson = course.by_file(page_name(name), lang_of(nb))
    order = [les.file for les in course.student_lessons()]
    code_cells = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    cells = page_cells(nb)
    for which, heading, at, file, step in (
            ("readiness", w["readiness"], 1, order[0], "Check your readiness"),
            ("unit-check", w["unit_end"], -2, order[-1], "End-of-unit check")):
        steps = [s for s, _m in lesson.plan]
        if lesson.file != file:
            assert UNIT_CHECK.format(which=which) not in code_cells, (name, which)
            assert step not in steps
            continue
        intro, cell = cells[at], cells[at + 1]
        assert intro.cell_type == "markdown" and intro.source.startswith(heading + "\n"), \
            intro.source
        assert len(re.findall(r"\w+", intro.source)) <= 90, "keep the introduction short"
        assert is_unit_check(cell, which)
        assert [ln for ln in cell.source.splitlines() if ln.strip()] == [
            "from widgets.lessons.unit_check import UnitCheck", UNIT_CHECK.format(which=which)]
        assert dict(lesson.plan)[step] == course.UNIT_CHECK
    if lesson.file == order[-1]:
        assert "ExitTicket(lesson=" in cells[-3].source  # after the exit ticket


GUIDES = [p for p in PAGES if page_name(p) == "teacher_guide.ipynb"]


@pytest.mark.parametrize("name", GUIDES)
def test_teacher_guide_reads_the_lesson_list(name: str) -> None:
    nb = load(name)
    assert any("from widgets.lessons.course import" in c.source for c in nb.cells
               if c.cell_type == "code")
    assert "| 25 min |" not in markdown(nb), "lesson times belong in widgets/lessons/course.py"
    assert "](printable_kit.ipynb)" in markdown(nb), "the guide links the printable kit"


@pytest.mark.parametrize("name", GUIDES)
def test_teacher_guide_covers_the_brief(name: str) -> None:
    nb = load(name)
    w, code = words(nb), lang_of(nb)
    text = markdown(nb)
    for topic in w["guide_topics"]:
        assert topic in text, topic
    plan = course.lesson_plan_text(code)
    for piece in w["plan"]:
        assert piece in plan, piece
    for lesson in course.student_lessons(code):
        assert lesson.support and lesson.extension and lesson.standards, lesson.file


# A teacher never has to write code to get a result (editing a paragraph in JupyterLab is fine).
TEACHER_NEEDS_CODE = re.compile(
    r"run (the|this|that) cell|seed\s*=|change the code|edit the code|"
    r"\b[A-Za-z_]+\([^)]*=[^)]*\)", re.IGNORECASE)


@pytest.mark.parametrize("name", GUIDES)
def test_teacher_guide_asks_for_no_code(name: str) -> None:
    text = markdown(load(name))
    assert not TEACHER_NEEDS_CODE.search(text), TEACHER_NEEDS_CODE.findall(text)


def test_the_answer_key_has_every_answered_question(tmp_path: Path) -> None:
    """The guide's key is read from the lessons: every <details> answer of every lesson is in
    it, and an edited copy of a lesson shows in the key as edited."""
    for lesson in course.student_lessons():
        found = course.lesson_questions(LESSONS_DIR / lesson.file)
        assert len(found) == markdown(load(lesson.file)).count("<details>"), lesson.file
    html = course.full_answer_key().data
    assert "Taking a card away" in html and "Why does taking away a -3 card raise the sum?" in html
    for lesson in course.student_lessons():
        shutil.copy(LESSONS_DIR / lesson.file, tmp_path / lesson.file)
    copy = tmp_path / "02_absolute_value.ipynb"
    nb = nbformat.read(copy, as_version=4)
    check = next(c for c in nb.cells if "What is |-13|?" in c.source)
    check.source = check.source.replace("What is |-13|?", "What is |-21|?").replace(
        "   13\n", "   21\n")
    nbformat.write(nb, copy)
    edited = course.full_answer_key(tmp_path).data
    assert "What is |-21|?" in edited and "What is |-13|?" not in edited


@pytest.mark.parametrize("name", PAGES)
def test_precise_language(name: str) -> None:
    """'greater', 'less', 'closer to zero'; 'bigger'/'smaller' only quoted as words to avoid."""
    nb = load(name)
    text = markdown(nb)
    for word in re.findall(words(nb)["imprecise"], text, flags=re.IGNORECASE):
        assert word.startswith('"'), f"imprecise word in {name}: {word}"


BOOK_TITLE = re.compile(r"prealgebra\W+geometry\W+math games for middle school", re.IGNORECASE)


def _shingles(text: str, n: int = 8) -> set[tuple[str, ...]]:
    """Runs of n words; the book's title (a credit, not a sentence) is left out."""
    words = re.findall(r"[a-z0-9']+", BOOK_TITLE.sub(" ", text).lower())
    return {tuple(words[i:i + n]) for i in range(len(words) - n + 1)}


@pytest.mark.parametrize("name", PAGES)
def test_no_sentence_copied_from_the_seeds(name: str) -> None:
    # CI lays shared/ beside the clone; elsewhere (a fork without it) say so, but never on CI.
    if not SEEDS_DIR.is_dir():
        if os.environ.get("CI", "").lower() in {"1", "true", "yes"}:
            pytest.fail(f"seed texts missing at {SEEDS_DIR} (CI has shared/ beside the clone)")
        pytest.skip(f"seed texts not present at {SEEDS_DIR}")
    seeds = set()
    for path in SEEDS_DIR.glob("*.txt"):
        seeds |= _shingles(path.read_text(encoding="utf-8"))
    copied = _shingles(markdown(load(name))) & seeds
    assert not copied, f"words copied from a seed text: {sorted(copied)[:3]}"


# The checks that any lesson notebook must pass, whoever edited it.
STRUCTURE_CHECKS = [
    test_metadata, test_objectives_open_and_check_closes, test_code_cells_are_thin,
    test_only_checked_cells_keep_outputs, test_no_external_urls_except_credited_references,
    test_precise_language, test_no_student_instruction_needs_code,
]


def test_an_edited_copy_still_passes(tmp_path: Path) -> None:
    """A teacher edits a paragraph of a lesson (as JupyterLab saves it) and nothing breaks:
    there is no generator to disagree with the notebook."""
    copy = tmp_path / "02_absolute_value.ipynb"
    shutil.copy(LESSONS_DIR / copy.name, copy)
    nb = nbformat.read(copy, as_version=4)
    cell = next(c for c in nb.cells[1:] if c.cell_type == "markdown")
    cell.source += "\n\nIn our class we also use a thermometer: -5 degrees is 5 below zero."
    nbformat.write(nb, copy)
    for check in STRUCTURE_CHECKS:
        check(copy)
    if (LESSONS_DIR.parent / "tools" / "build_lessons.py").exists():
        pytest.fail("tools/build_lessons.py would overwrite the teacher's edit")


def test_refresh_outputs_tidies_a_saved_notebook(tmp_path: Path) -> None:
    """JupyterLab saves outputs, counts and widget state; the refresh script's tidy step
    removes them and keeps only the checked output."""
    sys.path.insert(0, str(LESSONS_DIR.parent / "tools"))
    try:
        import refresh_outputs
    finally:
        sys.path.pop(0)
    nb = load("00_start_here.ipynb")
    for cell in nb.cells:
        if cell.cell_type == "code" and not is_checked(cell):
            cell.outputs = [nbformat.v4.new_output("display_data", data={"text/html": "<b>x</b>"})]
            cell.execution_count = 3
    nb.metadata["widgets"] = {"state": {}}
    refresh_outputs.tidy(nb)
    path = tmp_path / "00_start_here.ipynb"
    nbformat.write(nb, path)
    test_only_checked_cells_keep_outputs(path)


def test_refresh_outputs_check_passes_on_the_start_page() -> None:
    """The stored output of the start page is what its code prints today."""
    result = subprocess.run(
        [sys.executable, str(LESSONS_DIR.parent / "tools" / "refresh_outputs.py"), "--check",
         "00_start_here.ipynb"], capture_output=True, text=True, cwd=LESSONS_DIR.parent,
        timeout=180)
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_table_files_its_checks_under_the_lesson_of_its_page() -> None:
    """The lesson page gives its table what it reports to: `reporter` of its own page."""
    from widgets.lessons.course import by_file, lesson_number

    assert lesson_number("hit_me") == by_file("03_hit_me.ipynb").number == 3
    assert lesson_number("flapjack") == by_file("05_flapjack.ipynb").number == 5
    with pytest.raises(KeyError):
        lesson_number("teacher_guide")
    for folder in ("", "es/"):
        for file, page in (("03_hit_me.ipynb", "hit_me"), ("05_flapjack.ipynb", "flapjack")):
            nb = nbformat.read(LESSONS_DIR / f"{folder}{file}", as_version=4)
            code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
            tables = re.findall(r"(?:HitMeTable\(|deal_later\(FlapjackTable)[^)]*"
                                r"(?:\([^)]*\)[^)]*)*\)", code)
            reported = [t for t in tables if "HitMeTable" in t or "say_total=True" in t]
            assert reported, f"{folder}{file}"
            for t in reported:
                assert f'on_answer=reporter("{page}")' in t, f"{folder}{file}: {t}"


@pytest.mark.parametrize("name", GUIDES)
def test_the_run_sheet_says_make_class_throughout(name: str) -> None:
    """The day's run sheet starts the server for the class (`make class`) in every step; `make
    serve` appears once, as the command that lets only the teacher's computer in."""
    nb = load(name)
    sheet = next(re.split(r"## (?:Run sheet|Hoja de ruta)", c.source)[1] for c in nb.cells
                 if c.cell_type == "markdown"
                 and re.search(r"## (?:Run sheet|Hoja de ruta)", c.source))
    assert sheet.count("`make class`") >= 3 and sheet.count("`make serve`") == 1
    standards = markdown(nb)
    assert "7.NS.1a-d" in standards and ("integers only" in standards
                                         or "solo con enteros" in standards)


# the teacher wording of the mistakes a lesson's anticipated responses name (the class view's
# dashboard groups wrong answers by them)
def test_every_lesson_plan_has_its_facilitation() -> None:
    """Materials (devices first), anticipated responses by mistake name with what to ask, and
    language supports, for every lesson in every language; the guide prints them."""
    from engine.mistakes import MISTAKES
    from widgets.words import mistake_label, speaking

    for lang in ("en", *course.TRANSLATED):
        text = course.lesson_plan_text(lang)
        with speaking(lang):  # the dashboard's own names, quoted as the plans quote them
            labels = {m: mistake_label(m).strip('"«»') for m in MISTAKES}
        quoted = r'"([^"]+)"' if lang == "en" else r"«([^»]+)»"
        named = set()
        for lesson in course.student_lessons(lang):
            assert lesson.materials and "device" in course.by_file(lesson.file).materials
            assert lesson.anticipated and lesson.language_support, (lang, lesson.file)
            assert lesson.materials in text and lesson.anticipated in text
            names = re.findall(quoted, lesson.anticipated)
            assert names, (lang, lesson.file)
            # every name a plan quotes is one the dashboard shows the teacher
            assert set(names) <= set(labels.values()), (lang, lesson.file,
                                                        set(names) - set(labels.values()))
            named.update(names)
        assert len(named) >= 10, (lang, sorted(set(labels.values()) - named))


@pytest.mark.parametrize(("name", "rule", "opposite"), [
    ("04_taking_a_card_away.ipynb", "end minus start", "start minus end"),
    ("es/04_taking_a_card_away.ipynb", "final menos inicio", "inicio menos final")])
def test_lesson_4_writes_every_change_as_end_minus_start(name: str, rule: str,
                                                         opposite: str) -> None:
    """The warm-up's temperature change and the lesson after it: one way round, the one the
    change's sign tells (noon +3, midnight -5: -5 - (+3) = -8, it fell 8)."""
    text = markdown(nbformat.read(LESSONS_DIR / name, as_version=4))
    warm_up = text.split("\n## ", 2)[1]
    assert warm_up.startswith(("Warm-up", "Calentamiento"))
    assert rule in warm_up and text.count(rule) >= 2
    assert opposite not in text.lower()
