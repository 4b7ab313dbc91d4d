"""``colorit.cli.context`` and ``colorit.cli.solving``: a command's board read (from
standard input too), its solve step (an answer by a limit counted from the process start,
a signal's stop) and how an answer is described."""

from __future__ import annotations

import io
import signal
import sys
import time

import pytest

from colorit import solve
from colorit.cli.context import Context, read_board
from colorit.cli.solving import describe, solve_on_time, solve_within
from colorit.game.generate import random_board
from colorit.runtime.signals import SignalGuard
from colorit.solvers import Solution

from cli_support import registered, waiting_solver


def test_read_board_from_standard_input(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"1,2\n3,1\n")))
    board = read_board("-", start="1,1")
    assert board.cells.tolist() == [[1, 2], [3, 1]] and board.start == (1, 1)


def test_describe() -> None:
    assert describe(Solution((1, 2), True, 2, 0.1)) == "proven optimal: 2 moves"
    assert describe(Solution((1, 2, 3, 4), False, 3, 0.1)) == "best found, 4 moves; lower bound 3 (gap 33.3%)"
    assert describe(Solution((1, 2, 3), False, 0, 0.1)) == "best found, 3 moves; no lower bound known"


sleepy = waiting_solver("linear")


def test_solve_on_time_answers_by_the_limit_counted_from_the_start() -> None:
    board = random_board(30, 30, 6, seed=4)
    solve(board, "linear")  # the kernels the held answer needs, loaded before the clock
    with registered("sleepy-core", sleepy):
        started = time.monotonic() - 0.3  # as if the process had started 0.3 s ago
        ctx = Context(started=started, from_process_start=True)
        improved: list[tuple[int, float]] = []
        sol = solve_on_time(
            board,
            "sleepy-core",
            0.6,
            None,
            ctx,
            SignalGuard(),
            on_improve=lambda n, lb, t: improved.append((n, t)),
        )
        done = time.monotonic() - started
    # by the limit, not by the solver (wide margin for a loaded CI machine; benchmarks/promises.py measures the promise)
    assert 0.5 <= done < 5
    assert sol.stopped == "time" and sol.algo == "sleepy-core"
    board.check(list(sol.moves))
    assert improved and improved[0][0] == len(sol.moves)
    assert improved[0][1] >= 0.3  # elapsed is counted from the start, not from the call


def test_solve_within_stops_on_a_signal() -> None:
    board = random_board(30, 30, 6, seed=4)
    guard = SignalGuard()
    with registered("sleepy-core", sleepy):
        guard._handle(int(signal.SIGINT), None)  # the signal came before the solve
        t0 = time.monotonic()
        sol = solve_within(board, "sleepy-core", 30.0, None, guard)
    # at once, not after the 30 s limit (wide margin for a loaded CI machine;
    # benchmarks/promises.py measures the promise)
    assert time.monotonic() - t0 < 10
    assert sol.stopped == "signal"
    board.check(list(sol.moves))
