"""An observation is read-only all the way down: not only its fields, but every seat,
card view, event, legal action, list and setting inside it. A bot or a view that tries to change
one gets TypeError and the state (and every later observation) is untouched; `to_dict()` stays
plain JSON-ready data the caller may edit."""

from __future__ import annotations

import copy
import json
import pickle
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from engine.flapjack import FlapjackConfig, FlapjackState
from engine.hit_me import HitMeConfig, HitMeGame
from engine.observation import FrozenDict, FrozenList, LazyView, freeze

# the ways code could change a dict or a list in place
DICT_MUTATIONS = [
    lambda d: d.__setitem__("x", 1),
    lambda d: d.__delitem__(next(iter(d))) if d else d.__delitem__("x"),
    lambda d: d.update(x=1),
    lambda d: d.setdefault("x", 1),
    lambda d: d.pop(next(iter(d)), None),
    lambda d: d.popitem(),
    lambda d: d.clear(),
    lambda d: d.__ior__({"x": 1}),
]
LIST_MUTATIONS = [
    lambda v: v.append(1),
    lambda v: v.extend([1]),
    lambda v: v.insert(0, 1),
    lambda v: v.__setitem__(0, 1),
    lambda v: v.__setitem__(slice(0, 0), [1]),
    lambda v: v.__delitem__(0),
    lambda v: v.pop(),
    lambda v: v.remove(v[0] if v else 1),
    lambda v: v.clear(),
    lambda v: v.sort(),
    lambda v: v.reverse(),
    lambda v: v.__iadd__([1]),
    lambda v: v.__imul__(2),
]


def nested(value: Any, path: str = "obs") -> Iterator[tuple[str, Any]]:
    """Every dict and list inside an observation value, with its path."""
    if isinstance(value, LazyView):
        for k in value:
            yield from nested(value[k], f"{path}.{k}")
    elif isinstance(value, dict):
        yield path, value
        for k, v in value.items():
            yield from nested(v, f"{path}[{k!r}]")
    elif isinstance(value, (list, tuple)):
        if isinstance(value, list):
            yield path, value
        for i, v in enumerate(value):
            yield from nested(v, f"{path}[{i}]")


def check_frozen(obs: Any, seen: set[str]) -> None:
    """Every nested dict and list of `obs` refuses every mutation and is unchanged after;
    `seen` collects the field paths met (without indices), to check coverage."""
    before = json.dumps(obs.to_dict(), sort_keys=True)
    for path, value in nested(obs):
        assert isinstance(value, (FrozenDict, FrozenList)), f"{path} is a plain {type(value)}"
        for mutate in DICT_MUTATIONS if isinstance(value, dict) else LIST_MUTATIONS:
            with pytest.raises(TypeError, match="read-only"):
                mutate(value)
        seen.add(re.sub(r"\[[^]]*\]", "[]", path))
    # nothing changed, and the plain copy is JSON of plain types a caller may edit
    plain = obs.to_dict()
    assert json.dumps(plain, sort_keys=True) == before
    for _path, value in nested(plain):
        assert type(value) in (dict, list), _path
    plain["seats"].append("mine")  # a copy: editing it is allowed and changes nothing
    assert json.dumps(obs.to_dict(), sort_keys=True) == before


def fields_of(obs: Any) -> set[str]:
    return set(obs)


def hit_me_observations(settings: dict[str, Any], rounds: int = 3) -> Iterator[Any]:
    config = HitMeConfig(**settings)
    game = HitMeGame(config, seed=5)
    rng = random.Random(6)
    for _ in range(rounds):
        rnd = game.round
        while True:
            for viewer in [None, *range(config.players)]:
                yield rnd.observation(viewer, reveal=viewer is None)
            if rnd.is_over:
                break
            seat = rnd.current_player
            legal = rnd.legal_actions(seat)
            rnd.apply_action(legal[0] if seat is None else rng.choice(legal), seat)
        game.next_round()


def flapjack_observations(settings: dict[str, Any], seed: int = 2) -> Iterator[Any]:
    state = FlapjackState.deal(FlapjackConfig(**settings), random.Random(seed))
    rng = random.Random(seed + 1)
    while True:
        for viewer in [None, *range(state.players)]:
            yield state.observation(viewer, reveal=viewer is None)
        if state.is_over:
            break
        seat = state.current_player
        state.apply_action(rng.choice(state.legal_actions(seat)), seat)


@pytest.mark.parametrize("settings", [
    {"players": 3},
    {"players": 4, "ace_eleven": True},
    {"players": 3, "turn_order": "all-at-once", "ace_eleven": True},
])
def test_every_nested_hit_me_value_is_read_only(settings: dict[str, Any]) -> None:
    seen: set[str] = set()
    fields: set[str] = set()
    for obs in hit_me_observations(settings):
        check_frozen(obs, seen)
        fields |= fields_of(obs)
    # every field holding a dict or a list was met and checked, down to the card views
    for path in ("obs.config", "obs.seats", "obs.seats[]", "obs.seats[][]", "obs.seats[][][]",
                 "obs.legal_actions", "obs.legal_actions[]", "obs.events", "obs.events[]",
                 "obs.events[][]", "obs.result", "obs.result[]"):
        assert path in seen, (path, sorted(seen))
    assert {"seats", "legal_actions", "events", "result", "config"} <= fields


@pytest.mark.parametrize("settings", [
    {"players": 2},
    {"players": 3, "variant": "add-or-subtract"},
    {"players": 4, "variant": "simple-ten", "targets": [-5, 5]},
])
def test_every_nested_flapjack_value_is_read_only(settings: dict[str, Any]) -> None:
    seen: set[str] = set()
    for obs in flapjack_observations(settings):
        check_frozen(obs, seen)
    for path in ("obs.config", "obs.targets", "obs.table", "obs.table[]", "obs.played",
                 "obs.seats", "obs.seats[]", "obs.seats[][]", "obs.seats[][][]",
                 "obs.legal_actions",
                 "obs.legal_actions[]", "obs.events", "obs.events[]", "obs.result",
                 "obs.result[]"):
        assert path in seen, (path, sorted(seen))


def test_one_seat_alone_is_read_only_in_both_games() -> None:
    rnd = HitMeGame(HitMeConfig(players=3, ace_eleven=True), seed=1).round
    seat = rnd.observation(0).seat(0)
    for key in ("face_down", "face_up", "values"):
        value = seat[key]
        with pytest.raises(TypeError):
            (DICT_MUTATIONS if isinstance(value, dict) else LIST_MUTATIONS)[0](value)
    with pytest.raises(AttributeError):
        seat.sum = 3  # type: ignore[misc]
    state = FlapjackState.deal(FlapjackConfig(players=2), random.Random(1))
    hand = state.observation(0).seat(0)["hand"]
    with pytest.raises(TypeError):
        hand.pop()
    with pytest.raises(TypeError):
        hand[0]["value"] = 99
    assert state.observation(0).seat(0)["hand"] == hand  # unchanged


def test_a_bot_cannot_change_what_the_next_observation_shows() -> None:
    """Card views are shared between observations (made once per card): a mutation that got
    through would show in every later observation. Every attempt is refused."""
    rnd = HitMeGame(HitMeConfig(players=2), seed=4).round
    first = rnd.observation(0)
    card = first.seats[1]["face_up"][0]
    before = dict(card)
    with pytest.raises(TypeError):
        card["value"] = 1000
    with pytest.raises(TypeError):
        card.update(value_text="+1000")
    again = rnd.observation(0).seats[1]["face_up"][0]
    assert again == before and again["value"] != 1000


def test_frozen_values_copy_and_pickle_as_plain_data() -> None:
    v = freeze({"a": [1, {"b": [2, 3]}], "c": (4, [5])})
    assert isinstance(v, FrozenDict) and isinstance(v["a"], FrozenList)
    assert isinstance(v["a"][1], FrozenDict) and isinstance(v["c"][1], FrozenList)
    assert v == {"a": [1, {"b": [2, 3]}], "c": (4, [5])}
    assert json.loads(json.dumps(v)) == {"a": [1, {"b": [2, 3]}], "c": [4, [5]]}
    for c in (copy.copy(v), copy.deepcopy(v), v.copy()):
        assert type(c) is dict and type(c["a"]) is list and type(c["a"][1]) is dict
        c["a"].append(9)  # a copy may be edited
    assert v["a"] == [1, {"b": [2, 3]}]
    back = pickle.loads(pickle.dumps(v))
    assert back == v and isinstance(back, FrozenDict)
    assert freeze(v) is v  # already frozen: not copied again
    assert v["a"] + [7] == [1, {"b": [2, 3]}, 7]  # a new plain list
