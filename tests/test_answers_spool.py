"""The waiting folder of the class's answers (rooms/spool.py, used by rooms.answers.Outbox):
private (0700 folder, 0600 files, whatever the umask or an older folder's mode), appended to
one line a change while the store is down (never rewritten whole), and bounded."""

from __future__ import annotations

import json
import os
import stat
import time
from pathlib import Path

from rooms import spool as sp
from rooms.answers import Answer, Outbox, Presence, day_of, new_answer_id, open_answers

NOON = time.mktime((2026, 12, 1, 12, 0, 0, 0, 0, -1))


def answer(student: str, at: float = NOON, item: str = "1") -> Answer:
    return Answer(answer_id=new_answer_id(), student=student, lesson=2, activity="exit-ticket",
                  item=item, kind="sum", terms="-3,5", given="+2", right=True, first_try=True,
                  at=at)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def down_box(tmp_path: Path, spool: Path) -> Outbox:
    url = f"sqlite:///{tmp_path / 'no-folder' / 'r.sqlite3'}"
    return Outbox(lambda: open_answers(url), thread=False, spool=spool)


def test_the_waiting_folder_and_files_are_private(tmp_path: Path) -> None:
    spool = tmp_path / "waiting"
    spool.mkdir(mode=0o755)  # an older server made it readable by everyone
    old = os.umask(0o022)
    try:
        box = down_box(tmp_path, spool)
        box.put(answer("Ana"))
        assert box.flush() == 1
    finally:
        os.umask(old)
    (f,) = spool.glob("*.json")
    assert mode(spool) == 0o700 and mode(f) == 0o600
    fresh = tmp_path / "new" / "waiting"
    sp.SpoolFile(fresh / "1-a.json").append([{"presence": {}}])
    assert mode(fresh) == 0o700 and mode(fresh / "1-a.json") == 0o600


def test_a_change_while_the_store_is_down_is_appended_not_rewritten(tmp_path: Path) -> None:
    """Each name change or answer adds one line: 400 changes write about 400 lines' bytes (the
    whole file rewritten at each one wrote 400 * 200 lines' worth)."""
    spool = tmp_path / "waiting"
    box = down_box(tmp_path, spool)
    box.put(Presence("Ana", 1, NOON))
    assert box.flush() == 1
    (f,) = spool.glob("*.json")
    inode, sizes = f.stat().st_ino, [f.stat().st_size]
    for i in range(400):
        box.put(Presence(f"Name{chr(97 + i % 26)}{chr(97 + i // 26)}", 1, NOON + i))
        sizes.append(f.stat().st_size)
    assert f.stat().st_ino == inode  # the same file, never replaced
    growth = [b - a for a, b in zip(sizes, sizes[1:], strict=False)]
    assert all(0 < g < 120 for g in growth)  # one short line each
    assert len(sp.read_items(f)) == 401 == len(box.pending)


def test_the_waiting_file_is_bounded_and_nothing_is_lost(tmp_path: Path) -> None:
    spool = tmp_path / "waiting"
    url = f"sqlite:///{tmp_path / 'later' / 'r.sqlite3'}"
    box = Outbox(lambda: open_answers(url), thread=False, spool=spool)
    box._spool.max_bytes = 4096
    box.put(answer("Ana"))
    assert box.flush() == 1
    for i in range(60):
        box.put(answer("Ana", at=NOON + 1 + i, item=str(i + 2)))
    (f,) = spool.glob("*.json")
    assert f.stat().st_size <= 4096 and len(sp.read_items(f)) < 61 and box._spool.full
    (tmp_path / "later").mkdir()
    assert box.flush() == 0 and not f.exists()
    assert len(open_answers(url).answers(day_of(NOON))) == 61  # memory kept what the file did not


def test_an_older_waiting_file_is_still_read(tmp_path: Path) -> None:
    f = tmp_path / "1-a.json"
    f.write_text(json.dumps([{"presence": {"student": "Ana", "lesson": 1, "at": NOON}}]))
    assert sp.read_items(f) == [{"presence": {"student": "Ana", "lesson": 1, "at": NOON}}]
    f.write_text('{"presence": 1}\n[2]\n')
    try:
        sp.read_items(f)
    except ValueError:
        pass
    else:
        raise AssertionError("a line that is not an object was read")
