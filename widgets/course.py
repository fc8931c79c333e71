"""The one list of the lessons: file names, titles, minutes, order and the 25-minute split.

The landing page (00_start_here) shows `lesson_links()` and `course_plan()`, the teacher guide
shows `lesson_plan_table()`, and the tests read `LESSONS`; nothing else lists the lessons. To
add, rename or re-time a lesson, change it here (the notebooks themselves are the lesson text).
"""

from __future__ import annotations

import html
import math
import re
from dataclasses import dataclass
from pathlib import Path

PERIOD = 45  # minutes in a class period
SHORT_PERIOD = 25  # minutes in a short period (two of them per lesson)


@dataclass(frozen=True)
class Lesson:
    """One notebook of lessons/. role: 'start' (landing page), 'lesson', 'guide' or 'kit'."""

    file: str
    title: str
    minutes: int
    summary: str
    role: str = "lesson"
    split: str = ""  # the '## ' heading where the lesson breaks in two for 25-minute periods
    grouping: str = ""
    notes: str = ""
    support: str = ""  # for a student who struggles
    extension: str = ""  # for a student who is done early
    standards: str = ""  # Common Core State Standards (grade 6-7 Number System)

    @property
    def number(self) -> int:
        """The lesson's number: its place among the student lessons (1 first), which is not
        always its file's prefix (a lesson added later keeps the next free file number)."""
        order = [lesson.file for lesson in LESSONS if lesson.role == "lesson"]
        return order.index(self.file) + 1 if self.file in order else 0


LESSONS: tuple[Lesson, ...] = (
    Lesson("00_start_here.ipynb", "Start here", 5,
           "what each lesson is about and how long it takes", role="start"),
    Lesson("01_integers_with_cards.ipynb", "Integers with cards", PERIOD,
           "card values, the number line, opposites and zero pairs",
           split="Opposites and zero pairs", grouping="whole class, then pairs",
           notes="Project the explorer; let pairs do the four tasks; a real deck helps.",
           support="Give a printed number line from -13 to +13 and real cards to move along it; "
                   "start with black cards only, then one red card.",
           extension="Ask for three different hands of four cards with a sum of -5, and for a "
                     "rule that predicts the sum when every colour is switched.",
           standards='6.NS.5, 6.NS.6a, 6.NS.6c, 7.NS.1a-b'),
    Lesson("02_absolute_value.ipynb", "Absolute value", PERIOD,
           "distance from zero; which sum is closer to zero",
           split="Common mistakes", grouping="individual",
           notes="Each practice set has a code: give the whole class one code to compare "
                 "answers.",
           support='Ask "how many steps to zero?" and let the student count on a number line '
                   'before writing |n|; practise "abs" questions before "closer".',
           extension="Ask for every pair of hands that tie in distance from zero, and for a "
                     "number that is less than -3 but closer to zero than -3 (there is none: "
                     "why?).",
           standards='6.NS.7c, 6.NS.7d, 6.NS.6a'),
    Lesson("03_hit_me.ipynb", "Hit Me", PERIOD,
           "play to get your sum as close to zero as you can",
           split="Play", grouping="pairs or threes",
           notes="Project the worked example first; then play; then real cards if you have "
                 "them.",
           support="Play with every card face up first (the walkthrough table) and say each new "
                   "sum aloud together.",
           extension='Play the variation where aces count 1 or 11, or against "hard" computer '
                     "players, and explain one choice the computer made.",
           standards='7.NS.1b, 7.NS.1d, 6.NS.7c'),
    Lesson("04_flapjack.ipynb", "Flapjack", PERIOD,
           "play cards to make the total exactly -13, 0 or 13",
           split="Then the classic game", grouping="pairs",
           notes="Start with simple ten; move to classic when totals come quickly.",
           support='Stay with simple ten and write the running total on paper after every card.',
           extension='Play "add or subtract", and list every card that makes a Flapjack from a '
                     "total of your choice.",
           standards='7.NS.1b, 7.NS.1d'),
    Lesson("05_strategy_lab.ipynb", "Strategy lab", PERIOD,
           "simulate thousands of games to find when to hit",
           split="Experiment 3: the number of players", grouping="pairs",
           notes="Each pair predicts before running a chart; discuss Experiment 4 together.",
           support="Read one chart together, one bar at a time, before pairs work alone; focus on"
                   " Experiments 1 and 4.",
           extension='Use "Your own experiment" to test a rule with other opponents, and write a '
                     "claim with its evidence.",
           standards='6.NS.7c, 7.NS.1 (in the games); statistics: 7.SP.6-7'),
    # Added after the others: file 07 (the guide keeps 06), lesson 6 in the order of the unit.
    Lesson("07_taking_a_card_away.ipynb", "Taking a card away", PERIOD,
           "subtraction as adding the opposite, distance as |p - q|, < and >",
           split="Distance between two numbers", grouping="pairs",
           notes="Project the explorer in 'take a card away' mode first; pairs then do the "
                 "tasks and compare their equations.",
           support="Use real cards: take one away and move along a printed number line; say "
                   '"minus negative three is plus three" aloud.',
           extension="Ask for two different subtractions with the answer -4, one subtracting a "
                     "negative; order six integers and give each distance to -2.",
           standards='7.NS.1c, 6.NS.7a-b, 6.NS.7c'),
    Lesson("06_teacher_guide.ipynb", "Teacher guide", 20,
           "running the lessons in class, answers, variations", role="guide"),
    Lesson("08_printable_kit.ipynb", "Printable kit", 5,
           "rule cards, recording and score sheets, exit tickets, stacked deals: print and "
           "play with real decks", role="kit"),
)

FILES: tuple[str, ...] = tuple(lesson.file for lesson in LESSONS)


def student_lessons() -> tuple[Lesson, ...]:
    """The lessons a class works through, in order (not the landing page or the guide)."""
    return tuple(lesson for lesson in LESSONS if lesson.role == "lesson")


def by_file(name: str) -> Lesson:
    for lesson in LESSONS:
        if lesson.file == name:
            return lesson
    raise KeyError(f"no lesson {name!r}; the lessons are {', '.join(FILES)}")


def course_plan() -> str:
    """The lessons for students, with the minutes each takes, and the real number of periods."""
    rows = student_lessons()
    lines = [f"{lesson.number}. {lesson.title:<22} about {lesson.minutes} minutes"
             for lesson in rows]
    total = sum(lesson.minutes for lesson in rows)
    periods = sum(math.ceil(lesson.minutes / PERIOD) for lesson in rows)
    short = sum(math.ceil(lesson.minutes / SHORT_PERIOD) for lesson in rows)
    lines.append(f"In all: about {total} minutes. One lesson fits one {PERIOD}-minute period, "
                 f"so the unit takes {periods} periods of {PERIOD} minutes, "
                 f"or {short} periods of {SHORT_PERIOD} minutes (each lesson in two parts).")
    return "\n".join(lines)


# Links a student taps: large, underlined, at least 24 px tall (the page's own stylesheet,
# since these outputs are not widgets and get no widgets/style.css).
NAV_CSS = ("<style>.icg-lesson-list a, .icg-nav a { font-size: 1.25em;"
           " text-decoration: underline !important;"
           " display: inline-block; min-height: 24px; padding: 4px 0; }"
           " .icg-lesson-list td, .icg-lesson-list th { padding: 4px 8px; vertical-align: top;"
           " text-align: left; }"
           " .icg-nav { display: flex; flex-wrap: wrap; gap: 0.5em 2em; margin: 0.5em 0; }</style>")


def lesson_links() -> object:
    """The lessons as a table of relative links (for the landing page)."""
    from IPython.display import HTML

    rows = "".join(
        f"<tr><td><a href='{html.escape(lesson.file)}'>"
        f"{html.escape(_name(lesson))}</a></td><td>{html.escape(lesson.summary)}</td>"
        f"<td>{lesson.minutes} min</td></tr>"
        for lesson in LESSONS if lesson.role != "start")
    return HTML(f"{NAV_CSS}<table class='icg-lesson-list'><thead><tr><th>Lesson</th>"
                f"<th>What you do</th><th>Time</th></tr></thead><tbody>{rows}</tbody></table>")


def next_lesson(name: str) -> Lesson | None:
    """The lesson after `name` in the order of the unit (None after the last one, and for the
    start page, the guide and the kit, which are not in the order)."""
    order = student_lessons()
    files = [lesson.file for lesson in order]
    if name not in files:
        by_file(name)  # an unknown name is an error, not "no next lesson"
        return None
    i = files.index(name)
    return order[i + 1] if i + 1 < len(order) else None


def lesson_nav_html(name: str) -> str:
    """'Next lesson: 2. Absolute value' and 'Back to start' as relative links."""
    start = next(lesson for lesson in LESSONS if lesson.role == "start")
    nxt = next_lesson(name)
    links = []
    if nxt is not None:
        links.append(f"<a href='{html.escape(nxt.file)}'>Next lesson: "
                     f"{html.escape(_name(nxt))}</a>")
    elif by_file(name).role == "lesson":
        links.append("<span>That was the last lesson of the unit.</span>")
    links.append(f"<a href='{html.escape(start.file)}'>Back to start</a>")
    return f"{NAV_CSS}<nav class='icg-nav' aria-label='Lessons'>{''.join(links)}</nav>"


def lesson_nav(name: str) -> object:
    """The links at the end of a lesson (made from LESSONS, so they follow its order)."""
    from IPython.display import HTML

    return HTML(lesson_nav_html(name))


# How a 45-minute period runs, the same for every lesson (minutes).
PERIOD_PLAN = (("warm-up", 3), ("teach and try (the first part)", 12),
               ("play or practise (the second part)", 18), ("check, key ideas, talk about it", 7),
               ("exit ticket", 5))


def lesson_plan_text() -> str:
    """For the teacher guide: the period plans, then for each lesson its time, grouping, notes,
    split for 25-minute periods, support, extension and standards."""
    steps = ", ".join(f"{what} {m}" for what, m in PERIOD_PLAN)
    lines = [f"A {PERIOD}-minute period, one lesson: {steps} (minutes).",
             f"Two {SHORT_PERIOD}-minute periods per lesson: period 1 is the warm-up and the "
             "lesson up to its split heading; period 2 starts with a 2-minute recap of the "
             "key ideas so far, then the rest of the lesson, the check and the exit ticket.",
             ""]
    for lesson in student_lessons():
        lines.append(f"{_name(lesson)} ({lesson.minutes} min, {lesson.grouping}; "
                     f"{lesson.file})")
        lines.append(f"  {lesson.notes}")
        lines.append(f"  Two {SHORT_PERIOD}-minute periods: stop before \"{lesson.split}\".")
        lines.append(f"  Support: {lesson.support}")
        lines.append(f"  Extension: {lesson.extension}")
        lines.append(f"  Standards: {lesson.standards}")
    return "\n".join(lines)


def _name(lesson: Lesson) -> str:
    return f"{lesson.number}. {lesson.title}" if lesson.role == "lesson" else lesson.title


def display_name(lesson: Lesson) -> str:
    """'2. Absolute value' for a lesson; 'Start here', 'Teacher guide' for the other pages."""
    return _name(lesson)


# ----- the answer key of the whole unit (for the teacher guide) -------------------------------
QA = re.compile(r"^\s*(\d+)\. (.+?)\n\s*\n\s*<details><summary>Answer</summary>\s*\n(.+?)"
                r"</details>", re.DOTALL | re.MULTILINE)
LESSONS_DIR = Path(__file__).resolve().parent.parent / "lessons"


def lesson_questions(path: Path) -> list[tuple[str, str, str]]:
    """(section heading, question, answer) for every answered question of a lesson notebook,
    read from the notebook itself, so that a teacher's edit shows in the key."""
    import nbformat

    nb = nbformat.read(path, as_version=4)
    found = []
    heading = ""
    for cell in nb.cells:
        if cell.cell_type != "markdown":
            continue
        # split the cell at its headings, so each question gets the heading above it
        parts = re.split(r"^(##+ .+)$", cell.source, flags=re.MULTILINE)
        for part in parts:
            if re.match(r"^##+ ", part):
                heading = part.lstrip("#").strip()
                continue
            for m in QA.finditer(part):
                found.append((heading, " ".join(m.group(2).split()),
                              " ".join(m.group(3).split())))
    return found


def full_answer_key(folder: Path | None = None) -> object:
    """Every answered question of every student lesson, with its answer, as HTML."""
    from IPython.display import HTML

    folder = folder or LESSONS_DIR
    out = []
    for lesson in student_lessons():
        rows = "".join(
            f"<tr><td>{html.escape(h)}</td><td>{html.escape(q)}</td><td>{html.escape(a)}</td>"
            "</tr>" for h, q, a in lesson_questions(folder / lesson.file))
        out.append(f"<h4>{html.escape(_name(lesson))}</h4><table class='icg-answer-key'>"
                   "<thead><tr><th>Section</th><th>Question</th><th>Answer</th></tr></thead>"
                   f"<tbody>{rows}</tbody></table>")
    # the three columns share the page's width (a phone too): long words wrap; the answers'
    # dollar signs ("$6 ... $8") are money, not math for MathJax (mathjax_ignore)
    css = ("<style>.icg-answer-key { width: 100%; table-layout: fixed; }"
           " .icg-answer-key td, .icg-answer-key th { overflow-wrap: anywhere;"
           " text-align: left; vertical-align: top; }</style>")
    return HTML(f"{css}<div class='mathjax_ignore'>{''.join(out)}</div>")
