"""One table contract, alone and together: the same clicks on a one-screen Flapjack session and
on a room's seat give the same view, move by move.

The local session plays seat 1 with a computer player; the room's seat 1 is a second page that
makes the very move that computer player made. Seat 0 clicks the same script on both (its first
playable card, then the sign asked for, if any). After every move the two views of seat 0 are
compared on everything the game decides: the observation, the hand's card choices (enabled,
labels, reasons), the sign prompt, the banner's events, the hint button and the end."""

from __future__ import annotations

from typing import Any

from engine.games import make_game
from rooms import open_store
from widgets.flapjack.session import FlapjackSession
from widgets.flapjack.view import table_view
from widgets.together.seat import SeatSession


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def no_timer(delay: float, fn: Any) -> None:
    """Both sides are driven by hand."""


def game_part(view: Any) -> dict[str, Any]:
    """What the game decides in a Flapjack view (not names, messages or room controls)."""
    return {"obs": view.obs, "hand": view.hand, "signs": view.signs,
            "banner": view.banner_events, "hint": view.hint_enabled, "over": view.is_over,
            "targets": (view.header.targets, view.header.low, view.header.high)}


def click_first_playable(page: Any, view_of: Any) -> bool:
    """The script: the first card that may be played, then the sign asked for (the last
    offered)."""
    for card in view_of().hand:
        if card.reason is None:
            assert page.click_card(card.key) is None
            signs = view_of().signs
            if signs is not None:
                enabled = [b for b in signs.buttons if not b.disabled]
                assert page.choose_sign(enabled[-1].sign) is None
            return True
    return False


def plays(state: Any) -> list[Any]:
    return [e for e in state.events if e.kind.value == "play"]


def test_same_clicks_same_views_alone_and_in_a_room(rooms_url: str) -> None:
    local = FlapjackSession(players=2, opponents=["greedy"], variant="add-or-subtract",
                            seed=2024, bot_delay=0, schedule=no_timer)
    start = make_game("flapjack", local.config).new_state(rng=local.first_code)
    local.new_game(local.first_code)
    store = open_store(rooms_url)
    host = store.create_room(start)
    clock = Clock()
    pages = []
    for i, name in enumerate(["Ana", "Ben"]):
        ticket = store.join(host.code, name)
        pages.append(SeatSession(open_store(rooms_url), ticket,
                                 host_secret=host.secret if i == 0 else None, bot_delay=0,
                                 schedule=no_timer, clock=clock))
    pages[0].start()

    def pump() -> None:
        clock.t += 10
        for p in pages:
            p.poll()

    pump()
    moves = 0
    for _ in range(200):
        # seat 1: the room's page makes the move the local computer player made
        while len(plays(pages[0].state)) < len(plays(local.state)):
            e = plays(local.state)[len(plays(pages[0].state))]
            assert e.player == 1, "only seat 1's moves are copied"
            assert pages[1].click_card(e.card.key) is None
            if pages[1].view().signs is not None:
                assert pages[1].choose_sign(1 if e.delta > 0 else -1) is None
            pump()
        assert pages[0].state.to_json() == local.state.to_json()
        mine, theirs = table_view(local, 0), pages[0].view()
        assert game_part(theirs) == game_part(mine), f"after {moves} moves"
        if mine.is_over:
            break
        assert local.state.current == 0
        assert click_first_playable(local, lambda: table_view(local, 0))
        assert click_first_playable(pages[0], pages[0].view)
        moves += 1
        pump()
    assert local.state.is_over and moves > 3
