"""What one player may see: no other player's hidden card anywhere in their observation.

The whole observation is serialized with json.dumps and searched for every written form of
every hidden card (code 'KS', key 'KS#1', short 'K\u2660', name 'king of spades'), so a leak
through any field, event text or action label is caught, not only through the obvious field.
"""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

import pytest
from helpers import (
    FLAPJACK_VARIANTS,
    HIT_ME_VARIANTS,
    find_card_text,
    flapjack_config,
    hidden_cards_leaked,
    hit_me_config,
    play_flapjack,
    play_hit_me_round,
)
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from engine.cards import parse_card, signed
from engine.errors import IllegalActionError
from engine.events import HIDDEN_CARD
from engine.flapjack import FlapjackConfig, FlapjackState
from engine.hit_me import ChooseAce, HitMeConfig, HitMeRound, Hold, Reveal
from widgets.words import card_aria, number_words


def walk(node: Any) -> list[dict[str, Any]]:
    """Every dict inside a JSON-like tree."""
    out = []
    if isinstance(node, dict):
        out.append(node)
        for v in node.values():
            out += walk(v)
    elif isinstance(node, list):
        for v in node:
            out += walk(v)
    return out


def check_card_views(obs: dict[str, Any]) -> None:
    """Every card shown carries its signed value as text (never colour alone), and is data:
    its name and screen-reader label are words, made by widgets.words."""
    for d in walk(obs):
        if "code" in d and "suit" in d:
            assert "aria" not in d and "name" not in d
            if "value" in d:
                assert d["value_text"] == signed(d["value"])
                assert number_words(d["value"]) in card_aria(d)


def check_private_events(obs: dict[str, Any], state: Any, viewer: int | None) -> None:
    """An event's private part is shown only to its owner (reveal aside)."""
    for view in obs["events"]:
        if "private" in view:
            assert view["seat"] == viewer
    mine = [v for v in obs["events"] if v["seat"] == viewer and viewer is not None]
    assert sum("private" in v for v in mine) == sum(
        e.private is not None for e in state.events if e.seat == viewer and viewer is not None)


# ----- Hit Me ---------------------------------------------------------------------------
def check_hit_me_observations(state: HitMeRound) -> None:
    n = state.players
    for viewer in [None, *range(n)]:
        obs = state.observation(viewer)
        json.dumps(obs.to_dict())  # JSON-ready
        check_card_views(obs)
        if state.revealed:
            for p in range(n):
                assert obs["seats"][p]["face_down"]["key"] == state.face_down[p].key
                assert obs["seats"][p]["sum"] == state.final_sum(p)
            assert obs["result"] is not None
            continue
        visible = [c for p in range(n) for c in state.face_up[p]]
        hidden = list(state.deck)
        for p in range(n):
            if p == viewer:
                visible.append(state.face_down[p])
            else:
                hidden.append(state.face_down[p])
                seat = obs["seats"][p]
                assert seat["face_down"] == HIDDEN_CARD
                assert seat["sum"] is None and seat["abs"] is None
                assert all("ace_high" not in c for c in seat["face_up"])
        leaks = hidden_cards_leaked(obs, hidden, visible)
        assert not leaks, f"seat {viewer} sees hidden cards {leaks}"
        assert "deck" not in obs and obs["draw_pile"] == len(state.deck)
        check_private_events(obs, state, viewer)
        if viewer is not None:
            mine = obs["seats"][viewer]
            assert mine["face_down"]["key"] == state.face_down[viewer].key
            done = state.players_done
            assert mine["sum"] == (state.final_sum(viewer) if done else state.sum(viewer))
            assert obs["legal_actions"] == [a.to_json() for a in state.legal_actions(viewer)]
        else:
            assert obs["legal_actions"] == []
    revealed = state.observation(0, reveal=True)
    for p in range(n):
        assert revealed["seats"][p]["face_down"]["key"] == state.face_down[p].key


@pytest.mark.parametrize("variant", list(HIT_ME_VARIANTS))
@pytest.mark.parametrize("players", [2, 3, 5, 8])
def test_hit_me_observation_hides_face_down_cards(players: int, variant: str) -> None:
    cfg = hit_me_config(players, variant)
    rng = random.Random(players)

    def sample(state: HitMeRound) -> None:
        if state.players_done or rng.random() < 4 / players:
            check_hit_me_observations(state)

    for seed in range(5):
        play_hit_me_round(cfg, seed, on_step=sample)


def test_hit_me_ace_choice_on_face_down_card_not_told_to_others() -> None:
    # seat 1's face-down card is the ace of spades; seat 0 must not learn it is an ace
    cfg = HitMeConfig(players=2, ace_eleven=True)
    state = HitMeRound.deal(cfg, rng=0, deck="AS,5C,10H,2C")
    state.apply_action(ChooseAce(parse_card("AS"), True), 1)
    check_hit_me_observations(state)
    other = state.observation(0)
    assert not [e for e in other["events"] if e["kind"] == "ace"]
    assert other["seats"][1]["sum"] is None
    assert [e["kind"] for e in state.observation(1)["events"]].count("ace") == 1
    state.apply_action(Hold())
    state.apply_action(Hold())
    assert [e["kind"] for e in state.observation(0)["events"]].count("ace") == 0  # announcing
    state.apply_action(Reveal())
    assert [e["kind"] for e in state.observation(0)["events"]].count("ace") == 1


def test_hit_me_observation_refuses_unknown_viewer() -> None:
    state = HitMeRound.deal(HitMeConfig(), rng=1)
    for bad in (2, -1, "0"):
        with pytest.raises(IllegalActionError, match="no-such-player"):
            state.observation(bad)


# ----- Flapjack ------------------------------------------------------------------------------
def check_flapjack_observations(state: FlapjackState) -> None:
    n = state.players
    played = state.played_cards()
    for viewer in [None, *range(n)]:
        obs = state.observation(viewer)
        json.dumps(obs.to_dict())
        check_card_views(obs)
        visible = list(played)
        hidden = list(state.draw_pile)
        for p in range(n):
            seat = obs["seats"][p]
            assert seat["hand_count"] == len(state.hands[p])
            assert seat["trick_count"] == len(state.tricks[p])
            if p == viewer or state.is_over:  # leftover hands are shown once the game is over
                visible += state.hands[p]
                assert [c["key"] for c in seat["hand"]] == [c.key for c in state.hands[p]]
            else:
                hidden += state.hands[p]
                assert seat["hand"] is None
        leaks = hidden_cards_leaked(obs, hidden, visible)
        assert not leaks, f"seat {viewer} sees hidden cards {leaks}"
        assert obs["draw_pile"] == len(state.draw_pile)
        assert obs["played"] == [c.code for c in played]
        assert obs["total"] == state.total
        check_private_events(obs, state, viewer)
        if viewer is not None and viewer == state.current:
            assert [(a["key"], a["sign"]) for a in obs["legal_actions"]] == [
                (a.card.key, a.sign) for a in state.legal_actions()]
        else:
            assert obs["legal_actions"] == []
    revealed = state.observation(None, reveal=True)
    for p in range(n):
        assert [c["key"] for c in revealed["seats"][p]["hand"]] == [c.key for c in state.hands[p]]


@pytest.mark.parametrize("variant", FLAPJACK_VARIANTS)
@pytest.mark.parametrize("players", [2, 4, 8])
def test_flapjack_observation_hides_hands_and_draw_pile(players: int, variant: str) -> None:
    cfg = flapjack_config(players, variant)
    rng = random.Random(players)

    def sample(state: FlapjackState) -> None:
        if state.is_over or rng.random() < 1 / players:
            check_flapjack_observations(state)

    for seed in range(4):
        play_flapjack(cfg, seed, on_step=sample)


def test_flapjack_draw_is_private() -> None:
    state = FlapjackState.deal(FlapjackConfig(), rng=0, deck="6S,7C,2S,2H,3S,3H,4S,4H,5S,5H,"
                               "8S,8H,9S,9H,10S,10H")
    state.apply_action(state.legal_actions()[0])
    drawn = state.hands[1][-1]
    assert drawn.code == "10S"
    def text(viewer: int | None) -> str:
        return json.dumps(state.observation(viewer).to_dict(), ensure_ascii=False)

    assert find_card_text(text(1), drawn)
    assert not find_card_text(text(0), drawn)
    assert not find_card_text(text(None), drawn)
    assert "10H" not in text(1)  # the next card of the pile


def test_flapjack_observation_refuses_unknown_viewer() -> None:
    state = FlapjackState.deal(FlapjackConfig(players=3), rng=1)
    with pytest.raises(IllegalActionError, match="no-such-player"):
        state.observation(3)


# ----- the leak search itself must find leaks ---------------------------------------------
def test_leak_search_finds_every_form() -> None:
    card = parse_card("10H")
    for text in ('{"x": "10H"}', '"10\u2665 (-10)"', '"ten of hearts"', '"10H#0"'):
        assert find_card_text(text, card), text
    assert not find_card_text('{"x": "110H2", "y": "A10H"}', card)
    obs = {"note": "you drew K\u2660"}
    assert hidden_cards_leaked(obs, [parse_card("KS")], []) == {"KS": ["K\u2660"]}
    assert hidden_cards_leaked(obs, [parse_card("KS")], [parse_card("KS")]) == {}


@hsettings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 8),
       game=st.sampled_from(["hit-me", "flapjack"]), data=st.data())
def test_any_state_any_seat_hides_hidden_cards(seed: int, players: int, game: str,
                                               data: st.DataObject) -> None:
    if game == "hit-me":
        variant = data.draw(st.sampled_from(list(HIT_ME_VARIANTS)))
        cfg: Any = hit_me_config(players, variant)
        play: Any = play_hit_me_round
        check: Any = check_hit_me_observations
    else:
        variant = data.draw(st.sampled_from(FLAPJACK_VARIANTS))
        cfg = flapjack_config(players, variant)
        play, check = play_flapjack, check_flapjack_observations
    # Play once to count the states (the deal, then one a move), choose one that exists, and
    # play the same seeded game again to take it: the check always runs on a real state.
    states = itertools.count()
    play(cfg, seed, on_step=lambda s: next(states))
    total = next(states)
    step = data.draw(st.integers(0, total - 1))
    counter = itertools.count()
    snapshots: list[Any] = []
    play(cfg, seed, on_step=lambda s: snapshots.append(s.clone())
         if next(counter) == step else None)
    assert len(snapshots) == 1, f"state {step} of {total} was not reached"
    check(snapshots[0])


def test_flapjack_leftover_hands_are_shown_at_the_end() -> None:
    from engine.flapjack import FlapjackConfig, FlapjackState

    state = FlapjackState.deal(FlapjackConfig(players=2), rng=4)
    import random

    rng = random.Random(4)
    before = state.observation(0)
    assert before["seats"][1]["hand"] is None
    while not state.is_over:
        state.apply_action(rng.choice(state.legal_actions()))
    seen = state.observation(0)
    assert seen["reveal"] is True
    for seat in seen["seats"]:
        assert [c["key"] for c in seat["hand"]] == [c.key for c in state.hands[seat["seat"]]]


@pytest.mark.parametrize("bad", [True, 1.0, "1", 99, -1])
def test_observation_and_legal_actions_refuse_non_seats(bad: object) -> None:
    from engine.errors import IllegalActionError
    from engine.hit_me import HitMeConfig, HitMeRound

    state = HitMeRound.deal(HitMeConfig(players=3, ace_eleven=True), rng=1)
    with pytest.raises(IllegalActionError, match="no-such-player"):
        state.observation(bad)
    assert state.legal_actions(bad) == []
