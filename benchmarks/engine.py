"""Engine speed, measured in one run through the public API.

    .venv/bin/python benchmarks/engine.py [--rounds 3000] [--games 300] [--decisions 300]

Prints: Hit Me rounds per second with 4 threshold:3 bots (each decision builds the seat's
observation and legal actions, as a widget or the simulator does) beside a minimal
hand-written loop of the same game (benchmarks/minimal_loops.py: plain ints and lists);
Flapjack games per second with 4 greedy bots beside its own minimal loop; and the Hit Me
expert's decision time (median and p95) over real decisions from seeded 4-player rounds.
Each engine/minimal pair is timed alternately, best of --repeat, in this one run, in CPU time
of this process (`--clock wall` for wall-clock time, which other processes' load makes noisy on
a shared machine). The last line is `hit-me engine/minimal ratio: X.XX` (goal: 0.30 or more).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.bots import make_bot  # noqa: E402
from engine.hit_me import HitMeConfig, HitMeGame  # noqa: E402
from engine.simulate import simulate_flapjack, simulate_hit_me  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from minimal_loops import minimal_flapjack, minimal_hit_me  # noqa: E402

# The clock of the rates: "cpu" (time.process_time, the CPU time of this process: on a shared
# machine the other engineers' load barely moves it) or "wall" (time.perf_counter).
CLOCKS: dict[str, Callable[[], float]] = {"cpu": time.process_time, "wall": time.perf_counter}
_clock = CLOCKS["cpu"]


def _rate(run: Callable[[], object], count: int) -> float:
    start = _clock()
    run()
    return count / (_clock() - start)


def hit_me_rates(rounds: int, repeat: int) -> tuple[float, float]:
    """Best rounds/s of the engine (simulate, 4 threshold:3 bots) and of the minimal loop."""
    engine, minimal = [], []
    for i in range(repeat):
        engine.append(_rate(lambda i=i: simulate_hit_me(
            players=4, bots="threshold:3", rounds=rounds, seed=f"bench{i}"), rounds))
        minimal.append(_rate(lambda i=i: minimal_hit_me(rounds, threshold=3, seed=i), rounds))
    return max(engine), max(minimal)


def flapjack_rates(games: int, repeat: int) -> tuple[float, float]:
    """Best games/s of the engine (simulate, 4 greedy bots) and of the minimal loop."""
    engine, minimal = [], []
    for i in range(repeat):
        engine.append(_rate(lambda i=i: simulate_flapjack(
            players=4, bots="greedy", games=games, seed=f"bench{i}"), games))
        minimal.append(_rate(lambda i=i: minimal_flapjack(games, seed=i), games))
    return max(engine), max(minimal)


def expert_times(decisions: int) -> list[float]:
    """Seconds per expert decision: seat 0 is the expert against 3 threshold:4 bots."""
    config = HitMeConfig(players=4)
    game = HitMeGame(config, seed="bench-expert")
    bots = [make_bot("expert", "hit-me", random.Random(0))] + [
        make_bot("threshold:4", "hit-me", random.Random(i)) for i in range(1, 4)]
    times: list[float] = []
    while len(times) < decisions:
        rnd = game.round
        while not rnd.players_done:
            seat = rnd.current
            obs, legal = rnd.observation(seat), rnd.legal_actions(seat)
            start = time.perf_counter()
            decision = bots[seat].choose(obs, legal)
            if seat == 0:
                times.append(time.perf_counter() - start)
            rnd.apply_action(decision.action, seat)
        game.next_round()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3000)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--decisions", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--clock", choices=list(CLOCKS), default="cpu",
                        help="time the rates in CPU time of this process (default; steady on "
                             "a shared machine) or wall-clock time")
    args = parser.parse_args()
    global _clock
    _clock = CLOCKS[args.clock]
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"python {platform.python_version()}, {os.cpu_count()} cores, "
          f"load average {load:.1f} at start, rates in {args.clock} time")
    times = sorted(expert_times(args.decisions))
    median = statistics.median(times) * 1000
    p95 = times[int(0.95 * (len(times) - 1))] * 1000
    print(f"Hit Me expert decision (4 players): median {median:.1f} ms, p95 {p95:.1f} ms, "
          f"max {times[-1] * 1000:.1f} ms ({len(times)} decisions)")
    fj_engine, fj_minimal = flapjack_rates(args.games, args.repeat)
    print(f"Flapjack classic, 4 greedy bots: engine {fj_engine:,.1f} games/s, minimal loop "
          f"{fj_minimal:,.1f} games/s ({args.games} games, best of {args.repeat})")
    print(f"flapjack engine/minimal ratio: {fj_engine / fj_minimal:.2f}")
    hm_engine, hm_minimal = hit_me_rates(args.rounds, args.repeat)
    print(f"Hit Me, 4 threshold:3 bots: engine {hm_engine:,.0f} rounds/s, minimal loop "
          f"{hm_minimal:,.0f} rounds/s ({args.rounds} rounds, best of {args.repeat})")
    print(f"hit-me engine/minimal ratio: {hm_engine / hm_minimal:.2f}")


if __name__ == "__main__":
    main()
