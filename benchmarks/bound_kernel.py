#!/usr/bin/env python3
"""Time the bitset lower bound (``colorit.solvers.bound.bound_bits``) of this checkout against
the one of ``--ref``, in one process, on the same states.

The states come from one board (a line of a set, or a CSV), in one of two ways:

- ``--states search`` (the default): the calls A* makes. A* proves the board; of the
  positions its store then holds below the answer, children (a colour of the frontier
  played) are each asked at the limit A* gives them, the parent's bound less one. Most
  of them turn out above it, as in A*, where the bound stops early.
- ``--states random``: positions of random games, each asked at three limits around its
  bound (one below, the bound itself, two above).

Both kernels run in a compiled loop over all the states (no Python call per
evaluation), in turns, and must return the same values; the best of ``--repeat`` rounds
is printed, in nanoseconds per evaluation.

    python benchmarks/bound_kernel.py ../shared/datasets/b12c12n1000.txt --board 2 --ref 43b1960
    python benchmarks/bound_kernel.py deep.csv --ref HEAD~1 --states random
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
from paired import load_old, module  # this folder's: the old version as the package colorit_old

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))


def game_states(pkg: Any, board: Any, n_states: int, seed: int) -> tuple[Any, np.ndarray, np.ndarray]:
    """The padded graph of ``board`` and ``n_states`` (flooded, frontier) pairs along random
    games of 0-24 moves from its start."""
    graph = pkg.RegionGraph.from_board(board)
    pg = module(pkg.__name__, "game.graph").padded(graph)
    from_bits = module(pkg.__name__, "game.bitset").from_bits
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


def search_states(pkg: Any, board: Any, n_states: int, seed: int) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray]:
    """The padded graph of ``board`` and ``n_states`` children of positions A* stored below
    its answer (flooded sets, frontiers, and the limit A* asks each at: the parent's bound
    less one)."""
    store_module: Any = module(pkg.__name__, "solvers.astar_store")
    graph_module = module(pkg.__name__, "game.graph")
    lower_bound = module(pkg.__name__, "solvers.bound").lower_bound
    frontier = module(pkg.__name__, "game.play_bits").frontier
    first = store_module.FIRST_CAPACITY
    store_module.FIRST_CAPACITY = 1 << 21  # one store that never grows: A* keeps it for reuse, nodes and all
    try:
        answer = len(pkg.solve(board, "astar").moves)
    finally:
        store_module.FIRST_CAPACITY = first
    graph = pkg.RegionGraph.from_board(board)
    pg = graph_module.padded(graph)
    words, n_words = len(pg.root), graph.n_words
    stores = getattr(store_module, "NodeStore", None) or store_module._Store  # (the older name)
    store = stores._spare.pop(words, None)
    if store is None:
        raise SystemExit(f"bound_kernel: A* needed more than {1 << 21} nodes on this board; take another")
    nodes = store.nodes[:, :n_words]
    stored = np.flatnonzero(nodes.any(axis=1))  # unused rows are zero (the root holds the start)
    masks = graph.colour_mask
    rng = np.random.default_rng(seed)
    flooded, fronts, limits = [], [], []
    while len(flooded) < n_states:
        node = stored[int(rng.integers(len(stored)))]
        fl = nodes[node].copy()
        g = int(store.nodes[node, words + 1] >> np.uint64(32))
        h = lower_bound(graph, fl)
        if g + h >= answer:
            continue
        front = np.zeros_like(fl)
        frontier(fl, graph.adj_ptr, graph.adj_idx, front)
        for c in range(graph.n_colours):
            if (masks[c] & front).any() and len(flooded) < n_states:
                child = fl | (front & masks[c])
                child_front = np.zeros_like(child)
                frontier(child, graph.adj_ptr, graph.adj_idx, child_front)
                flooded.append(child)
                fronts.append(child_front)
                limits.append([h - 1])
    pad = [np.zeros(words - n_words, dtype=np.uint64)]
    return (pg, np.array([np.concatenate([x] + pad) for x in flooded]),
            np.array([np.concatenate([x] + pad) for x in fronts]), np.array(limits, dtype=np.int64))


def timed_loop(bound_bits: Any, colour_rows: bool) -> Any:
    """A compiled loop evaluating ``bound_bits`` on every state at its three limits
    (``colour_rows``: the kernel takes the colours' rows, as it does since they exist)."""
    from numba import njit

    @njit
    def run(flooded, fronts, limits, masks, colour_adj, adj_bits, shape, reps):  # type: ignore[no-untyped-def]
        total = 0
        for _ in range(reps):
            for i in range(flooded.shape[0]):
                for j in range(limits.shape[1]):
                    total += bound_bits(flooded[i], fronts[i], masks, colour_adj, adj_bits, shape, limits[i, j])
        return total

    @njit
    def run_without_rows(flooded, fronts, limits, masks, colour_adj, adj_bits, shape, reps):  # type: ignore[no-untyped-def]
        total = 0
        for _ in range(reps):
            for i in range(flooded.shape[0]):
                for j in range(limits.shape[1]):
                    total += bound_bits(flooded[i], fronts[i], masks, adj_bits, shape, limits[i, j])
        return total

    return run if colour_rows else run_without_rows


def takes_colour_rows(pkg_name: str) -> bool:
    """Whether the package's padded graph carries its colours' rows for the bound."""
    return "colour_adj" in module(pkg_name, "game.graph").PaddedGraph._fields


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("boards", help="a set file (one board a line) or a CSV board")
    p.add_argument("--board", type=int, default=0, help="which line of a set")
    p.add_argument("--ref", required=True, help="git ref of the old version")
    p.add_argument("--states", choices=("search", "random"), default="search", help="A*'s calls, or random games")
    p.add_argument("--count", type=int, default=4000, help="states")
    p.add_argument("--reps", type=int, default=30, help="passes over the states per round")
    p.add_argument("--repeat", type=int, default=3, help="rounds (the best is printed)")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()

    import colorit
    import colorit.solvers.bound
    from colorit.io.csvfile import read_board_csv
    from colorit.io.datasets import read_boards

    if args.boards.endswith(".csv"):
        board = read_board_csv(args.boards)
    else:
        board = read_boards(args.boards, limit=args.board + 1)[args.board]
    with tempfile.TemporaryDirectory() as tmp:
        load_old(args.ref, Path(tmp))
        if args.states == "search":
            pg, flooded, fronts, limits = search_states(colorit, board, args.count, args.seed)
        else:
            pg, flooded, fronts = game_states(colorit, board, args.count, args.seed)
            graph = colorit.RegionGraph.from_board(board)
            exact = [colorit.solvers.bound.lower_bound(graph, flooded[i][: graph.n_words]) for i in range(args.count)]
            limits = np.array([(e - 1, e, e + 2) for e in exact], dtype=np.int64)
        masks, adj, shape = pg.arrays.colour_mask, pg.adj_bits, pg.shape
        rows = pg.colour_adj
        runs = {
            name: timed_loop(module(pkg, "solvers.bound").bound_bits, takes_colour_rows(pkg))
            for name, pkg in (("new", "colorit"), ("old", "colorit_old"))
        }
        totals = {name: run(flooded, fronts, limits, masks, rows, adj, shape, 1) for name, run in runs.items()}
        if totals["new"] != totals["old"]:
            print(f"the kernels disagree: {totals}", file=sys.stderr)
            return 1
        best = {name: float("inf") for name in runs}
        for _ in range(args.repeat):
            for name, run in runs.items():
                t0 = time.perf_counter()
                run(flooded, fronts, limits, masks, rows, adj, shape, args.reps)
                best[name] = min(best[name], time.perf_counter() - t0)
    evaluations = args.reps * limits.size
    ns = {name: best[name] / evaluations * 1e9 for name in runs}
    print(f"{Path(args.boards).name} board {args.board}, {args.states} states: {pg.adj_bits.shape[0]} regions, "
          f"{masks.shape[0]} colours, {len(pg.root)} words; ns per evaluation: new {ns['new']:.0f}, {args.ref} {ns['old']:.0f}, "
          f"new/old {ns['new'] / ns['old']:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
