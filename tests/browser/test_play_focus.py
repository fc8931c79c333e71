"""Playing from the first screen (the classroom template's static/play-focus.js): the "Play"
link at the top of lessons 03 and 05 (English and Spanish) brings the cards and the main
buttons on screen in one click, with the line that says what to do; focus follows play (it
never drops to the page body after a move, and a live region says what the table says now);
Enter checks the answer typed in a box (a table's, an exit ticket's) and the focus goes on to
the next step (Enter in the teacher's key box: test_teacher_key.py); from the |sum| box one Tab
reaches "Check my sum"; the answer boxes ask a tablet for its number keyboard. Screenshots go to
tests/artifacts/.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from conftest import ticket_question
from helpers import ticket_answer
from test_keyboard import _ACTIVE_JS, box_labelled, press_card, tab_to

from engine import Hit, Hold
from widgets.words import card_name

TIMEOUT = 30_000
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
DEVICES = {"chromebook": (1366, 657), "ipad-portrait": (768, 1024), "phone": (390, 844),
           "projector": (1280, 720), "ipad-landscape": (1024, 768), "zoom200": (683, 328)}

# The student's hand and the main buttons of each table, and what the status line says.
NEEDED_JS = {
    "hitme": ".icg-game .icg-seat .icg-hand, .icg-game .jupyter-button.mod-success, "
             ".icg-game .jupyter-button.mod-warning, .icg-game .icg-status-now",
    "flapjack": ".icg-game .icg-card-btn, .icg-game .icg-fj-status",
}
IN_VIEW_JS = """(sel) => {
  const H = window.innerHeight, W = window.innerWidth;
  const els = [...document.querySelectorAll(sel)].filter(e => e.checkVisibility());
  return {n: els.length, out: els.filter(e => { const r = e.getBoundingClientRect();
      return r.top < -1 || r.bottom > H + 1 || r.left < -1 || r.right > W + 1; })
    .map(e => (e.innerText || e.getAttribute('aria-label') || '').trim().slice(0, 40)),
    status: [...document.querySelectorAll('.icg-game .icg-status-now, .icg-game .icg-fj-status')]
      .map(e => e.innerText.trim()).join(' ')};
}"""
# A window too short for the whole hand and the buttons (200% zoom: 328 CSS px): the Play link
# brings the line that says what to do and the focused control (the table's first) on screen.
SHORT = {"zoom200"}
STATUS_JS = {"hitme": ".icg-game .icg-status-now", "flapjack": ".icg-game .icg-fj-status"}
SHORT_OUT_JS = """(sel) => {
  const H = window.innerHeight;
  return [document.querySelector(sel), document.activeElement].filter(e => {
    const r = e.getBoundingClientRect(); return r.top < -1 || r.bottom > H + 1; })
    .map(e => (e.innerText || '').trim().slice(0, 40)); }"""
LESSONS = [("hitme", "03_hit_me.ipynb", "Play Hit Me"),
           ("flapjack", "05_flapjack.ipynb", "Play Flapjack"),
           ("hitme", "es/03_hit_me.ipynb", "Jugar a Hit Me"),
           ("flapjack", "es/05_flapjack.ipynb", "Jugar a Flapjack")]


def _shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


@pytest.mark.parametrize(("table", "notebook", "link"), LESSONS,
                         ids=[n.replace("/", "-").removesuffix(".ipynb") for _t, n, _l in LESSONS])
def test_play_link_brings_the_game_on_screen(table: str, notebook: str, link: str,
                                             lessons_server: Any, open_page: Any) -> None:
    """At each size: from the top of the lesson, one click on the Play link, and the hand,
    the main buttons and the status line are all inside the window (at 200% zoom: the status
    line and the focused control); the focus is on the table's first control."""
    vp = open_page(f"play-link-{table}")
    vp.open(lessons_server.page_url(notebook))
    page = vp.page
    stem = notebook.replace("/", "-").removesuffix(".ipynb")
    for device, (w, h) in DEVICES.items():
        page.set_viewport_size({"width": w, "height": h})
        page.evaluate("() => { for (const e of document.querySelectorAll('*'))"
                      " if (e.scrollTop) e.scrollTop = 0; window.scrollTo(0, 0); }")
        play = page.get_by_role("link", name=re.compile(re.escape(link)))
        box = play.bounding_box()
        assert box is not None and box["y"] + box["height"] <= h, f"{device}: no Play link on top"
        play.click()
        page.wait_for_timeout(300)
        seen = page.evaluate(IN_VIEW_JS, NEEDED_JS[table])
        _shot(page, f"play-link-{stem}-{device}")
        if device in SHORT:  # the status line and the focused control; the rest below
            out = page.evaluate(SHORT_OUT_JS, STATUS_JS[table])
            assert out == [], f"{device}: off screen {out} ({seen})"
        else:
            assert seen["n"] >= 3 and seen["out"] == [], f"{device}: off screen {seen}"
        assert seen["status"], f"{device}: no line says what to do"
        focused = page.evaluate("() => !!document.activeElement.closest('.icg-game')")
        assert focused, f"{device}: the focus is not on the table"
    assert len(page.context.pages) == 1, "the Play link opened another tab"
    assert vp.problems() == []


def _active(page: Any) -> dict:
    return page.evaluate(_ACTIVE_JS)


def _focus_settles(page: Any, name: str) -> dict:
    """Wait until the focus is on the game control `name`; return what has it then."""
    try:
        page.wait_for_function(
            "name => { const e = document.activeElement; return e && !e.disabled &&"
            " e.closest('.icg-game') && (e.innerText || '').trim() === name; }",
            arg=name, timeout=TIMEOUT)
    except Exception:
        raise AssertionError(f"the focus is not on {name!r}: {_active(page)}") from None
    return _active(page)


def test_focus_follows_play_and_enter_checks(fixtures_server: Any, open_page: Any,
                                             bt: Any) -> None:
    """Hit Me by keyboard: after "Hit me!" the focus stays on it (the computer moved, it is the
    student's turn again), after Hold it goes to the "My sum" box, never to the page body; the
    live region says the status line; one Tab from the |sum| box reaches "Check my sum";
    Enter in the box checks. The boxes have inputmode="numeric"."""
    replica = bt.HitMeReplica()
    vp = open_page("focus-follows-play", viewport={"width": 1366, "height": 657})
    vp.open(fixtures_server.page_url("hit_me_table.ipynb"))
    page = vp.page
    tab_to(page, lambda i: i["text"] == "Peek at my face-down card", "Peek")
    page.keyboard.press("Enter")
    down = replica.round.face_down[0]
    page.locator(f'.icg-card[aria-label^="{card_name(down)},"]').first.wait_for(timeout=TIMEOUT)
    assert _active(page)["text"] == "Hide my face-down card"
    if any(isinstance(a, Hit) for a in replica.round.legal_actions(0)):
        tab_to(page, lambda i: i["text"] == "Hit me!", "Hit me!")
        page.keyboard.press("Enter")
        replica.act(Hit())
        new = replica.round.face_up[0][-1]
        page.locator(f'.icg-card[aria-label^="{card_name(new)},"]').first.wait_for(
            timeout=TIMEOUT)
        vp.wait_synced()
        if not replica.round.players_done and any(isinstance(a, Hold)
                                          for a in replica.round.legal_actions(0)):
            _focus_settles(page, "Hit me!")
    if not replica.round.players_done:
        tab_to(page, lambda i: i["text"] == "Hold", "Hold")
        page.keyboard.press("Enter")
        replica.act(Hold())
    assert replica.round.players_done
    boxes = page.locator(".icg-answer input")
    boxes.first.wait_for(state="visible", timeout=TIMEOUT)
    page.wait_for_function("() => document.activeElement.matches('.icg-answer input')",
                           timeout=TIMEOUT)
    live = page.locator("#icg-live")
    assert live.text_content().strip() == page.locator(".icg-status-now").inner_text().strip()
    assert [boxes.nth(i).get_attribute("inputmode") for i in range(2)] == ["numeric"] * 2
    total = replica.my_sum()
    page.keyboard.type(str(total))
    tab_to(page, box_labelled("Its absolute value |sum|"), "the |sum| box")
    page.keyboard.type(str(abs(total)))
    page.keyboard.press("Tab")
    assert _active(page)["text"] == "Check my sum", "one Tab from |sum| reaches Check"
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Enter")
    page.locator(".icg-answer .icg-msg-ok").first.wait_for(timeout=TIMEOUT)
    # the focus goes on to the next step, not left in the box 16 Tabs from it
    page.wait_for_function("() => document.activeElement.innerText.trim()"
                           " === 'Turn up all the cards'", timeout=TIMEOUT)
    assert_focus_ring(page)
    _shot(page, "focus-follows-play-checked")
    assert vp.problems() == []


def test_flapjack_focus_follows_the_card_played(fixtures_server: Any, open_page: Any,
                                                bt: Any) -> None:
    """Flapjack by keyboard, "say the new total" on: after a card is played with Enter, the
    focus goes to the "New total" box (the card's button is off); Enter there checks; the focus
    then stays on a control of the table, never on the page body."""
    replica = bt.FlapjackReplica()
    vp = open_page("focus-flapjack")
    vp.open(fixtures_server.page_url("flapjack_table.ipynb"))
    page = vp.page
    play = press_card(page, replica)
    bt.wait_total_prompt(page, play.card)
    page.wait_for_function("() => document.activeElement.matches('.icg-answer input')",
                           timeout=TIMEOUT)
    new_total = replica.state.total + play.sign * replica.config.value(play.card)
    page.keyboard.type(str(new_total))
    page.keyboard.press("Enter")
    replica.play(play)
    page.locator(".icg-answer .icg-msg-ok").first.wait_for(timeout=TIMEOUT)
    vp.wait_synced()
    page.wait_for_timeout(500)
    _shot(page, "focus-flapjack-after-check")
    assert page.evaluate("() => !!document.activeElement.closest('.icg-game')"), _active(page)
    assert vp.problems() == []


ACTIVE_TEXT_JS = "t => (document.activeElement.innerText || '').trim() === t"
# The focused control's outline: its width in px and its contrast against the page's white
# ground (WCAG 2.2's focus appearance: at least 2 px and 3:1).
FOCUS_RING_JS = """() => {
  const cs = getComputedStyle(document.activeElement);
  const [r, g, b] = cs.outlineColor.match(/[\\d.]+/g).map(Number);
  const lin = c => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
  const lum = 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  return {style: cs.outlineStyle, width: parseFloat(cs.outlineWidth),
          contrast: 1.05 / (lum + 0.05)};
}"""


def assert_focus_ring(page: Any) -> None:
    ring = page.evaluate(FOCUS_RING_JS)
    assert ring["style"] != "none" and ring["width"] >= 2 and ring["contrast"] >= 3, ring


def test_an_exit_ticket_by_keyboard_moves_on(lessons_server: Any, open_page: Any) -> None:
    """Lesson 1's exit ticket: Enter in the answer box checks it and the focus goes to "Next
    question"; Enter there brings the next question with the focus on it (its first choice);
    a choice pressed by keyboard, the focus goes to "Next question" again; a wrong answer
    typed, the same."""
    vp = open_page("exit-ticket-keyboard")
    vp.open(lessons_server.page_url("01_integers_with_cards.ipynb"))
    ticket = vp.page.locator(".icg-exit-ticket")
    ticket.get_by_role("button", name="Start the exit ticket").click()
    ticket.get_by_label("Your first name:").fill("Kim")
    ticket.get_by_label("Your first name:").press("Tab")
    vp.wait_synced()
    ticket.get_by_role("button", name="That's me").click()
    prompt, _choices = ticket_question(ticket, 1)
    box = ticket.get_by_label("Answer:")
    box.focus()
    assert_focus_ring(vp.page)
    vp.page.keyboard.type(ticket_answer(prompt))
    vp.page.keyboard.press("Enter")
    ticket.locator("p[role=status]").filter(has_text="Right").first.wait_for(timeout=TIMEOUT)
    vp.page.wait_for_function(ACTIVE_TEXT_JS, arg="Next question", timeout=TIMEOUT)
    assert_focus_ring(vp.page)
    vp.page.keyboard.press("Enter")
    prompt, choices = ticket_question(ticket, 2)  # the greatest of Kim's own numbers
    vp.page.wait_for_function(
        "() => document.activeElement.closest('.icg-exit-ticket')"
        " && document.activeElement.matches('button') && !document.activeElement.disabled"
        " && document.activeElement.innerText.trim() !== 'Next question'", timeout=TIMEOUT)
    ticket.get_by_role("button", name=ticket_answer(prompt, choices), exact=True).focus()
    vp.page.keyboard.press("Enter")
    vp.page.wait_for_function(ACTIVE_TEXT_JS, arg="Next question", timeout=TIMEOUT)
    _shot(vp.page, "exit-ticket-keyboard-next")
    assert vp.problems() == []
