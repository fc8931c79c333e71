"""The room store under fire, on SQLite and PostgreSQL: students in separate processes clicking
at the same moment many times (none lost, none doubled, every refusal the clear one), and a
kernel killed with SIGKILL in the middle of a move (the move is applied or not, never half)."""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from helpers import flapjack_config
from rooms_workers import student

from engine.flapjack import FlapjackState
from engine.hit_me import HitMeConfig, HitMeGame
from rooms import open_store
from rooms.games import GAMES, action_from_json

HERE = Path(__file__).resolve().parent
ROUNDS = 30


def replay_matches(store: Any, code: str, initial: dict[str, Any]) -> None:
    """The move log replayed on the room's first state gives exactly the stored state."""
    game = store.room(code).game
    state = GAMES[game].load(initial)
    for _, seat, action in store.moves(code):
        if action == {"kind": "next-round"}:
            state.next_round()
        else:
            rnd = state.round if isinstance(state, HitMeGame) else state
            rnd.apply_action(action_from_json(action), seat)
    assert store.load(code)[1].to_json() == state.to_json()


@pytest.mark.slow
@pytest.mark.timeout(300)
@pytest.mark.parametrize("game", ["hit-me", "flapjack"])
def test_students_clicking_at_once(rooms_url: str, game: str) -> None:
    """Three seats, four processes (seat 0 has the page open twice), all clicking at the same
    moment ROUNDS times: the moves in the store are exactly the moves the students were told
    were made, each once, and every other click got "the table changed" or "not your turn"."""
    store = open_store(rooms_url)
    state = (HitMeGame(HitMeConfig(players=3), seed=21) if game == "hit-me"
             else FlapjackState.deal(flapjack_config(3, "classic"), rng=21))
    initial = json.loads(json.dumps(state.to_json()))
    host = store.create_room(state)
    tickets = [store.join(host.code, name) for name in ("Ana", "Ben", "Cleo")]
    v0 = store.current_version(host.code)
    assert store.room(host.code).status == "playing"
    workers = [tickets[0], tickets[0], tickets[1], tickets[2]]
    ctx = multiprocessing.get_context("spawn")
    barrier, results = ctx.Barrier(len(workers)), ctx.Queue()
    procs = [ctx.Process(target=student, args=(rooms_url, host.code, t.seat, t.secret, ROUNDS,
                                                barrier, results, i))
             for i, t in enumerate(workers)]
    for p in procs:
        p.start()
    reports = [results.get(timeout=240) for _ in procs]
    for p in procs:
        p.join(timeout=30)
        assert p.exitcode == 0
    totals: dict[str, int] = {}
    claimed: list[tuple[int, int]] = []
    for seat, outcomes, applied in reports:
        for k, n in outcomes.items():
            totals[k] = totals.get(k, 0) + n
        claimed += [(v, seat) for v in applied]
    assert not [k for k in totals if k not in ("ok", "changed", "not_your_turn", "over")], totals
    log = store.moves(host.code)
    # None lost, none doubled: each logged move is one a student was told was made, by that
    # student's seat, and the versions run without a gap.
    assert sorted(claimed) == [(v, s) for v, s, _ in log]
    assert len(log) == totals["ok"] == store.move_count(host.code)
    assert store.current_version(host.code) == v0 + totals["ok"]
    assert [v for v, _, _ in log] == list(range(v0 + 1, v0 + 1 + len(log)))
    assert totals["ok"] >= 10 and totals.get("changed", 0) + totals.get("not_your_turn", 0) > 0
    replay_matches(store, host.code, initial)
    print(f"{store.kind} {game}: {totals}")


def _start_mover(url: str, host: Any, tickets: list[Any], hold: bool) -> subprocess.Popen:
    proc = subprocess.Popen(
        [sys.executable, str(HERE / "rooms_workers.py"), url, host.code, host.secret,
         tickets[0].secret, tickets[1].secret, "1" if hold else "0"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    line = proc.stdout.readline().strip()
    assert line == "STARTED", (line, proc.stderr.read() if proc.poll() is not None else "")
    return proc


@pytest.mark.timeout(120)
def test_a_kernel_killed_inside_a_move_leaves_the_room_as_it_was(rooms_url: str) -> None:
    store = open_store(rooms_url)
    state = FlapjackState.deal(flapjack_config(2, "classic"), rng=33)
    host = store.create_room(state)
    tickets = [store.join(host.code, n) for n in ("Ana", "Ben")]
    version, before = store.load(host.code)
    proc = _start_mover(rooms_url, host, tickets, hold=True)
    assert proc.stdout.readline().strip() == "READY"  # the UPDATE and INSERT are done
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    proc.stdout.close()
    proc.stderr.close()
    other = open_store(rooms_url, busy_timeout=10)
    v, after = other.load(host.code)
    assert v == version and after.to_json() == before.to_json()
    assert other.move_count(host.code) == 0
    # The lock died with the process: the next move goes through (a lock still held would
    # make it raise StoreUnavailable after the store's busy timeout).
    cur = GAMES["flapjack"].current(after)
    other.play(host.code, cur, tickets[cur].secret, after.legal_actions(cur)[0],
               expected_version=version)
    assert other.move_count(host.code) == 1


@pytest.mark.timeout(120)
@pytest.mark.parametrize("delay", [0.3, 0.9])
def test_a_kernel_killed_at_any_moment_leaves_a_consistent_room(rooms_url: str,
                                                                delay: float) -> None:
    store = open_store(rooms_url)
    state = HitMeGame(HitMeConfig(players=2), seed=44)
    initial = json.loads(json.dumps(state.to_json()))
    host = store.create_room(state)
    tickets = [store.join(host.code, n) for n in ("Ana", "Ben")]
    v0 = store.current_version(host.code)
    proc = _start_mover(rooms_url, host, tickets, hold=False)
    time.sleep(delay)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    proc.stdout.close()
    proc.stderr.close()
    other = open_store(rooms_url, busy_timeout=10)
    moves = other.move_count(host.code)
    assert moves > 0, "the mover made no move before it was killed"
    assert other.current_version(host.code) == v0 + moves
    replay_matches(other, host.code, initial)
