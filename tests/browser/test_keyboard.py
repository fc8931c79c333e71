"""Both games played to the end with the keyboard alone: Tab (and Shift+Tab) moves the focus,
Enter or Space presses the focused button, and answers are typed into the focused box. No
mouse, no element.focus() or click() from the test.

The games are the fixture tables, replayed from the engine in step with the key presses, so the
test knows which card to choose, what to type and who must win.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from engine import Hit, Hold
from widgets.words import card_name

TIMEOUT = 30_000
MAX_TABS = 250

# What has the focus: a button's text, or an input's label text.
_ACTIVE_JS = """() => {
  const e = document.activeElement;
  if (!e || e === document.body) return {tag: 'BODY', text: '', disabled: false, visible: false};
  let text = (e.innerText || '').trim();
  if (e.tagName === 'INPUT' || e.tagName === 'TEXTAREA') {
    const l = e.id ? document.querySelector('label[for="' + CSS.escape(e.id) + '"]') : null;
    text = l ? l.innerText.trim() : (e.getAttribute('aria-label') || '');
  }
  return {tag: e.tagName, text: text, disabled: !!e.disabled,
          visible: e.offsetParent !== null};
}"""


def tab_to(page: Any, wanted: Callable[[dict], bool], what: str, back: bool = False) -> dict:
    """Press Tab (Shift+Tab with `back`) until the focused element is `wanted` (none when it
    has the focus already: the page moves the focus to the next control after a move)."""
    info = page.evaluate(_ACTIVE_JS)
    if info["visible"] and not info["disabled"] and wanted(info):
        return info
    seen = []
    for _ in range(MAX_TABS):
        page.keyboard.press("Shift+Tab" if back else "Tab")
        info = page.evaluate(_ACTIVE_JS)
        if info["visible"] and not info["disabled"] and wanted(info):
            return info
        seen.append(info["text"][:30])
    raise AssertionError(f"{what} cannot be reached with Tab; focus went through {seen[:60]}")


def press_card(page: Any, replica: Any, key: str = "Enter", back: bool = False) -> Any:
    """Tab (Shift+Tab with `back`) to the card that the replica's player plays next and press
    `key` on it; returns that play."""
    play = replica.choose()
    label = replica.label(play.card)
    card = re.compile(f"^{re.escape(label)}( \\(.*\\))?$")
    tab_to(page, lambda i: i["tag"] == "BUTTON" and bool(card.match(i["text"])),
           f"the card {label}", back)
    page.keyboard.press(key)
    return play


def button_named(name: str) -> Callable[[dict], bool]:
    return lambda i: i["tag"] == "BUTTON" and i["text"] == name


def box_labelled(label: str) -> Callable[[dict], bool]:
    return lambda i: i["tag"] == "INPUT" and i["text"] == label


def press_button(page: Any, name: str, key: str = "Enter", back: bool = False) -> None:
    tab_to(page, button_named(name), f"the {name!r} button", back)
    page.keyboard.press(key)


def type_into(vp: Any, label: str, text: str) -> None:
    """Tab to the box and type the text key by key. The answer boxes send their value when
    they are left (continuous_update=False), so the Tab to Check sends it before the click.
    (Per-keystroke syncing let a Check click overtake the last digits under load: the kernel
    saw '-' and answered "Type a whole number".)"""
    page = vp.page
    tab_to(page, box_labelled(label), f"the {label!r} box")
    page.keyboard.press("Control+A")
    page.keyboard.press("Delete")
    page.keyboard.type(text)


def test_hit_me_round_by_keyboard(fixtures_server: Any, open_page: Any, bt: Any) -> None:
    replica = bt.HitMeReplica()
    vp = open_page("keyboard-hit-me")
    vp.open(fixtures_server.page_url("hit_me_table.ipynb"))
    page = vp.page
    press_button(page, "Peek at my face-down card", "Enter")
    down = replica.round.face_down[0]
    page.locator(f'.icg-card[aria-label^="{card_name(down)},"]').first.wait_for(timeout=TIMEOUT)
    if any(isinstance(a, Hit) for a in replica.round.legal_actions(0)):
        press_button(page, "Hit me!", " ")
        replica.act(Hit())
        new = replica.round.face_up[0][-1]
        page.locator(f'.icg-card[aria-label^="{card_name(new)},"]').first.wait_for(timeout=TIMEOUT)
    if not replica.round.players_done:
        press_button(page, "Hold", "Enter")
        replica.act(Hold())
    assert replica.round.players_done
    page.locator(".icg-answer").first.wait_for(state="visible", timeout=TIMEOUT)
    total = replica.my_sum()
    type_into(vp, "My sum", str(total))
    type_into(vp, "Its absolute value |sum|", str(abs(total)))
    press_button(page, "Check my sum", " ")
    page.locator(".icg-answer .icg-msg-ok").first.wait_for(timeout=TIMEOUT)
    press_button(page, "Turn up all the cards", "Enter")
    result = page.locator(".icg-msg-celebrate")
    result.wait_for(timeout=TIMEOUT)
    assert replica.winner_text() in result.inner_text()
    assert vp.problems() == []


def _wait_hand(page: Any, want: list[str], vp: Any) -> None:
    """Wait until the page shows the engine's hand for the student."""
    try:
        page.wait_for_function(
            "want => JSON.stringify([...document.querySelectorAll('.icg-card-btn')]"
            ".filter(b => b.offsetParent !== null)"
            ".map(b => b.innerText.replace(/\\s*\\(.*\\)$/, '').trim()).sort())"
            " === JSON.stringify(want)",
            arg=sorted(want), timeout=TIMEOUT,
        )
    except Exception:
        vp.screenshot("keyboard-flapjack-failure")
        raise AssertionError(f"the page's hand is not the engine's {sorted(want)}; the answer "
                             f"box says {page.locator('.icg-answer').first.inner_text()!r}"
                             ) from None


def test_flapjack_game_by_keyboard(fixtures_server: Any, open_page: Any, bt: Any) -> None:
    replica = bt.FlapjackReplica()
    vp = open_page("keyboard-flapjack")
    vp.open(fixtures_server.page_url("flapjack_table.ipynb"))
    page = vp.page
    turn = 0
    while not replica.state.is_over:
        assert replica.my_turn()
        turn += 1
        assert turn <= 60, "the game did not end"
        _wait_hand(page, replica.hand_labels(), vp)
        # Alternate the keys (Enter, Space) and the direction (Tab, Shift+Tab).
        play = press_card(page, replica, "Enter" if turn % 2 else " ", back=turn % 2 == 0)
        bt.wait_total_prompt(page, play.card)
        new_total = replica.state.total + play.sign * replica.config.value(play.card)
        type_into(vp, "New total", str(new_total))
        press_button(page, "Check the new total", " " if turn % 2 else "Enter")
        replica.play(play)
    end = page.locator(".icg-fj-end")
    try:
        end.wait_for(timeout=TIMEOUT)
    except Exception:
        vp.screenshot("keyboard-flapjack-failure")
        raise AssertionError(
            f"no end banner after turn {turn}; the answer box says "
            f"{page.locator('.icg-answer').first.inner_text()!r}; status "
            f"{page.locator('.icg-fj-status').first.inner_text()!r}") from None
    assert replica.verdict() in end.inner_text()
    assert vp.problems() == []
