"""One solver process of the web server's pool (``pool.py`` is the server's side).

A ``spawn``ed interpreter: it loads the kernels (``colorit.runtime.warmup``), says
``ready``, then solves what comes down its pipe, one job at a time, until ``None`` or
until the pipe closes (the server is gone). Two threads: the main one solves while a
listener reads the pipe, so a ``cancel`` reaches a running solve at once
(``control.request_stop()``: the search returns within one kernel slice).

The board comes built and checked by the server (``SolveTask.board``); the region graph
is built once, here, and serves both the start position's bound and the solve.

What goes up the pipe: ``("ready", pid)``, then for each job ``("started", id, {algo,
regions, lower_bound})``, ``("progress", id, {...})`` for each better answer, and
``("result", id, answer)`` or ``("failed", id, kind, message)``.

The solvers are imported inside the functions, after ``worker_main`` has set up the
signals: importing numba takes seconds, and a Ctrl-C meanwhile must not reach it.
"""

from __future__ import annotations

import faulthandler
import os
import queue
import signal
import sys
import threading
import traceback
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..solvers import Control, Solution
    from .jobs import SolveTask

Send = Callable[[tuple[Any, ...]], None]

OUT_OF_MEMORY = "the solver ran out of memory; try a shorter time limit or a faster algorithm"
INTERNAL = "the solver failed unexpectedly (the server log has the details)"


def worker_main(conn: Connection, memory_per_solve: int | None, warm: bool) -> None:
    """A solver process: load the kernels, say ``ready``, then solve what comes down
    the pipe until ``None`` or the pipe closes (the parent is gone)."""
    _leave_signals_to_the_server()
    if warm:
        from ..runtime.warmup import warmup

        warmup()
    outbox = _Outbox(conn)
    inbox = _Inbox(conn, memory_per_solve)
    threading.Thread(target=inbox.listen, name="colorit-worker-listener", daemon=True).start()
    outbox.send(("ready", os.getpid()))
    while (item := inbox.next()) is not None:
        job_id, task, control = item
        try:
            run_job(job_id, task, control, outbox.send)
        finally:
            inbox.forget(job_id)
    _exit(0)


def _leave_signals_to_the_server() -> None:
    """Ctrl-C in a terminal, `timeout`, a service manager: all signal the whole process
    group. The server decides when its workers end (and kills one that does not), so
    they ignore both (and never print a KeyboardInterrupt traceback); a worker whose
    server is gone sees its pipe close and exits. SIGUSR1 prints every thread's stack:
    a worker that does not stop when asked shows where it is stuck (``close`` asks)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    faulthandler.register(signal.SIGUSR1, all_threads=True)


class _Outbox:
    """Messages up the pipe, from either thread; the process ends if the server is gone."""

    def __init__(self, conn: Connection) -> None:
        self._conn = conn
        self._lock = threading.Lock()

    def send(self, message: tuple[Any, ...]) -> None:
        try:
            with self._lock:
                self._conn.send(message)
        except (OSError, ValueError):  # the parent is gone: nothing left to do
            _exit(0)


class _Inbox:
    """The listener thread's side: jobs in the order they came, each with the
    ``Control`` its solve will run under, and every ``cancel`` passed on at once."""

    def __init__(self, conn: Connection, memory_per_solve: int | None) -> None:
        self._conn = conn
        self._memory = memory_per_solve
        self._lock = threading.Lock()
        self._controls: dict[int, Control] = {}
        self._jobs: queue.SimpleQueue[tuple[int, SolveTask, Control] | None] = queue.SimpleQueue()

    def listen(self) -> None:
        """Read the pipe until ``None`` or its end; then stop every solve and the loop."""
        from ..solvers import Control, Limits

        while True:
            try:
                message = self._conn.recv()
            except (EOFError, OSError):
                message = None
            if message is None:
                with self._lock:
                    for control in self._controls.values():
                        control.request_stop("shutdown")
                self._jobs.put(None)
                return
            if message[0] == "solve":
                _, job_id, task = message
                # the clock starts now: the job's time limit counts from here
                control = Control(Limits(time=task.time_limit, memory=self._memory))
                with self._lock:
                    self._controls[job_id] = control
                self._jobs.put((job_id, task, control))
            elif message[0] == "cancel":
                _, job_id, why = message
                with self._lock:
                    running = self._controls.get(job_id)
                if running is not None:
                    running.request_stop(why)

    def next(self) -> tuple[int, SolveTask, Control] | None:
        """The next job, waiting for one; ``None`` when the worker is to end."""
        return self._jobs.get()

    def forget(self, job_id: int) -> None:
        with self._lock:
            self._controls.pop(job_id, None)


def run_job(job_id: int, task: SolveTask, control: Control, send: Send) -> None:
    """Solve one task, sending its events and its ``result``; a solve that fails sends
    ``failed`` with its kind (``jobs.FAIL_KINDS``) and one line, never raises."""
    from ..errors import ColoritError

    try:
        send(("result", job_id, _solve(job_id, task, control, send)))
    except ColoritError as e:
        send(("failed", job_id, "input", str(e)))
    except MemoryError:
        send(("failed", job_id, "memory", OUT_OF_MEMORY))
    except Exception:  # noqa: BLE001  (a bug: logged here, the client gets one line)
        traceback.print_exc(file=sys.stderr)
        send(("failed", job_id, "internal", INTERNAL))


def _solve(job_id: int, task: SolveTask, control: Control, send: Send) -> dict[str, Any]:
    """The solve itself: ``started``, each ``progress``, and the answer to send."""
    from ..game.graph import RegionGraph
    from ..solvers import get_solver, solve
    from ..solvers.bound import lower_bound

    spec = get_solver(task.algo)
    graph = RegionGraph.from_board(task.board)
    # the start position's bound holds for the whole solve: progress shows it from the
    # first answer on (a solver's quick answer comes before its own bound)
    root = lower_bound(graph)
    send(("started", job_id, {"algo": spec.name, "regions": graph.n_regions, "lower_bound": root}))

    def improved(n_moves: int, bound: int, elapsed: float) -> None:
        send(("progress", job_id, progress_of(n_moves, bound, root, elapsed)))

    solution = solve(task.board, spec.name, control=control, on_improve=improved, graph=graph)
    return answer_of(solution, root)


def gap_of(n_moves: int, bound: int) -> float:
    """How far an answer may be over the optimum: (moves - bound) / bound, 0 when proven."""
    return round((n_moves - bound) / bound, 6) if 0 < bound < n_moves else 0.0


def progress_of(n_moves: int, bound: int, root: int, elapsed: float) -> dict[str, Any]:
    """A ``progress`` event: a better answer of ``n_moves``; the solver's ``bound`` is
    raised to the start position's ``root`` bound."""
    bound = max(bound, root)
    return {
        "moves": n_moves,
        "lower_bound": bound,
        "gap": gap_of(n_moves, bound),
        "proven": n_moves <= bound,
        "elapsed_s": round(elapsed, 4),
    }


def answer_of(solution: Solution, root: int) -> dict[str, Any]:
    """The ``result`` of a solve: its moves, and its bound raised to ``root`` (the
    heuristics know none) but never past the answer."""
    n_moves = len(solution.moves)
    bound = min(n_moves, max(solution.lower_bound, root))
    return {
        "moves": list(solution.moves),
        "proven": solution.proven_optimal or n_moves == bound,
        "lower_bound": bound,
        "gap": gap_of(n_moves, bound),
        "elapsed_s": round(solution.elapsed, 4),
        "algo": solution.algo,
        "stopped": solution.stopped,
        "table_bytes": solution.table_bytes,
    }


def _exit(code: int) -> None:
    """Leave without the interpreter's teardown (unloading numba takes 0.3-0.5 s)."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)
