"""Checking a saved game completely before it is loaded: the checks both games share.

`HitMeRound.from_json`, `HitMeGame.from_json`, `FlapjackState.from_json` and the configs'
`from_json` call their game's checks first (`check_hit_me_round`, `check_hit_me_game`,
`check_hit_me_config` in engine/hit_me.py; `check_flapjack_state`, `check_flapjack_config`
in engine/flapjack.py), which use these: a forged or damaged save is refused whole with a
`ConfigError` that says where and what, and nothing is built. Each check follows from
../shared/RULES.md and the way the engine changes a state (see the comments); the honest saves
of seeded random play in every variant pass them all (tests/test_forged_saves.py).

The event log is checked field by field (`check_events`): each event of a kind this game
logs, every number a bounded whole number, every card one of the game's own, no unknown key,
a private part only of its own seat. Hit Me's log must hold its reveal exactly when the round
says it is revealed (revealing again would log it twice).
"""

from __future__ import annotations

import math
import random
from typing import Any

from engine.cards import Card, Convention
from engine.errors import ConfigError
from engine.events import EVENT_FIELDS, Event, EventKind
from engine.validate import (
    expect_bool,
    expect_card,
    expect_choice,
    expect_int,
    expect_list,
    expect_list_of,
    expect_seat,
    fail,
    is_int,
)

COLORS = tuple(c.value for c in Convention)
EVENT_KINDS = tuple(k.value for k in EventKind)


def load_config(make: Any, d: Any) -> Any:
    """A game's config from saved settings; its refusal said as a saved game's."""
    try:
        return make(d)
    except ConfigError as e:
        msg = str(e)
        raise (e if msg.startswith("saved game refused") else fail("config", msg)) from None


EVENT_KEYS = ("kind", "seat", *EVENT_FIELDS, "private")
EVENT_NUMBERS = ("value", "before", "delta", "after", "score", "count")
MAX_EVENT_NUMBER = 10_000  # far above any sum, total or count a game can reach


def check_events(events: Any, kinds: tuple[str, ...], players: int, deck: list[Card],
                 reasons: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    """Every event of the log: a kind this game logs, its seat one of the table's (or none),
    each number a whole number within +-MAX_EVENT_NUMBER, `values` and `winners` lists of them
    (winners seats), `reason` one of the game's `reasons`, `lead` true or false, a card of the
    game's own `deck`, no unknown key, and a private part of the same kind and seat (with no
    private part of its own)."""
    keys = {c.key for c in deck}
    for i, e in enumerate(expect_list(events, "events")):
        _check_event(e, f"events[{i}]", kinds, players, keys, reasons, private=False)
        try:
            Event.from_json(e)
        except (KeyError, TypeError, ValueError, AttributeError) as err:
            raise fail(f"events[{i}]", f"not an event: {err!r}") from None
    return events


def _check_event(e: Any, where: str, kinds: tuple[str, ...], players: int, keys: set[str],
                 reasons: tuple[str, ...], private: bool) -> None:
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
        expect_choice(e["reason"], f"{where}.reason", reasons)
    if "lead" in e:
        expect_bool(e["lead"], f"{where}.lead")
    if "card" in e:
        card = expect_card(e["card"], f"{where}.card")
        if card.key not in keys:
            raise fail(f"{where}.card", f"{card.key} is not a card of this game's deck(s)")
    if "private" in e:
        p = e["private"]
        _check_event(p, f"{where}.private", kinds, players, keys, reasons, private=True)
        if p["kind"] != e["kind"] or p["seat"] != e["seat"]:
            raise fail(f"{where}.private", "must be of the same kind and seat as its event")


def check_rng(value: Any) -> None:
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
