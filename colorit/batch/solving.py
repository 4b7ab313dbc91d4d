"""Solving many boards: one board's result as a batch keeps it, and the one entry point
that runs a batch on any runner.

Boards are solved by a runner (``Runner``): in this process (``InProcess``, the runner
``solve_boards`` falls back to), by worker processes here (``colorit.batch.local``), or
by a Dask cluster (``colorit.batch.dask_client``). Each runner loads the kernels its
boards need (``warm``) before any board's clock starts. Whatever the runner,
``solve_boards`` puts the answers back in input order. Every answer is
replayed on its board by ``colorit.solve``, and each board keeps its time limit (the
deadline guard). A board may come with a seed, an answer and a lower bound known from an
earlier run: the search starts from them (``colorit.solve``'s ``start_from`` and
``lower_bound``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from ..game.board import Board
from ..solvers import Control, Limits, solve


@dataclass(frozen=True)
class BoardResult:
    """One board's answer as a batch keeps it (picklable, small)."""

    moves: tuple[int, ...]
    proven: bool
    lower_bound: int
    elapsed: float
    states: int
    stopped: str
    error: str = ""
    table_bytes: int = 0  #: the most the search's tables held


#: An answer known before a run (colour ids) and a lower bound: where a search starts.
Seed = tuple[tuple[int, ...], int]


def solve_one(board: Board, algo: str, limits: Limits, control: Control | None = None, seed: Seed | None = None) -> BoardResult:
    """Solve and replay one board; an error becomes a result so one bad board does not
    end the run."""
    control = control or Control(limits)
    start_from, lower = (None, 0) if seed is None else seed
    try:
        s = solve(board, algo, control=control, start_from=start_from, lower_bound=lower)
    except Exception as e:  # noqa: BLE001 (reported per board, and the run fails)
        return BoardResult((), False, 0, control.elapsed(), 0, "", f"{type(e).__name__}: {e}")
    return BoardResult(s.moves, s.proven_optimal, s.lower_bound, s.elapsed, s.states, s.stopped, "", s.table_bytes)


def chunk_size(n: int, workers: int) -> int:
    """Small chunks so that hard boards spread over the workers; big enough that the
    per-chunk cost vanishes when boards are quick."""
    return max(1, min(8, n // (workers * 16) or 1))


def runs_of(todo: Sequence[int]) -> list[tuple[int, int]]:
    """``todo`` (increasing indices) as (first, end) runs of consecutive indices."""
    out: list[tuple[int, int]] = []
    for i in todo:
        if out and out[-1][1] == i:
            out[-1] = (out[-1][0], i + 1)
        else:
            out.append((i, i + 1))
    return out


#: Called with the input index of a chunk's first board and its results (None for a
#: board skipped after a stop request).
OnResults = Callable[[int, list["BoardResult | None"]], None]


class StopFlag:
    """A stop request shared by a runner and its caller: it stops the running searches
    (``on_stop`` hooks) and the boards not started yet."""

    def __init__(self) -> None:
        self.requested = False
        self._hooks: list[Callable[[], None]] = []

    def on_stop(self, fn: Callable[[], None]) -> None:
        self._hooks.append(fn)
        if self.requested:
            fn()

    def set(self) -> None:
        if not self.requested:
            self.requested = True
            for fn in list(self._hooks):
                fn()


class Runner(Protocol):
    """Solves ``boards[i]`` for each ``i`` in ``todo`` (from ``seeds[i]`` where given),
    reporting chunks as they finish, after ``warm`` has loaded the kernels ``algo``
    needs on ``boards`` (the A* widths from ``runtime.warmup.widths_for``)."""

    def warm(self, algo: str, boards: Sequence[Board]) -> None: ...

    def run(
        self,
        boards: Sequence[Board],
        todo: Sequence[int],
        algo: str,
        limits: Limits,
        on_results: OnResults,
        stop: StopFlag,
        seeds: Mapping[int, Seed] | None = None,
    ) -> None: ...


class InProcess:
    """One board after another in this process."""

    def warm(self, algo: str, boards: Sequence[Board]) -> None:
        """Load the kernels ``algo`` needs on ``boards`` here, then settle the collector:
        the command's start is over (``runtime.warmup.warm_up``)."""
        from ..runtime.warmup import warm_up

        warm_up(algo, boards)

    def run(
        self,
        boards: Sequence[Board],
        todo: Sequence[int],
        algo: str,
        limits: Limits,
        on_results: OnResults,
        stop: StopFlag,
        seeds: Mapping[int, Seed] | None = None,
    ) -> None:
        current: list[Control] = []

        def stop_current() -> None:
            for control in current:
                control.request_stop("signal")

        stop.on_stop(stop_current)
        for i in todo:
            if stop.requested:
                break
            control = Control(limits)
            current[:] = [control]
            on_results(i, [solve_one(boards[i], algo, limits, control, None if seeds is None else seeds.get(i))])
        current.clear()


def solve_boards(
    boards: Sequence[Board],
    algo: str,
    limits: Limits,
    runner: Runner | None = None,
    *,
    todo: Sequence[int] | None = None,
    on_results: OnResults | None = None,
    stop: StopFlag | None = None,
    seeds: Mapping[int, Seed] | None = None,
) -> list[BoardResult | None]:
    """Answers for ``boards`` in input order (None where not solved: not in ``todo``,
    or skipped after a stop request). The runner is expected warm (``Runner.warm``);
    without one, the boards are solved in this process."""
    results: list[BoardResult | None] = [None] * len(boards)
    indices = list(range(len(boards))) if todo is None else sorted(todo)

    def store(first: int, chunk: list[BoardResult | None]) -> None:
        results[first : first + len(chunk)] = chunk
        if on_results is not None:
            on_results(first, chunk)

    (runner or InProcess()).run(boards, indices, algo, limits, store, stop or StopFlag(), seeds)
    return results
