"""A command's solve step and how it speaks of the answer: ``solve_on_time`` (an answer
written by a time limit counted from the process start), ``solve_within`` (a limit from
now), ``describe`` and ``limit_beside_par``. The solvers load only when a solve runs."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..log import plural

if TYPE_CHECKING:
    from ..game.board import Board
    from ..io.gameid import GameId
    from ..runtime.signals import SignalGuard
    from ..solvers import Solution
    from .context import Context


#: Kept back from a time limit counted from the process start, for checking and writing
#: the answer (a share of the limit up to a cap, plus a little per cell: a million-cell
#: board's answer may have a million lines, and its replay, conversion and text take
#: 0.4-0.5 s on a 2-vCPU AMD EPYC) ...
WRITE_RESERVE_SHARE = 0.05
WRITE_RESERVE_CAP = 0.25
WRITE_RESERVE_PER_CELL = 4e-7
#: ... and for the search to notice its deadline and wind down before the guard stops
#: waiting for it.
WIND_DOWN_SHARE = 0.05
WIND_DOWN_CAP = 0.2


def solve_on_time(
    board: Board,
    algo: str,
    limit: float,
    memory: int | None,
    ctx: Context,
    guard: SignalGuard,
    on_improve: Callable[[int, int, float], None] | None = None,
) -> Solution:
    """Solve ``board`` so that the answer can be written within ``limit`` seconds of
    ``ctx.started`` (for a command line run, the process start): the deadline guard
    answers by the limit minus the write reserve whatever the search does, and the
    search gets what is left before that, minus time to wind down. A signal stops it
    with its best answer."""
    from ..solvers import Control, Limits, solve

    write = min(WRITE_RESERVE_CAP, WRITE_RESERVE_SHARE * limit) + WRITE_RESERVE_PER_CELL * board.cells.size
    wind_down = min(WIND_DOWN_CAP, WIND_DOWN_SHARE * limit)
    hard = ctx.started + limit - write
    budget = max(0.001, hard - wind_down - time.monotonic())
    control = Control(Limits(time=budget, memory=memory))
    if on_improve is not None:
        control.listen(lambda codes, lb: on_improve(len(codes), lb, ctx.since_start()))
    guard.watch(control)
    return solve(board, algo, control=control, hard_deadline=max(hard, control.deadline))


def solve_within(board: Board, algo: str, limit: float, memory: int | None, guard: SignalGuard) -> Solution:
    """Solve ``board`` in ``limit`` seconds from now (within 5% + 20 ms, see
    ``colorit.solvers.deadline``); a signal stops it with its best answer."""
    from ..solvers import Control, Limits, solve

    control = guard.watch(Control(Limits(time=limit, memory=memory)))
    return solve(board, algo, control=control)


def limit_beside_par(game_id: GameId, solution: Solution) -> str:
    """The game ID's move limit beside the answer: ``game ID: limit 18, par 17`` (par:
    the proven optimum), or the best found when it is not proven."""
    n = len(solution.moves)
    found = f"par {n}" if solution.proven_optimal else f"best found {n} (not proven optimal)"
    return f"game ID: {game_id.describe_limit()}, {found}"


def describe(solution: Solution) -> str:
    """``proven optimal: 12 moves`` or ``best found, 14 moves; lower bound 12 (gap 16.7%)``."""
    moves = plural(len(solution.moves), "move")
    if solution.proven_optimal:
        return f"proven optimal: {moves}"
    if solution.lower_bound > 0:
        return f"best found, {moves}; lower bound {solution.lower_bound} (gap {100 * solution.gap:.1f}%)"
    return f"best found, {moves}; no lower bound known"
