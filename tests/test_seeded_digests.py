"""Same seed, same game: digests of seeded simulations and event logs, pinned.

The engine is made faster from time to time (engine/hit_me.py keeps compact event records,
inlines its common moves, ...). Such work must not change a single game: these digests were
taken from the engine before that work (main at f947263) and must stay as they are. If a rules
change is meant to change games, update them in the same commit and say so.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

from engine.simulate import simulate_flapjack, simulate_hit_me


def digest(data: Any) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


def hit_me_logs(ace_eleven: bool) -> list[list[dict[str, Any]]]:
    """The whole event log (private parts included) of three seeded rounds."""
    rounds: list[list[dict[str, Any]]] = []
    simulate_hit_me(players=4, bots="threshold:3", rounds=3, seed=11, ace_eleven=ace_eleven,
                    on_round=lambda r: rounds.append([e.to_json() for e in r.events]))
    return rounds


RUNS = {
    "hit-me 4 threshold:3": (lambda: simulate_hit_me(
        players=4, bots="threshold:3", rounds=400, seed=1), "86e3b71960b26d93"),
    "hit-me 3 threshold:5 ace-eleven": (lambda: simulate_hit_me(
        players=3, bots="threshold:5", rounds=300, seed=7, ace_eleven=True),
        "8805d5ddaffa03f9"),
    "hit-me 5 mixed all-at-once red": (lambda: simulate_hit_me(
        players=5, bots=["random", "threshold:2", "threshold:4", "threshold:6", "threshold:8"],
        rounds=300, seed="abc", turn_order="all-at-once", colors="red-positive"),
        "692551e7138e81bf"),
    "flapjack 4 greedy": (lambda: simulate_flapjack(
        players=4, bots="greedy", games=40, seed=1), "275d4f7156e35391"),
    "flapjack 3 random add-or-subtract": (lambda: simulate_flapjack(
        players=3, bots="random", games=40, seed=2, variant="add-or-subtract"),
        "ffd1903809efba40"),
    "hit-me event logs": (lambda: [hit_me_logs(False), hit_me_logs(True)], "0e51638881aa1d07"),
}


@pytest.mark.parametrize("name", list(RUNS))
def test_seeded_runs_are_unchanged(name: str) -> None:
    run, expected = RUNS[name]
    assert digest(run()) == expected


def test_a_different_seed_changes_the_digest() -> None:
    """The digest does see the games (positive control)."""
    assert digest(simulate_hit_me(players=4, bots="threshold:3", rounds=400, seed=2)) \
        != RUNS["hit-me 4 threshold:3"][1]
