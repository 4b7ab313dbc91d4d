"""Compile (or load from the on-disk cache) every kernel once, so that the first real
solve does not spend its time limit compiling. Run at install time (``bin/colorit``
setup, the Docker build) as ``python -m colorit.warmup``."""

from __future__ import annotations

import time

from .board import Board
from .solvers import Limits, solve, solver_names


def warmup() -> float:
    """Run every solver on a small board; return the seconds it took."""
    t0 = time.monotonic()
    board = Board.from_rows([[1, 2, 0, 0, 3], [0, 1, 1, 0, 3], [2, 2, 0, 1, 1], [0, 3, 0, 1, 2]])
    for name in solver_names():
        solve(board, name, Limits(time=5.0))
        solve(board.with_start((2, 2)), name, Limits(time=5.0))
    return time.monotonic() - t0


if __name__ == "__main__":
    print(f"colorit kernels ready in {warmup():.1f} s")
