"""A whole Flapjack game in a real browser, by clicks and typed answers only.

The fixture table (tests/browser/fixtures/flapjack_table.ipynb: two players, classic rules, deal
code 5, a random computer player that moves at once, "say the new total" on) is replayed from
the engine in step with the clicks: before each play the test checks that the page shows the
hand the engine dealt, types the new total the engine computes, and at the end expects the
winner the engine names.
"""

from __future__ import annotations

import re
import time
from typing import Any

TIMEOUT = 30_000
MAX_TURNS = 60  # a two-player classic game gives the student at most 26 turns


def hand_labels(page: Any) -> list[str]:
    """The card labels ('7♦ -7') of the visible hand buttons, without any '(reason)'."""
    texts = page.locator(".icg-card-btn:visible").all_inner_texts()
    return sorted(re.sub(r"\s*\(.*\)$", "", t).strip() for t in texts)


def wait_for_hand(page: Any, expected: list[str], timeout_s: float = 30) -> None:
    """Wait until the page shows exactly the expected hand."""
    want = sorted(expected)
    deadline = time.monotonic() + timeout_s
    seen: list[str] = []
    while time.monotonic() < deadline:
        seen = hand_labels(page)
        if seen == want:
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"the page shows the hand {seen}, the engine has {want}")


def card_button(page: Any, label: str) -> Any:
    return page.locator(".icg-card-btn:visible",
                        has_text=re.compile(f"^{re.escape(label)}( \\(.*\\))?$"))


def named_button(page: Any, name: str) -> Any:
    return page.locator(".widget-button:visible", has_text=re.compile(f"^{re.escape(name)}$"))


def total_box(page: Any) -> Any:
    return page.locator(".widget-text:visible", has=page.locator(
        "label", has_text=re.compile("^New total$"))).locator("input")


def test_full_game_by_clicks_and_typed_totals(
    fixtures_server: Any, open_page: Any, bt: Any
) -> None:
    replica = bt.FlapjackReplica()
    vp = open_page("flapjack-play")
    vp.open(fixtures_server.page_url("flapjack_table.ipynb"))
    page = vp.page
    turns = 0
    while not replica.state.is_over:
        assert replica.my_turn(), "after the computer's moves it must be the student's turn"
        turns += 1
        assert turns <= MAX_TURNS, "the game did not end"
        wait_for_hand(page, replica.hand_labels())
        play = replica.choose()
        card_button(page, replica.label(play.card)).click()
        # Say the new total: type it, then check it.
        new_total = replica.state.total + play.sign * replica.config.value(play.card)
        box = total_box(page)
        bt.wait_total_prompt(page, play.card)
        box.fill(str(new_total))
        vp.wait_synced()
        named_button(page, "Check the new total").click()
        replica.play(play)
        if turns == 3:
            wait_for_hand(page, replica.hand_labels())
            vp.screenshot("flapjack-mid-game")
    end = page.locator(".icg-fj-end")
    end.wait_for(timeout=TIMEOUT)
    text = end.inner_text()
    assert "Game over" in text
    assert replica.verdict() in text, f"expected {replica.verdict()!r} in {text!r}"
    vp.screenshot("flapjack-end")
    assert vp.problems() == []
