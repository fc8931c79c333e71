"""A numpy Hit Me simulator for threshold players: many rounds at once, for the strategy lab.

A threshold player hits while |sum| >= its threshold (at most 5 hits). Because every card
dealt from a well-shuffled deck is a uniform draw from the cards not yet seen, whoever takes
it, giving each seat its own fixed run of 7 deck positions yields the same distribution of
hands as dealing in turn; `tests/test_vector_sim.py` checks this against the engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from engine.cards import Convention, make_deck
from engine.hit_me import MAX_CARDS, MAX_HITS, HitMeConfig, hit_me_value

NEVER_HIT = 1000  # a threshold no |sum| reaches: the player always holds


def deck_values(decks: int, colors: Convention | str = Convention.BLACK_POSITIVE) -> np.ndarray:
    """The Hit Me values of every card of `decks` decks."""
    conv = Convention.parse(colors)
    return np.array([hit_me_value(c, conv) for c in make_deck(decks)], dtype=np.int16)


def deal_values(
    rounds: int, players: int, decks: int | None, rng: np.random.Generator,
    colors: Convention | str = Convention.BLACK_POSITIVE,
) -> np.ndarray:
    """Card values, shape (rounds, players, 7): each seat's cards in the order it gets them."""
    decks = HitMeConfig(players=players, decks=decks).decks
    values = deck_values(decks, colors)
    need = MAX_CARDS * players
    keys = rng.random((rounds, len(values)), dtype=np.float32)
    # the first `need` positions of a random permutation of the deck
    order = np.argpartition(keys, need - 1, axis=1)[:, :need]
    return values[order].reshape(rounds, players, MAX_CARDS)


def play_thresholds(cards: np.ndarray, thresholds: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Final sums and hits for (rounds, players, 7) cards when each seat hits while |sum| >= T."""
    sums = np.cumsum(cards, axis=2, dtype=np.int16)  # sums[..., k]: the sum of the first k+1 cards
    stops = np.abs(sums[:, :, 1:]) < thresholds[None, :, None]  # after 2, 3, ..., 7 cards
    stops[:, :, -1] = True  # with 7 cards a player is done
    hits = np.argmax(stops, axis=2)  # first index where the player stops = hits taken
    final = np.take_along_axis(sums, (hits + 1)[:, :, None], axis=2)[:, :, 0]
    return final, hits


def simulate_thresholds(
    players: int,
    thresholds: Sequence[int] | int,
    rounds: int,
    seed: int | None = None,
    decks: int | None = None,
    colors: Convention | str = Convention.BLACK_POSITIVE,
    chunk: int = 50_000,
) -> dict[str, Any]:
    """Play `rounds` rounds of Hit Me between threshold players, vectorised.

    Returns numpy arrays `sums` and `hits` (rounds x players), `winners` (bool, rounds x
    players; several True on a tie) and the summary figures of `engine.simulate`'s Hit Me
    report: `win_share` (ties split), `mean_winning_abs`, `share_won_at_zero`,
    `mean_hits_per_player`, `share_someone_took_5`.
    """
    if isinstance(thresholds, int):
        thresholds = [thresholds] * players
    t = np.asarray(thresholds, dtype=np.int16)
    if t.shape != (players,):
        raise ValueError(
            f"thresholds must be one number or one per seat ({players}); got {thresholds!r}"
        )
    if rounds < 1:
        raise ValueError(f"rounds must be 1 or more; got {rounds}")
    rng = np.random.default_rng(seed)
    sums_parts, hits_parts = [], []
    for start in range(0, rounds, chunk):
        n = min(chunk, rounds - start)
        s, h = play_thresholds(deal_values(n, players, decks, rng, colors), t)
        sums_parts.append(s)
        hits_parts.append(h)
    sums = np.concatenate(sums_parts)
    hits = np.concatenate(hits_parts)
    scores = np.abs(sums)
    best = scores.min(axis=1)
    winners = scores == best[:, None]
    share = (winners / winners.sum(axis=1, keepdims=True)).mean(axis=0)
    return {
        "rounds": rounds,
        "players": players,
        "thresholds": t.tolist(),
        "sums": sums,
        "hits": hits,
        "winners": winners,
        "win_share": share.tolist(),
        "mean_winning_abs": float(best.mean()),
        "share_won_at_zero": float((best == 0).mean()),
        "mean_hits_per_player": float(hits.mean()),
        "share_someone_took_5": float((hits == MAX_HITS).any(axis=1).mean()),
    }


def hold_win_chance(
    players: int, opponent_threshold: int, rounds: int, seed: int | None = None,
    max_abs: int = 20,
) -> dict[str, np.ndarray]:
    """For a player who holds on their first two cards: the chance to win (ties split) at each
    |sum| 0..max_abs, against threshold opponents. Returns `abs_sum`, `win_chance`, `count`."""
    seats = [NEVER_HIT] + [opponent_threshold] * (players - 1)
    res = simulate_thresholds(players, seats, rounds, seed)
    mine = np.abs(res["sums"][:, 0])
    win = res["winners"][:, 0] / res["winners"].sum(axis=1)
    xs = np.arange(max_abs + 1)
    count = np.bincount(np.minimum(mine, max_abs + 1), minlength=max_abs + 2)[: max_abs + 1]
    wins = np.bincount(np.minimum(mine, max_abs + 1), weights=win, minlength=max_abs + 2)
    with np.errstate(invalid="ignore", divide="ignore"):
        chance = np.where(count > 0, wins[: max_abs + 1] / np.maximum(count, 1), np.nan)
    return {"abs_sum": xs, "win_chance": chance, "count": count}
