"""Solvers and the one entry point that runs them: ``solve``.

Importing this package registers every solver (``linear``, ``greedy``, ``dfs``, ``astar``,
``auto``).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..board import Board
from ..graph import RegionGraph
from .base import Control, Limits, Outcome, Solution, SolverSpec, get_solver, register, solver_names
from . import linear, greedy, lookahead, beam, dfs, astar, auto  # noqa: F401  (registration)

DEFAULT_ALGO = "auto"

ProgressFn = Callable[[int, int, float], None]


def solve(
    board: Board,
    algo: str = DEFAULT_ALGO,
    limits: Limits | None = None,
    *,
    on_improve: ProgressFn | None = None,
    control: Control | None = None,
) -> Solution:
    """Solve ``board`` with the solver named ``algo``.

    ``on_improve(moves, lower_bound, elapsed)`` is called each time a shorter answer is
    found. Pass a ``Control`` to stop the search from outside (``control.request_stop()``,
    e.g. from a signal handler); it then returns the best answer found so far. The answer
    is replayed on the board before it is returned.
    """
    spec = get_solver(algo)
    if control is None:
        control = Control(limits)
    if on_improve is not None:
        ctl = control
        control._on_improve = lambda codes, lb: on_improve(len(codes), lb, ctl.elapsed())  # noqa: SLF001
    graph = RegionGraph.from_board(board)
    outcome = spec.fn(graph, control)
    board.check_codes(np.asarray(outcome.codes, dtype=np.int32))
    moves = tuple(board.ids_of(outcome.codes))
    lower = len(moves) if outcome.proven_optimal else min(outcome.lower_bound, len(moves))
    return Solution(
        moves=moves,
        proven_optimal=outcome.proven_optimal,
        lower_bound=lower,
        elapsed=control.elapsed(),
        states=outcome.states,
        algo=spec.name,
        stopped=outcome.stopped,
    )


__all__ = [
    "Control",
    "Limits",
    "Outcome",
    "Solution",
    "SolverSpec",
    "DEFAULT_ALGO",
    "get_solver",
    "register",
    "solve",
    "solver_names",
]
