"""Compile (or load from the on-disk cache) every kernel once, so that the first real
solve does not spend its time limit compiling. Run at install time (``bin/colorit``
setup, the Docker build) as ``python -m colorit.warmup``.

The exact search is compiled once per word-width tier (see ``astar.WIDTH_TIERS``), so
the boards below are chosen to reach each of them. (Wider graphs use a run-time-width
variant that only ``--algo astar`` on a huge board asks for; it compiles on first use.)
"""

from __future__ import annotations

import time

from .board import Board
from .generate import random_board
from .graph import RegionGraph
from .solvers import Control, Limits, astar, beam, dfs, solve, solver_names
from .solvers.astar import WIDTH_TIERS, padded_width
from .solvers.linear import linear_moves


def _boards_for_every_width() -> list[Board]:
    """Small random boards whose region graphs need each compiled width of the search."""
    wanted = set(WIDTH_TIERS)
    found: list[Board] = []
    side = 4
    seed = 0
    while wanted and side <= 80:
        board = random_board(side, side, 6, seed)
        width = padded_width(RegionGraph.from_board(board).n_words)
        if width in wanted:
            wanted.discard(width)
            found.append(board)
        side += 1
        seed += 1
    return found


class _OneSlice(Control):
    """Lets a search run one kernel slice (which compiles its kernels), then stops it:
    a time limit would stop it before the first slice when the compiling takes longer."""

    def __init__(self) -> None:
        super().__init__(Limits())
        self.checks = 0

    def should_stop(self) -> bool:
        self.checks += 1
        return self.checks > 1


def warmup() -> float:
    """Run every solver on boards that reach every kernel; return the seconds it took."""
    t0 = time.monotonic()
    small = Board.from_rows([[1, 2, 0, 0, 3], [0, 1, 1, 0, 3], [2, 2, 0, 1, 1], [0, 3, 0, 1, 2]])
    for name in solver_names():
        solve(small, name, Limits(time=5.0))
        solve(small.with_start((2, 2)), name, Limits(time=5.0))
    for board in _boards_for_every_width():
        # one slice of A* at each width: its kernels compile, nothing more runs. The
        # linear AI's answer is never optimal on these boards, so the search does run.
        graph = RegionGraph.from_board(board)
        astar.search(graph, _OneSlice(), linear_moves(graph))
    # dfs's word loops have a run-time length: one slice compiles it for every width
    dfs.search(graph, _OneSlice(), linear_moves(graph))
    # the paths a small board never takes: beam passes run only when the first answer is
    # not known to be optimal, A*'s store grows only past its first capacity
    graph = RegionGraph.from_board(random_board(10, 10, 6, 1))
    beam.search(graph, Control(Limits(time=5.0)), linear_moves(graph), max_width=beam.FIRST_WIDTH)
    store = astar._Store(WIDTH_TIERS[0], 4, 256)  # the grow kernels take any width
    store.grow_nodes(0)
    store.grow_table(0)
    return time.monotonic() - t0


if __name__ == "__main__":
    print(f"colorit kernels ready in {warmup():.1f} s")
