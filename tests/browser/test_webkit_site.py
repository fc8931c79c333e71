"""The static site in WebKit (Safari's engine, tests/browser/webkit.py), as iPads and iPhones
run it: a Hit Me round in English and on the Spanish page, a Flapjack game to its end, and the
strategy lab's experiments and simulation run, with every resource from the site's own server
and no error recorded or shown. The same journeys in Chromium: test_site.py.

One WebKit window serves the whole file (one browser start, the site's runtime cached between
the pages, as a student's tablet keeps it).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from static_site import FLAPJACK_STEP_JS, MY_SEAT_VALUES_JS, render_path, words
from webkit import LOAD_TIMEOUT, WebKitPage

from widgets.words import _, speaking

pytestmark = pytest.mark.slow

ERROR_OUTPUTS_JS = """return [...document.querySelectorAll('.jp-OutputArea-output')]
  .filter(e => /error|stderr/.test(e.getAttribute('data-mime-type') || '')
               || /Traceback|Error: /.test(e.innerText))
  .map(e => e.innerText.slice(0, 300))"""


@pytest.fixture(scope="module")
def wk(webkit: Any, site_url: str) -> Iterator[WebKitPage]:
    driver = webkit(1280, 900)
    yield WebKitPage(driver, site_url)
    driver.quit()


def open_lesson(wk: WebKitPage, lang: str, page: str) -> None:
    wk.open(render_path(lang, page))
    wk.wait("return document.readyState === 'complete'", what="the page's load")
    wk.record()


def play_hit_me_round(wk: WebKitPage, lang: str) -> dict[str, Any]:
    """Peek, hold, type the sum read off the student's seat and its absolute value, check,
    turn up every card (static_site.play_hit_me_round, by WebDriver clicks and keys)."""
    w = words(lang)
    wk.click(w["Peek at my face-down card"], timeout=LOAD_TIMEOUT)
    wk.button(w["Hide my face-down card"])
    wk.click(w["Hold"])
    wk.text_box(w["My sum"])
    values = wk.js("return (" + MY_SEAT_VALUES_JS + ")()")
    total = sum(int(v.replace("\u2212", "-")) for v in values)
    wk.type_into(w["My sum"], str(total))
    wk.type_into(w["Its absolute value |sum|"], str(abs(total)))
    wk.click(w["Check my sum"])
    wk.wait("return document.querySelector('.icg-answer .icg-msg-ok')", what="the sum checked")
    wk.click(w["Turn up all the cards"])
    result = wk.wait("const r = document.querySelector('.icg-msg-celebrate');"
                     " return r && r.innerText.trim()", what="the round's result")
    return {"sum": total, "cards": values, "result": result}


@pytest.mark.parametrize("lang", ["en", "es"])
def test_hit_me_round_in_webkit(wk: WebKitPage, lang: str) -> None:
    open_lesson(wk, lang, "03_hit_me")
    round_ = play_hit_me_round(wk, lang)
    assert wk.js("return document.documentElement.lang") == lang
    assert round_["cards"], "the student's seat shows its cards"
    with speaking(lang):
        said = _("Round {n}").format(n=1)
    assert re.search(r"\w", round_["result"]) and said.split()[0] in wk.text()
    nav = wk.js("return [...document.querySelectorAll('.icg-nav a')]"
                ".map(a => a.getAttribute('href'))")
    assert nav == ["04_taking_a_card_away.html", "00_start_here.html"]
    assert wk.js(ERROR_OUTPUTS_JS) == []
    assert wk.problems() == []


def test_flapjack_game_in_webkit(wk: WebKitPage) -> None:
    """The lesson's first Flapjack table played to its end: on each of the student's turns the
    first card the table allows (and the first sign it offers)."""
    open_lesson(wk, "en", "05_flapjack")
    wk.wait("return document.querySelector('.icg-card-btn')", timeout=LOAD_TIMEOUT,
            what="the Flapjack hand")
    plays = 0
    end = ""
    for _step in range(400):
        step = wk.js("return (" + FLAPJACK_STEP_JS + ")()")
        if "end" in step:
            end = step["end"]
            break
        if "sign" in step:
            wk.click(step["sign"])
        elif "card" in step:
            label = step["card"]
            wk.click_element(lambda label=label: wk.wait(
                "return [...document.querySelectorAll('.icg-card-btn')].find(b =>"
                " b.offsetParent !== null && !b.disabled"
                " && b.innerText === arguments[0]) || null", label), f"the card {label}")
            plays += 1
            assert plays <= 80, "the Flapjack game did not end"
            wk.wait("""const label = arguments[0];
              return ![...document.querySelectorAll('.icg-card-btn')]
                .some(b => b.offsetParent !== null && !b.disabled && b.innerText === label)
              || [...document.querySelectorAll('.widget-button')]
                .some(b => b.offsetParent !== null && /^[+\u2212] /.test(b.innerText))""",
                    label, what=f"the card {label} played")
        wk.js("return new Promise(r => setTimeout(r, 100))")
    assert plays > 0 and end.startswith("Game over"), (plays, end)
    assert wk.js(ERROR_OUTPUTS_JS) == []
    assert wk.problems() == []


def test_strategy_lab_in_webkit(wk: WebKitPage) -> None:
    """The strategy lab's five charts drawn as SVG with their numbers, another number of
    players chosen, and the simulation panel's run done."""
    open_lesson(wk, "en", "06_strategy_lab")
    wk.wait("return document.querySelector('.icg-nav') && document.querySelectorAll("
            "'svg.icg-chart-svg').length === 5", timeout=LOAD_TIMEOUT, what="the five charts")
    labels = wk.js("return [...document.querySelectorAll('svg.icg-chart-svg')]"
                   ".map(e => e.getAttribute('aria-label'))")
    assert "hold" in labels[0]
    assert "Best: hold at 2 or less" in labels[1]
    assert "2 players: exactly 3" in labels[3]
    assert "Flapjack" in labels[4]
    wk.click("6 players")
    wk.wait("return /6 players.*Best: hold at 1 or less/.test(document.querySelectorAll("
            "'svg.icg-chart-svg')[1].getAttribute('aria-label'))", what="the 6-player chart")
    wk.click("Open the simulation panel")
    wk.click("Run the simulation")
    wk.wait("return [...document.querySelectorAll('.jupyter-widgets *')].some(e =>"
            " !e.children.length && /^Done: /.test(e.textContent.trim()))", timeout=LOAD_TIMEOUT,
            what="the simulation's end")
    assert wk.js("return document.querySelectorAll('svg.icg-chart-svg').length") == 6
    assert wk.js(ERROR_OUTPUTS_JS) == []
    assert wk.problems() == []
