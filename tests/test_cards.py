"""Cards, decks, the colour-sign convention and the arithmetic text of the event log."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from engine.cards import (
    Card,
    Color,
    Convention,
    Suit,
    card_from_json,
    card_to_json,
    make_deck,
    make_rng,
    parse_card,
    parse_cards,
    signed,
)
from engine.errors import ConfigError
from engine.events import HIDDEN_CARD, Event, EventKind, card_view
from engine.flapjack import FlapjackConfig
from engine.hit_me import HitMeConfig
from widgets.words import abs_math, card_aria, card_name, number_words, step_math, sum_math


def test_suits_have_colours_symbols_and_words() -> None:
    assert [s.color for s in Suit] == [Color.BLACK, Color.RED, Color.RED, Color.BLACK]
    assert Suit.SPADES.symbol == "\u2660" and Suit.HEARTS.symbol == "\u2665"
    assert card_name(parse_card("JC")) == "jack of clubs"


@pytest.mark.parametrize(
    ("colors", "card", "value"),
    [
        ("black-positive", "7S", 7),
        ("black-positive", "7C", 7),
        ("black-positive", "7H", -7),
        ("black-positive", "7D", -7),
        ("red-positive", "7S", -7),
        ("red-positive", "7C", -7),
        ("red-positive", "7H", 7),
        ("red-positive", "7D", 7),
        ("accounting", "AS", 1),
        ("electrician", "AS", -1),
        (Convention.RED_POSITIVE, "KH", 13),
    ],
    ids=lambda x: str(x),
)
def test_colour_sign_both_conventions(colors: object, card: str, value: int) -> None:
    c = parse_card(card)
    assert FlapjackConfig(colors=colors).value(c) == value
    assert HitMeConfig(colors=colors).value(c) == max(-10, min(10, value))


def test_default_convention_is_black_positive() -> None:
    assert HitMeConfig().colors is Convention.BLACK_POSITIVE
    assert FlapjackConfig().colors is Convention.BLACK_POSITIVE
    assert Convention.parse(" Red-Positive ") is Convention.RED_POSITIVE


@pytest.mark.parametrize("bad", ["green", "", "positive", 3])
def test_bad_colour_convention_names_allowed_values(bad: object) -> None:
    with pytest.raises(ConfigError, match="colors must be one of black-positive, red-positive"):
        Convention.parse(bad)
    with pytest.raises(ConfigError, match="colors"):
        HitMeConfig(colors=bad)
    with pytest.raises(ConfigError, match="colors"):
        FlapjackConfig(colors=bad)


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [("KS", 13, Suit.SPADES), ("7h", 7, Suit.HEARTS), ("10C", 10, Suit.CLUBS),
     ("AD", 1, Suit.DIAMONDS), ("1d", 1, Suit.DIAMONDS), (" QS ", 12, Suit.SPADES),
     ("JC", 11, Suit.CLUBS)],
)
def test_parse_card(text: str, rank: int, suit: Suit) -> None:
    assert parse_card(text) == Card(rank, suit)


@pytest.mark.parametrize("bad", ["", "K", "11S", "ZS", "KX", "0H", "10", "S10"])
def test_parse_card_refuses_nonsense(bad: str) -> None:
    with pytest.raises(ConfigError, match="not a card code"):
        parse_card(bad)


def test_card_rank_must_be_1_to_13() -> None:
    for bad in (0, 14):
        with pytest.raises(ConfigError):
            Card(bad, Suit.SPADES)


def test_card_texts() -> None:
    c = Card(13, Suit.SPADES)
    assert (c.code, c.short, c.key, c.label) == ("KS", "K\u2660", "KS", "K")
    assert card_name(c) == "king of spades"
    ten = Card(10, Suit.HEARTS, copy=1)
    assert (ten.code, ten.key, ten.short) == ("10H", "10H#1", "10\u2665")
    assert str(ten) == "10H"
    assert card_name(Card(1, Suit.DIAMONDS)) == "ace of diamonds"


def test_explicit_order_top_first_and_repeats_become_copies() -> None:
    assert parse_cards("KS,7H,10C") == [Card(13, Suit.SPADES), Card(7, Suit.HEARTS),
                                        Card(10, Suit.CLUBS)]
    assert parse_cards("KS 7H, 10C") == parse_cards(["KS", "7H", "10C"])
    twins = parse_cards("KS,7H,KS,KS")
    assert [c.copy for c in twins] == [0, 0, 1, 2]
    assert len({c.key for c in twins}) == 4
    assert parse_cards("KS,,7H,") == parse_cards("KS,7H")


@pytest.mark.parametrize("decks", [1, 2, 3])
def test_make_deck_full_standard_decks(decks: int) -> None:
    deck = make_deck(decks)
    assert len(deck) == 52 * decks
    assert len({c.key for c in deck}) == 52 * decks
    faces = Counter((c.rank, c.suit) for c in deck)
    assert set(faces.values()) == {decks}
    assert len(faces) == 52
    assert len(make_deck(decks, range(1, 11))) == 40 * decks


def test_card_json_round_trip() -> None:
    for c in make_deck(2):
        assert card_from_json(card_to_json(c)) == c


def test_make_rng_same_seed_same_sequence() -> None:
    assert make_rng(5).random() == make_rng(5).random()
    assert make_rng("deal-7").random() == make_rng("deal-7").random()
    r = random.Random(1)
    assert make_rng(r) is r


@pytest.mark.parametrize(("n", "text", "words"),
                         [(7, "+7", "positive 7"), (-7, "-7", "negative 7"), (0, "0", "zero")])
def test_signed_and_number_words(n: int, text: str, words: str) -> None:
    assert signed(n) == text
    assert number_words(n) == words


def test_arithmetic_text() -> None:
    assert step_math(-3, 5, 2) == "-3 + (+5) = +2"
    assert step_math(4, -7, -3) == "+4 + (-7) = -3"
    assert sum_math([2, -7, 4]) == "+2 + (-7) + (+4) = -1"
    assert sum_math([-5]) == "-5 = -5"
    assert abs_math(-3) == "|-3| = 3"
    assert abs_math(0) == "|0| = 0"


def test_card_view_carries_signed_value_text_and_aria() -> None:
    v = card_view(parse_card("7H"), -7)
    assert v["value_text"] == "-7" and v["value"] == -7
    assert "aria" not in v and "name" not in v  # words are made in widgets.words
    assert card_aria(v) == "seven of hearts, value negative 7"
    assert v["color"] == "red" and v["symbol"] == "\u2665" and v["code"] == "7H"
    assert HIDDEN_CARD == {"hidden": True}
    assert card_aria(HIDDEN_CARD) == "face-down card"


def test_event_private_part_only_for_its_player() -> None:
    five = parse_card("5S")
    e = Event(EventKind.DRAW, 1, private=Event(EventKind.DRAW, 1, card=five, value=5))
    assert "private" not in e.view(0)
    assert "private" not in e.view(None)
    assert e.view(1)["private"]["card"]["code"] == "5S"
    assert e.view(0, reveal=True)["private"]["value"] == 5
    assert Event.from_json(e.to_json()) == e
    assert json.loads(json.dumps(e.to_json())) == e.to_json()
    assert json.loads(json.dumps(e.view(1))) == e.view(1)


def test_cards_are_ordered_and_sort() -> None:
    deck = make_deck(2)
    random.Random(0).shuffle(deck)
    ordered = sorted(deck)
    assert ordered[:3] == [Card(1, Suit.CLUBS, 0), Card(1, Suit.CLUBS, 1), Card(1, Suit.DIAMONDS)]
    assert Card(4, Suit.SPADES) > Card(4, Suit.CLUBS) > Card(3, Suit.SPADES)
    assert max(deck) == Card(13, Suit.SPADES, 1)


def test_registry_one_shape_for_every_game() -> None:
    from engine.games import GAMES, game_name, make_game

    assert set(GAMES) == {"hit-me", "flapjack"} and game_name("Hit Me") == "hit-me"
    for name in GAMES:
        game = make_game(name, players=3)
        state = game.new_state(rng=4)
        moves = 0
        while not state.is_over:
            seat = state.current_player
            if seat is None:  # Hit Me's announce step: the only move turns the cards up
                seat = 0
            obs = state.observation(seat)
            assert set(obs) >= {"game", "viewer", "players", "dealer", "current_player", "is_over",
                                "draw_pile", "seats", "legal_actions", "events", "result"}
            assert isinstance(obs["draw_pile"], int)
            legal = state.legal_actions(seat)
            assert obs["legal_actions"] == [a.to_json() for a in legal]
            action = game.action_from_json(obs["legal_actions"][-1], state)
            assert action == legal[-1]
            state.apply_action(action, seat)
            moves += 1
        assert state.result() is not None and state.legal_actions(0) == []
        back = game.state_from_json(json.loads(json.dumps(state.to_json())))
        assert back.to_json() == state.to_json()
        assert sorted(state.all_cards()) == sorted(game.full_deck())
    assert GAMES["hit-me"].card_value(parse_card("KH")) == -10
    assert GAMES["flapjack"].card_value(parse_card("KH"), "red-positive") == 13
