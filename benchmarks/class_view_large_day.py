"""The class view's answers panel on a large day: 300 students and 5,000 answers in a SQLite
store. Prints the time to open the panel, the time to show one new answer and how many panels
that sent.

    .venv/bin/python benchmarks/class_view_large_day.py
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from test_class_view_changes import NOON, html_panels, large_day, one_new_answer  # noqa: E402

from widgets.together.dashboard import AnswersPanel  # noqa: E402


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{folder}/rooms.sqlite3"
        large_day(url)
        t0 = time.perf_counter()
        panel = AnswersPanel(url=url, clock=lambda: NOON)
        opened = time.perf_counter() - t0
        sent: list[str] = []
        for name, w in html_panels(panel).items():
            w.observe(lambda _c, name=name: sent.append(name), names="value")
        one_new_answer(url)
        t0 = time.perf_counter()
        panel.poll()
        shown = time.perf_counter() - t0
        print(f"class view, 300 students and 5000 answers: opened in {opened:.2f} s, a new "
              f"answer shown in {shown:.2f} s, {len(sent)} of {len(html_panels(panel))} panels "
              f"sent ({', '.join(sorted(sent))})")


if __name__ == "__main__":
    main()
