"""`python -m engine.simulate` with its `--log` in sentences (widgets.words, the phrasing module).

    .venv/bin/python tools/simulate.py hitme --players 3 --deck KS,7H,10C,2D,AH,5S --log

Every option of `python -m engine.simulate` works the same here; only `--log` differs: the
engine prints its event log as data (one JSON event a line) and imports nothing from widgets,
so the words are added here, on the side that may depend on both.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.simulate import main  # noqa: E402
from widgets.words import format_log  # noqa: E402


def run(argv: list[str] | None = None) -> int:
    return main(argv, format_log=format_log, prog="python tools/simulate.py")


if __name__ == "__main__":
    sys.exit(run())
