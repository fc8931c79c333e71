"""Refresh the stored outputs of the lessons; the notebooks themselves are the lesson text.

    .venv/bin/python tools/refresh_outputs.py                      # every lesson
    .venv/bin/python tools/refresh_outputs.py 02_absolute_value.ipynb
    .venv/bin/python tools/refresh_outputs.py es/02_absolute_value.ipynb   # a Spanish lesson
    .venv/bin/python tools/refresh_outputs.py --check              # exit 1 if one would change

Edit a lesson in JupyterLab (`make lab`) and save it; then run this script. It executes each
notebook and keeps only the printed output of the cells that start with `# NBVAL_CHECK_OUTPUT`
(nbval compares those on every test run); every other output, execution count, cell metadata
and saved widget state is removed, so the committed file stays small and the same from one
save to the next. The text of the cells is never changed.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
LESSONS_DIR = ROOT / "lessons"
CHECK_MARK = "# NBVAL_CHECK_OUTPUT"


def is_checked(cell: nbformat.NotebookNode) -> bool:
    return cell.cell_type == "code" and cell.source.lstrip().startswith(CHECK_MARK)


def tidy(nb: nbformat.NotebookNode) -> None:
    """Clear what a saved notebook should not keep (outputs of unchecked cells, metadata)."""
    for cell in nb.cells:
        keep = {k: v for k, v in cell.metadata.items() if k in ("tags",)}
        cell.metadata = nbformat.NotebookNode(keep)
        if cell.cell_type != "code":
            continue
        if is_checked(cell):
            cell.outputs = [o for o in cell.outputs if o.get("output_type") == "stream"
                            and o.get("name") == "stdout"]
        else:
            cell.outputs = []
            cell.execution_count = None
    nb.metadata.pop("widgets", None)


def refresh(path: Path) -> tuple[nbformat.NotebookNode, list[str]]:
    """The notebook at `path`, executed in lessons/, tidied; and the errors its cells raised."""
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(nb, timeout=600, kernel_name="python3", allow_errors=True,
                            resources={"metadata": {"path": str(path.parent)}})
    client.execute()
    errors = []
    for cell in nb.cells:
        for o in cell.get("outputs", []):
            if o.get("output_type") == "error":
                errors.append(f"cell {cell.get('id', '?')}: {o.get('ename')}: {o.get('evalue')}")
    tidy(nb)
    return nb, errors


def stored(nb: nbformat.NotebookNode) -> list[tuple[str, str]]:
    """(source, printed output) of each checked cell."""
    return [(c.source, "".join(o.get("text", "") for o in c.outputs))
            for c in nb.cells if is_checked(c)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 if a stored output is out of date")
    parser.add_argument("names", nargs="*",
                        help="notebooks in lessons/, such as es/03_hit_me.ipynb (default: all, "
                             "every language)")
    args = parser.parse_args(argv)
    paths = ([LESSONS_DIR / n for n in args.names] if args.names
             else sorted(LESSONS_DIR.glob("*.ipynb")) + sorted(LESSONS_DIR.glob("*/*.ipynb")))
    status = 0
    for path in paths:
        if not path.exists():
            print(f"{path}: no such notebook", file=sys.stderr)
            return 2
        new, errors = refresh(path)
        for e in errors:
            print(f"{path.relative_to(LESSONS_DIR)}: {e}", file=sys.stderr)
            status = 1
        if args.check:
            old = nbformat.read(path, as_version=4)
            if stored(old) != stored(new):
                print(f"{path.relative_to(LESSONS_DIR)}: a checked output is out of date")
                status = 1
            continue
        nbformat.validate(new)
        nbformat.write(new, path)
        print(f"refreshed {path.relative_to(ROOT)}")
    return status


if __name__ == "__main__":
    sys.exit(main())
