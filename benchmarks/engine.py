"""Engine speed, measured in one run through the public API.

    .venv/bin/python benchmarks/engine.py [--rounds 3000] [--games 300] [--decisions 300]

Prints: Hit Me rounds per second with 4 threshold bots (each decision builds the seat's
observation and legal actions, as a widget or the simulator does); Flapjack games per second
with 4 greedy bots (same); and the Hit Me expert's decision time (median and p95) over real
decisions from seeded 4-player rounds.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.bots import make_bot  # noqa: E402
from engine.hit_me import HitMeConfig, HitMeGame  # noqa: E402
from engine.simulate import simulate_flapjack, simulate_hit_me  # noqa: E402


def hit_me_rate(rounds: int) -> float:
    start = time.perf_counter()
    simulate_hit_me(players=4, bots="threshold:4", rounds=rounds, seed="bench")
    return rounds / (time.perf_counter() - start)


def flapjack_rate(games: int) -> float:
    start = time.perf_counter()
    simulate_flapjack(players=4, bots="greedy", games=games, seed="bench")
    return games / (time.perf_counter() - start)


def expert_times(decisions: int) -> list[float]:
    """Seconds per expert decision: seat 0 is the expert against 3 threshold:4 bots."""
    config = HitMeConfig(players=4)
    game = HitMeGame(config, seed="bench-expert")
    bots = [make_bot("expert", "hit-me", random.Random(0))] + [
        make_bot("threshold:4", "hit-me", random.Random(i)) for i in range(1, 4)]
    times: list[float] = []
    while len(times) < decisions:
        rnd = game.round
        while not rnd.over:
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
    args = parser.parse_args()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"python {platform.python_version()}, {os.cpu_count()} cores, "
          f"load average {load:.1f} at start")
    rate = hit_me_rate(args.rounds)
    print(f"Hit Me, 4 threshold:4 bots: {rate:,.0f} rounds/s ({args.rounds} rounds)")
    rate = flapjack_rate(args.games)
    print(f"Flapjack classic, 4 greedy bots: {rate:,.1f} games/s ({args.games} games)")
    times = sorted(expert_times(args.decisions))
    median = statistics.median(times) * 1000
    p95 = times[int(0.95 * (len(times) - 1))] * 1000
    print(f"Hit Me expert decision (4 players): median {median:.1f} ms, p95 {p95:.1f} ms, "
          f"max {times[-1] * 1000:.1f} ms ({len(times)} decisions)")


if __name__ == "__main__":
    main()
