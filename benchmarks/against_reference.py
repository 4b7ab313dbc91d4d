#!/usr/bin/env python3
"""Time colorit's exact bench against a reference solver on one set, whole processes in turns.

This machine's speed drifts within minutes and a short run (pc19: about 4 s) spreads over
±15%, so one pair of runs says little: the two sides run one after the other, the order
swapped each round, and the ratio of their mean times is reported with each round's own.
The reference is any command (it is not part of this repository); ``{set}`` in it is
replaced by the set's path. For ColorFill's exact A* built as in ``docs/benchmarks.md``:

    python benchmarks/against_reference.py ../shared/datasets/pc19_b14c6n1000.txt --rounds 4 \\
        --reference 'java -XX:+UseSerialGC -Xmx12g -cp REF/classes RunSet {set} AStarPuchertStrategy'

colorit runs ``colorit bench SET --workers 1 --max-memory 1G --expect auto -q`` (its
totals checked against the set's known optima). Both sides are pinned to ``--cpu``
(``taskset``), the usual one-core comparison. A run that fails ends the benchmark.
"""

from __future__ import annotations

import argparse
import shlex
import shutil
import statistics
import sys
from pathlib import Path

from start_up import run_once  # this folder is the script's first import path

REPO = Path(__file__).resolve().parents[1]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("dataset", help="a community set (its known optima beside it)")
    p.add_argument("--reference", required=True, help="the reference's command; {set} is replaced by the set's path")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--cpu", default="0", help="the core both sides run on (taskset; default 0)")
    args = p.parse_args()
    dataset = str(Path(args.dataset).resolve())
    pin = ["taskset", "-c", args.cpu] if shutil.which("taskset") else []
    sides = {
        "reference": pin + shlex.split(args.reference.replace("{set}", shlex.quote(dataset))),
        "colorit": pin + [sys.executable, "-m", "colorit", "bench", dataset, "--workers", "1", "--max-memory", "1G",
                          "--expect", "auto", "-q"],
    }
    times: dict[str, list[float]] = {name: [] for name in sides}
    for r in range(args.rounds):
        order = list(sides) if r % 2 == 0 else list(reversed(sides))
        for name in order:
            times[name].append(run_once(sides[name], cwd=REPO))
        print(f"round {r + 1}: reference {times['reference'][-1]:.2f} s, colorit {times['colorit'][-1]:.2f} s, "
              f"colorit / reference {times['colorit'][-1] / times['reference'][-1]:.3f}", flush=True)
    mean = {name: statistics.fmean(t) for name, t in times.items()}
    per_round = [c / ref for c, ref in zip(times["colorit"], times["reference"])]
    print(f"{Path(dataset).name}: reference {mean['reference']:.2f} s, colorit {mean['colorit']:.2f} s on average over "
          f"{args.rounds} rounds; colorit / reference {mean['colorit'] / mean['reference']:.3f} "
          f"(rounds {min(per_round):.3f}-{max(per_round):.3f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
