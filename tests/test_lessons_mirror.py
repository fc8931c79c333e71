"""Every translated lesson mirrors its English twin: the same cells in the same order, the same
code (so the same widgets, tables, exit tickets and checked outputs), the same questions with
answers, links to the same pages and the same numbers in every text cell.

A translation changes the words only. A button label that a lesson passes to `deal_later` is
words, so it may differ; nothing else in a code cell may. The language's own first cell (it
sets the kernel's language) is checked by tests/test_lessons_meta.py (`load`)."""

from __future__ import annotations

import re

import pytest
from test_lessons_meta import LESSONS_DIR, NAMES, TRANSLATED, lang_of, load

from widgets.lessons import course

PAIRS = [(code, name) for code in TRANSLATED for name in NAMES]
LABEL = re.compile(r'(deal_later\(\w+, )"[^"]*"')
LINK = re.compile(r"\]\(([^)\s]+)\)")
# Numbers as they are written in both languages: signed numbers (a sign after a space or a
# bracket: "grade 6-7" is two numbers), digits (1,000 and 1 000 give the same runs of digits),
# absolute-value bars; card faces such as 7♥ keep their suit.
NUMBER = re.compile(r"(?:(?<=[\s(|\[=,:;/`*¿¡«'\"])|^)[+\-]\d+|\d+[♠♥♦♣]?|\|", re.MULTILINE)
HEADING = re.compile(r"^(#+) ", re.MULTILINE)
QUESTION = re.compile(r"^\s*\d+\. ", re.MULTILINE)


def code(source: str) -> str:
    return LABEL.sub(r'\1"…"', source)


@pytest.mark.parametrize(("lang", "name"), PAIRS, ids=[f"{c}-{n}" for c, n in PAIRS])
def test_translation_mirrors_the_english_lesson(lang: str, name: str) -> None:
    english = load(name)
    translated = load(f"{course.FOLDERS[lang]}/{name}")
    assert lang_of(translated) == lang
    assert [c.cell_type for c in translated.cells] == [c.cell_type for c in english.cells], \
        "the same cells in the same order"
    assert [c.metadata.get("tags", []) for c in translated.cells] == \
        [c.metadata.get("tags", []) for c in english.cells], "the same tags (teacher-only parts)"
    for i, (en, tr) in enumerate(zip(english.cells, translated.cells, strict=True)):
        where = f"{name} cell {i}"
        if en.cell_type == "code":
            assert code(tr.source) == code(en.source), f"{where}: the code differs"
            continue
        assert HEADING.findall(tr.source) == HEADING.findall(en.source), \
            f"{where}: the same headings at the same levels"
        for tag in ("<details>", "</details>", "<summary>"):
            assert tr.source.count(tag) == en.source.count(tag), f"{where}: {tag}"
        assert len(QUESTION.findall(tr.source)) == len(QUESTION.findall(en.source)), \
            f"{where}: the same numbered questions and steps"
        assert LINK.findall(tr.source) == LINK.findall(en.source), f"{where}: the same links"
        assert sorted(NUMBER.findall(tr.source)) == sorted(NUMBER.findall(en.source)), \
            f"{where}: the same numbers ({sorted(NUMBER.findall(tr.source))} against " \
            f"{sorted(NUMBER.findall(en.source))})"
    for link in {m for c in translated.cells if c.cell_type == "markdown"
                 for m in LINK.findall(c.source)}:
        if not re.match(r"https?:|#", link):  # a page of the same language (not an anchor)
            assert (LESSONS_DIR / course.FOLDERS[lang] / link).exists(), link


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_answer_key_of_a_language_reads_its_own_lessons(lang: str) -> None:
    """The teacher guide's key in Spanish lists the Spanish questions, as many as in English."""
    for lesson in course.student_lessons(lang):
        here = course.lesson_questions(course.folder(lang) / lesson.file)
        there = course.lesson_questions(course.folder("en") / lesson.file)
        assert len(here) == len(there) > 0, lesson.file
    key = course.full_answer_key(lang=lang).data
    first = course.lesson_questions(course.folder(lang) / "02_absolute_value.ipynb")[0][1]
    assert first in key
    assert course.lesson_questions(course.folder("en") / "02_absolute_value.ipynb")[0][1] \
        not in key


BOLD = re.compile(r"\*\*([^*\n]+?)\*\*")


def catalogue(lang: str) -> dict[str, str]:
    """msgid -> msgstr of a language's catalogue (the translated, non-plural entries)."""
    from babel.messages.pofile import read_po

    path = course.LESSONS_DIR.parent / "widgets" / "locale" / lang / "LC_MESSAGES" / "icg.po"
    with path.open("rb") as f:
        return {m.id: m.string for m in read_po(f) if isinstance(m.id, str) and m.id
                and isinstance(m.string, str) and m.string}


@pytest.mark.parametrize(("lang", "name"), PAIRS, ids=[f"{c}-{n}" for c, n in PAIRS])
def test_a_lesson_names_the_buttons_as_the_page_shows_them(lang: str, name: str) -> None:
    """A button or box the English lesson names in bold (**Check**, **Hold**) is named in the
    translation as the catalogue translates it, so the student finds it on the page."""
    words = catalogue(lang)
    english = load(name)
    translated = load(f"{course.FOLDERS[lang]}/{name}")
    missing = []
    for en, tr in zip(english.cells, translated.cells, strict=True):
        if en.cell_type != "markdown":
            continue
        for term in BOLD.findall(en.source):
            shown = words.get(term) or words.get(term + ":", "").rstrip(":")
            if shown and f"**{shown}**" not in tr.source:
                missing.append(f"**{term}** -> **{shown}**")
    assert missing == [], f"{name}: {missing}"


def test_the_lesson_list_speaks_every_language() -> None:
    """Every translated lesson entry has every field that is words; the pseudo-language (the
    tests' qps) marks every title, summary and link word, so a pseudo-locale run of the lesson
    pages finds no unmarked English in the lists and links course.py makes."""
    for code in TRANSLATED:
        for lesson in course.lessons(code):
            english = course.by_file(lesson.file, "en")
            for field in course.TEXT_FIELDS:
                assert bool(getattr(lesson, field)) == bool(getattr(english, field)), \
                    (code, lesson.file, field)
                if getattr(english, field) and field != "title":  # "Hit Me" stays a name
                    assert getattr(lesson, field) != getattr(english, field), \
                        (code, lesson.file, field)
    links = course.lesson_links("qps").data
    texts = re.findall(r">([^<>]+)<", links.split("</style>", 1)[1])
    assert texts and all(t.startswith("\u27e6") or re.fullmatch(r"[\d. ]*\u27e6.*", t)
                         for t in texts if t.strip()), texts
    nav = course.lesson_nav_html("03_hit_me.ipynb", "qps")
    shown = re.findall(r">([^<>]+)</a>", nav)
    assert len(shown) == 2 and all(t.startswith("\u27e6") for t in shown), shown
    assert course.by_file("04_taking_a_card_away.ipynb", "qps").title in shown[0]
