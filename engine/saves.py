"""Checking a saved game completely before it is loaded.

`HitMeRound.from_json`, `HitMeGame.from_json`, `FlapjackState.from_json` and the configs'
`from_json` call these first: a forged or damaged save is refused whole with a `ConfigError`
that says where and what, and nothing is built. Each check follows from RULES.md and the way
the engine changes a state (see the comments); the honest saves of seeded random play in every
variant pass them all (tests/test_forged_saves.py).

The event log is checked field by field (`check_events`): each event of a kind this game
logs, every number a bounded whole number, every card one of the game's own, no unknown key,
a private part only of its own seat. Hit Me's log must hold its reveal exactly when the round
says it is revealed (revealing again would log it twice).
"""

from __future__ import annotations

import math
import random
from typing import Any

from engine.cards import Card, Convention, make_deck
from engine.errors import ConfigError
from engine.events import EVENT_FIELDS, Event, EventKind
from engine.flapjack import (
    HAND_SIZE,
    VARIANTS,
    EndReason,
    FlapjackConfig,
    FlapjackState,
    PassReason,
)
from engine.hit_me import CARDS_PER_DECK, MAX_CARDS, HitMeConfig, HitMeRound, TurnOrder
from engine.validate import (
    MAX_DECKS,
    MAX_PLAYERS,
    every_card_once,
    expect_bool,
    expect_card,
    expect_cards,
    expect_choice,
    expect_fields,
    expect_int,
    expect_list,
    expect_list_of,
    expect_seat,
    fail,
    is_int,
)

COLORS = tuple(c.value for c in Convention)
TURN_ORDERS = tuple(t.value for t in TurnOrder)
END_REASONS = tuple(r.value for r in EndReason)
EVENT_KINDS = tuple(k.value for k in EventKind)

HIT_ME_CONFIG_FIELDS = ("players", "decks", "colors", "turn_order", "ace_eleven")
HIT_ME_ROUND_FIELDS = ("game", "config", "dealer", "deck", "face_down", "face_up", "held",
                       "ace_high", "current", "revealed", "events")
HIT_ME_GAME_FIELDS = ("game", "config", "rng", "wins", "ties", "last_dealt", "history",
                      "dealer", "recorded", "round")
RESULT_FIELDS = ("sums", "scores", "winners", "tie")
FLAPJACK_CONFIG_FIELDS = ("players", "decks", "colors", "variant", "limit", "face_cards",
                          "add_or_subtract", "targets")
FLAPJACK_FIELDS = ("game", "config", "dealer", "draw_pile", "hands", "table", "tricks",
                   "current", "end_reason", "flapjacks", "plays", "passes", "events")


# ----- settings ------------------------------------------------------------------------------
def check_hit_me_config(d: Any, where: str = "config") -> dict[str, Any]:
    """Saved Hit Me settings: exact fields and types (the constructor checks the ranges)."""
    expect_fields(d, where, HIT_ME_CONFIG_FIELDS)
    expect_int(d["players"], f"{where}.players", 2, MAX_PLAYERS)
    expect_int(d["decks"], f"{where}.decks", 1, MAX_DECKS)
    expect_choice(d["colors"], f"{where}.colors", COLORS)
    expect_choice(d["turn_order"], f"{where}.turn_order", TURN_ORDERS)
    expect_bool(d["ace_eleven"], f"{where}.ace_eleven")
    return d


def check_flapjack_config(d: Any, where: str = "config") -> dict[str, Any]:
    """Saved Flapjack settings: exact fields and types (the constructor checks the ranges)."""
    expect_fields(d, where, FLAPJACK_CONFIG_FIELDS)
    expect_int(d["players"], f"{where}.players", 2, MAX_PLAYERS)
    expect_int(d["decks"], f"{where}.decks", 1, MAX_DECKS)
    expect_choice(d["colors"], f"{where}.colors", COLORS)
    expect_choice(d["variant"], f"{where}.variant", tuple(VARIANTS))
    expect_int(d["limit"], f"{where}.limit", 1, 100)
    expect_bool(d["face_cards"], f"{where}.face_cards")
    expect_bool(d["add_or_subtract"], f"{where}.add_or_subtract")
    targets = expect_list(d["targets"], f"{where}.targets")  # the constructor checks each
    if all(is_int(t) for t in targets) and targets != sorted(set(targets)):
        # the settings save them sorted, each once: anything else would load as another list
        raise fail(f"{where}.targets", f"must be in increasing order, each once; got {targets}")
    return d


def _config(make: Any, d: Any) -> Any:
    try:
        return make(d)
    except ConfigError as e:
        msg = str(e)
        raise (e if msg.startswith("saved game refused") else fail("config", msg)) from None


HIT_ME_EVENTS = ("deal", "hit", "hold", "full", "ace", "reveal", "result")
FLAPJACK_EVENTS = ("deal", "play", "draw", "flapjack", "pass", "end")
EVENT_KEYS = ("kind", "seat", *EVENT_FIELDS, "private")
EVENT_NUMBERS = ("value", "before", "delta", "after", "score", "count")
EVENT_REASONS = (*(r.value for r in PassReason), *END_REASONS)
MAX_EVENT_NUMBER = 10_000  # far above any sum, total or count a game can reach


def check_events(events: Any, kinds: tuple[str, ...], players: int,
                 deck: list[Card]) -> list[dict[str, Any]]:
    """Every event of the log: a kind this game logs, its seat one of the table's (or none),
    each number a whole number within +-MAX_EVENT_NUMBER, `values` and `winners` lists of them
    (winners seats), `reason` a known code, `lead` true or false, a card of the game's own
    `deck`, no unknown key, and a private part of the same kind and seat (with no private
    part of its own)."""
    keys = {c.key for c in deck}
    for i, e in enumerate(expect_list(events, "events")):
        _check_event(e, f"events[{i}]", kinds, players, keys, private=False)
        try:
            Event.from_json(e)
        except (KeyError, TypeError, ValueError, AttributeError) as err:
            raise fail(f"events[{i}]", f"not an event: {err!r}") from None
    return events


def _check_event(e: Any, where: str, kinds: tuple[str, ...], players: int, keys: set[str],
                 private: bool) -> None:
    if type(e) is not dict:
        raise fail(where, f"must be an object; got {type(e).__name__}")
    unknown = sorted(repr(k) for k in e if k not in EVENT_KEYS or (private and k == "private"))
    if unknown:
        raise fail(where, f"unknown field(s): {', '.join(unknown)}")
    if "kind" not in e or "seat" not in e:
        raise fail(where, "missing field(s): kind, seat")
    expect_choice(e["kind"], f"{where}.kind", kinds)
    if e["seat"] is not None:
        expect_seat(e["seat"], f"{where}.seat", players)
    for name in EVENT_NUMBERS:
        if name in e:
            expect_int(e[name], f"{where}.{name}", -MAX_EVENT_NUMBER, MAX_EVENT_NUMBER)
    if "values" in e:
        expect_list_of(e["values"], f"{where}.values", len(expect_list(
            e["values"], f"{where}.values", high=MAX_EVENT_NUMBER)),
            lambda v, w: expect_int(v, w, -MAX_EVENT_NUMBER, MAX_EVENT_NUMBER))
    if "winners" in e:
        expect_list_of(e["winners"], f"{where}.winners", len(expect_list(
            e["winners"], f"{where}.winners", high=players)),
            lambda v, w: expect_seat(v, w, players))
    if "reason" in e:
        expect_choice(e["reason"], f"{where}.reason", EVENT_REASONS)
    if "lead" in e:
        expect_bool(e["lead"], f"{where}.lead")
    if "card" in e:
        card = expect_card(e["card"], f"{where}.card")
        if card.key not in keys:
            raise fail(f"{where}.card", f"{card.key} is not a card of this game's deck(s)")
    if "private" in e:
        p = e["private"]
        _check_event(p, f"{where}.private", kinds, players, keys, private=True)
        if p["kind"] != e["kind"] or p["seat"] != e["seat"]:
            raise fail(f"{where}.private", "must be of the same kind and seat as its event")


# ----- Hit Me --------------------------------------------------------------------------------
def check_hit_me_round(d: Any, where: str = "Hit Me round") -> None:
    """Refuse (ConfigError) a saved round that play by the rules cannot reach."""
    expect_fields(d, where, HIT_ME_ROUND_FIELDS)
    if d["game"] != "hit-me":
        raise fail(f"{where}.game", f"must be 'hit-me'; got {d['game']!r}")
    cfg = _config(HitMeConfig.from_json, d["config"])
    n = cfg.players
    dealer = expect_seat(d["dealer"], "dealer", n)
    deck = expect_cards(d["deck"], "deck", high=cfg.decks * CARDS_PER_DECK)
    face_down = expect_list_of(d["face_down"], "face_down", n, expect_card)
    # Two cards are dealt to each; a player takes hits up to 7 cards in all.
    face_up = expect_list_of(d["face_up"], "face_up", n,
                             lambda v, w: expect_cards(v, w, 1, MAX_CARDS - 1))
    held = expect_list_of(d["held"], "held", n, expect_bool)
    current = d["current"]
    if current is not None:
        expect_seat(current, "current", n)
    every_card_once(deck + face_down + [c for cs in face_up for c in cs],
                    make_deck(cfg.decks), "cards")
    aces = [{c.key for c in [face_down[p], *face_up[p]] if c.rank == 1} for p in range(n)]
    ace_high = expect_list(d["ace_high"], "ace_high", n)
    for p, choices in enumerate(ace_high):
        if type(choices) is not dict:
            raise fail(f"ace_high[{p}]", f"must be an object; got {type(choices).__name__}")
        if choices and not cfg.ace_eleven:
            raise fail(f"ace_high[{p}]", "aces count 1 only: the 'ace one or eleven' rule is off")
        for key, high in choices.items():
            if key not in aces[p]:
                raise fail(f"ace_high[{p}]", f"{key!r} is not one of player {p}'s aces")
            expect_bool(high, f"ace_high[{p}][{key!r}]")
    revealed = expect_bool(d["revealed"], "revealed")
    events = check_events(d["events"], HIT_ME_EVENTS, n, make_deck(cfg.decks))
    shown = sum(e["kind"] == "reveal" for e in events), sum(e["kind"] == "result" for e in events)

    # The engine's own reading of these pieces answers who is still in.
    rnd = HitMeRound(config=cfg, dealer=dealer, deck=deck, face_down=face_down,
                     face_up=face_up, held=held, ace_high=ace_high, current=current)
    for p in range(n):
        if held[p] and len(rnd.cards(p)) >= MAX_CARDS:
            raise fail(f"held[{p}]", "a player with 7 cards is never asked, so cannot hold")
    if current is None:
        still = [p for p in range(n) if rnd.is_in(p)]
        if still:
            raise fail("current", f"the round is over but player(s) {still} are still in")
        _check_reveal_logged(revealed, shown, n)
        return
    if revealed:
        raise fail("revealed", f"the cards are turned up only once every player is done, "
                               f"and player {current} is still to play")
    _check_reveal_logged(revealed, shown, n)
    if held[current]:
        raise fail("current", f"player {current} has held and cannot be the one to play")
    if not rnd.is_in(current):
        raise fail("current", f"player {current} has 7 cards and cannot be the one to play")
    _check_turns(rnd, current)


def _check_reveal_logged(revealed: bool, shown: tuple[int, int], n: int) -> None:
    """The log holds the reveal (a reveal a player and the result) exactly when the round is
    revealed: `shown` is (reveal events, result events) in the log."""
    if shown != ((n, 1) if revealed else (0, 0)):
        raise fail("revealed", f"{'a revealed' if revealed else 'a round not yet revealed'} "
                               f"round logs {n if revealed else 0} reveals and "
                               f"{1 if revealed else 0} result; the log holds {shown[0]} and "
                               f"{shown[1]}")


def _check_turns(rnd: HitMeRound, current: int) -> None:
    """Who has been asked so far, given whose turn it is. Players are asked in seat order from
    the dealer's left (position 0) to the dealer (last)."""
    n = rnd.players

    def pos(seat: int) -> int:
        return (seat - rnd.dealer - 1) % n

    h = rnd.hits(current)
    for p in range(n):
        if p == current:
            continue
        before, hits = pos(p) < pos(current), rnd.hits(p)
        if rnd.config.turn_order is TurnOrder.ALL_AT_ONCE:
            # Everyone before the current player is done; no one after has been asked.
            if before and rnd.is_in(p):
                raise fail(f"seat {p}", f"must be done before player {current} plays "
                                        "(all at once: each player in turn takes all their hits)")
            if not before and (hits or rnd.held[p]):
                raise fail(f"seat {p}", f"cannot have played before player {current}'s turn "
                                        "(all at once)")
            continue
        # Round robin: in pass h+1 the players before the current one have been asked (a hit
        # gives them h+1 hits), the ones after not yet (h hits); a held player stopped earlier.
        if rnd.held[p]:
            most = h if before else h - 1
            if hits > most:
                raise fail(f"seat {p}", f"held with {hits} hits, but only {most} passes could "
                                        f"have reached them before player {current}'s turn")
        elif hits != (h + 1 if before else h):
            raise fail(f"seat {p}", f"has {hits} hits; in pass {h + 1} with player {current} to "
                                    f"play, a player still in has {h + 1 if before else h}")


def _check_result(r: Any, where: str, n: int, max_abs: int) -> tuple[list[int], list[int]]:
    expect_fields(r, where, RESULT_FIELDS)
    sums = expect_list_of(r["sums"], f"{where}.sums", n,
                          lambda v, w: expect_int(v, w, -max_abs, max_abs))
    scores = expect_list_of(r["scores"], f"{where}.scores", n,
                            lambda v, w: expect_int(v, w, 0, max_abs))
    if scores != [abs(s) for s in sums]:
        raise fail(f"{where}.scores", "each score must be |sum|")
    best = min(scores)
    winners = [p for p in range(n) if scores[p] == best]
    if r["winners"] != winners or any(not is_int(w) for w in r["winners"]):
        raise fail(f"{where}.winners", f"the lowest |sum| wins: must be {winners}")
    if expect_bool(r["tie"], f"{where}.tie") != (len(winners) > 1):
        raise fail(f"{where}.tie", "a tie is two or more winners")
    return sums, winners


def check_hit_me_game(d: Any) -> None:
    """Refuse (ConfigError) a saved game of rounds that play by the rules cannot reach."""
    expect_fields(d, "Hit Me game", HIT_ME_GAME_FIELDS)
    if d["game"] != "hit-me-game":
        raise fail("game", f"must be 'hit-me-game'; got {d['game']!r}")
    cfg = _config(HitMeConfig.from_json, d["config"])
    n = cfg.players
    check_hit_me_round(d["round"], "round")
    if d["round"]["config"] != d["config"]:
        raise fail("round.config", "must be the game's settings")
    dealer = expect_seat(d["dealer"], "dealer", n)
    if dealer != d["round"]["dealer"]:
        raise fail("dealer", "must be the current round's dealer")
    _check_rng(d["rng"])
    max_abs = MAX_CARDS * (11 if cfg.ace_eleven else 10)
    history = [_check_result(r, f"history[{i}]", n, max_abs)
               for i, r in enumerate(expect_list(d["history"], "history"))]
    wins = expect_list_of(d["wins"], "wins", n, lambda v, w: expect_int(v, w, 0))
    ties = expect_list_of(d["ties"], "ties", n, lambda v, w: expect_int(v, w, 0))
    for p in range(n):
        if wins[p] != sum(ws == [p] for _, ws in history):
            raise fail(f"wins[{p}]", "must count the rounds player won alone in the history")
        if ties[p] != sum(len(ws) > 1 and p in ws for _, ws in history):
            raise fail(f"ties[{p}]", "must count the tied rounds in the history")
    recorded = expect_bool(d["recorded"], "recorded")
    rnd = HitMeRound.from_json(d["round"])
    if recorded:
        res = rnd.result()
        if res is None:
            raise fail("recorded", "a round is recorded only once it is over")
        if not rnd.revealed:
            raise fail("recorded", "a round is recorded once its cards are turned up (revealed)")
        if not history or history[-1] != (list(res.sums), list(res.winners)):
            raise fail("history", "the last entry must be the recorded round's result")
    # The round now dealt is number len(history) (counted from 0), or one less once recorded.
    now = len(history) - recorded
    last = expect_list_of(d["last_dealt"], "last_dealt", n,
                          lambda v, w: v if v is None else expect_int(v, w, 0, now))
    if last[dealer] != now:
        raise fail(f"last_dealt[{dealer}]", f"the dealer dealt round {now}, this one")
    if last[0] is None:
        raise fail("last_dealt[0]", "seat 0 dealt the first round")
    dealt = [x for x in last if x is not None]
    if len(set(dealt)) != len(dealt):
        raise fail("last_dealt", "one dealer a round: two seats cannot have dealt the same one")
    for i in range(1, now + 1):
        _, winners = history[i - 1]
        w = winners[0]
        if len(winners) == 1 and (last[w] is None or last[w] < i):
            raise fail(f"last_dealt[{w}]", f"player {w} won round {i - 1} alone, so dealt "
                                           f"round {i}")


def _check_rng(value: Any) -> None:
    """Python's Mersenne Twister state: version 3, 624 words and an index, no spare gauss
    or a finite one."""
    state = expect_list(value, "rng", 3)
    version, internal, gauss = state
    if version != 3 or not is_int(version):
        raise fail("rng[0]", f"must be 3; got {version!r}")
    words = expect_list(internal, "rng[1]", 625, 625)
    for i, x in enumerate(words[:624]):
        expect_int(x, f"rng[1][{i}]", 0, 2**32 - 1)
    expect_int(words[624], "rng[1][624]", 0, 624)
    if gauss is not None and (type(gauss) is not float or not math.isfinite(gauss)):
        raise fail("rng[2]", f"must be null or a number; got {gauss!r}")
    try:
        random.Random().setstate((version, tuple(words), gauss))
    except (TypeError, ValueError, OverflowError) as e:
        raise fail("rng", str(e)) from None


# ----- Flapjack ------------------------------------------------------------------------------
def check_flapjack_state(d: Any) -> None:
    """Refuse (ConfigError) a saved Flapjack game that play by the rules cannot reach."""
    exact = type(d) is dict and "cards" in d  # a game dealt from an exact list of cards
    expect_fields(d, "Flapjack game", FLAPJACK_FIELDS + (("cards",) if exact else ()))
    if d["game"] != "flapjack":
        raise fail("game", f"must be 'flapjack'; got {d['game']!r}")
    cfg = _config(FlapjackConfig.from_json, d["config"])
    n = cfg.players
    full = make_deck(cfg.decks, cfg.ranks)
    if exact:
        deck = expect_cards(d["cards"], "cards", HAND_SIZE * n, cfg.deck_size())
        foreign = sorted(c.key for c in deck if c not in set(full))
        if foreign or len(set(deck)) != len(deck):
            raise fail("cards", "the cards of the game must be different cards of its "
                                f"{cfg.decks} deck(s)" + (f": {', '.join(foreign)}"
                                                          if foreign else ""))
        if sorted(deck) == sorted(full):
            raise fail("cards", "the whole deck(s): saved without this field")
        full = deck
    size = len(full)
    dealer = expect_seat(d["dealer"], "dealer", n)
    draw = expect_cards(d["draw_pile"], "draw_pile", high=size - HAND_SIZE * n)
    hands = expect_list_of(d["hands"], "hands", n,
                           lambda v, w: expect_cards(v, w, 0, HAND_SIZE))
    tricks = expect_list_of(d["tricks"], "tricks", n, lambda v, w: expect_cards(v, w, 0, size))
    table = [_table_entry(x, f"table[{i}]")
             for i, x in enumerate(expect_list(d["table"], "table", high=size))]
    every_card_once(draw + [c for h in hands for c in h] + [c for c, _ in table]
                    + [c for t in tricks for c in t], full, "cards")
    flapjacks = expect_list_of(d["flapjacks"], "flapjacks", n,
                               lambda v, w: expect_int(v, w, 0, size))
    plays = expect_int(d["plays"], "plays", 0, size)
    passes = expect_int(d["passes"], "passes", 0)
    current = d["current"]
    if current is not None:
        expect_seat(current, "current", n)
    end = d["end_reason"]
    if end is not None:
        expect_choice(end, "end_reason", END_REASONS)
    check_events(d["events"], FLAPJACK_EVENTS, n, full)

    # Every player is dealt 7 and draws after each play while the pile lasts.
    if draw and any(len(h) != HAND_SIZE for h in hands):
        raise fail("hands", "while the draw pile has cards every hand holds 7")
    # Each play puts one card in play; a Flapjack moves the cards in play to a trick.
    if plays != len(table) + sum(len(t) for t in tricks):
        raise fail("plays", "must be the number of cards in play and in tricks")
    # Between two plays the turn passes each player at most once.
    if passes > (n - 1) * (plays + 1):
        raise fail("passes", f"at most {n - 1} passes follow each play; got {passes} after "
                             f"{plays} plays")
    _check_table(cfg, table)
    for p in range(n):
        _check_tricks(cfg, tricks[p], flapjacks[p], f"tricks[{p}]")

    state = FlapjackState(config=cfg, dealer=dealer, draw_pile=draw, hands=hands, table=table,
                          tricks=tricks, current=current, flapjacks=flapjacks)
    can_play = [p for p in range(n) if state._moves(p)]
    all_played = not draw and not any(hands)
    if end is None:
        if current is None:
            raise fail("current", "the game is not over, so a player is to play")
        if current not in can_play:
            raise fail("current", f"player {current} has no legal card, so would have passed")
        if plays == 0:
            first = next(p for k in range(n) if (p := (dealer + 1 + k) % n) in can_play)
            if current != first or passes != (first - dealer - 1) % n:
                raise fail("current", f"the first player with a legal card from the dealer's "
                                      f"left leads: player {first}")
        return
    if current is not None:
        raise fail("current", "the game is over: no one is to play")
    if end == EndReason.ALL_PLAYED.value and not all_played:
        raise fail("end_reason", "'all-played' but cards are left in hands or the draw pile")
    if end == EndReason.BLOCKED.value and (all_played or can_play):
        raise fail("end_reason", "'blocked' but " + (
            "every card has been played" if all_played else f"player(s) {can_play} can play"))


def _table_entry(x: Any, where: str) -> tuple[Card, int]:
    pair = expect_list(x, where, 2)
    card = expect_card(pair[0], f"{where}[0]")
    if not is_int(pair[1]):
        raise fail(f"{where}[1]", f"must be a whole number; got {pair[1]!r}")
    return card, pair[1]


def _check_table(cfg: FlapjackConfig, table: list[tuple[Card, int]]) -> None:
    """Each card in play added its value (or, adding or subtracting, minus it after the
    lead); every running total stayed within the limits and none made a Flapjack."""
    total = 0
    for i, (card, added) in enumerate(table):
        v = cfg.value(card)
        allowed = (v, -v) if cfg.add_or_subtract and i > 0 else (v,)
        if added not in allowed:
            raise fail(f"table[{i}]", f"{card.key} adds {' or '.join(map(str, allowed))}; "
                                      f"got {added}")
        total += added
        if not cfg.low <= total <= cfg.high:
            raise fail(f"table[{i}]", f"the total {total} is outside {cfg.low}..{cfg.high}")
        if total in cfg.targets:
            raise fail(f"table[{i}]", f"the total {total} is a Flapjack: the cards would "
                                      "have been taken")


def _check_tricks(cfg: FlapjackConfig, cards: list[Card], flapjacks: int, where: str) -> None:
    """A player's tricks are `flapjacks` runs of cards, in the order played, each ending on
    the first total that makes a Flapjack, every total within the limits (with a sign
    choice per card after the lead when adding or subtracting)."""
    # The ways to have played the cards so far: (running total, Flapjacks made, table empty).
    states = {(0, 0, True)}
    for card in cards:
        v = cfg.value(card)
        nxt: set[tuple[int, int, bool]] = set()
        for total, made, empty in states:
            for s in ((1, -1) if cfg.add_or_subtract and not empty else (1,)):
                new = total + s * v
                if not cfg.low <= new <= cfg.high:
                    continue
                if new not in cfg.targets:
                    nxt.add((new, made, False))
                elif made < flapjacks:
                    nxt.add((0, made + 1, True))
        states = nxt
    if (0, flapjacks, True) not in states:
        raise fail(where, f"{len(cards)} card(s) cannot be {flapjacks} Flapjack(s) made by "
                          "the rules, in the order played")
