"""How strong are the computer players? Seeded head-to-head games with 95% intervals.

    .venv/bin/python benchmarks/bot_report.py [--games 2000] [--rounds 2000] [--opponent 4]

Flapjack (classic, 2 players): expert vs greedy and greedy vs random, `--games` games each,
the bots swapping seats every game (seat 1 leads). Win rates count wins only (ties apart).

Hit Me (4 players): one seat is the player under test and the other three are threshold:K
bots (K = --opponent, repeatable). The player under test takes each seat for a quarter of the
`--rounds` rounds (one seeded game per seat; the winner of a round deals the next). Every
threshold 1..10 and the expert play with the same seeds; win share splits ties.

Intervals are Wilson score intervals at 95%. Jobs run in parallel on every core.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.bots import make_bot  # noqa: E402
from engine.flapjack import FlapjackConfig, FlapjackState  # noqa: E402
from engine.simulate import simulate_hit_me  # noqa: E402

Z = 1.959963984540054


def wilson(p: float, n: int) -> tuple[float, float]:
    """95% Wilson score interval of a proportion p observed over n trials."""
    if n <= 0:
        return (0.0, 1.0)
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / (1 + Z * Z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def fmt(p: float, n: int) -> str:
    lo, hi = wilson(p, n)
    return f"{100 * p:5.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"


def flapjack_h2h(a: str, b: str, games: int, seed: str) -> dict[str, Any]:
    """`a` against `b` in 2-player classic Flapjack, swapping seats every game."""
    config = FlapjackConfig(players=2)
    bot_a = make_bot(a, "flapjack", random.Random(f"{seed}:a"))
    bot_b = make_bot(b, "flapjack", random.Random(f"{seed}:b"))
    wins_a = wins_b = ties = 0
    for g in range(games):
        seat_a = g % 2
        bots = [bot_a, bot_b] if seat_a == 0 else [bot_b, bot_a]
        state = FlapjackState.deal(config, random.Random(f"{seed}:{g // 2}"))
        while not state.is_over:
            seat = state.current
            state.apply_action(bots[seat].choose(state.observation(seat),
                                                 state.legal_actions(seat)).action, seat)
        res = state.result()
        if res.tie:
            ties += 1
        elif res.winners[0] == seat_a:
            wins_a += 1
        else:
            wins_b += 1
    return {"kind": "flapjack", "a": a, "b": b, "games": games, "wins_a": wins_a,
            "wins_b": wins_b, "ties": ties}


def hit_me_block(spec: str, opponent: int, rounds: int, seed: str, seat: int) -> dict[str, Any]:
    """Win share (ties split) of `spec` at `seat` against three threshold:`opponent` bots."""
    bots = [f"threshold:{opponent}"] * 4
    bots[seat] = spec
    res = simulate_hit_me(players=4, bots=bots, rounds=rounds, seed=f"{seed}:{seat}")
    return {"kind": "hit-me", "spec": spec, "opponent": opponent, "rounds": rounds,
            "wins": res["win_share"][seat] * rounds}


def run(job: tuple[str, tuple[Any, ...]]) -> tuple[dict[str, Any], float]:
    start = time.perf_counter()
    name, args = job
    out = flapjack_h2h(*args) if name == "flapjack" else hit_me_block(*args)
    return out, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=8000,
                        help="Hit Me rounds per player under test (default 8000: the "
                             "differences are about 1 point, so 2000 rounds cannot tell them "
                             "apart)")
    parser.add_argument("--opponent", type=int, action="append",
                        help="threshold of the Hit Me opponents (repeatable; default 4)")
    parser.add_argument("--seed", default="report")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    opponents = args.opponent or [4]
    jobs: list[tuple[str, tuple[Any, ...]]] = []
    quarter = args.rounds // 4
    specs = ["expert"] + [f"threshold:{t}" for t in range(1, 11)]
    for k in opponents:
        jobs += [("hit-me", ("expert", k, quarter, args.seed, seat)) for seat in range(4)]
    jobs.append(("flapjack", ("expert", "greedy", args.games, args.seed)))
    jobs.append(("flapjack", ("greedy", "random", args.games, args.seed)))
    for k in opponents:
        jobs += [("hit-me", (spec, k, quarter, args.seed, seat))
                 for spec in specs[1:] for seat in range(4)]
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        results = list(pool.map(run, jobs))
    ok = True
    print(f"Flapjack classic, 2 players, {args.games} games each, seats swapped every game "
          f"(win rate, 95% Wilson interval):")
    for out, secs in results:
        if out["kind"] != "flapjack":
            continue
        n = out["games"]
        print(f"  {out['a']:>6} vs {out['b']:<6}: {out['a']} wins {fmt(out['wins_a'] / n, n)}, "
              f"{out['b']} wins {fmt(out['wins_b'] / n, n)}, ties {out['ties']} ({secs:.0f} s)")
        ok &= out["wins_a"] > out["wins_b"]
    n = 4 * quarter
    for k in opponents:
        share: dict[str, float] = {}
        secs: dict[str, float] = {}
        for out, t in results:
            if out["kind"] == "hit-me" and out["opponent"] == k:
                share[out["spec"]] = share.get(out["spec"], 0.0) + out["wins"] / n
                secs[out["spec"]] = secs.get(out["spec"], 0.0) + t
        print(f"Hit Me, 4 players, one seat against 3 threshold:{k} bots, {n} rounds each, "
              f"a quarter in each seat (win share with ties split, 95% Wilson interval):")
        best = max(specs[1:], key=lambda sp: share[sp])
        for spec in specs:
            mark = "  <- best threshold" if spec == best else ""
            print(f"  {spec:>12}: {fmt(share[spec], n)}  ({secs[spec]:.0f} s){mark}")
        print(f"  expert {100 * share['expert']:.2f}% vs best fixed threshold ({best}) "
              f"{100 * share[best]:.2f}%")
        ok &= share["expert"] >= share[best]
    print(f"required order (Flapjack expert > greedy > random; Hit Me expert >= best "
          f"threshold): {'met' if ok else 'NOT met'}; {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
