"""A class finishes an exit ticket in the same minute: 30 students' answers on the teacher's
dashboard, none lost or doubled, and how soon each one appears there.

The real store (an SQLite file by default; with --store postgresql a throwaway PostgreSQL
cluster from tests/pg_cluster.py) and the real code of both sides, in one process:

* each student is a thread with a page's own parts: an `ExitTicket(lesson=2)` widget, its name
  bar (the student types a first name), and a `Student` whose `Outbox` sends the answers to the
  store on a thread of its own, through a connection of its own (as each student's kernel
  does). Students arrive in the first half of --minute and answer the five questions with a
  pause of --think seconds each (about a third of the answers wrong, with a mistake);
* the store blips: each write fails with the store unreachable with probability --blips,
  half of them before the write, half after it committed (the reply lost), so the outbox tries
  again and the store must not double the answer;
* the teacher's dashboard is the class view's `AnswersPanel` on the same store, polled every
  0.25 s as the class view polls; an answer "appears" when a redraw of the panel read it.

Measured: for each answer, the seconds from the student's click to the panel's redraw that
holds it (p50, p95, max); lost answers (given on a page, not in the store after the run) and
doubled ones (a student's question with more than one row). The last line:

    class session: 30 students, N answers, lost 0, doubled 0, dashboard p95 X s

    .venv/bin/python benchmarks/class_session.py                    # 30 students, one minute
    .venv/bin/python benchmarks/class_session.py --store postgresql
    .venv/bin/python benchmarks/class_session.py --students 5 --minute 10   # a quick look
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rooms import StoreUnavailable  # noqa: E402
from rooms.answers import (  # noqa: E402
    Answer,
    ClassAnswers,
    Outbox,
    day_of,
    open_answers,
)
from widgets.lessons.exit_ticket import TICKETS, ExitTicket  # noqa: E402
from widgets.lessons.student import Student  # noqa: E402
from widgets.together.dashboard import AnswersPanel  # noqa: E402

LESSON = 2
NAMES = ("Ana Ben Cam Dee Eli Fay Gus Hal Ida Jo Kai Lea Max Nia Oli Pia Quin Ray Sol Tia Uma "
         "Val Wes Xia Yan Zoe Abe Bo Cy Di Ed Flo Gia Hu Ivo Jay Kim Liv Mo Ned").split()
POLL_EVERY = 0.25  # the class view's interval


class Blips:
    """The student's own store connection, failing now and then: before the write (nothing
    written) or after it committed (the reply lost)."""

    def __init__(self, store: ClassAnswers, rate: float, rng: random.Random) -> None:
        self.store, self.rate, self.rng = store, rate, rng
        self.before = self.after = 0

    def record(self, answer: Answer) -> bool:
        roll = self.rng.random()
        if roll < self.rate / 2:
            self.before += 1
            raise StoreUnavailable("unavailable", error="blip before the write")
        written = self.store.record(answer)
        if roll < self.rate:
            self.after += 1
            raise StoreUnavailable("unavailable", error="blip after the write: reply lost")
        return written

    def seen(self, *args: Any) -> None:
        if self.rng.random() < self.rate:
            raise StoreUnavailable("unavailable", error="blip")
        self.store.seen(*args)


def answer_question(ticket: ExitTicket, rng: random.Random, wrong_share: float) -> None:
    """One question answered as a student does: right, or one of its wrong answers."""
    item = ticket.items[ticket.index]
    wrong = rng.random() < wrong_share
    if item.choices:
        options = [i for i, c in enumerate(item.choices) if (c == item.answer) != wrong]
        ticket.choose(rng.choice(options))
    else:
        value = item.answer
        if wrong:
            value = rng.choice([-item.answer or 1, item.answer + 1, 17])
        ticket.entry.value = str(value)
        ticket.check_typed()
    ticket.next_question()


def student_run(n: int, url: str, args: argparse.Namespace, start: float,
                given: list[tuple[str, str]], boxes: list[Outbox], blips: list[Blips],
                errors: list[str]) -> None:
    rng = random.Random(args.seed * 1000 + n)
    try:
        connection = Blips(open_answers(url), args.blips, rng)
        blips.append(connection)
        me = Student()
        me.outbox = Outbox(lambda: connection, retry_after=(0.2, 0.5, 1.0, 2.0))
        boxes.append(me.outbox)
        ticket = ExitTicket(lesson=LESSON, student=me)
        time.sleep(max(0.0, start + rng.uniform(0, args.minute / 2) - time.time()))
        ticket.start()
        ticket.name_bar.first.value = NAMES[n]
        if not ticket.name_bar.name_me():
            raise RuntimeError(f"{NAMES[n]} was not taken as a name")
        for _question in ticket.items:
            time.sleep(rng.uniform(*args.think))
            answer_question(ticket, rng, args.wrong)
            given.append((NAMES[n], str(len(ticket.marks))))
        if not ticket.finished:
            raise RuntimeError(f"{NAMES[n]}'s ticket did not finish")
    except Exception as e:  # noqa: BLE001 - reported, and the run fails
        errors.append(f"{NAMES[n]}: {type(e).__name__}: {e}")


def run(url: str, args: argparse.Namespace) -> int:
    ClassAnswers(url)  # the tables, before the class arrives
    panel = AnswersPanel(url=url)
    seen_at: dict[str, float] = {}
    reads: list[list[Answer]] = []
    read = panel.answers.answers

    def watched(day: str | None = None) -> list[Answer]:
        rows = read(day)
        reads.append(rows)
        return rows

    panel.answers.answers = watched  # type: ignore[method-assign]
    given: list[tuple[str, str]] = []
    boxes: list[Outbox] = []
    blips: list[Blips] = []
    errors: list[str] = []
    start = time.time() + 1.0
    threads = [threading.Thread(target=student_run, args=(n, url, args, start, given, boxes,
                                                          blips, errors), daemon=True)
               for n in range(args.students)]
    for t in threads:
        t.start()
    expected = args.students * len(TICKETS[LESSON])
    deadline = start + args.minute + args.timeout
    redraws = 0
    while time.time() < deadline:
        reads.clear()
        if panel.poll():
            redraws += 1
            now = time.time()
            for rows in reads:
                for a in rows:
                    seen_at.setdefault(a.answer_id, now)
        if len(seen_at) >= expected and not any(t.is_alive() for t in threads):
            break
        time.sleep(POLL_EVERY)
    for t in threads:
        t.join(timeout=5)
    sent = all(box.wait_sent(5) for box in boxes)
    for box in boxes:
        box.stop()

    stored = read(day_of(time.time()))
    per_question = Counter((a.student, a.item) for a in stored)
    doubled = sum(n - 1 for n in per_question.values() if n > 1)
    lost = len(set(given) - set(per_question))
    latencies = sorted(seen_at[a.answer_id] - a.at for a in stored if a.answer_id in seen_at)
    unseen = sum(a.answer_id not in seen_at for a in stored)
    p95 = latencies[max(0, round(0.95 * len(latencies)) - 1)] if latencies else float("nan")
    before = sum(b.before for b in blips)
    after = sum(b.after for b in blips)
    retries = sum(box.failures for box in boxes)
    print(f"store: {panel.answers.kind}; {args.students} students, lesson {LESSON}'s exit ticket "
          f"({len(TICKETS[LESSON])} questions), arriving within {args.minute / 2:g} s, "
          f"{args.think[0]:g}-{args.think[1]:g} s a question")
    print(f"answers given {len(given)}, in the store {len(stored)}, right "
          f"{sum(a.right for a in stored)}, with a mistake named "
          f"{sum(a.mistake is not None for a in stored)}")
    print(f"store blips: {before} before the write, {after} after it (reply lost); outbox "
          f"retries {retries}, answers the store already had {sum(b.doubles for b in boxes)}")
    if latencies:
        print(f"click to dashboard: p50 {statistics.median(latencies):.2f} s, p95 {p95:.2f} s, "
              f"max {latencies[-1]:.2f} s over {len(latencies)} answers ({redraws} redraws, "
              f"polled every {POLL_EVERY:g} s); never seen on the dashboard: {unseen}")
    for e in errors:
        print(f"error: {e}")
    print(f"class session: {args.students} students, {len(stored)} answers, lost {lost}, "
          f"doubled {doubled}, dashboard p95 {p95:.2f} s")
    ok = not errors and sent and lost == 0 and doubled == 0 and unseen == 0 \
        and len(given) == expected
    return 0 if ok else 1


def pg_url() -> tuple[str, Any] | None:
    """A throwaway PostgreSQL cluster (tests/pg_cluster.py), or None without its binaries."""
    sys.path.insert(0, str(ROOT / "tests"))
    try:
        from pg_cluster import throwaway_database
    finally:
        sys.path.pop(0)
    return throwaway_database("class_bench")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--students", type=int, default=30)
    ap.add_argument("--store", choices=("sqlite", "postgresql"), default="sqlite")
    ap.add_argument("--minute", type=float, default=60.0,
                    help="seconds in which every student arrives and answers")
    ap.add_argument("--think", type=float, nargs=2, default=(1.5, 5.5),
                    help="seconds a student takes over a question (from, to)")
    ap.add_argument("--wrong", type=float, default=0.35, help="share of wrong answers")
    ap.add_argument("--blips", type=float, default=0.1,
                    help="chance that a write meets the store unreachable")
    ap.add_argument("--timeout", type=float, default=60.0,
                    help="seconds after the minute before the run gives up")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    if not 1 <= args.students <= len(NAMES):
        ap.error(f"--students 1..{len(NAMES)}")
    if not 0 <= args.blips < 1 or not 0 <= args.wrong <= 1:
        ap.error("--blips from 0 to below 1, --wrong from 0 to 1")
    cluster = None
    if args.store == "postgresql":
        got = pg_url()
        if got is None:
            print("class session: no PostgreSQL binaries (apt-get install postgresql)",
                  file=sys.stderr)
            return 2
        url, cluster = got
    else:
        url = f"sqlite:///{Path(tempfile.mkdtemp(prefix='class-bench-')) / 'rooms.sqlite3'}"
    try:
        return run(url, args)
    finally:
        if cluster is not None:
            cluster.cleanup()


if __name__ == "__main__":
    sys.exit(main())
