"""A whole Hit Me round in a real browser, by clicks and typed answers only.

The fixture table (tests/browser/fixtures/hit_me_table.ipynb: two players, deal code 3, a random
computer player that moves at once) is replayed from the engine in step with the clicks, so the
test knows the student's sum and the winner before the page shows them.
"""

from __future__ import annotations

import re
from typing import Any

from engine import Hit, Hold
from widgets.words import card_name

TIMEOUT = 30_000


def button(page: Any, name: str) -> Any:
    """The visible widget button with exactly this text."""
    return page.locator(".widget-button:visible", has_text=re.compile(f"^{re.escape(name)}$"))


def text_box(page: Any, label: str) -> Any:
    """The visible ipywidgets Text box whose label is `label`."""
    return page.locator(".widget-text:visible", has=page.locator(
        "label", has_text=re.compile(f"^{re.escape(label)}$"))).locator("input")


def wait_enabled(page: Any, name: str) -> Any:
    b = button(page, name)
    b.wait_for(state="visible", timeout=TIMEOUT)
    page.wait_for_function("el => !el.disabled", arg=b.element_handle(), timeout=TIMEOUT)
    return b


def test_full_round_by_clicks(fixtures_server: Any, open_page: Any, bt: Any) -> None:
    replica = bt.HitMeReplica()
    vp = open_page("hit-me-play")
    vp.open(fixtures_server.page_url("hit_me_table.ipynb"))
    page = vp.page

    # The page deals what the engine deals: the student's face-up card is shown.
    up = replica.round.face_up[0][0]
    page.locator(f'.icg-card[aria-label^="{card_name(up)},"]').first.wait_for(timeout=TIMEOUT)

    wait_enabled(page, "Peek at my face-down card").click()
    down = replica.round.face_down[0]
    page.locator(f'.icg-card[aria-label^="{card_name(down)},"]').first.wait_for(timeout=TIMEOUT)

    # One hit (when the rules allow it), then hold.
    if any(isinstance(a, Hit) for a in replica.round.legal_actions(0)):
        wait_enabled(page, "Hit me!").click()
        replica.act(Hit())
        new = replica.round.face_up[0][-1]
        page.locator(f'.icg-card[aria-label^="{card_name(new)},"]').first.wait_for(timeout=TIMEOUT)
        vp.screenshot("hit-me-mid-game")
    if not replica.round.players_done and replica.round.current == 0:
        wait_enabled(page, "Hold").click()
        replica.act(Hold())
    assert replica.round.players_done, "the replica's round should be over after the student holds"

    # Announce the sum and its absolute value by typing them, then check.
    total = replica.my_sum()
    # Key by key and straight on to Check, as a quick student does (no wait: the boxes send
    # their value when left, so the click cannot overtake the last digits).
    text_box(page, "My sum").wait_for(state="visible", timeout=TIMEOUT)
    text_box(page, "My sum").press_sequentially(str(total))
    text_box(page, "Its absolute value |sum|").press_sequentially(str(abs(total)))
    wait_enabled(page, "Check my sum").click()
    page.locator(".icg-answer .icg-msg-ok").first.wait_for(
        timeout=TIMEOUT)
    wait_enabled(page, "Turn up all the cards").click()

    # The winner is named, every card is face up, and nothing went wrong.
    result = page.locator(".icg-msg-celebrate")
    result.wait_for(timeout=TIMEOUT)
    assert replica.winner_text() in result.inner_text()
    for card in replica.hidden_cards():
        assert page.locator(f'.icg-card[aria-label^="{card_name(card)},"]').count() > 0, \
            f"{card_name(card)} should be face up after the reveal"
    vp.screenshot("hit-me-end")
    assert vp.problems() == []
