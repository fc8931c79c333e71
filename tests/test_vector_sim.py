"""The numpy threshold simulator must match the rules engine in distribution."""

from __future__ import annotations

import random

import numpy as np
import pytest

from engine.hit_me import MAX_HITS, Hit, HitMeConfig, HitMeRound, Hold
from engine.vector_sim import NEVER_HIT, hold_win_chance, play_thresholds, simulate_thresholds


def engine_rounds(players: int, thresholds: list[int], rounds: int, seed: int):
    """Final sums and hits per seat from the real engine, threshold play."""
    rng = random.Random(seed)
    cfg = HitMeConfig(players=players)
    sums = np.zeros((rounds, players), dtype=int)
    hits = np.zeros((rounds, players), dtype=int)
    for r in range(rounds):
        state = HitMeRound.deal(cfg, dealer=r % players, rng=rng)
        while not state.players_done:
            p = state.current
            state.apply_action(Hit() if abs(state.sum(p)) >= thresholds[p] else Hold())
        for p in range(players):
            sums[r, p] = state.final_sum(p)
            hits[r, p] = state.hits(p)
    return sums, hits


def chi_square(a: np.ndarray, b: np.ndarray, bins: int) -> float:
    """Two-sample chi-square statistic on integer samples clipped into `bins` bins."""
    ca = np.bincount(np.clip(a, 0, bins - 1), minlength=bins).astype(float)
    cb = np.bincount(np.clip(b, 0, bins - 1), minlength=bins).astype(float)
    keep = (ca + cb) > 0
    ca, cb = ca[keep], cb[keep]
    ka, kb = np.sqrt(cb.sum() / ca.sum()), np.sqrt(ca.sum() / cb.sum())
    return float((((ka * ca - kb * cb) ** 2) / (ca + cb)).sum())


@pytest.mark.parametrize("players,thresholds", [(2, [3, 3]), (4, [2, 5, 8, 3]), (8, [4] * 8)])
def test_same_distribution_as_engine(players: int, thresholds: list[int]) -> None:
    e_sums, e_hits = engine_rounds(players, thresholds, 3000, seed=11)
    v = simulate_thresholds(players, thresholds, 60_000, seed=12)
    for p in range(players):
        # hits 0..5 (6 bins, 5 degrees of freedom) and |sum| 0..14+ (15 bins, 14 df):
        # 0.1% critical values are 20.5 and 36.1
        assert chi_square(e_hits[:, p], v["hits"][:, p], 6) < 20.5, f"hits differ at seat {p}"
        assert chi_square(np.abs(e_sums[:, p]), np.abs(v["sums"][:, p]), 15) < 36.1, (
            f"|sum| differs at seat {p}")
        se = v["sums"][:, p].std() * np.sqrt(1 / 3000 + 1 / 60_000)
        assert abs(e_sums[:, p].mean() - v["sums"][:, p].mean()) < 4 * se


def test_threshold_rule_exact_on_a_stacked_hand() -> None:
    # seat 0: +5, -2 (|3| >= 3: hit), +1 (|4|: hit), -4 (0 < 3: hold) -> 2 hits, sum 0
    # seat 1 always holds; its cards do not matter
    cards = np.zeros((1, 2, 7), dtype=np.int16)
    cards[0, 0] = [5, -2, 1, -4, 9, 9, 9]
    cards[0, 1] = [10, 10, 10, 10, 10, 10, 10]
    final, hits = play_thresholds(cards, np.array([3, NEVER_HIT], dtype=np.int16))
    assert final.tolist() == [[0, 20]]
    assert hits.tolist() == [[2, 0]]


def test_at_most_five_hits_and_seven_cards() -> None:
    cards = np.full((1, 1, 7), -10, dtype=np.int16)
    final, hits = play_thresholds(cards, np.array([1], dtype=np.int16))
    assert hits.tolist() == [[MAX_HITS]]
    assert final.tolist() == [[-70]]


def test_summary_keys_and_ties_split() -> None:
    res = simulate_thresholds(3, 4, 5000, seed=3)
    assert sum(res["win_share"]) == pytest.approx(1.0)
    assert res["winners"].sum(axis=1).min() >= 1
    for key in ("mean_winning_abs", "share_won_at_zero", "mean_hits_per_player",
                "share_someone_took_5"):
        assert res[key] >= 0
    assert simulate_thresholds(3, 4, 5000, seed=3)["win_share"] == res["win_share"]
    assert simulate_thresholds(3, 4, 5000, seed=4)["win_share"] != res["win_share"]


def test_hold_win_chance_falls_as_the_sum_moves_away_from_zero() -> None:
    h = hold_win_chance(4, 3, 40_000, seed=5, max_abs=6)
    chance = h["win_chance"]
    assert chance[0] > chance[1] > chance[2] > chance[3]
    assert 0 < chance[3] < 0.5


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="one per seat"):
        simulate_thresholds(3, [1, 2], 10)
    with pytest.raises(ValueError, match="rounds"):
        simulate_thresholds(3, 2, 0)
