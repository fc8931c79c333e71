"""Processes for the room store's concurrency and kill tests (tests/test_rooms_concurrency.py).

Each `student` runs in a process of its own (multiprocessing, spawn), opens its own store and,
round after round, waits at a barrier with the other students and then clicks at once: the
student whose turn it is makes a legal move, the others click anyway (a Hit, or a card of their
own hand), all with the version they just read.
"""

from __future__ import annotations

import random
import sys
import time
from collections import Counter
from typing import Any

from engine.flapjack import Play
from engine.hit_me import ChooseAce, Hit, HitMeGame
from rooms import NotYourTurn, TableChanged, open_store
from rooms.games import GAMES, next_round


def _click(state: Any, game: str, seat: int, rng: random.Random) -> Any:
    """What this student clicks now (legal only when it is their turn)."""
    rnd = state.round if isinstance(state, HitMeGame) else state
    cur = GAMES[game].current(state)
    if cur == seat:
        return rng.choice([a for a in rnd.legal_actions(seat) if not isinstance(a, ChooseAce)])
    if game == "flapjack":
        return Play(rng.choice(rnd.hands[seat])) if rnd.hands[seat] else Play(rnd.hands[cur][0])
    return Hit()


def student(url: str, code: str, seat: int, secret: str, rounds: int, barrier: Any,
            results: Any, seed: int) -> None:
    """Click `rounds` times at the same moment as the others; report what happened."""
    store = open_store(url)
    game = store.room(code).game
    rng = random.Random(seed)
    outcomes: Counter[str] = Counter()
    applied: list[int] = []
    try:
        for _ in range(rounds):
            barrier.wait(timeout=120)
            version, state = store.load(code)
            if store.room(code).status != "playing":
                outcomes["over"] += 1
                continue
            try:
                if GAMES[game].current(state) is None:  # a Hit Me round is over: deal again
                    new = store.move(code, seat, secret, next_round,
                                     action={"kind": "next-round"}, expected_version=version)
                else:
                    new = store.play(code, seat, secret, _click(state, game, seat, rng),
                                     expected_version=version)
                applied.append(new)
                outcomes["ok"] += 1
            except TableChanged as e:
                assert e.code in ("table-changed", "moved-first")
                outcomes["changed"] += 1
            except NotYourTurn as e:
                assert e.code == "not-your-turn"
                outcomes["not_your_turn"] += 1
            except Exception as e:  # noqa: BLE001 - reported to the test, which fails on it
                outcomes[f"other: {type(e).__name__}: {e}"] += 1
    except Exception as e:  # noqa: BLE001
        outcomes[f"crashed: {type(e).__name__}: {e}"] += 1
        barrier.abort()
    results.put((seat, dict(outcomes), applied))


def mover_until_killed(url: str, code: str, secrets_: dict[int, str], host_secret: str,
                       hold_in_transaction: bool) -> None:
    """Play moves in a loop (a kernel at work). With `hold_in_transaction`, the first move stops
    just before its COMMIT and prints READY: the test kills the process there."""
    store = open_store(url)
    if hold_in_transaction:
        def hold() -> None:
            print("READY", flush=True)
            time.sleep(600)

        store._before_commit = hold
    rng = random.Random(1)
    print("STARTED", flush=True)
    while True:
        version, state = store.load(code)
        game = store.room(code).game
        cur = GAMES[game].current(state)
        if cur is None:
            if game == "hit-me":
                store.move(code, 0, secrets_[0], next_round, action={"kind": "next-round"},
                           expected_version=version)
                continue
            print("OVER", flush=True)
            return
        rnd = state.round if isinstance(state, HitMeGame) else state
        store.play(code, cur, secrets_.get(cur, host_secret),
                   rng.choice(rnd.legal_actions(cur)), expected_version=version)


if __name__ == "__main__":  # python tests/rooms_workers.py URL CODE HOST SECRET0 SECRET1 HOLD
    url_, code_, host_, s0, s1, hold_ = sys.argv[1:7]
    mover_until_killed(url_, code_, {0: s0, 1: s1}, host_, hold_ == "1")
