"""The static site (tools/build_site.py, `make site`) in Chromium, served by
`python -m http.server`: its pages run their Python in the browser, make no request off that
server and log no console error.

The site is built once per test run (the session fixture `site_dir` in tests/browser/conftest.py:
make test's site stage, or a temporary folder; the downloads come from .site-cache/, so only the
first build on a machine fetches anything). How a page starts: test_site_start.py.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from static_site import (
    LOAD_TIMEOUT,
    TIMEOUT,
    SitePage,
    play_flapjack_game,
    play_hit_me_round,
    render_path,
    text_box,
    wait_enabled,
    wait_interactive,
)

from widgets.lessons.course import FOLDERS
from widgets.words import _, speaking

pytestmark = pytest.mark.slow


def test_public_build_has_the_pages_and_no_answer_key(site_dir: Path) -> None:
    info = json.loads((site_dir / "build.json").read_text())
    assert info["teacher"] is False
    for lang, folder in FOLDERS.items():
        assert (site_dir / folder / "index.html").is_file()
        for page in ("00_start_here", "01_integers_with_cards", "02_absolute_value",
                     "03_hit_me", "04_taking_a_card_away", "05_flapjack", "06_strategy_lab",
                     "practice", "teacher_guide", "printable_kit"):
            assert (site_dir / render_path(lang, page)).is_file(), (lang, page)
        for page in ("play_together", "class_view"):
            assert not (site_dir / render_path(lang, page)).exists(), (lang, page)
    from widgets.lessons.teacher_parts import answer_strings

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
        assert len(hrefs) == 10
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
    # "Next lesson" opens the next lesson in this tab (the renderer marks it target="_blank";
    # the template's static/link-guard.js), not in a second tab with a second Python
    page.locator(".icg-nav a").first.click()
    page.wait_for_url(re.compile(r"/04_taking_a_card_away\.html$"), timeout=TIMEOUT)
    assert [p.url for p in page.context.pages] == [page.url]


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
    ("en", "04_taking_a_card_away"), ("es", "printable_kit"),
], ids="/".join)
def test_every_cell_of_a_page_runs(site_page: SitePage, path: tuple[str, str]) -> None:
    """The explorer, practice sets, exit tickets and the kit: every cell runs in the browser
    with no error shown and no request off the server (the guide's: on the walkthrough's visit
    below)."""
    lang, name = path
    site_page.open(render_path(lang, name))
    page = site_page.page
    wait_all_cells(page, name)
    assert page.evaluate(ERROR_OUTPUTS_JS) == []
    if name in ("01_integers_with_cards", "02_absolute_value", "04_taking_a_card_away"):
        assert page.locator(".jupyter-widgets").count() > 0
    assert site_page.problems() == []


def spanish_headings_in_the_guide(page: Any) -> None:
    """The guide's plan in the browser's kernel (no notebooks beside it) names each step by
    the heading of the Spanish lesson, read from the headings the build ships."""
    from widgets.lessons import course

    first = course.student_lessons("es")[0]
    english, spanish = (course.headings(course.by_file(first.file, "en")),
                        course.headings(first))
    step = next(name for name, _minutes in first.plan if name in english)
    heading = spanish[english.index(step)]
    assert heading != step
    text = page.inner_text("body")
    assert f'"{heading}"' in text and f'"{step}"' not in text


def test_strategy_lab_experiments(site_page: SitePage) -> None:
    """Every experiment of the strategy lab is drawn as SVG with its numbers: hold or hit, the
    holding rules (a chart by number of players), the number of players, the author's claim,
    the Flapjack chances (their rounds played in plain Python when the site's snapshot was
    made), and, played in the page, the holding rules for six players and the simulation
    panel's run."""
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
def test_the_teacher_guide_and_its_walkthrough_with_no_key(site_page: SitePage,
                                                          lang: str) -> None:
    """The teacher guide's walkthrough table (every hand shown, one computer move at a time)
    opens on the public site with no key: it shows the cards of a practice deal, no answer.
    Every cell of the guide runs with no error shown; the Spanish guide names the Spanish
    lessons' headings."""
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
    if lang == "es":
        spanish_headings_in_the_guide(page)
    assert site_page.problems() == []


def test_practice_is_kept_on_the_device(site_page: SitePage) -> None:
    """No store on the static site: the practice page has no name bar, and a student's first
    tries are kept in this browser, so a later visit shows the skill mastered."""
    site_page.open(render_path("en", "practice"))
    page = site_page.page
    wait_all_cells(page, "practice")
    assert page.get_by_label("Your first name:").count() == 0
    prompt = page.locator(".icg-practice p[style*='font-size']")
    for n in range(3):
        page.get_by_text(f"Adding two integers: question {n + 1}").wait_for(timeout=TIMEOUT)
        total = sum(int(t) for t in re.findall(r"[+-]\d+", prompt.inner_text()))
        box = text_box(page, "Answer:")
        box.fill(str(total))
        box.press("Tab")
        wait_enabled(page, "Check").click()
        page.locator(".icg-practice p[role=status]", has_text="\u2714").wait_for(
            timeout=TIMEOUT)
        if n < 2:
            wait_enabled(page, "Next question").click()
    page.get_by_text("Mastered!").wait_for(timeout=TIMEOUT)
    site_page.next_visit()
    site_page.open(render_path("en", "practice"))
    wait_all_cells(site_page.page, "practice")
    site_page.page.get_by_text("Mastered!").wait_for(timeout=LOAD_TIMEOUT)
    assert site_page.problems() == []
