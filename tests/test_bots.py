"""Computer players: legal moves only, no hidden information, exact threshold rule, readable
reasons, greedy takes a Flapjack, and the expert clearly beats random play."""

from __future__ import annotations

import copy
import random
import re

import pytest

from engine import (
    FlapjackConfig,
    FlapjackState,
    Hit,
    HitMeConfig,
    HitMeGame,
    HitMeRound,
    Hold,
    Play,
    parse_card,
)
from engine.bots import BOT_LEVELS, Decision, best_sum, make_bot
from engine.errors import ConfigError
from engine.simulate import simulate_flapjack
from widgets.words import bot_reason_text

FORBIDDEN = re.compile(r"\b(bigger|smaller|biggest|smallest)\b", re.IGNORECASE)


def check_reason(reason: str) -> None:
    """One readable sentence: capital first, a full stop last, no vague size words."""
    assert isinstance(reason, str) and len(reason) > 15, reason
    assert reason[0].isupper(), reason
    assert reason.endswith((".", "!")), reason
    assert reason.count(". ") == 0, f"more than one sentence: {reason}"
    assert not FORBIDDEN.search(reason), reason


def card(code: str):
    return parse_card(code)


# ----- making bots -----------------------------------------------------------------------------


def test_make_bot_specs_and_levels() -> None:
    for game, levels in BOT_LEVELS.items():
        for level, spec in levels.items():
            bot = make_bot(level, game, 1)
            assert bot.spec == spec
            assert bot.name in spec
            assert bot.description
    bot = make_bot("threshold:3", "hit-me", random.Random(2))
    assert (bot.name, bot.spec, bot.threshold) == ("threshold", "threshold:3", 3)
    assert make_bot("expert", "hitme").name == "expert"


@pytest.mark.parametrize(("spec", "game"), [
    ("threshold", "hit-me"), ("threshold:x", "hit-me"), ("threshold:-1", "hit-me"),
    ("greedy", "hit-me"), ("threshold:3", "flapjack"), ("genius", "flapjack"),
    ("random", "poker"),
])
def test_make_bot_refuses_bad_specs(spec: str, game: str) -> None:
    with pytest.raises(ConfigError) as err:
        make_bot(spec, game)
    assert "must be" in str(err.value) or "written" in str(err.value)


# ----- legal actions and reasons over many seeded games -----------------------------------------


@pytest.mark.parametrize("spec", ["random", "threshold:0", "threshold:4", "threshold:30",
                                  "expert"])
@pytest.mark.parametrize(("players", "options"), [
    (2, {}), (4, {"ace_eleven": True}), (3, {"turn_order": "all-at-once"}),
    (8, {"colors": "red-positive"}),
])
def test_hit_me_bots_play_only_legal_actions(spec: str, players: int, options: dict) -> None:
    config = HitMeConfig(players=players, **options)
    game = HitMeGame(config, seed=f"{spec}{players}")
    bots = [make_bot(spec, "hit-me", random.Random(i)) for i in range(players)]
    rounds = 5 if spec == "expert" else 15
    for _ in range(rounds):
        rnd = game.round
        while not rnd.players_done:
            seat = rnd.current
            obs = rnd.observation(seat)
            legal = rnd.legal_actions(seat)
            frozen = copy.deepcopy(obs)
            decision = bots[seat].choose(obs, legal)
            assert isinstance(decision, Decision)
            assert decision.action in legal
            assert isinstance(decision.action, Hit | Hold)
            assert obs == frozen, "the bot changed its observation"
            check_reason(bot_reason_text(decision))
            rnd.apply_action(decision.action, seat)
        game.next_round()


@pytest.mark.parametrize("spec", ["random", "greedy", "expert"])
@pytest.mark.parametrize(("players", "variant", "decks"), [
    (2, "classic", 1), (3, "simple-ten", 1), (4, "add-or-subtract", 1), (8, "classic", 2),
    (3, "signed-add-or-subtract", 1),
])
def test_flapjack_bots_play_only_legal_actions(spec: str, players: int, variant: str,
                                               decks: int) -> None:
    config = FlapjackConfig(players=players, variant=variant, decks=decks)
    rng = random.Random(f"{spec}{variant}{players}")
    bots = [make_bot(spec, "flapjack", random.Random(i)) for i in range(players)]
    for _ in range(4):
        state = FlapjackState.deal(config, rng)
        while not state.is_over:
            seat = state.current
            obs = state.observation(seat)
            legal = state.legal_actions(seat)
            frozen = copy.deepcopy(obs)
            decision = bots[seat].choose(obs, legal)
            assert decision.action in legal
            assert obs == frozen
            check_reason(bot_reason_text(decision))
            state.apply_action(decision.action, seat)


@pytest.mark.parametrize("spec", ["greedy", "expert"])
def test_flapjack_bots_subtract_a_negative_card_for_a_flapjack(spec: str) -> None:
    """Signed add or subtract: +6 - (-7) = +13 is the one Flapjack in seat 0's hand."""
    config = FlapjackConfig(players=2, variant="signed-add-or-subtract")
    # seat 1 leads 6C (+6); seat 0 holds 7H (-7) and cards that make no Flapjack from +6
    deck = "6C,7H,2C,2H,3C,4D,4C,AD,8C,9C,10C,5D,AC,10D"
    state = FlapjackState.deal(config, rng=1, deck=deck)
    state.apply_action(Play(parse_card("6C")), 1)
    obs, legal = state.observation(0), state.legal_actions(0)
    decision = make_bot(spec, "flapjack", random.Random(2)).choose(obs, legal)
    assert decision.action == Play(parse_card("7H"), -1)
    assert decision.code == "flapjack"
    assert bot_reason_text(decision) == ("I play 7♥ (subtract -7) to take the total from "
                                         "+6 to +13, a Flapjack, so I take the 2 cards in "
                                         "play.")


def test_flapjack_random_counts_copies_from_two_decks_as_two_plays() -> None:
    config = FlapjackConfig(players=2, decks=2)
    # seat 1 gets cards 1, 3, 5, ... : both copies of 5S and others.
    deck = "5S,2C,5S,2C,3D,3C,4D,4C,6D,6C,8D,8C,9D,9C"
    state = FlapjackState.deal(config, rng=1, deck=deck)
    obs, legal = state.observation(1), state.legal_actions(1)
    bot = make_bot("random", "flapjack", 3)
    chosen = {bot.choose(obs, legal).action.card.key for _ in range(400)}
    assert {"5S", "5S#1"} <= chosen
    assert len(chosen) == len(legal) == 7


# ----- hidden information -----------------------------------------------------------------------


def hit_me_pair() -> tuple[HitMeRound, HitMeRound]:
    """Two 3-player deals that differ only in the opponents' face-down cards."""
    config = HitMeConfig(players=3)
    # deal order: face-down to seats 1, 2, 0, then face-up to seats 1, 2, 0.
    a = HitMeRound.deal(config, rng=9, deck="5S,KH,2D,3H,9C,4S,7C,8C")
    b = HitMeRound.deal(config, rng=9, deck="5S,7C,8C,3H,9C,4S,KH,2D")
    return a, b


def test_hit_me_decisions_ignore_hidden_cards() -> None:
    a, b = hit_me_pair()
    assert a.face_down[2] != b.face_down[2] and a.face_down[0] != b.face_down[0]
    obs_a, obs_b = a.observation(1), b.observation(1)
    assert obs_a == obs_b
    for spec in ["random", "threshold:3", "expert"]:
        da = make_bot(spec, "hit-me", 5).choose(obs_a, a.legal_actions(1))
        db = make_bot(spec, "hit-me", 5).choose(obs_b, b.legal_actions(1))
        assert da == db


def test_flapjack_decisions_ignore_hidden_cards() -> None:
    config = FlapjackConfig(players=2)
    # dealer 0: cards go to seats 1, 0, 1, 0, ...; swap two of seat 0's cards with the pile.
    hand1 = ["5S", "9H", "2C", "QD", "7S", "AH", "10C"]
    hand0 = ["3D", "4C", "6H", "8S", "JC", "2H", "KD"]
    pile = ["9S", "4H", "7D", "AS"]
    deck_a = [c for pair in zip(hand1, hand0, strict=True) for c in pair] + pile
    hand0_b = ["9S", "4H"] + hand0[2:]
    pile_b = ["3D", "4C"] + pile[2:]
    deck_b = [c for pair in zip(hand1, hand0_b, strict=True) for c in pair] + pile_b
    a = FlapjackState.deal(config, rng=4, deck=",".join(deck_a))
    b = FlapjackState.deal(config, rng=4, deck=",".join(deck_b))
    assert a.hands[0] != b.hands[0]
    for _ in range(3):  # a few plays into the game, with the same public plays
        obs_a, obs_b = a.observation(a.current), b.observation(b.current)
        if a.current == 0:
            break
        assert obs_a == obs_b
        decisions = []
        for spec in ["random", "greedy", "expert"]:
            da = make_bot(spec, "flapjack", 8).choose(obs_a, a.legal_actions())
            db = make_bot(spec, "flapjack", 8).choose(obs_b, b.legal_actions())
            assert da == db
            decisions.append(da)
        a.apply_action(decisions[2].action)
        b.apply_action(decisions[2].action)


def test_bot_needs_its_own_seat() -> None:
    a, _ = hit_me_pair()
    with pytest.raises(ConfigError):
        make_bot("threshold:3", "hit-me").choose(a.observation(None), a.legal_actions(1))


# ----- the threshold rule -----------------------------------------------------------------------


@pytest.mark.parametrize(("down", "up", "total"), [
    ("5S", "2H", 3), ("5H", "2S", -3), ("5S", "5H", 0), ("KS", "9C", 19), ("KH", "QD", -20),
])
def test_threshold_hits_exactly_while_abs_sum_at_least_t(down: str, up: str, total: int) -> None:
    config = HitMeConfig(players=2)
    # seat 1 is dealt first: face-down, then seat 0's face-down, then seat 1's face-up.
    rnd = HitMeRound.deal(config, rng=1, deck=f"{down},7C,{up},7D")
    assert rnd.current == 1 and rnd.sum(1) == total
    obs, legal = rnd.observation(1), rnd.legal_actions(1)
    for t in range(0, 25):
        decision = make_bot(f"threshold:{t}", "hit-me").choose(obs, legal)
        expected = Hit() if abs(total) >= t else Hold()
        assert decision.action == expected, (t, total)
        check_reason(bot_reason_text(decision))
        if total < 0:
            assert str(total) in bot_reason_text(decision)  # the sign is kept: "-3"
        if total > 0:
            assert f"+{total}" in bot_reason_text(decision)


def test_threshold_counts_a_free_ace_the_best_way() -> None:
    config = HitMeConfig(players=2, ace_eleven=True)
    rnd = HitMeRound.deal(config, rng=1, deck="AS,7C,10H,7D")  # +1 - 10 = -9, or +11 - 10 = +1
    assert best_sum(-9, 1, 0) == 1
    obs, legal = rnd.observation(1), rnd.legal_actions(1)
    assert make_bot("threshold:2", "hit-me").choose(obs, legal).action == Hold()
    assert make_bot("threshold:1", "hit-me").choose(obs, legal).action == Hit()


def test_hit_me_expert_holds_at_zero_and_hits_far_from_zero() -> None:
    config = HitMeConfig(players=4)
    zero = HitMeRound.deal(config, rng=3, deck="5S,7C,8C,9C,5H,2C,3C,4C")
    far = HitMeRound.deal(config, rng=3, deck="KS,7C,8C,9C,QC,2C,3C,4C")
    bot = make_bot("expert", "hit-me", 1)
    d = bot.choose(zero.observation(1), zero.legal_actions(1))
    assert d.action == Hold() and "hold" in bot_reason_text(d)
    d = bot.choose(far.observation(1), far.legal_actions(1))
    assert d.action == Hit() and "+20" in bot_reason_text(d)


# ----- Flapjack choices -------------------------------------------------------------------------


def test_greedy_and_expert_take_an_available_flapjack() -> None:
    config = FlapjackConfig(players=2)
    hand1 = ["5S", "9H", "2C", "QD", "7S", "AH", "10C"]
    hand0 = ["3D", "4C", "6H", "8H", "JC", "5H", "KD"]
    deck = [c for pair in zip(hand1, hand0, strict=True) for c in pair]
    state = FlapjackState.deal(config, rng=2, deck=",".join(deck))
    state.apply_action(Play(card("5S")), 1)  # total +5; only seat 0's 5H (-5) makes 0
    obs, legal = state.observation(0), state.legal_actions(0)
    for spec in ["greedy", "expert"]:
        d = make_bot(spec, "flapjack", 1).choose(obs, legal)
        assert d.action == Play(card("5H")), spec
        assert "Flapjack" in bot_reason_text(d) and "0" in bot_reason_text(d) \
            and "2 cards" in bot_reason_text(d)
    # a king led is a Flapjack at once
    deck2 = list(deck)
    deck2[0], deck2[13] = "KD", "5S"  # seat 1 holds the king of diamonds (-13)
    state2 = FlapjackState.deal(config, rng=2, deck=",".join(deck2))
    obs2, legal2 = state2.observation(1), state2.legal_actions(1)
    assert make_bot("greedy", "flapjack").choose(obs2, legal2).action == Play(card("KD"))


def test_greedy_leaves_a_total_few_unseen_values_can_finish() -> None:
    config = FlapjackConfig(players=2)
    bot = make_bot("greedy", "flapjack", 1)
    rng = random.Random(5)
    checked = 0
    for _ in range(30):
        state = FlapjackState.deal(config, rng)
        obs, legal = state.observation(state.current), state.legal_actions()
        if any(state.total + config.value(a.card) in config.targets for a in legal):
            continue
        d = bot.choose(obs, legal)
        seen = [c.code for c in state.hands[state.current]]
        unseen_values = {config.value(c) for c in FlapjackState.deal(config, 0).all_cards()
                         if seen.count(c.code) == 0}

        def kinds(total: int, unseen_values: set[int] = unseen_values) -> int:
            return sum(1 for v in unseen_values if total + v in config.targets)

        chosen = kinds(state.total + config.value(d.action.card))
        assert chosen == min(kinds(state.total + config.value(a.card)) for a in legal)
        checked += 1
    assert checked > 10


# ----- strength -----------------------------------------------------------------------------------


@pytest.mark.slow
def test_flapjack_expert_clearly_beats_random() -> None:
    wins = 0.0
    games = 150
    for seat in (0, 1):
        bots = ["random", "random"]
        bots[seat] = "expert"
        res = simulate_flapjack(players=2, bots=bots, games=games, seed=f"strength{seat}")
        wins += res["win_share"][seat] * games
    share = wins / (2 * games)
    assert share > 0.7, share


@pytest.mark.slow
def test_hit_me_expert_clearly_beats_random() -> None:
    from engine.simulate import simulate_hit_me

    res = simulate_hit_me(players=3, bots=["expert", "random", "random"], rounds=150,
                          seed="strength")
    share = res["win_share"]
    # a fair share is 1/3; random play holds or hits on a coin flip
    assert share[0] > 0.42 and share[0] > 1.5 * max(share[1:]), share
