"""Flapjack, rule by rule (../shared/RULES.md "Flapjack" and its variants), on stacked decks.

Each row of CASES gives every hand and the top of the draw pile, plays a script of moves and
checks the outcome. A script item is "P:CODE" (add) or "P:CODE-" (subtract), CODE may carry a
copy ("KS#1"); before each move the test checks that P is the player the rules say is to act.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import pytest
from helpers import assert_illegal

from engine.cards import Card, Suit, card_from_json, make_deck, parse_card, parse_cards
from engine.errors import ConfigError, IllegalActionError, Reason, Why
from engine.events import EventKind
from engine.flapjack import EndReason, FlapjackConfig, FlapjackState, Play
from widgets.words import log_parts, reason_text


def stack(hands: dict[int, str], pile: str = "", dealer: int = 0) -> str:
    """The deck order (top first) that deals these 7-card hands, then the draw pile."""
    n = len(hands)
    rows = {seat: [c for c in text.split(",") if c] for seat, text in hands.items()}
    assert all(len(r) == 7 for r in rows.values())
    order = [rows[(dealer + 1 + i) % n][r] for r in range(7) for i in range(n)]
    return ",".join(order + [c for c in pile.split(",") if c])


@dataclass
class Case:
    id: str
    hands: dict[int, str]
    pile: str = ""
    moves: list[str] = field(default_factory=list)
    expect: dict[str, Any] = field(default_factory=dict)
    cfg: dict[str, Any] = field(default_factory=dict)
    dealer: int = 0
    exact: bool = False


def parse_move(item: str) -> tuple[int, Play]:
    seat, _, code = item.partition(":")
    sign = -1 if code.endswith("-") else 1
    return int(seat), Play(card_from_json(code.rstrip("+-")), sign)


def deal(case: Case) -> FlapjackState:
    cfg = FlapjackConfig(players=len(case.hands), **case.cfg)
    return FlapjackState.deal(cfg, rng=0, deck=stack(case.hands, case.pile, case.dealer),
                              exact=case.exact, dealer=case.dealer)


def play(case: Case) -> FlapjackState:
    state = deal(case)
    for item in case.moves:
        seat, action = parse_move(item)
        assert state.current == seat, f"{item}: the rules give the turn to {state.current}"
        assert action in state.legal_actions(), f"{item} should be legal"
        state.apply_action(action, seat)
    return state


def keys(cards: list[Card]) -> list[str]:
    return [c.key for c in cards]


TWO = {1: "6S,2S,3S,4S,5S,8S,9S", 0: "7C,2H,3H,4H,5H,8H,9H"}
TWO_PILE = "10S,10H,AC,AD"
KINGS = {1: "KS,KC,KH,KD,KS,KC,KH", 0: "2S,3S,8S,4S,9S,6S,7S"}  # exact, two decks
BLOCK = {1: "QS,AS,QC,JS,JC,10S,10C", 0: "2S,3S,4S,5S,6S,7S,8S"}  # exact, one deck
PASS_ON = {1: "QS,AS,2C,3C,4C,5C,6C", 0: "2S,3S,4S,5S,6S,7S,8S", 2: "AH,2H,3H,4H,5H,6H,7C"}

CASES = [
    # ----- rule 1: the deal and the draw pile -----------------------------------------------
    Case("rule1-deal-one-at-a-time-from-left-of-dealer", TWO, TWO_PILE,
         expect={"hands": TWO, "pile_top": ["10S", "10H", "AC", "AD"], "current": 1,
                 "pile_size": 38}),
    Case("rule1-deal-3-players-dealer-2", {0: "AS,2S,3S,4S,5S,6S,7S", 1: "AH,2H,3H,4H,5H,6H,7H",
                                           2: "AC,2C,3C,4C,5C,6C,7C"}, "KD", dealer=2,
         expect={"current": 0, "pile_top": ["KD"], "pile_size": 31}),
    Case("rule1-deal-dealer-1-of-2", TWO, TWO_PILE, dealer=1,
         expect={"hands": TWO, "current": 0}),
    # ----- rule 2: the lead ------------------------------------------------------------------
    Case("rule2-left-of-dealer-leads-any-card", TWO, TWO_PILE, moves=["1:9S"],
         expect={"total": 9, "table": ["9S"], "current": 0}),
    Case("rule2-every-card-may-lead", TWO, TWO_PILE,
         expect={"legal": ["6S", "2S", "3S", "4S", "5S", "8S", "9S"]}),
    # ----- rule 3: turns, limit, draw ------------------------------------------------------
    Case("rule3-play-then-draw-top-of-pile", TWO, TWO_PILE, moves=["1:6S", "0:2H"],
         expect={"total": 4, "hand_has": {1: "10S", 0: "10H"}, "pile_top": ["AC", "AD"],
                 "current": 1, "draw_events": [1, 0]}),
    Case("rule3-limit-excludes-plays-past-13", TWO, TWO_PILE, moves=["1:9S"],
         expect={"legal": ["2H", "3H", "4H", "5H", "8H", "9H"]}),
    Case("rule3-limit-excludes-plays-past-minus-13",
         {1: "9H,2S,3S,4S,5S,8S,9S", 0: "7C,5D,3H,4H,5H,8H,6D"}, TWO_PILE, moves=["1:9H"],
         expect={"legal": ["7C", "3H", "4H"], "total": -9}),
    Case("rule3-turns-go-clockwise-3-players", PASS_ON, "KD,KH,KS", moves=["1:2C", "2:AH", "0:2S"],
         expect={"current": 1, "total": 3}),
    # ----- rule 4: Flapjack -----------------------------------------------------------------
    Case("rule4-flapjack-at-plus-13-takes-trick-and-leads", TWO, TWO_PILE,
         moves=["1:6S", "0:7C"],
         expect={"total": 0, "table": [], "tricks": {0: ["6S", "7C"]}, "flapjacks": [1, 0],
                 "current": 0, "hand_has": {0: "10H"}}),
    Case("rule4-flapjack-at-minus-13", {1: "6H,2S,3S,4S,5S,8S,9S", 0: "7D,2H,3H,4H,5H,8H,9H"},
         TWO_PILE, moves=["1:6H", "0:7D"],
         expect={"tricks": {0: ["6H", "7D"]}, "current": 0, "flapjack_math": "total = -13"}),
    Case("rule4-flapjack-at-zero", {1: "6S,2S,3S,4S,5S,8S,9S", 0: "6H,2H,3H,4H,5H,8H,9H"},
         TWO_PILE, moves=["1:6S", "0:6H", "0:5H"],
         expect={"tricks": {0: ["6S", "6H"]}, "total": -5, "current": 1}),
    Case("rule4-king-lead-is-flapjack-at-once", {1: "KS,2S,3S,4S,5S,8S,9S",
                                                 0: "7D,2H,3H,4H,5H,8H,9H"}, TWO_PILE,
         moves=["1:KS", "1:2S"],
         expect={"tricks": {1: ["KS"]}, "flapjacks": [0, 1], "current": 0, "total": 2}),
    Case("rule4-red-king-lead-minus-13", {1: "KH,2S,3S,4S,5S,8S,9S",
                                          0: "7D,2H,3H,4H,5H,8H,9H"}, TWO_PILE,
         moves=["1:KH"], expect={"tricks": {1: ["KH"]}, "current": 1}),
    Case("rule4-trick-builds-over-several-plays", PASS_ON, "KD,KH,KS",
         moves=["1:5C", "2:AH", "0:2S", "1:2C", "2:2H", "0:7S"],
         expect={"tricks": {0: ["5C", "AH", "2S", "2C", "2H", "7S"]}, "current": 0}),
    # ----- rule 4 / 5: leader without cards, passes, and rule 6 / 7 ----------------------------
    Case("rule4-leader-without-cards-next-player-leads-rule6-all-played-rule7-tie", KINGS,
         cfg={"decks": 2}, exact=True,
         moves=["1:KS", "1:KC", "1:KH", "1:KD", "1:KS#1", "1:KC#1", "1:KH#1",
                "0:2S", "0:3S", "0:8S", "0:4S", "0:9S", "0:6S", "0:7S"],
         expect={"over": True, "reason": "all-played", "cards_won": [7, 7], "winners": [0, 1],
                 "flapjacks": [3, 7], "passes": 5, "plays": 14, "pass_events": [1] * 5}),
    Case("rule4-leader-without-cards-passes", KINGS, cfg={"decks": 2}, exact=True,
         moves=["1:KS", "1:KC", "1:KH", "1:KD", "1:KS#1", "1:KC#1", "1:KH#1"],
         expect={"current": 0, "pass_events": [1], "pass_text": "passes (has no cards)",
                 "hands": {1: ""}}),
    Case("rule5-no-legal-card-passes-rule6-blocked-unwon-cards", BLOCK, exact=True,
         moves=["1:QS", "1:AS", "1:QC"],
         expect={"over": True, "reason": "blocked", "cards_won": [0, 2], "winners": [1],
                 "passes": 1, "pass_events": [0], "pass_text": "passes (has no legal card)",
                 "table": ["QC"], "total": 12, "unwon": 12}),
    Case("rule4-third-player-makes-flapjack", PASS_ON, "KD,KH,KS",
         moves=["1:QS", "2:AH", "0:2S"],
         expect={"total": 0, "tricks": {0: ["QS", "AH", "2S"]}, "current": 0}),
    Case("rule5-no-legal-card-pass-skips-to-following-player", PASS_ON, "KD,KH,KS",
         moves=["1:5C", "2:7C", "1:AS"],
         expect={"tricks": {1: ["5C", "7C", "AS"]}, "current": 1, "pass_events": [0],
                 "passes": 1, "pass_text": "passes (has no legal card)"}),
    Case("rule6-blocked-at-once-no-pass-counted", {1: "QS,QC,JS,JC,10S,10C,9S",
                                                   0: "2S,3S,4S,5S,6S,7S,8S"}, exact=True,
         moves=["1:QS"], expect={"over": True, "reason": "blocked", "passes": 0,
                                 "cards_won": [0, 0], "winners": [0, 1]}),
    # ----- variant simple ten ---------------------------------------------------------------
    Case("simple-ten-flapjack-at-10", {1: "4S,2S,3S,5S,8S,9S,AS", 0: "6C,2H,3H,4H,5H,8H,9H"},
         "10S", cfg={"variant": "simple-ten"}, moves=["1:4S", "0:6C"],
         expect={"tricks": {0: ["4S", "6C"]}, "current": 0, "pile_size": 24}),
    Case("simple-ten-flapjack-at-minus-10", {1: "4H,2S,3S,5S,8S,9S,AS", 0: "6D,2H,3H,5H,7H,8H,9H"},
         cfg={"variant": "simple-ten"}, moves=["1:4H", "0:6D"],
         expect={"tricks": {0: ["4H", "6D"]}}),
    Case("simple-ten-ten-lead-is-flapjack", {1: "10S,2S,3S,5S,8S,9S,AS",
                                             0: "6D,2H,3H,4H,5H,8H,9H"},
         cfg={"variant": "simple-ten"}, moves=["1:10S"], expect={"tricks": {1: ["10S"]}}),
    Case("simple-ten-limit-10", {1: "5S,2S,3S,4S,8S,9S,AS", 0: "6C,7C,2H,3H,4H,8H,9H"},
         cfg={"variant": "simple-ten"}, moves=["1:5S"],
         expect={"legal": ["2H", "3H", "4H", "8H", "9H"]}),
    # ----- variant add or subtract -------------------------------------------------------------
    Case("add-or-subtract-lead-only-adds-red-counts-positive",
         {1: "5H,2S,3S,4S,8S,9S,AS", 0: "6C,7C,2H,3H,4H,8H,9H"},
         cfg={"variant": "add-or-subtract"}, moves=["1:5H"],
         expect={"total": 5, "legal": ["6C+", "7C+", "2H+", "2H-", "3H+", "3H-", "4H+", "4H-",
                                       "8H+"]}),
    Case("add-or-subtract-subtract-to-zero-is-flapjack",
         {1: "5H,2S,3S,4S,8S,9S,AS", 0: "5C,7C,2H,3H,4H,8H,9H"},
         cfg={"variant": "add-or-subtract"}, moves=["1:5H", "0:5C-"],
         expect={"tricks": {0: ["5H", "5C"]}, "current": 0, "flapjack_math": "total = 0"}),
    Case("add-or-subtract-add-to-13-is-flapjack",
         {1: "5H,2S,3S,4S,8S,9S,AS", 0: "8D,7C,2H,3H,4H,8H,9H"},
         cfg={"variant": "add-or-subtract"}, moves=["1:5H", "0:8D"],
         expect={"tricks": {0: ["5H", "8D"]}, "flapjack_math": "total = 13"}),
    Case("add-or-subtract-king-lead-is-flapjack",
         {1: "KH,2S,3S,4S,8S,9S,AS", 0: "8D,7C,2H,3H,4H,8H,9H"},
         cfg={"variant": "add-or-subtract"}, moves=["1:KH"], expect={"tricks": {1: ["KH"]}}),
    Case("add-or-subtract-subtract-keeps-total-at-least-0",
         {1: "9S,2S,3S,4S,8S,AS,AC", 0: "8D,7C,2H,3H,4H,8H,10H"},
         cfg={"variant": "add-or-subtract"}, moves=["1:9S", "0:7C-", "1:AS-"],
         expect={"total": 1, "current": 0}),
    Case("add-or-subtract-colors-ignored-red-positive",
         {1: "5S,2S,3S,4S,8S,9S,AS", 0: "8C,7C,2H,3H,4H,8H,9H"},
         cfg={"variant": "add-or-subtract", "colors": "red-positive"}, moves=["1:5S", "0:8C"],
         expect={"tricks": {0: ["5S", "8C"]}}),
    # ----- variant signed add or subtract ---------------------------------------------------
    # every card keeps its colour's sign; after the lead the player adds or subtracts it
    Case("signed-aos-lead-only-adds-red-counts-negative",
         {1: "5H,2S,3S,4S,8S,9S,AS", 0: "6C,7C,2H,3H,4H,8H,9H"},
         cfg={"variant": "signed-add-or-subtract"}, moves=["1:5H"],
         expect={"total": -5, "legal": ["6C+", "6C-", "7C+", "7C-", "2H+", "2H-", "3H+",
                                        "3H-", "4H+", "4H-", "8H+", "8H-", "9H-"]}),
    Case("signed-aos-subtracting-a-negative-moves-up",
         {1: "5S,2S,3S,4S,8S,9S,AS", 0: "7H,6C,2H,3H,4H,9H,10H"},
         cfg={"variant": "signed-add-or-subtract"}, moves=["1:5S", "0:7H-"],
         expect={"total": 12, "table": ["5S", "7H"], "current": 1,
                 "play_math": "+5 - (-7) = +12"}),
    Case("signed-aos-adding-a-negative-moves-down",
         {1: "5S,2S,3S,4S,8S,9S,AS", 0: "7H,6C,2H,3H,4H,9H,10H"},
         cfg={"variant": "signed-add-or-subtract"}, moves=["1:5S", "0:7H"],
         expect={"total": -2, "play_math": "+5 + (-7) = -2"}),
    Case("signed-aos-subtract-a-positive-to-minus-13-is-flapjack",
         {1: "4H,2S,3S,4S,8S,9S,AS", 0: "9C,6C,2H,3H,5H,9H,10H"},
         cfg={"variant": "signed-add-or-subtract"}, moves=["1:4H", "0:9C-"],
         expect={"tricks": {0: ["4H", "9C"]}, "current": 0, "flapjack_math": "total = -13",
                 "play_math": "-4 - (+9) = -13"}),
    Case("signed-aos-subtract-equal-negative-to-zero-is-flapjack",
         {1: "6D,2S,3S,4S,8S,9S,AS", 0: "6H,6C,2H,3H,5H,9H,10H"},
         cfg={"variant": "signed-add-or-subtract"}, moves=["1:6D", "0:6H-"],
         expect={"tricks": {0: ["6D", "6H"]}, "flapjack_math": "total = 0"}),
    Case("signed-aos-red-positive-subtract-black",
         {1: "5H,2S,3S,4S,8S,9S,AS", 0: "8C,7C,2H,3H,4H,8H,9H"},
         cfg={"variant": "signed-add-or-subtract", "colors": "red-positive"},
         moves=["1:5H", "0:8C-"],
         expect={"tricks": {0: ["5H", "8C"]}, "play_math": "+5 - (-8) = +13"}),
    # ----- settings piece by piece ------------------------------------------------------------
    Case("piece-limit-10-with-face-cards", {1: "4S,2S,3S,5S,8S,9S,KS", 0: "6C,2H,3H,4H,5H,8H,9H"},
         cfg={"limit": 10}, moves=["1:4S", "0:6C"], expect={"tricks": {0: ["4S", "6C"]}}),
    Case("piece-limit-10-king-cannot-lead", {1: "4S,2S,3S,5S,8S,9S,KS",
                                             0: "6C,2H,3H,4H,5H,8H,9H"},
         cfg={"limit": 10}, expect={"legal": ["4S", "2S", "3S", "5S", "8S", "9S"]}),
    Case("piece-targets-zero-only-king-is-no-flapjack",
         {1: "KS,2S,3S,5S,8S,9S,4S", 0: "KH,2H,3H,4H,5H,8H,9H"},
         cfg={"targets": (0,)}, moves=["1:KS", "0:KH"],
         expect={"tricks": {0: ["KS", "KH"]}, "flapjacks": [1, 0]}),
    Case("piece-red-positive-classic", {1: "6H,2S,3S,4S,5S,8S,9S", 0: "7D,2H,3H,4H,5H,8H,9H"},
         TWO_PILE, cfg={"colors": "red-positive"}, moves=["1:6H", "0:7D"],
         expect={"tricks": {0: ["6H", "7D"]}, "flapjack_math": "total = +13"}),
    Case("several-decks-twin-cards-are-two-cards",
         {1: "KS,KS,2S,3S,4S,5S,6S", 0: "7D,2H,3H,4H,5H,8H,9H"}, "KH",
         cfg={"decks": 2}, moves=["1:KS", "1:KS#1"],
         expect={"tricks": {1: ["KS", "KS#1"]}, "pile_size": 104 - 14 - 2,
                 "hand_has": {1: "KH"}}),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_stacked_game(case: Case) -> None:
    state = play(case)
    ex = case.expect
    n = state.players
    if "hands" in ex:
        for seat, text in ex["hands"].items():
            assert keys(state.hands[seat]) == [c.key for c in
                                              [card_from_json(k) for k in text.split(",") if k]]
    if "hand_has" in ex:
        for seat, code in ex["hand_has"].items():
            assert parse_card(code) in state.hands[seat] or code in keys(state.hands[seat])
    if "pile_top" in ex:
        assert [c.code for c in state.draw_pile[: len(ex["pile_top"])]] == ex["pile_top"]
    if "pile_size" in ex:
        assert len(state.draw_pile) == ex["pile_size"]
    if "current" in ex:
        assert state.current == ex["current"]
    if "total" in ex:
        assert state.total == ex["total"]
    if "table" in ex:
        assert keys([c for c, _ in state.table]) == ex["table"]
    if "tricks" in ex:
        for seat in range(n):
            assert keys(state.tricks[seat]) == ex["tricks"].get(seat, [])
    if "flapjacks" in ex:
        assert state.flapjacks == ex["flapjacks"]
    aos = state.config.add_or_subtract
    if "flapjack_math" in ex:
        fj = [e for e in state.events if e.kind is EventKind.FLAPJACK]
        assert fj and log_parts(fj[-1], aos, not state.config.signed)[1] == ex["flapjack_math"]
        assert fj[-1].after == int(ex["flapjack_math"].split("= ")[1])
    if "play_math" in ex:
        plays = [e for e in state.events if e.kind is EventKind.PLAY]
        assert log_parts(plays[-1], aos, not state.config.signed)[1] == ex["play_math"]
    if "draw_events" in ex:
        assert [e.player for e in state.events if e.kind is EventKind.DRAW] == ex["draw_events"]
    if "legal" in ex:
        aos = state.config.add_or_subtract
        got = [a.card.code + (("-" if a.sign < 0 else "+") if aos else "")
               for a in state.legal_actions()]
        assert got == ex["legal"]
    if "over" in ex:
        assert state.is_over is ex["over"]
    if "reason" in ex:
        assert state.end_reason is EndReason(ex["reason"])
        assert state.result().reason is EndReason(ex["reason"])
        assert state.events[-1].kind is EventKind.END
    if "cards_won" in ex:
        assert list(state.result().cards_won) == ex["cards_won"]
        assert [len(t) for t in state.tricks] == ex["cards_won"]
        assert list(state.events[-1].values) == ex["cards_won"]
        assert log_parts(state.events[-1])[1] == "cards won by seat: " + ", ".join(
            str(n) for n in ex["cards_won"])
    if "winners" in ex:
        res = state.result()
        assert list(res.winners) == ex["winners"]
        assert res.tie is (len(ex["winners"]) > 1)
    if "passes" in ex:
        assert state.passes == ex["passes"]
    if "plays" in ex:
        assert state.plays == ex["plays"]
    if "pass_events" in ex:
        assert [e.player for e in state.events if e.kind is EventKind.PASS] == ex["pass_events"]
    if "pass_text" in ex:
        first = [e for e in state.events if e.kind is EventKind.PASS][0]
        assert log_parts(first)[0] == ex["pass_text"]
        assert first.reason == ("no-cards" if "no cards" in ex["pass_text"] else "no-legal-card")
    if "unwon" in ex:
        won = sum(len(t) for t in state.tricks)
        assert len(state.all_cards()) - won == ex["unwon"]
    full = (parse_cards(stack(case.hands, case.pile)) if case.exact
            else make_deck(state.config.decks, state.config.ranks))
    assert sorted(state.all_cards()) == sorted(full), "every card in exactly one place"


# ----- limit messages, sign rules and other illegal moves ------------------------------------
def test_limit_messages() -> None:
    state = play(Case("", {1: "9S,2S,3S,4S,5S,8S,AS", 0: "5C,9H,2H,3H,4H,8H,JH"}, TWO_PILE,
                      moves=["1:9S"]))
    assert_illegal(state, Play(parse_card("5C")), 0,
                   r"the total would be \+14, greater than the limit \+13")
    why = state.why_illegal(0, parse_card("5C"))
    assert why == Why(Reason.LIMIT_EXCEEDED, {"card": "5C", "value": 5, "before": 9, "total": 14,
                                              "limit": 13})
    assert reason_text(why) == "the total would be +14, greater than the limit +13"
    state2 = play(Case("", {1: "9H,2S,3S,4S,5S,8S,AS", 0: "5D,9S,2H,3H,4H,8H,JH"}, TWO_PILE,
                       moves=["1:9H"]))
    assert_illegal(state2, Play(parse_card("5D")), 0,
                   "the total would be -14, less than the limit -13")
    assert state2.why_illegal(0, parse_card("9S")) is None


def test_illegal_moves_classic() -> None:
    state = play(Case("", TWO, TWO_PILE, moves=["1:6S"]))
    assert state.current == 0
    assert_illegal(state, Play(parse_card("2S")), 1, "it is player 0's turn, not player 1's")
    assert_illegal(state, Play(parse_card("2S")), 0, "2S is not in player 0's hand")
    assert_illegal(state, Play(parse_card("10S")), 0, "not in player 0's hand")  # drawn by 1
    assert_illegal(state, Play(parse_card("AC")), 0, "not in player 0's hand")  # in the pile
    assert_illegal(state, Play(parse_card("6S")), 0, "not in player 0's hand")  # on the table
    assert_illegal(state, Play(Card(7, Suit.CLUBS, copy=1)), 0, "not in player 0's hand")
    assert_illegal(state, Play(parse_card("2H"), -1), 0, "added with their own sign")
    assert_illegal(state, Play(parse_card("2H"), 2), 0, "the sign must be")
    assert_illegal(state, Play(parse_card("2H"), 0), 0, "the sign must be")
    assert_illegal(state, Play(parse_card("2H"), 1.0), 0, r"must be \+1 \(add\) or -1")
    assert_illegal(state, "2H", 0, "not a Flapjack move")
    assert_illegal(state, Play("2H"), 0, "not a Flapjack move")
    assert_illegal(state, Play(parse_card("2H")), 5, "no such player: 5")
    assert_illegal(state, Play(parse_card("2H")), 0.0, "no such player: 0.0")
    assert_illegal(state, Play(parse_card("2H")), False, "no such player: False")
    assert_illegal(state, Play(parse_card("2H")), "0", "no such player")
    assert state.legal_actions(1) == []


def test_illegal_moves_add_or_subtract() -> None:
    case = Case("", {1: "5H,2S,3S,4S,8S,9S,AS", 0: "6C,7C,2H,3H,4H,8H,9H"},
                cfg={"variant": "add-or-subtract"})
    state = play(case)
    assert_illegal(state, Play(parse_card("5H"), -1), 1, "a lead can only add")
    assert all(a.sign == 1 for a in state.legal_actions())
    state.apply_action(Play(parse_card("5H")))
    assert_illegal(state, Play(parse_card("6C"), -1), 0,
                   "the total would be -1, less than the limit 0")
    assert_illegal(state, Play(parse_card("9H"), 1), 0,
                   r"the total would be \+14, greater than the limit \+13")
    assert_illegal(state, Play(parse_card("9H"), 2), 0, "the sign must be")
    assert_illegal(state, Play(parse_card("2H"), -1.0), 0, "the sign must be")
    assert_illegal(state, Play(parse_card("2H"), True), 0, "the sign must be")
    state.apply_action(Play(parse_card("2H"), -1))
    assert state.total == 3


def test_illegal_moves_signed_add_or_subtract() -> None:
    case = Case("", {1: "5H,2S,3S,4S,8S,9S,AS", 0: "6C,7C,2H,3H,4H,8H,9H"},
                cfg={"variant": "signed-add-or-subtract"})
    state = play(case)
    assert_illegal(state, Play(parse_card("5H"), -1), 1, "a lead can only add")
    state.apply_action(Play(parse_card("5H")))
    assert_illegal(state, Play(parse_card("9H"), 1), 0,
                   "the total would be -14, less than the limit -13")
    assert state.why_illegal(0, parse_card("8H"), 1) is None  # -5 + (-8) = -13, a Flapjack
    state.apply_action(Play(parse_card("9H"), -1))  # -5 - (-9) = +4
    assert state.total == 4


def test_move_after_the_end_is_refused() -> None:
    state = play(Case("", BLOCK, exact=True, moves=["1:QS", "1:AS", "1:QC"]))
    assert state.is_over and state.legal_actions() == [] and state.legal_actions(0) == []
    for seat in (0, 1, None):
        assert_illegal(state, Play(parse_card("JS")), seat, "over")
    assert state.why_illegal(1, parse_card("JS")) == Why(Reason.GAME_OVER)
    assert reason_text(state.why_illegal(1, parse_card("JS"))) == "the game is over"


def test_why_illegal_agrees_with_legal_actions() -> None:
    state = play(Case("", {1: "5H,2S,3S,4S,8S,9S,AS", 0: "6C,7C,2H,3H,4H,8H,9H"},
                      cfg={"variant": "add-or-subtract"}, moves=["1:9S"]))
    legal = set(state.legal_actions())
    for card in state.hands[0]:
        for sign in (1, -1):
            assert (state.why_illegal(0, card, sign) is None) == (Play(card, sign) in legal)


# ----- settings ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("kwargs", "low", "high", "targets", "size", "faces", "aos"),
    [
        ({}, -13, 13, (-13, 0, 13), 52, True, False),
        ({"variant": "classic"}, -13, 13, (-13, 0, 13), 52, True, False),
        ({"variant": "simple-ten"}, -10, 10, (-10, 0, 10), 40, False, False),
        ({"variant": "Simple ten"}, -10, 10, (-10, 0, 10), 40, False, False),
        ({"variant": "add-or-subtract"}, 0, 13, (0, 13), 52, True, True),
        ({"variant": "add_or_subtract"}, 0, 13, (0, 13), 52, True, True),
        ({"variant": "signed-add-or-subtract"}, -13, 13, (-13, 0, 13), 52, True, True),
        ({"variant": "Signed add or subtract"}, -13, 13, (-13, 0, 13), 52, True, True),
        ({"add_or_subtract": True, "signed": True}, -13, 13, (-13, 0, 13), 52, True, True),
        ({"variant": "signed-add-or-subtract", "face_cards": False, "limit": 10}, -10, 10,
         (-10, 0, 10), 40, False, True),
        ({"limit": 10}, -10, 10, (-10, 0, 10), 52, True, False),
        ({"face_cards": False}, -13, 13, (-13, 0, 13), 40, False, False),
        ({"add_or_subtract": True}, 0, 13, (0, 13), 52, True, True),
        ({"variant": "simple-ten", "limit": 13}, -13, 13, (-13, 0, 13), 40, False, False),
        ({"variant": "simple-ten", "face_cards": True}, -10, 10, (-10, 0, 10), 52, True, False),
        ({"variant": "add-or-subtract", "face_cards": False}, 0, 13, (0, 13), 40, False, True),
        ({"variant": "add-or-subtract", "limit": 10}, 0, 10, (0, 10), 52, True, True),
        ({"targets": (0,)}, -13, 13, (0,), 52, True, False),
        ({"targets": [13, -13]}, -13, 13, (-13, 13), 52, True, False),
        ({"decks": 3}, -13, 13, (-13, 0, 13), 156, True, False),
        ({"variant": "simple-ten", "decks": 2}, -10, 10, (-10, 0, 10), 80, False, False),
    ],
    ids=["default", "classic", "simple-ten", "simple-ten-spaced-name", "add-or-subtract",
         "add-or-subtract-underscores", "signed-aos", "signed-aos-spaced-name",
         "piece-signed-aos", "signed-aos-no-faces-limit-10", "piece-limit", "piece-no-face-cards",
         "piece-add-or-subtract", "simple-ten-limit-13", "simple-ten-with-faces",
         "add-or-subtract-no-faces", "add-or-subtract-limit-10", "piece-targets",
         "piece-targets-list", "three-decks", "simple-ten-two-decks"],
)
def test_variant_settings(kwargs: dict[str, Any], low: int, high: int,
                          targets: tuple[int, ...], size: int, faces: bool, aos: bool) -> None:
    cfg = FlapjackConfig(**kwargs)
    assert (cfg.low, cfg.high, cfg.targets) == (low, high, targets)
    assert (cfg.deck_size(), cfg.face_cards, cfg.add_or_subtract) == (size, faces, aos)
    assert FlapjackConfig.from_json(json.loads(json.dumps(cfg.to_json()))) == cfg
    state = FlapjackState.deal(cfg, rng=1)
    assert sorted(state.all_cards()) == sorted(make_deck(cfg.decks, cfg.ranks))
    assert len(state.all_cards()) == size
    assert all(len(h) == 7 for h in state.hands)
    if not faces:
        assert max(c.rank for c in state.all_cards()) == 10


@pytest.mark.parametrize(
    ("card", "kwargs", "value"),
    [("KS", {}, 13), ("QH", {}, -12), ("JC", {}, 11), ("AD", {}, -1),
     ("KS", {"colors": "red-positive"}, -13), ("QH", {"colors": "red-positive"}, 12),
     ("QH", {"variant": "add-or-subtract"}, 12),
     ("QH", {"variant": "add-or-subtract", "colors": "red-positive"}, 12),
     ("10D", {"variant": "simple-ten"}, -10),
     ("QH", {"variant": "signed-add-or-subtract"}, -12),
     ("QH", {"variant": "signed-add-or-subtract", "colors": "red-positive"}, 12),
     ("7C", {"add_or_subtract": True, "signed": True}, 7)],
)
def test_card_values(card: str, kwargs: dict[str, Any], value: int) -> None:
    assert FlapjackConfig(**kwargs).value(parse_card(card)) == value


def test_variant_titles() -> None:
    """Every variant of the registry has its short name in words (the engine holds none)."""
    from engine.games import settings_of
    from widgets.words import variant_title

    assert [variant_title(v) for v in settings_of("flapjack").choices_of("variant")] == [
        "Classic", "Simple ten", "Add or subtract", "Signed add or subtract"]
    assert not hasattr(FlapjackConfig(), "title")


@pytest.mark.parametrize(
    ("kwargs", "pattern"),
    [
        ({"players": 1}, "players must be 2 to 20; got 1"),
        ({"players": None}, "players must be a whole number"),
        ({"decks": 0}, "decks must be 1 to 8; got 0"),
        ({"players": 8}, "decks must be enough to deal 7 cards to each of 8 players"),
        ({"players": 15, "decks": 2}, "decks must be enough"),
        ({"players": 6, "variant": "simple-ten"}, r"1 deck\(s\) hold 40 cards, 42 are needed"),
        ({"variant": "poker"}, "variant must be one of classic, simple-ten, add-or-subtract, "
                               "signed-add-or-subtract"),
        ({"colors": "purple"}, "colors must be one of black-positive, red-positive"),
        ({"limit": 0}, "limit must be 1 to 100"),
        ({"limit": "13"}, "limit must be a whole number"),
        ({"face_cards": "no"}, "face_cards must be true or false"),
        ({"add_or_subtract": 1}, "add_or_subtract must be true or false"),
        ({"signed": "yes"}, "signed must be true or false"),
        ({"targets": (14,)}, r"targets must lie within -13..13"),
        ({"targets": ()}, "targets must lie within"),
        ({"targets": ("x",)}, "targets must be whole numbers"),
        ({"variant": "add-or-subtract", "targets": (-13,)}, "targets must lie within 0..13"),
    ],
    ids=["one-player", "players-none", "zero-decks", "too-few-decks-8p", "too-few-decks-15p",
         "simple-ten-6p-one-deck", "unknown-variant", "bad-colors", "limit-0", "limit-text",
         "face-cards-text", "add-or-subtract-int", "signed-text", "target-out-of-range",
         "no-targets", "target-text", "negative-target-add-or-subtract"],
)
def test_bad_settings_refused_naming_setting(kwargs: dict[str, Any], pattern: str) -> None:
    with pytest.raises(ConfigError, match=pattern):
        FlapjackConfig(**kwargs)


def test_enough_decks_accepted() -> None:
    assert FlapjackConfig(players=7).deck_size() == 52
    assert FlapjackConfig(players=8, decks=2).deck_size() == 104
    assert FlapjackConfig(players=5, variant="simple-ten").deck_size() == 40
    assert FlapjackConfig(players=6, variant="simple-ten", decks=2).deck_size() == 80


@pytest.mark.parametrize(
    ("kwargs", "deck", "pattern"),
    [
        ({}, "KS,KS", "more often"),
        ({"variant": "simple-ten"}, "KS", "KS is not in this variant's 1 deck"),
        ({}, "KS,XX", "not a card code"),
        ({}, "KS,7H", "cannot deal 7 to each"),
    ],
    ids=["repeat-needs-two-decks", "simple-ten-has-no-kings", "bad-code", "exact-too-short"],
)
def test_bad_stacked_decks(kwargs: dict[str, Any], deck: str, pattern: str) -> None:
    with pytest.raises(ConfigError, match=pattern):
        FlapjackState.deal(FlapjackConfig(**kwargs), rng=0, deck=deck, exact=True)


def test_bad_dealer() -> None:
    with pytest.raises(ConfigError, match="dealer must be 0 to 1"):
        FlapjackState.deal(FlapjackConfig(), dealer=2)


def test_same_seed_same_deal_and_game() -> None:
    cfg = FlapjackConfig(players=3)
    a, b, c = (FlapjackState.deal(cfg, rng=s) for s in (4, 4, 5))
    assert a.to_json() == b.to_json() and a.to_json() != c.to_json()


def test_several_decks_deal_and_json() -> None:
    cfg = FlapjackConfig(players=8, decks=2)
    state = FlapjackState.deal(cfg, rng=9)
    assert len({c.key for c in state.all_cards()}) == 104
    assert state.current == 1 and len(state.draw_pile) == 104 - 56
    copy = FlapjackState.from_json(json.loads(json.dumps(state.to_json())))
    assert copy.to_json() == state.to_json() and copy == state


def test_result_is_none_until_over() -> None:
    state = play(Case("", TWO, TWO_PILE))
    assert state.result() is None and not state.is_over and state.end_reason is None
    with pytest.raises(IllegalActionError):
        state.apply_action(Play(parse_card("7C")))


def test_seat_0_is_the_first_dealer_so_the_first_card_goes_to_seat_1() -> None:
    state = FlapjackState.deal(FlapjackConfig(players=3), rng=1, deck="KS,7H,10C,AS")
    assert state.dealer == 0 and state.current == 1
    assert [h[0].code for h in state.hands] == ["10C", "KS", "7H"]
    assert state.hands[1][1].code == "AS"


def test_deck_as_a_list_of_codes() -> None:
    state = FlapjackState.deal(FlapjackConfig(), rng=1, deck=["KS", "7H", "10c"])
    assert [c.code for c in state.hands[1][:2]] == ["KS", "10C"]
    with pytest.raises(ConfigError, match="not a card code"):
        FlapjackState.deal(FlapjackConfig(), rng=1, deck=["KS", None])
