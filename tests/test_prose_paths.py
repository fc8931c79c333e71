"""Every repository path named in prose exists: in the docs (every tracked Markdown file, README.md
and docs/*.md among them) and in the comments and docstrings of every tracked Python file.

The rule, which this test enforces:
- A path into the repository is written from the repository's root, starting with one of its
  top-level folders (`engine/games.py`, `widgets/table/`, `deploy/systemd/voila-class@.service`),
  and names a file or folder that is there. `{a,b}` names each of them
  (`widgets/{hit_me,flapjack}/table.py`), `*` and `...` stand for any part (at least one file
  must match) and a `<placeholder>` part (`engine/<game>.py`) for a name to choose: only the
  part before it is checked. A Python name is written with dots (`widgets.words.page`), never
  glued to a module's path with a dot and a name.
- A Markdown link's target is read from the linking file's folder, as a Markdown viewer does.
- The project's spec and direction documents are outside the repository, in `../shared/`: they
  are always named with that prefix (`../shared/RULES.md`), never by the bare file name, which
  a reader would look for here.
- The few names that look like paths and are not files are listed below, each with its reason.
"""

from __future__ import annotations

import ast
import glob
import io
import re
import subprocess
import tokenize
from itertools import product
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# (file, text): named in that file's prose, not a file of the repository.
NOT_FILES = {
    # the name of a ratio (fast engine over the minimal loops) in a benchmark's last line
    ("README.md", "engine/minimal"),
    ("docs/measurements.md", "engine/minimal"),
    ("benchmarks/engine.py", "engine/minimal"),
    # made by a test run (screenshots and traces on a failure), ignored by git
    ("README.md", "tests/artifacts/"),
    ("tests/conftest.py", "tests/artifacts/"),
    ("tests/browser/conftest.py", "tests/artifacts/"),
    ("tests/browser/test_play_focus.py", "tests/artifacts/"),
    ("tests/browser/test_devices.py", "tests/artifacts/devices-<lesson>-<device>.png"),
    ("tools/screenshots.py", "tests/artifacts/"),
    # the folders a new language's steps make (French as the example)
    ("docs/languages.md", "widgets/locale/fr/LC_MESSAGES"),
    ("docs/languages.md", "widgets/locale/fr/LC_MESSAGES/icg.po"),
    ("docs/languages.md", "lessons/fr/"),
}
OUTSIDE = ("RULES.md", "ARCHITECTURE.md", "STYLE.md", "BROWSERS.md")  # in ../shared/


def tracked() -> list[str]:
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout.split()
    return [f for f in out if (ROOT / f).is_file()]


FILES = tracked()
TOP = sorted({f.split("/")[0] for f in FILES if "/" in f})
PART = r"(?:[\w.*@-]|\{[\w.,-]*\}|<[\w-]+>)+"
TOPS = "|".join(map(re.escape, TOP))
PATH = re.compile(rf"(?<![\w./<>{{}}@-])(\.\./)?((?:{TOPS})/(?:{PART}/?)*)")
LINK = re.compile(r"\]\(([^)\s#]+)(?:#[^)]*)?\)")
BARE = re.compile(r"(?<![\w./-])(" + "|".join(map(re.escape, OUTSIDE)) + r")\b")


def prose(path: str) -> list[tuple[int, str]]:
    """(line, text) of each comment and docstring of a Python file, or the whole Markdown file."""
    text = (ROOT / path).read_text(encoding="utf-8")
    if not path.endswith(".py"):
        return [(1, text)]
    out = [(t.start[0], t.string) for t in tokenize.generate_tokens(io.StringIO(text).readline)
           if t.type == tokenize.COMMENT]
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            doc = ast.get_docstring(node, clean=False)
            if doc and node.body:
                out.append((node.body[0].lineno, doc))
    return out


def expand(path: str) -> list[str]:
    """The paths `{a,b}` names, each."""
    parts = re.split(r"(\{[^}]*\})", path)
    options = [p[1:-1].split(",") if p.startswith("{") else [p] for p in parts]
    return ["".join(c) for c in product(*options)]


def exists(path: str) -> bool:
    if "<" in path:  # a name to choose: the folder before it must be there
        path = path[:path.index("<")].rsplit("/", 1)[0]
    if "*" in path or "..." in path:
        pattern = re.sub(r"(?:\*|\.\.\.)+", "**", path)
        return bool(glob.glob(str(ROOT / pattern), recursive=True))
    return (ROOT / path).exists()


def path_errors(name: str, first: int, text: str) -> list[str]:
    """What is wrong with the paths `text` names (its first line is line `first` of `name`)."""
    out = []

    def line(m: re.Match[str]) -> int:
        return first + text.count("\n", 0, m.start())

    for m in PATH.finditer(text):
        written = m.group(2).rstrip(".")
        if m.group(1):
            out.append(f"{name}:{line(m)}: ../{written} names a repository path as outside it")
            continue
        if (name, written) in NOT_FILES:
            continue
        missing = [p for p in expand(written) if not exists(p)]
        if missing:
            out.append(f"{name}:{line(m)}: {written} (no {', '.join(missing)})")
    for m in BARE.finditer(text):
        before = text[max(0, m.start() - 10):m.start()]
        if not before.endswith("../shared/"):
            out.append(f"{name}:{line(m)}: {m.group(1)} is outside the repository: write "
                       f"../shared/{m.group(1)}")
    return out


def link_errors(name: str, text: str) -> list[str]:
    out = []
    for m in LINK.finditer(text):
        target = m.group(1)
        if re.match(r"[a-z]+:", target) or target.startswith("/"):
            continue  # an address, not a file of the repository
        path = (ROOT / name).parent / target
        if not path.resolve().is_relative_to(ROOT) or not path.exists():
            out.append(f"{name}: link to {target}, no such file in the repository")
    return out


def test_the_rule_finds_what_it_should() -> None:
    """The checks themselves: what a stale, a glued or a bare name looks like to them."""
    assert path_errors("x.md", 1, "see engine/games.py and widgets/table/") == []
    assert path_errors("x.md", 1, "see `widgets/{hit_me,flapjack}/table.py`.") == []
    assert path_errors("x.md", 1, "engine/<game>.py and share/.../classroom/503.html") == []
    assert path_errors("x.md", 1, "widgets/words.py")  # a module that is a package now
    assert path_errors("x.md", 1, "widgets/{hit_me,nogame}/table.py")
    assert path_errors("x.md", 1, "widgets/table/deal_codes.new_secret_seed")
    assert path_errors("x.md", 1, "from ../engine/games.py")
    assert path_errors("x.md", 1, "as RULES.md says")
    assert path_errors("x.md", 1, "as ../shared/RULES.md says") == []
    assert link_errors("docs/x.md", "[a](rooms.md) [b](../README.md#layout) [c](https://x.org)") \
        == []
    assert link_errors("docs/x.md", "[a](docs/rooms.md)")


def test_every_path_named_in_prose_exists() -> None:
    errors, named = [], 0
    for name in FILES:
        if not name.endswith((".py", ".md")):
            continue
        for line, text in prose(name):
            named += len(PATH.findall(text))
            errors += path_errors(name, line, text)
            if name.endswith(".md"):
                errors += link_errors(name, text)
    assert named > 500, named  # the docs name hundreds of paths: the scan reads them
    assert not errors, "\n".join(errors)
