"""The teacher's dashboard of the class's answers, a part of the class view (classview.py).

Read from the class's store (rooms/answers.py), today's only:

- per student, the page they are on and when they were last active;
- the exit tickets by question: first answers, how many right, the class's share right, and
  per student a mark for each question;
- the unit's two checks (widgets/lessons/unit_check.py) side by side, skill by skill: each
  student's readiness check at the start of the unit and end-of-unit check, read from every
  day kept (the start is days before the end), and the class's share right at each;
- the wrong answers grouped by the mistake they show (engine/mistakes.py), each with the
  answers given (the lessons' problem sets, widgets/lessons/problem_set.py, too: there, in
  the most missed, the students' own numbers and the gradebook);
- a projector mode that hides every name (the shares and the mistakes stay, with no name);
- a CSV of the day's answers (a download link made in the kernel: nothing leaves the server),
  "Delete today's class data" (asked twice), and how many days answers are kept.

`summarise` and the `*_html` functions are pure (data in, HTML out); `AnswersPanel` is the
ipywidgets part.
"""

from __future__ import annotations

import base64
import csv
import html
import io
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import ipywidgets as widgets

from engine.games import GAMES
from engine.mistakes import MISTAKES, Shape
from engine.questions import (
    CHOICE_KINDS,
    MISTAKE_SKILL,
    MONEY_CHECK,
    SKILLS,
    SkillState,
    progress,
    skill_of,
    terms_of,
)
from rooms import StoreUnavailable
from rooms.answers import (
    MAX_KEEP_DAYS,
    Answer,
    AnswerRefused,
    ClassAnswers,
    Presence,
    csv_of,
    day_of,
    open_answers,
)
from rooms.names import name_key
from widgets.lessons.exit_ticket import ACTIVITY, TICKETS, Item, shown, with_numbers
from widgets.lessons.problem_set import CODE as SET_CODE
from widgets.lessons.problem_set import PROBLEM_SET, SETS, set_items
from widgets.lessons.unit_check import CHECKS, CODES, NAMES, SKILL_NAMES, check_items
from widgets.lessons.unit_check import SKILLS as CHECK_SKILLS
from widgets.table.components import MessageArea, html_widget, make_button, shared_layout
from widgets.table.games import game_title
from widgets.words import (
    N_,
    _,
    mistake_label,
    ngettext,
    question_text,
    room_error_text,
    signed,
    skill_name,
    status_name,
    time_ago,
)

log = logging.getLogger(__name__)

EXPIRE_EVERY = 600.0  # seconds between deletions of the days no longer kept


def question_words(a: Answer) -> str:
    """The question of an answer in the language spoken now, as the student read it: an exit
    ticket's words with the student's numbers, or the words made from a generated question's
    numbers."""
    item = asked_item(a)
    if item is not None:
        return shown(item.prompt)
    try:
        return question_text(a.kind, terms_of(a.terms))
    except (ValueError, IndexError):
        return ""


def given_words(a: Answer) -> str:
    """The answer given, as the reader reads it (a choice's words in the language spoken
    now)."""
    item = asked_item(a)
    if item is not None:
        return item.given_text(a.given)
    if a.kind in CHOICE_KINDS and a.given == "0":
        return _("the same")
    return a.given


def ticket_item(a: Answer) -> Item | None:
    """The exit-ticket (or unit check) item an answer is to, with the ticket's own numbers."""
    if not a.item.isdigit():
        return None
    if a.activity == ACTIVITY:
        items = TICKETS.get(a.lesson, ())
    elif a.activity in CHECKS:
        items = check_items(a.activity)
    elif a.activity == PROBLEM_SET and a.lesson in SETS:
        items = set_items(a.lesson)
    else:
        return None
    n = int(a.item)
    return items[n - 1] if 1 <= n <= len(items) else None


def own_numbers(a: Answer) -> bool:
    """An exit-ticket (or unit check) answer to the student's own numbers, not the
    ticket's."""
    return (a.activity in (ACTIVITY, *CHECKS, PROBLEM_SET) and bool(a.variant)
            and (a.kind != "ticket" or bool(a.terms)))


def question_label(a: Answer) -> str:
    """A ticket's question as the teacher's tables name it: 'L2.3' (lesson 2's exit ticket,
    question 3), 'START.3' and 'END.3' (the unit checks')."""
    if a.activity in CHECKS:
        return f"{CODES[a.activity]}.{a.item}"
    if a.activity == PROBLEM_SET:  # 'P3.2': lesson 3's problem set, question 2
        return f"{SET_CODE}{a.lesson}.{a.item}"
    return f"L{a.lesson}.{a.item}"


def asked_item(a: Answer) -> Item | None:
    """The exit-ticket item as the student saw it: with their numbers (`with_numbers`, the
    numbers the answer keeps), in the language spoken now; None for another answer, or
    numbers the item does not take."""
    item = ticket_item(a)
    if item is None or not own_numbers(a):
        return item
    try:
        return with_numbers(item, terms_of(a.terms))
    except ValueError:
        return None


def ticket_words(a: Answer) -> str:
    """An exit-ticket question's words as printed (the ticket's own numbers), said to be each
    student's own numbers when the answer's are."""
    item = ticket_item(a)
    if item is None:
        return question_words(a)
    if own_numbers(a):
        return _("{question} (each student has their own numbers)").format(
            question=shown(item.prompt))
    return shown(item.prompt)


@dataclass
class QuestionResult:
    """One exit-ticket question: the first answers to it and how many were right."""

    lesson: int
    question: str
    sample: Answer
    first: int = 0
    right: int = 0

    @property
    def prompt(self) -> str:
        """The question's words as printed (each student's own numbers: see `ticket_words`)."""
        return ticket_words(self.sample)

    @property
    def share(self) -> float | None:
        return self.right / self.first if self.first else None


@dataclass
class TableChecks:
    """One student's checks at one place of the lesson pages (a Hit Me table's end-of-round
    sum and |sum|, a Flapjack table's new totals, a lesson's own first-try check), in the shape
    of a room's announce checks (rooms.checks.CheckSummary) for the class view."""

    name: str
    shown: str = ""
    checks: int = 0
    first_try: int = 0
    misses: int = 0
    mistakes: tuple[tuple[str, int], ...] = ()


@dataclass
class Summary:
    """What the dashboard shows of a day's answers."""

    questions: list[QuestionResult] = field(default_factory=list)
    # per student (in the order first seen), their first answers: (lesson, question) -> right
    marks: dict[str, dict[tuple[int, str], bool]] = field(default_factory=dict)
    # mistake -> the wrong answers that show it, oldest first
    mistakes: dict[str, list[Answer]] = field(default_factory=dict)
    other_wrong: int = 0  # wrong answers that show none of the listed mistakes
    # per student and place, the checks of the lesson pages (tables and lessons' own)
    table_checks: list[TableChecks] = field(default_factory=list)
    # per student, the partners they answered with at one device (a pair)
    partners: dict[str, set[str]] = field(default_factory=dict)
    # per student (named), each skill's standing from their practice's first tries
    skills: dict[str, dict[str, SkillState]] = field(default_factory=dict)
    # (lesson, item) -> the wrong answers given to it (first tries), for "most missed"
    missed: dict[tuple[int, str], list[Answer]] = field(default_factory=dict)


def check_place(a: Answer) -> tuple[str, str] | None:
    """(where, which check) of a lesson page's check: a table's check is one round or move
    (the sum and |sum| asked together are one check; its item is '<game> <deal> <n> <part>'),
    a lesson's own check one question. None: not a check."""
    if a.activity != "check":
        return None
    game, _sep, rest = a.item.partition(" ")
    if game in GAMES and rest:
        where = _("{game}, lesson {lesson}").format(game=game_title(game), lesson=a.lesson)
        return where, a.item.rsplit(" ", 1)[0]
    if game == MONEY_CHECK and rest:
        return _("Money and debt, lesson {lesson}").format(lesson=a.lesson), a.item
    return _("Lesson {lesson}'s check").format(lesson=a.lesson), a.item


def lesson_checks(answers: Sequence[Answer]) -> list[TableChecks]:
    """Per student and place, their checks on lesson pages: how many, right at the first try,
    the tries that missed and the mistakes their first tries showed."""
    places: dict[tuple[str, str], dict[str, list[Answer]]] = {}
    for a in answers:
        place = check_place(a)
        if place is not None:
            places.setdefault((a.student, place[0]), {}).setdefault(place[1], []).append(a)
    out = []
    for (name, where), by_check in places.items():
        c = TableChecks(name, where)
        mistakes: dict[str, int] = {}
        for tries in by_check.values():
            first = [a for a in tries if a.first_try]
            c.checks += 1
            c.first_try += bool(first) and all(a.right for a in first)
            c.misses += len({a.at for a in tries if not a.right})
            for a in first:
                if a.mistake:
                    mistakes[a.mistake] = mistakes.get(a.mistake, 0) + 1
        c.mistakes = tuple(sorted(mistakes.items()))
        out.append(c)
    return out


def _question_order(q: str) -> tuple[int, str]:
    return (int(q), "") if q.isdigit() else (10**6, q)


def summarise(answers: Sequence[Answer], earlier: dict[str, list[tuple[str, str, bool]]]
              | None = None, today: str | None = None) -> Summary:
    """The exit tickets' first answers by question and by student, and every wrong answer
    (exit tickets, practice and checks) by the mistake it shows; each student's standing in
    each skill from their practice's first tries, the days before `today` (`earlier`:
    name -> [(day, item, right)], ClassAnswers.practice_firsts_before) and today's."""
    out = Summary()
    results: dict[tuple[int, str], QuestionResult] = {}
    for a in answers:
        if a.partner:
            out.partners.setdefault(a.student, set()).add(a.partner)
        if a.activity == "exit-ticket" and a.first_try:
            key = (a.lesson, a.item)
            r = results.setdefault(key, QuestionResult(a.lesson, a.item, a))
            if own_numbers(a):
                r.sample = a
            mine = out.marks.setdefault(a.student, {})
            if key not in mine:  # a student answers each question once (a retake: first one)
                mine[key] = a.right
                r.first += 1
                r.right += a.right
        if not a.right:
            if a.mistake in MISTAKES:
                out.mistakes.setdefault(a.mistake, []).append(a)
            else:
                out.other_wrong += 1
    out.table_checks = lesson_checks(answers)
    firsts: dict[str, list[tuple[str, str, bool]]] = {}
    named = {name_key(a.student): a.student for a in answers}  # today's name of each student
    for name, rows in (earlier or {}).items():
        mine = firsts.setdefault(named.get(name_key(name), name), [])
        mine += [(d, skill_of(item), right) for d, item, right in rows if skill_of(item)]
    for a in answers:
        if a.first_try and a.activity == "practice" and skill_of(a.item):
            firsts.setdefault(a.student, []).append((a.day, skill_of(a.item), a.right))
        if a.first_try and not a.right and a.activity == ACTIVITY:
            out.missed.setdefault((a.lesson, a.item), []).append(a)
        elif a.first_try and not a.right and a.activity in (*CHECKS, PROBLEM_SET):
            out.missed.setdefault((a.lesson, question_label(a)), []).append(a)
        elif a.first_try and not a.right and a.activity == "practice" and skill_of(a.item):
            out.missed.setdefault((a.lesson, skill_of(a.item)), []).append(a)
    today = today or (answers[-1].day if answers else "")
    out.skills = {name: progress(f, today) for name, f in firsts.items()}
    out.questions = sorted(results.values(),
                           key=lambda r: (r.lesson, _question_order(r.question)))
    return out




def page_name(lesson: int) -> str:
    """'2. Absolute value' for lesson 2, in the language spoken now."""
    from widgets.lessons.course import display_name, lessons
    from widgets.words import language

    lang = language() if language() in ("en", "es") else "en"
    for lesson_ in lessons(lang):
        if lesson_.role == "lesson" and lesson_.number == lesson:
            return display_name(lesson_)
        if lesson_.role == "practice" and lesson == 0:  # its answers are filed under 0
            return display_name(lesson_)
    return _("Lesson {lesson}").format(lesson=lesson)


def _table(cls: str, head: Sequence[str], rows: Sequence[Sequence[str]],
           row_attrs: Sequence[str] | None = None) -> str:
    out = [f"<table class='{cls}'><thead><tr>",
           *(f"<th scope='col'>{html.escape(h)}</th>" for h in head), "</tr></thead><tbody>"]
    for i, row in enumerate(rows):
        attrs = row_attrs[i] if row_attrs else ""
        out.append(f"<tr{attrs}>" + "".join(f"<td>{html.escape(c)}</td>" for c in row)
                   + "</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def students_html(presence: Sequence[Presence], now: float, hide_names: bool) -> str:
    """Per student: the page they are on and when they were last active (latest first)."""
    if not presence:
        return "<p>" + html.escape(_("No student has named themselves today yet: their name "
                                     "box is on every exit ticket and practice.")) + "</p>"
    if hide_names:
        return "<p role='status'>" + html.escape(_("{n} students today (names hidden).").format(
            n=len(presence))) + "</p>"
    rows = [[p.student, page_name(p.lesson), time_ago(max(0.0, now - p.at))] for p in presence]
    return _table("icg-class-students-table", [_("Student"), _("Page"), _("Last active")],
                  rows)


def with_partners(student: str, summary: Summary) -> str:
    """'Ana (with Ben)': a student who answered with a partner at one device."""
    partners = sorted(summary.partners.get(student, ()), key=str.casefold)
    if not partners:
        return student
    return _("{student} (with {partners})").format(student=student,
                                                   partners=", ".join(partners))


def _share(r: QuestionResult) -> str:
    return "\u2014" if r.share is None else f"{round(100 * r.share)}%"


def tickets_html(summary: Summary, hide_names: bool) -> str:
    """The exit tickets by question (first answers, right, the class's share), then a mark per
    student and question (left out when names are hidden)."""
    if not summary.questions:
        return "<p>" + html.escape(_("No exit-ticket answer yet today.")) + "</p>"
    rows = [[_("Lesson {lesson}").format(lesson=r.lesson), r.question, r.prompt, str(r.first),
             str(r.right), _share(r)] for r in summary.questions]
    out = _table("icg-class-questions-table",
                 [_("Lesson"), _("Question"), _("Words"), _("First answers"), _("Right"),
                  _("Share right")], rows)
    if hide_names:
        return out
    keys = [(r.lesson, r.question) for r in summary.questions]
    head = [_("Student")] + [f"L{lesson}.{q}" for lesson, q in keys]
    grid = []
    right, wrong = "\u2714 " + _("right answer"), "\u2717 " + _("wrong answer")
    for student in sorted(summary.marks, key=str.casefold):
        marks = summary.marks[student]
        grid.append([with_partners(student, summary)]
                    + ["" if k not in marks else right if marks[k] else wrong for k in keys])
    return out + _table("icg-class-marks-table", head, grid)


def mistakes_html(summary: Summary, hide_names: bool) -> str:
    """The wrong answers by the mistake they show, most frequent first."""
    if not summary.mistakes:
        text = _("No wrong answer shows one of the common mistakes yet.")
        if summary.other_wrong:
            text += " " + _("Other wrong answers: {n}.").format(n=summary.other_wrong)
        return "<p>" + html.escape(text) + "</p>"
    rows, attrs = [], []
    for mistake, wrong in sorted(summary.mistakes.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        shown = []
        for a in wrong:
            what = _("{question}: {given}").format(question=question_words(a),
                                                   given=given_words(a))
            shown.append(what if hide_names else _("{name}, {answer}").format(name=a.student,
                                                                            answer=what))
        who = ", ".join(f"{n} \u00d7{k}" for n, k in mistake_students(wrong))
        rows.append([mistake_label(mistake), str(len(wrong)),
                     ngettext("{n} student", "{n} students", len(mistake_students(wrong)))
                     .format(n=len(mistake_students(wrong))) if hide_names
                     else who, "; ".join(shown)])
        attrs.append(f" data-mistake='{html.escape(mistake)}'")
    out = _table("icg-class-mistakes-table",
                 [_("Mistake"), _("Answers"), _("Students"), _("Which")], rows, attrs)
    if summary.other_wrong:
        out += "<p>" + html.escape(_("Other wrong answers: {n}.").format(
            n=summary.other_wrong)) + "</p>"
    return out


ACTIVITY_WORDS = {"exit-ticket": N_("exit ticket"), "practice": N_("practice"),
                  "check": N_("check"), "readiness": N_("readiness check"),
                  "unit-check": N_("end-of-unit check"), PROBLEM_SET: N_("problem set")}


def csv_header() -> list[str]:
    """The answers CSV's column names, in the language spoken now."""
    return [_("time"), _("student"), _("with"), _("lesson"), _("activity"), _("item"),
            _("question"), _("answer"), _("right (1) or not (0)"),
            _("first try (1) or not (0)"), _("mistake"),
            _("mistake code"), _("variant")]


def csv_row(a: Answer) -> list[object]:
    """One answer's cells, its words in the language spoken now."""
    return [time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(a.at)), a.student, a.partner,
            a.lesson, _(ACTIVITY_WORDS.get(a.activity, a.activity)), a.item, question_words(a),
            given_words(a), int(a.right), int(a.first_try),
            mistake_label(a.mistake) if a.mistake in MISTAKES else "", a.mistake or "",
            a.variant]


def own_numbers_students(answers: Sequence[Answer]) -> list[str]:
    """The students who answered an exit ticket (or a unit check) with numbers of their own,
    by name."""
    return sorted({a.student for a in answers if own_numbers(a)}, key=str.casefold)


def variants_html(answers: Sequence[Answer], hide_names: bool, student: str = "") -> str:
    """The teacher's key of the students' own numbers, one student at a time (a class of 30
    has 150 of them): for the chosen `student`, each of their exit-ticket answers with the
    question as they read it, its variant, the right answer for their numbers and theirs;
    without one, how many students there are to choose from. Nothing when names are
    hidden."""
    students = own_numbers_students(answers)
    if hide_names or not students:
        return ""
    if student not in students:
        return "<p>" + html.escape(ngettext(
            "{n} student answered an exit ticket with their own numbers: choose a student to "
            "see their questions and the right answers.",
            "{n} students answered an exit ticket with their own numbers: choose a student to "
            "see their questions and the right answers.", len(students)).format(
                n=len(students))) + "</p>"
    rows = []
    right, wrong = "\u2714 " + _("right answer"), "\u2717 " + _("wrong answer")
    for a in answers:
        if a.student != student or a.activity not in (ACTIVITY, *CHECKS, PROBLEM_SET):
            continue
        item = asked_item(a)
        if item is not None:
            answer = item.answer_text
        else:
            try:
                answer = signed(Shape(a.kind, terms_of(a.terms)).answer)
            except ValueError:
                answer = ""
        rows.append([question_label(a), str(a.variant) if own_numbers(a) else "",
                     question_words(a), answer, given_words(a), right if a.right else wrong])
    return _table("icg-class-variants-table",
                  [_("Question"), _("Variant"), _("Words"), _("Answer"), _("Their answer"),
                   _("Right or not")], rows)


def skills_html(summary: Summary, hide_names: bool) -> str:
    """Per student and skill: not started, practising, mastered or flagged (ask the
    teacher); with names hidden, how many students stand where in each skill."""
    if not summary.skills:
        return "<p>" + html.escape(_("No practice answer yet today.")) + "</p>"
    head = [_("Student")] + [skill_name(k) for k in SKILLS]
    if hide_names:
        rows = []
        for status in ("practising", "mastered", "flagged"):
            rows.append([status_name(status)] + [str(sum(
                st.get(k, SkillState()).status() == status for st in summary.skills.values()))
                for k in SKILLS])
        return _table("icg-class-skills-table", [_("Standing")] + head[1:], rows)
    rows, attrs = [], []
    for name in sorted(summary.skills, key=str.casefold):
        st = summary.skills[name]
        statuses = [st.get(k, SkillState()).status() for k in SKILLS]
        rows.append([name] + [status_name(x) for x in statuses])
        attrs.append(" data-flagged='1'" if "flagged" in statuses else "")
    return _table("icg-class-skills-table", head, rows, attrs)


UnitResults = dict[str, dict[str, dict[str, bool]]]


def unit_results(firsts: dict[str, list[tuple[str, str, str, bool]]] | None) -> UnitResults:
    """Each student's first answers to each unit check on the first day they took it (a
    check taken again on a later day keeps the first day's): name -> check -> question ->
    right. `firsts`: name -> [(day, activity, item, right)], oldest first
    (ClassAnswers.firsts_of)."""
    out: UnitResults = {}
    for name, rows in (firsts or {}).items():
        first_day: dict[str, str] = {}
        for day, activity, item, right in rows:
            if activity in CHECKS and first_day.setdefault(activity, day) == day:
                out.setdefault(name, {}).setdefault(activity, {}).setdefault(item, right)
    return out


def unit_score(results: UnitResults, name: str, check: str) -> int | None:
    """A student's score on a unit check (the first answers right), None when not taken."""
    marks = results.get(name, {}).get(check)
    return None if not marks else sum(marks.values())


def _skill_items(skill: str) -> list[str]:
    """The questions of each unit check that ask `skill` ('3')."""
    return [str(i + 1) for i, s in enumerate(CHECK_SKILLS) if s == skill]


def _marks_text(marks: dict[str, bool] | None, items: Sequence[str]) -> str:
    if not marks:
        return "\u2013"
    return "".join("\u2013" if i not in marks else "\u2714" if marks[i] else "\u2717"
                   for i in items)


def _unit_share(results: UnitResults, check: str, items: Sequence[str]) -> str:
    given = [marks[i] for st in results.values() if (marks := st.get(check))
             for i in items if i in marks]
    return "\u2014" if not given else f"{round(100 * sum(given) / len(given))}%"


def unit_html(results: UnitResults, hide_names: bool) -> str:
    """The unit's two checks side by side: per student their readiness and end-of-unit
    scores, and per skill the start's mark beside the end's; first the whole class's share
    right at the start and at the end of each skill. With names hidden, the class's row
    alone."""
    if not results:
        return "<p>" + html.escape(_("No readiness or end-of-unit check answered yet.")) + "</p>"
    n = len(CHECK_SKILLS)
    head = ([_("Student"), _("{check} (out of {n})").format(check=_(NAMES[CHECKS[0]]), n=n),
             _("{check} (out of {n})").format(check=_(NAMES[CHECKS[1]]), n=n)]
            + [_(SKILL_NAMES[k]) for k in CHECK_SKILLS])
    arrow = " \u2192 "
    everyone = [_("Whole class ({n} students), share right").format(n=len(results)),
                *(_unit_share(results, check, [str(i + 1) for i in range(n)])
                  for check in CHECKS)]
    everyone += [arrow.join(_unit_share(results, check, _skill_items(k)) for check in CHECKS)
                 for k in CHECK_SKILLS]
    rows, attrs = [everyone], [" data-class='1'"]
    if not hide_names:
        for name in sorted(results, key=str.casefold):
            scores = [unit_score(results, name, check) for check in CHECKS]
            rows.append([name, *("\u2014" if s is None else str(s) for s in scores)]
                        + [arrow.join(_marks_text(results[name].get(check), _skill_items(k))
                                      for check in CHECKS) for k in CHECK_SKILLS])
            attrs.append("")
    legend = _("Each skill: the readiness check at the start of the unit \u2192 the end-of-unit "
               "check; \u2714 right at the first answer, \u2717 not right, \u2013 not taken. "
               "The start is read from every day kept: keep answers longer than the unit lasts.")
    return ("<p>" + html.escape(legend) + "</p>"
            + _table("icg-class-unit-table", head, rows, attrs))


def mistake_students(wrong: Sequence[Answer]) -> list[tuple[str, int]]:
    """The students who showed a mistake and how often, most often first."""
    counts: dict[str, int] = {}
    for a in wrong:
        counts[a.student] = counts.get(a.student, 0) + 1
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0].casefold()))


def most_missed_html(summary: Summary, limit: int = 5) -> str:
    """The items most often missed at the first try, with their common wrong answers (for
    tomorrow's warm-up). No names."""
    if not summary.missed:
        return "<p>" + html.escape(_("No item missed yet today.")) + "</p>"
    rows = []
    for (_lesson, _item), wrong in sorted(summary.missed.items(),
                                          key=lambda kv: (-len(kv[1]), kv[0]))[:limit]:
        sample = next((a for a in wrong if own_numbers(a)), wrong[0])
        skill = skill_of(sample.item)
        what = skill_name(skill) if skill else ticket_words(sample)
        given: dict[str, int] = {}
        for a in wrong:
            # a skill's practice items and the students' exit tickets are each their own
            # numbers: a wrong number is shown with its question (+3 + (-8) = ? \u2192 +11),
            # never mixed with another question's; a choice's words ("Positive") are the same
            said = given_words(a)
            if skill or own_numbers(a) and any(c.isdigit() for c in said):
                said = f"{question_words(a)} \u2192 {said}"
            given[said] = given.get(said, 0) + 1
        common = ", ".join(f"{g} \u00d7{n}" for g, n in sorted(
            given.items(), key=lambda kv: -kv[1])[:3])
        labels = sorted({mistake_label(a.mistake) for a in wrong if a.mistake in MISTAKES})
        rows.append([what, str(len(wrong)), common, "; ".join(labels)])
    return _table("icg-class-missed-table",
                  [_("Item"), _("Missed"), _("Common wrong answers"), _("Mistakes")], rows)


def gradebook_header() -> list[str]:
    return ([_("student")] + [_("exit ticket, lesson {lesson} (out of {n})").format(
        lesson=n, n=len(items)) for n, items in TICKETS.items()]
        + [_("{check} (out of {n})").format(check=_(ACTIVITY_WORDS[check]),
                                            n=len(CHECK_SKILLS)) for check in CHECKS]
        + [_("problem set, lesson {lesson} (out of {n})").format(lesson=n, n=len(problems))
           for n, problems in SETS.items()]
        + [skill_name(k) for k in SKILLS])


def first_day_scores(firsts: dict[str, list[tuple[str, int, str, bool]]]
                     ) -> dict[str, dict[int, int]]:
    """Each student's score by lesson from their first tries, name -> [(day, lesson, item,
    right)] oldest first: the first answers right on the first day they answered that
    lesson's questions."""
    out: dict[str, dict[int, int]] = {}
    for name, rows in firsts.items():
        first_day: dict[int, str] = {}
        marks: dict[tuple[int, str], bool] = {}
        for day, lesson, item, right in rows:  # oldest first
            if first_day.setdefault(lesson, day) == day:
                marks.setdefault((lesson, item), right)
        for (lesson, _item), right in marks.items():
            out.setdefault(name, {}).setdefault(lesson, 0)
            out[name][lesson] += right
    return out


def ticket_scores(summary: Summary, earlier: dict[str, list[tuple[str, int, str, bool]]]
                  | None = None) -> dict[str, dict[int, int]]:
    """Each student's exit-ticket score by lesson: the first answers right on the first day
    they took that lesson's ticket (`earlier`: the days before today, name -> [(day, lesson,
    item, right)], ClassAnswers.ticket_firsts_before; then today's)."""
    out = first_day_scores(earlier or {})
    for name, marks in summary.marks.items():
        mine = out.setdefault(name, {})
        for lesson in {les for les, _q in marks}:
            if lesson not in mine:
                mine[lesson] = sum(v for (les, _q), v in marks.items() if les == lesson)
    return out


def problem_set_scores(answers: Sequence[Answer], earlier: dict[
        str, list[tuple[str, int, str, bool]]] | None = None) -> dict[str, dict[int, int]]:
    """Each student's problem-set score by lesson: the first answers right on the first day
    they did that lesson's set (`earlier`: the days before today, name -> [(day, lesson, item,
    right)], ClassAnswers.ticket_firsts_before(day, PROBLEM_SET); then today's `answers`)."""
    firsts = {name: list(rows) for name, rows in (earlier or {}).items()}
    for a in answers:
        if a.activity == PROBLEM_SET and a.first_try:
            firsts.setdefault(a.student, []).append((a.day, a.lesson, a.item, a.right))
    return first_day_scores(firsts)


def gradebook_rows(summary: Summary, earlier: dict[str, list[tuple[str, int, str, bool]]]
                   | None = None, unit: UnitResults | None = None,
                   sets: dict[str, dict[int, int]] | None = None) -> list[list[object]]:
    """A row per student: each lesson's exit-ticket score (a number: the first answers
    right, out of the ticket's questions, as the header says; empty when not taken), every
    kept day's, the unit checks' scores (`unit`: unit_results), each lesson's problem-set
    score (`sets`: problem_set_scores) and each skill's standing."""
    scores = ticket_scores(summary, earlier)
    unit = unit or {}
    sets = sets or {}
    names = sorted({*scores, *summary.skills, *unit, *sets}, key=str.casefold)
    rows: list[list[object]] = []
    for name in names:
        mine = scores.get(name, {})
        row: list[object] = [name] + [mine.get(lesson, "") for lesson in TICKETS]
        row += ["" if (s := unit_score(unit, name, check)) is None else s for check in CHECKS]
        row += [sets.get(name, {}).get(lesson, "") for lesson in SETS]
        st = summary.skills.get(name, {})
        row += [status_name(st.get(k, SkillState()).status()) for k in SKILLS]
        rows.append(row)
    return rows


def csv_link(text: str, day: str, rows: int, made: float, *, gradebook: bool = False) -> str:
    """A link that downloads the CSV (its data in the link: no request to anywhere)."""
    data = base64.b64encode(text.encode("utf-8")).decode("ascii")
    label = (_("Download the gradebook (CSV, {n} students, made at {time})") if gradebook
             else _("Download today's answers (CSV, {n} rows, made at {time})")).format(
        n=rows, time=time.strftime("%H:%M", time.localtime(made)))
    name = "class-gradebook" if gradebook else "class-answers"
    return (f"<a class='icg-class-csv-link jupyter-button' role='button' "
            f"download='{name}-{html.escape(day)}.csv' "
            f"href='data:text/csv;charset=utf-8;base64,{data}'>{html.escape(label)}</a>")


class AnswersPanel(widgets.VBox):
    """Today's answers of the class for the teacher, redrawn by the class view's polling."""

    def __init__(self, answers: ClassAnswers | None = None, *, url: str | None = None,
                 clock: Callable[[], float] = time.time) -> None:
        self._answers = answers
        self.on_refresh: Callable[[], None] | None = None  # the class view redraws its checks
        self.url = url
        self.clock = clock
        self.expired_at = -EXPIRE_EVERY
        self.stamp: Any = None
        self.summary = Summary()
        self.hide_names = widgets.ToggleButton(
            value=False, description=_("Projector: hide names"),
            tooltip=_("hide every student's name, for the projector"))
        self.hide_names.observe(lambda _c: self.refresh(), names="value")
        self.students = html_widget(classes=("icg-class-students",))
        self.tickets = html_widget(classes=("icg-class-tickets",))
        # each student's own numbers, for the student the teacher chooses
        self.numbers_of = widgets.Dropdown(options=[(_("no student"), "")], value="",
                                           description=_("Show the numbers of:"),
                                           style={"description_width": "initial"})
        self.numbers_of.observe(self._numbers_chosen, names="value")
        self._numbers_choice = ""  # the student chosen, kept while the projector hides names
        self.numbers = html_widget(classes=("icg-class-variants",))
        self._answers_today: Sequence[Answer] = ()
        self.mistakes = html_widget(classes=("icg-class-mistakes",))
        self.download = html_widget(classes=("icg-class-csv",))
        self.skills = html_widget(classes=("icg-class-skills",))
        self.unit = html_widget(classes=("icg-class-unit",))
        self.unit_results: UnitResults = {}
        self._unit_drawn: Any = None  # the unit's checks and the projector mode last drawn
        self.missed = html_widget(classes=("icg-class-missed",))
        self.practise_choice = widgets.Dropdown(options=[], description=_("Mistake:"),
                                                style={"description_width": "initial"})
        self.practise_button = make_button(
            _("Practise this"), self.practise_this,
            tooltip=_("the students who showed this mistake get practice on it next"))
        self.gradebook_button = make_button(
            _("Make the gradebook CSV"), self.make_gradebook,
            tooltip=_("a row per student: each exit ticket's, unit check's and problem set's "
                      "score and each skill's standing"))
        self.gradebook = html_widget(classes=("icg-class-gradebook",))
        self.csv_button = make_button(_("Make the CSV of today's answers"), self.make_csv,
                                      tooltip=_("a file of today's answers, one row an "
                                                "answer, for a spreadsheet"))
        self.keep_box = widgets.BoundedIntText(
            value=7, min=1, max=MAX_KEEP_DAYS, description=_("Keep answers (days):"),
            style={"description_width": "initial"}, layout=shared_layout(width="16em"))
        self.keep_button = make_button(_("Keep for these days"), self.set_keep_days)
        self.delete_button = make_button(_("Delete today's class data"), self.ask_delete,
                                         button_style="danger")
        self.confirm_button = make_button(_("Yes, delete every answer and name of today"),
                                          self.delete_today, own_layout=True,
                                          button_style="danger")
        self.cancel_button = make_button(_("Keep them"), self.cancel_delete, own_layout=True)
        self.confirm_button.layout.display = self.cancel_button.layout.display = "none"
        self.message = MessageArea()
        heading = "<h4>{}</h4>".format
        super().__init__([
            self.hide_names,
            html_widget(heading(html.escape(_("Students today")))), self.students,
            html_widget(heading(html.escape(_("Exit tickets (first answers)")))), self.tickets,
            self.numbers_of, self.numbers,
            html_widget(heading(html.escape(_("Wrong answers by mistake")))), self.mistakes,
            widgets.HBox([self.practise_choice, self.practise_button],
                         layout=shared_layout(flex_flow="row wrap", align_items="center")),
            html_widget(heading(html.escape(_("Skills (practice)")))), self.skills,
            html_widget(heading(html.escape(_("The unit's checks: start and end")))), self.unit,
            html_widget(heading(html.escape(_("Most missed, for tomorrow's warm-up")))),
            self.missed,
            html_widget(heading(html.escape(_("Today's answers")))),
            widgets.HBox([self.csv_button, self.download],
                         layout=shared_layout(flex_flow="row wrap", align_items="center")),
            widgets.HBox([self.gradebook_button, self.gradebook],
                         layout=shared_layout(flex_flow="row wrap", align_items="center")),
            widgets.HBox([self.keep_box, self.keep_button],
                         layout=shared_layout(flex_flow="row wrap")),
            widgets.HBox([self.delete_button, self.confirm_button, self.cancel_button],
                         layout=shared_layout(flex_flow="row wrap")),
            self.message], _dom_classes=("icg-class-answers",))
        self.refresh()

    # ----- the store ---------------------------------------------------------------------------
    @property
    def answers(self) -> ClassAnswers:
        if self._answers is None:
            self._answers = open_answers(self.url)
        return self._answers

    def current_stamp(self) -> Any:
        """Changes when an answer or a page of today is written (the class view polls it)."""
        return (day_of(self.clock()), self.answers.stamp(day_of(self.clock())))

    # ----- drawing -----------------------------------------------------------------------------
    def refresh(self) -> bool:
        """Read today's answers and draw them; False when the store cannot be reached."""
        now = self.clock()
        day = day_of(now)
        try:
            if now - self.expired_at >= EXPIRE_EVERY:
                self.expired_at = now
                self.answers.expire(now)
                self.keep_box.value = self.answers.keep_days()
            stamp = self.current_stamp()
            answers = self.answers.answers(day)
            earlier = self.answers.practice_firsts_before(day)
            presence = self.answers.presence(day)
            unit = self.answers.firsts_of(CHECKS)
        except StoreUnavailable as e:
            self.message.show(room_error_text(e), "error")
            return False
        hide = bool(self.hide_names.value)
        self.stamp = stamp
        self.summary = summarise(answers, earlier, day)
        self.tickets.value = tickets_html(self.summary, hide)
        self._answers_today = answers
        # the projector: no name in the list (nor in the page), and the list not shown
        students = () if hide else own_numbers_students(answers)
        options = [(_("no student"), ""), *((name, name) for name in students)]
        if list(self.numbers_of.options) != options:
            chosen = self._numbers_choice if self._numbers_choice in students else ""
            self.numbers_of.options = options  # the choice goes back to the first option
            self.numbers_of.value = chosen
        self.numbers_of.layout.display = "none" if hide or not students else None
        self._draw_numbers()
        self.mistakes.value = mistakes_html(self.summary, hide)
        self.skills.value = skills_html(self.summary, hide)
        if (unit, hide) != self._unit_drawn:  # the unit's checks change rarely in a class
            self._unit_drawn = (unit, hide)
            self.unit_results = unit_results(unit)
            self.unit.value = unit_html(self.unit_results, hide)
        self.missed.value = most_missed_html(self.summary)
        # last: the page sees the changes in the order they are made, so "names hidden" shows
        # once no panel above holds a name any more (the projector's switch)
        self.students.value = students_html(presence, now, hide)
        options = [(mistake_label(m), m) for m in MISTAKES
                   if m in self.summary.mistakes and MISTAKE_SKILL.get(m)]
        if list(self.practise_choice.options) != options:
            self.practise_choice.options = options
        if self.on_refresh is not None:
            self.on_refresh()
        return True

    def _numbers_chosen(self, _change: Any = None) -> None:
        if not self.hide_names.value:
            self._numbers_choice = self.numbers_of.value or ""
        self._draw_numbers()

    def _draw_numbers(self) -> None:
        self.numbers.value = variants_html(self._answers_today, bool(self.hide_names.value),
                                           self.numbers_of.value or "")

    def make_csv(self) -> bool:
        """The day's answers as a CSV file to download (made now: the link says when)."""
        now = self.clock()
        day = day_of(now)
        try:
            text = self.answers.csv_text(day, header=csv_header(), row=csv_row)
        except StoreUnavailable as e:
            self.message.show(room_error_text(e), "error")
            return False
        rows = len(list(csv.reader(io.StringIO(text)))) - 1
        self.download.value = csv_link(text, day, rows, now)
        return True

    def practise_this(self) -> bool:
        """The students who showed the chosen mistake today get practice on it next (their
        practice page offers its skill, its next questions aimed at that mistake)."""
        mistake = self.practise_choice.value
        wrong = self.summary.mistakes.get(mistake) if mistake else None
        if not wrong or mistake not in MISTAKE_SKILL:
            self.message.show(_("Choose a mistake that students showed today."), "error")
            return False
        students = [name for name, _n in mistake_students(wrong)]
        try:
            n = self.answers.ask_practice(students, MISTAKE_SKILL[mistake], self.clock(),
                                          mistake=mistake)
        except StoreUnavailable as e:
            self.message.show(room_error_text(e), "error")
            return False
        self.message.show(ngettext("{n} student gets practice on \"{mistake}\" next.",
                                   "{n} students get practice on \"{mistake}\" next.", n)
                          .format(n=n, mistake=mistake_label(mistake)), "ok")
        return True

    def make_gradebook(self) -> bool:
        """The gradebook as a CSV file: a row per student, a column per lesson's exit-ticket
        score, per unit check's score, per lesson's problem-set score and per skill's standing
        (for a spreadsheet or an LMS import)."""
        now = self.clock()
        if not self.refresh():
            return False
        try:
            earlier = self.answers.ticket_firsts_before(day_of(now))
            sets = self.answers.ticket_firsts_before(day_of(now), PROBLEM_SET)
        except StoreUnavailable as e:
            self.message.show(room_error_text(e), "error")
            return False
        rows = gradebook_rows(self.summary, earlier, self.unit_results,
                              problem_set_scores(self._answers_today, sets))
        text = csv_of(rows, header=gradebook_header(), row=lambda r: r)
        self.gradebook.value = csv_link(text, day_of(now), len(rows), now, gradebook=True)
        return True

    def poll(self) -> bool:
        """Redraw if an answer or a page changed; True if redrawn."""
        try:
            stamp = self.current_stamp()
        except StoreUnavailable as e:
            self.message.show(room_error_text(e), "error")
            return False
        if stamp != self.stamp:
            return self.refresh()
        return False

    # ----- the teacher's actions ---------------------------------------------------------------
    def ask_delete(self) -> None:
        self.confirm_button.layout.display = self.cancel_button.layout.display = None
        self.message.show(_("Delete every answer and name of today? This cannot be undone."),
                          "error")

    def cancel_delete(self) -> None:
        self.confirm_button.layout.display = self.cancel_button.layout.display = "none"
        self.message.show(_("Nothing was deleted."), "ok")

    def delete_today(self) -> bool:
        if self.confirm_button.layout.display == "none":
            self.message.show(_("Press Delete today's class data first."), "error")
            return False
        self.confirm_button.layout.display = self.cancel_button.layout.display = "none"
        try:
            n = self.answers.delete_day(day_of(self.clock()))
        except StoreUnavailable as e:
            self.message.show(room_error_text(e), "error")
            return False
        # a file made before holds what was deleted (the gradebook: today's scores too)
        self.download.value = self.gradebook.value = ""
        self.refresh()
        self.message.show(_("Today's class data is deleted ({n} answers).").format(n=n), "ok")
        return True

    def set_keep_days(self) -> bool:
        try:
            days = self.answers.set_keep_days(self.keep_box.value)
            self.answers.expire(self.clock())
        except AnswerRefused:
            self.message.show(_("Keep answers from 1 to {max} days.").format(max=MAX_KEEP_DAYS),
                              "error")
            return False
        except StoreUnavailable as e:
            self.message.show(room_error_text(e), "error")
            return False
        self.refresh()
        self.message.show(_("Answers are kept {n} days, then deleted.").format(n=days), "ok")
        return True
