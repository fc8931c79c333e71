"""A room's seat drawn by the tables a one-screen game uses (widgets/together/lobby.py over
widgets/together/seat.py): two students' pages (PlayTogether, each with its own store
connection, no server) play a whole Hit Me round and the next round's deal, and a whole
Flapjack game, only by pressing the tables' own widgets (HitMeTable, FlapjackTable); on the
SQLite store and PostgreSQL (tests/pg_cluster.py).

Each page is a HitMeTable or FlapjackTable over its seat; before the cards are shown, no widget
of a page (every value, label and tooltip it holds) names a card another seat holds hidden, and
a positive control finds the page's own cards there. A refusal (a page a move behind, a card
that cannot be played) is shown on the table in the page's language: Spanish here.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from typing import Any

import ipywidgets as widgets
import pytest
from helpers import flapjack_config

from engine.flapjack import FlapjackState
from engine.hit_me import Hit, HitMeConfig, HitMeGame
from rooms import RoomError, RoomStore, open_store
from widgets import words
from widgets.flapjack.table import FlapjackTable
from widgets.hit_me.table import HitMeTable
from widgets.together.lobby import PlayTogether
from widgets.together.seat import FlapjackSeat, HitMeSeat
from widgets.words import card_name


def no_timer(delay: float, fn: Any) -> None:
    """The tests poll by hand."""


@pytest.fixture
def spanish() -> Iterator[None]:
    words.set_language("es")
    yield
    words.set_language("en")


def page_text(w: Any) -> str:
    """Everything a page's widgets hold (values, labels, tooltips, placeholders), as text."""
    parts = []
    for name in ("value", "description", "tooltip", "placeholder"):
        v = getattr(w, name, None)
        if isinstance(v, str):
            parts.append(html.unescape(v))
    for child in getattr(w, "children", ()):
        parts.append(page_text(child))
    return "\n".join(parts)


def assert_shows_none_of(page: PlayTogether, cards: list[Any], when: str) -> None:
    text = page_text(page)
    for card in cards:
        assert card_name(card) not in text, f"{when}: {page.session.name} sees {card_name(card)}"


def message(table: Any) -> str:
    return re.sub(r"<[^>]+>", "", html.unescape(table.message.value))


def two_pages(url: str, state: Any) -> tuple[RoomStore, str, list[PlayTogether]]:
    """A room of two seats; Ana and Ben join on their own pages (the lobby's widgets): full,
    it starts by itself."""
    store = open_store(url)
    host = store.create_room(state)
    pages = []
    for name in ("Ana", "Ben"):
        page = PlayTogether(store=open_store(url), schedule=no_timer, bot_delay=0)
        page.join_code.value, page.join_name.value = host.code.lower(), name
        page.join_button.click()
        assert page.session is not None, page.message.value
        pages.append(page)
    pump(pages)
    assert store.room(host.code).status == "playing"
    return store, host.code, pages


def pump(pages: list[PlayTogether]) -> None:
    for page in pages:
        assert page.session is not None
        page.session.poll()


def shown(w: Any) -> bool:
    """The widget is on the page: neither it nor a box it is in is hidden."""
    return w.layout.display != "none"


# ----- Hit Me ----------------------------------------------------------------------------------
def play_hit_me_round(store: RoomStore, code: str, pages: list[PlayTogether]) -> None:
    """Every student hits once then holds (after a peek), then answers the check (Ben once
    wrong first), all by the table's buttons and boxes; the last answer turns the cards up."""
    for _ in range(60):
        pump(pages)
        _v, game = store.load(code)
        r = game.round
        if r.phase != "play":
            break
        for page in pages:
            s, t = page.session, page.table
            others = [r.face_down[p] for p in range(r.players) if p != s.seat]
            assert_shows_none_of(page, others, f"move {len(r.events)}")
            if not t.hit_button.disabled:
                assert s.turn() == s.seat and shown(t.hit_button)
                if not s.peeked:
                    t.peek_button.click()
                    assert card_name(r.face_down[s.seat]) in page_text(page)  # positive control
                    t.hint.button.click()  # the hint, on one's own turn: after "Show my sum"
                    assert "Show my sum" in page_text(t.hint)
                me = s.observation()["seats"][s.seat]
                (t.hit_button if me["hits"] < 1 else t.hold_button).click()
                break
    assert all(p.session.phase.value == "announce" for p in pages)
    # the check, each on their own page; the cards stay down until both answered
    for page in pages:
        s, t = page.session, page.table
        _v, game = store.load(code)
        r = game.round
        assert_shows_none_of(page, [r.face_down[p] for p in range(2) if p != s.seat],
                             f"{s.name}'s check")
        assert shown(t.announce_box) and not shown(t.announce_done_button)
        total = sum(r.observation(s.seat)["seats"][s.seat]["values"])
        if s.name == "Ben":
            t.announce.boxes["sum"].value = str(total + 1)
            t.announce.boxes["abs"].value = str(abs(total + 1))
            t.announce.check_button.click()
            assert t.announce.feedback_html.value and s.my_check is None
        t.announce.boxes["sum"].value = str(total)
        t.announce.boxes["abs"].value = str(abs(total))
        t.announce.check_button.click()
        assert s.my_check == "right"
    pump(pages)
    _v, game = store.load(code)
    r = game.round
    assert r.revealed
    for page in pages:
        t = page.table
        assert "every card is face up" in t.status_html.value
        assert t.result_html.value and shown(t.next_round_button)
        text = page_text(page)
        for p in range(2):  # after the reveal every card shows on every page
            assert card_name(r.face_down[p]) in text


def test_two_pages_play_hit_me_through_the_table(rooms_url: str) -> None:
    store, code, pages = two_pages(rooms_url, HitMeGame(HitMeConfig(players=2), seed=12))
    for page in pages:
        assert isinstance(page.table, HitMeTable) and isinstance(page.session, HitMeSeat)
        # the room deals: no "New deal", no settings on a seat's table
        assert page.table.new_deal_button is None and page.table.settings_toggle is None
        assert "New deal" not in page_text(page) and "Settings" not in page_text(page)
    play_hit_me_round(store, code, pages)
    checks = {c["name"]: c for c in store.checks(code)}
    assert checks["Ana"]["first_try"] and not checks["Ben"]["first_try"]
    assert checks["Ben"]["mistake"] == "sum" and checks["Ben"]["misses"] == 1
    # the next round: one page's click deals it, and the other page follows by itself
    pages[1].table.next_round_button.click()
    pump(pages)
    for page in pages:
        assert page.session.round_number == 2 and page.session.phase.value == "play"
        assert not page.table.result_html.value and not shown(page.table.announce_box)
        assert page.table.announce.feedback_html.value == ""  # the check starts afresh
    play_hit_me_round(store, code, pages)
    assert len(store.checks(code)) == 4


def test_a_page_a_move_behind_is_refused_in_spanish_on_its_table(rooms_url: str,
                                                                 spanish: None) -> None:
    store, code, pages = two_pages(rooms_url, HitMeGame(HitMeConfig(players=2), seed=5))
    mover = next(p for p in pages if p.session.my_turn())
    twin = PlayTogether(query=dict(re.findall(r"(\w+)=([^&]+)", mover.seat_link()[1:])),
                        store=open_store(rooms_url), schedule=no_timer, bot_delay=0)
    assert twin.session is not None and twin.session.seat == mover.session.seat
    before = store.current_version(code)
    mover.table.hit_button.click()
    assert store.current_version(code) == before + 1
    # the twin page still shows the seat's turn: its click is refused by the store
    assert not twin.table.hit_button.disabled
    twin.table.hit_button.click()
    assert store.current_version(code) == before + 1  # nothing moved
    said = message(twin.table)
    s = twin.session
    with pytest.raises(RoomError) as refusal:  # the same click, to the store itself
        store.play(code, s.seat, s.secret, Hit(), expected_version=s.version - 1)
    assert said == words.room_error_text(refusal.value)
    with words.speaking("en"):
        assert said != words.room_error_text(refusal.value)  # Spanish, not English
    assert s.note is not None and s.note[0] == said
    assert twin.message.value == ""  # the room's own line: no game refusal there


def test_a_seat_a_computer_player_has_shows_no_move_until_taken_back(rooms_url: str) -> None:
    store = open_store(rooms_url)
    host = store.create_room(HitMeGame(HitMeConfig(players=2), seed=8), fill_bot={"bot": "easy"})
    pages = []
    for name in ("Ana", "Ben"):
        page = PlayTogether(store=open_store(rooms_url), schedule=no_timer, bot_delay=0)
        page.join_code.value, page.join_name.value = host.code, name
        page.join_button.click()
        pages.append(page)
    pump(pages)
    mover = next(p for p in pages if p.session.my_turn())
    assert not mover.table.hit_button.disabled and not shown(mover.back_seat_button)
    store.replace_seat(host.code, host.secret, mover.session.seat)  # the host gives it away
    mover.session.poll()
    assert mover.session.away and shown(mover.back_seat_button)
    assert mover.table.hit_button.disabled and mover.table.hold_button.disabled
    before = store.current_version(host.code)
    mover.table.hit_button.click()  # a forged click on the switched-off button: nothing
    assert mover.session.hit() is False  # and the session refuses it too, on the table
    assert "Take my seat back" in message(mover.table)
    assert store.current_version(host.code) == before
    mover.back_seat_button.click()
    assert not mover.session.away and "Welcome back" in mover.message.value
    assert not mover.table.hit_button.disabled


# ----- Flapjack --------------------------------------------------------------------------------
def test_two_pages_play_flapjack_through_the_table(rooms_url: str, spanish: None) -> None:
    store, code, pages = two_pages(
        rooms_url, FlapjackState.deal(flapjack_config(2, "add-or-subtract"), rng=31))
    for page in pages:
        assert isinstance(page.table, FlapjackTable) and isinstance(page.session, FlapjackSeat)
        assert page.table.new_deal_button is None and page.table.settings_toggle is None
        assert "icg-room-hand" in page.table.hand.box._dom_classes
    refused = False
    for _ in range(200):
        pump(pages)
        if store.room(code).status == "finished":
            break
        _v, state = store.load(code)
        for page in pages:
            s, t = page.session, page.table
            hidden = [c for p, hand in enumerate(state.hands) if p != s.seat for c in hand]
            assert_shows_none_of(page, hidden + list(state.draw_pile), f"{len(state.events)}")
            assert all(card_name(c) in page_text(page) for c in state.hands[s.seat])
            buttons = t.hand.buttons[:len(t.hand.keys)]
            if state.current != s.seat:
                assert all(b.disabled for b in buttons)
                if not refused and buttons:  # a forged click: refused in Spanish, no move
                    before = store.current_version(code)
                    buttons[0].click()
                    card = next(c for c in state.hands[s.seat] if c.key == t.hand.keys[0])
                    assert message(t) == words._("You cannot play {card} now: {reason}.").format(
                        card=card.short, reason=words._("not your turn"))
                    assert store.current_version(code) == before
                    refused = True
                continue
            playable = [b for b in buttons if not b.disabled]
            assert playable, "a playable card (or the game would pass)"
            playable[0].click()
            assert shown(t.sign_box)  # add or subtract: the table asks which
            sign = next(b for b in (t.add_button, t.subtract_button) if not b.disabled)
            before = store.current_version(code)
            sign.click()
            assert store.current_version(code) == before + 1, message(t)
            break
    pump(pages)
    assert refused
    assert store.room(code).status == "finished"
    _v, state = store.load(code)
    plays = sum(1 for e in state.events if e.kind.value == "play")
    assert plays == store.move_count(code)
    for page in pages:
        v = page.session.view()
        assert v.is_over and v.obs["reveal"]
        assert page.table.move_log.text().count("\n") >= plays - 1
        assert words._("The game is over.") in page.room_status.value


def test_a_seat_holds_no_other_seats_view(rooms_url: str) -> None:
    """The table of a seat is drawn from that seat's observation only: its widgets are those
    of a one-screen table, and a page's own hand is the only hand in it."""
    store, code, pages = two_pages(
        rooms_url, FlapjackState.deal(flapjack_config(2, "classic"), rng=9))
    _v, state = store.load(code)
    for page in pages:
        s = page.session
        obs = page.table.observation()
        assert obs == state.observation(s.seat)
        assert obs["seats"][1 - s.seat]["hand"] is None
        assert isinstance(page.table, widgets.VBox)
