"""Play together in the browser: three Chromium pages (three students: Ana, Ben, Cy) on one
Voila server play a Flapjack game to its end, through the room store.

The first CLICKED_MOVES moves are clicks on the pages, each on the card the seat's page has
switched on by itself once the store's turn reached it; mid-way Cy opens her seat link on
another device and plays on there. The rest of the game is played through the store with each
seat's key, as the students' own kernels play it, and every page follows to "The game is
over." without a click. Every few moves no page holds another seat's hand or the draw pile
(a positive control finds the page's own hand), and no page ever holds another seat's key.
"""

from __future__ import annotations

from typing import Any

from together import (
    TIMEOUT,
    no_key_elsewhere,
    no_leak,
    open_table,
    reload_with_link_from,
    seat_key,
    wait_for_hand,
    wait_for_move,
)

# A game is about 50 moves; the clicked ones cover every kind of turn (a seat playing again
# after its own Flapjack included, when one comes early) and the device move.
CLICKED_MOVES = 15
LEAK_CHECK_EVERY = 5


def test_three_students_play_a_flapjack_game(rooms_server: tuple[str, str], live_open_page: Any,
                                             bt: Any) -> None:
    from rooms import open_store

    url, store_url = rooms_server
    store = open_store(store_url)
    pages, code = open_table(rooms_server, live_open_page, "Flapjack")
    assert store.room(code).status == "playing"
    moves = 0
    for _ in range(CLICKED_MOVES):
        if store.room(code).status == "finished":
            break
        _, state = store.load(code)
        if moves % LEAK_CHECK_EVERY == 0:
            hidden = {p: list(state.hands[p]) for p in range(3)}
            hidden[99] = list(state.draw_pile)  # nobody's: hidden from every page
            no_leak(bt, pages, hidden, {p: list(state.hands[p]) for p in range(3)},
                    f"Flapjack move {moves}")
        seat = state.current
        vp = pages[seat]
        wait_for_hand(vp.page, state, seat)
        card = vp.page.locator(".icg-room-hand button:not([disabled])").first
        card.wait_for(state="visible", timeout=TIMEOUT)
        before = store.current_version(code)
        card.click()
        wait_for_move(store, code, before, vp.page)
        moves += 1
        if moves == 3:  # mid-game: Cy opens the seat link on another device
            new = live_open_page("room-Flapjack-Cy-2")
            reload_with_link_from(pages[2], new, url, "Cy", 2)
            pages[2].context.close()
            pages[2] = new
    assert moves == CLICKED_MOVES

    keys = [seat_key(vp) for vp in pages]
    for _ in range(120):  # the rest of the game, as the students' kernels play it
        version, state = store.load(code)
        if state.is_over:
            break
        seat = state.current
        store.play(code, seat, keys[seat], state.legal_actions(seat)[0],
                   expected_version=version)
        moves += 1
    assert store.room(code).status == "finished"
    assert store.move_count(code) >= moves
    no_key_elsewhere(pages)
    for vp in pages:
        vp.page.get_by_text("The game is over.").first.wait_for(timeout=TIMEOUT)
        assert vp.problems() == []
