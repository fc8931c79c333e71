"""Hit Me, rule by rule (../shared/RULES.md "Shared" and "Hit Me"), on stacked decks.

Each row of CASES deals a stacked deck, plays a script of moves and checks the outcome.
A script item is "P:hit", "P:hold" or "P:ace CODE 1|11" (P = seat). A hit or hold also checks
that P is the player the rules say is to act, so every script is a turn-order check too.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

import pytest
from helpers import assert_illegal

from engine.cards import Card, Suit, make_deck, parse_card, parse_cards
from engine.errors import ConfigError, IllegalActionError
from engine.events import EventKind
from engine.hit_me import ChooseAce, Hit, HitMeConfig, HitMeGame, HitMeRound, Hold, Reveal
from widgets.words import log_parts


@dataclass
class Case:
    id: str
    players: int
    deck: str
    moves: list[str] = field(default_factory=list)
    expect: dict[str, Any] = field(default_factory=dict)
    cfg: dict[str, Any] = field(default_factory=dict)
    dealer: int = 0


def parse_move(item: str) -> tuple[int, Any]:
    seat, _, rest = item.partition(":")
    words = rest.split()
    if words[0] == "hit":
        return int(seat), Hit()
    if words[0] == "hold":
        return int(seat), Hold()
    assert words[0] == "ace"
    return int(seat), ChooseAce(parse_card(words[1]), words[2] == "11")


def play(case: Case) -> HitMeRound:
    cfg = HitMeConfig(players=case.players, **case.cfg)
    state = HitMeRound.deal(cfg, dealer=case.dealer, rng=0, deck=case.deck)
    for item in case.moves:
        seat, action = parse_move(item)
        if not isinstance(action, ChooseAce):
            assert state.current == seat, f"{item}: the rules give the turn to {state.current}"
        state.apply_action(action, seat)
    return state


def codes(cards: list[Card]) -> list[str]:
    return [c.code for c in cards]


ALL_HIT_5 = [f"{p}:hit" for _ in range(5) for p in (1, 2, 0)]

CASES = [
    # ----- Shared / rule 1: the deal --------------------------------------------------------
    Case("rule1-face-down-then-face-up-from-left-of-dealer-dealer0", 3, "KS,7H,10C,AS,2D,3C",
         expect={"face_down": ["10C", "KS", "7H"], "face_up": [["3C"], ["AS"], ["2D"]],
                 "current": 1, "deal_events": [1, 2, 0]}),
    Case("rule1-deal-ends-with-dealer-dealer2", 3, "KS,7H,10C,AS,2D,3C", dealer=2,
         expect={"face_down": ["KS", "7H", "10C"], "face_up": [["AS"], ["2D"], ["3C"]],
                 "current": 0, "deal_events": [0, 1, 2]}),
    Case("rule1-deal-dealer1-of-2", 2, "KS,7H,10C,AS", dealer=1,
         expect={"face_down": ["KS", "7H"], "face_up": [["10C"], ["AS"]], "current": 0}),
    Case("rule3-hit-takes-top-card", 2, "KS,7H,10C,AS,2D,3C", moves=["1:hit", "0:hit"],
         expect={"face_up": [["AS", "3C"], ["10C", "2D"]]}),
    # ----- rule 3: round robin -----------------------------------------------------------------
    Case("rule3-round-robin-5-passes-dealer-last", 3, "KS,7H,10C,AS,2D,3C", moves=ALL_HIT_5,
         expect={"over": True, "hits": [5, 5, 5], "cards": [7, 7, 7],
                 "full_events": [1, 2, 0]}),
    Case("rule3-round-robin-dealer1", 3, "KS,7H,10C,AS,2D,3C", dealer=1,
         moves=["2:hit", "0:hit", "1:hit", "2:hold", "0:hit", "1:hold", "0:hold"],
         expect={"over": True, "hits": [2, 1, 1]}),
    Case("rule3-hold-is-final-never-asked-again", 3, "KS,7H,10C,AS,2D,3C",
         moves=["1:hold", "2:hit", "0:hit", "2:hit", "0:hold", "2:hold"],
         expect={"over": True, "hits": [1, 0, 2], "held": [True, True, True]}),
    Case("rule3-held-player-skipped-in-later-passes", 4, "KS,7H,10C,AS,2D,3C,4C,5C",
         moves=["1:hit", "2:hold", "3:hit", "0:hit", "1:hit", "3:hold", "0:hit"],
         expect={"current": 1, "pass_number": 3, "hits": [2, 2, 0, 1]}),
    Case("rule3-7-card-limit-ends-player", 2, "KS,7H,10C,AS,2D,3C",
         moves=["1:hit", "0:hold", "1:hit", "1:hit", "1:hit", "1:hit"],
         expect={"over": True, "cards": [2, 7], "hits": [0, 5], "full_events": [1],
                 "held": [True, False]}),
    Case("rule3-7-card-player-not-asked-others-go-on", 3, "KS,7H,10C,AS,2D,3C",
         moves=["1:hit", "2:hit", "0:hold"] + ["1:hit", "2:hit"] * 4,
         expect={"over": True, "hits": [0, 5, 5], "full_events": [1, 2]}),
    Case("rule3-pass-number-counts-passes", 3, "KS,7H,10C,AS,2D,3C",
         moves=["1:hit", "2:hit", "0:hit", "1:hit"],
         expect={"current": 2, "pass_number": 2}),
    # ----- rule 3 variant: all at once -------------------------------------------------------
    Case("rule3-all-at-once-each-player-in-turn-dealer-last", 3, "KS,7H,10C,AS,2D,3C",
         cfg={"turn_order": "all-at-once"},
         moves=["1:hit", "1:hit", "1:hold", "2:hit", "2:hit", "2:hit", "2:hit", "2:hit",
                "0:hold"],
         expect={"over": True, "hits": [0, 2, 5], "full_events": [2]}),
    Case("rule3-all-at-once-dealer2", 3, "KS,7H,10C,AS,2D,3C", dealer=2,
         cfg={"turn_order": "all-at-once"},
         moves=["0:hit", "0:hold", "1:hold", "2:hit", "2:hold"],
         expect={"over": True, "hits": [1, 0, 1]}),
    Case("rule3-all-at-once-current-keeps-turn", 2, "KS,7H,10C,AS",
         cfg={"turn_order": "all-at-once"},
         moves=["1:hit", "1:hit"], expect={"current": 1, "hits": [0, 2]}),
    # ----- rules 4-5: end, reveal, |sum| -----------------------------------------------------
    Case("rule5-lowest-abs-sum-wins", 3, "KS,7H,10C,AS,2D,3C",
         moves=["1:hold", "2:hold", "0:hold"],
         expect={"over": True, "sums": [13, 11, -9], "scores": [13, 11, 9], "winners": [2],
                 "reveal_events": [1, 2, 0], "result_math": "lowest |sum| = 9"}),
    Case("rule5-zero-is-best", 2, "KS,3C,KH,2S", moves=["1:hold", "0:hold"],
         expect={"sums": [5, 0], "winners": [1]}),
    Case("rule5-negative-closer-to-zero-beats-positive", 2, "2H,2S,AH,2C",
         moves=["1:hold", "0:hold"], expect={"sums": [4, -3], "winners": [1]}),
    Case("rule5-tie-gives-co-winners", 3, "5S,5H,9C,AS,AH,AC",
         moves=["1:hold", "2:hold", "0:hold"],
         expect={"sums": [10, 6, -6], "winners": [1, 2], "tie": True}),
    Case("rule5-three-way-tie", 3, "5S,5H,5C,AS,AH,AC", moves=["1:hold", "2:hold", "0:hold"],
         expect={"sums": [6, 6, -6], "winners": [0, 1, 2], "tie": True}),
    Case("values-face-cards-count-10", 2, "AS,AH,JS,QH,KD", moves=["1:hit", "0:hold", "1:hold"],
         expect={"sums": [-11, 1], "winners": [1]}),
    Case("values-red-positive", 2, "KS,3C,KH,2S", cfg={"colors": "red-positive"},
         moves=["1:hold", "0:hold"], expect={"sums": [-5, 0], "winners": [1]}),
    Case("values-electrician-alias", 2, "7S,7H,AS,AH", cfg={"colors": "electrician"},
         moves=["1:hold", "0:hold"], expect={"sums": [8, -8], "tie": True}),
    # ----- variant: ace one or eleven ------------------------------------------------------
    Case("ace-never-chosen-auto-best-is-11", 2, "AS,5C,10H,2C", cfg={"ace_eleven": True},
         moves=["1:hold", "0:hold"], expect={"sums": [7, 1], "winners": [1]}),
    Case("ace-never-chosen-auto-best-is-1", 2, "AS,5C,2H,2C", cfg={"ace_eleven": True},
         moves=["1:hold", "0:hold"], expect={"sums": [7, -1], "winners": [1]}),
    Case("ace-chosen-1-is-kept-even-if-worse", 2, "AS,5C,10H,2C", cfg={"ace_eleven": True},
         moves=["1:ace AS 1", "1:hold", "0:hold"], expect={"sums": [7, -9], "winners": [0]}),
    Case("ace-choice-may-change-last-choice-counts", 2, "AS,5C,10H,2C",
         cfg={"ace_eleven": True},
         moves=["1:ace AS 11", "1:ace AS 1", "1:hold", "0:hold"], expect={"sums": [7, -9]}),
    Case("ace-choice-changed-back-to-11", 2, "AS,5C,10H,2C", cfg={"ace_eleven": True},
         moves=["1:ace AS 1", "1:hold", "1:ace AS 11", "0:hold"], expect={"sums": [7, 1]}),
    Case("ace-choice-out-of-turn-is-allowed", 2, "5C,AS,2C,10H", cfg={"ace_eleven": True},
         moves=["0:ace AS 11", "1:hold", "0:hold"], expect={"sums": [1, 7], "winners": [0]}),
    Case("ace-red-ace-counts-minus-11", 2, "AH,5C,10S,2C", cfg={"ace_eleven": True},
         moves=["1:hold", "0:hold"], expect={"sums": [7, -1]}),
    Case("ace-two-aces-best-combination", 2, "AS,5C,10H,2C,AC", cfg={"ace_eleven": True},
         moves=["1:hit", "0:hold", "1:hold"], expect={"sums": [7, 2]}),
    Case("ace-one-chosen-other-auto", 2, "AS,5C,10H,2C,AC", cfg={"ace_eleven": True},
         moves=["1:hit", "1:ace AC 1", "0:hold", "1:hold"], expect={"sums": [7, 2]}),
    Case("ace-rule-off-ace-is-1", 2, "AS,5C,10H,2C", moves=["1:hold", "0:hold"],
         expect={"sums": [7, -9], "winners": [0]}),
    Case("ace-red-positive-ace-of-spades-is-minus", 2, "AS,5C,10H,2C",
         cfg={"ace_eleven": True, "colors": "red-positive"},
         moves=["1:hold", "0:hold"], expect={"sums": [-7, -1]}),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_stacked_round(case: Case) -> None:
    state = play(case)
    ex = case.expect
    n = case.players
    if "face_down" in ex:
        assert codes(state.face_down) == ex["face_down"]
    if "face_up" in ex:
        assert [codes(up) for up in state.face_up] == ex["face_up"]
    if "current" in ex:
        assert state.current == ex["current"]
    if "pass_number" in ex:
        assert state.pass_number() == ex["pass_number"]
    if "hits" in ex:
        assert [state.hits(p) for p in range(n)] == ex["hits"]
    if "cards" in ex:
        assert [len(state.cards(p)) for p in range(n)] == ex["cards"]
    if "held" in ex:
        assert state.held == ex["held"]
    if "deal_events" in ex:
        assert [e.player for e in state.events if e.kind is EventKind.DEAL] == ex["deal_events"]
    if "full_events" in ex:
        assert [e.player for e in state.events if e.kind is EventKind.FULL] == ex["full_events"]
    if "over" in ex:
        assert state.players_done is ex["over"]
    res = state.result()
    if any(k in ex for k in ("sums", "scores", "winners", "tie")):
        assert res is not None, "the round should be over"
        assert state.players_done and state.current is None and not state.revealed
        # rule 4: every player is done; the cards wait face down for the announce step
        assert state.phase == "announce"
        assert all(state.legal_actions(p) == [Reveal()] for p in range(n))
        assert state.observation(0)["seats"][1]["face_down"] == {"hidden": True}
        assert not any(e.kind is EventKind.REVEAL for e in state.events)
        state.apply_action(Reveal())
        assert state.revealed and state.is_over and state.legal_actions() == []
        assert state.observation(0)["seats"][1]["face_down"]["code"] == state.face_down[1].code
    if "sums" in ex:
        assert list(res.sums) == ex["sums"]
        assert [state.final_sum(p) for p in range(n)] == ex["sums"]
        assert list(res.scores) == [abs(s) for s in ex["sums"]]
    if "scores" in ex:
        assert list(res.scores) == ex["scores"]
    if "winners" in ex:
        assert list(res.winners) == ex["winners"]
        assert res.tie is (len(ex["winners"]) > 1)
    if "tie" in ex:
        assert res.tie is ex["tie"]
    if "reveal_events" in ex:
        reveals = [e for e in state.events if e.kind is EventKind.REVEAL]
        assert [e.player for e in reveals] == ex["reveal_events"]
        for e in reveals:
            assert e.card == state.face_down[e.seat] and e.score == res.scores[e.seat]
            assert state.face_down[e.seat].short in log_parts(e)[0]
            assert f"= {res.scores[e.seat]}" in log_parts(e)[1]
    if "result_math" in ex:
        assert state.events[-1].kind is EventKind.RESULT
        assert log_parts(state.events[-1])[1] == ex["result_math"]


# ----- rule 0 and the deck count ---------------------------------------------------------
@pytest.mark.parametrize(("players", "decks"), [(2, 1), (7, 1), (8, 2), (14, 2), (15, 3)],
                         ids=lambda x: str(x))
def test_rule0_default_decks_ceil_7p_over_52(players: int, decks: int) -> None:
    cfg = HitMeConfig(players=players)
    assert cfg.decks == decks
    state = HitMeRound.deal(cfg, rng=1)
    assert sorted(state.all_cards()) == sorted(make_deck(decks))


def test_rule0_every_card_dealt_from_a_full_shuffled_deck_same_seed_same_deal() -> None:
    cfg = HitMeConfig(players=4)
    a, b, c = (HitMeRound.deal(cfg, rng=s) for s in (7, 7, 8))
    assert a.to_json() == b.to_json()
    assert a.to_json() != c.to_json()
    assert sorted(a.all_cards()) == sorted(make_deck(1))


def test_stacked_top_then_rest_shuffled_by_seed() -> None:
    cfg = HitMeConfig(players=2)
    a = HitMeRound.deal(cfg, rng=3, deck="KS,7H")
    b = HitMeRound.deal(cfg, rng=3, deck="KS,7H")
    assert a.to_json() == b.to_json()
    assert a.face_down[1] == parse_card("KS") and a.face_down[0] == parse_card("7H")
    assert sorted(a.all_cards()) == sorted(make_deck(1))


def test_repeats_need_two_decks() -> None:
    with pytest.raises(ConfigError, match="more often"):
        HitMeRound.deal(HitMeConfig(players=2), deck="KS,KS")
    state = HitMeRound.deal(HitMeConfig(players=2, decks=2), rng=1, deck="KS,KS,7H,7H")
    assert state.face_down == [Card(13, Suit.SPADES, 1), Card(13, Suit.SPADES, 0)]
    assert state.face_up[1][0].key == "7H" and state.face_up[0][0].key == "7H#1"
    assert sorted(state.all_cards()) == sorted(make_deck(2))


@pytest.mark.parametrize(
    ("kwargs", "pattern"),
    [
        ({"players": 1}, "players must be 2 to 20; got 1"),
        ({"players": 0}, "players must be 2 to 20"),
        ({"players": "3"}, "players must be a whole number"),
        ({"players": 2.0}, "players must be a whole number"),
        ({"players": 2, "decks": 0}, "decks must be 1 to 8; got 0"),
        ({"players": 8, "decks": 1}, r"decks must be 2 or more for 8 players"),
        ({"players": 15, "decks": 2}, r"decks must be 3 or more for 15 players"),
        ({"colors": "blue"}, "colors must be one of black-positive, red-positive"),
        ({"turn_order": "random"}, "turn_order must be one of round-robin, all-at-once"),
        ({"ace_eleven": "yes"}, "ace_eleven must be true or false"),
    ],
    ids=["one-player", "zero-players", "players-text", "players-float", "zero-decks",
         "too-few-decks-8p", "too-few-decks-15p", "bad-colors", "bad-turn-order",
         "bad-ace-setting"],
)
def test_bad_settings_refused_naming_setting(kwargs: dict[str, Any], pattern: str) -> None:
    with pytest.raises(ConfigError, match=pattern):
        HitMeConfig(**kwargs)


@pytest.mark.parametrize(
    ("deck", "pattern"),
    [("KS,ZZ", "not a card code"), ("KS,KS", "more often")],
)
def test_bad_stacked_deck_refused(deck: str, pattern: str) -> None:
    with pytest.raises(ConfigError, match=pattern):
        HitMeRound.deal(HitMeConfig(), deck=deck)


def test_bad_dealer_refused() -> None:
    with pytest.raises(ConfigError, match="dealer must be 0 to 2"):
        HitMeRound.deal(HitMeConfig(players=3), dealer=3)


def test_config_json_round_trip_and_value() -> None:
    cfg = HitMeConfig(players=9, colors="red-positive", turn_order="all-at-once", ace_eleven=True)
    assert HitMeConfig.from_json(json.loads(json.dumps(cfg.to_json()))) == cfg
    assert cfg.value(parse_card("QH")) == 10 and cfg.value(parse_card("QS")) == -10


# ----- rule 2: the face-down card is private -------------------------------------------------
def test_rule2_face_down_seen_by_owner_only_until_end() -> None:
    state = play(Case("", 2, "KS,7H,10C,AS"))
    mine = state.observation(1)["seats"][1]
    theirs = state.observation(0)["seats"][1]
    assert mine["face_down"]["code"] == "KS" and mine["sum"] == 20
    assert theirs["face_down"] == {"hidden": True}
    assert theirs["sum"] is None and theirs["abs"] is None
    assert theirs["face_up_sum"] == 10
    state.apply_action(Hold())
    state.apply_action(Hold())
    announcing = state.observation(0)["seats"][1]  # everyone is done; cards not yet turned up
    assert announcing["face_down"] == {"hidden": True} and announcing["sum"] is None
    assert state.observation(1)["seats"][1]["values"] == [10, 10]
    state.apply_action(Reveal(), 0)
    after = state.observation(0)["seats"][1]
    assert after["face_down"]["code"] == "KS" and after["sum"] == 20 and after["abs"] == 20


# ----- illegal moves ---------------------------------------------------------------------------
def test_illegal_moves_raise_and_change_nothing() -> None:
    state = play(Case("", 3, "KS,7H,10C,AS,2D,3C", moves=["1:hold"]))
    assert_illegal(state, Hit(), 1, "turn")  # hit after hold
    assert_illegal(state, Hold(), 1, "turn")
    assert_illegal(state, Hit(), 0, "it is player 2's turn, not player 0's")  # out of turn
    assert_illegal(state, Hit(), 3, "no such player")
    assert_illegal(state, Hit(), -1, "no such player")
    assert_illegal(state, "hit", 2, "not a Hit Me move")
    assert_illegal(state, ChooseAce(parse_card("AS"), True), 1, "rule is off")
    assert state.legal_actions(1) == []
    assert state.legal_actions(0) == []
    assert state.legal_actions() == [Hit(), Hold()]
    state.apply_action(Hold())
    state.apply_action(Hold())
    assert state.players_done
    for seat in (0, 1, 2, None):
        for action in (Hit(), Hold()):
            assert_illegal(state, action, seat, "over")


def test_illegal_after_seven_cards() -> None:
    state = play(Case("", 2, "KS,7H,10C,AS", moves=["1:hit", "0:hit"] * 2 + ["1:hit"]))
    assert state.hits(1) == 3
    state = play(Case("", 3, "KS,7H,10C,AS,2D,3C", moves=["1:hit", "2:hold", "0:hold"]
                      + ["1:hit"] * 3))
    assert state.hits(1) == 4 and state.current == 1
    state.apply_action(Hit())
    assert state.players_done and len(state.cards(1)) == 7
    assert_illegal(state, Hit(), 1, "over")


def test_illegal_ace_choices() -> None:
    state = play(Case("", 2, "AS,5C,10H,2C", cfg={"ace_eleven": True}))
    assert_illegal(state, ChooseAce(parse_card("5C"), True), 0, "not an ace")
    assert_illegal(state, ChooseAce(parse_card("AS"), True), 0, "not one of player 0's cards")
    assert_illegal(state, ChooseAce(parse_card("AH"), True), 1, "not one of player 1's cards")
    assert_illegal(state, ChooseAce(Card(1, Suit.SPADES, copy=1), True), 1, "not one of")
    assert_illegal(state, ChooseAce(parse_card("AS"), 11), 1, "1 or 11")
    assert ChooseAce(parse_card("AS"), True) in state.legal_actions(1)
    state.apply_action(ChooseAce(parse_card("AS"), True), 1)
    assert ChooseAce(parse_card("AS"), False) in state.legal_actions(1)
    assert state.sum(1) == 1
    state.apply_action(Hold())
    state.apply_action(Hold())
    assert_illegal(state, ChooseAce(parse_card("AS"), False), 1, "over")


def test_ace_choice_is_private_until_the_end() -> None:
    state = play(Case("", 2, "AS,5C,10H,2C", cfg={"ace_eleven": True}, moves=["1:ace AS 11"]))
    seen = [e for e in state.observation(0)["events"]
            if e["kind"] == "ace" or e.get("card", {}).get("rank") == 1]
    assert seen == [], "seat 0 learns that seat 1's face-down card is an ace"
    assert all("ace_high" not in c for c in state.observation(0)["seats"][1]["face_up"])
    mine = state.observation(1)
    assert mine["seats"][1]["sum"] == 1
    assert mine["seats"][1]["face_down"]["ace_high"] is True


# ----- a game of many rounds: who deals, score table ------------------------------------------
def finish(game: HitMeGame) -> None:
    while not game.round.players_done:
        game.round.apply_action(Hold())


def test_single_winner_deals_next_and_scores_a_win() -> None:
    game = HitMeGame(HitMeConfig(players=3), seed=1, deck="KS,7H,10C,AS,2D,3C")
    finish(game)
    res = game.finish_round()
    assert res.winners == (2,)
    assert game.next_dealer() == 2
    rnd = game.next_round()
    assert game.dealer == 2 and rnd.dealer == 2 and rnd.current == 0
    assert game.wins == [0, 0, 1] and game.ties == [0, 0, 0]
    assert sorted(rnd.all_cards()) == sorted(make_deck(1)), "every round starts from a full deck"


def test_finish_round_records_once() -> None:
    game = HitMeGame(HitMeConfig(players=3), seed=1, deck="KS,7H,10C,AS,2D,3C")
    with pytest.raises(IllegalActionError, match="round-not-over"):
        game.finish_round()
    with pytest.raises(IllegalActionError, match="finish-round-first"):
        game.next_round()
    finish(game)
    game.finish_round()
    game.finish_round()
    game.next_round()
    assert game.wins == [0, 0, 1] and game.rounds_played == 1


TIE_0_2 = "9C,5S,5H,AC,AS,AH"  # dealer 0: seat 1 +10, seat 2 +6, seat 0 -6
TIE_1_2_D0 = "5S,5H,9C,AS,AH,AC"  # dealer 0: seat 1 +6, seat 2 -6, seat 0 +10


def test_tie_deal_goes_to_least_recent_dealer_even_if_not_a_winner() -> None:
    game = HitMeGame(HitMeConfig(players=3), seed=2, deck=TIE_0_2)
    finish(game)
    res = game.finish_round()
    assert res.winners == (0, 2) and res.tie
    assert game.ties == [1, 0, 1] and game.wins == [0, 0, 0]
    assert game.next_dealer() == 1  # seats 1 and 2 never dealt; seat 1 is first from the left


def test_tie_sequence_rotates_by_least_recently_dealt() -> None:
    game = HitMeGame(HitMeConfig(players=3), seed=3, deck=TIE_1_2_D0)
    finish(game)
    assert game.finish_round().winners == (1, 2)
    game.next_round(deck="5S,5H,9C,AS,AH,AC")  # dealer 1: seat 2 +6, seat 0 -6, seat 1 +10
    assert game.dealer == 1
    finish(game)
    assert game.finish_round().winners == (0, 2)
    game.next_round(deck="5S,5H,9C,AS,AH,AC")  # seat 2 never dealt
    assert game.dealer == 2
    finish(game)  # dealer 2: seat 0 +6, seat 1 -6, seat 2 +10
    assert game.finish_round().winners == (0, 1)
    assert game.next_dealer() == 0  # seat 0 dealt round 1, seat 1 round 2
    game.next_round(deck="KS,7H,10C,AS,2D,3C")  # dealer 0: seat 2 wins with -9
    assert game.dealer == 0
    finish(game)
    game.next_round()
    assert game.dealer == 2
    assert game.score_table() == [
        {"seat": 0, "wins": 0, "ties": 2},
        {"seat": 1, "wins": 0, "ties": 2},
        {"seat": 2, "wins": 1, "ties": 2},
    ]
    assert [list(r.winners) for r in game.history] == [[1, 2], [0, 2], [0, 1], [2]]


def test_tie_when_everyone_has_dealt_seat_order_from_dealers_left() -> None:
    game = HitMeGame(HitMeConfig(players=2), seed=4, deck="7S,7H,AS,AH")  # +8 / -8
    finish(game)
    assert game.finish_round().tie
    game.next_round(deck="7S,7H,AS,AH")
    assert game.dealer == 1
    finish(game)
    game.next_round(deck="7S,7H,AS,AH")
    assert game.dealer == 0
    assert game.ties == [2, 2]


def test_game_of_many_rounds_score_table_and_json() -> None:
    game = HitMeGame(HitMeConfig(players=4, ace_eleven=True), seed=11)
    for _ in range(12):
        finish(game)
        game.next_round()
    table = game.score_table()
    assert [row["seat"] for row in table] == [0, 1, 2, 3]
    assert sum(r["wins"] for r in table) == sum(not r.tie for r in game.history)
    assert sum(r["ties"] for r in table) == sum(len(r.winners) for r in game.history if r.tie)
    assert game.rounds_played == 12
    copy = HitMeGame.from_json(json.loads(json.dumps(game.to_json())))
    assert copy.to_json() == game.to_json()
    finish(game)
    finish(copy)
    game.next_round()
    copy.next_round()
    assert copy.to_json() == game.to_json(), "a saved game deals the same next round"


def test_same_seed_same_game() -> None:
    def run(seed: int) -> list[Any]:
        game = HitMeGame(HitMeConfig(players=3), seed=seed)
        for _ in range(5):
            while not game.round.players_done:
                game.round.apply_action(Hit() if game.round.sum(game.round.current) > 3
                                        else Hold())
            game.next_round()
        return [r.to_json() for r in game.history]

    assert run(5) == run(5)
    assert run(5) != run(6)


def test_parse_cards_deck_list_accepted() -> None:
    cards = parse_cards("KS,7H,10C,AS")
    state = HitMeRound.deal(HitMeConfig(), rng=0, deck=cards)
    assert codes(state.face_down) == ["7H", "KS"]


def test_seat_0_is_the_first_dealer_so_the_first_card_goes_to_seat_1() -> None:
    game = HitMeGame(HitMeConfig(players=4), seed=1, deck="KS,7H,10C,AS")
    assert game.dealer == 0 and game.round.dealer == 0
    assert [c.code for c in game.round.face_down] == ["AS", "KS", "7H", "10C"]
    assert game.round.current == 1
    assert HitMeRound.deal(HitMeConfig(players=4), rng=1, deck="QD").face_down[1].code == "QD"


def test_deck_as_a_list_of_codes() -> None:
    state = HitMeRound.deal(HitMeConfig(decks=2), rng=1, deck=["KS", "KS", "7h"])
    assert [c.key for c in state.face_down] == ["KS#1", "KS"]
    assert state.face_up[1][0].code == "7H"
    with pytest.raises(ConfigError, match="not a card code"):
        HitMeRound.deal(HitMeConfig(), rng=1, deck=["KS", 5])


def test_ace_moves_legal_actions_and_apply_agree() -> None:
    """Every ace choice legal_actions lists is accepted; every other one is refused."""
    for seed in range(12):
        state = HitMeRound.deal(HitMeConfig(players=3, ace_eleven=True), rng=seed,
                                deck="AS,AH,AD,AC,2S,3S")
        rng = random.Random(seed)
        while not state.players_done:
            for p in range(3):
                legal = state.legal_actions(p)
                for c in state.cards(p):
                    for high in (False, True):
                        move = ChooseAce(c, high)
                        twin = state.clone()
                        try:
                            twin.apply_action(move, p)
                            accepted = True
                        except IllegalActionError:
                            accepted = False
                        assert accepted == (move in legal), (seed, p, move, legal)
            aces = [a for p in range(3) for a in state.legal_actions(p)
                    if isinstance(a, ChooseAce)]
            if aces and rng.random() < 0.5:
                a = rng.choice(aces)
                owner = next(p for p in range(3) if a in state.legal_actions(p))
                state.apply_action(a, owner)
                assert state.legal_actions(owner).count(ChooseAce(a.card, a.high)) == 0
            else:
                state.apply_action(Hit() if rng.random() < 0.5 else Hold())
        assert all(state.legal_actions(p) == [Reveal()] for p in range(3))
        for c in state.cards(0):
            assert_illegal(state, ChooseAce(c, True), 0, "over")
