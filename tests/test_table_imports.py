"""The tables (widgets/table, widgets/hit_me, widgets/flapjack) import nothing of the lessons
or of the class's pages: a table reports its checks to the `on_answer` the page gives it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TABLE_PACKAGES = ("widgets/table", "widgets/hit_me", "widgets/flapjack")
FORBIDDEN = ("widgets.lessons", "widgets.together")


def imported(path: Path) -> set[str]:
    """Every module a file imports, at the top or inside a function."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{a.name}" for a in node.names)
    return names


@pytest.mark.parametrize("package", TABLE_PACKAGES)
def test_a_table_imports_nothing_of_the_lessons(package: str) -> None:
    files = sorted((ROOT / package).glob("*.py"))
    assert files
    bad = {str(f.relative_to(ROOT)): sorted(n for n in imported(f)
                                             if n.startswith(FORBIDDEN))
           for f in files}
    assert {f: n for f, n in bad.items() if n} == {}


def test_the_walk_finds_an_import_inside_a_function(tmp_path: Path) -> None:
    f = tmp_path / "x.py"
    f.write_text("def f():\n    from widgets.lessons.student import STUDENT\n")
    assert "widgets.lessons.student" in imported(f)
