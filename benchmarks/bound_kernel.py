#!/usr/bin/env python3
"""Time the bitset lower bound (``colorit.bound.bound_bits``) of this checkout against
the one of ``--ref``, in one process, on the same states.

The states are positions of random games on one board (a line of a set, or a CSV); each
is asked at three limits around its bound (one below, the bound itself, two above), as
A* asks it. Both kernels run in a compiled loop over all the states (no Python call per
evaluation), in turns, and must return the same values; the best of ``--repeat`` rounds
is printed, in nanoseconds per evaluation.

    python benchmarks/bound_kernel.py ../shared/datasets/b12c12n1000.txt --board 2 --ref 43b1960
    python benchmarks/bound_kernel.py deep.csv --ref HEAD~1
"""

from __future__ import annotations

import argparse
import importlib
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
from paired import load_old  # this folder's: the old version as the package colorit_old

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))


def game_states(pkg: Any, board: Any, n_states: int, seed: int) -> tuple[Any, np.ndarray, np.ndarray]:
    """The padded graph of ``board`` and ``n_states`` (flooded, frontier) pairs along random
    games of 0-24 moves from its start."""
    graph = pkg.RegionGraph.from_board(board)
    pg = importlib.import_module(pkg.__name__ + ".graph").padded(graph)
    from_bits = importlib.import_module(pkg.__name__ + ".bitset").from_bits
    masks = pg.arrays.colour_mask
    rng = np.random.default_rng(seed)
    flooded = np.empty((n_states, len(pg.root)), dtype=np.uint64)
    fronts = np.empty_like(flooded)
    for i in range(n_states):
        fl, fr = pg.root.copy(), pg.root_front.copy()
        for _ in range(int(rng.integers(0, 25))):
            colours = [c for c in range(masks.shape[0]) if (masks[c] & fr).any()]
            if not colours:
                break
            taken = fr & masks[colours[int(rng.integers(len(colours)))]]
            fl |= taken
            fr &= ~taken
            for r in from_bits(taken):
                fr |= pg.adj_bits[r]
            fr &= ~fl
        flooded[i], fronts[i] = fl, fr
    return pg, flooded, fronts


def timed_loop(bound_bits: Any) -> Any:
    """A compiled loop evaluating ``bound_bits`` on every state at its three limits."""
    from numba import njit

    @njit
    def run(flooded, fronts, limits, masks, adj_bits, shape, reps):  # type: ignore[no-untyped-def]
        total = 0
        for _ in range(reps):
            for i in range(flooded.shape[0]):
                for j in range(limits.shape[1]):
                    total += bound_bits(flooded[i], fronts[i], masks, adj_bits, shape, limits[i, j])
        return total

    return run


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("boards", help="a set file (one board a line) or a CSV board")
    p.add_argument("--board", type=int, default=0, help="which line of a set")
    p.add_argument("--ref", required=True, help="git ref of the old version")
    p.add_argument("--states", type=int, default=4000)
    p.add_argument("--reps", type=int, default=30, help="passes over the states per round")
    p.add_argument("--repeat", type=int, default=3, help="rounds (the best is printed)")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()

    import colorit
    from colorit.csvio import read_board_csv
    from colorit.datasets import read_boards

    if args.boards.endswith(".csv"):
        board = read_board_csv(args.boards)
    else:
        board = read_boards(args.boards, limit=args.board + 1)[args.board]
    with tempfile.TemporaryDirectory() as tmp:
        load_old(args.ref, Path(tmp))
        pg, flooded, fronts = game_states(colorit, board, args.states, args.seed)
        masks, adj, shape = pg.arrays.colour_mask, pg.adj_bits, pg.shape
        new_bound = importlib.import_module("colorit.bound").bound_bits
        old_bound = importlib.import_module("colorit_old.bound").bound_bits
        exact = [new_bound(flooded[i], fronts[i], masks, adj, shape, 1 << 40) for i in range(args.states)]
        limits = np.array([(e - 1, e, e + 2) for e in exact], dtype=np.int64)
        runs = {"new": timed_loop(new_bound), "old": timed_loop(old_bound)}
        totals = {name: run(flooded, fronts, limits, masks, adj, shape, 1) for name, run in runs.items()}
        if totals["new"] != totals["old"]:
            print(f"the kernels disagree: {totals}", file=sys.stderr)
            return 1
        best = {name: float("inf") for name in runs}
        for _ in range(args.repeat):
            for name, run in runs.items():
                t0 = time.perf_counter()
                run(flooded, fronts, limits, masks, adj, shape, args.reps)
                best[name] = min(best[name], time.perf_counter() - t0)
    evaluations = args.reps * limits.size
    ns = {name: best[name] / evaluations * 1e9 for name in runs}
    print(f"{Path(args.boards).name} board {args.board}: {pg.adj_bits.shape[0]} regions, {masks.shape[0]} colours, "
          f"{len(pg.root)} words; ns per evaluation: new {ns['new']:.0f}, {args.ref} {ns['old']:.0f}, "
          f"new/old {ns['new'] / ns['old']:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
