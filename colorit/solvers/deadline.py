"""The deadline guard: a time limit is a promise, whatever the solver does.

Every solve holds an answer: the basic AI's, worked out on the frontier lists
(``colorit.game.play_lists``: any colour count, up to half a second on a 1000x1000 board
of a million colours). The solver runs on a worker thread while the caller works that
answer out and then waits, up to a hard deadline a little past the solver's own. Solvers
stop themselves at their deadline between kernel slices; the hard deadline is for what
they cannot help: a kernel compiling for the first time, a slice far longer than planned
on a huge graph. Past the hard deadline the caller gets the best answer reported so far (kept by
the ``Control``), checked like any other; the late thread's result is dropped when it
comes.

Once a solver's kernels are loaded in this process (``mark_warm``, by the warm-up before
a bench or a command's clock starts), a solve with a long limit (``INLINE_LIMIT_S``) runs
on the caller's thread instead: it stops itself within a kernel slice (milliseconds) of
its deadline, far inside the hard deadline's margin, and a bench of quick boards is spared
the hand-off to the solver thread (about 30 µs a solve, plus the caches it costs: 3% of
pc19's solving).

A board too big for a solver's tables (``GraphTooBig``) or out of memory gets the best
answer held, finished by greedy where that is quick (``play_lists.finish``).

``build_solution`` is the one place where an answer in colour codes becomes a
``Solution``: it is replayed on the cells first, so nothing unchecked is ever returned.
"""

from __future__ import annotations

import math
import os
import threading
import time
from collections.abc import Callable, Iterable
from typing import ClassVar

import numpy as np

from ..game import play_lists
from ..game.bitset import compiled_width
from ..game.board import Board
from ..game.graph import GraphTooBig, RegionGraph
from .base import Control, Outcome, Solution, SolverSpec

#: How far past its own deadline a solver may run before the caller is answered without it:
#: a share of the limit and a fixed part (the answer is still checked and converted
#: after that, so the whole stays within 5% + 20 ms of the limit).
OVERRUN_SHARE = 0.03
OVERRUN_FIXED = 0.01
#: The waiting thread wakes this often, so signal handlers run at once.
POLL_S = 0.05
#: How long a stop request (Ctrl-C) waits for the solver before the best answer reported
#: so far is taken without it.
STOP_GRACE_S = 0.2
#: The shortest time limit of a solve that runs on the caller's thread once its kernels
#: are loaded: its last slice's overrun (tens of ms at worst) is then a small part of
#: the hard deadline's margin (``OVERRUN_SHARE`` of the limit: 0.3 s at 10 s).
INLINE_LIMIT_S = 10.0
#: The solvers whose kernels this process has loaded, each with the compiled widths
#: (``bitset.compiled_width``) its searches were loaded at; None: any width (kernels
#: that take the width at run time).
_warm: dict[str, frozenset[int] | None] = {}


def mark_warm(algo: str, widths: Iterable[int] | None = None) -> None:
    """Record that solver ``algo``'s kernels are loaded at ``widths`` (None: at any
    width): its solves with long limits may then run on the caller's thread."""
    have = _warm.get(algo, frozenset())
    _warm[algo] = None if widths is None or have is None else have | frozenset(widths)


def _runs_inline(spec: SolverSpec, graph: RegionGraph, control: Control) -> bool:
    """Whether a solve may skip the solver thread: a long limit, a graph the bitset
    kernels take (slices of milliseconds) and every kernel it may call loaded."""
    if control.limit_s < INLINE_LIMIT_S or not graph.adjacency_bits_fit:
        return False
    if spec.name not in _warm:
        return False
    widths = _warm[spec.name]
    return widths is None or compiled_width(graph.n_words) in widths


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
    table_bytes: int = 0,
) -> Solution:
    """The ``Solution`` for moves in colour codes, after replaying them on the cells."""
    as_array = np.asarray(codes, dtype=np.int32)
    board.check_codes(as_array)
    moves = tuple(board.ids_of(as_array))
    proven = proven or lower_bound >= len(moves)
    lower = len(moves) if proven else min(max(0, lower_bound), len(moves))
    return Solution(
        moves=moves,
        proven_optimal=proven,
        lower_bound=lower,
        elapsed=elapsed,
        states=states,
        algo=algo,
        stopped=stopped,
        table_bytes=table_bytes,
    )


class _Job:
    """A solve handed to a solver thread; ``done`` is released when it has finished."""

    __slots__ = ("done", "error", "outcome", "run")

    def __init__(self, run: Callable[[], Outcome]) -> None:
        self.run = run
        self.done = threading.Lock()
        self.done.acquire()
        self.outcome: Outcome | None = None
        self.error: BaseException | None = None

    def wait(self, timeout: float) -> bool:
        """Whether the job finished within ``timeout`` seconds (signal handlers of the
        waiting main thread run meanwhile)."""
        if self.done.acquire(timeout=max(0.0, timeout)):
            self.done.release()
            return True
        return False


class _SolverThread:
    """One long-lived daemon thread that runs solves, so a bench of thousands of boards
    does not start a thread per board (plain locks hand the jobs over: a few
    microseconds). A thread still busy with a solve past its hard deadline is left to
    finish alone; the next solve gets another thread."""

    _lock = threading.Lock()
    _idle: ClassVar[list[_SolverThread]] = []

    def __init__(self) -> None:
        self._job: _Job | None = None
        self._go = threading.Lock()
        self._go.acquire()
        threading.Thread(target=self._loop, name="colorit-solver", daemon=True).start()

    def _loop(self) -> None:
        while True:
            self._go.acquire()
            job = self._job
            assert job is not None
            try:
                job.outcome = job.run()
            except BaseException as e:  # noqa: BLE001 (handed to the caller, re-raised there)
                job.error = e
            self._job = None
            with _SolverThread._lock:
                _SolverThread._idle.append(self)
            job.done.release()

    @classmethod
    def submit(cls, run: Callable[[], Outcome]) -> _Job:
        with cls._lock:
            worker = cls._idle.pop() if cls._idle else None
        if worker is None:
            worker = cls()
        job = _Job(run)
        worker._job = job
        worker._go.release()
        return job

    @classmethod
    def _after_fork(cls) -> None:
        """A forked child has none of its parent's threads (and maybe a held lock)."""
        cls._lock = threading.Lock()
        cls._idle = []


os.register_at_fork(after_in_child=_SolverThread._after_fork)

#: Whether this process has loaded the kernels an answer at the deadline needs.
_preloaded = False


def _preload() -> None:
    """Load (or compile) the kernels of the held answer and its check once per process,
    before any solver thread runs: a solver compiling a kernel holds numba's lock for
    seconds, and the answer at the deadline must not wait for it."""
    global _preloaded
    if not _preloaded:
        tiny = Board.from_rows([[0, 1], [1, 0]])
        build_solution(tiny, play_lists.linear_codes(RegionGraph.from_board(tiny)), proven=False, lower_bound=0,
                       elapsed=0.0, algo="linear")
        _preloaded = True


def hard_deadline_for(control: Control) -> float:
    """When ``run_guarded`` stops waiting for a solver with ``control``'s deadline."""
    if control.deadline == math.inf:
        return math.inf
    return control.deadline + OVERRUN_SHARE * control.limit_s + OVERRUN_FIXED


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
    _preload()
    if graph is None:
        graph = RegionGraph.from_board(board)
    # the answer held from the start: worked out beside the solver where it costs a
    # good part of a second (a big graph), when needed where it costs microseconds
    held: list[int] | None = None
    hard = hard_deadline_for(control) if hard_deadline is None else hard_deadline

    def fallback(stopped: str) -> Solution:
        if control.best is not None:
            codes, lower = control.best
        else:
            codes, lower = (held if held is not None else play_lists.linear_codes(graph)), 0
        lower = max(lower, control.lower_bound)
        if stopped == "memory" and play_lists.greedy_is_quick(graph):
            # (otherwise finishing from the start would play the basic AI again)
            finished = play_lists.finish(graph, [])
            codes = finished if len(finished) < len(codes) else codes
        if control.seed is not None and len(control.seed) < len(codes):
            codes = control.seed
        return build_solution(
            board, codes, proven=graph.n_regions == 1, lower_bound=lower, elapsed=control.elapsed(),
            algo=spec.name, stopped=stopped, table_bytes=control.table_bytes,
        )

    def attempt() -> Outcome:
        return spec.fn(graph, control)

    try:
        if hard == math.inf or _runs_inline(spec, graph, control):
            outcome = attempt()
        else:
            job = _SolverThread.submit(attempt)
            if not graph.adjacency_bits_fit:
                held = play_lists.linear_codes(graph)
            asked_at = math.inf
            while not job.wait(min(POLL_S, hard - time.monotonic())):
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
    codes = list(outcome.codes)
    if control.seed is not None and len(control.seed) < len(codes):
        codes = list(control.seed)  # a solver that ignores the seed never makes it worse
    return build_solution(
        board, codes, proven=outcome.proven_optimal, lower_bound=max(outcome.lower_bound, control.lower_bound),
        elapsed=control.elapsed(), algo=spec.name, states=outcome.states, stopped=outcome.stopped,
        table_bytes=control.table_bytes,
    )
