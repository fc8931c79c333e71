"""The class's answers in the room store's database: every exit-ticket answer and practice or
lesson check of a named student, and the page each student is on.

    answers = open_answers()                 # the room store's URL ($ICG_ROOMS_URL or SQLite)
    answers.record(Answer(...))              # True: written; False: that answer id was already
    answers.seen("Ana", 2)                   # Ana is on lesson 2's page now
    answers.answers(day)                     # the day's answers, oldest first
    answers.delete_day(day); answers.expire()

Each answer carries an id made where it was given (`new_answer_id`, in the student's kernel):
`record` inserts it once (`ON CONFLICT DO NOTHING`), so a retry after a lost reply never
doubles it. `Outbox` keeps a kernel's answers until the store took them: it sends them on a
thread of its own and tries again, later and later, while the store cannot be reached. While it
waits it keeps them in a file too (`spool_dir()`), so that answers still waiting when their
page closes are sent by the next outbox that reaches the store.

Only names, answers and times are kept (docs/privacy.md); rows older than `keep_days()` days
(7 unless the teacher sets another number) are deleted by `expire`, and the teacher's "Delete
today's class data" is `delete_day`. No ipywidgets here.
"""

from __future__ import annotations

import csv
import io
import logging
import os
import re
import threading
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from engine.questions import SKILL_TARGETS, SKILLS, UNIT_CHECKS, Question, terms_of
from rooms.caps import check_student_room
from rooms.codes import CodeError, clean_name
from rooms.database import DEFAULT_PATH, Cursor, Transactions, store_url
from rooms.errors import StoreUnavailable
from rooms.spool import SpoolFile, read_items

log = logging.getLogger(__name__)

# an exit ticket, practice, a lesson page's check, the unit's two checks (before the unit and
# after it: widgets/lessons/unit_check.py) and a lesson's problem set
# (widgets/lessons/problem_set.py)
ACTIVITIES = ("exit-ticket", "practice", "check", "readiness", "unit-check", "problem-set")
DEFAULT_KEEP_DAYS = 7
MAX_KEEP_DAYS = 365
# the unit's readiness and end-of-unit checks are compared, start and end: their answers are
# kept this many days at least (a unit of six lessons over a few weeks), whatever the setting
UNIT_KEEP_DAYS = 42
MAX_TERMS_TEXT = 60  # characters of a question's numbers ('3,-8')
MAX_GIVEN = 40  # characters of an answer as given
ANSWER_ID = re.compile(r"^[A-Za-z0-9_-]{8,64}$")
DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")

SCHEMA = [
    """CREATE TABLE IF NOT EXISTS icg_class_answers (
        answer_id TEXT PRIMARY KEY,
        day TEXT NOT NULL,
        student TEXT NOT NULL,
        student_key TEXT NOT NULL,
        partner TEXT NOT NULL,
        lesson INTEGER NOT NULL,
        activity TEXT NOT NULL,
        item TEXT NOT NULL,
        kind TEXT NOT NULL,
        terms TEXT NOT NULL,
        variant INTEGER NOT NULL,
        given TEXT NOT NULL,
        right_answer INTEGER NOT NULL,
        first_try INTEGER NOT NULL,
        mistake TEXT,
        at {real} NOT NULL)""",
    "CREATE INDEX IF NOT EXISTS icg_class_answers_day ON icg_class_answers (day, at)",
    # one first try per student, item and day: a second one is refused
    """CREATE UNIQUE INDEX IF NOT EXISTS icg_class_answers_first ON icg_class_answers
        (day, student_key, lesson, activity, item) WHERE first_try = 1""",
    """CREATE TABLE IF NOT EXISTS icg_presence (
        day TEXT NOT NULL,
        student_key TEXT NOT NULL,
        student TEXT NOT NULL,
        lesson INTEGER NOT NULL,
        at {real} NOT NULL,
        PRIMARY KEY (day, student_key))""",
    # the teacher's "practise this": a skill a student's practice page offers next, and the
    # mistake its first questions are aimed at ('': none)
    """CREATE TABLE IF NOT EXISTS icg_practice_asked (
        day TEXT NOT NULL,
        student_key TEXT NOT NULL,
        skill TEXT NOT NULL,
        at {real} NOT NULL,
        mistake TEXT NOT NULL DEFAULT '',
        PRIMARY KEY (day, student_key, skill))""",
    """CREATE TABLE IF NOT EXISTS icg_class_settings (
        name TEXT PRIMARY KEY,
        value TEXT NOT NULL)""",
]
CSV_COLUMNS = ("time", "student", "partner", "lesson", "activity", "item", "kind", "numbers",
               "variant", "answer", "right", "first_try", "mistake")


def day_of(at: float) -> str:
    """The local date of a time, as the class's day ('2026-12-01')."""
    return time.strftime("%Y-%m-%d", time.localtime(at))


def new_answer_id() -> str:
    """An answer's id, made when the student answers (32 hexadecimal digits)."""
    return uuid.uuid4().hex


class AnswerRefused(ValueError):
    """An answer or a page that is not written (a bad name, id, lesson or text)."""


@dataclass(frozen=True)
class Answer:
    """One answer of one student: the question as data (engine/questions.py: its `lesson`,
    `item`, `kind`, numbers `terms` as '3,-8' and `variant`; no sentence), the answer `given`
    (a typed number as '+5'; for a choice the number picked, 0 for "the same", or for an
    exit-ticket choice without numbers the choice's place, '2'), right or not, the first try at
    that item or not, the `mistake` it shows (engine.mistakes) or None, and the time.
    `partner`: the other student of a pair who answered together at one device ('' alone)."""

    answer_id: str
    student: str
    lesson: int
    activity: str
    item: str
    kind: str
    terms: str
    given: str
    right: bool
    first_try: bool
    at: float
    mistake: str | None = None
    variant: int = 0
    partner: str = ""

    @property
    def day(self) -> str:
        return day_of(self.at)

    @property
    def question(self) -> Question:
        return Question(self.kind, terms_of(self.terms), self.lesson, self.item, self.variant)

    def checked(self) -> tuple[Answer, str]:
        """The answer with its names cleaned, and the name's key; AnswerRefused if any field is
        not what an answer holds."""
        try:
            name, key = clean_name(self.student)
            partner = clean_name(self.partner)[0] if self.partner else ""
        except CodeError as e:
            raise AnswerRefused(f"student: {e}") from e
        if not isinstance(self.answer_id, str) or not ANSWER_ID.match(self.answer_id):
            raise AnswerRefused("answer_id: 8 to 64 letters, digits, - or _")
        if self.activity not in ACTIVITIES:
            raise AnswerRefused(f"activity: one of {', '.join(ACTIVITIES)}")
        for field_, limit in (("item", 40), ("given", MAX_GIVEN), ("terms", MAX_TERMS_TEXT)):
            value = getattr(self, field_)
            if not isinstance(value, str) or len(value) > limit:
                raise AnswerRefused(f"{field_}: text of at most {limit} characters")
        try:
            self.question  # noqa: B018 (checks kind, numbers, lesson, item and variant)
        except ValueError as e:
            raise AnswerRefused(f"question: {e}") from e
        if type(self.right) is not bool or type(self.first_try) is not bool:
            raise AnswerRefused("right and first_try are True or False")
        if not isinstance(self.at, (int, float)) or not 0 < self.at < 1e11:
            raise AnswerRefused("at: a time in seconds")
        if self.mistake is not None and (not isinstance(self.mistake, str)
                                         or len(self.mistake) > 40):
            raise AnswerRefused("mistake: a short code or None")
        return Answer(self.answer_id, name, self.lesson, self.activity, self.item, self.kind,
                      self.terms, self.given, self.right, self.first_try, float(self.at),
                      self.mistake, self.variant, partner), key


@dataclass(frozen=True)
class Presence:
    """The page a student is on (its lesson's number), and when they were last active."""

    student: str
    lesson: int
    at: float


def open_answers(url: str | None = None, **kw: Any) -> ClassAnswers:
    """The class's answers in the room store's database at `url` (default: `store_url()`)."""
    return ClassAnswers(url or store_url(), **kw)


def open_and_expire(url: str | None = None) -> ClassAnswers:
    """The store for a student's page: opened, and the days no longer kept deleted once (so
    they go even when the class view is never opened)."""
    store = open_answers(url)
    try:
        store.expire()
    except StoreUnavailable:
        pass  # the page's answers are tried again anyway
    return store


class ClassAnswers(Transactions):
    """The answers and pages of the class, in the room store's database (SQLite or
    PostgreSQL). Thread-safe (one connection, one lock). Every method raises
    `StoreUnavailable` when the database cannot be reached; nothing was changed then, and the
    same call can be tried again."""

    def __init__(self, url: str, *, busy_timeout: float = 5.0) -> None:
        super().__init__(url, busy_timeout=busy_timeout)
        self.refused_first = 0  # second first tries written as later tries
        with self._write() as c:
            if self._db.postgres:  # two kernels creating the tables at once
                c.execute("SELECT pg_advisory_xact_lock(4243)")
            for stmt in SCHEMA:
                c.execute(stmt.format(real=self._db.real))
            self._add_column(c, "icg_practice_asked", "mistake", "TEXT NOT NULL DEFAULT ''")

    def close(self) -> None:
        with self._lock:
            self._drop_connection()

    # ----- writing ------------------------------------------------------------------------------
    def record(self, answer: Answer) -> bool:
        """Write one answer; False when an answer with its id is there already (a retry). A
        second first try of that student at that item today is written as a later try (the
        first answer stays the first; the answer is kept as evidence of the retake)."""
        a, key = answer.checked()
        with self._write() as c:
            if why := check_student_room(c, a.day, key, answer=True):  # rooms/caps.py
                raise AnswerRefused(why)
            if a.first_try and c.one(
                    "SELECT 1 FROM icg_class_answers WHERE day = ? AND student_key = ? AND "
                    "lesson = ? AND activity = ? AND item = ? AND first_try = 1 AND "
                    "answer_id <> ?", (a.day, key, a.lesson, a.activity, a.item,
                                       a.answer_id)):
                self.refused_first += 1
                a = replace(a, first_try=False)
            n = c.run("INSERT INTO icg_class_answers (answer_id, day, student, student_key, "
                      "partner, lesson, activity, item, kind, terms, variant, given, "
                      "right_answer, first_try, mistake, at) "
                      "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                      "ON CONFLICT DO NOTHING",
                      (a.answer_id, a.day, a.student, key, a.partner, a.lesson, a.activity,
                       a.item, a.kind, a.terms, a.variant, a.given, int(a.right),
                       int(a.first_try), a.mistake, a.at))
            self._seen(c, a.student, key, a.lesson, a.at)
        return n == 1

    def first_tried(self, student: str, lesson: int, activity: str,
                    day: str | None = None) -> set[str]:
        """The items `student` has had a first try at on `day` (default: today)."""
        return set(self.first_marks(student, lesson, activity, day))

    def first_marks(self, student: str, lesson: int, activity: str,
                    day: str | None = None) -> dict[str, bool]:
        """`student`'s first tries on `day` (default: today) at the items of `activity` on
        the page of `lesson`: item -> right or not."""
        day = _day(day)
        key = clean_name(student)[1]
        with self._write() as c:
            rows = c.all("SELECT item, right_answer FROM icg_class_answers WHERE day = ? AND "
                         "student_key = ? AND lesson = ? AND activity = ? AND first_try = 1",
                         (day, key, lesson, activity))
        return {r[0]: bool(r[1]) for r in rows}

    def practice_firsts(self, student: str) -> list[tuple[str, str, bool]]:
        """`student`'s first tries at practice items, every day kept, oldest first: (day,
        item, right)."""
        key = clean_name(student)[1]
        with self._write() as c:
            rows = c.all("SELECT day, item, right_answer FROM icg_class_answers WHERE "
                         "student_key = ? AND activity = 'practice' AND first_try = 1 "
                         "ORDER BY at, answer_id", (key,))
        return [(r[0], r[1], bool(r[2])) for r in rows]

    def practice_firsts_before(self, day: str) -> dict[str, list[tuple[str, str, bool]]]:
        """Every student's first tries at practice items on the days kept before `day`, by
        the name they last gave: name -> [(day, item, right)], oldest first (the standing a
        skill mastered on an earlier day keeps)."""
        with self._write() as c:
            rows = c.all("SELECT student_key, student, day, item, right_answer FROM "
                         "icg_class_answers WHERE day < ? AND activity = 'practice' AND "
                         "first_try = 1 ORDER BY at, answer_id", (day,))
        names = {r[0]: r[1] for r in rows}  # the latest name of each key
        out: dict[str, list[tuple[str, str, bool]]] = {}
        for key, _name, d, item, right in rows:
            out.setdefault(names[key], []).append((d, item, bool(right)))
        return out

    def ticket_firsts_before(self, day: str, activity: str = "exit-ticket"
                             ) -> dict[str, list[tuple[str, int, str, bool]]]:
        """Every student's first tries at exit-ticket items (or another lesson's `activity`:
        a problem set's) on the days kept before `day`, by the name they last gave: name ->
        [(day, lesson, item, right)], oldest first (the gradebook's scores of the lessons
        taught before today)."""
        with self._write() as c:
            rows = c.all("SELECT student_key, student, day, lesson, item, right_answer FROM "
                         "icg_class_answers WHERE day < ? AND activity = ? AND "
                         "first_try = 1 ORDER BY at, answer_id", (day, activity))
        names = {r[0]: r[1] for r in rows}  # the latest name of each key
        out: dict[str, list[tuple[str, int, str, bool]]] = {}
        for key, _name, d, lesson, item, right in rows:
            out.setdefault(names[key], []).append((d, int(lesson), item, bool(right)))
        return out

    def firsts_of(self, activities: Sequence[str]) -> dict[str, list[tuple[str, str, str, bool]]]:
        """Every student's first tries at the items of `activities` on every day kept, today
        too, by the name they last gave: name -> [(day, activity, item, right)], oldest first
        (the unit checks: the readiness check of the unit's first day beside the end-of-unit
        check of its last)."""
        if not activities:
            return {}
        marks = ", ".join("?" for _a in activities)
        with self._write() as c:
            rows = c.all("SELECT student_key, student, day, activity, item, right_answer FROM "
                         f"icg_class_answers WHERE activity IN ({marks}) AND first_try = 1 "
                         "ORDER BY at, answer_id", tuple(activities))
        names = {r[0]: r[1] for r in rows}  # the latest name of each key
        out: dict[str, list[tuple[str, str, str, bool]]] = {}
        for key, _name, d, activity, item, right in rows:
            out.setdefault(names[key], []).append((d, activity, item, bool(right)))
        return out

    def seen(self, student: str, lesson: int, at: float | None = None) -> None:
        """Note that `student` is on the page of `lesson` now (or at `at`)."""
        at = time.time() if at is None else float(at)
        try:
            name, key = clean_name(student)
        except CodeError as e:
            raise AnswerRefused(f"student: {e}") from e
        if type(lesson) is not int or not 0 <= lesson <= 99:
            raise AnswerRefused(f"lesson: a whole number from 0 to 99; got {lesson!r}")
        with self._write() as c:
            self._seen(c, name, key, lesson, at)

    def _seen(self, c: Cursor, name: str, key: str, lesson: int, at: float) -> None:
        day = day_of(at)
        if why := check_student_room(c, day, key):  # rooms/caps.py: a day's students
            raise AnswerRefused(why)
        c.run("INSERT INTO icg_presence (day, student_key, student, lesson, at) "
              "VALUES (?, ?, ?, ?, ?) ON CONFLICT (day, student_key) DO UPDATE SET "
              "student = excluded.student, lesson = excluded.lesson, at = excluded.at "
              "WHERE icg_presence.at <= excluded.at", (day, key, name, lesson, at))

    # ----- reading ------------------------------------------------------------------------------
    def answers(self, day: str | None = None) -> list[Answer]:
        """The answers of `day` (default: today), oldest first."""
        day = _day(day)
        with self._write() as c:
            rows = c.all("SELECT answer_id, student, lesson, activity, item, kind, terms, given, "
                         "right_answer, first_try, at, mistake, variant, partner "
                         "FROM icg_class_answers WHERE day = ? ORDER BY at, answer_id", (day,))
        return [Answer(r[0], r[1], int(r[2]), r[3], r[4], r[5], r[6], r[7], bool(r[8]),
                       bool(r[9]), float(r[10]), r[11], int(r[12]), r[13]) for r in rows]

    def presence(self, day: str | None = None) -> list[Presence]:
        """Every student seen on `day` (default: today): the page and the last time, latest
        first."""
        day = _day(day)
        with self._write() as c:
            rows = c.all("SELECT student, lesson, at FROM icg_presence WHERE day = ? "
                         "ORDER BY at DESC, student", (day,))
        return [Presence(r[0], int(r[1]), float(r[2])) for r in rows]

    def stamp(self, day: str | None = None) -> tuple[Any, ...]:
        """Changes whenever an answer or a page of `day` is written (one small read)."""
        day = _day(day)
        with self._write() as c:
            a = c.one("SELECT COUNT(*), MAX(at) FROM icg_class_answers WHERE day = ?", (day,))
            p = c.one("SELECT COUNT(*), MAX(at) FROM icg_presence WHERE day = ?", (day,))
        return (*a, *p)

    def csv_text(self, day: str | None = None, *, header: Sequence[str] = CSV_COLUMNS,
                 row: Callable[[Answer], Sequence[object]] | None = None) -> str:
        """The day's answers as CSV (a header row, then one row an answer, oldest first).
        `row` makes an answer's cells (default: the data as stored; the dashboard passes one
        that writes them in the teacher's language)."""
        return csv_of(self.answers(day), header=header, row=row or data_row)

    def ask_practice(self, students: Sequence[str], skill: str, at: float | None = None,
                     mistake: str | None = None) -> int:
        """The teacher's "practise this": each of `students` is offered `skill` next on their
        practice page (today), its first questions aimed at `mistake` when given (one of
        SKILL_TARGETS[skill]). The number of students asked."""
        if skill not in SKILLS:
            raise AnswerRefused(f"skill: one of {', '.join(SKILLS)}")
        if mistake is not None and mistake not in SKILL_TARGETS[skill]:
            raise AnswerRefused(f"mistake: one of {', '.join(sorted(SKILL_TARGETS[skill]))}")
        at = time.time() if at is None else float(at)
        keys = set()
        for student in students:
            try:
                keys.add(clean_name(student)[1])
            except CodeError as e:
                raise AnswerRefused(f"student: {e}") from e
        with self._write() as c:
            for key in sorted(keys):
                c.run("INSERT INTO icg_practice_asked (day, student_key, skill, at, mistake) "
                      "VALUES (?, ?, ?, ?, ?) ON CONFLICT (day, student_key, skill) DO UPDATE "
                      "SET at = excluded.at, mistake = excluded.mistake",
                      (day_of(at), key, skill, at, mistake or ""))
        return len(keys)

    def practice_asked(self, student: str,
                       day: str | None = None) -> list[tuple[str, str | None]]:
        """The skills the teacher asked `student` to practise on `day` (default today), each
        with the mistake to aim at (None: the skill alone), latest first."""
        day = _day(day)
        key = clean_name(student)[1]
        with self._write() as c:
            rows = c.all("SELECT skill, mistake FROM icg_practice_asked WHERE day = ? AND "
                         "student_key = ? ORDER BY at DESC", (day, key))
        return [(r[0], r[1] or None) for r in rows]

    def done_practice(self, student: str, skill: str, day: str | None = None) -> None:
        """The student took up the skill asked: no longer offered."""
        day = _day(day)
        key = clean_name(student)[1]
        with self._write() as c:
            c.run("DELETE FROM icg_practice_asked WHERE day = ? AND student_key = ? AND "
                  "skill = ?", (day, key, skill))

    # ----- deleting -----------------------------------------------------------------------------
    def delete_day(self, day: str | None = None) -> int:
        """Delete every answer and page of `day` (default: today); the number of answers."""
        day = _day(day)
        with self._write() as c:
            n = c.run("DELETE FROM icg_class_answers WHERE day = ?", (day,))
            c.run("DELETE FROM icg_presence WHERE day = ?", (day,))
            c.run("DELETE FROM icg_practice_asked WHERE day = ?", (day,))
        return n

    def keep_days(self) -> int:
        """How many days answers are kept (the teacher's setting; 7 unless set)."""
        with self._write() as c:
            row = c.one("SELECT value FROM icg_class_settings WHERE name = ?", ("keep_days",))
        try:
            return int(row[0]) if row else DEFAULT_KEEP_DAYS
        except ValueError:
            return DEFAULT_KEEP_DAYS

    def set_keep_days(self, days: object) -> int:
        if type(days) is not int or not 1 <= days <= MAX_KEEP_DAYS:
            raise AnswerRefused(f"days: a whole number from 1 to {MAX_KEEP_DAYS}")
        with self._write() as c:
            c.run("INSERT INTO icg_class_settings (name, value) VALUES (?, ?) "
                  "ON CONFLICT (name) DO UPDATE SET value = excluded.value",
                  ("keep_days", str(days)))
        return days

    def expire(self, now: float | None = None) -> int:
        """Delete the answers and pages of days more than `keep_days()` days before today (a
        day kept 7 days is deleted on the eighth), the answers to the unit's two checks after
        UNIT_KEEP_DAYS days at least (the start of the unit beside its end); the number of
        answers deleted."""
        now = time.time() if now is None else now
        days = self.keep_days()
        first_kept = day_of(now - (days - 1) * 86400)
        unit_first_kept = day_of(now - (max(days, UNIT_KEEP_DAYS) - 1) * 86400)
        checks = ", ".join("?" for _c in UNIT_CHECKS)
        with self._write() as c:
            n = c.run(f"DELETE FROM icg_class_answers WHERE day < ? AND activity NOT IN "
                      f"({checks})", (first_kept, *UNIT_CHECKS))
            n += c.run(f"DELETE FROM icg_class_answers WHERE day < ? AND activity IN "
                       f"({checks})", (unit_first_kept, *UNIT_CHECKS))
            c.run("DELETE FROM icg_presence WHERE day < ?", (first_kept,))
            c.run("DELETE FROM icg_practice_asked WHERE day < ?", (first_kept,))
        return n


def _day(day: str | None) -> str:
    if day is None:
        return day_of(time.time())
    if not isinstance(day, str) or not DAY.match(day):
        raise AnswerRefused(f"day: YYYY-MM-DD; got {day!r}")
    return day


def data_row(a: Answer) -> list[object]:
    """An answer's cells as stored (CSV_COLUMNS)."""
    return [time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(a.at)), a.student, a.partner,
            a.lesson, a.activity, a.item, a.kind, a.terms, a.variant, a.given, int(a.right),
            int(a.first_try), a.mistake or ""]


def csv_of(rows: Sequence[Any], *, header: Sequence[str],
           row: Callable[[Any], Sequence[object]]) -> str:
    """CSV text: the header, then `row(r)` for each of `rows`; a text cell is never a formula."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([_cell(h) for h in header])
    for r in rows:
        writer.writerow([_cell(c) if isinstance(c, str) else c for c in row(r)])
    return out.getvalue()


def _cell(text: str) -> str:
    """A CSV cell that a spreadsheet does not run as a formula (=, +, -, @ first)."""
    if text[:1] in ("=", "+", "-", "@", "\t", "\r") and not _number(text):
        return "'" + text
    return text


def _number(text: str) -> bool:
    return re.fullmatch(r"[+-]?\d+", text) is not None


# ----- a kernel's answers on their way to the store ----------------------------------------------
RETRY_AFTER = (0.2, 0.5, 1.0, 2.0, 5.0, 10.0)  # seconds, then every 10 s
SPOOL_ENV = "ICG_ANSWERS_WAITING"


def spool_dir() -> Path:
    """The folder where outboxes keep the answers the store has not taken yet:
    $ICG_ANSWERS_WAITING, else .answers-waiting beside the project."""
    return Path(os.environ.get(SPOOL_ENV, "").strip() or DEFAULT_PATH.parent / ".answers-waiting")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


def _to_json(item: Answer | Presence) -> dict:
    return {"answer" if isinstance(item, Answer) else "presence": asdict(item)}


def _from_json(entry: dict) -> Answer | Presence:
    if set(entry) == {"answer"}:
        return Answer(**entry["answer"])
    if set(entry) == {"presence"}:
        return Presence(**entry["presence"])
    raise ValueError(f"not an answer or a page: {sorted(entry)}")


class Outbox:
    """Answers and pages waiting for the store. `put` returns at once; a thread of the
    outbox's own sends them in order and, while the store cannot be reached, tries again after
    RETRY_AFTER. An answer refused as malformed is dropped (logged); nothing else is.

    `opener` makes the store (called again after a failure to open it); `thread=False` sends
    nothing by itself (a test calls `flush`).

    With a `spool` folder, what waits after a failure is written to a file of this outbox's
    own there (`<pid>-<id>.json`, rooms.spool: 0600 in a 0700 folder, one line appended per
    change, bounded; removed once everything is sent), so that the answers outlive the kernel.
    An outbox that has sent everything takes over the
    files of outboxes whose process has ended, and sends their answers (their ids keep a
    resent answer single). A file that cannot be read is renamed `.unreadable`, kept for the
    teacher, and not read again."""

    def __init__(self, opener: Callable[[], ClassAnswers], *, thread: bool = True,
                 retry_after: tuple[float, ...] = RETRY_AFTER, spool: Path | None = None
                 ) -> None:
        self.opener = opener
        self.retry_after = retry_after
        self.spool = spool
        self._spool_file = (spool / f"{os.getpid()}-{uuid.uuid4().hex}.json"
                            if spool is not None else None)
        self._waiting = False  # the last send failed: what is pending is in the spool file
        self._spool = SpoolFile(self._spool_file) if self._spool_file is not None else None
        self._saved = False  # the spool file exists
        self.adopted = 0  # answers and pages taken over from ended outboxes' files
        self.pending: list[Answer | Presence] = []
        self.sent = 0
        self.doubles = 0  # answers the store had already (a retry after a lost reply)
        self.failures = 0
        self.dropped = 0
        self._store: ClassAnswers | None = None
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stop = False
        self._thread: threading.Thread | None = None
        if thread:
            self._thread = threading.Thread(target=self._run, name="icg-answers", daemon=True)
            self._thread.start()

    def put(self, item: Answer | Presence) -> None:
        with self._lock:
            self.pending.append(item)
            if self._waiting:
                self._save([item])
        self._wake.set()

    def flush(self) -> int:
        """Send what is pending, in order, until the store refuses; the number still pending.
        Once nothing is pending, the spool's files of ended outboxes are taken over and sent."""
        while True:
            with self._lock:
                if not self.pending:
                    self._waiting = False
                    if self._saved:
                        self._save()
                    if not self._adopt():
                        return 0
                item = self.pending[0]
            try:
                store = self._store if self._store is not None else self.opener()
                self._store = store
                if isinstance(item, Answer):
                    if not store.record(item):
                        self.doubles += 1
                else:
                    store.seen(item.student, item.lesson, item.at)
            except StoreUnavailable as e:
                self.failures += 1
                log.info("class store not reached, answer kept for later: %s", e)
                with self._lock:
                    self._waiting = True
                    self._save()
                    return len(self.pending)
            except AnswerRefused as e:
                self.dropped += 1
                log.warning("answer not written: %s", e)
            else:
                self.sent += 1
            with self._lock:
                self.pending.pop(0)

    def _save(self, added: list[Answer | Presence] | None = None) -> None:
        """The spool file gets `added` appended (None: what is pending, unless the file is
        there already); no file when nothing is pending. Under the lock."""
        if self._spool is None:
            return
        try:
            if not self.pending:
                self._spool.remove()
                self._saved = False
                return
            if added is None and self._saved:
                return
            self._spool.append([_to_json(i) for i in (self.pending if added is None else added)])
            self._saved = self._spool.exists
        except OSError as e:  # the answers stay in memory and are retried all the same
            log.warning("waiting answers not written to %s: %s", self._spool_file, e)

    def _adopt(self) -> bool:
        """Take over the spool files of outboxes whose process has ended: their answers join
        `pending` and this outbox's own file before theirs is removed. True if any did."""
        if self.spool is None or not self.spool.is_dir():
            return False
        taken = False
        for f in sorted(self.spool.glob("*.json")):
            pid = f.name.split("-", 1)[0]
            if f == self._spool_file or not pid.isdigit() or _alive(int(pid)):
                continue
            try:
                items = [_from_json(e) for e in read_items(f)]
            except (OSError, ValueError, TypeError, AttributeError) as e:
                log.warning("waiting answers in %s cannot be read (%s); kept as .unreadable",
                            f, e)
                f.replace(f.with_suffix(".unreadable"))
                continue
            self.pending.extend(items)
            self.adopted += len(items)
            self._save(items)
            f.unlink(missing_ok=True)
            taken = taken or bool(items)
        return taken

    def wait_sent(self, timeout: float = 30.0) -> bool:
        """Block until nothing is pending (True) or `timeout` seconds pass (False)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            with self._lock:
                if not self.pending:
                    return True
            self._wake.set()
            time.sleep(0.02)
        return False

    def _run(self) -> None:
        failures = 0
        while not self._stop:
            if failures:
                delay = self.retry_after[min(failures, len(self.retry_after)) - 1]
                self._wake.wait(delay)
            else:
                self._wake.wait()
            self._wake.clear()
            if self._stop:
                break
            try:
                left = self.flush()
            except Exception:  # noqa: BLE001 - the thread must go on for the next answers
                log.exception("class answers: sending failed")
                left = len(self.pending)
            failures = failures + 1 if left else 0

    def stop(self) -> None:
        self._stop = True
        self._wake.set()
