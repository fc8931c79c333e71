"""Seeded random play: thousands of games of each game, every variant, 2 to 8 players.

At every step: every card in exactly one place, totals within the limit, hits <= 5 and
cards <= 7, the turn goes where the rules say (computed here independently of the engine), the
game ends within a bound. For a sample of games also at every step: the JSON round trip gives
an equal state with the same legal actions, a clone is equal and independent. Same seed, same
history. From random states every illegal move tried raises and changes nothing.
"""

from __future__ import annotations

import itertools
import json
import random
import re
from typing import Any

import pytest
from helpers import (
    FLAPJACK_VARIANTS,
    HIT_ME_VARIANTS,
    check_flapjack_invariants,
    check_hit_me_invariants,
    expected_next_hit_me,
    flapjack_config,
    flapjack_illegal_candidates,
    hit_me_config,
    play_flapjack,
    play_hit_me_round,
)
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from engine.cards import Card, Suit
from engine.errors import IllegalActionError
from engine.events import EventKind
from engine.flapjack import EndReason, FlapjackConfig, FlapjackState, Play
from engine.hit_me import (
    MAX_CARDS,
    ChooseAce,
    Hit,
    HitMeConfig,
    HitMeGame,
    HitMeRound,
    Hold,
    Reveal,
    TurnOrder,
)
from widgets.words import reason_text

PLAYERS = range(2, 9)
HIT_ME_SEEDS = 75  # per (players, variant): 7 x 4 x 75 = 2100 rounds
FLAPJACK_SEEDS = 48  # per (players, variant): 7 x 3 x 48 = 1008 games
FULL_CHECK_SEEDS = 3  # of those, games checked with JSON round trip and clone at every step


# ----- Hit Me: independent checks ----------------------------------------------------------
def expected_final_sum(state: HitMeRound, p: int) -> int:
    """The scoring sum by brute force: chosen aces as chosen, others as best for the player."""
    cfg = state.config
    options = []
    for card in state.cards(p):
        v = cfg.value(card)
        if cfg.ace_eleven and card.rank == 1:
            chosen = state.ace_high[p].get(card.key)
            options.append((v * 11,) if chosen else (v,) if chosen is False else (v, v * 11))
        else:
            options.append((v,))
    return min((sum(combo) for combo in itertools.product(*options)), key=abs)


def check_hit_me_turn(state: HitMeRound) -> None:
    """Round robin: the in-players before the current one in this pass have one more hit.
    All at once: everyone before the current player is done, everyone after untouched."""
    if state.players_done:
        return
    n, c = state.players, state.current
    order = [(state.dealer + 1 + i) % n for i in range(n)]
    for p in order:
        before = order.index(p) < order.index(c)
        if state.config.turn_order is TurnOrder.ROUND_ROBIN:
            if state.is_in(p):
                assert state.hits(p) == state.hits(c) + (1 if before else 0), (p, c)
        elif before:
            assert not state.is_in(p)
        elif p != c:
            assert state.hits(p) == 0 and not state.held[p]
    assert state.pass_number() == state.hits(c) + 1


def hit_me_step_checker(full: bool) -> Any:
    """An on_step callback that checks one Hit Me state after each move."""
    memo: dict[str, Any] = {"prev": None}

    def check(state: HitMeRound) -> None:
        check_hit_me_invariants(state)
        check_hit_me_turn(state)
        prev = memo["prev"]
        if prev is not None:
            actor, events_before = prev
            new = state.events[events_before:]
            if new and new[0].kind in (EventKind.HIT, EventKind.HOLD):
                assert new[0].player == actor
                assert state.current == expected_next_hit_me(state, actor)
        memo["prev"] = (state.current, len(state.events))
        for p in range(state.players):
            assert state.sum(p) == sum(state.card_value(p, c) for c in state.cards(p))
        if state.players_done:
            res = state.result()
            sums = [expected_final_sum(state, p) for p in range(state.players)]
            assert [abs(s) for s in res.sums] == [abs(s) for s in sums]
            best = min(abs(s) for s in sums)
            assert list(res.winners) == [p for p in range(state.players) if abs(sums[p]) == best]
            assert state.revealed or not any(e.kind is EventKind.REVEAL for e in state.events)
            shown = state.clone()
            if not shown.revealed:  # the announce step: the Reveal action turns the cards up
                shown.apply_action(Reveal())
            kinds = [e.kind for e in shown.events[-state.players - 1:]]
            assert kinds == [EventKind.REVEAL] * state.players + [EventKind.RESULT]
        if full:
            data = state.to_json()
            back = HitMeRound.from_json(json.loads(json.dumps(data)))
            assert back.to_json() == data
            assert back == state
            for p in range(state.players):
                assert back.legal_actions(p) == state.legal_actions(p)
            twin = state.clone()
            assert twin == state
            if not twin.players_done:
                twin.apply_action(Hold())
                assert twin != state, "a clone must be independent"

    return check


@pytest.mark.parametrize("variant", list(HIT_ME_VARIANTS))
@pytest.mark.parametrize("players", PLAYERS)
def test_hit_me_random_rounds(players: int, variant: str) -> None:
    cfg = hit_me_config(players, variant)
    winners_at = set()
    for seed in range(HIT_ME_SEEDS):
        dealer = seed % players
        state = play_hit_me_round(cfg, seed, dealer=dealer,
                                  on_step=hit_me_step_checker(full=seed < FULL_CHECK_SEEDS))
        assert state.players_done
        winners_at.update(state.result().winners)
    assert len(winners_at) >= 2, "random rounds should be won by different seats"


@pytest.mark.parametrize("variant", list(HIT_ME_VARIANTS))
def test_hit_me_same_seed_same_history(variant: str) -> None:
    for players in (2, 5, 8):
        cfg = hit_me_config(players, variant)
        for seed in range(5):
            a = play_hit_me_round(cfg, seed)
            b = play_hit_me_round(cfg, seed)
            assert a.to_json() == b.to_json()
        assert play_hit_me_round(cfg, 1).events != play_hit_me_round(cfg, 2).events


def test_hit_me_game_random_many_rounds_same_seed() -> None:
    def run(seed: int) -> dict[str, Any]:
        game = HitMeGame(HitMeConfig(players=4, ace_eleven=True), seed=seed)
        rng = random.Random(seed)
        dealers = []
        for _ in range(30):
            dealers.append(game.dealer)
            while not game.round.players_done:
                game.round.apply_action(rng.choice([Hit(), Hold()]))
            res = game.finish_round()
            check_hit_me_invariants(game.round)
            saved = HitMeGame.from_json(json.loads(json.dumps(game.to_json())))
            assert saved.to_json() == game.to_json()
            expected = res.winners[0] if not res.tie else None
            game.next_round()
            if expected is not None:
                assert game.dealer == expected
        assert sum(game.wins) + sum(game.ties) >= 30
        return game.to_json()

    assert run(3) == run(3)


def hit_me_illegal_tries(state: HitMeRound) -> list[tuple[Any, Any, str]]:
    """(action, player, why) triples that must be refused in this state."""
    n = state.players
    tries: list[tuple[Any, Any, str]] = []
    for p in range(n):
        if p != state.current:
            tries += [(Hit(), p, "turn"), (Hold(), p, "turn")]
    tries += [(Hit(), n, "no such player"), (Hold(), -1, "no such player"),
              (Hit(), "0", "no such player"), ("hit", state.current, "not a Hit Me move"),
              (None, state.current, "not a Hit Me move")]
    forged = Card(1, Suit.SPADES, copy=5)
    for p in range(n):
        mine = state.cards(p)
        other = [c for q in range(n) if q != p for c in state.cards(q)][:4] + state.deck[:2]
        if not state.config.ace_eleven:
            tries += [(ChooseAce(c, True), p, "rule is off") for c in mine[:2]]
            continue
        tries += [(ChooseAce(c, True), p, "not one of") for c in other if c not in mine]
        tries += [(ChooseAce(c, True), p, "not an ace") for c in mine if c.rank != 1]
        tries += [(ChooseAce(forged, True), p, "not one of")]
        tries += [(ChooseAce(c, 1), p, "1 or 11") for c in mine if c.rank == 1]
    return tries


@pytest.mark.parametrize("variant", list(HIT_ME_VARIANTS))
def test_hit_me_illegal_moves_from_random_states(variant: str) -> None:
    tried = 0
    for players, seed in itertools.product((2, 3, 6, 8), range(6)):
        cfg = hit_me_config(players, variant)
        rng = random.Random(seed)

        def attempt(state: HitMeRound, rng: random.Random = rng) -> None:
            nonlocal tried
            if rng.random() > 0.3 and not state.players_done:
                return
            snapshot = state.to_json()
            tries = hit_me_illegal_tries(state) if not state.players_done else [
                (a, p, "over") for a in (Hit(), Hold()) for p in [None, *range(state.players)]]
            for action, player, why in tries:
                with pytest.raises(IllegalActionError) as info:
                    state.apply_action(action, player)
                assert re.search(why, reason_text(info.value)), (why, info.value)
                tried += 1
            assert state.to_json() == snapshot, "an illegal move changed the state"

        play_hit_me_round(cfg, seed, on_step=attempt)
    assert tried > 500


# ----- Flapjack: independent checks -----------------------------------------------------------
BLACK_SUITS = (Suit.CLUBS, Suit.SPADES)


def my_legal(state: FlapjackState, p: int) -> set[Play]:
    """The legal plays of seat p computed from ../shared/RULES.md, not from the engine."""
    cfg = state.config
    total = sum(v for _, v in state.table)
    signs = (1, -1) if cfg.add_or_subtract and state.table else (1,)
    black = 1 if cfg.colors.value == "black-positive" else -1
    out = set()
    # the variant "add or subtract" (and a custom table choosing signs, unless set signed)
    # counts every card positive; every other rule set signs it by colour
    positive = cfg.add_or_subtract and cfg.variant != "signed-add-or-subtract" \
        and not cfg.signed
    for card in state.hands[p]:
        v = card.rank if positive else (
            card.rank * (black if card.suit in BLACK_SUITS else -black))
        for s in signs:
            if cfg.low <= total + s * v <= cfg.high:
                out.add(Play(card, s))
    return out


def flapjack_step_checker(full: bool) -> Any:
    memo: dict[str, Any] = {"prev": None}

    def check(state: FlapjackState) -> None:
        check_flapjack_invariants(state)
        n = state.players
        if not state.is_over:
            legal = state.legal_actions()
            assert len(legal) == len(set(legal)) and set(legal) == my_legal(state, state.current)
        prev = memo["prev"]
        if prev is not None:
            actor, events_before, tricks_before, passes_before, pile_before = prev
            new = state.events[events_before:]
            assert new[0].kind is EventKind.PLAY and new[0].player == actor
            flapjack = len(state.tricks[actor]) > tricks_before
            assert flapjack == any(e.kind is EventKind.FLAPJACK for e in new)
            if flapjack:
                assert not state.table
            assert len(state.draw_pile) == max(0, pile_before - 1)
            # the end check comes first; then the turn goes to the first seat that can play
            everyone_out = not state.draw_pile and not any(state.hands)
            if everyone_out:
                assert state.end_reason is EndReason.ALL_PLAYED
            elif state.is_over:
                assert state.end_reason is EndReason.BLOCKED
                assert not any(my_legal(state, p) for p in range(n))
            else:
                start = actor if flapjack else (actor + 1) % n
                seats = [(start + i) % n for i in range(n)]
                expected = next(p for p in seats if my_legal(state, p))
                assert state.current == expected
                skipped = seats[: seats.index(expected)]
                passes = [e.player for e in new if e.kind is EventKind.PASS]
                assert passes == skipped
                assert state.passes - passes_before == len(skipped)
        if not state.is_over:
            memo["prev"] = (state.current, len(state.events), len(state.tricks[state.current]),
                            state.passes, len(state.draw_pile))
        else:
            res = state.result()
            won = [len(t) for t in state.tricks]
            assert list(res.cards_won) == won
            assert list(res.winners) == [p for p in range(n) if won[p] == max(won)]
            assert state.events[-1].kind is EventKind.END
            assert state.plays == sum(e.kind is EventKind.PLAY for e in state.events)
            assert state.plays == len(state.played_cards())
            assert sum(state.flapjacks) == sum(e.kind is EventKind.FLAPJACK
                                               for e in state.events)
        if full:
            data = state.to_json()
            back = FlapjackState.from_json(json.loads(json.dumps(data)))
            assert back.to_json() == data and back == state
            for p in range(n):
                assert back.legal_actions(p) == state.legal_actions(p)
            twin = state.clone()
            assert twin == state
            if not twin.is_over:
                twin.apply_action(twin.legal_actions()[0])
                assert twin != state, "a clone must be independent"

    return check


@pytest.mark.parametrize("variant", FLAPJACK_VARIANTS)
@pytest.mark.parametrize("players", PLAYERS)
def test_flapjack_random_games(players: int, variant: str) -> None:
    cfg = flapjack_config(players, variant)
    reasons = set()
    flapjacks = 0
    for seed in range(FLAPJACK_SEEDS):
        full = seed < (FULL_CHECK_SEEDS if players < 6 else FULL_CHECK_SEEDS - 1)
        state = play_flapjack(cfg, seed, dealer=seed % players,
                              on_step=flapjack_step_checker(full=full))
        reasons.add(state.end_reason)
        flapjacks += sum(state.flapjacks)
    assert flapjacks > FLAPJACK_SEEDS, "random games make Flapjacks"
    assert EndReason.BLOCKED in reasons or EndReason.ALL_PLAYED in reasons


def test_flapjack_both_endings_happen_in_random_play() -> None:
    seen = set()
    for variant, seed in itertools.product(FLAPJACK_VARIANTS, range(40)):
        seen.add(play_flapjack(flapjack_config(2, variant), seed).end_reason)
    assert seen == {EndReason.BLOCKED, EndReason.ALL_PLAYED}


@pytest.mark.parametrize("variant", FLAPJACK_VARIANTS)
def test_flapjack_same_seed_same_history(variant: str) -> None:
    for players in (2, 5, 8):
        cfg = flapjack_config(players, variant)
        for seed in range(4):
            assert play_flapjack(cfg, seed).to_json() == play_flapjack(cfg, seed).to_json()
        assert play_flapjack(cfg, 1).events != play_flapjack(cfg, 2).events


@pytest.mark.parametrize("variant", FLAPJACK_VARIANTS)
def test_flapjack_illegal_moves_from_random_states(variant: str) -> None:
    tried = 0
    for players, seed in itertools.product((2, 4, 8), range(5)):
        cfg = flapjack_config(players, variant)
        rng = random.Random(seed)

        def attempt(state: FlapjackState, rng: random.Random = rng) -> None:
            nonlocal tried
            if state.is_over:
                tries = [(Play(c), p) for p in [None, *range(state.players)]
                         for c in state.hands[p or 0][:2]]
            elif rng.random() < 0.25:
                tries = flapjack_illegal_candidates(state)
                tries.append(("play", state.current))
            else:
                return
            snapshot = state.to_json()
            for action, player in tries:
                with pytest.raises(IllegalActionError) as info:
                    state.apply_action(action, player)
                assert str(info.value)
                if isinstance(action, Play) and not state.is_over and player is not None:
                    assert state.why_illegal(player, action.card, action.sign)
                tried += 1
            assert state.to_json() == snapshot, "an illegal move changed the state"

        play_flapjack(cfg, seed, on_step=attempt)
    assert tried > 1000


# ----- hypothesis: any seed, any table ----------------------------------------------------
@hsettings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 8),
       variant=st.sampled_from(list(HIT_ME_VARIANTS)), extra_decks=st.integers(0, 1),
       all_at_once=st.booleans())
def test_hit_me_any_seed(seed: int, players: int, variant: str, extra_decks: int,
                         all_at_once: bool) -> None:
    base = hit_me_config(players, variant)
    cfg = HitMeConfig(players=players, decks=base.decks + extra_decks, colors=base.colors,
                      ace_eleven=base.ace_eleven,
                      turn_order="all-at-once" if all_at_once else base.turn_order)
    state = play_hit_me_round(cfg, seed, dealer=seed % players,
                              on_step=hit_me_step_checker(full=True))
    assert all(state.held[p] or len(state.cards(p)) == MAX_CARDS for p in range(players))


@hsettings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 8),
       variant=st.sampled_from(FLAPJACK_VARIANTS), extra_decks=st.integers(0, 1),
       colors=st.sampled_from(["black-positive", "red-positive"]))
def test_flapjack_any_seed(seed: int, players: int, variant: str, extra_decks: int,
                           colors: str) -> None:
    base = flapjack_config(players, variant)
    cfg = FlapjackConfig(players=players, decks=base.decks + extra_decks, variant=variant,
                         colors=colors)
    state = play_flapjack(cfg, seed, dealer=seed % players,
                          on_step=flapjack_step_checker(full=players <= 4))
    assert state.is_over


@hsettings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), limit=st.integers(5, 20), faces=st.booleans(),
       aos=st.booleans(), signed=st.booleans(), data=st.data())
def test_flapjack_any_custom_settings(seed: int, limit: int, faces: bool, aos: bool,
                                      signed: bool, data: st.DataObject) -> None:
    signed = signed or not aos  # cards added with their own sign keep it
    low = -limit if signed else 0
    targets = tuple(data.draw(st.sets(st.integers(low, limit), min_size=1, max_size=3)))
    cfg = FlapjackConfig(players=3, limit=limit, face_cards=faces, add_or_subtract=aos,
                         targets=targets, signed=signed)
    state = play_flapjack(cfg, seed, on_step=flapjack_step_checker(full=False))
    assert state.is_over


@pytest.mark.parametrize("game", ["hit-me", "flapjack"])
def test_saved_and_loaded_mid_game_continues_identically(game: str) -> None:
    """Save at a random step, load, go on with the same choices: the same game results."""
    for seed in range(30):
        players = 2 + seed % 7
        pick = random.Random(seed)
        if game == "hit-me":
            cfg = hit_me_config(players, list(HIT_ME_VARIANTS)[seed % 4])
            state: Any = HitMeRound.deal(cfg, rng=seed)
            load = HitMeRound.from_json
        else:
            cfg = flapjack_config(players, FLAPJACK_VARIANTS[seed % len(FLAPJACK_VARIANTS)])
            state = FlapjackState.deal(cfg, rng=seed)
            load = FlapjackState.from_json
        stop = pick.randrange(20)
        for _ in range(stop):
            if state.is_over:
                break
            state.apply_action(pick.choice(state.legal_actions()))
        copy = load(json.loads(json.dumps(state.to_json())))
        rng_a, rng_b = random.Random(seed + 1), random.Random(seed + 1)
        while not state.is_over:
            state.apply_action(rng_a.choice(state.legal_actions()))
            copy.apply_action(rng_b.choice(copy.legal_actions()))
        assert copy.is_over and copy.to_json() == state.to_json()


def test_signed_add_or_subtract_random_games_subtract_negatives() -> None:
    """Random play of "signed add or subtract" subtracts red (negative) cards, moving the
    total up by their size, and adds them, moving it down: both as ../shared/RULES.md says."""
    seen = set()
    for seed in range(20):
        state = play_flapjack(flapjack_config(3, "signed-add-or-subtract"), seed,
                              on_step=flapjack_step_checker(full=seed < 3))
        for e in state.events:
            if e.kind is EventKind.PLAY:
                assert e.after == e.before + e.delta and abs(e.delta) == abs(e.value)
                assert -13 <= e.after <= 13
                seen.add((e.value < 0, e.delta == e.value))
    assert seen == {(True, True), (True, False), (False, True), (False, False)}
