"""Play together in the browser: three Chromium pages (three students: Ana, Ben, Cy) on one
Voila server play a whole Hit Me round by clicks, through the room store.

Every page updates without a click of its own (each click waits for the button to come on by
itself); no page's served HTML, DOM, widget state or websocket frames ever holds another
student's face-down card before the reveal (the test reads the truth from the store; a positive
control finds the page's own cards, and everyone's after the reveal); a student who reloads the
tab (F5) is back in the same seat with no link typed, and no page ever holds another seat's key.
"""

from __future__ import annotations

from typing import Any

from together import (
    NAMES,
    TIMEOUT,
    click_when_enabled,
    no_key_elsewhere,
    no_leak,
    open_table,
    reload_same_tab,
    type_into,
    wait_for_move,
)

from engine.hit_me import HitMeGame

LEAK_CHECK_EVERY = 3


def test_three_students_play_a_hit_me_round(rooms_server: tuple[str, str], live_open_page: Any,
                                            bt: Any) -> None:
    from rooms import open_store

    url, store_url = rooms_server
    store = open_store(store_url)
    pages, code = open_table(rooms_server, live_open_page, "Hit Me")
    assert store.room(code).status == "playing"  # full: it started by itself
    reloaded = False
    for step in range(40):
        _, game = store.load(code)
        assert isinstance(game, HitMeGame)
        r = game.round
        if r.phase != "play":
            break
        # every third move (and before the announce, below): what a page received stays in
        # its frames, so a card that reached it at any move is found at the next check
        if step % LEAK_CHECK_EVERY == 0:
            hidden = {p: [r.face_down[p]] for p in range(3)}
            face_up = {p: list(r.face_up[p]) for p in range(3)}
            no_leak(bt, pages, hidden, face_up, f"move {len(r.events)}")
        seat = r.current
        vp = pages[seat]
        obs = r.observation(seat)["seats"][seat]
        before = store.current_version(code)
        click_when_enabled(vp.page, "Hit me!" if obs["hits"] < 1 else "Hold")
        wait_for_move(store, code, before, vp.page)
        if len(r.events) == 4:  # mid-game: Ben reloads his tab (F5)
            no_key_elsewhere(pages)
            reload_same_tab(pages[1], "Ben", 1)
            reloaded = True
    assert reloaded
    _, game = store.load(code)
    r = game.round
    assert r.phase == "announce"
    hidden = {p: [r.face_down[p]] for p in range(3)}
    for seat, vp in enumerate(pages):
        no_leak(bt, pages, hidden, {}, f"before {NAMES[seat]} announces")
        values = r.observation(seat)["seats"][seat]["values"]
        type_into(vp, "My sum", str(sum(values)))
        type_into(vp, "Its absolute value |sum|", str(abs(sum(values))))
        click_when_enabled(vp.page, "Check my sum")
        # attached, not visible: the last answer turns the cards up at once, which hides the
        # announce box (and its "Right!") a moment later
        vp.page.get_by_text("Right!").first.wait_for(state="attached", timeout=TIMEOUT)
    for vp in pages:  # the last answer turned the cards up on every page (the table's status,
        # which the page's live region also says: the first of the two)
        vp.page.get_by_text("The round is over: every card is face up.").first.wait_for(
            timeout=TIMEOUT)
    all_down = [r.face_down[p] for p in range(3)]
    for vp in pages:
        found = bt.find_cards(vp.everything_received(), all_down)
        assert set(found) == {c.key for c in all_down}, "after the reveal every card shows"
    assert sorted(c["seat"] for c in store.checks(code)) == [0, 1, 2]
    assert all(c["first_try"] for c in store.checks(code))
    for vp in pages:
        assert vp.problems() == []
