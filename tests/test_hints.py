"""Hints: computed from the student's own observation only, with exact counts."""

from __future__ import annotations

import copy
import random
import re

import pytest

from engine import FlapjackConfig, FlapjackState, HitMeConfig, HitMeRound, Play, parse_card
from engine.errors import ConfigError
from widgets.words import flapjack_hint, hit_me_hint

FORBIDDEN = re.compile(r"\b(bigger|smaller|biggest|smallest)\b", re.IGNORECASE)


def test_hit_me_hint_counts_the_unseen_cards_exactly() -> None:
    config = HitMeConfig(players=2)
    # seat 1: face-down 5S (+5), face-up 2H (-2): sum +3. Seat 0 shows 9C (+9).
    rnd = HitMeRound.deal(config, rng=1, deck="5S,7C,2H,9C")
    obs = rnd.observation(1)
    hint = hit_me_hint(obs)
    # 49 unseen cards. Closer to zero from +3: -1 (2 aces), -2 (only 2D left), -3 (2),
    # -4 (2), -5 (5H, 5D) = 9; -3 makes 0 (2 cards); -6 keeps the distance 3 (2 cards).
    assert "Your sum is +3" in hint and "|+3| = 3" in hint
    assert "9 of the 49 cards you have not seen" in hint
    assert "2 of them all the way to 0" in hint
    assert "2 would leave it just as far from zero" in hint
    assert "38 would take it farther from zero" in hint
    assert "It is your turn" in hint
    assert not FORBIDDEN.search(hint)


def test_hit_me_hint_negative_sum_and_not_your_turn() -> None:
    config = HitMeConfig(players=2)
    rnd = HitMeRound.deal(config, rng=1, deck="7C,8H,5S,AD")  # seat 0: -8 + (-1) = -9
    hint = hit_me_hint(rnd.observation(0))
    assert "Your sum is -9" in hint and "|-9| = 9" in hint
    assert "When your turn comes" in hint
    rnd.apply_action(rnd.legal_actions()[1], 1)  # seat 1 holds
    hint = hit_me_hint(rnd.observation(0))
    assert "Already done: Seat 1 (face-up sum +5)" in hint


def test_hit_me_hint_at_zero_and_after_holding() -> None:
    config = HitMeConfig(players=2)
    rnd = HitMeRound.deal(config, rng=1, deck="5S,7C,5H,9C")
    assert "any card moves your sum away from 0" in hit_me_hint(rnd.observation(1))
    rnd.apply_action(rnd.legal_actions()[1], 1)  # hold
    assert "You hold at 0" in hit_me_hint(rnd.observation(1))


def test_hints_depend_only_on_the_observation() -> None:
    config = HitMeConfig(players=3)
    a = HitMeRound.deal(config, rng=9, deck="5S,KH,2D,3H,9C,4S,7C,8C")
    b = HitMeRound.deal(config, rng=9, deck="5S,7C,8C,3H,9C,4S,KH,2D")
    assert a.observation(1) == b.observation(1)
    assert hit_me_hint(a.observation(1)) == hit_me_hint(b.observation(1))
    obs = a.observation(1)
    frozen = copy.deepcopy(obs)
    hit_me_hint(obs)
    assert obs == frozen


def test_hints_need_a_seat() -> None:
    rnd = HitMeRound.deal(HitMeConfig(players=2), rng=1)
    with pytest.raises(ConfigError):
        hit_me_hint(rnd.observation(None))
    state = FlapjackState.deal(FlapjackConfig(players=2), rng=1)
    with pytest.raises(ConfigError):
        flapjack_hint(state.observation(None))


def flapjack_after_lead() -> FlapjackState:
    config = FlapjackConfig(players=2)
    hand1 = ["5S", "9H", "2C", "QD", "7S", "AH", "10C"]
    hand0 = ["3D", "4C", "6H", "8H", "JC", "5H", "KD"]
    deck = [c for pair in zip(hand1, hand0, strict=True) for c in pair]
    state = FlapjackState.deal(config, rng=2, deck=",".join(deck))
    state.apply_action(Play(parse_card("5S")), 1)  # total +5
    return state


def test_flapjack_hint_names_the_flapjack_and_counts_unseen_finishers() -> None:
    state = flapjack_after_lead()
    obs = state.observation(0)
    hint = flapjack_hint(obs)
    assert hint.startswith("The total is +5.")
    assert "Flapjack now: 5\u2665 (-5) makes 0, and you would take 2 cards." in hint
    # Seen by seat 0: its 7 cards and the 5S played, so 44 unseen.
    assert "Your other plays (counting the 44 cards you have not seen)" in hint
    # 3D (-3) leaves +2: finishers are -2 (2D, 2H) and +11 (JS; JC is in the hand) = 3.
    assert "3\u2666 (-3) leaves +2, which 3 unseen cards could turn into a Flapjack" in hint
    # JC (+11) would make +16: past the limit.
    assert "You cannot play J\u2663 (+11)" in hint
    assert not FORBIDDEN.search(hint)


def test_flapjack_hint_not_your_turn_and_add_or_subtract() -> None:
    state = flapjack_after_lead()
    assert flapjack_hint(state.observation(1)).startswith("It is not your turn")
    config = FlapjackConfig(players=2, variant="add-or-subtract")
    state = FlapjackState.deal(config, rng=random.Random(3))
    hint = flapjack_hint(state.observation(state.current))
    assert hint.startswith("You lead: the table is empty.")
    assert "(add " in hint and "(subtract" not in hint  # a lead can only add
    assert "+" not in hint  # numbers are written without signs in this variant
