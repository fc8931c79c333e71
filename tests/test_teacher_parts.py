"""Answers for the teacher only: the teacher guide's answers open with the teacher's key.

The guide's code cells run as its page's kernel runs them. Locked, nothing any widget of the
page syncs holds an answer-key string (the exit tickets' key, the answers of every lesson
question, the teacher-only notes); with the key typed once in the page's one key box (sent as
the page sends it, through the comm) every teacher part opens and every one of those strings is
there (the positive control: the strings are searched in the form the page carries them).
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from test_teacher_key import KEY, run_cells, wait_for_next_try
from widget_helpers import synced_text

from widgets.lessons import course
from widgets.lessons import teacher_parts as tp
from widgets.page import teacher_key as tk
from widgets.words import set_language

ROOT = Path(__file__).resolve().parent.parent
GUIDES = {"en": ROOT / "lessons" / "teacher_guide.ipynb",
          "es": ROOT / "lessons" / "es" / "teacher_guide.ipynb"}


def page_text(shown: list) -> str:
    """What the page holds, as a student would search it: synced state, HTML entities and
    JSON escapes undone, spaces made single."""
    out = []
    for w in shown:
        if hasattr(w, "get_state"):
            for line in synced_text(w).splitlines():
                out.extend(strings(json.loads(line)))
    return " ".join(" ".join(html.unescape(s).split()) for s in out)


def strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in strings(v)]
    if isinstance(value, list | tuple):
        return [s for v in value for s in strings(v)]
    return []


def plain(text: str) -> str:
    """HTML as text (the notes are Markdown rendered to HTML)."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", text)).split())


@pytest.fixture()
def guide_page(request: pytest.FixtureRequest, server_key: str) -> list:  # noqa: F811
    lang = request.param
    try:
        yield lang, run_cells(GUIDES[lang])
    finally:
        set_language("en")


@pytest.mark.parametrize("guide_page", ["en", "es"], indirect=True)
def test_the_guides_answers_open_with_the_key_only(guide_page: tuple) -> None:
    lang, shown = guide_page
    wanted = tp.answer_strings(lang)
    assert all(len(v) >= 20 for v in wanted.values()), {k: len(v) for k, v in wanted.items()}
    gates = [w for w in shown if isinstance(w, tk.TeacherGate)]
    parts = [w for w in shown if isinstance(w, tp.TeacherPart)]
    assert len(gates) == 1 and len(parts) == 4  # one key box; four parts wait for it
    locked = page_text(shown) + " " + plain(page_text(shown))
    for kind, found in wanted.items():
        leaked = [s for s in found if s in locked]
        assert leaked == [], f"{kind} on the locked page: {leaked[:3]}"
    assert all(p.content is None for p in parts)
    wait_for_next_try()
    gate = gates[0]
    gate.password.set_state({"value": "not-the-key"})
    gate.unlock_button._handle_custom_msg({"event": "click"}, [])
    assert gate.table is None and all(p.content is None for p in parts)
    wait_for_next_try()
    gate.password.set_state({"value": KEY})
    gate.unlock_button._handle_custom_msg({"event": "click"}, [])
    assert gate.table is not None and all(p.content is not None for p in parts)
    opened = page_text(shown)
    opened += " " + plain(opened)
    for kind, found in wanted.items():
        missing = [s for s in found if s not in opened]
        assert missing == [], f"{kind} not shown with the key: {missing[:3]}"
    assert KEY not in opened


def test_every_teacher_only_cell_has_its_part_in_both_languages() -> None:
    for lang, path in GUIDES.items():
        nb = json.loads(path.read_text(encoding="utf-8"))
        tags = [t for c in nb["cells"] for t in c["metadata"].get("tags", [])
                if t.startswith(tp.TAG)]
        assert tags == ["teacher-only:discussion", "teacher-only:activities"], lang
        code = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")
        for tag in tags:
            assert f'teacher_notes("teacher_guide.ipynb", "{tag.split(":")[1]}")' in code
        assert "teacher_only(" not in code  # the page's one key box opens the parts too
    assert tp.notes_source("teacher_guide.ipynb", "discussion", "es") != \
        tp.notes_source("teacher_guide.ipynb", "discussion", "en")


def test_a_part_made_after_the_page_is_unlocked_opens_at_once(server_key: str) -> None:  # noqa: F811
    from widgets import HitMeTable

    wait_for_next_try()
    gate = tp.teacher_page(HitMeTable, players=2, seed=3, walkthrough=True)
    before = tp.teacher_part("exit-ticket-key")
    assert before.content is None
    gate.password.value = KEY
    assert gate.unlock()
    assert before.content is not None
    after = tp.teacher_notes("teacher_guide.ipynb", "activities")
    assert after.content is not None and course.by_file("02_absolute_value.ipynb")
    assert "explorer" in after.content.value
    gate2 = tp.teacher_page(HitMeTable, players=2, seed=3, walkthrough=True)
    assert gate2.table is None and tp.teacher_part("answer-key").content is None


def test_a_wrong_part_name_fails_when_the_cell_runs() -> None:
    with pytest.raises(ValueError, match="not one of"):
        tp.teacher_part("answers")
    with pytest.raises(ValueError, match="no Markdown cell"):
        tp.teacher_notes("teacher_guide.ipynb", "nothing")


def test_fragments_survive_markup() -> None:
    text = "**Lesson 1.** (1) For example 3♠, 4♠, 7♥: +3 + (+4) + (-7) = 0 and <b>more</b>"
    assert tp.fragments(text) == ["For example 3♠, 4♠, 7♥: +3 +"]
