"""Comments and names say what the code is, not its history: no source file of the project
names an issue number or says where its code was moved from (the history is in git)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("engine", "rooms", "widgets", "serving", "tests", "tools", "benchmarks", "share",
           "deploy")
SUFFIXES = {".py", ".js", ".css", ".j2", ".html", ".sh", ".service", ".conf", ".yaml", ".yml"}
HISTORY = re.compile(r"\b[Ii]ssues? ?#?\d+|\bmoved (here )?from\b|\bbranch [a-z]+\d+\b")


def source_files() -> list[Path]:
    files = [ROOT / "Makefile", ROOT / ".ci" / "run"]
    for folder in FOLDERS:
        files += [p for p in (ROOT / folder).rglob("*")
                  if p.suffix in SUFFIXES and p.is_file() and "artifacts" not in p.parts]
    return files


def test_no_source_file_tells_its_history() -> None:
    found = [f"{path.relative_to(ROOT)}:{n}: {line.strip()[:90]}"
             for path in source_files()
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if HISTORY.search(line) and path.name != "test_source_words.py"]
    assert found == [], "\n".join(found)


def test_the_check_sees_a_history_note() -> None:
    """Positive control: the pattern catches the forms that were in the code."""
    for line in ("# (issue 14 item 6)", '"""Issue 9: a split"""', "moved here from tests/x.py",
                 "# branch speed9 made it faster"):
        assert HISTORY.search(line), line
    for line in ("# the issue of a card", "moves from one seat to the next"):
        assert not HISTORY.search(line), line
