"""Forged saves are refused whole; honest saves load and round-trip.

Honest saves come from seeded random play in every variant (Hit Me rounds, Hit Me games of
several rounds, Flapjack games), taken at a random step. A forgery is an honest save changed
by one mutation that play by the rules cannot produce: a card doubled, lost, foreign or
misspelt, a value of the wrong JSON type, a seat or a counter out of range, a held player
to play, a wrong hand size, a total past the limit, a field missing or unknown, ... Each
must be refused with a ConfigError (not a KeyError or a TypeError), leaving the data given
to `from_json` unchanged.
"""

from __future__ import annotations

import copy
import json
import math
import random
from collections.abc import Callable
from typing import Any

import pytest
from helpers import (
    FLAPJACK_VARIANTS,
    HIT_ME_VARIANTS,
    flapjack_config,
    hit_me_config,
    play_flapjack,
    play_hit_me_round,
    random_hit_me_step,
)
from hypothesis import assume, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from engine.errors import ConfigError
from engine.flapjack import FlapjackConfig, FlapjackState
from engine.hit_me import HitMeGame, HitMeRound, Reveal

Save = dict[str, Any]
LOADERS: dict[str, Callable[[Save], Any]] = {
    "hit-me": HitMeRound.from_json,
    "hit-me-game": HitMeGame.from_json,
    "flapjack": FlapjackState.from_json,
}


# ----- honest saves --------------------------------------------------------------------------
def json_copy(d: Save) -> Save:
    return json.loads(json.dumps(d))


def hit_me_round_saves(players: int, variant: str, seed: int) -> list[Save]:
    saves: list[Save] = []
    dealer = seed % players
    play_hit_me_round(hit_me_config(players, variant), seed, dealer=dealer,
                      on_step=lambda s: saves.append(json_copy(s.to_json())))
    return saves


def hit_me_game_saves(players: int, variant: str, seed: int, rounds: int = 4) -> list[Save]:
    """A game of a few rounds; saved after every move, after `finish_round` and after each
    new deal (the score table, the history and the passing of the deal change there)."""
    game = HitMeGame(hit_me_config(players, variant), seed=seed)
    rng = random.Random(f"game-{seed}")
    saves = [json_copy(game.to_json())]
    for _ in range(rounds):
        ace_budget = [4]
        while not game.round.players_done:
            random_hit_me_step(game.round, rng, ace_budget)
            saves.append(json_copy(game.to_json()))
        if rng.random() < 0.5:
            game.finish_round()
            saves.append(json_copy(game.to_json()))
        game.next_round()
        saves.append(json_copy(game.to_json()))
    return saves


def flapjack_saves(players: int, variant: str, seed: int) -> list[Save]:
    """A game in a named variant, or ('custom') with settings set piece by piece: a limit,
    face cards or not, adding or subtracting or not, and targets (0 among them or not)."""
    if variant == "custom":
        pick = random.Random(f"custom-{seed}")
        limit, faces, aos = pick.randint(1, 20), pick.random() < 0.5, pick.random() < 0.5
        totals = range(0 if aos else -limit, limit + 1)
        targets = pick.sample(totals, min(len(totals), pick.randint(1, 3)))
        config = FlapjackConfig(players=players, decks=-(-7 * players // (52 if faces else 40)),
                                limit=limit, face_cards=faces, add_or_subtract=aos,
                                targets=targets)
    else:
        config = flapjack_config(players, variant)
    saves: list[Save] = []
    play_flapjack(config, seed, dealer=seed % players,
                  on_step=lambda s: saves.append(json_copy(s.to_json())))
    return saves


@st.composite
def honest_saves(draw: st.DrawFn) -> tuple[str, Save]:
    kind = draw(st.sampled_from(sorted(LOADERS)))
    players = draw(st.integers(2, 8))
    seed = draw(st.integers(0, 2**32 - 1))
    if kind == "flapjack":
        saves = flapjack_saves(players, draw(st.sampled_from([*FLAPJACK_VARIANTS, "custom"])),
                               seed)
    else:
        variant = draw(st.sampled_from(sorted(HIT_ME_VARIANTS)))
        make = hit_me_round_saves if kind == "hit-me" else hit_me_game_saves
        saves = make(players, variant, seed)
    return kind, saves[draw(st.integers(0, len(saves) - 1))]


@hsettings(max_examples=100)
@given(honest=honest_saves())
def test_every_honest_save_loads_and_round_trips(honest: tuple[str, Save]) -> None:
    kind, save = honest
    loaded = LOADERS[kind](json_copy(save))
    assert loaded.to_json() == save
    assert LOADERS[kind](json_copy(loaded.to_json())).to_json() == save


def test_honest_saves_cover_every_stage() -> None:
    """The honest saves above include starts, middles and ends of both games (positive
    control for the property test: a validator that refused late states would fail it)."""
    rounds = hit_me_round_saves(4, "round-robin", 3) + hit_me_round_saves(3, "all-at-once", 4)
    assert any(s["current"] is None for s in rounds) and any(s["current"] for s in rounds)
    games = hit_me_game_saves(3, "ace-eleven", 5)
    assert any(g["recorded"] for g in games) and len(games[-1]["history"]) == 4
    fj = flapjack_saves(3, "add-or-subtract", 6)
    assert fj[-1]["end_reason"] and any(s["table"] for s in fj) and any(s["tricks"] != [[]] * 3
                                                                        for s in fj)
    for kind, saves in (("hit-me", rounds), ("hit-me-game", games), ("flapjack", fj)):
        for s in saves:
            assert LOADERS[kind](json_copy(s)).to_json() == s


# ----- forgeries -----------------------------------------------------------------------------
# Each mutation changes a deep copy of an honest save in place, or returns False where it does
# not apply. `round_of` finds the part of the save that holds a Hit Me round.
Mutation = Callable[[str, Save, random.Random], bool]
MUTATIONS: dict[str, Mutation] = {}


def mutation(fn: Mutation) -> Mutation:
    MUTATIONS[fn.__name__] = fn
    return fn


def round_of(kind: str, save: Save) -> Save:
    return save["round"] if kind == "hit-me-game" else save


def card_lists(kind: str, save: Save) -> list[list[Any]]:
    """Every list of saved cards: deck, face-down cards, face-up rows / draw pile, hands,
    tricks (table entries are pairs and handled on their own)."""
    if kind == "flapjack":
        return [save["draw_pile"], *save["hands"], *save["tricks"]]
    r = round_of(kind, save)
    return [r["deck"], r["face_down"], *r["face_up"]]


def card_slots(kind: str, save: Save) -> list[tuple[list[Any], int]]:
    slots = [(cards, i) for cards in card_lists(kind, save) for i in range(len(cards))]
    if kind == "flapjack":
        slots += [(entry, 0) for entry in save["table"]]
    return slots


@mutation
def doubled_card(kind: str, save: Save, rng: random.Random) -> bool:
    """One card written over another: that card is in two places, the other lost."""
    (a, i), (b, j) = rng.sample(card_slots(kind, save), 2)
    b[j] = a[i]
    return True


@mutation
def card_in_a_second_place(kind: str, save: Save, rng: random.Random) -> bool:
    a, i = rng.choice(card_slots(kind, save))
    rng.choice(card_lists(kind, save)).append(a[i])
    return True


@mutation
def card_dropped(kind: str, save: Save, rng: random.Random) -> bool:
    places = [cards for cards in card_lists(kind, save) if cards]
    if kind == "flapjack" and save["table"]:
        places.append(save["table"])
    place = rng.choice(places)
    del place[rng.randrange(len(place))]
    return True


@mutation
def card_from_a_deck_not_in_play(kind: str, save: Save, rng: random.Random) -> bool:
    a, i = rng.choice(card_slots(kind, save))
    decks = save["config"]["decks"]
    code = a[i].partition("#")[0]
    a[i] = f"{code}#{decks}"
    return True


@mutation
def face_card_in_simple_ten(kind: str, save: Save, rng: random.Random) -> bool:
    if kind != "flapjack" or save["config"]["face_cards"]:
        return False
    a, i = rng.choice(card_slots(kind, save))
    a[i] = rng.choice("JQK") + a[i][-1] if "#" not in a[i] else "Q" + a[i].partition("#")[0][-1]
    return True


@mutation
def card_misspelt(kind: str, save: Save, rng: random.Random) -> bool:
    a, i = rng.choice(card_slots(kind, save))
    code, _, copy_ = a[i].partition("#")
    a[i] = rng.choice([code.lower(), f" {a[i]}", f"{code}#0", f"{code}#0{copy_ or 1}",
                       "1" + code[-1] if code[0] == "A" else "ZZ", code + "X", ""])
    return True


def leaves(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[tuple[Any, ...], Any]]:
    """Every (path, value) of a JSON tree outside the event log (checked loosely)."""
    if isinstance(node, dict):
        return [x for k, v in node.items() if k != "events" for x in leaves(v, (*path, k))]
    if isinstance(node, list):
        return [x for i, v in enumerate(node) for x in leaves(v, (*path, i))]
    return [(path, node)]


def other_types(value: Any) -> list[Any]:
    """Values of another JSON type that a careless reader might take for `value`."""
    if isinstance(value, bool):
        return [int(value), str(value).lower(), float(value)]
    if isinstance(value, int):
        return [float(value), str(value), [value]] + ([bool(value)] if value in (0, 1) else [])
    if isinstance(value, str):
        return [[value], {"code": value}, 7] + ([list(value)] if len(value) > 1 else [])
    return []


@mutation
def wrong_type(kind: str, save: Save, rng: random.Random) -> bool:
    """A bool, a float, a text or a list where another type belongs (anywhere but events)."""
    spots = [(p, v) for p, v in leaves(save) if other_types(v)]
    path, value = rng.choice(spots)
    node = save
    for k in path[:-1]:
        node = node[k]
    node[path[-1]] = rng.choice(other_types(value))
    return True


@mutation
def list_written_as_text(kind: str, save: Save, rng: random.Random) -> bool:
    """Targets, held flags or hands given as a string (a string is never split into items)."""
    if kind == "flapjack":
        key = rng.choice(["targets", "hands"])
        if key == "targets":
            save["config"]["targets"] = "".join(str(t) for t in save["config"]["targets"])
        else:
            save["hands"][0] = ",".join(save["hands"][0])
        return True
    r = round_of(kind, save)
    r["held"] = "".join("1" if h else "0" for h in r["held"])
    return True


@mutation
def seat_out_of_range(kind: str, save: Save, rng: random.Random) -> bool:
    n = save["config"]["players"]
    target = save if kind == "flapjack" else round_of(kind, save)
    key = rng.choice(["dealer", "current"])
    target[key] = rng.choice([n, n + 1, -1, 10**9])
    return True


@mutation
def wrong_number_of_seats(kind: str, save: Save, rng: random.Random) -> bool:
    if kind == "flapjack":
        key = rng.choice(["hands", "tricks", "flapjacks"])
        lst = save[key]
    elif kind == "hit-me-game" and rng.random() < 0.5:
        lst = save[rng.choice(["wins", "ties", "last_dealt"])]
    else:
        r = round_of(kind, save)
        lst = r[rng.choice(["held", "face_down", "face_up", "ace_high"])]
    if rng.random() < 0.5:
        lst.append(copy.deepcopy(lst[-1]))
    else:
        lst.pop()
    return True


@mutation
def held_player_to_play(kind: str, save: Save, rng: random.Random) -> bool:
    if kind == "flapjack":
        return False
    r = round_of(kind, save)
    if r["current"] is not None:
        r["held"][r["current"]] = True
        return True
    held = [p for p, h in enumerate(r["held"]) if h]
    if not held:
        return False
    r["current"] = rng.choice(held)
    return True


@mutation
def full_or_empty_row(kind: str, save: Save, rng: random.Random) -> bool:
    """Hit Me: no face-up card, or 7 face-up cards (8 in all). Flapjack: a hand short while
    cards are left to draw, or a hand of 8."""
    if kind == "flapjack":
        hands = save["hands"]
        p = rng.randrange(len(hands))
        if save["draw_pile"] and hands[p]:
            save["draw_pile"].append(hands[p].pop())
            return True
        donors = [q for q in range(len(hands)) if q != p and hands[q]]
        if not donors or len(hands[p]) + sum(len(hands[q]) for q in donors) < 8:
            return False
        while len(hands[p]) < 8:
            hands[p].append(hands[rng.choice([q for q in donors if hands[q]])].pop())
        return True
    r = round_of(kind, save)
    p = rng.randrange(len(r["face_up"]))
    if rng.random() < 0.5:
        r["deck"] += r["face_up"][p]
        r["face_up"][p] = []
        return True
    need = 7 - len(r["face_up"][p])
    if len(r["deck"]) < need:
        return False
    r["face_up"][p] += r["deck"][:need]
    del r["deck"][:need]
    return True


@mutation
def total_past_the_limit(kind: str, save: Save, rng: random.Random) -> bool:
    if kind == "hit-me-game":
        if not save["history"]:
            return False
        res = rng.choice(save["history"])
        p = rng.randrange(len(res["sums"]))
        res["sums"][p] = 7 * (11 if save["config"]["ace_eleven"] else 10) + 1
        res["scores"][p] = res["sums"][p]
        return True
    if kind != "flapjack" or not save["table"]:
        return False
    cfg = save["config"]
    before = sum(v for _, v in save["table"][:-1])
    save["table"][-1][1] = cfg["limit"] - before + rng.randint(1, 5)
    return True


@mutation
def table_entry_not_its_card(kind: str, save: Save, rng: random.Random) -> bool:
    """The amount a card added is not its value (or minus it when adding or subtracting)."""
    if kind != "flapjack" or not save["table"]:
        return False
    entry = rng.choice(save["table"])
    entry[1] += rng.choice([-1, 1])
    return True


@mutation
def counter_changed(kind: str, save: Save, rng: random.Random) -> bool:
    if kind == "flapjack":
        key = rng.choice(["plays", "passes", "flapjacks"])
        if key == "flapjacks":
            # One more Flapjack than the trick holds. (Adding or subtracting, one more than
            # counted could be another reading of the same cards, so there: more than cards.)
            p = rng.randrange(len(save["flapjacks"]))
            if save["config"]["add_or_subtract"]:
                save["flapjacks"][p] = len(save["tricks"][p]) + 1
            else:
                save["flapjacks"][p] += 1
        elif key == "passes":
            save["passes"] = (save["config"]["players"] - 1) * (save["plays"] + 1) + 1
        else:
            save["plays"] += rng.choice([-1, 1])
        return True
    if kind == "hit-me-game":
        key = rng.choice(["wins", "ties"])
        save[key][rng.randrange(len(save[key]))] += 1
        return True
    return False


@mutation
def cards_in_play_moved_to_a_trick(kind: str, save: Save, rng: random.Random) -> bool:
    """Cards in play taken without a Flapjack (the total never reached a target). Not when
    adding or subtracting: there another choice of signs may well read the longer trick as
    the same number of Flapjacks, which is a state honest play can reach."""
    if kind != "flapjack" or not save["table"] or save["config"]["add_or_subtract"]:
        return False
    save["tricks"][rng.randrange(len(save["tricks"]))] += [c for c, _ in save["table"]]
    save["table"] = []
    return True


@mutation
def over_but_someone_still_in(kind: str, save: Save, rng: random.Random) -> bool:
    if kind == "flapjack":
        if save["end_reason"] is not None:
            return False
        save["end_reason"] = rng.choice(["blocked", "all-played"])
        save["current"] = None
        return True
    r = round_of(kind, save)
    if r["current"] is None:
        return False
    r["current"] = None
    return True


@mutation
def game_level(kind: str, save: Save, rng: random.Random) -> bool:
    """Hit Me game: the dealer, the record flag, last dealt, the generator, the settings."""
    if kind != "hit-me-game":
        return False
    n = save["config"]["players"]
    choice = rng.randrange(6)
    if choice == 0:
        save["dealer"] = (save["dealer"] + 1) % n
    elif choice == 1:
        save["recorded"] = not save["recorded"]
    elif choice == 2:
        d = save["dealer"]
        save["last_dealt"][d] = save["last_dealt"][d] + 1
    elif choice == 3:
        save["rng"][1][rng.randrange(624)] = 2**32
    elif choice == 4:
        save["rng"][1][624] = 625
    else:
        save["round"]["config"] = dict(save["config"], colors="red-positive"
                                       if save["config"]["colors"] == "black-positive"
                                       else "black-positive")
    return True


@mutation
def settings_out_of_bounds(kind: str, save: Save, rng: random.Random) -> bool:
    cfg = save["config"]
    key, value = rng.choice([("players", 1), ("players", 21), ("players", 10**9),
                             ("decks", 0), ("decks", 9), ("decks", 10**9),
                             ("colors", "blue"), ("players", cfg["players"] + 1)])
    cfg[key] = value
    return True


@mutation
def field_missing_or_unknown(kind: str, save: Save, rng: random.Random) -> bool:
    node = rng.choice([save, save["config"]] + ([save["round"]] if "round" in save else []))
    if rng.random() < 0.5:
        del node[rng.choice(sorted(node))]
    else:
        node["cheat"] = True
    return True


@mutation
def not_an_object(kind: str, save: Save, rng: random.Random) -> bool:
    key = rng.choice(["config", "events"] + (["round", "history"] if "round" in save else []))
    save[key] = rng.choice(["x", 7, None, True])
    return True


# The event log: every field of every event typed and bounded, its cards the game's own.
EVENT_NUMBERS = ("value", "before", "delta", "after", "score", "count")


def events_of(kind: str, save: Save) -> list[dict[str, Any]]:
    return round_of(kind, save)["events"]


@mutation
def event_number_not_a_number(kind: str, save: Save, rng: random.Random) -> bool:
    """A number of an event as text, a list, a bool, a float, NaN or far too large."""
    spots = [(e, k) for e in events_of(kind, save) for k in EVENT_NUMBERS if k in e]
    if not spots:
        return False
    event, key = rng.choice(spots)
    event[key] = rng.choice(["x", [], True, 2.5, math.nan, math.inf, 10**50])
    return True


@mutation
def event_card_not_in_play(kind: str, save: Save, rng: random.Random) -> bool:
    """An event's card from a deck the game does not use, or not a card at all."""
    spots = [e for e in events_of(kind, save) for e in (e, e.get("private") or {}) if "card" in e]
    if not spots:
        return False
    event = rng.choice(spots)
    code = event["card"].partition("#")[0]
    event["card"] = rng.choice([f"{code}#{save['config']['decks']}", "ZZ", 7])
    return True


@mutation
def event_field_unknown_or_misplaced(kind: str, save: Save, rng: random.Random) -> bool:
    """An unknown key in an event, an event of the other game, a seat out of range, or a
    private part of another seat."""
    events = events_of(kind, save)
    if not events:
        return False
    event = rng.choice(events)
    n = save["config"]["players"]
    choice = rng.randrange(4)
    if choice == 0:
        event["cheat"] = 1
    elif choice == 1:
        event["kind"] = "flapjack" if kind != "flapjack" else "hit"
    elif choice == 2:
        event["seat"] = rng.choice([n, -1, True, "0"])
    else:
        if event.get("seat") is None:
            return False
        event["private"] = {"kind": event["kind"], "seat": (event["seat"] + 1) % n}
    return True


@mutation
def reveal_flag_cleared(kind: str, save: Save, rng: random.Random) -> bool:
    """A Hit Me round whose log holds its reveal saved as not revealed (revealing it again
    would log the reveal twice), or one marked revealed whose log never turned a card up."""
    if kind == "flapjack":
        return False
    r = round_of(kind, save)
    if r["revealed"]:
        r["revealed"] = False
        return True
    if r["current"] is not None:
        return False
    r["revealed"] = True
    return True


@mutation
def recorded_before_the_reveal(kind: str, save: Save, rng: random.Random) -> bool:
    """A Hit Me game whose round in its announce step (cards still face down) is recorded in
    the score table, with the matching history entry."""
    if kind != "hit-me-game" or save["recorded"] or save["round"]["current"] is not None \
            or save["round"]["revealed"]:
        return False
    res = HitMeRound.from_json(json_copy(save["round"])).result()
    save["history"].append(res.to_json())
    if res.tie:
        for w in res.winners:
            save["ties"][w] += 1
    else:
        save["wins"][res.winners[0]] += 1
    save["recorded"] = True
    return True


@mutation
def targets_not_as_saved(kind: str, save: Save, rng: random.Random) -> bool:
    """Flapjack targets repeated or out of order: loading would rewrite them."""
    if kind != "flapjack":
        return False
    t = save["config"]["targets"]
    save["config"]["targets"] = rng.choice([t + t[:1], t[::-1] if len(t) > 1 else t + t])
    return True


def test_a_revealed_round_saved_as_not_revealed_cannot_reveal_twice() -> None:
    """The concrete case: revealing again would have logged every reveal twice."""
    rnd = play_hit_me_round(hit_me_config(3, "round-robin"), 4)
    rnd.apply_action(Reveal())
    save = json_copy(rnd.to_json())
    save["revealed"] = False
    with pytest.raises(ConfigError, match="saved game refused: "):
        HitMeRound.from_json(save)


def test_a_game_dealt_from_an_exact_deck_saves_and_loads() -> None:
    """A game made through the public API with `exact` (the given cards are the whole deck)
    is saved and loaded back, at every step, and plays on the same after loading."""
    deck = "KS,QH,2C,3D,4S,5H,6C,7D,8S,9H,10C,JD,QS,KH,AC,2D,3S"
    state = FlapjackState.deal(FlapjackConfig(), exact=True, deck=deck)
    while True:
        save = json_copy(state.to_json())
        loaded = FlapjackState.from_json(save)
        assert loaded.to_json() == save
        assert loaded.all_cards() and sorted(c.key for c in loaded.all_cards()) == \
            sorted(c.key for c in state.all_cards())
        if state.is_over:
            break
        action = state.legal_actions()[0]
        state.apply_action(action)
        loaded.apply_action(loaded.legal_actions()[0])
        assert loaded.to_json() == state.to_json()
    forged = json_copy(state.to_json())
    forged["cards"] = forged["cards"][1:]  # a card of the game left out of its cards
    with pytest.raises(ConfigError, match="saved game refused: "):
        FlapjackState.from_json(forged)


@hsettings(max_examples=200)
@given(honest=honest_saves(), name=st.sampled_from(sorted(MUTATIONS)),
       seed=st.integers(0, 2**32 - 1))
def test_every_forged_save_is_refused_whole(honest: tuple[str, Save], name: str,
                                            seed: int) -> None:
    kind, save = honest
    forged = copy.deepcopy(save)
    assume(MUTATIONS[name](kind, forged, random.Random(seed)))
    assume(forged != save)  # (a mutation may, rarely, write back what was there)
    given_text = json.dumps(forged, sort_keys=True)
    with pytest.raises(ConfigError, match="saved game refused: "):
        LOADERS[kind](forged)
    assert json.dumps(forged, sort_keys=True) == given_text, "from_json changed its input"


@pytest.mark.parametrize("name", sorted(MUTATIONS))
def test_each_mutation_applies_and_is_refused(name: str) -> None:
    """Every mutation above really runs on some honest save of some kind (so none is dead
    code in the property test) and is refused there."""
    applied = 0
    pools = {"hit-me": hit_me_round_saves(4, "ace-eleven", 1) + hit_me_round_saves(3,
                                                                                  "all-at-once", 2),
             "hit-me-game": hit_me_game_saves(3, "round-robin", 3),
             "flapjack": flapjack_saves(3, "classic", 4) + flapjack_saves(2, "simple-ten", 5)
             + flapjack_saves(4, "add-or-subtract", 6) + flapjack_saves(3, "custom", 7)}
    rng = random.Random(name)
    for kind, saves in pools.items():
        for save in rng.sample(saves, min(12, len(saves))):
            forged = copy.deepcopy(save)
            if not MUTATIONS[name](kind, forged, rng) or forged == save:
                continue
            applied += 1
            with pytest.raises(ConfigError):
                LOADERS[kind](forged)
    assert applied >= 2, f"{name} applied to only {applied} saves"
