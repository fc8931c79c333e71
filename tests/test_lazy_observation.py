"""The lazy observation computer players get (`observation(seat, events=False)`): the same keys
and values as the dict, every part visible when iterated, and no stale reads."""

from __future__ import annotations

import copy
import json
import random

import pytest

from engine.hit_me import HitMeConfig, HitMeGame
from engine.observation import Observation


@pytest.mark.parametrize("settings", [
    {"players": 4},
    {"players": 3, "ace_eleven": True},
    {"players": 5, "colors": "red-positive", "turn_order": "all-at-once", "ace_eleven": True},
])
def test_lazy_observation_equals_the_dict(settings: dict) -> None:
    config = HitMeConfig(**settings)
    game = HitMeGame(config, seed=3)
    rng = random.Random(4)
    checked = 0
    for _ in range(12):
        rnd = game.round
        while True:
            for viewer in [None, *range(config.players)]:
                for reveal in (False, True):
                    eager = {**rnd.observation(viewer, reveal=reveal), "events": []}
                    lazy = rnd.observation(viewer, reveal=reveal, events=False)
                    assert isinstance(lazy, Observation)
                    assert list(lazy) == list(eager) and len(lazy) == len(eager)
                    if viewer is not None:  # one seat alone, then all of them
                        assert lazy.seat(viewer) == eager["seats"][viewer]
                    assert dict(lazy) == eager and lazy == eager
                    assert json.dumps(lazy.to_dict()) == json.dumps(eager)
                    assert copy.deepcopy(lazy) == eager
                    checked += 1
            if rnd.is_over:
                break
            seat = rnd.current_player
            legal = rnd.legal_actions(seat)
            rnd.apply_action(legal[0] if seat is None else rng.choice(legal), seat)
        game.next_round()
    assert checked > 500


def test_a_part_read_after_a_move_is_refused() -> None:
    game = HitMeGame(HitMeConfig(players=2), seed=1)
    rnd = game.round
    seat = rnd.current_player
    early = rnd.observation(seat, events=False)
    assert early["viewer"] == seat
    rnd.apply_action(rnd.legal_actions(seat)[0], seat)
    with pytest.raises(RuntimeError, match="before the last move"):
        early["seats"]
    with pytest.raises(KeyError):
        rnd.observation(0, events=False)["no such part"]
