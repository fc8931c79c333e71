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


def test_observations_are_frozen_typed_and_share_the_core_fields() -> None:
    """Both games' observations: read-only attributes with the same core field names (the
    Mapping access the widgets use reads the same values), and the registry makes them."""
    from engine.games import make_game
    from engine.observation import CORE_FIELDS

    states = [make_game("hit-me", players=3).new_state(rng=5),
              make_game("flapjack", players=3).new_state(rng=5)]
    for state in states:
        seat = state.current_player
        obs = state.observation(seat)
        assert isinstance(obs, Observation)
        assert list(obs)[:2] == ["game", "viewer"] and set(CORE_FIELDS) <= set(obs)
        for name in CORE_FIELDS:
            assert getattr(obs, name) == obs[name]
        assert obs.draw_pile == len(state.to_json()["deck" if obs.game == "hit-me"
                                                   else "draw_pile"])
        assert obs.legal_actions == [a.to_json() for a in state.legal_actions(seat)]
        assert obs.seat(seat) == obs.seats[seat] and obs.seats[seat] == obs["seats"][seat]
        with pytest.raises(AttributeError, match="read-only"):
            obs.draw_pile = 0  # type: ignore[misc]
        with pytest.raises(AttributeError, match="read-only"):
            obs.viewer = None  # type: ignore[misc]
        with pytest.raises(TypeError):
            obs["draw_pile"] = 0  # type: ignore[index]
        assert obs.to_dict() == dict(obs) and json.dumps(obs.to_dict())
    # the same names for the same things; each game adds its own after the core
    hit_me, flapjack = (set(s.observation(None)) for s in states)
    assert hit_me & flapjack == set(CORE_FIELDS)
    assert {"phase", "pass_number"} <= hit_me - flapjack
    assert {"total", "table", "targets"} <= flapjack - hit_me


def test_flapjack_bot_observation_is_lazy() -> None:
    """A Flapjack bot's observation builds only what it reads: its own hand, not the others'
    seats views or the event log."""
    from engine.bots import make_bot
    from engine.flapjack import FlapjackConfig, FlapjackState

    state = FlapjackState.deal(FlapjackConfig(players=4), rng=2)
    seat = state.current_player
    obs = state.observation(seat, events=False)
    make_bot("greedy", "flapjack", 1).choose(obs, state.legal_actions(seat))
    built = set(obs._cache)
    assert seat in built and "events" not in built and "seats" not in built
    assert obs["events"] == []
    assert obs.seat(seat)["hand"] == state.observation(seat)["seats"][seat]["hand"]
