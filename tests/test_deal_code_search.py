"""A student cannot find the hidden cards by trying deal codes.

The engine is open source: a deal code (the seed) gives the whole deal. Hit Me used to deal from
codes 1000-99999 and Flapjack from 100000-999999, so a laptop tried them all against the cards
on the screen and found the one code: the computers' face-down cards, hands and the draw pile.

The attack here is the real one, bounded: every short code 0-99999 (the whole Hit Me range of
old and 100,000 Flapjack codes) is shuffled with the engine's own functions and compared with
what the student's page shows at the start of a deal (Hit Me: the student's own face-down card
after a peek and every face-up card; Flapjack: the student's 7 cards). For a deal nobody chose
(128 secret bits) it finds nothing; for a code typed into Settings (a short code, by choice) it
finds exactly that code: the positive control that the search works.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from widget_helpers import errors_raise, synced_text  # noqa: F401

from engine.cards import Card, make_deck, shuffled
from engine.flapjack import FlapjackState
from engine.hit_me import HitMeRound, Phase
from widgets import FlapjackTable, HitMeTable
from widgets.table.deal_codes import format_code, is_secret, parse_deal_code

SHORT_CODES = range(100_000)
TYPED_HIT_ME, TYPED_FLAPJACK = "31337", "4242"


def hit_me_positions(config: Any) -> dict[str, int]:
    """Where, in the shuffled deck, the first round deals each card (learnt from the engine):
    'down0' (seat 0's face-down card), 'up0', 'up1', ..."""
    deck = make_deck(config.decks)
    order = shuffled(deck, random.Random(1))
    rnd = HitMeRound.deal(config, random.Random(1), dealer=0)
    pos = {f"down{p}": order.index(rnd.face_down[p]) for p in range(config.players)}
    pos |= {f"up{p}": order.index(rnd.face_up[p][0]) for p in range(config.players)}
    return pos


def flapjack_positions(config: Any) -> list[int]:
    """Where, in the shuffled deck, seat 0's seven cards come from."""
    order = shuffled(make_deck(config.decks, config.ranks), random.Random(1))
    state = FlapjackState.deal(config, rng=random.Random(1))
    return sorted(order.index(c) for c in state.hands[0])


def hit_me_target(t: HitMeTable) -> tuple[dict[int, str], list[Card]]:
    """What the student's page shows at the start of the round, as {deck position: card}."""
    t.peek_button.click()
    obs = t.game.round.observation(0)  # the student's own view (what the page renders)
    pos = hit_me_positions(t.config)
    seen = {pos["down0"]: obs["seats"][0]["face_down"]["key"]}
    for seat in obs["seats"]:
        seen[pos[f"up{seat['seat']}"]] = seat["face_up"][0]["key"]
    return seen, make_deck(t.config.decks)


def flapjack_target(t: FlapjackTable) -> tuple[frozenset[str], list[int], list[Card]]:
    obs = t.state.observation(0)
    hand = frozenset(v["key"] for v in obs["seats"][0]["hand"])
    assert len(hand) == 7  # the student has not played yet: the hand as dealt
    return hand, flapjack_positions(t.config), make_deck(t.config.decks, t.config.ranks)


def search(hit_me: list[dict[int, str]], flapjack: list[tuple[frozenset[str], list[int]]],
           deck: list[Card]) -> tuple[list[list[int]], list[list[int]]]:
    """Every short code whose shuffle matches each target (one shuffle per code for all)."""
    keys = [c.key for c in deck]
    found_h: list[list[int]] = [[] for _ in hit_me]
    found_f: list[list[int]] = [[] for _ in flapjack]
    items_h = [sorted(t.items()) for t in hit_me]
    rng = random.Random()
    for code in SHORT_CODES:
        rng.seed(code)
        order = keys[:]
        rng.shuffle(order)
        for i, items in enumerate(items_h):
            if all(order[p] == k for p, k in items):
                found_h[i].append(code)
        for i, (hand, positions) in enumerate(flapjack):
            if order[positions[0]] in hand and {order[p] for p in positions} == hand:
                found_f[i].append(code)
    return found_h, found_f


@pytest.fixture(scope="module")
def searched() -> dict[str, Any]:
    # the deals nobody chose: a student's table as every lesson page makes it
    hit_me = HitMeTable(players=3, opponents="medium", bot_delay=0)
    flapjack = FlapjackTable(players=2, variant="classic", teacher_controls=False, bot_delay=0)
    # the positive controls: short codes typed into Settings
    hit_me_typed = HitMeTable(players=3, opponents="medium", bot_delay=0)
    hit_me_typed.settings_toggle.value = True
    hit_me_typed.settings.fields["seed"][0].value = TYPED_HIT_ME
    hit_me_typed.settings.apply_button.click()
    flapjack_typed = FlapjackTable(players=2, variant="classic", teacher_controls=False,
                                   bot_delay=0)
    flapjack_typed.settings_toggle.value = True
    flapjack_typed.code_field.value = TYPED_FLAPJACK
    flapjack_typed.settings.apply_button.click()
    assert hit_me_typed.deal_code == int(TYPED_HIT_ME)
    assert flapjack_typed.deal_code == int(TYPED_FLAPJACK)
    # nothing about the deal code on the page of an unseen deal in progress
    for t in (hit_me, flapjack):
        text = synced_text(t)
        assert format_code(t.deal_code) not in text and str(t.deal_code) not in text
    h1, deck = hit_me_target(hit_me)
    h2, deck2 = hit_me_target(hit_me_typed)
    f1, p1, deck3 = flapjack_target(flapjack)
    f2, p2, deck4 = flapjack_target(flapjack_typed)
    assert [c.key for c in deck] == [c.key for c in deck2] == [c.key for c in deck3] == \
        [c.key for c in deck4]  # one 52-card deck: one shuffle per code serves every target
    found_h, found_f = search([h1, h2], [(f1, p1), (f2, p2)], deck)
    return {"tables": (hit_me, flapjack), "typed": hit_me_typed, "hit_me": found_h,
            "flapjack": found_f}


def hidden_cards_predicted(t: HitMeTable, code: int) -> bool:
    """Would this code tell a student the computers' face-down cards? (What the search is for:
    four cards in fixed places also match about 1 short code in 65 by chance, which predicts
    nothing.)"""
    pos = hit_me_positions(t.config)
    order = [c.key for c in make_deck(t.config.decks)]
    random.Random(code).shuffle(order)
    rnd = t.game.round
    return all(order[pos[f"down{p}"]] == rnd.face_down[p].key for p in range(1, rnd.players))


def test_search_finds_no_code_for_an_unseen_deal(searched) -> None:
    hit_me = searched["tables"][0]
    assert [c for c in searched["hit_me"][0] if hidden_cards_predicted(hit_me, c)] == []
    assert searched["flapjack"][0] == []
    for t in searched["tables"]:
        assert is_secret(t.deal_code) and t.deal_code.bit_length() > 64


def test_search_finds_a_typed_short_code(searched) -> None:
    """Positive control: the same search finds a short code, so the search itself works."""
    assert searched["hit_me"][1] == [int(TYPED_HIT_ME)]
    assert hidden_cards_predicted(searched["typed"], int(TYPED_HIT_ME))
    assert searched["flapjack"][1] == [int(TYPED_FLAPJACK)]


def test_fresh_deals_differ_and_their_long_code_replays_them() -> None:
    a = FlapjackTable(players=2, bot_delay=0, teacher_controls=False)
    b = FlapjackTable(players=2, bot_delay=0, teacher_controls=False)
    assert a.deal_code != b.deal_code
    shown = format_code(a.deal_code)  # what the table shows once the deal is over
    assert len(shown) == 34 and shown.count("-") == 6
    assert parse_deal_code(shown) == a.deal_code
    again = FlapjackState.deal(a.config, rng=parse_deal_code(shown.lower().replace("-", " ")))
    assert again.hands == FlapjackState.deal(a.config, rng=a.deal_code).hands


def test_hit_me_later_rounds_are_not_given_by_the_shown_code() -> None:
    """The code shown after round 1 must not give round 2: a self-study game re-shuffles for
    each later round from 128 new secret bits (not by going on from the shown code)."""
    t = HitMeTable(players=2, opponents="easy", bot_delay=0)
    code = t.deal_code
    for _ in range(50):
        if t.phase is Phase.REVEALED:
            break
        if t.phase is Phase.PLAY:
            t.hold_button.click()
            continue
        t.peek_button.click() if not t.peeked else None
        values = t.game.round.observation(0)["seats"][0]["values"]
        t.announce.boxes["sum"].value = str(sum(values))
        t.announce.boxes["abs"].value = str(abs(sum(values)))
        t.announce.check_button.click()
        t.announce_done_button.click()
    assert t.phase is Phase.REVEALED and format_code(code) in synced_text(t)  # shown now
    dealer = t.game.next_dealer()
    t.next_round_button.click()
    # what the shown code would predict if the game went on from it
    rng = random.Random(code)
    HitMeRound.deal(t.config, rng, dealer=0)
    predicted = HitMeRound.deal(t.config, rng, dealer=dealer)
    actual = t.game.round
    assert (predicted.face_down, predicted.face_up) != (actual.face_down, actual.face_up)
