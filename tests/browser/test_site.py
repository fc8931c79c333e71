"""The static site (tools/build_site.py, `make site`) in Chromium, served by
`python -m http.server`: its pages run their Python in the browser, make no request off that
server and log no console error.

The site is built once per test run (session fixture `site_dir`, into a temporary folder; the
downloads come from .site-cache/, so only the first build on a machine fetches anything).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from static_site import (
    LOAD_TIMEOUT,
    SEEN_JS,
    TIMEOUT,
    SitePage,
    build,
    play_flapjack_game,
    play_hit_me_round,
    static_server,
    wait_enabled,
    wait_interactive,
)

from widgets.course import FOLDERS
from widgets.words import _, speaking

pytestmark = pytest.mark.slow


@pytest.fixture(scope="session")
def site_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site `make test` built in its site stage (ICG_SITE_DIR), or one built now."""
    made = os.environ.get("ICG_SITE_DIR")
    if made:
        if not (Path(made) / "build.json").is_file():
            pytest.fail(f"ICG_SITE_DIR={made} holds no built site (make site)", pytrace=False)
        return Path(made)
    out = tmp_path_factory.mktemp("static-site") / "site"
    build(out)
    return out


@pytest.fixture(scope="session")
def site_url(site_dir: Path) -> Iterator[str]:
    with static_server(site_dir) as url:
        yield url


@pytest.fixture
def site_page(browser: Any, site_url: str) -> Iterator[SitePage]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    yield SitePage(context, site_url)
    context.close()


def render_path(lang: str, page: str) -> str:
    folder = FOLDERS[lang]
    return f"voici/render/{folder + '/' if folder else ''}{page}.html"


def test_public_build_has_the_pages_and_no_answer_key(site_dir: Path) -> None:
    info = json.loads((site_dir / "build.json").read_text())
    assert info["teacher"] is False
    for lang, folder in FOLDERS.items():
        assert (site_dir / folder / "index.html").is_file()
        for page in ("00_start_here", "01_integers_with_cards", "02_absolute_value",
                     "03_hit_me", "04_taking_a_card_away", "05_flapjack", "06_strategy_lab",
                     "teacher_guide", "printable_kit"):
            assert (site_dir / render_path(lang, page)).is_file(), (lang, page)
        for page in ("play_together", "class_view"):
            assert not (site_dir / render_path(lang, page)).exists(), (lang, page)
    from widgets.teacher_parts import answer_strings

    for lang, folder in FOLDERS.items():
        guide = (site_dir / "files" / folder / "teacher_guide.ipynb").read_text()
        page = (site_dir / render_path(lang, "teacher_guide")).read_text()
        assert "walkthrough=True" in guide and "teacher-only" not in guide
        assert "teacher_page(" not in guide and "teacher_part(" not in guide
        wanted = [a for found in answer_strings(lang).values() for a in found]
        assert len(wanted) > 100
        flat = " ".join(json.loads(guide) and " ".join(
            "".join(c["source"]) for c in json.loads(guide)["cells"]).split())
        assert [a for a in wanted if a in flat or a in page] == []


def test_landing_page_links_every_page_of_the_site(site_page: SitePage, site_dir: Path) -> None:
    for lang, folder in FOLDERS.items():
        site_page.open(f"{folder + '/' if folder else ''}index.html")
        page = site_page.page
        assert page.locator("html").get_attribute("lang") == lang
        hrefs = page.locator(".icg-lesson-list a").evaluate_all(
            "els => els.map(a => a.href)")
        assert len(hrefs) == 9
        for href in hrefs:
            rel = href.split("/", 3)[3]
            assert (site_dir / rel).is_file(), href
    assert site_page.problems() == []


@pytest.mark.parametrize("lang", ["en", "es"])
def test_hit_me_round_in_the_browser(site_page: SitePage, lang: str) -> None:
    site_page.open(render_path(lang, "03_hit_me"))
    page = site_page.page
    wait_interactive(page, lang)
    assert page.locator("html").get_attribute("lang") == lang
    round_ = play_hit_me_round(page, lang)
    assert round_["cards"], "the student's seat shows its cards"
    with speaking(lang):
        said = _("Round {n}").format(n=1)
    assert re.search(r"\w", round_["result"]) and said.split()[0] in page.inner_text("body")
    # the lesson's links lead to pages of the static site
    nav = page.locator(".icg-nav a").evaluate_all("els => els.map(a => a.getAttribute('href'))")
    assert nav == ["04_taking_a_card_away.html", "00_start_here.html"]
    assert site_page.problems() == []


@pytest.mark.parametrize("lang", ["en", "es"])
def test_flapjack_game_in_the_browser(site_page: SitePage, lang: str) -> None:
    site_page.open(render_path(lang, "05_flapjack"))
    game = play_flapjack_game(site_page.page)
    assert game["plays"] > 0 and game["end"].strip()
    assert game["end"].startswith({"en": "Game over", "es": "Fin del juego"}[lang])
    assert site_page.problems() == []


ERROR_OUTPUTS_JS = """() => [...document.querySelectorAll('.jp-OutputArea-output')]
  .filter(e => /error|stderr/.test(e.getAttribute('data-mime-type') || '')
               || /Traceback|Error: /.test(e.innerText))
  .map(e => e.innerText.slice(0, 300))"""


def wait_all_cells(page: Any, name: str = "") -> None:
    """Every lesson page ends with its links to the next lesson: they show once every cell
    has run (the start page: its list of lessons, then the plan's text)."""
    if name == "00_start_here":
        page.locator(".icg-lesson-list").first.wait_for(timeout=LOAD_TIMEOUT)
        page.get_by_text(re.compile("periods")).first.wait_for(timeout=LOAD_TIMEOUT)
    else:
        page.locator(".icg-nav").first.wait_for(timeout=LOAD_TIMEOUT)


@pytest.mark.parametrize("path", [
    ("en", "00_start_here"), ("en", "01_integers_with_cards"), ("es", "02_absolute_value"),
    ("en", "teacher_guide"), ("en", "04_taking_a_card_away"), ("es", "printable_kit"),
], ids="/".join)
def test_every_cell_of_a_page_runs(site_page: SitePage, path: tuple[str, str]) -> None:
    """The explorer, practice sets, exit tickets, the guide and the kit: every cell runs in the
    browser with no error shown and no request off the server."""
    lang, name = path
    site_page.open(render_path(lang, name))
    page = site_page.page
    wait_all_cells(page, name)
    assert page.evaluate(ERROR_OUTPUTS_JS) == []
    if name in ("01_integers_with_cards", "02_absolute_value", "04_taking_a_card_away"):
        assert page.locator(".jupyter-widgets").count() > 0
    assert site_page.problems() == []


def test_the_spanish_guide_names_the_spanish_headings(site_page: SitePage) -> None:
    """The guide's plan in the browser's kernel (no notebooks beside it) names each step by
    the heading of the Spanish lesson, read from the headings the build ships."""
    from widgets import course

    guide = next(lesson.file for lesson in course.LESSONS if lesson.role == "guide")
    first = course.student_lessons("es")[0]
    english, spanish = (course.headings(course.by_file(first.file, "en")),
                        course.headings(first))
    step = next(name for name, _minutes in first.plan if name in english)
    heading = spanish[english.index(step)]
    assert heading != step
    site_page.open(render_path("es", guide[:-len(".ipynb")]))
    page = site_page.page
    wait_all_cells(page)
    text = page.inner_text("body")
    assert f'"{heading}"' in text and f'"{step}"' not in text
    assert site_page.problems() == []


def test_strategy_lab_experiments(site_page: SitePage) -> None:
    """Every experiment of the strategy lab runs in plain Python and is drawn as SVG with its
    numbers: hold or hit, the holding rules (a chart by number of players), the number of
    players, the author's claim, the Flapjack chances, and the simulation panel's run."""
    site_page.open(render_path("en", "06_strategy_lab"))
    page = site_page.page
    chart = page.locator("svg.icg-chart-svg").first
    chart.wait_for(timeout=LOAD_TIMEOUT)
    assert "hold" in chart.get_attribute("aria-label")
    assert "simulated rounds" in chart.inner_html()
    wait_all_cells(page)
    labels = page.locator("svg.icg-chart-svg").evaluate_all(
        "els => els.map(e => e.getAttribute('aria-label'))")
    assert len(labels) == 5, labels
    assert "Best: hold at 2 or less" in labels[1]
    assert labels[2].startswith("Line chart of the chance to win when holding")
    assert "2 players: exactly 3" in labels[3]
    assert "Flapjack" in labels[4]
    # four players is the chart shown; six players: the best rule is 1 or less
    page.get_by_role("button", name="6 players").click()
    page.wait_for_function(
        "() => /6 players.*Best: hold at 1 or less/.test(document.querySelectorAll("
        "'svg.icg-chart-svg')[1].getAttribute('aria-label'))", timeout=TIMEOUT)
    page.get_by_role("button", name="Open the simulation panel").click()
    page.get_by_role("button", name="Run the simulation").click()
    page.get_by_text(re.compile(r"^Done: ")).wait_for(timeout=LOAD_TIMEOUT)
    assert page.locator("svg.icg-chart-svg").count() == 6
    assert page.evaluate(ERROR_OUTPUTS_JS) == []
    assert site_page.problems() == []


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_projector_walkthrough_opens_with_no_key(site_page: SitePage, lang: str) -> None:
    """The teacher guide's walkthrough table (every hand shown, one computer move at a time)
    opens on the public site with no key: it shows the cards of a practice deal, no answer."""
    site_page.open(render_path(lang, "teacher_guide"))
    page = site_page.page
    with speaking(lang):
        next_move, reveal = _("Next move"), _("Show every hand")
        no_moves = _("No computer moves yet.")
    page.get_by_role("button", name=next_move).wait_for(timeout=LOAD_TIMEOUT)
    assert page.locator("input[type=password]").count() == 0
    page.get_by_role("button", name=reveal).wait_for(timeout=TIMEOUT)
    last = page.locator(".icg-last-reason").first
    assert last.inner_text().strip() == no_moves
    # the student is the dealer: a computer player moves first, on the teacher's "Next move"
    wait_enabled(page, next_move).click()
    page.wait_for_function("t => { const e = document.querySelector('.icg-last-reason');"
                           " return e && e.innerText.trim() !== t; }", arg=no_moves,
                           timeout=TIMEOUT)
    wait_all_cells(page)
    assert page.evaluate(ERROR_OUTPUTS_JS) == []
    assert site_page.problems() == []


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


@pytest.mark.parametrize("why", ["memory refused", "no DecompressionStream"])
def test_python_starts_afresh_when_the_snapshot_cannot_restore(
        site_dir: Path, tmp_path: Path, browser: Any, why: str) -> None:
    """Python's memory of the snapshot refused (here: a wrong first word), or a browser that
    cannot unpack the file before Python starts (Safari before 16.4: here the start script runs
    without DecompressionStream): the kernel starts Python afresh, imports from the snapshot's
    files, and the lesson plays as usual."""
    import gzip
    import shutil
    import struct

    copy = tmp_path / "site"
    shutil.copytree(site_dir, copy)
    pyodide = copy / "static" / "pyodide"
    if why == "memory refused":
        snap = pyodide / "python-snapshot.gz"
        data = bytearray(gzip.decompress(snap.read_bytes()))
        start = 4 + struct.unpack_from("<I", data)[0]
        data[start:start + 4] = b"\0\0\0\0"
        snap.write_bytes(gzip.compress(bytes(data), 1))
    else:
        script = pyodide / "start-python.js"
        script.write_text("self.DecompressionStream = undefined;\n" + script.read_text())
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        with static_server(copy) as url:
            sp = SitePage(context, url)
            sp.open(render_path("en", "03_hit_me"))
            wait_interactive(sp.page, "en")
            assert play_hit_me_round(sp.page, "en")["cards"]
            assert any(m.startswith(AFRESH) for m in sp.said) and RESTORED not in sp.said
            assert sp.problems() == []
    finally:
        context.close()
