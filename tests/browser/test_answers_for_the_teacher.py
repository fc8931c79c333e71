"""Answers for the teacher only, searched in a real browser on a real Voila with a teacher's key.

A curious student opens the teacher guide without the key, and every lesson, and searches what
the page holds (the served HTML, the DOM, every widget model's state and every websocket frame
received) for every answer-key string of the guide (widgets.lessons.teacher_parts.answer_strings:
each
line of the exit tickets' key, the answers of every lesson question, the teacher-only notes).
None is there. The positive control: on the guide, with the teacher's key typed once, every one
of those strings is found by the same search (so the search can see them).

Every other page, in both languages, is searched the same way while it is open for its other
checks (test_lesson_pages.py: `answer_key_strings_on`). A lesson shows its own questions'
answers under "Answer" on purpose (the students check themselves): on a lesson page the strings
its own Markdown holds are not searched for; every other string is.
"""

from __future__ import annotations

import html
import json
import re
from typing import Any

import pytest
from conftest import KEY, unlock_teacher

from widgets.lessons import course
from widgets.lessons.teacher_parts import answer_strings

JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
TAGS = re.compile(r"<[^>]+>")
UNLOCK = {"en": "Unlock the teacher's controls", "es": "Desbloquear los controles del docente"}


def _flat(text: str) -> str:
    return " ".join(text.split())


def _as_read(markup: str) -> list[str]:
    """HTML as a student searches it: entities undone, with and without its tags."""
    text = html.unescape(markup)
    return [_flat(text), _flat(html.unescape(TAGS.sub(" ", markup)))]


def page_corpus(vp: Any) -> str:
    """Everything the page received, made searchable: the HTML (served and in the DOM), and
    every JSON string in the widget state and the websocket frames, decoded."""
    out = _as_read(vp.raw_html()) + _as_read(vp.page.content())
    for blob in [*vp.widget_states(), *vp.frames]:
        for literal in JSON_STRING.findall(blob):
            try:
                value = json.loads(literal)
            except ValueError:
                continue
            if len(value) >= 10:
                out += _as_read(value)
    return "\n".join(out)


def every_string(lang: str) -> list[str]:
    return [s for found in answer_strings(lang).values() for s in found]


def own_text(lesson: str, lang: str) -> str:
    """The Markdown of a lesson (what it shows on purpose), spaces made single."""
    nb = json.loads((course.folder(lang) / lesson).read_text(encoding="utf-8"))
    return _flat(" ".join("".join(c["source"]) for c in nb["cells"]
                          if c["cell_type"] == "markdown"))


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_guide_holds_no_answer_until_the_key_is_typed(
        lang: str, keyed_server: Any, open_page: Any) -> None:
    wanted = every_string(lang)
    assert len(wanted) > 100
    vp = open_page(f"guide-answers-{lang}")
    prefix = "" if lang == "en" else f"{course.FOLDERS[lang]}/"
    vp.open(keyed_server.page_url(f"{prefix}teacher_guide.ipynb"))
    locked = page_corpus(vp)
    assert [s for s in wanted if s in locked] == []
    # the positive control: the key typed once opens every answer of the page
    unlock_teacher(vp, KEY, UNLOCK[lang])
    vp.page.locator(".icg-answer-key").first.wait_for(timeout=60_000)
    vp.page.locator(".icg-answer-text").first.wait_for(timeout=30_000)
    vp.wait_synced()
    opened = page_corpus(vp)
    missing = [s for s in wanted if s not in opened]
    assert missing == [], f"{len(missing)} of {len(wanted)} not found with the key: {missing[:3]}"
    assert vp.problems() == []


def answer_key_strings_on(vp: Any, lesson: str, lang: str) -> list[str]:
    """The answer-key strings a student's open lesson page holds (none, when all is well)."""
    mine = own_text(lesson, lang)
    wanted = [s for s in every_string(lang) if s not in mine]
    assert len(wanted) > 100
    corpus = page_corpus(vp)
    return [s for s in wanted if s in corpus]


def test_the_guide_notebook_itself_is_not_served(keyed_server: Any, open_page: Any) -> None:
    """The hidden cells' text is in the notebook file: no URL of the server hands it out."""
    vp = open_page("guide-file")
    wanted = every_string("en")
    for path in ("voila/files/teacher_guide.ipynb", "files/teacher_guide.ipynb",
                 "api/contents/teacher_guide.ipynb", "voila/files/es/teacher_guide.ipynb",
                 "teacher_guide.ipynb"):
        response = vp.page.request.get(keyed_server.url + path)
        body = _flat(html.unescape(response.text()))
        assert [s for s in wanted if s in body] == [], (path, response.status)
