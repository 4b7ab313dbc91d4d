"""Solvers and the one entry point that runs them: ``solve``.

Importing this package registers every solver (``linear``, ``greedy``, ``lookahead``,
``beam``, ``dfs``, ``astar``, ``auto``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from ..board import Board
from ..errors import ColoritError
from . import astar, auto, beam, dfs, greedy, linear, lookahead  # noqa: F401  (registration)
from .base import (
    Control,
    Limits,
    Outcome,
    Solution,
    SolverSpec,
    get_solver,
    register,
    solver_names,
)
from .guard import build_solution, run_guarded

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
) -> Solution:
    """Solve ``board`` with the solver named ``algo``, within ``limits``.

    ``on_improve(moves, lower_bound, elapsed)`` is called each time a shorter answer is
    found. Pass a ``Control`` to stop the search from outside (``control.request_stop()``,
    e.g. from a signal handler); it then returns the best answer found so far. With a
    time limit the answer comes back within it (see ``colorit.solvers.guard``), checked
    by replaying it on the board, like every answer.

    ``start_from`` is an answer already known (colour ids, e.g. from an earlier run with a
    shorter limit) and ``lower_bound`` a length no answer can beat, known from such a
    run: the search starts from that answer, the result is never longer, and its lower
    bound is never lower (so an answer that meets it is proven optimal).
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
    return run_guarded(board, spec, control)


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
