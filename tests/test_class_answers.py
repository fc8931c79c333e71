"""The class's answers in the room store's database (rooms/answers.py), on SQLite and on
a real PostgreSQL: written once whatever the retries, kept until the store is back, read per
day, as CSV, and deleted by day or after the days the teacher sets."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pytest

from rooms import StoreUnavailable
from rooms.answers import (
    DEFAULT_KEEP_DAYS,
    Answer,
    AnswerRefused,
    ClassAnswers,
    Outbox,
    Presence,
    day_of,
    new_answer_id,
    open_and_expire,
    open_answers,
    spool_dir,
)
from rooms.spool import read_items

ROOT = Path(__file__).resolve().parent.parent

NOON = time.mktime((2026, 12, 1, 12, 0, 0, 0, 0, -1))  # local noon, 1 December 2026


def answer(student: str = "Ana", *, at: float = NOON, right: bool = False, question: str = "4",
           given: str = "+5", answer_id: str | None = None, **kw: Any) -> Answer:
    values = {"lesson": 1, "activity": "exit-ticket", "kind": "sum", "terms": "3,-8",
              "first_try": True, "mistake": None if right else "sign-of-closer"} | kw
    return Answer(answer_id or new_answer_id(), student, item=question, given=given,
                  right=right, at=at, **values)


def test_an_answer_is_written_once_and_read_back(rooms_url: str) -> None:
    store = open_answers(rooms_url)
    a = answer()
    assert store.record(a) is True
    assert store.record(a) is False  # the same id again: a retry
    assert store.record(answer("Ben", right=True, given="-5", at=NOON + 5)) is True
    got = store.answers(day_of(NOON))
    assert [(x.student, x.given, x.right, x.first_try, x.mistake) for x in got] == [
        ("Ana", "+5", False, True, "sign-of-closer"), ("Ben", "-5", True, True, None)]
    assert got[0] == a
    assert store.answers("2026-12-02") == []
    # another kernel's connection sees them (one database for the class)
    assert len(open_answers(rooms_url).answers(day_of(NOON))) == 2


def test_the_page_each_student_is_on(rooms_url: str) -> None:
    store = open_answers(rooms_url)
    store.seen("Ana", 1, at=NOON)
    store.seen("ana ", 2, at=NOON + 60)  # the same student (names compared by their key)
    store.seen("Ben", 3, at=NOON + 30)
    store.seen("Ana", 1, at=NOON + 10)  # late news of an older page changes nothing
    store.record(answer("Ben", at=NOON + 90, lesson=3))  # an answer is activity too
    assert store.presence(day_of(NOON)) == [Presence("Ben", 3, NOON + 90),
                                            Presence("ana", 2, NOON + 60)]


@pytest.mark.parametrize("bad", [
    {"student": "Computer 3"}, {"student": ""}, {"student": "x" * 25}, {"student": "<b>"},
    {"answer_id": "short"}, {"answer_id": "a b c d e f g h"}, {"lesson": "2"},
    {"lesson": True}, {"activity": "exam"}, {"given": "9" * 41}, {"terms": "1," * 40},
    {"kind": "product"}, {"terms": "a,b"}, {"item": ""}, {"variant": -1}, {"partner": "<b>"},
    {"right": 1}, {"first_try": None}, {"at": float("nan")}, {"mistake": 7},
])
def test_a_malformed_answer_is_refused_and_nothing_written(tmp_path: Path, bad: dict) -> None:
    store = open_answers(f"sqlite:///{tmp_path / 'r.sqlite3'}")
    fields = {"answer_id": new_answer_id(), "student": "Ana", "lesson": 1,
              "activity": "exit-ticket", "item": "1", "kind": "ticket", "terms": "", "given": "3",
              "right": True, "first_try": True, "at": NOON, "mistake": None} | bad
    with pytest.raises(AnswerRefused):
        store.record(Answer(**fields))
    assert store.answers(day_of(NOON)) == []


def test_csv_of_the_day(rooms_url: str) -> None:
    store = open_answers(rooms_url)
    store.record(answer("Ana", given="+5"))
    store.record(answer("Ben", right=True, given="-5", at=NOON + 1))
    store.record(answer("Cam", given="=HYPERLINK(1)", activity="practice", at=NOON + 2,
                        first_try=False, mistake=None))
    store.record(answer("Dee", at=NOON + 86400))  # another day
    rows = list(csv.reader(io.StringIO(store.csv_text(day_of(NOON)))))
    assert rows[0] == ["time", "student", "partner", "lesson", "activity", "item", "kind",
                       "numbers", "variant", "answer", "right", "first_try", "mistake"]
    assert [r[1] for r in rows[1:]] == ["Ana", "Ben", "Cam"]
    assert rows[1][6:] == ["sum", "3,-8", "0", "+5", "0", "1", "sign-of-closer"]
    assert rows[2][9:] == ["-5", "1", "1", ""]
    assert rows[3][9] == "'=HYPERLINK(1)"  # a spreadsheet does not run it


def test_delete_today_and_after_the_days_set(rooms_url: str) -> None:
    store = open_answers(rooms_url)
    days = [NOON - d * 86400 for d in (0, 1, 6, 7, 8)]
    for at in days:
        store.record(answer(at=at))
        store.seen("Ana", 1, at=at)
    assert store.keep_days() == DEFAULT_KEEP_DAYS == 7
    assert store.expire(now=NOON) == 2  # 7 and 8 days ago: the 8th and 9th day
    assert [len(store.answers(day_of(at))) for at in days] == [1, 1, 1, 0, 0]
    assert store.set_keep_days(2) == 2 and open_answers(rooms_url).keep_days() == 2
    assert store.expire(now=NOON) == 1
    assert store.delete_day(day_of(NOON)) == 1
    assert store.answers(day_of(NOON)) == [] and store.presence(day_of(NOON)) == []
    assert len(store.answers(day_of(NOON - 86400))) == 1  # yesterday's stays
    for bad in (0, 366, "7", 2.5, True):
        with pytest.raises(AnswerRefused):
            store.set_keep_days(bad)
    assert store.keep_days() == 2


class LostReply:
    """The real store, but the first `lose` replies are lost after the write committed (the
    network dropped the answer's acknowledgement)."""

    def __init__(self, store: ClassAnswers, lose: int) -> None:
        self.store, self.lose = store, lose

    def record(self, a: Answer) -> bool:
        written = self.store.record(a)
        if self.lose:
            self.lose -= 1
            raise StoreUnavailable("unavailable", error="connection lost")
        return written

    def seen(self, *args: Any) -> None:
        self.store.seen(*args)


def test_a_retry_after_a_lost_reply_does_not_double(rooms_url: str) -> None:
    store = open_answers(rooms_url)
    box = Outbox(lambda: LostReply(store, lose=2), thread=False)
    opened = LostReply(store, lose=2)
    box.opener = lambda: opened
    a, b = answer("Ana"), answer("Ben", at=NOON + 1)
    box.put(a)
    box.put(b)
    assert box.flush() == 2 and box.flush() == 2  # kept, in order
    assert box.flush() == 0
    assert box.doubles == 1 and box.sent == 2 and box.failures == 2
    assert [x.answer_id for x in store.answers(day_of(NOON))] == [a.answer_id, b.answer_id]


def test_answers_wait_while_sqlite_cannot_be_opened(tmp_path: Path) -> None:
    folder = tmp_path / "not-yet"
    url = f"sqlite:///{folder / 'rooms.sqlite3'}"
    box = Outbox(lambda: open_answers(url), thread=False)
    a = answer()
    box.put(a)
    box.put(Presence("Ana", 1, NOON))
    assert box.flush() == 2 and box.failures == 1  # no folder: the store cannot be opened
    folder.mkdir()
    assert box.flush() == 0
    assert open_answers(url).answers(day_of(NOON)) == [a]


def test_a_malformed_answer_in_the_outbox_is_dropped_not_retried(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'r.sqlite3'}"
    box = Outbox(lambda: open_answers(url), thread=False)
    box.put(answer("Computer 2"))
    box.put(answer("Ana"))
    assert box.flush() == 0 and box.dropped == 1 and box.sent == 1


@pytest.mark.pg
def test_answers_wait_while_postgresql_is_down(pg_cluster: Any) -> None:
    url = pg_cluster.create_db(f"answers_down_{id(pg_cluster) % 10000}")
    store = open_answers(url)
    box = Outbox(lambda: store, thread=True, retry_after=(0.05, 0.1, 0.2))
    first = answer("Ana")
    box.put(first)
    assert box.wait_sent(30)
    pg_cluster.stop()
    try:
        kept = [answer(name, at=NOON + i) for i, name in enumerate(["Ben", "Cam", "Dee"], 1)]
        for a in kept:
            box.put(a)
        end = time.monotonic() + 30
        while box.failures < 2 and time.monotonic() < end:
            time.sleep(0.05)
        assert box.failures >= 2 and len(box.pending) == 3
    finally:
        pg_cluster.start_again()
    assert box.wait_sent(60)
    box.stop()
    got = open_answers(url).answers(day_of(NOON))
    assert [a.student for a in got] == ["Ana", "Ben", "Cam", "Dee"]


# A kernel whose page closes while the store cannot be reached: its outbox fails once and the
# process ends (argv: the store's URL, the spool folder, the answers as JSON).
ENDED_KERNEL = """
import json, sys
from rooms.answers import Answer, Outbox, Presence, open_answers
url, spool, items = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
box = Outbox(lambda: open_answers(url), thread=False, spool=__import__("pathlib").Path(spool))
for a in items:
    box.put(Answer(**a))
box.put(Presence(items[0]["student"], 1, items[0]["at"]))
assert box.flush() == len(items) + 1
"""


def test_answers_waiting_when_their_kernel_ends_are_sent_by_the_next_outbox(
        tmp_path: Path) -> None:
    """The store is down when a page closes: the answers waiting in its kernel are in the
    spool file when the kernel ends. The next outbox that reaches the store (another student's
    kernel) sends them with its own, once each (Ana's had reached the store before a lost
    reply), and the file goes."""
    spool = tmp_path / "waiting"
    url = f"sqlite:///{tmp_path / 'r.sqlite3'}"
    store = open_answers(url)
    ana, ben = answer("Ana"), answer("Ben", at=NOON + 1)
    store.record(ana)
    down = f"sqlite:///{tmp_path / 'no-folder' / 'r.sqlite3'}"
    subprocess.run([sys.executable, "-c", ENDED_KERNEL, down, str(spool),
                    json.dumps([asdict(ana), asdict(ben)])], cwd=ROOT, check=True)
    files = list(spool.glob("*.json"))
    assert len(files) == 1 and len(read_items(files[0])) == 3
    box = Outbox(lambda: open_answers(url), thread=False, spool=spool)
    cam = answer("Cam", at=NOON + 2)
    box.put(cam)
    assert box.flush() == 0
    assert box.adopted == 3 and box.doubles == 1 and box.sent == 4
    assert [a.answer_id for a in store.answers(day_of(NOON))] == [
        ana.answer_id, ben.answer_id, cam.answer_id]
    assert sorted(p.student for p in store.presence(day_of(NOON))) == ["Ana", "Ben", "Cam"]
    assert list(spool.iterdir()) == []


def test_a_live_kernels_waiting_answers_stay_its_own(tmp_path: Path) -> None:
    """An outbox that waits for the store keeps its answers in its file while its process
    lives: another outbox that reaches the store leaves that file alone; once the first sends
    them, its file goes. An unreadable file of an ended process is kept aside, not lost."""
    spool = tmp_path / "waiting"
    folder = tmp_path / "not-yet"
    url = f"sqlite:///{folder / 'r.sqlite3'}"
    waiting = Outbox(lambda: open_answers(url), thread=False, spool=spool)
    waiting.put(answer("Ana"))
    assert waiting.flush() == 1
    waiting.put(answer("Ben", at=NOON + 1))  # written at once while the store is down
    (mine,) = spool.glob("*.json")
    assert len(read_items(mine)) == 2
    broken = spool / "99999999-0.json"  # no process has this number
    broken.write_text("[{")
    folder.mkdir()
    other = Outbox(lambda: open_answers(url), thread=False, spool=spool)
    other.put(answer("Cam", at=NOON + 2))
    assert other.flush() == 0 and other.adopted == 0
    assert mine.is_file() and (spool / "99999999-0.unreadable").read_text() == "[{"
    assert waiting.flush() == 0 and not mine.exists()
    assert [a.student for a in open_answers(url).answers(day_of(NOON))] == ["Ana", "Ben", "Cam"]


def test_the_spool_folder_is_set_by_the_environment(monkeypatch: pytest.MonkeyPatch,
                                                     tmp_path: Path) -> None:
    monkeypatch.setenv("ICG_ANSWERS_WAITING", str(tmp_path / "w"))
    assert spool_dir() == tmp_path / "w"
    monkeypatch.delenv("ICG_ANSWERS_WAITING")
    assert spool_dir() == ROOT / ".answers-waiting"


def test_a_students_page_deletes_the_days_no_longer_kept(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'r.sqlite3'}"
    old = answer(at=time.time() - 8 * 86400)
    open_answers(url).record(old)
    store = open_and_expire(url)  # as a student's page opens it, class view or not
    assert store.answers(old.day) == []


def test_a_second_first_try_is_refused(rooms_url: str) -> None:
    """For a named student, the first answer to an item is the one that stays first: a retake
    (restarted set, next student at the device, a reload) cannot write another first try; it
    is kept as a later try."""
    store = open_answers(rooms_url)
    assert store.record(answer("Ana", given="+5")) is True
    assert store.record(answer("ana", right=True, given="-7", at=NOON + 60)) is True
    assert store.record(answer("Ana", right=True, given="-5", at=NOON + 61,
                               first_try=False)) is True  # a later try is kept as later
    assert store.record(answer("Ana", question="5", at=NOON + 62)) is True  # another item
    assert store.record(answer("Ben", right=True, given="-5", at=NOON + 63)) is True
    assert store.record(answer("Ana", at=NOON + 86400)) is True  # another day
    got = store.answers(day_of(NOON))
    assert [(a.student, a.item, a.given, a.first_try) for a in got] == [
        ("Ana", "4", "+5", True), ("ana", "4", "-7", False), ("Ana", "4", "-5", False),
        ("Ana", "5", "+5", True),
        ("Ben", "4", "-5", True)]
    assert store.refused_first == 1
    assert store.first_tried("Ana", 1, "exit-ticket", day_of(NOON)) == {"4", "5"}


def test_a_students_practice_first_tries_of_every_day(rooms_url: str) -> None:
    """What a practice page reads back: the student's first tries at practice items, every
    day kept, oldest first; nobody else's, no later try, no other activity."""
    store = open_answers(rooms_url)
    for a in (answer("Ana", activity="practice", question="abs 5-1", at=NOON + 86400),
              answer("Ana", activity="practice", question="abs 5-1", at=NOON + 86401,
                     right=True, first_try=False),
              answer("Ana", activity="practice", question="add-2 4-1", at=NOON, right=True),
              answer("Ben", activity="practice", question="add-2 4-1", at=NOON),
              answer("Ana", question="4", at=NOON + 5)):
        assert store.record(a)
    assert store.practice_firsts("ana") == [
        (day_of(NOON), "add-2 4-1", True), (day_of(NOON + 86400), "abs 5-1", False)]
    assert store.practice_firsts("Cam") == []


OLD_PRACTICE_ASKED = """CREATE TABLE icg_practice_asked (
    day TEXT NOT NULL, student_key TEXT NOT NULL, skill TEXT NOT NULL, at {real} NOT NULL,
    PRIMARY KEY (day, student_key, skill))"""


def _make_old_practice_table(url: str) -> None:
    """The table as a store made before "practise this" named its mistake, with one ask."""
    if url.startswith("sqlite"):
        import sqlite3

        with sqlite3.connect(url.removeprefix("sqlite:///")) as conn:
            conn.execute(OLD_PRACTICE_ASKED.format(real="REAL"))
            conn.execute("INSERT INTO icg_practice_asked VALUES ('2026-12-01', 'ana', 'abs', 1)")
    else:
        import psycopg

        with psycopg.connect(url) as conn:
            conn.execute(OLD_PRACTICE_ASKED.format(real="DOUBLE PRECISION"))
            conn.execute("INSERT INTO icg_practice_asked VALUES ('2026-12-01', 'ana', 'abs', 1)")


def test_practise_this_keeps_its_mistake_and_an_older_store_gets_it(rooms_url: str) -> None:
    _make_old_practice_table(rooms_url)
    store = open_answers(rooms_url)
    assert store.practice_asked("Ana", "2026-12-01") == [("abs", None)]  # kept, no mistake
    assert store.ask_practice(["Ana", "Ben"], "subtract", NOON,
                              mistake="two-negatives-positive") == 2
    assert store.practice_asked("Ben", day_of(NOON)) == [("subtract", "two-negatives-positive")]
    assert store.ask_practice(["Ben"], "subtract", NOON + 1) == 1  # asked again, no mistake
    assert store.practice_asked("Ben", day_of(NOON)) == [("subtract", None)]
    with pytest.raises(AnswerRefused, match="mistake"):  # not a mistake of that skill
        store.ask_practice(["Ben"], "closer", NOON, mistake="two-negatives-positive")
    assert store.practice_asked("Ben", day_of(NOON)) == [("subtract", None)]


def test_the_unit_checks_are_kept_for_the_unit(rooms_url: str) -> None:
    """The readiness check's answers stay while the unit goes on (its start is compared with
    its end, weeks later) whatever shorter number of days the teacher keeps answers; after
    UNIT_KEEP_DAYS they go too. Other answers of the same days go after the days set."""
    from rooms.answers import UNIT_KEEP_DAYS

    store = open_answers(rooms_url)
    store.set_keep_days(7)
    ages = (10, UNIT_KEEP_DAYS - 1, UNIT_KEEP_DAYS)
    for days_ago in ages:
        at = NOON - days_ago * 86400
        store.record(answer("Ana", activity="readiness", at=at))
        store.record(answer("Ana", at=at + 1))
    assert store.expire(now=NOON) == 4  # three exit tickets, the oldest readiness check
    kept = [(a.activity, days_ago) for days_ago in ages
            for a in store.answers(day_of(NOON - days_ago * 86400))]
    assert kept == [("readiness", 10), ("readiness", UNIT_KEEP_DAYS - 1)]
    assert store.firsts_of(("readiness",))["Ana"][0][0] == day_of(
        NOON - (UNIT_KEEP_DAYS - 1) * 86400)
    store.set_keep_days(365)  # a longer setting keeps them longer too
    store.record(answer("Ben", activity="readiness", at=NOON - 100 * 86400))
    assert store.expire(now=NOON) == 0
