#!/usr/bin/env python3
"""Time one tunable setting against its default on the same boards, in one process.

Each board is solved twice in a row, once with the package's settings as they are and
once with the overrides (``--set module.NAME=value``, e.g.
``colorit.solvers.auto.EARLY_HELP_S=1e9``), the order swapped from board to board, CPU
time (this thread) summed per side. The machine's drift then falls on both sides alike,
and unlike ``paired.py`` both sides run the same compiled kernels.

    python benchmarks/paired_setting.py ../shared/datasets/floodtest_b19c6n1000_center.txt \\
        --set colorit.solvers.auto.EARLY_HELP_S=1e9 --limit 200

With ``--time-limit`` each solve gets that limit, as a bench's boards do (a solve may
then run on a solver thread: use ``--clock process``, which counts every thread's CPU,
to compare a setting of the guard, e.g. ``colorit.solvers.deadline.INLINE_LIMIT_S=1e9``).
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


#: What a side's time is measured with.
CLOCKS = {"thread": time.thread_time, "process": time.process_time, "wall": time.perf_counter}


def parse_override(text: str) -> tuple[object, str, float]:
    """``(module, name, value)`` from ``package.module.NAME=number``."""
    target, _, value = text.partition("=")
    module_name, _, name = target.rpartition(".")
    if not module_name or not value:
        raise SystemExit(f"paired_setting: --set {text!r}: expected module.NAME=number")
    module = importlib.import_module(module_name)
    if not hasattr(module, name):
        raise SystemExit(f"paired_setting: --set {text!r}: {module_name} has no {name}")
    return module, name, float(value)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("dataset")
    p.add_argument("--set", dest="overrides", action="append", required=True, metavar="MODULE.NAME=VALUE")
    p.add_argument("--algo", default="auto")
    p.add_argument("--limit", type=int, default=None, help="first N boards")
    p.add_argument("--time-limit", type=float, default=None, help="seconds per solve (default: none)")
    p.add_argument("--clock", choices=sorted(CLOCKS), default="thread",
                   help="CPU of this thread (default), of the whole process, or wall time")
    args = p.parse_args()
    sys.path.insert(0, str(REPO))
    import colorit
    from colorit.io.datasets import read_boards

    overrides = [parse_override(text) for text in args.overrides]
    defaults = [(module, name, getattr(module, name)) for module, name, _ in overrides]
    boards = read_boards(args.dataset, limit=args.limit)
    limits = colorit.Limits(time=args.time_limit)
    clock = CLOCKS[args.clock]
    colorit.solve(boards[0], args.algo)  # kernels loaded before timing
    if args.time_limit is not None:
        from colorit.runtime.warmup import warm_for

        warm_for(args.algo, boards)  # as a bench does before its clocks start
    cpu = {"default": 0.0, "override": 0.0}
    moves = {"default": 0, "override": 0}
    for i, board in enumerate(boards):
        sides = ["default", "override"] if i % 2 == 0 else ["override", "default"]
        for side in sides:
            for module, name, value in overrides if side == "override" else defaults:
                setattr(module, name, type(getattr(module, name))(value))
            t0 = clock()
            sol = colorit.solve(board, args.algo, limits)
            cpu[side] += clock() - t0
            moves[side] += len(sol.moves)
        for module, name, value in defaults:
            setattr(module, name, value)
    name = Path(args.dataset).name
    print(
        f"{name}: {len(boards)} boards, algo {args.algo}, {args.clock} time; default {cpu['default']:.2f} s, "
        f"with {' '.join(args.overrides)} {cpu['override']:.2f} s, default/override "
        f"{cpu['default'] / cpu['override']:.3f}; moves {moves['default']} and {moves['override']}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
