#!/usr/bin/env python3
"""Time the fixed steps every solve of a board takes besides its search, with this
checkout and with the package as it was at ``--ref``, in one process, on the same boards.

A bench of small boards (pc19: about 2.5 ms a board) spends a fifth of its solving time
outside A*'s kernel, in steps each worth some microseconds: this prints them one by one,
in microseconds a board, the best of ``--rounds`` rounds, the two versions in turns:

- ``padded``: the padded graph the first answer and A* share (``graph.padded``), made on
  a fresh region graph;
- ``check``: an answer checked by replay (``Board.check_codes``), lookahead's answer.

    python benchmarks/board_steps.py ../shared/datasets/pc19_b14c6n1000.txt --ref 6ca0c05
"""

from __future__ import annotations

import argparse
import importlib
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from paired import load_old, module  # this folder's: the old version as the package colorit_old

REPO = Path(__file__).resolve().parents[1]


def steps(pkg: str, dataset: str, limit: int) -> dict[str, Callable[[], float]]:
    """Each step over the set's first ``limit`` boards, as ``pkg`` does it: a function
    that runs it once and returns its seconds."""
    datasets: Any = module(pkg, "io.datasets")
    graph_mod: Any = module(pkg, "game.graph")
    solvers = importlib.import_module(f"{pkg}.solvers")
    boards = datasets.read_boards(dataset, limit=limit)
    answers = [np.asarray([b.code_of(m) for m in solvers.solve(b, "lookahead").moves], np.int32) for b in boards]

    def padded() -> float:
        graphs = [graph_mod.RegionGraph.from_board(b) for b in boards]
        started = time.perf_counter()
        for g in graphs:
            graph_mod.padded(g)
        return time.perf_counter() - started

    def check() -> float:
        started = time.perf_counter()
        for b, codes in zip(boards, answers):
            b.check_codes(codes)
        return time.perf_counter() - started

    return {"padded": padded, "check": check}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("dataset")
    p.add_argument("--ref", required=True, help="git ref of the old version")
    p.add_argument("--limit", type=int, default=1000, help="first N boards (default 1000)")
    p.add_argument("--rounds", type=int, default=5)
    args = p.parse_args()
    sys.path.insert(0, str(REPO))
    with tempfile.TemporaryDirectory() as tmp:
        load_old(args.ref, Path(tmp))
        sides = {"new": steps("colorit", args.dataset, args.limit), "old": steps("colorit_old", args.dataset, args.limit)}
        n = len(importlib.import_module("colorit.io.datasets").read_boards(args.dataset, limit=args.limit))
        for name in sides["new"]:
            for side in sides.values():
                side[name]()  # kernels loaded (or compiled) before timing
            results: dict[str, list[float]] = {side: [] for side in sides}
            for _ in range(args.rounds):  # in turns: the machine's drift falls on both
                for side, fns in sides.items():
                    results[side].append(fns[name]() / n * 1e6)
            old, new = min(results["old"]), min(results["new"])
            print(f"{name}: {args.ref} {old:.1f} us a board, this checkout {new:.1f} us a board ({new / old:.2f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
