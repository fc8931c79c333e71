"""Answers for the teacher only: the parts of a page that open with the page's teacher's key.

The teacher guide is served to students like every lesson, and a curious student reads the
page's HTML, its widget state and its websocket frames. So the guide's answers (the discussion
answers, the exit-ticket key, the answer key of every question, the answers to the activities)
are not in the page until the teacher's key is typed:

    from widgets import HitMeTable
    from widgets.lessons.teacher_parts import teacher_page
    teacher_page(HitMeTable, players=3, seed=7, walkthrough=True)   # the page's one key box

    from widgets.lessons.teacher_parts import teacher_part
    teacher_part("exit-ticket-key")                                  # further down the page

    teacher_part("unit-check-key", key_box=True)    # a page with no other part: its own key box
    teacher_part("problem-set-key")                  # opens with that key box's key

`teacher_page` is `widgets.page.teacher_key.teacher_only` (a password box checked in the kernel)
whose unlocking also opens every `teacher_part` and `teacher_notes` of the page (a page has its
own kernel, so one key typed opens that page only). Until then a part is one line saying it is
for the teacher; what it holds is made only when it opens, so nothing of it is sent before.

`teacher_notes(page, part)` shows the Markdown cells of the notebook `page` (in the folder of
the language in use) tagged `teacher-only:<part>`. The classroom Voila template leaves those
cells out of the page; in JupyterLab they are ordinary cells a teacher edits.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from widgets.page.language import N_
from widgets.page.teacher_key import TeacherGate, teacher_only
from widgets.table.components import html_widget
from widgets.table.render import esc
from widgets.words import _

TAG = "teacher-only"
PAGE_LABEL = N_("Every hand shown, the computer players' reasons, one move at a time, any deal "
                "code, a deal replayed, and the answers on this page: these are for the "
                "teacher. Type the teacher's key to show them.")
LOCKED = N_("For the teacher: this part shows once the teacher's key is typed in the "
            "\u201cTeacher's controls\u201d box above.")
TITLES = {
    "exit-ticket-key": N_("The exit tickets with their answers"),
    "answer-key": N_("The answer key of every lesson"),
    "unit-check-key": N_("The unit checks with their answers"),
    "problem-set-key": N_("The problem sets with their answers"),
}
KEY_BOX = N_("{title}: for the teacher. Type the teacher's key to show it.")


class _Page:
    """The teacher's parts of this kernel's page and the key box that opens them."""

    gate: TeacherGate | None = None
    parts: list[TeacherPart] = []
    unlocked = False


def _gate_changed(change: dict[str, Any]) -> None:
    gate = change["owner"]
    if gate is _Page.gate and gate.table is not None and not _Page.unlocked:
        _Page.unlocked = True
        for part in list(_Page.parts):
            part.show_answers()


def teacher_page(make: Callable[..., widgets.Widget], label: str = "", *,
                 lang: str | None = None, **settings: Any) -> TeacherGate:
    """The page's key box: `teacher_only(make, ...)` that also opens the page's teacher parts
    (made before or after it) when the right key is typed."""
    gate = teacher_only(make, label or _(PAGE_LABEL), lang=lang, **settings)
    _Page.gate, _Page.unlocked = gate, False
    gate.observe(_gate_changed, names="children")
    return gate


class TeacherPart(widgets.VBox):
    """A line saying "for the teacher" until the page is unlocked; then what `make()` makes."""

    def __init__(self, make: Callable[[], widgets.Widget], title: str) -> None:
        self.make = make
        self.content: widgets.Widget | None = None
        note = html_widget(f'<div class="icg-title">{esc(title)}</div><div>{esc(_(LOCKED))}</div>')
        super().__init__([note], _dom_classes=("icg-root", "icg-teacher-part"))
        _Page.parts.append(self)
        if _Page.unlocked:
            self.show_answers()

    def show_answers(self) -> None:
        """Make the part and show it (the page's key was typed)."""
        if self.content is None:
            self.content = self.make()
            self.children = [self.content]


def _exit_ticket_key() -> widgets.Widget:
    from widgets.lessons.exit_ticket import answer_key

    # long questions wrap on a phone instead of widening the page
    return html_widget('<pre class="icg-answer-text" style="white-space: pre-wrap; '
                       f'overflow-wrap: anywhere">{esc(answer_key())}</pre>')


def _answer_key() -> widgets.Widget:
    from widgets.lessons.course import full_answer_key

    return html_widget(full_answer_key().data)


def _unit_check_key() -> widgets.Widget:
    from widgets.lessons.kit import unit_check_key

    return unit_check_key()


def _problem_set_key() -> widgets.Widget:
    from widgets.lessons.kit import problem_set_key

    return problem_set_key()


MAKERS: dict[str, Callable[[], widgets.Widget]] = {
    "exit-ticket-key": _exit_ticket_key,
    "answer-key": _answer_key,
    "unit-check-key": _unit_check_key,
    "problem-set-key": _problem_set_key,
}


def open_without_key() -> None:
    """Every teacher's part of this page shows at once, with no key: for the teacher's own copy
    of the static site (tools/build_site.py --teacher), where no key could be kept secret."""
    _Page.unlocked = True
    for part in list(_Page.parts):
        part.show_answers()


def teacher_part(name: str, *, key_box: bool = False) -> TeacherPart | TeacherGate:
    """One of the computed keys, for the teacher: "exit-ticket-key" (every exit ticket with its
    answers), "answer-key" (every answered question of every lesson, read from the lessons),
    "unit-check-key" (the unit checks with their answers and the mistakes their typical wrong
    answers show) or "problem-set-key" (the same for every lesson's problem set). `key_box`:
    on a page with no other key box (the printable kit), the part is its own: a key box whose
    key shows it (shown at once where the page is open without a key, `open_without_key`)."""
    if name not in MAKERS:
        raise ValueError(f"teacher_part({name!r}): not one of {sorted(MAKERS)}")
    if key_box and not _Page.unlocked:
        return teacher_page(MAKERS[name], esc(_(KEY_BOX).format(title=_(TITLES[name]))))
    return TeacherPart(MAKERS[name], _(TITLES[name]))


def notes_source(page: str, part: str, lang: str | None = None) -> list[str]:
    """The Markdown of the cells of the notebook `page` tagged `teacher-only:<part>`, in order
    (read as plain JSON from the folder of the language)."""
    from widgets.lessons.course import folder

    path = folder(lang) / page
    nb = json.loads(path.read_text(encoding="utf-8"))
    found = []
    for cell in nb.get("cells", []):
        if cell.get("cell_type") == "markdown" and f"{TAG}:{part}" in (
                cell.get("metadata", {}).get("tags") or []):
            source = cell.get("source", "")
            found.append("".join(source) if isinstance(source, list) else str(source))
    return found


def _markdown_html(sources: list[str]) -> str:
    from nbconvert.filters.markdown_mistune import markdown2html_mistune

    body = "".join(markdown2html_mistune(s) for s in sources)
    # the same look as the page's Markdown cells; dollar signs are money, not math
    return f'<div class="jp-RenderedHTMLCommon mathjax_ignore">{body}</div>'


def teacher_notes(page: str, part: str) -> TeacherPart:
    """The Markdown cells of `page` tagged `teacher-only:<part>`, for the teacher. Their text
    is read now (a missing part fails when the cell runs) but sent only once unlocked."""
    sources = notes_source(page, part)
    if not sources:
        raise ValueError(f"teacher_notes({page!r}, {part!r}): no Markdown cell of {page} is "
                         f"tagged {TAG}:{part}")
    headings = [m.group(1).strip() for s in sources
                for m in [re.search(r"^#+ (.+)$", s, re.MULTILINE)] if m]
    title = "; ".join(headings) or _("Answers for the teacher")
    return TeacherPart(lambda: html_widget(_markdown_html(sources)), title)


# ----- what a student's page must not hold (tests search pages for these) ----------------------
_MARKUP = re.compile(r"[*_`<>&\"'\\|#\[\]()]|\n\s*[-\d]+[.)]?\s|\s{2,}")
MIN_FRAGMENT = 24
_HEADING = re.compile(r"^#+ .*$", re.MULTILINE)
_ITALIC = re.compile(r"(?<!\*)\*(?!\*)[^*\n]+?\*(?!\*)")


def fragments(text: str) -> list[str]:
    """The pieces of `text` that survive any way a page can carry it (Markdown rendered to
    HTML, HTML escaped, JSON escaped): runs between markup characters, at least MIN_FRAGMENT
    characters long, whitespace made single spaces."""
    out = []
    for piece in _MARKUP.split(text):
        piece = " ".join(piece.split()).strip(" .,;:")
        if len(piece) >= MIN_FRAGMENT:
            out.append(piece)
    return out


def answer_strings(lang: str | None = None) -> dict[str, list[str]]:
    """Every answer-key string of the teacher guide, by where it comes from: the exit tickets'
    key (each question's line, "1. What is |-11|?  Answer: 11", spaces made single), the
    answers of every lesson question and the teacher-only notes (as `fragments`)."""
    from widgets.lessons.course import _speaking, folder, lesson_questions, student_lessons
    from widgets.lessons.exit_ticket import answer_key

    with _speaking(lang):
        ticket_lines = [line for line in answer_key().splitlines() if ". " in line]
        answers = [a for lesson in student_lessons(lang)
                   for _h, _q, a in lesson_questions(folder(lang) / lesson.file)]
    # not the questions (in italics) nor the headings (a locked part shows its title)
    notes = [_HEADING.sub(" ", _ITALIC.sub(" ", s)) for part in ("discussion", "activities")
             for s in notes_source("teacher_guide.ipynb", part, lang)]
    return {
        "exit-ticket-key": sorted({" ".join(line.split()) for line in ticket_lines}),
        "answer-key": sorted({f for a in answers for f in fragments(a)}),
        "notes": sorted({f for s in notes for f in fragments(s)}),
    }
