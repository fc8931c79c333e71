"""Both tables played to the end in the pseudo-locale "qps" in a real browser:
every message is marked ⟦...⟧ (made from widgets/locale/icg.pot), so a word of the tables' DOM
outside the marks (text, aria-label, title) was never translated. And `lang=`: one table in
Spanish on a page whose kernel speaks English.

tests/browser/fixtures/qps_tables.ipynb holds the same two tables as hit_me_table.ipynb and
flapjack_table.ipynb (without "say the new total"), so the engine replicas of conftest.py
know every card.
"""

from __future__ import annotations

import re
import time
from typing import Any

from engine import Hit, Hold
from widgets import words

TIMEOUT = 30_000

# Every text node (outside <style>) and every aria-label/title/placeholder of the tables.
DOM_TEXTS = """() => {
  const out = [];
  for (const root of document.querySelectorAll('.icg-root')) {
    // one string a table, in document order: a message with a <b> inside is one text
    const parts = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (n.parentElement && n.parentElement.closest('style')) continue;
      if (n.textContent.trim()) parts.push(n.textContent);
    }
    out.push(parts.join(' '));
    for (const el of root.querySelectorAll('[aria-label],[title],[placeholder]')) {
      for (const a of ['aria-label', 'title', 'placeholder']) {
        const v = el.getAttribute(a);
        if (v) out.push(v);
      }
    }
  }
  return out;
}"""


def qps(text: str) -> str:
    with words.speaking("qps"):
        return words._(text)


def unmarked(text: str, allowed: set[str]) -> list[str]:
    inner = re.compile("\u27e6[^\u27e6\u27e7]*\u27e7")
    while True:
        shorter = inner.sub("", text)
        if shorter == text:
            break
        text = shorter
    return [w for w in re.findall(r"[A-Za-z]{2,}", text) if w not in allowed]


def dom_unmarked(page: Any, allowed: set[str]) -> list[tuple[str, str]]:
    texts = page.evaluate(DOM_TEXTS)
    assert len(texts) > 10, texts
    return [(t, " ".join(unmarked(t, allowed))) for t in texts if unmarked(t, allowed)]


def button(page: Any, name: str) -> Any:
    return page.locator(".widget-button:visible", has_text=re.compile(f"^{re.escape(name)}$"))


def wait_enabled(page: Any, name: str) -> Any:
    b = button(page, name).first
    b.wait_for(state="visible", timeout=TIMEOUT)
    page.wait_for_function("el => !el.disabled", arg=b.element_handle(), timeout=TIMEOUT)
    return b


def text_box(page: Any, label: str) -> Any:
    return page.locator(".widget-text:visible", has=page.locator(
        "label", has_text=re.compile(f"^{re.escape(label)}$"))).locator("input")


def test_both_tables_to_the_end_in_qps_show_no_unmarked_text(
        fixtures_server: Any, open_page: Any, bt: Any) -> None:
    # ipywidgets writes title="null" on a widget without a tooltip (not a text of ours); the
    # seats' default names ("Computer 1") are translated like every other text
    allowed = {"null"}
    vp = open_page("qps-tables")
    vp.open(fixtures_server.page_url("qps_tables.ipynb"))
    page = vp.page
    assert not dom_unmarked(page, allowed), dom_unmarked(page, allowed)[:8]

    # Hit Me: peek, one hit when allowed, hold, announce, turn the cards up.
    hit_me = bt.HitMeReplica()
    wait_enabled(page, qps("Peek at my face-down card")).click()
    if any(isinstance(a, Hit) for a in hit_me.round.legal_actions(0)):
        wait_enabled(page, qps("Hit me!")).click()
        hit_me.act(Hit())
        # the page shows the hit and the computer's move after it (every face-up card of the
        # engine's round, and the student's own face-down one, peeked) before Hold is clicked:
        # a click while the computer plays is refused by the kernel
        page.wait_for_function(
            "n => document.querySelectorAll('.icg-seat .icg-card:not(.icg-back)').length === n",
            arg=sum(len(cards) for cards in hit_me.round.face_up) + 1, timeout=TIMEOUT)
    if not hit_me.round.players_done and hit_me.round.current == 0:
        wait_enabled(page, qps("Hold")).click()
        hit_me.act(Hold())
    total = hit_me.my_sum()
    text_box(page, qps("My sum")).wait_for(state="visible", timeout=TIMEOUT)
    text_box(page, qps("My sum")).press_sequentially(str(total))
    text_box(page, qps("Its absolute value |sum|")).press_sequentially(str(abs(total)))
    wait_enabled(page, qps("Check my sum")).click()
    page.locator(".icg-answer .icg-msg-ok").first.wait_for(timeout=TIMEOUT)
    wait_enabled(page, qps("Turn up all the cards")).click()
    page.locator(".icg-msg-celebrate").first.wait_for(timeout=TIMEOUT)
    assert not dom_unmarked(page, allowed), dom_unmarked(page, allowed)[:8]

    # Flapjack: every turn by clicking the replica's card, to the end of the game.
    fj = bt.FlapjackReplica()
    turns = 0
    while not fj.state.is_over:
        turns += 1
        assert turns <= 60
        want = sorted(fj.hand_labels())  # the page shows the hand the engine has, first
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and sorted(
                re.sub(r"\s*\(.*\)$", "", t).strip()
                for t in page.locator(".icg-card-btn:visible").all_inner_texts()) != want:
            page.wait_for_timeout(100)
        play = fj.choose()
        label = fj.label(play.card)
        page.locator(".icg-card-btn:visible",
                     has_text=re.compile(f"^{re.escape(label)}( \\(.*\\))?$")).first.click()
        fj.play(play)
        if turns == 2:
            assert not dom_unmarked(page, allowed), dom_unmarked(page, allowed)[:8]
    page.locator(".icg-fj-end").wait_for(timeout=TIMEOUT)
    vp.wait_synced()
    end = page.locator(".icg-fj-end").inner_text()
    assert end.startswith("\u27e6") and "Game over" not in end
    assert not dom_unmarked(page, allowed), dom_unmarked(page, allowed)[:8]
    # positive control: an English word in the same DOM is found
    page.evaluate("() => document.querySelector('.icg-root').append('Game over')")
    assert dom_unmarked(page, allowed)
    vp.screenshot("qps-tables-end")
    assert vp.problems() == []


def test_lang_switches_one_table_on_an_english_page(
        fixtures_server: Any, open_page: Any) -> None:
    vp = open_page("lang-switch")
    vp.open(fixtures_server.page_url("lang_switch.ipynb"))
    page = vp.page
    tables = page.locator(".icg-root")
    assert tables.count() == 2
    es, en = tables.nth(0), tables.nth(1)
    es.locator(".widget-button", has_text=re.compile("^Pista$")).wait_for(timeout=TIMEOUT)
    en.locator(".widget-button", has_text=re.compile("^Hint$")).wait_for(timeout=TIMEOUT)
    es.locator(".widget-button", has_text=re.compile("^Mirar mi carta boca abajo$")).click()
    es.locator(".widget-button", has_text=re.compile(
        "^Ocultar mi carta boca abajo$")).wait_for(timeout=TIMEOUT)
    en.locator(".widget-button", has_text=re.compile("^Peek at my face-down card$")).click()
    en.locator(".widget-button", has_text=re.compile(
        "^Hide my face-down card$")).wait_for(timeout=TIMEOUT)
    assert "corazones" in es.inner_html() or "picas" in es.inner_html() or \
        "tréboles" in es.inner_html() or "diamantes" in es.inner_html()
    assert "Move log" in en.inner_text() and "Registro de jugadas" in es.inner_text()
    assert vp.problems() == []
