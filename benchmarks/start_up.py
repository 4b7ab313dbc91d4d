#!/usr/bin/env python3
"""Time whole commands with and without an environment setting, in turns.

A command's start (imports, loading the compiled kernels) is a large share of a short
run, and this machine's speed drifts within minutes, so the two sides run one after the
other, the order swapped each round, and each side's times are summed over the rounds.
The default compares numba's own way of loading cached kernels
(``COLORIT_NUMBA_FULL_LOAD=1``) with colorit's (``colorit._jit.load_from_cache_lean``):

    python benchmarks/start_up.py --rounds 10 -- colorit demofiles/sample.csv /tmp/out.csv
    python benchmarks/start_up.py --rounds 5 -- colorit bench ../shared/datasets/pc19_b14c6n1000.txt -q

Prints each side's mean and median wall time and ``with / without`` (below 1: the
setting is faster).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path


def run_once(command: list[str], env: dict[str, str] | None = None, cwd: str | Path | None = None) -> float:
    """Wall seconds of one run of ``command``, start-up included (a failed run ends the
    benchmark, named after the script that runs it)."""
    started = time.perf_counter()
    done = subprocess.run(command, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    took = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{Path(sys.argv[0]).stem}: {' '.join(command)} failed ({done.returncode}): {done.stderr.strip()}")
    return took


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=10)
    p.add_argument("--set", dest="setting", default="COLORIT_NUMBA_FULL_LOAD=1", metavar="NAME=VALUE",
                   help="the environment setting of the 'with' side (default: %(default)s)")
    p.add_argument("command", nargs=argparse.REMAINDER, help="the command, after --")
    args = p.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        p.error("give the command to time after --")
    name, _, value = args.setting.partition("=")
    plain = {k: v for k, v in os.environ.items() if k != name}
    varied = {**plain, name: value}
    run_once(command, plain)  # anything compiled or cached on first use, before timing
    times: dict[str, list[float]] = {"without": [], "with": []}
    for i in range(args.rounds):
        order = [("without", plain), ("with", varied)]
        for side, env in order if i % 2 == 0 else order[::-1]:
            times[side].append(run_once(command, env))
    for side, values in times.items():
        print(f"{side} {args.setting}: mean {statistics.mean(values):.3f} s, median {statistics.median(values):.3f} s "
              f"({len(values)} runs, {min(values):.3f}-{max(values):.3f} s)")
    print(f"with / without: {sum(times['with']) / sum(times['without']):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
