#!/usr/bin/env python3
"""Time a bench's start in parts, in fresh processes: the imports, reading the set, and
loading the kernels the set needs (``colorit.runtime.warmup.warm_for``), with this checkout and,
in turns, with another one (``--other``: a checkout whose kernels are compiled already).

A whole bench's time drifts by a tenth from run to run on a small machine, which hides a
change of a tenth of a second in its start; the parts, timed inside each process, do not.

    python benchmarks/warm_up.py ../shared/datasets/pc19_b14c6n1000.txt --rounds 10
    python benchmarks/warm_up.py ../shared/datasets/pc19_b14c6n1000.txt --other /tmp/old --rounds 10

Prints each side's mean seconds per part.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

_CHILD = """
import json, sys, time
t0 = time.perf_counter()
from colorit.io.datasets import read_boards
from colorit.runtime.warmup import warm_for
t1 = time.perf_counter()
boards = read_boards(sys.argv[1])
t2 = time.perf_counter()
warm_for(sys.argv[2], boards)
t3 = time.perf_counter()
print(json.dumps({"imports": t1 - t0, "reading": t2 - t1, "kernels": t3 - t2}))
"""


def one_run(checkout: Path, dataset: str, algo: str) -> dict[str, float]:
    """The parts' seconds in a new process importing colorit from ``checkout``."""
    env = dict(os.environ, PYTHONPATH=str(checkout))
    done = subprocess.run([sys.executable, "-c", _CHILD, dataset, algo], capture_output=True, text=True, env=env,
                          cwd=checkout, check=False)
    if done.returncode != 0:
        raise SystemExit(f"warm_up: the run from {checkout} failed: {done.stderr.strip()}")
    parts: dict[str, float] = json.loads(done.stdout.splitlines()[-1])
    return parts


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("dataset")
    p.add_argument("--algo", default="auto")
    p.add_argument("--rounds", type=int, default=10)
    p.add_argument("--other", type=Path, default=None, help="another checkout, timed in turns with this one")
    args = p.parse_args()
    sides = {"this": REPO} | ({"other": args.other.resolve()} if args.other else {})
    runs: dict[str, list[dict[str, float]]] = {name: [] for name in sides}
    for i in range(args.rounds):
        order = list(sides) if i % 2 == 0 else list(reversed(sides))
        for name in order:
            runs[name].append(one_run(sides[name], args.dataset, args.algo))
    for name, checkout in sides.items():
        means = {part: statistics.mean(run[part] for run in runs[name]) for part in runs[name][0]}
        total = sum(means.values())
        shown = ", ".join(f"{part} {seconds:.3f} s" for part, seconds in means.items())
        print(f"{name} ({checkout}): {shown}; together {total:.3f} s ({args.rounds} runs)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
