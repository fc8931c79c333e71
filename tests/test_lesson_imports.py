"""What a lesson page imports when it opens: the modules its cells import, and what they import
in turn, pull in none of the heavy libraries (numpy, matplotlib, Pillow, Babel). The strategy
lab draws its charts with matplotlib and numpy only when it draws them; the static site's
kernel has none of them, and a classroom server's kernel holds them only on the pages that
use them. One Python process imports every lesson's lines in turn (lessons/*.ipynb and every
language's folder) and says which lesson first brought a heavy module in."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("numpy", "matplotlib", "PIL", "babel")

IMPORT_EACH = """
import json, sys
heavy = {heavy!r}
found = {{}}
for name, lines in json.loads(sys.stdin.read()):
    exec(lines, {{}})
    for module in heavy:
        if module in sys.modules and module not in found:
            found[module] = name
print(json.dumps(found))
"""


def import_lines(notebook: Path) -> str:
    """The import statements of a notebook's code cells (at the top level of each cell)."""
    lines = []
    for cell in json.loads(notebook.read_text(encoding="utf-8"))["cells"]:
        if cell["cell_type"] != "code":
            continue
        for node in ast.parse("".join(cell["source"])).body:
            if isinstance(node, ast.Import | ast.ImportFrom):
                lines.append(ast.unparse(node))
    return "\n".join(lines)


def test_no_lesson_page_imports_a_heavy_library() -> None:
    notebooks = sorted(ROOT.glob("lessons/*.ipynb")) + sorted(ROOT.glob("lessons/*/*.ipynb"))
    lessons = [(str(nb.relative_to(ROOT)), import_lines(nb)) for nb in notebooks]
    assert sum(bool(lines) for _name, lines in lessons) > 10
    out = subprocess.run([sys.executable, "-c", IMPORT_EACH.format(heavy=HEAVY)],
                         input=json.dumps(lessons), capture_output=True, text=True, cwd=ROOT,
                         timeout=120, check=True).stdout
    assert json.loads(out) == {}


def test_the_check_sees_a_heavy_import() -> None:
    """The same process reports a lesson whose lines import one of them."""
    lessons = [("plain", "import json"), ("charts", "import numpy")]
    out = subprocess.run([sys.executable, "-c", IMPORT_EACH.format(heavy=HEAVY)],
                         input=json.dumps(lessons), capture_output=True, text=True, cwd=ROOT,
                         timeout=120, check=True).stdout
    assert json.loads(out) == {"numpy": "charts"}
