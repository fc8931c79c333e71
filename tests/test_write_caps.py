"""Caps on what one page and one computer write (rooms/caps.py): name changes, pages and
answers, counted in the kernel (per page, and per computer across kernels) and in the store
(students and answers a day). A refusal is logged once per page and kind."""

from __future__ import annotations

import logging
import time
from pathlib import Path

import pytest

from rooms import caps
from rooms.answers import Answer, AnswerRefused, Outbox, day_of, new_answer_id, open_answers
from rooms.codes import clean_name
from widgets.lessons.student import NameRefused, Student

NOON = time.mktime((2026, 12, 1, 12, 0, 0, 0, 0, -1))


def names(n: int) -> list[str]:
    letters = "abcdefghijklmnopqrstuvwxyz"
    return [f"Zed{letters[i // 17576 % 26]}{letters[i // 676 % 26]}{letters[i // 26 % 26]}"
            f"{letters[i % 26]}" for i in range(n)]


def test_a_page_gets_its_hours_names_then_one_logged_refusal(
        caplog: pytest.LogCaptureFixture) -> None:
    now = [NOON]
    page = caps.WriteCaps(clock=lambda: now[0])
    with caplog.at_level(logging.WARNING, logger="rooms.caps"):
        allowed = sum(page.allow("name") for _ in range(20_000))
    assert allowed == caps.PAGE_CAPS["name"]
    assert page.refused["name"] == 20_000 - allowed
    assert len([r for r in caplog.records if "Refused (name writes" in r.message]) == 1
    now[0] += caps.WINDOW  # the next hour
    assert page.allow("name")


def test_one_computers_pages_share_its_cap(tmp_path: Path) -> None:
    shared = caps.SharedCounts(tmp_path / caps.COUNTS_FILE)
    pages = [caps.WriteCaps(client="10.0.0.7", shared=shared, clock=lambda: NOON)
             for _ in range(5)]
    allowed = sum(p.allow("answer") for p in pages for _ in range(1500))
    assert allowed == caps.COMPUTER_CAPS["answer"]  # 3000 came from one computer before
    other = caps.WriteCaps(client="10.0.0.8", shared=shared, clock=lambda: NOON)
    assert other.allow("answer")
    here = caps.WriteCaps(client=None, shared=shared, clock=lambda: NOON)  # the server's own
    assert sum(here.allow("answer") for _ in range(1500)) == caps.PAGE_CAPS["answer"]


def test_a_name_flood_from_one_page_writes_a_few_students(tmp_path: Path) -> None:
    """20,000 name changes from one page (the attack): the store gets the page's cap of
    students, the rest are refused with words the page shows."""
    url = f"sqlite:///{tmp_path / 'r.sqlite3'}"
    student = Student(clock=lambda: NOON)
    student.outbox = Outbox(lambda: open_answers(url), thread=False)
    student.on_page(2)
    refused = 0
    for name in names(20_000):
        try:
            student.set_names((name,))
        except NameRefused as e:
            refused += 1
            assert "Too many name changes" in str(e)
    assert refused == 20_000 - caps.PAGE_CAPS["name"]
    assert student.outbox.flush() == 0
    # the first 20 names, as the store keys them (it reads i, l and 1 alike)
    kept = {clean_name(n)[1] for n in names(caps.PAGE_CAPS["name"])}
    assert {clean_name(p.student)[1] for p in open_answers(url).presence(day_of(NOON))} == kept


def test_the_store_caps_a_days_students_and_answers(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(caps, "MAX_STUDENTS_PER_DAY", 5)
    monkeypatch.setattr(caps, "MAX_ANSWERS_PER_DAY", 8)
    store = open_answers(f"sqlite:///{tmp_path / 'r.sqlite3'}")
    for name in names(5):
        store.seen(name, 1, NOON)
    with pytest.raises(AnswerRefused, match="5 students"):
        store.seen(names(6)[5], 1, NOON)
    store.seen(names(1)[0], 2, NOON + 1)  # a student already there is still seen

    def answer(name: str) -> Answer:
        return Answer(new_answer_id(), name, 1, "practice", "1", "sum", "-3,5", "+2", True,
                      False, NOON + 2)

    with pytest.raises(AnswerRefused, match="5 students"):
        store.record(answer(names(6)[5]))
    for _ in range(8):
        assert store.record(answer(names(1)[0]))
    with pytest.raises(AnswerRefused, match="8 answers"):
        store.record(answer(names(1)[0]))
    assert len(store.answers(day_of(NOON))) == 8
    assert len(store.presence(day_of(NOON))) == 5


def test_a_pages_hour_rolls_no_fresh_cap_at_the_turn_of_the_clock() -> None:
    now = [NOON - 60]  # a minute before the clock's hour turns
    page = caps.WriteCaps(clock=lambda: now[0])
    assert sum(page.allow("name") for _ in range(50)) == caps.PAGE_CAPS["name"]
    now[0] = NOON + 60
    assert not page.allow("name")
    now[0] = NOON - 60 + caps.WINDOW + 1
    assert page.allow("name")
