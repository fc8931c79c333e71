"""One table contract, alone and together: each game's contract (widgets/<game>/contract.py, a
Protocol of what the table reads and the clicks it sends) is met by the one-screen session and
by a room's seat, and the same clicks on a one-screen Flapjack session and on a room's seat give
the same view, move by move.

The local session plays seat 1 with a computer player; the room's seat 1 is a second page that
makes the very move that computer player made. Seat 0 clicks the same script on both (its first
playable card, then the sign asked for, if any). After every move the two views of seat 0 are
compared on everything the game decides: the observation, the hand's card choices (enabled,
labels, reasons), the sign prompt, the banner's events, the hint button and the end."""

from __future__ import annotations

from typing import Any

from engine.games import make_game
from engine.hit_me import HitMeConfig, HitMeGame
from rooms import open_store
from widgets.flapjack.contract import FlapjackTableSession
from widgets.flapjack.session import FlapjackSession
from widgets.flapjack.view import table_view
from widgets.hit_me.contract import HitMeTableSession
from widgets.hit_me.session import HitMeSession
from widgets.together.seat import SeatSession


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def no_timer(delay: float, fn: Any) -> None:
    """Both sides are driven by hand."""


def members(protocol: type) -> list[str]:
    """A Protocol's members: its annotated attributes, properties and methods."""
    names = set(getattr(protocol, "__annotations__", {}))
    names |= {n for n, v in vars(protocol).items() if not n.startswith("_")
              and (callable(v) or isinstance(v, property))}
    return sorted(names)


def room_pages(url: str, state: Any, names: list[str], clock: Clock) -> list[SeatSession]:
    """A started room holding `state`, one page per name (the first is the host)."""
    store = open_store(url)
    host = store.create_room(state)
    pages = []
    for i, name in enumerate(names):
        ticket = store.join(host.code, name)
        pages.append(SeatSession(open_store(url), ticket,
                                 host_secret=host.secret if i == 0 else None, bot_delay=0,
                                 schedule=no_timer, clock=clock))
    pages[0].start()
    return pages


def test_the_local_session_and_the_room_seat_meet_the_table_contract(rooms_url: str) -> None:
    """Every member of each game's contract is there on both (the tables read nothing else
    of a session than its contract and the view it makes)."""
    clock = Clock()
    fj = FlapjackSession(players=2, bot_delay=0, schedule=no_timer)
    fj.new_game(fj.first_code)
    hm = HitMeSession(bot_delay=0, schedule=no_timer)
    hm.new_game(players=2, opponents="medium", seed=7, mode="solo", colors="black-positive",
                turn_order="round-robin", ace_eleven=False, students=None)
    fj_seat = room_pages(rooms_url, make_game("flapjack", players=2).new_state(rng=1),
                         ["Ana", "Ben"], clock)[0]
    hm_seat = room_pages(rooms_url, HitMeGame(HitMeConfig(players=2), seed=1),
                         ["Ana", "Ben"], clock)[0]
    for obj, protocol in ((fj, FlapjackTableSession), (fj_seat, FlapjackTableSession),
                          (hm, HitMeTableSession), (hm_seat, HitMeTableSession)):
        missing = [m for m in members(protocol) if not hasattr(obj, m)]
        assert not missing, f"{type(obj).__name__} lacks {missing} of {protocol.__name__}"
        assert isinstance(obj, protocol)
    assert len(members(FlapjackTableSession)) > 20 and len(members(HitMeTableSession)) > 30


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
    clock = Clock()
    pages = room_pages(rooms_url, start, ["Ana", "Ben"], clock)

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
