"""Seats at a shared room (widgets/together/seat.py, widgets/together/lobby.py): several students'
sessions in one process on one store, SQLite and PostgreSQL (tests/pg_cluster.py; the
PostgreSQL half skips locally without it and fails under CI=true).

Whole Hit Me rounds and Flapjack games played by clicks on seat sessions; no seat's view ever
holds another seat's hidden card before the reveal; reload and PIN rejoin; a student replaced by
a computer player and back; every student clicking at the same moment, many times."""

from __future__ import annotations

import threading
import time
from typing import Any
from urllib.parse import parse_qsl

import pytest
from helpers import flapjack_config

from engine.flapjack import FlapjackState
from engine.hit_me import HitMeConfig, HitMeGame, HitMeRound
from rooms import NotAllowed, RoomStore, SeatTicket, open_store
from widgets.together.seat import SeatSession
from widgets.words import card_name

BOT = {"bot": "medium"}


class Clock:
    """A clock the test moves (bot pacing and presence read it)."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def no_timer(delay: float, fn: Any) -> None:
    """The tests poll by hand."""


def seats(url: str, state: Any, names: list[str], *, bots: bool = True,
          clock: Clock | None = None, **kw: Any) -> tuple[RoomStore, Any, list[SeatSession]]:
    """A room with `state`, one session (with its own store connection) per name; the first is
    the host. Empty seats go to computer players when `bots`."""
    store = open_store(url)
    host = store.create_room(state, fill_bot=BOT if bots else None)
    clock = clock or Clock()
    out = []
    for i, name in enumerate(names):
        ticket = store.join(host.code, name)
        out.append(SeatSession(open_store(url), ticket, host_secret=host.secret if i == 0
                               else None, bot_delay=0, schedule=no_timer, clock=clock, **kw))
    if store.room(host.code).status == "waiting":
        out[0].start()
    pump(out, clock)
    return store, host, out


def pump(sessions: list[SeatSession], clock: Clock, times: int = 1) -> None:
    for _ in range(times):
        clock.t += 10
        for s in sessions:
            s.poll()


def hidden_of_others(s: SeatSession) -> list[Any]:
    """Every card another seat holds face down (Hit Me) or in hand (Flapjack), for the checks."""
    st = s.state
    if isinstance(st, HitMeGame):
        r: HitMeRound = st.round
        return [r.face_down[p] for p in range(r.players) if p != s.seat and not r.revealed]
    if st.is_over:
        return []
    return [c for p, hand in enumerate(st.hands) if p != s.seat for c in hand]


def assert_no_leak(s: SeatSession) -> None:
    """Nothing of this seat's view (every HTML piece and the observation) names a card another
    seat holds hidden (one deck: every card is unique)."""
    text = repr(s.view())
    for card in hidden_of_others(s):
        for mark in (card_name(card), card.short, f"'{card.key}'"):
            assert mark not in text, f"seat {s.seat} sees {mark}"


def hit_me_round(sessions: list[SeatSession], clock: Clock, wrong_first: bool = True) -> None:
    """Play one round by clicks: hit once, then hold; announce (once wrong, then right)."""
    for _ in range(200):
        pump(sessions, clock)
        for s in sessions:
            assert_no_leak(s)
            if s.my_turn():
                me = s.state.round.observation(s.seat)["seats"][s.seat]
                assert (s.hit() if me["hits"] < 1 else s.hold())
            values = s.announce_values()
            if values is not None and s.my_check is None:
                total = sum(values)
                if wrong_first:
                    assert s.check_announce({"sum": total + 1, "abs": abs(total + 1)}) is False
                assert s.check_announce({"sum": total, "abs": abs(total)}) is True
        if sessions[0].state.round.revealed:
            pump(sessions, clock)
            return
    raise AssertionError("the round did not end")


# ----- Hit Me ----------------------------------------------------------------------------------
def test_a_whole_hit_me_round_by_three_pages(rooms_url: str) -> None:
    clock = Clock()
    store, host, ss = seats(rooms_url, HitMeGame(HitMeConfig(players=4), seed=11),
                            ["Ana", "Ben", "Cy"], clock=clock)
    assert [s.seat for s in ss] == [0, 1, 2]
    assert store.room(host.code).seats[3].controller == "computer"
    hit_me_round(ss, clock)
    moves = store.moves(host.code)
    assert [m[2] for m in moves].count({"kind": "reveal"}) == 1
    assert any(seat == 3 for _, seat, _ in moves), "the computer seat moved"
    versions = [v for v, _, _ in moves]
    assert versions == sorted(set(versions))
    for s in ss:  # every page shows the same, revealed round
        v = s.view()
        assert v.round_over and v.result_html
        assert s.version == store.current_version(host.code)
    checks = store.checks(host.code)
    assert sorted(c["seat"] for c in checks) == [0, 1, 2]
    assert all(c["round"] == 0 and not c["first_try"] and c["misses"] == 1
               and c["mistake"] == "sum" for c in checks)
    # the next round: the first click deals it, the second page's click finds it dealt
    assert ss[1].next_round() is True
    assert ss[2].next_round() is False
    pump(ss, clock)
    assert all(s.check_round == 1 and s.my_check is None for s in ss)
    hit_me_round(ss, clock, wrong_first=False)
    assert [c["first_try"] for c in store.checks(host.code) if c["round"] == 1] == [True] * 3


def test_own_hidden_card_only_after_a_peek(rooms_url: str) -> None:
    clock = Clock()
    store, host, ss = seats(rooms_url, HitMeGame(HitMeConfig(players=3), seed=3),
                            ["Ana", "Ben", "Cy"], clock=clock)
    mine = ss[1].state.round.face_down[1]
    assert card_name(mine) not in ss[1].view().seats_html
    ss[1].toggle_peek()
    assert card_name(mine) in ss[1].view().seats_html
    for s in (ss[0], ss[2]):
        assert_no_leak(s)


def test_refusals_are_messages_and_change_nothing(rooms_url: str) -> None:
    clock = Clock()
    store, host, ss = seats(rooms_url, HitMeGame(HitMeConfig(players=3), seed=9),
                            ["Ana", "Ben", "Cy"], clock=clock)
    turn = ss[0].turn()
    other = next(s for s in ss if s.seat != turn)
    before = store.current_version(host.code)
    assert other.hit() is False and other.note == ("It is not your turn.", "error")
    assert store.current_version(host.code) == before
    mover = ss[turn]
    assert mover.hit() is True
    # an ace key that is not one: a message, nothing moved
    v = store.current_version(host.code)
    assert mover.choose_ace("ZZ", True) is False
    assert store.current_version(host.code) == v
    # a forged ace (a card view that is not one of the seat's aces): a message, nothing moved
    assert mover.choose_ace({"key": "KS"}, True) is False
    assert store.current_version(host.code) == v


def test_table_changed_when_the_page_is_stale(rooms_url: str) -> None:
    clock = Clock()
    store, host, ss = seats(rooms_url, FlapjackState.deal(flapjack_config(2, "classic"), rng=4),
                            ["Ana", "Ben"], bots=False, clock=clock)
    turn = ss[0].turn()
    mover = ss[turn]
    twin = SeatSession(open_store(rooms_url), SeatTicket(host.code, mover.seat, mover.name,
                                                         mover.secret), schedule=no_timer)
    card = next(c for c in mover.state.hands[mover.seat]
                if mover.state.why_illegal(mover.seat, c, 1) is None)
    assert mover.click_card(card.key) is None  # no refusal: played
    n = store.move_count(host.code)
    # the twin page still shows the old version: its click is refused, nothing doubled
    other = next(c for c in twin.state.hands[twin.seat] if c.key != card.key
                 and twin.state.why_illegal(twin.seat, c, 1) is None)
    refusal = twin.click_card(other.key)
    assert refusal is not None and refusal == twin.note
    assert "changed" in twin.note[0] or "turn" in twin.note[0]
    assert store.move_count(host.code) == n


# ----- Flapjack --------------------------------------------------------------------------------
def test_a_whole_flapjack_game_by_three_pages(rooms_url: str) -> None:
    clock = Clock()
    store, host, ss = seats(rooms_url, FlapjackState.deal(flapjack_config(4, "add-or-subtract"),
                                                          rng=21),
                            ["Ana", "Ben", "Cy"], clock=clock)
    for _ in range(400):
        pump(ss, clock)
        if ss[0].status == "finished":
            break
        for s in ss:
            assert_no_leak(s)
            if not s.my_turn():
                continue
            for c in s.state.hands[s.seat]:
                signs = [sg for sg in (1, -1) if s.state.why_illegal(s.seat, c, sg) is None]
                if signs:
                    assert s.click_card(c.key) is None and s.selected == c.key
                    assert s.view().signs is not None
                    assert s.choose_sign(signs[-1]) is None
                    break
    pump(ss, clock)
    assert all(s.status == "finished" for s in ss)
    plays = sum(1 for e in ss[0].state.events if e.kind.value == "play")
    assert plays == store.move_count(host.code)
    for s in ss:  # at the end every hand is shown, and the same on every page
        assert s.view().is_over and s.view().obs["reveal"]


def test_a_card_from_another_hand_is_refused(rooms_url: str) -> None:
    clock = Clock()
    store, host, ss = seats(rooms_url, FlapjackState.deal(flapjack_config(3, "classic"), rng=8),
                            ["Ana", "Ben", "Cy"], clock=clock)
    turn = ss[0].turn()
    mover = ss[turn]
    theirs = ss[(turn + 1) % 3].state.hands[(turn + 1) % 3][0]
    v = store.current_version(host.code)
    assert mover.click_card(theirs.key) == ("That card is not in your hand.", "error")
    assert mover.note == ("That card is not in your hand.", "error")
    assert mover.click_card(12345) is not None  # type: ignore[arg-type] - a forged value
    assert store.current_version(host.code) == v


# ----- coming back -----------------------------------------------------------------------------
def test_reload_with_the_seat_link_and_with_the_pin(rooms_url: str) -> None:
    from widgets.together.lobby import PlayTogether

    clock = Clock()
    store, host, ss = seats(rooms_url, HitMeGame(HitMeConfig(players=3), seed=2),
                            ["Ana", "Ben", "Cy"], clock=clock)
    page = PlayTogether(store=open_store(rooms_url), schedule=no_timer)
    page.join_code.value, page.join_name.value = host.code, "Di"
    page.join()
    assert page.session is None and "started" in page.message.value
    # Ben's page, built from the link Ben's page shows
    ben = PlayTogether(query={"room": host.code, "seat": "1", "key": ss[1].secret},
                       store=open_store(rooms_url), schedule=no_timer)
    assert ben.session is not None and ben.session.seat == 1 and ben.session.name == "Ben"
    q = dict(parse_qsl(ben.seat_link()[1:]))
    assert q == {"room": host.code, "seat": "1", "key": ss[1].secret}
    assert ben.pin.isdigit() and len(ben.pin) == 6 and ben.pin in ben.seat_html.value
    # a forged link: another seat with Ben's key, or a made-up key
    for bad in ({"room": host.code, "seat": "2", "key": ss[1].secret},
                {"room": host.code, "seat": "1", "key": "x" * 22}):
        p = PlayTogether(query=bad, store=open_store(rooms_url), schedule=no_timer)
        assert p.session is None and "not valid" in p.message.value
    # the PIN on a new page: wrong three times, then the seat's PIN waits (for every kernel)
    for _ in range(3):
        with pytest.raises(NotAllowed, match="wrong-pin"):
            store.rejoin_pin(host.code, "Ben", "000000" if ben.pin != "000000" else "111111")
    with pytest.raises(NotAllowed, match="wait"):
        store.rejoin_pin(host.code, "ben", ben.pin)
    ticket = store.rejoin_pin(host.code, " BEN ", ben.pin, now=time.time() + 3)
    assert ticket.seat == 1 and ticket.secret != ss[1].secret
    # the old link no longer holds the seat
    ss[1]._touched_at = -1e9
    ss[1].poll()
    assert ss[1]._stopped and "PIN" in ss[1].room_note[0]
    with pytest.raises(NotAllowed):
        store.rejoin(host.code, 1, ss[1].secret)


def test_a_seat_pin_stays_the_same_until_the_student_asks_for_a_new_one(rooms_url: str) -> None:
    """The PIN written down on the seat's first page still holds after the page reopens (seat
    link) and on another device (another session); "New seat PIN" gives a fresh one and the
    old one is refused from then on."""
    from widgets.together.lobby import PlayTogether

    store = open_store(rooms_url)
    host = store.create_room(HitMeGame(HitMeConfig(players=3), seed=2), fill_bot=BOT)
    first = PlayTogether(store=open_store(rooms_url), schedule=no_timer)
    first.join_code.value, first.join_name.value = host.code, "Ana"
    first.join()
    assert first.session is not None
    seat, pin = first.session.seat, first.pin
    assert pin.isdigit() and len(pin) == 6 and pin in first.seat_html.value
    # the page reopens with its seat link: the same seat, no new PIN
    link = dict(parse_qsl(first.seat_link()[1:]))
    again = PlayTogether(query=link, store=open_store(rooms_url), schedule=no_timer)
    assert again.session is not None and again.session.seat == seat
    assert again.pin == "" and "wrote down" in again.seat_html.value
    # the written-down PIN on another device, twice
    for _ in range(2):
        other = PlayTogether(store=open_store(rooms_url), schedule=no_timer)
        other.join_code.value, other.join_name.value = host.code, "Ana"
        other.join_pin.value = pin
        other.come_back()
        assert other.session is not None and other.session.seat == seat, other.message.value
        assert other.pin == ""
    # a new PIN, on demand: shown, and the old one no longer holds the seat
    other.new_pin_button.click()
    fresh = other.pin
    assert fresh.isdigit() and len(fresh) == 6 and fresh in other.seat_html.value
    if fresh != pin:  # (one chance in a million that they are the same)
        with pytest.raises(NotAllowed, match="wrong-pin"):
            store.rejoin_pin(host.code, "Ana", pin)
    assert store.rejoin_pin(host.code, "Ana", fresh).seat == seat


def test_pin_and_checks_need_the_seats_own_secret(rooms_url: str) -> None:
    clock = Clock()
    store, host, ss = seats(rooms_url, HitMeGame(HitMeConfig(players=3), seed=2),
                            ["Ana", "Ben", "Cy"], clock=clock)
    with pytest.raises(NotAllowed):
        store.new_pin(host.code, 1, ss[0].secret)
    with pytest.raises(NotAllowed):
        store.record_check(host.code, 1, ss[0].secret, 0, True, 0, None)
    with pytest.raises(NotAllowed):
        store.record_check(host.code, 1, host.secret, 0, True, 0, None)
    store.record_check(host.code, 1, ss[1].secret, 0, False, 2, "abs")
    store.record_check(host.code, 1, ss[1].secret, 0, True, 0, None)  # once per round
    assert [(c["name"], c["first_try"], c["misses"], c["mistake"])
            for c in store.checks(host.code)] == [("Ben", False, 2, "abs")]
    assert store.checks()[0]["code"] == host.code


def test_an_absent_student_is_replaced_and_takes_the_seat_back(rooms_url: str) -> None:
    clock = Clock()
    store, host, ss = seats(rooms_url, FlapjackState.deal(flapjack_config(3, "classic"), rng=5),
                            ["Ana", "Ben", "Cy"], bots=True, clock=clock,
                            absent_after=0.5, presence_every=0.0)
    cy = ss[2]
    present = ss[:2]
    time.sleep(1.0)  # Cy's page stops polling (lid closed); the others keep touching
    pump(present, clock)
    assert store.room(host.code).seats[2].controller == "computer"
    for s in present:
        assert s.names[2] == "Cy (computer)"
    n = store.move_count(host.code)
    for _ in range(30):  # play on: Cy's seat is moved by the computer player
        pump(present, clock)
        for s in present:
            if s.my_turn():
                c = next(c for c in s.state.hands[s.seat]
                         if s.state.why_illegal(s.seat, c, 1) is None)
                s.click_card(c.key)
    assert any(seat == 2 for _, seat, _ in store.moves(host.code)[n:])
    # Cy is back: the page sees it, refuses moves, and gives the seat back on the click
    pump([cy], clock)
    assert cy.away and "computer player has your seat" in cy.room_status()
    assert cy._play(None) is False
    cy.take_back()
    assert not cy.away and store.room(host.code).seats[2].controller == "human"


def test_the_host_starts_and_only_the_host(rooms_url: str) -> None:
    store = open_store(rooms_url)
    host = store.create_room(HitMeGame(HitMeConfig(players=4), seed=1), fill_bot=BOT)
    a = SeatSession(open_store(rooms_url), store.join(host.code, "Ana"),
                    host_secret=host.secret, schedule=no_timer)
    b = SeatSession(open_store(rooms_url), store.join(host.code, "Ben"), schedule=no_timer)
    b.start()
    assert b.status == "waiting" and "opened" in b.room_note[0]
    assert a.hit() is False and "not started" in a.note[0]
    a.start()
    b.poll()
    assert a.status == b.status == "playing"


# ----- everyone clicks at once --------------------------------------------------------------------
@pytest.mark.parametrize("game", ["hit-me", "flapjack"])
def test_every_student_clicks_at_the_same_moment(rooms_url: str, game: str) -> None:
    """Four pages (seat 0 open twice) click at the same moment, 25 times: the moves in the store
    are exactly the clicks that were told they moved, none lost, none doubled, and every page
    shows them all."""
    clock = Clock()
    if game == "hit-me":
        state: Any = HitMeGame(HitMeConfig(players=3, turn_order="all-at-once"), seed=4)
    else:
        state = FlapjackState.deal(flapjack_config(3, "classic"), rng=6)
    store, host, ss = seats(rooms_url, state, ["Ana", "Ben", "Cy"], bots=False, clock=clock)
    twin = SeatSession(open_store(rooms_url), SeatTicket(host.code, 0, "Ana", ss[0].secret),
                       schedule=no_timer, bot_delay=0, clock=clock)
    pages = [*ss, twin]
    made = [0] * len(pages)
    barrier = threading.Barrier(len(pages))

    def click(i: int) -> None:
        s = pages[i]
        for _ in range(25):
            s.poll()
            barrier.wait()
            if isinstance(s.state, HitMeGame):
                r = s.state.round
                if r.phase == "play":
                    made[i] += s.hit() if r.observation(s.seat)["seats"][s.seat]["hits"] < 2 \
                        else s.hold()
                elif r.phase == "revealed":
                    made[i] += s.next_round()
                else:  # the announce step: a right answer from everyone
                    vals = s.announce_values()
                    if vals is not None and s.my_check is None:
                        s.check_announce({"sum": sum(vals), "abs": abs(sum(vals))})
            else:
                hand = s.state.hands[s.seat]
                playable = [c for c in hand if s.state.why_illegal(s.seat, c, 1) is None]
                card = playable[0] if playable else (hand[0] if hand else None)
                if card is not None:
                    made[i] += s.click_card(card.key) is None
            barrier.wait()

    threads = [threading.Thread(target=click, args=(i,)) for i in range(len(pages))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    moves = store.moves(host.code)
    reveals = sum(1 for _, _, a in moves if a == {"kind": "reveal"})
    assert sum(made) + reveals == len(moves) > 10
    versions = [v for v, _, _ in moves]
    assert len(set(versions)) == len(versions)
    pump(pages, clock)
    for s in pages:
        assert s.version == store.current_version(host.code)
        if game == "flapjack":
            shown = sum(1 for e in s.view().obs["events"] if e["kind"] == "play")
            assert shown == len(moves)
        assert_no_leak(s)


# ----- a redraw that raises ----------------------------------------------------------------------
def test_a_redraw_that_raises_shows_a_message_and_the_next_poll_draws_again(
        rooms_url: str) -> None:
    """A fault in drawing (here the Flapjack table's redraw fails twice) never stops the page:
    the message line says so, the move is kept, and the next poll draws the table."""
    import html
    import re

    from widgets.together.lobby import PlayTogether

    def shown(page: PlayTogether) -> str:
        return html.unescape(re.sub(r"<[^>]+>", "", page.message.value))

    clock = Clock()
    store, host, ss = seats(rooms_url, FlapjackState.deal(flapjack_config(2, "classic"), rng=4),
                            ["Ana", "Ben"], bots=False, clock=clock)
    ben = PlayTogether(query={"room": host.code, "seat": "1", "key": ss[1].secret},
                       store=open_store(rooms_url), schedule=no_timer)
    s = ben.session
    assert s is not None and shown(ben) == ""
    real, fails = ben.table.refresh, [2]

    def flaky() -> None:
        if fails[0] > 0:
            fails[0] -= 1
            raise RuntimeError("a broken redraw")
        real()

    ben.table.refresh = flaky  # type: ignore[method-assign]
    mover = ss[ss[0].turn()]
    card = next(c for c in mover.state.hands[mover.seat]
                if mover.state.why_illegal(mover.seat, c, 1) is None)
    log_before = ben.table.move_log.text()
    assert mover.click_card(card.key) is None
    version = store.current_version(host.code)
    s.poll()  # the change is loaded; drawing it raises: a message, not an exception
    assert s.redraw_failed and s.version == version
    assert "could not be redrawn (RuntimeError)" in shown(ben)
    assert "tries again" in shown(ben)
    s.poll()  # fails again, still the message
    assert s.redraw_failed and "could not be redrawn" in shown(ben)
    s.poll()  # the same version: drawn this time, the message gone
    assert not s.redraw_failed and s.room_note is None and shown(ben) == ""
    assert ben.table.move_log.text() != log_before
    assert store.move_count(host.code) == 1  # nothing lost, nothing doubled


def test_a_seat_and_a_session_satisfy_one_protocol(rooms_url: str) -> None:
    """widgets.hit_me.view.table_view reads a HitMeLook: a one-screen HitMeSession and a room's
    seat both provide every part of it (a missing part fails here, not on a page)."""
    from widgets.hit_me.session import HitMeSession
    from widgets.hit_me.view import HitMeLook, table_view
    from widgets.together.seat import HitMeSeat

    _store, _host, ss = seats(rooms_url, HitMeGame(HitMeConfig(players=3), seed=5), ["Ana"])
    assert isinstance(ss[0], HitMeSeat)
    assert isinstance(ss[0], HitMeLook) and table_view(ss[0]).viewer == 0
    s = HitMeSession(bot_delay=0)
    s.new_game(players=3, opponents="easy", seed=5, mode="solo", colors="black-positive",
               turn_order="round-robin", ace_eleven=False, students=None)
    assert isinstance(s, HitMeLook)
    assert not isinstance(HitMeSession(bot_delay=0), HitMeLook)  # no game yet: not a look
