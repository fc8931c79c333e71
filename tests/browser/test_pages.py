"""The landing page and the links between lessons in a real browser, and lesson 5's second
table dealt on request (every lesson page loading cleanly: test_lesson_pages.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

LESSONS = sorted((Path(__file__).resolve().parents[2] / "lessons").glob("*.ipynb"))
# Errors that are raised a moment after the widgets appear (a failing callback) still count.
SETTLE_MS = 1500


def test_tree_page_lists_every_lesson(lessons_server: Any, open_page: Any) -> None:
    """The landing page (/) lists every lesson by its title from widgets/lessons/course.py, in the
    unit's order, as plain links (no script-drawn file browser, no kernel, no console noise)."""
    from widgets.lessons import course

    vp = open_page("tree")
    vp.open(lessons_server.url, expect_widgets=False)
    links = vp.page.locator(".classroom-lessons a")
    shown = [(a.inner_text().strip(), a.get_attribute("href")) for a in links.all()]
    assert shown == [(course.display_name(lesson), f"/voila/render/{lesson.file}")
                     for lesson in course.LESSONS]
    assert {p.name for p in LESSONS} == {href.rsplit("/", 1)[1] for _, href in shown}
    assert links.first.inner_text() == "Start here"
    for a in links.all():  # large, underlined, in the same tab
        assert a.evaluate("e => getComputedStyle(e).textDecorationLine") == "underline"
        assert a.get_attribute("target") is None
        assert a.bounding_box()["height"] >= 24
    vp.page.wait_for_timeout(SETTLE_MS)
    vp.screenshot("tree")
    assert vp.problems() == []


FETCH_JS = """url => fetch(url, {mode: 'no-cors'}).then(r => 'answered ' + r.type,
                                                    e => 'failed ' + e.name)"""


def test_a_request_off_the_machine_fails_and_is_reported(lessons_server: Any,
                                                         open_page: Any) -> None:
    """Every browser test's guard of a closed school network: a request to another host, by
    name or by address, fails in the browser and is reported as a problem of the page; the
    loopback server still answers."""
    vp = open_page("offline")
    vp.page.goto(lessons_server.url + "no-such-page")  # a small page of the loopback server
    outside = ["http://example.com/lesson.js", "https://example.org/font.woff2",
               "http://192.0.2.7/beacon"]
    for url in outside:
        assert vp.page.evaluate(FETCH_JS, url) == "failed TypeError", url
    assert vp.page.evaluate(FETCH_JS, lessons_server.url) == "answered basic"
    vp.page.wait_for_timeout(200)  # the failures' events reach the test
    assert sorted(vp.external_requests) == sorted(outside)
    assert [p for p in vp.problems() if "left the machine" in p] == [
        f"request left the machine: {u}" for u in vp.external_requests]


def test_double_click_opens_a_lesson_once(lessons_server: Any, open_page: Any) -> None:
    """A double click on a lesson link, on the landing page or in a lesson (where JupyterLab
    gives every link target=_blank), asks the server for the page once (one kernel), in the
    same tab; a single click later goes through (static/link-guard.js)."""
    vp = open_page("tree-dblclick")
    vp.open(lessons_server.url, expect_widgets=False)
    renders: list[str] = []
    vp.context.on("request", lambda r: renders.append(r.url) if "/voila/render/" in r.url
                  and r.resource_type == "document" else None)
    vp.page.get_by_role("link", name="Start here").dblclick()
    vp.page.wait_for_url("**/voila/render/00_start_here.ipynb", timeout=60_000)
    link = vp.page.locator(".icg-lesson-list a").first
    link.wait_for(timeout=120_000)
    assert renders == [lessons_server.page_url("00_start_here.ipynb")]
    assert link.inner_text() == "1. Integers with cards"
    vp.page.wait_for_timeout(SETTLE_MS)
    link.dblclick()
    vp.page.wait_for_url("**/voila/render/01_integers_with_cards.ipynb", timeout=60_000)
    vp.page.locator(".icg-explorer").first.wait_for(timeout=120_000)
    vp.page.wait_for_timeout(SETTLE_MS)
    assert renders[1:] == [lessons_server.page_url("01_integers_with_cards.ipynb")]
    assert len(vp.context.pages) == 1, [p.url for p in vp.context.pages]
    vp.page.wait_for_timeout(3000)  # the guard's 3 seconds are over: a click goes through
    vp.page.get_by_role("link", name="Back to start").click()
    vp.page.wait_for_url("**/voila/render/00_start_here.ipynb", timeout=60_000)
    assert renders[-1] == lessons_server.page_url("00_start_here.ipynb")
    assert len(vp.context.pages) == 1


def test_flapjack_lesson_deals_its_second_table_on_request(
    lessons_server: Any, open_page: Any
) -> None:
    """Lesson 5's classic game is dealt when the student presses its button (keyboard here):
    the table appears with the student's hand, and nothing goes wrong."""
    vp = open_page("lesson-05-deal")
    vp.open(lessons_server.page_url("05_flapjack.ipynb"))
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
