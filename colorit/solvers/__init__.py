"""Solvers and the one entry point that runs them: ``solve``.

Importing this package registers every solver (``linear``, ``greedy``, ``lookahead``,
``beam``, ``dfs``, ``astar``, ``auto``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from ..errors import ColoritError
from ..game.board import Board
from ..game.graph import RegionGraph
from ..limits import Limits
from . import astar, auto, beam, dfs, greedy, linear, lookahead  # noqa: F401  (registration)
from .base import (
    Control,
    Outcome,
    Solution,
    SolverSpec,
    get_solver,
    register,
    solver_names,
)
from .deadline import build_solution, run_guarded

DEFAULT_ALGO = "auto"

ProgressFn = Callable[[int, int, float], None]


def solve(
    board: Board,
    algo: str = DEFAULT_ALGO,
    limits: Limits | None = None,
    *,
    on_improve: ProgressFn | None = None,
    control: Control | None = None,
    start_from: Sequence[int] | None = None,
    lower_bound: int = 0,
    hard_deadline: float | None = None,
    graph: RegionGraph | None = None,
) -> Solution:
    """Solve ``board`` with the solver named ``algo``, within ``limits``.

    ``on_improve(moves, lower_bound, elapsed)`` is called each time a shorter answer is
    found. Pass a ``Control`` to stop the search from outside (``control.request_stop()``,
    e.g. from a signal handler); it then returns the best answer found so far. With a
    time limit the answer comes back within it (see ``colorit.solvers.deadline``), checked
    by replaying it on the board, like every answer.

    ``start_from`` is an answer already known (colour ids, e.g. from an earlier run with a
    shorter limit) and ``lower_bound`` a length no answer can beat, known from such a
    run: the search starts from that answer, the result is never longer, and its lower
    bound is never lower (so an answer that meets it is proven optimal).

    ``hard_deadline`` (a ``time.monotonic()`` value) is when the answer must be back
    whatever the solver does (default: a little past the time limit, see
    ``colorit.solvers.deadline``); ``graph`` is the board's region graph when the caller
    has built it already (it is built once, here, otherwise).
    """
    if not isinstance(board, Board):
        raise ColoritError(f"board must be a colorit.Board, got {type(board).__name__}")
    spec = get_solver(algo)
    if control is None:
        control = Control(limits)
    elif limits is not None and limits != control.limits:
        raise ColoritError("give the limits to the Control, or pass limits without a control, not both")
    if isinstance(lower_bound, bool) or not isinstance(lower_bound, (int, np.integer)) or lower_bound < 0:
        raise ColoritError(f"lower bound must be a whole number of moves, got {lower_bound!r}")
    if start_from is not None:
        try:
            codes = board.codes_of(list(start_from))
            board.check_codes(codes)
        except ColoritError as e:
            raise type(e)(f"start_from: {e}") from None
        control.seed = [int(c) for c in codes]
    if lower_bound:
        control.raise_bound(int(lower_bound))
    if on_improve is not None:
        ctl = control
        control.listen(lambda codes, lb: on_improve(len(codes), lb, ctl.elapsed()))
    if graph is not None and not isinstance(graph, RegionGraph):
        raise ColoritError(f"graph must be a colorit.RegionGraph, got {type(graph).__name__}")
    return run_guarded(board, spec, control, hard_deadline=hard_deadline, graph=graph)


__all__ = [
    "DEFAULT_ALGO",
    "Control",
    "Limits",
    "Outcome",
    "Solution",
    "SolverSpec",
    "build_solution",
    "get_solver",
    "register",
    "solve",
    "solver_names",
]
