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
    vp.allow_tree_page_noise()
    vp.open(lessons_server.url, expect_widgets=False)
    # The lab template's tree page is a file browser drawn by script, not a list of <a> links.
    for nb in LESSONS:
        vp.page.get_by_text(nb.name, exact=True).first.wait_for(state="visible", timeout=30_000)
    vp.page.wait_for_timeout(SETTLE_MS)
    vp.screenshot("tree")
    assert vp.problems() == []


@pytest.mark.parametrize("notebook", LESSONS, ids=[p.stem for p in LESSONS])
def test_lesson_page_loads_cleanly(
    notebook: Path, lessons_server: Any, open_page: Any, bt: Any
) -> None:
    """The lesson renders, its widgets are visible, and the browser saw no error."""
    vp = open_page(notebook.stem)
    # open() waits until every widget view the executed notebook displays is rendered.
    seconds = vp.open(lessons_server.page_url(notebook.name), expect_widgets=False)
    vp.page.wait_for_timeout(SETTLE_MS)
    vp.screenshot(f"lesson-{notebook.stem}")
    assert vp.problems() == [], f"{notebook.name} (loaded in {seconds:.1f} s)"
    # Some content was rendered (sources are stripped, so outputs and Markdown only).
    assert vp.page.locator(".jp-Cell").count() > 0
    wanted = vp.widget_outputs()
    if bt.notebook_has_widgets(notebook):
        assert wanted > 0, f"{notebook.name} imports widgets but displays none"
    if wanted:
        assert vp.rendered_widgets() >= wanted, f"{notebook.name}: a widget is not visible"
        # Widgets are live: the page connected to its kernel.
        assert vp.kernel_id(), f"{notebook.name}: no kernel websocket"


def test_flapjack_lesson_deals_its_second_table_on_request(
    lessons_server: Any, open_page: Any
) -> None:
    """Lesson 4's classic game is dealt when the student presses its button (keyboard here):
    the table appears with the student's hand, and nothing goes wrong."""
    vp = open_page("lesson-04-deal")
    vp.open(lessons_server.page_url("04_flapjack.ipynb"))
    page = vp.page
    # the first table (simple ten, 2 players) is there; the classic one is not, yet
    assert page.get_by_role("button", name="Settings (Simple ten, 2 players)").count() == 1
    assert page.get_by_role("button", name="Settings (Classic, 3 players)").count() == 0
    page.get_by_role("button", name="Deal the classic game").focus()
    page.keyboard.press("Enter")
    page.get_by_role("button", name="Settings (Classic, 3 players)").wait_for(timeout=60_000)
    assert page.locator(".icg-fj-header").count() == 2
    assert page.get_by_role("button", name="Deal the classic game").count() == 0
    page.wait_for_timeout(SETTLE_MS)
    assert vp.problems() == []
