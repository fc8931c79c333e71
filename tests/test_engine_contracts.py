"""The engine's core API at its edges, the same in both games.

Seats given as something other than a seat, actions equal only in value, actions read back
from data (without telling where a hidden card is), what a bot can reach from its observation,
observations as JSON, and the one rule for an ace whose two values are equally close to zero.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.bots import best_sum, make_bot
from engine.cards import parse_card
from engine.errors import IllegalActionError, Reason
from engine.events import EventKind
from engine.flapjack import FlapjackConfig, FlapjackState, Play
from engine.games import make_game
from engine.hints import hit_me_hint_data
from engine.hit_me import ChooseAce, HitMeConfig, HitMeObservation, HitMeRound, Hold, Phase, Reveal

NOT_SEATS = [True, False, 1.0, 0.0, "0", "1", -1, 2, 99, [0]]


def flapjack(seed: int = 1) -> FlapjackState:
    return FlapjackState.deal(FlapjackConfig(), rng=seed)


def hit_me(deck: str, **settings: Any) -> HitMeRound:
    return HitMeRound.deal(HitMeConfig(**settings), rng=1, deck=deck)


# ----- a seat that is not a seat -------------------------------------------------------------
@pytest.mark.parametrize("seat", NOT_SEATS)
def test_legal_actions_of_something_not_a_seat_is_empty_in_both_games(seat: Any) -> None:
    fj = flapjack()
    hm = hit_me("5S,7C,2H,9C", ace_eleven=True)
    for state in (fj, hm):
        assert state.legal_actions(seat) == [], (type(state).__name__, seat)
        assert state.legal_actions(state.current_player)  # (positive control)


# ----- an action equal in value is not the same action ----------------------------------------
def test_an_action_apply_action_refuses_is_not_among_the_legal_actions() -> None:
    hm = hit_me("5S,AS,2H,9C", ace_eleven=True)
    ace = hm.face_down[0]
    assert ace.rank == 1
    assert ChooseAce(ace, True) in hm.legal_actions(0)
    for high in (1, 0):
        assert ChooseAce(ace, high) not in hm.legal_actions(0)
        with pytest.raises(IllegalActionError):
            hm.apply_action(ChooseAce(ace, high), 0)
    fj = flapjack()
    card = fj.legal_actions()[0].card
    assert Play(card, 1) in fj.legal_actions()
    assert Play(card, True) not in fj.legal_actions()
    with pytest.raises(IllegalActionError):
        fj.apply_action(Play(card, True))
    assert Play(card, 1) == Play(card) and hash(Play(card, 1)) == hash(Play(card))


# ----- actions from data -----------------------------------------------------------------------
def test_an_action_read_from_data_does_not_tell_where_a_hidden_card_is() -> None:
    """Flapjack: an opponent's card, a draw-pile card and a card of no game are refused alike
    (the same error, reason and fields), as not in the player's hand."""
    state = flapjack()
    game = make_game("flapjack")
    me = state.current
    other = state.hands[(me + 1) % 2][0].key
    pile = state.draw_pile[0].key
    refusals = []
    for key in (other, pile, "QS#7"):
        with pytest.raises(IllegalActionError) as err:
            game.action_from_json({"kind": "play", "key": key, "sign": 1}, state)
        refusals.append((type(err.value), err.value.reason, sorted(err.value.data),
                         err.value.data.get("seat")))
    assert refusals[0] == refusals[1] == refusals[2]
    assert refusals[0][1] is Reason.NOT_IN_HAND
    own = state.hands[me][0]
    assert game.action_from_json({"kind": "play", "key": own.key, "sign": 1}, state) == Play(own)


def test_a_hit_me_ace_read_from_data_is_looked_for_in_the_seat_own_cards_only() -> None:
    state = hit_me("AH,AS,2H,9C", ace_eleven=True)  # seat 1: AH face down; seat 0: AS
    game = make_game("hit-me", ace_eleven=True)
    theirs, nowhere = "AH", "AD"
    refusals = []
    for key in (theirs, nowhere):
        with pytest.raises(IllegalActionError) as err:
            game.action_from_json({"kind": "ace", "key": key, "high": True}, state, seat=0)
        refusals.append((err.value.reason, sorted(err.value.data)))
    assert refusals[0] == refusals[1]
    mine = game.action_from_json({"kind": "ace", "key": "AS", "high": True}, state, seat=0)
    assert mine == ChooseAce(parse_card("AS"), True)


# ----- what a bot can reach ------------------------------------------------------------------
def reachable(obj: Any) -> list[Any]:
    """Every attribute value of `obj` that Python code reaches by name (dir())."""
    out = []
    for name in dir(obj):
        try:
            out.append(getattr(obj, name))
        except Exception:  # noqa: BLE001 (a property that refuses is not reached)
            continue
    return out


@pytest.mark.parametrize("game", ["hit-me", "flapjack"])
def test_an_observation_holds_no_attribute_leading_to_the_game(game: str) -> None:
    state = hit_me("5S,7C,2H,9C") if game == "hit-me" else flapjack()
    views = [state.observation(0), state.observation(0, False, False)]
    if game == "hit-me":
        views += [views[0].seat(0), views[0].seat(1),
                  HitMeObservation.for_seat_to_play(state, state.current)]
    for view in views:
        assert not hasattr(view, "_state")
        for value in reachable(view):
            assert value is not state
            assert not hasattr(value, "apply_action") or callable(value) and \
                getattr(value, "__self__", None) is not state
    assert views[0]["players"] == 2  # (the views still read the game)


# ----- observations as JSON -------------------------------------------------------------------
@pytest.mark.parametrize("game", ["hit-me", "flapjack"])
def test_json_dumps_reads_an_observation_as_its_dict(game: str) -> None:
    state = hit_me("5S,7C,2H,9C") if game == "hit-me" else flapjack()
    obs = state.observation(0)
    assert json.loads(json.dumps(obs)) == obs.to_dict()
    assert json.dumps(obs, sort_keys=True) == json.dumps(obs.to_dict(), sort_keys=True)
    assert json.loads(json.dumps(state.observation(1))) == state.observation(1).to_dict()
    if game == "hit-me":
        seat = state.observation(0).seat(0)
        assert json.loads(json.dumps(seat)) == dict(seat)
        bot_view = HitMeObservation.for_seat_to_play(state, state.current)
        assert json.loads(json.dumps(bot_view)) == bot_view.to_dict()


# ----- an ace equally good as 1 or as 11 ----------------------------------------------------
# ../shared/RULES.md: A = 1; with "ace one or eleven" an ace counts 11 as the player's choice,
# and where the player never chose, "the choice that brings the sum closest to zero". When 1
# and 11 are equally close, 11 brings it no closer: the ace keeps its value 1.
TIES = [
    # seat 0's face-down card, then its face-up card: (sum with the ace as 1, as 11)
    ("AS", "6H", -5),  # +1 - 6 = -5, +11 - 6 = +5
    ("AH", "6S", 5),  # -1 + 6 = +5, -11 + 6 = -5
]


@pytest.mark.parametrize(("down", "up", "scored"), TIES)
def test_an_ace_tie_has_one_answer_in_the_engine_the_check_the_hint_and_the_bots(
        down: str, up: str, scored: int) -> None:
    state = hit_me(f"10C,{down},9C,{up}", ace_eleven=True)  # seat 1: +19
    state.apply_action(Hold(), 1)  # (seat 1 plays first; then it is seat 0's turn)
    assert best_sum(scored, *((1, 0) if down == "AS" else (0, 1))) == scored
    # while playing: the hint and every computer player's reason
    hint = hit_me_hint_data(state.observation(0))
    assert hint["sum"] == scored
    for spec in ("random", "threshold:4", "expert"):
        obs = state.observation(0)
        decision = make_bot(spec, "hit-me", rng=1).choose(obs, state.legal_actions(0))
        assert decision.data["sum"] == scored, spec
    # the end of the round: the score, the values the student's check adds up, the reveal
    state.apply_action(Hold(), 0)
    assert state.final_sum(0) == scored
    mine = state.observation(0).seat(0)
    assert mine["sum"] == scored and sum(mine["values"]) == scored
    state.apply_action(state.legal_actions()[0])  # Reveal
    reveal = [e for e in state.events if e.kind is EventKind.REVEAL and e.seat == 0][0]
    assert reveal.after == scored and sum(reveal.values) == scored
    assert state.result().sums[0] == scored


# ----- the two games' shared words ------------------------------------------------------------
def test_both_games_deal_with_the_same_arguments() -> None:
    """`deal(config, rng, deck, dealer=...)` in both games (keywords as before work too)."""
    hm = HitMeRound.deal(HitMeConfig(), 5, "KS,7H", dealer=1)
    assert hm.dealer == 1 and hm.face_down[0].code == "KS"
    assert HitMeRound.deal(HitMeConfig(), dealer=1, rng=5, deck="KS,7H").to_json() == \
        hm.to_json()
    fj = FlapjackState.deal(FlapjackConfig(), 5, "KS,7H", dealer=1)
    assert fj.dealer == 1 and fj.hands[0][0].code == "KS"


def test_one_end_of_game_test_per_state() -> None:
    """Every state says it has ended with `is_over` only (no second name): in Flapjack once no
    seat is to play, in Hit Me after the announce step (`players_done`, `Phase.ANNOUNCE`: no
    seat to play, the one move Reveal) once Reveal turns every card up (`Phase.REVEALED`).
    The observation's `is_over` is the state's."""
    for game in ("hit-me", "flapjack"):
        state = make_game(game, players=3).new_state(rng=6)
        assert not hasattr(state, "over")
        announced = False
        while True:
            assert state.is_over == state.observation(0)["is_over"] == \
                state.observation(None)["is_over"]
            if game == "hit-me":
                assert state.players_done == (state.current_player is None)
                assert state.phase is (Phase.REVEALED if state.is_over else Phase.ANNOUNCE
                                       if state.players_done else Phase.PLAY)
                assert state.observation(0)["phase"] == state.phase.value
                if state.phase is Phase.ANNOUNCE:
                    announced = True
                    assert state.legal_actions(0) == [Reveal()]
            else:
                assert state.is_over == (state.current_player is None)
            if state.is_over:
                break
            seat = state.current_player if state.current_player is not None else 0
            state.apply_action(state.legal_actions(seat)[-1], seat)
        assert state.is_over and state.legal_actions(0) == []
        assert announced == (game == "hit-me")
