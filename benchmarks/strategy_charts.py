"""How long the strategy lab's largest chart takes: the hold-or-hit chart of 100,000 Hit Me
rounds (widgets.lessons.strategy.hold_chart, as lesson 06 draws it), drawn and saved as a PNG.

    .venv/bin/python benchmarks/strategy_charts.py [--rounds 100000] [--repeat 3]

Prints each run's CPU time of this process and its wall time; the last line is
`strategy chart: 100,000 rounds in X.XX s CPU (best of N), Y.YY s wall`. Goal: a few seconds on
the project's 2-core machine (about 1 s when it is idle), so a student waits little when a
chart is not in the cache.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    from widgets.lessons import strategy

    cpu, wall = [], []
    for seed in range(5, 5 + args.repeat):
        c0, w0 = time.process_time(), time.perf_counter()
        chart = strategy.hold_chart(players=4, rounds=args.rounds, seed=seed, progress=False)
        chart.figure.savefig(io.BytesIO(), format="png")
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - w0)
        print(f"seed {seed}: {cpu[-1]:.2f} s CPU, {wall[-1]:.2f} s wall")
    print(f"load average {os.getloadavg()[0]:.1f}")
    best = min(range(len(cpu)), key=cpu.__getitem__)
    print(f"strategy chart: {args.rounds:,} rounds in {cpu[best]:.2f} s CPU "
          f"(best of {len(cpu)}), {wall[best]:.2f} s wall")


if __name__ == "__main__":
    main()
