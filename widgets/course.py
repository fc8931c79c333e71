"""The one list of the lessons: file names, titles, minutes, order and the 25-minute split.

The landing page (00_start_here) shows `lesson_links()` and `course_plan()`, the teacher guide
shows `lesson_plan_table()`, and the tests read `LESSONS`; nothing else lists the lessons. To
add, rename or re-time a lesson, change it here (the notebooks themselves are the lesson text).
"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass

PERIOD = 45  # minutes in a class period
SHORT_PERIOD = 25  # minutes in a short period (two of them per lesson)


@dataclass(frozen=True)
class Lesson:
    """One notebook of lessons/. role: 'start' (landing page), 'lesson' or 'guide'."""

    file: str
    title: str
    minutes: int
    summary: str
    role: str = "lesson"
    split: str = ""  # the '## ' heading where the lesson breaks in two for 25-minute periods
    grouping: str = ""
    notes: str = ""

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
           notes="Project the explorer; let pairs do the four tasks; a real deck helps."),
    Lesson("02_absolute_value.ipynb", "Absolute value", PERIOD,
           "distance from zero; which sum is closer to zero",
           split="Common mistakes", grouping="individual",
           notes="Each practice set has a code: give the whole class one code to compare "
                 "answers."),
    Lesson("03_hit_me.ipynb", "Hit Me", PERIOD,
           "play to get your sum as close to zero as you can",
           split="Play", grouping="pairs or threes",
           notes="Project the worked example first; then play; then real cards if you have "
                 "them."),
    Lesson("04_flapjack.ipynb", "Flapjack", PERIOD,
           "play cards to make the total exactly -13, 0 or 13",
           split="Then the classic game", grouping="pairs",
           notes="Start with simple ten; move to classic when totals come quickly."),
    Lesson("05_strategy_lab.ipynb", "Strategy lab", PERIOD,
           "simulate thousands of games to find when to hit",
           split="Experiment 3: the number of players", grouping="pairs",
           notes="Each pair predicts before running a chart; discuss Experiment 4 together."),
    # Added after the others: file 07 (the guide keeps 06), lesson 6 in the order of the unit.
    Lesson("07_taking_a_card_away.ipynb", "Taking a card away", PERIOD,
           "subtraction as adding the opposite, distance as |p - q|, < and >",
           split="Distance between two numbers", grouping="pairs",
           notes="Project the explorer in 'take a card away' mode first; pairs then do the "
                 "tasks and compare their equations."),
    Lesson("06_teacher_guide.ipynb", "Teacher guide", 20,
           "running the lessons in class, answers, variations", role="guide"),
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


def lesson_links() -> object:
    """The lessons as a table of relative links (for the landing page)."""
    from IPython.display import HTML

    rows = "".join(
        f"<tr><td><a href='{html.escape(lesson.file)}'>"
        f"{html.escape(_name(lesson))}</a></td><td>{html.escape(lesson.summary)}</td>"
        f"<td>{lesson.minutes} min</td></tr>"
        for lesson in LESSONS if lesson.role != "start")
    return HTML("<table class='icg-lesson-list'><thead><tr><th>Lesson</th><th>What you do</th>"
                f"<th>Time</th></tr></thead><tbody>{rows}</tbody></table>")


def lesson_plan_text() -> str:
    """For the teacher guide: time, grouping, notes and the split for 25-minute periods."""
    lines = []
    for lesson in student_lessons():
        lines.append(f"{_name(lesson)} ({lesson.minutes} min, {lesson.grouping})")
        lines.append(f"  {lesson.notes}")
        lines.append(f"  Two {SHORT_PERIOD}-minute periods: stop before \"{lesson.split}\".")
    return "\n".join(lines)


def _name(lesson: Lesson) -> str:
    return f"{lesson.number}. {lesson.title}" if lesson.role == "lesson" else lesson.title
