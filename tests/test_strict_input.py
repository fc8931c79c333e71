"""Exact types and upper bounds: each refusal, with its message checked loosely.

The property test in tests/test_forged_saves.py forges saves at random; these are the single
cases, one a rule, each beside a positive control that the same data, honest, is accepted.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from engine.cards import Card, Suit, card_from_json, card_to_json
from engine.errors import ConfigError
from engine.flapjack import FlapjackConfig, FlapjackState, Play
from engine.hit_me import Hit, HitMeConfig, HitMeGame, HitMeRound, Hold
from engine.validate import MAX_DECKS, MAX_PLAYERS


# ----- cards ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("args", "pattern"),
    [((7.0, Suit.SPADES), "rank is a whole number"),
     ((True, Suit.SPADES), "rank is a whole number"),
     (("7", Suit.SPADES), "rank is a whole number"),
     ((0, Suit.SPADES), "1 \\(ace\\) to 13"),
     ((14, Suit.SPADES), "1 \\(ace\\) to 13"),
     ((7, "S"), "suit is a Suit"),
     ((7, Suit.SPADES, 1.0), "copy .* whole number"),
     ((7, Suit.SPADES, True), "copy .* whole number"),
     ((7, Suit.SPADES, -1), "copy .* 0 or more")],
    ids=["float-rank", "bool-rank", "text-rank", "rank-0", "rank-14", "text-suit",
         "float-copy", "bool-copy", "negative-copy"])
def test_card_refuses_wrong_types(args: tuple[Any, ...], pattern: str) -> None:
    with pytest.raises(ConfigError, match=pattern):
        Card(*args)
    assert Card(7, Suit.SPADES, 1).key == "7S#1"  # the same card, honest


@pytest.mark.parametrize("text", ["ks", "KS#0", "KS#01", " KS", "KS ", "1S", "KS#1.0", "KS#",
                                  "KS#-1", "KS#1_0", "11S", "K", "", "KS\n", 7, None, ["KS"],
                                  True])
def test_card_from_json_reads_only_its_own_spelling(text: Any) -> None:
    with pytest.raises(ConfigError, match="not a saved card"):
        card_from_json(text)


def test_card_from_json_reads_every_key_it_writes() -> None:
    for card in (Card(13, Suit.SPADES), Card(10, Suit.HEARTS, 3), Card(1, Suit.DIAMONDS, 1)):
        assert card_from_json(card_to_json(card)) == card
    assert [card_to_json(c) for c in map(card_from_json, ["AD#1", "10C", "QH#7"])] == \
        ["AD#1", "10C", "QH#7"]


# ----- settings: upper bounds and exact types --------------------------------------------------
@pytest.mark.parametrize("make", [HitMeConfig, FlapjackConfig], ids=["hit-me", "flapjack"])
@pytest.mark.parametrize(
    ("kwargs", "pattern"),
    [({"players": MAX_PLAYERS + 1}, f"players must be 2 to {MAX_PLAYERS}; got {MAX_PLAYERS + 1}"),
     ({"players": 10**9}, f"players must be 2 to {MAX_PLAYERS}"),
     ({"players": True}, "players must be a whole number"),
     ({"players": 4.0}, "players must be a whole number"),
     ({"decks": MAX_DECKS + 1}, f"decks must be 1 to {MAX_DECKS}; got {MAX_DECKS + 1}"),
     ({"decks": 10**9}, f"decks must be 1 to {MAX_DECKS}"),
     ({"decks": True}, "decks must be a whole number"),
     ({"decks": 2.0}, "decks must be a whole number")],
    ids=["players-over", "players-huge", "players-bool", "players-float", "decks-over",
         "decks-huge", "decks-bool", "decks-float"])
def test_settings_have_bounds_and_exact_types(make: Any, kwargs: dict[str, Any],
                                              pattern: str) -> None:
    with pytest.raises(ConfigError, match=pattern):
        make(**kwargs)


@pytest.mark.parametrize("make", [HitMeConfig, FlapjackConfig], ids=["hit-me", "flapjack"])
def test_largest_settings_are_accepted(make: Any) -> None:
    cfg = make(players=MAX_PLAYERS, decks=MAX_DECKS)
    assert (cfg.players, cfg.decks) == (MAX_PLAYERS, MAX_DECKS)


@pytest.mark.parametrize(
    ("targets", "pattern"),
    [("13", "targets must be a list"), ("0,13", "targets must be a list"),
     (13, "targets must be a list"), ({0, 13}, "targets must be a list"),
     ((13.0,), "targets must be whole numbers"), ((True,), "targets must be whole numbers"),
     (("13",), "targets must be whole numbers"), ((0, 14), "within -13..13"),
     ([], "at least one")],
    ids=["text", "text-list", "int", "set", "float", "bool", "text-item", "over", "empty"])
def test_flapjack_targets_are_a_list_of_whole_numbers(targets: Any, pattern: str) -> None:
    with pytest.raises(ConfigError, match=pattern):
        FlapjackConfig(targets=targets)
    assert FlapjackConfig(targets=[13, 0]).targets == (0, 13)
    assert FlapjackConfig(targets=(13,)).targets == (13,)


def test_flapjack_target_text_is_never_split_into_digits() -> None:
    """Before: '13' became the targets 1 and 3."""
    with pytest.raises(ConfigError):
        FlapjackConfig.from_json(dict(FlapjackConfig().to_json(), targets="13"))


@pytest.mark.parametrize(
    ("change", "pattern"),
    [({"players": 2.0}, "config.players: must be a whole number"),
     ({"decks": None}, "config.decks: must be a whole number"),
     ({"decks": True}, "config.decks: must be a whole number"),
     ({"ace_eleven": 1}, "config.ace_eleven: must be true or false"),
     ({"colors": "Accounting"}, "config.colors: must be one of black-positive, red-positive"),
     ({"turn_order": ["round-robin"]}, "config.turn_order: must be one of"),
     ({"speed": 3}, "unknown field"),
     ({"players": MAX_PLAYERS + 1}, f"must be 2 to {MAX_PLAYERS}")],
    ids=["float", "null-decks", "bool-decks", "int-flag", "alias", "list", "unknown", "bound"])
def test_saved_hit_me_settings_are_exact(change: dict[str, Any], pattern: str) -> None:
    saved = HitMeConfig(players=3).to_json()
    assert HitMeConfig.from_json(dict(saved)) == HitMeConfig(players=3)
    with pytest.raises(ConfigError, match=pattern):
        HitMeConfig.from_json(dict(saved, **change))
    with pytest.raises(ConfigError, match="missing field.*ace_eleven"):
        HitMeConfig.from_json({k: v for k, v in saved.items() if k != "ace_eleven"})


@pytest.mark.parametrize(
    ("change", "pattern"),
    [({"variant": "Simple ten"}, "config.variant: must be one of"),
     ({"limit": 13.0}, "config.limit: must be a whole number"),
     ({"limit": 101}, "config.limit: must be 1 to 100"),
     ({"face_cards": "yes"}, "config.face_cards: must be true or false"),
     ({"targets": [0, 13.0]}, "targets must be whole numbers"),
     ({"targets": "-13013"}, "config.targets: must be a list")],
    ids=["variant-alias", "float-limit", "limit-over", "text-flag", "float-target",
         "text-targets"])
def test_saved_flapjack_settings_are_exact(change: dict[str, Any], pattern: str) -> None:
    saved = FlapjackConfig().to_json()
    assert FlapjackConfig.from_json(dict(saved)) == FlapjackConfig()
    with pytest.raises(ConfigError, match=pattern):
        FlapjackConfig.from_json(dict(saved, **change))


# ----- saved games: one rule each -----------------------------------------------------------
def hit_me_save() -> dict[str, Any]:
    """Three players, dealer 0: seat 1 hit, seat 2 held, seat 0 to play in pass 1."""
    state = HitMeRound.deal(HitMeConfig(players=3), rng=2,
                            deck="2C,3C,4C,5C,6C,7C,8C,9C,10C,AH")
    state.apply_action(Hit())
    state.apply_action(Hold())
    assert state.current == 0
    return json.loads(json.dumps(state.to_json()))


def flapjack_save() -> dict[str, Any]:
    state = FlapjackState.deal(FlapjackConfig(players=2), rng=3)
    state.apply_action(Play(min(state.legal_actions(), key=lambda a: a.card.rank).card))
    return json.loads(json.dumps(state.to_json()))


def forged(save: dict[str, Any], edit: str) -> dict[str, Any]:
    d = copy.deepcopy(save)
    exec(edit, {"d": d})  # an edit is one short statement on `d`, written below
    return d


@pytest.mark.parametrize(
    ("edit", "pattern"),
    [("d['deck'][0] = d['face_down'][1]", "in more than one place: 2C"),
     ("d['deck'].append(d['deck'][0])", "in more than one place"),
     ("d['deck'].pop()", "card\\(s\\) missing"),
     ("d['deck'][0] = d['deck'][0] + '#1'", "not in this game's deck"),
     ("d['face_up'][1] = []", "face_up\\[1\\]: must hold 1 to 6 cards"),
     ("d['face_up'][0] += d['deck'][:6]; del d['deck'][:6]", "face_up\\[0\\]: must hold 1 to 6"),
     ("d['held'][2] = 1", "held\\[2\\]: must be true or false"),
     ("d['held'][0] = True", "player 0 has held and cannot be the one to play"),
     ("d['current'] = 3", "current: must be 0 to 2"),
     ("d['current'] = 1.0", "current: must be a whole number"),
     ("d['current'] = True", "current: must be a whole number"),
     ("d['current'] = None", "the round is over but player\\(s\\) \\[0, 1\\] are still in"),
     ("d['current'] = 1", "seat 0.* has 0 hits"),
     ("d['dealer'] = -1", "dealer: must be 0 to 2"),
     ("d['revealed'] = True", "turned up only once every player is done"),
     ("d['revealed'] = 1", "revealed: must be true or false"),
     ("del d['revealed']", "missing field"),
     ("d['held'].append(False)", "held: must have 3 entries"),
     ("d['ace_high'][0] = {'2C': True}", "the 'ace one or eleven' rule is off"),
     ("d['face_down'][0] = 'kS'", "face_down\\[0\\]: not a saved card"),
     ("d['config']['players'] = 4", "must have 4 entries"),
     ("d['events'] = 'deal'", "events: must be a list"),
     ("d['events'][0]['kind'] = 'cheat'", "events\\[0\\].kind: must be one of"),
     ("d['game'] = 'flapjack'", "must be 'hit-me'"),
     ("d['extra'] = 1", "unknown field"),
     ("del d['held']", "missing field")],
    ids=lambda x: x if len(x) < 40 else x[:40])
def test_saved_hit_me_round_rules(edit: str, pattern: str) -> None:
    save = hit_me_save()
    assert HitMeRound.from_json(copy.deepcopy(save)).to_json() == save
    with pytest.raises(ConfigError, match="saved game refused: .*" + pattern):
        HitMeRound.from_json(forged(save, edit))


def test_saved_ace_choice_only_for_own_aces() -> None:
    state = HitMeRound.deal(HitMeConfig(ace_eleven=True), rng=1, deck="AS,AH,2C,3C")
    save = json.loads(json.dumps(state.to_json()))
    save["ace_high"][0] = {"AH": True}  # seat 0's ace is AH (dealt second)
    assert HitMeRound.from_json(copy.deepcopy(save)).ace_high[0] == {"AH": True}
    for bad, pattern in (({"AS": True}, "'AS' is not one of player 0's aces"),
                         ({"AH": 1}, "must be true or false"), ({"2C": False}, "not one of")):
        save["ace_high"][0] = bad
        with pytest.raises(ConfigError, match=pattern):
            HitMeRound.from_json(save)


@pytest.mark.parametrize(
    ("edit", "pattern"),
    [("d['hands'][0].append(d['draw_pile'].pop())", "hands\\[0\\]: must hold 0 to 7 cards"),
     ("d['draw_pile'].append(d['hands'][1].pop())", "while the draw pile has cards every hand"),
     ("d['table'][0][1] = 14", "adds"),
     ("d['table'][0][1] = float(d['table'][0][1])", "table\\[0\\]\\[1\\]: must be a whole"),
     ("d['table'][0] = d['table'][0][0]", "table\\[0\\]: must be a list"),
     ("d['plays'] = 2", "plays: must be the number of cards in play and in tricks"),
     ("d['plays'] = True", "plays: must be a whole number"),
     ("d['passes'] = 3", "passes: at most 1 passes follow each play"),
     ("d['flapjacks'][0] = 1", "tricks\\[0\\]: 0 card\\(s\\) cannot be 1 Flapjack"),
     ("d['tricks'][0] = [d['table'][0][0]]; d['table'] = []", "cannot be 0 Flapjack"),
     ("d['current'] = None", "the game is not over, so a player is to play"),
     ("d['end_reason'] = 'all-played'; d['current'] = None", "'all-played' but cards"),
     ("d['end_reason'] = 'blocked'; d['current'] = None", "'blocked' but player"),
     ("d['end_reason'] = 'won'", "end_reason: must be one of"),
     ("d['config']['targets'] = '13'", "targets: must be a list"),
     ("d['config']['face_cards'] = False", "draw_pile: must hold 0 to 26 cards"),
     ("d['draw_pile'][0] = 'QS#1'", "not in this game's deck")],
    ids=lambda x: x if len(x) < 40 else x[:40])
def test_saved_flapjack_rules(edit: str, pattern: str) -> None:
    save = flapjack_save()
    assert save["current"] == 0 and len(save["table"]) == 1 and save["plays"] == 1
    assert FlapjackState.from_json(copy.deepcopy(save)).to_json() == save
    with pytest.raises(ConfigError, match="saved game refused: .*" + pattern):
        FlapjackState.from_json(forged(save, edit))


def test_saved_flapjack_table_total_within_the_limit() -> None:
    state = FlapjackState.deal(FlapjackConfig(players=2), rng=1, deck="9S,8S")
    state.apply_action(Play(state.hands[1][0]))  # 9S: +9
    save = json.loads(json.dumps(state.to_json()))
    assert save["table"] == [["9S", 9]]
    assert FlapjackState.from_json(copy.deepcopy(save)).total == 9
    # 8S on top of 9S would be +17, past the limit 13: refused, though 8S adds its value.
    save["table"].append([save["hands"][0].pop(save["hands"][0].index("8S")), 8])
    save["hands"][0].append(save["draw_pile"].pop())
    save["plays"] = 2
    with pytest.raises(ConfigError, match="table\\[1\\]: the total 17 is outside -13..13"):
        FlapjackState.from_json(save)


def hit_me_game_save(rounds: int = 3) -> dict[str, Any]:
    game = HitMeGame(HitMeConfig(players=3), seed=4)
    for _ in range(rounds):
        while not game.round.players_done:
            game.round.apply_action(Hit() if game.round.sum(game.round.current) < 0 else Hold())
        game.next_round()
    return json.loads(json.dumps(game.to_json()))


@pytest.mark.parametrize(
    ("edit", "pattern"),
    [("d['wins'][0] += 1", "wins\\[0\\]: must count"),
     ("d['ties'][1] = 1.0", "ties\\[1\\]: must be a whole number"),
     ("d['history'][0]['sums'][0] = 71; d['history'][0]['scores'][0] = 71",
      "sums\\[0\\]: must be -70 to 70"),
     ("d['history'][0]['scores'][0] += 1", "each score must be \\|sum\\|"),
     ("d['history'][0]['winners'] = [w + 0.0 for w in d['history'][0]['winners']]",
      "the lowest \\|sum\\| wins"),
     ("d['history'][0]['tie'] = not d['history'][0]['tie']", "a tie is two or more"),
     ("d['recorded'] = True", "recorded only once it is over"),
     ("d['dealer'] = (d['dealer'] + 1) % 3", "must be the current round's dealer"),
     ("d['last_dealt'][d['dealer']] = 0 if d['dealer'] else 1", "dealt round 3, this one"),
     ("d['rng'][0] = 2", "rng\\[0\\]: must be 3"),
     ("d['rng'][1][5] = 2**32", "rng\\[1\\]\\[5\\]: must be 0 to 4294967295"),
     ("d['rng'][1][624] = 625", "rng\\[1\\]\\[624\\]: must be 0 to 624"),
     ("d['rng'][1] = d['rng'][1][:-1]", "rng\\[1\\]: must have 625 entries"),
     ("d['rng'][2] = float('nan')", "rng\\[2\\]: must be null or a number"),
     ("d['round']['config']['colors'] = 'red-positive'", "round.config: must be the game's"),
     ("d['round']['held'][0] = 0", "held\\[0\\]: must be true or false"),
     ("d['config']['players'] = 21", "players: must be 2 to 20")],
    ids=lambda x: x if len(x) < 40 else x[:40])
def test_saved_hit_me_game_rules(edit: str, pattern: str) -> None:
    save = hit_me_game_save()
    assert len(save["history"]) == 3 and not save["recorded"]
    assert HitMeGame.from_json(copy.deepcopy(save)).to_json() == save
    with pytest.raises(ConfigError, match="saved game refused: .*" + pattern):
        HitMeGame.from_json(forged(save, edit))
