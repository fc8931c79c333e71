"""Every lesson page loads in a real browser with its widgets visible and nothing wrong:
no console error, no page error, no request leaving the machine, no error text in the page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

LESSONS = sorted((Path(__file__).resolve().parents[2] / "lessons").glob("*.ipynb"))
# Errors that are raised a moment after the widgets appear (a failing callback) still count.
SETTLE_MS = 1500


def test_tree_page_lists_every_lesson(lessons_server: Any, open_page: Any) -> None:
    """The landing tree page links to every lesson, cleanly."""
    vp = open_page("tree")
    vp.open(lessons_server.url, expect_widgets=False)
    vp.page.wait_for_timeout(SETTLE_MS)
    vp.screenshot("tree")
    links = vp.page.locator("a").evaluate_all("els => els.map(e => e.getAttribute('href'))")
    for nb in LESSONS:
        assert any(h and h.endswith(nb.name) for h in links), f"no link to {nb.name}: {links}"
    assert vp.problems() == []


@pytest.mark.parametrize("notebook", LESSONS, ids=[p.stem for p in LESSONS])
def test_lesson_page_loads_cleanly(
    notebook: Path, lessons_server: Any, open_page: Any, bt: Any
) -> None:
    """The lesson renders, its widgets are visible, and the browser saw no error."""
    vp = open_page(notebook.stem)
    expect_widgets = bt.notebook_has_widgets(notebook)
    seconds = vp.open(lessons_server.page_url(notebook.name), expect_widgets=expect_widgets)
    vp.page.wait_for_timeout(SETTLE_MS)
    vp.screenshot(f"lesson-{notebook.stem}")
    assert vp.problems() == [], f"{notebook.name} (loaded in {seconds:.1f} s)"
    # Some content was rendered (sources are stripped, so outputs and Markdown only).
    assert vp.page.locator(".jp-Cell").count() > 0
    if expect_widgets:
        visible = vp.page.locator(bt.widget_selector).evaluate_all(
            "els => els.filter(e => e.offsetParent !== null"
            " && e.getBoundingClientRect().height > 0).length"
        )
        assert visible > 0, f"{notebook.name}: no visible widget"
        # Widgets are live: the page connected to its kernel.
        assert vp.kernel_id(), f"{notebook.name}: no kernel websocket"
