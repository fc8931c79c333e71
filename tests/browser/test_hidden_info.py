"""Hidden information in the browser: before the reveal, no opponent's face-down card (Hit Me)
and no card of an opponent's hand or of the draw pile (Flapjack) is anywhere the page holds:
the served HTML, the DOM, the state of every widget model, or any websocket frame received.

The hidden cards come from the engine, replaying the fixture table with the same deal code and
computer players. Each check has a positive control: cards the student may see are found by
the same search (so a leak would be found too), and Hit Me's hidden card is found after the
reveal.
"""

from __future__ import annotations

import re
from typing import Any

from engine import Hit, Hold

TIMEOUT = 30_000


def named_button(page: Any, name: str) -> Any:
    return page.locator(".widget-button:visible", has_text=re.compile(f"^{re.escape(name)}$"))


def text_box(page: Any, label: str) -> Any:
    return page.locator(".widget-text:visible", has=page.locator(
        "label", has_text=re.compile(f"^{re.escape(label)}$"))).locator("input")


def click_when_enabled(page: Any, name: str) -> None:
    b = named_button(page, name)
    b.wait_for(state="visible", timeout=TIMEOUT)
    page.wait_for_function("el => !el.disabled", arg=b.element_handle(), timeout=TIMEOUT)
    b.click()


def settle(vp: Any) -> None:
    """Let the kernel's replies to the last click arrive."""
    vp.page.wait_for_timeout(700)


def assert_hidden(vp: Any, bt: Any, hidden: list[Any], visible: list[Any], when: str) -> None:
    text = vp.everything_received()
    leaks = bt.find_cards(text, hidden)
    assert leaks == {}, f"{when}: hidden cards reached the browser: {leaks}"
    seen = bt.find_cards(text, visible)
    assert set(seen) == {c.key for c in visible}, \
        f"{when}: positive control failed, visible cards not found: {seen}"


def test_hit_me_face_down_card_stays_in_the_kernel(
    fixtures_server: Any, open_page: Any, bt: Any
) -> None:
    replica = bt.HitMeReplica()
    hidden = replica.hidden_cards()
    vp = open_page("hidden-hit-me")
    vp.open(fixtures_server.page_url("hit_me_table.ipynb"))
    settle(vp)
    face_up = [c for s in range(replica.config.players) for c in replica.round.face_up[s]]
    assert_hidden(vp, bt, hidden, face_up, "after the deal")

    click_when_enabled(vp.page, "Peek at my face-down card")
    settle(vp)
    assert_hidden(vp, bt, hidden, [*face_up, replica.round.face_down[0]], "after peeking")

    if any(isinstance(a, Hit) for a in replica.round.legal_actions(0)):
        click_when_enabled(vp.page, "Hit me!")
        replica.act(Hit())
        # the hit drawn (its card, the line, the status) before the next click: a click aimed
        # while the table grows lands where "Hold" was a moment before
        vp.page.get_by_role("group", name="You", exact=True).get_by_text(
            re.compile(r"\b1 hit\b")).wait_for(timeout=TIMEOUT)
    if not replica.round.players_done:
        click_when_enabled(vp.page, "Hold")
        replica.act(Hold())
    assert replica.round.players_done
    text_box(vp.page, "My sum").wait_for(state="visible", timeout=TIMEOUT)
    settle(vp)
    # The engine's round is over, but the cards are not turned up until the announce is done.
    assert_hidden(vp, bt, hidden, replica.my_cards(), "while announcing the sum")

    total = replica.my_sum()
    text_box(vp.page, "My sum").fill(str(total))
    text_box(vp.page, "Its absolute value |sum|").fill(str(abs(total)))
    vp.wait_synced()
    click_when_enabled(vp.page, "Check my sum")
    settle(vp)
    assert_hidden(vp, bt, hidden, replica.my_cards(), "after checking the sum")

    click_when_enabled(vp.page, "Turn up all the cards")
    vp.page.locator(".icg-msg-celebrate").wait_for(timeout=TIMEOUT)
    settle(vp)
    revealed = bt.find_cards(vp.page.content(), hidden)
    assert set(revealed) == {c.key for c in hidden}, "after the reveal every card is face up"


def test_flapjack_hands_and_draw_pile_stay_in_the_kernel(
    fixtures_server: Any, open_page: Any, bt: Any
) -> None:
    replica = bt.FlapjackReplica()
    vp = open_page("hidden-flapjack")
    vp.open(fixtures_server.page_url("flapjack_table.ipynb"))
    settle(vp)
    assert_hidden(vp, bt, replica.hidden_cards(), replica.state.hands[0], "after the deal")
    for turn in range(1, 6):
        if replica.state.is_over:
            break
        play = replica.choose()
        label = replica.label(play.card)
        vp.page.locator(".icg-card-btn:visible",
                        has_text=re.compile(f"^{re.escape(label)}( \\(.*\\))?$")).click()
        new_total = replica.state.total + play.sign * replica.config.value(play.card)
        box = text_box(vp.page, "New total")
        bt.wait_total_prompt(vp.page, play.card)
        box.fill(str(new_total))
        vp.wait_synced()
        click_when_enabled(vp.page, "Check the new total")
        replica.play(play)
        # wait until the page shows the engine's new hand, then search everything
        want = sorted(replica.hand_labels())
        vp.page.wait_for_function(
            "want => JSON.stringify([...document.querySelectorAll('.icg-card-btn')]"
            ".filter(b => b.offsetParent !== null)"
            ".map(b => b.innerText.replace(/\\s*\\(.*\\)$/, '').trim()).sort())"
            " === JSON.stringify(want)",
            arg=want, timeout=TIMEOUT,
        )
        settle(vp)
        assert_hidden(vp, bt, replica.hidden_cards(), replica.state.hands[0], f"after turn {turn}")
