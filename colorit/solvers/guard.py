"""The deadline guard: a time limit is a promise, whatever the solver does.

Every solve holds an answer from its first millisecond: the basic AI's, worked out on the
frontier lists (``colorit.frontier``: milliseconds on a 1000x1000 board, any colour
count). The solver then runs on a worker thread while the caller waits, up to a hard
deadline a little past the solver's own. Solvers stop themselves at their deadline
between kernel slices; the guard is for what they cannot help: a kernel compiling for
the first time, a slice far longer than planned on a huge graph. Past the hard deadline
the caller gets the best answer reported so far (kept by the ``Control``), checked like
any other; the late thread's result is dropped when it comes.

A board too big for a solver's tables (``GraphTooBig``) or out of memory gets the best
answer held, finished by greedy where that is quick (``frontier.finish``).

``build_solution`` is the one place where an answer in colour codes becomes a
``Solution``: it is replayed on the cells first, so nothing unchecked is ever returned.
"""

from __future__ import annotations

import math
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from .. import frontier
from ..board import Board
from ..graph import GraphTooBig, RegionGraph
from .base import Control, Outcome, Solution, SolverSpec

#: How far past its own deadline a solver may run before the guard answers without it:
#: a share of the limit and a fixed part (the answer is still checked and converted
#: after that, so the whole stays within 5% + 20 ms of the limit).
OVERRUN_SHARE = 0.03
OVERRUN_FIXED = 0.01
#: The waiting thread wakes this often, so signal handlers run at once.
POLL_S = 0.05
#: How long a stop request (Ctrl-C) waits for the solver before the best answer reported
#: so far is taken without it.
STOP_GRACE_S = 0.2


def build_solution(
    board: Board,
    codes: list[int],
    *,
    proven: bool,
    lower_bound: int,
    elapsed: float,
    algo: str,
    states: int = 0,
    stopped: str = "",
) -> Solution:
    """The ``Solution`` for moves in colour codes, after replaying them on the cells."""
    board.check_codes(np.asarray(codes, dtype=np.int32))
    moves = tuple(board.ids_of(codes))
    lower = len(moves) if proven else min(max(0, lower_bound), len(moves))
    return Solution(
        moves=moves,
        proven_optimal=proven,
        lower_bound=lower,
        elapsed=elapsed,
        states=states,
        algo=algo,
        stopped=stopped,
    )


@dataclass
class _Job:
    run: Callable[[], Outcome]
    done: threading.Event = field(default_factory=threading.Event)
    outcome: Outcome | None = None
    error: BaseException | None = None


class _SolverThread:
    """One long-lived daemon thread that runs solves, so a bench of thousands of boards
    does not start a thread per board. A thread still busy with a solve the guard gave
    up on is left to finish alone; the next solve gets a new thread."""

    _lock = threading.Lock()
    _idle: _SolverThread | None = None

    def __init__(self) -> None:
        self._jobs: list[_Job] = []
        self._wake = threading.Condition()
        threading.Thread(target=self._loop, name="colorit-solver", daemon=True).start()

    def _loop(self) -> None:
        while True:
            with self._wake:
                while not self._jobs:
                    self._wake.wait()
                job = self._jobs.pop()
            try:
                job.outcome = job.run()
            except BaseException as e:  # noqa: BLE001 (handed to the caller, re-raised there)
                job.error = e
            job.done.set()
            _SolverThread._release(self)

    @classmethod
    def submit(cls, run: Callable[[], Outcome]) -> _Job:
        with cls._lock:
            worker, cls._idle = cls._idle, None
        if worker is None:
            worker = cls()
        job = _Job(run)
        with worker._wake:
            worker._jobs.append(job)
            worker._wake.notify()
        return job

    @classmethod
    def _release(cls, worker: _SolverThread) -> None:
        with cls._lock:
            if cls._idle is None:
                cls._idle = worker

    @classmethod
    def _after_fork(cls) -> None:
        """A forked child has none of its parent's threads (and maybe a held lock)."""
        cls._lock = threading.Lock()
        cls._idle = None


os.register_at_fork(after_in_child=_SolverThread._after_fork)


def hard_deadline_for(control: Control) -> float:
    """When the guard stops waiting for a solver with ``control``'s deadline."""
    if control.deadline == math.inf:
        return math.inf
    limit = control.deadline - control.started
    return control.deadline + OVERRUN_SHARE * limit + OVERRUN_FIXED


def run_guarded(
    board: Board,
    spec: SolverSpec,
    control: Control,
    *,
    hard_deadline: float | None = None,
    graph: RegionGraph | None = None,
) -> Solution:
    """Run the solver ``spec`` on ``board`` and return a checked ``Solution`` by
    ``hard_deadline`` (``time.monotonic()``; default: ``hard_deadline_for(control)``)."""
    if graph is None:
        graph = RegionGraph.from_board(board)
    held = frontier.linear_codes(graph)
    # checked now, so that every kernel the answer at the deadline needs is loaded before
    # the solver starts (a solver compiling a kernel holds numba's lock for seconds)
    build_solution(board, held, proven=False, lower_bound=0, elapsed=0.0, algo=spec.name)
    hard = hard_deadline_for(control) if hard_deadline is None else hard_deadline

    def fallback(stopped: str) -> Solution:
        codes, lower = control.best if control.best is not None else (held, 0)
        lower = max(lower, control.lower_bound)
        if stopped == "memory":
            finished = frontier.finish(graph, [])
            codes = finished if len(finished) < len(codes) else codes
        return build_solution(
            board, codes, proven=graph.n_regions == 1, lower_bound=lower, elapsed=control.elapsed(),
            algo=spec.name, stopped=stopped,
        )

    def attempt() -> Outcome:
        return spec.fn(graph, control)

    try:
        if hard == math.inf:
            outcome = attempt()
        else:
            job = _SolverThread.submit(attempt)
            asked_at = math.inf
            while not job.done.wait(max(0.0, min(POLL_S, hard - time.monotonic()))):
                now = time.monotonic()
                if now >= hard:
                    control.request_stop("time")
                    return fallback("time")
                if control.stop_reason and asked_at == math.inf:
                    asked_at = now
                if now - asked_at >= STOP_GRACE_S:
                    return fallback(control.stop_reason)
            if job.error is not None:
                raise job.error
            assert job.outcome is not None
            outcome = job.outcome
    except (GraphTooBig, MemoryError):
        return fallback("memory")
    return build_solution(
        board, list(outcome.codes), proven=outcome.proven_optimal, lower_bound=outcome.lower_bound, elapsed=control.elapsed(),
        algo=spec.name, states=outcome.states, stopped=outcome.stopped,
    )
