"""A class practises in the same minute: 30 students answer generated practice with a mix of
mistakes, every answer reaches the teacher's dashboard, none lost or doubled, and each student's
next item is chosen (targeted at the mistake they just showed).

The real store (an SQLite file by default; with --store postgresql a throwaway PostgreSQL
cluster from tests/pg_cluster.py) and the real code of both sides, in one process:

* each student is a thread with a page's own parts: a `SkillPractice` widget (every skill of
  the unit), a `Student` named at the start whose `Outbox` sends the answers to the store on a
  thread of its own, through a connection of its own (as each student's kernel does).
  Students arrive in the first half of --minute and answer --items questions with a pause of
  --think seconds each: about --wrong of the first tries wrong, most of them with a common
  mistake (the answer that mistake gives), then the right answer;
* the store blips: each write fails with the store unreachable with probability --blips,
  half of them before the write, half after it committed (the reply lost), so the outbox tries
  again and the store must not double the answer;
* the teacher's dashboard is the class view's `AnswersPanel` on the same store, polled every
  0.25 s as the class view polls; an answer "appears" when a redraw of the panel read it.

Measured: for each answer, the seconds from the student's click to the panel's redraw that
holds it (p95); the milliseconds the page takes to choose and show the next item (p95); lost
answers (given on a page, not in the store after the run) and doubled ones (a student's first
or later try at an item with more than one row). The last line:

    class session: 30 students, N answers, lost 0, doubled 0, dashboard p95 X s, next item p95 Y ms

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

from engine.mistakes import classify  # noqa: E402
from engine.questions import CHOICE_KINDS  # noqa: E402
from rooms import StoreUnavailable  # noqa: E402
from rooms.answers import (  # noqa: E402
    Answer,
    ClassAnswers,
    Outbox,
    day_of,
    open_answers,
)
from widgets.lessons.practice import SkillPractice  # noqa: E402
from widgets.lessons.student import Student  # noqa: E402
from widgets.together.dashboard import AnswersPanel  # noqa: E402

LESSON = 4
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


def a_mistake(page: SkillPractice, rng: random.Random) -> int:
    """A wrong answer to the page's question: one that shows a common mistake when there is
    one (mostly), else another wrong one."""
    shape = page.shape
    options = list(shape.options()) if shape.kind in CHOICE_KINDS else list(range(-30, 31))
    wrong = [g for g in options if g != shape.answer]
    named = [g for g in wrong if classify(shape, g) is not None]
    return rng.choice(named if named and rng.random() < 0.8 else wrong)


def give(page: SkillPractice, value: int) -> None:
    if page.shape.kind in CHOICE_KINDS:
        page.choose(list(page.shape.options()).index(value))
    else:
        page.answer.value = str(value)
        page.check_typed()


def student_run(n: int, url: str, args: argparse.Namespace, start: float,
                given: list[tuple[str, str, bool]], next_ms: list[float], boxes: list[Outbox],
                blips: list[Blips], errors: list[str]) -> None:
    rng = random.Random(args.seed * 1000 + n)
    try:
        connection = Blips(open_answers(url), args.blips, rng)
        blips.append(connection)
        me = Student()
        me.outbox = Outbox(lambda: connection, retry_after=(0.2, 0.5, 1.0, 2.0))
        me._reader = open_answers(url)  # the page's reads ("practise this"): no blips
        boxes.append(me.outbox)
        time.sleep(max(0.0, start + rng.uniform(0, args.minute / 2) - time.time()))
        me.set_names((NAMES[n],))
        page = SkillPractice(seed=args.seed * 1000 + n, student=me, lesson=LESSON)
        page.pick(rng.choice(page.skills))
        for i in range(args.items):
            time.sleep(rng.uniform(*args.think))
            item = f"{page.skill} {page.seed}-{page.number}"
            if rng.random() < args.wrong:
                give(page, a_mistake(page, rng))
                given.append((NAMES[n], item, True))
                give(page, page.shape.answer)
                given.append((NAMES[n], item, False))
            else:
                give(page, page.shape.answer)
                given.append((NAMES[n], item, True))
            if not page.done:
                raise RuntimeError(f"{NAMES[n]}: question {i + 1} not answered")
            t0 = time.perf_counter()
            page.next_question()
            next_ms.append((time.perf_counter() - t0) * 1000)
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
    given: list[tuple[str, str, bool]] = []
    next_ms: list[float] = []
    boxes: list[Outbox] = []
    blips: list[Blips] = []
    errors: list[str] = []
    start = time.time() + 1.0
    threads = [threading.Thread(target=student_run, args=(n, url, args, start, given, next_ms,
                                                          boxes, blips, errors), daemon=True)
               for n in range(args.students)]
    for t in threads:
        t.start()
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
        if not any(t.is_alive() for t in threads) and len(seen_at) >= len(given):
            break
        time.sleep(POLL_EVERY)
    for t in threads:
        t.join(timeout=5)
    sent = all(box.wait_sent(5) for box in boxes)
    for box in boxes:
        box.stop()

    stored = read(day_of(time.time()))
    per_question = Counter((a.student, a.item, a.first_try) for a in stored)
    doubled = sum(n - 1 for n in per_question.values() if n > 1)
    lost = len(set(given) - set(per_question))
    latencies = sorted(seen_at[a.answer_id] - a.at for a in stored if a.answer_id in seen_at)
    unseen = sum(a.answer_id not in seen_at for a in stored)
    p95 = latencies[max(0, round(0.95 * len(latencies)) - 1)] if latencies else float("nan")
    before = sum(b.before for b in blips)
    after = sum(b.after for b in blips)
    retries = sum(box.failures for box in boxes)
    next_ms.sort()
    next_p95 = next_ms[max(0, round(0.95 * len(next_ms)) - 1)] if next_ms else float("nan")
    print(f"store: {panel.answers.kind}; {args.students} students, {args.items} practice items "
          f"each, arriving within {args.minute / 2:g} s, {args.think[0]:g}-{args.think[1]:g} s "
          f"a question, {args.wrong:g} of first tries wrong")
    print(f"answers given {len(given)}, in the store {len(stored)}, right "
          f"{sum(a.right for a in stored)}, with a mistake named "
          f"{sum(a.mistake is not None for a in stored)}")
    print(f"store blips: {before} before the write, {after} after it (reply lost); outbox "
          f"retries {retries}, answers the store already had {sum(b.doubles for b in boxes)}")
    if latencies:
        print(f"click to dashboard: p50 {statistics.median(latencies):.2f} s, p95 {p95:.2f} s, "
              f"max {latencies[-1]:.2f} s over {len(latencies)} answers ({redraws} redraws, "
              f"polled every {POLL_EVERY:g} s); never seen on the dashboard: {unseen}")
    if next_ms:
        print(f"next item chosen and shown: p50 {statistics.median(next_ms):.1f} ms, p95 "
              f"{next_p95:.1f} ms, max {next_ms[-1]:.1f} ms over {len(next_ms)} items")
    mastered = sum(st.status() == "mastered" for by in panel.summary.skills.values()
                   for st in by.values())
    print(f"dashboard: {len(panel.summary.mistakes)} mistakes named, "
          f"{sum(len(v) for v in panel.summary.mistakes.values())} answers under them, "
          f"{mastered} skills mastered")
    for e in errors:
        print(f"error: {e}")
    print(f"class session: {args.students} students, {len(stored)} answers, lost {lost}, "
          f"doubled {doubled}, dashboard p95 {p95:.2f} s, next item p95 {next_p95:.1f} ms")
    ok = not errors and sent and lost == 0 and doubled == 0 and unseen == 0 \
        and len(given) == args.students * args.items + sum(not f for _n, _i, f in given)
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
    ap.add_argument("--think", type=float, nargs=2, default=(1.5, 3.0),
                    help="seconds a student takes over a question (from, to)")
    ap.add_argument("--wrong", type=float, default=0.35,
                    help="share of first tries that are wrong")
    ap.add_argument("--items", type=int, default=8, help="practice items each student answers")
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
