"""How a lesson page of the static site starts (tools/site/start-python.js, starting.js), in
Chromium: Python restored from the build's snapshot, the lesson's text in sight meanwhile, and
Python started afresh when the snapshot cannot restore. The site and its fixtures:
tests/browser/conftest.py (`site_dir`, `site_page`), as for test_site.py.
"""

from __future__ import annotations

import gzip
import shutil
import struct
import time
from pathlib import Path
from typing import Any

import pytest
from static_site import (
    LOAD_TIMEOUT,
    SEEN_JS,
    TIMEOUT,
    SitePage,
    render_path,
    static_server,
    wait_interactive,
)

from widgets.words import _

pytestmark = pytest.mark.slow


RESTORED = "Python restored from the site's snapshot"
AFRESH = "Python starts afresh"
# Every card the Hit Me table shows (the last seats on the page: the lesson's table).
TABLE_CARDS_JS = """() => [...[...document.querySelectorAll('.icg-seats')].pop()
    .querySelectorAll('.icg-value')].map(e => e.textContent)"""


def test_python_starts_from_the_snapshot_and_each_visit_deals_its_own_cards(
        site_page: SitePage) -> None:
    """The kernel restores the Python made at build time (it does not start Python again), and
    that Python's random state is not every visitor's: two visits deal two different tables."""
    deals = []
    for _visit in range(2):
        site_page.open(render_path("en", "03_hit_me"))
        # while Python starts, a note says so (Voici shows nothing of the lesson until then)
        note = site_page.page.locator("#icg-starting")
        assert note.is_visible() and _("Starting the lesson...") in note.inner_text()
        wait_interactive(site_page.page, "en")
        assert note.count() == 0
        deals.append(site_page.page.evaluate(TABLE_CARDS_JS))
        site_page.next_visit()
    assert site_page.said.count(RESTORED) == 2
    assert not any(m.startswith(AFRESH) for m in site_page.said)
    assert all(deals) and deals[0] != deals[1]
    assert site_page.problems() == []


# The lesson's text has been moved into Voici's panel (every cell ran).
MOVED_JS = """() => { const main = document.getElementById('main');
    return !!main && main.contains(document.getElementById('rendered_cells')); }"""
# Wait for n frames of the page.
FRAMES_JS = """n => new Promise(done => { const step = () => --n > 0
    ? requestAnimationFrame(step) : done(); requestAnimationFrame(step); })"""
# How far the lesson's text is scrolled in Voici's panel.
PANEL_SCROLL_JS = "() => document.getElementById('rendered_cells').scrollTop"
# Where an element is in the window: [top, bottom].
PLACE_JS = "el => { const r = el.getBoundingClientRect(); return [r.top, r.bottom]; }"


def test_the_lesson_text_shows_while_python_starts_and_keeps_its_place(
        site_page: SitePage) -> None:
    """The lesson's text is in sight, under a status line, while the page's Python starts
    (Voici's empty panel does not cover it): it shows once the page's theme is loaded, which
    Voici does before it starts the kernel, so before any cell has run. A student who scrolled
    down to the key ideas and opened an answer there meanwhile keeps that place and that focus
    when the text moves into Voici's panel."""
    site_page.open(render_path("en", "03_hit_me"))
    page = site_page.page
    heading = page.locator("h1").first
    page.wait_for_function(SEEN_JS, arg=heading.element_handle(), timeout=TIMEOUT)
    assert page.locator(".jp-OutputArea-output").count() == 0, "a cell ran before the text showed"
    assert page.locator("#icg-starting").is_visible()
    ideas = page.locator("h2", has_text="Key ideas")
    ideas.evaluate("el => window.scrollTo(0, window.scrollY + el.getBoundingClientRect().top)")
    toggle = page.locator("summary").last
    toggle.focus()
    top, _bottom = page.evaluate(PLACE_JS, ideas.element_handle())
    assert 0 <= top < page.viewport_size["height"] - 100
    assert not page.evaluate(MOVED_JS), "the page's Python started before the test scrolled"
    page.wait_for_function(MOVED_JS, timeout=LOAD_TIMEOUT)
    # the panel scrolled to the student's place: the heading where it was in the window
    page.wait_for_function("([el, top]) => Math.abs(el.getBoundingClientRect().top - top) < 40",
                           arg=[ideas.element_handle(), top], timeout=TIMEOUT)
    assert page.evaluate("el => document.activeElement === el", toggle.element_handle())
    assert page.locator("#icg-starting").count() == 0
    wait_interactive(page, "en")
    assert site_page.problems() == []
    # Another visit: the student scrolls on with the mouse's wheel as soon as the text moved,
    # while the page still sets its place again: the panel stays where the student scrolled.
    site_page.next_visit()
    site_page.open(render_path("en", "03_hit_me"))
    page = site_page.page
    page.wait_for_function(SEEN_JS, arg=page.locator("h1").first.element_handle(),
                           timeout=TIMEOUT)
    ideas = page.locator("h2", has_text="Key ideas")
    ideas.evaluate("el => window.scrollTo(0, window.scrollY + el.getBoundingClientRect().top)")
    page.wait_for_function(MOVED_JS, timeout=LOAD_TIMEOUT)
    moved_to = page.evaluate(PANEL_SCROLL_JS)
    page.mouse.move(640, 450)
    page.mouse.wheel(0, -400)
    page.wait_for_function(f"() => ({PANEL_SCROLL_JS})() < {moved_to} - 100", timeout=TIMEOUT)
    page.evaluate(FRAMES_JS, 10)
    scrolled_to = page.evaluate(PANEL_SCROLL_JS)
    page.evaluate(FRAMES_JS, 40)
    assert page.evaluate(PANEL_SCROLL_JS) == pytest.approx(scrolled_to, abs=2)
    assert site_page.problems() == []


def _copied_site(site_dir: Path, tmp_path: Path) -> Path:
    """A copy of the built site, to damage."""
    copy = tmp_path / "site"
    shutil.copytree(site_dir, copy)
    return copy


def test_python_starts_afresh_in_a_browser_that_cannot_unpack_the_snapshot(
        site_dir: Path, tmp_path: Path, browser: Any) -> None:
    """A browser that cannot unpack the file before Python starts (Safari before 16.4: here the
    start script runs without DecompressionStream): the kernel starts Python afresh, Python
    unpacks the snapshot and imports from its files, and the lesson's table answers (its cells
    all ran)."""
    copy = _copied_site(site_dir, tmp_path)
    script = copy / "static" / "pyodide" / "start-python.js"
    script.write_text("self.DecompressionStream = undefined;\n" + script.read_text())
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        with static_server(copy) as url:
            sp = SitePage(context, url)
            sp.open(render_path("en", "03_hit_me"))
            wait_interactive(sp.page, "en")
            sp.page.wait_for_function(MOVED_JS, timeout=TIMEOUT)
            assert any(m.startswith(AFRESH) for m in sp.said) and RESTORED not in sp.said
            assert sp.problems() == []
    finally:
        context.close()


def test_a_snapshot_whose_memory_is_refused_starts_python_afresh(
        site_dir: Path, tmp_path: Path, browser: Any) -> None:
    """Python's memory in the snapshot refused by the runtime (here: a wrong first word): the
    start script says so and starts Python afresh, as when the browser cannot unpack the file
    (the test above follows that start to a working table; this one stops at the refusal)."""
    copy = _copied_site(site_dir, tmp_path)
    snap = copy / "static" / "pyodide" / "python-snapshot.gz"
    data = bytearray(gzip.decompress(snap.read_bytes()))
    start = 4 + struct.unpack_from("<I", data)[0]
    data[start:start + 4] = b"\0\0\0\0"
    snap.write_bytes(gzip.compress(bytes(data), 1))
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        with static_server(copy) as url:
            sp = SitePage(context, url)
            sp.open(render_path("en", "03_hit_me"))
            refused = f"{AFRESH}: the site's snapshot did not restore"
            deadline = time.monotonic() + LOAD_TIMEOUT / 1000
            while not any(m.startswith(refused) for m in sp.said):
                assert time.monotonic() < deadline, "no refusal in the console"
                sp.page.wait_for_timeout(100)
            assert "invalid magic number" in next(m for m in sp.said if m.startswith(refused))
            assert RESTORED not in sp.said and sp.problems() == []
    finally:
        context.close()
