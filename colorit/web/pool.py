"""A bounded pool of solver processes for the web server.

Why processes: a solve is seconds of CPU in numba kernels, and the server must keep
answering (``/api/health`` within a second) while every worker is busy. Each worker is a
``spawn``ed interpreter (never a fork of the threaded server) that loads every kernel
in its initializer (``colorit.runtime.warmup``), so the first request does not wait for them.

How a solve travels: ``submit`` (on the event loop) hands the job to an idle worker or
puts it in a bounded waiting line; when the line is full it raises ``PoolFull`` (the
server's 503). The parent talks to each worker over one duplex pipe: ``solve`` and
``cancel`` go down; ``started``, ``progress`` (each better answer), then ``result`` or
``failed`` come back. One reader thread per worker passes them to the job's asyncio
queue with ``call_soon_threadsafe``. In the worker a listener thread takes ``cancel``
while the main thread solves, and calls ``control.request_stop()``: the search returns
within one kernel slice. A watchdog asks an overdue solve to stop and, if it still does
not answer, kills its worker; a worker that dies is replaced and its job fails, the
others carry on.

Nothing here imports the web framework, so worker processes stay light.
"""

from __future__ import annotations

import asyncio
import collections
import faulthandler
import itertools
import logging
import math
import multiprocessing
import os
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

import numpy as np

log = logging.getLogger("colorit.web")

#: how long ``start`` waits for the workers to load their kernels (a first run after the
#: sources changed compiles them: up to a minute on a busy 2-core machine)
READY_TIMEOUT = 300.0
#: past its time limit, a solve is asked to stop after this many seconds...
STOP_GRACE = 2.0
#: ...and its worker is killed (and replaced) after this many
KILL_GRACE = 15.0
#: how often the watchdog looks
WATCH_EVERY = 0.25

#: why a job failed -> what the client is told (``errors.py`` turns kinds into statuses)
FAIL_KINDS = ("input", "memory", "crashed", "internal", "shutdown", "cancelled")


class PoolFull(Exception):
    """Every worker is busy and the waiting line is full; try again in ``retry_after`` s."""

    def __init__(self, retry_after: int, waiting: int) -> None:
        super().__init__(f"every solver is busy and {waiting} solves are waiting; try again in {retry_after} s")
        self.retry_after = retry_after


class PoolClosed(Exception):
    """The pool is shutting down (or was never started)."""


class SolveFailed(Exception):
    """A solve that ended without an answer; ``kind`` is one of ``FAIL_KINDS``."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


@dataclass(frozen=True)
class SolveTask:
    """What a worker needs for one solve (pickled down the pipe)."""

    cells: np.ndarray
    start: tuple[int, int]
    algo: str
    time_limit: float


class SolveJob:
    """One submitted solve, seen from the event loop: read its events in order with
    ``next_event`` (or just ``await result()``); ``cancel()`` when the client goes away.

    Events are ``(kind, data)``: ``queued`` {position}, ``started`` {algo, regions,
    lower_bound (of the start position)},
    ``progress`` {moves, lower_bound, gap, proven, elapsed_s}, then exactly one of
    ``result`` (the answer dict) or ``failed`` (a ``SolveFailed``)."""

    def __init__(self, pool: SolverPool, job_id: int, task: SolveTask, loop: asyncio.AbstractEventLoop) -> None:
        self.id = job_id
        self.task = task
        self._pool = pool
        self._loop = loop
        self._events: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()
        self.finished = False  #: a final event was delivered (guarded by the pool's lock)
        self.position = 0

    def _deliver(self, kind: str, data: Any) -> None:
        """Queue an event for the loop; safe from any thread (the pool's lock held)."""
        if self.finished:
            return
        if kind in ("result", "failed"):
            self.finished = True
        try:
            self._loop.call_soon_threadsafe(self._events.put_nowait, (kind, data))
        except RuntimeError:  # the loop is closed: nobody is listening any more
            pass

    async def next_event(self, timeout: float | None = None) -> tuple[str, Any]:
        """The next event; ``TimeoutError`` after ``timeout`` seconds without one."""
        if timeout is None:
            return await self._events.get()
        return await asyncio.wait_for(self._events.get(), timeout)

    async def result(self) -> dict[str, Any]:
        """The answer; ``SolveFailed`` if the solve ended without one."""
        while True:
            kind, data = await self.next_event()
            if kind == "result":
                return data  # type: ignore[no-any-return]
            if kind == "failed":
                raise data

    def cancel(self, message: str = "the solve was cancelled") -> None:
        """Drop the job if it waits, stop its solve if it runs; no-op once finished."""
        self._pool._cancel(self, message)


class _Worker:
    """One solver process and what the parent knows of it."""

    def __init__(self, index: int, process: Any, conn: Connection) -> None:
        self.index = index
        self.process = process
        self.conn = conn
        self.send_lock = threading.Lock()
        self.ready = False
        self.job: SolveJob | None = None
        self.deadline = 0.0
        self.stop_sent = False
        self.killed = False
        self.reader: threading.Thread | None = None
        # one thread at a time waits for, or signals, the process: two waiting at once
        # race to reap it, and the loser thinks it alive (then signals a reaped pid)
        self._process_lock = threading.Lock()

    def wait(self, timeout: float) -> bool:
        """Wait up to ``timeout`` s for the process to end; True if it did."""
        with self._process_lock:
            self.process.join(timeout)
            return not self.process.is_alive()

    def signal(self, how: str) -> None:
        """``kill`` or ``dump`` (SIGUSR1: its threads' stacks to stderr) the process, if
        it has not ended (workers ignore SIGINT and SIGTERM)."""
        with self._process_lock:
            if not self.process.is_alive():
                return
            if how == "dump":
                os.kill(self.process.pid, signal.SIGUSR1)
            else:
                getattr(self.process, how)()

    def send(self, message: Any) -> bool:
        """Send to the worker; False if it is gone (its reader will notice and clean up)."""
        try:
            with self.send_lock:
                self.conn.send(message)
            return True
        except (OSError, ValueError, EOFError):
            return False


class SolverPool:
    """``workers`` solver processes and a waiting line of at most ``queue_size`` jobs.

    ``start()`` before use (it waits until every worker has loaded its kernels),
    ``close()`` after: it stops the running solves and ends every process it started.
    ``memory_per_solve`` is each solve's ``Limits(memory=...)``."""

    def __init__(
        self,
        workers: int,
        *,
        queue_size: int,
        memory_per_solve: int | None = None,
        warm: bool = True,
        context: str = "spawn",
    ) -> None:
        if workers < 1:
            raise ValueError(f"a pool needs at least one worker, got {workers}")
        self.size = workers
        self.queue_size = max(0, queue_size)
        self.memory_per_solve = memory_per_solve
        self.warm = warm
        self._ctx: Any = multiprocessing.get_context(context)
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._workers: list[_Worker] = []
        self._waiting: collections.deque[SolveJob] = collections.deque()
        self._ids = itertools.count(1)
        self._started = False
        self._closing = False
        self._failed_starts = 0
        self._watchdog: threading.Thread | None = None
        self._retired: list[_Worker] = []

    # ------------------------------------------------------------------ life cycle

    def start(self, wait: bool = True, timeout: float = READY_TIMEOUT) -> None:
        """Start the workers; with ``wait``, return once all are ready (``RuntimeError``
        if one dies first or they take longer than ``timeout``)."""
        with self._lock:
            if self._started:
                return
            self._started = True
            for i in range(self.size):
                self._workers.append(self._spawn(i))
        self._watchdog = threading.Thread(target=self._watch, name="colorit-pool-watchdog", daemon=True)
        self._watchdog.start()
        if wait:
            self.wait_ready(timeout)

    def wait_ready(self, timeout: float = READY_TIMEOUT, give_up: Callable[[], bool] | None = None) -> bool:
        """Wait until every worker is ready (True), or ``give_up()`` says to stop
        waiting (False); ``RuntimeError`` if a worker dies first or after ``timeout``."""
        end = time.monotonic() + timeout
        with self._lock:
            while True:
                if give_up is not None and give_up():
                    return False
                if self._failed_starts or self._closing or not self._workers:
                    raise RuntimeError("a solver worker stopped while loading its kernels (see the messages above)")
                if all(w.ready for w in self._workers):
                    return True
                left = end - time.monotonic()
                if left <= 0:
                    raise RuntimeError(f"the solver workers were not ready after {timeout:.0f} s")
                self._changed.wait(min(left, 0.2))

    def _spawn(self, index: int) -> _Worker:
        parent_end, child_end = self._ctx.Pipe(duplex=True)
        process = self._ctx.Process(
            target=_worker_main,
            args=(child_end, self.memory_per_solve, self.warm),
            name=f"colorit-solver-{index}",
            daemon=True,
        )
        process.start()
        child_end.close()  # so the parent sees EOF when the worker exits
        worker = _Worker(index, process, parent_end)
        worker.reader = threading.Thread(
            target=self._read, args=(worker,), name=f"colorit-pool-reader-{index}", daemon=True
        )
        worker.reader.start()
        return worker

    def close(self, timeout: float = 5.0) -> None:
        """Fail every job still open, ask every worker to stop, and wait for the
        processes to end (kill those that do not)."""
        with self._lock:
            if self._closing:
                return
            self._closing = True
            self._fail_all("the server is shutting down")
            workers = list(self._workers) + list(self._retired)
            self._changed.notify_all()
        for w in workers:
            w.send(None)
        end = time.monotonic() + timeout
        for w in workers:
            if w.wait(max(0.0, end - time.monotonic())):
                continue
            if w.ready:
                # a solve that does not stop is a bug: show where it is stuck
                log.warning("solver worker %s did not stop; killing it (its threads follow)", w.process.pid)
                w.signal("dump")
                time.sleep(0.2)
            else:
                # still loading its kernels (the first start after an install): expected
                log.info("solver worker %s was still loading its kernels; ending it", w.process.pid)
            w.signal("kill")
            w.wait(1.0)
        for w in workers:
            if w.reader is not None:
                w.reader.join(1.0)
            try:
                w.conn.close()
            except OSError:
                pass
        if self._watchdog is not None:
            self._watchdog.join(1.0)

    def cancel_all(self, message: str = "the server is shutting down") -> None:
        """Fail every open job at once (their clients get ``message``) and stop the
        running solves; new jobs are still taken. Called when the server starts to stop,
        so that no stream keeps it waiting."""
        with self._lock:
            self._fail_all(message)

    def _fail_all(self, message: str) -> None:
        while self._waiting:
            self._waiting.popleft()._deliver("failed", SolveFailed("shutdown", message))
        for w in self._workers:
            if w.job is not None:
                w.job._deliver("failed", SolveFailed("shutdown", message))
                if not w.stop_sent:
                    w.stop_sent = w.send(("cancel", w.job.id, "cancelled"))

    def pids(self) -> list[int]:
        """Process ids of the current workers."""
        with self._lock:
            return [w.process.pid for w in self._workers if w.process.pid is not None]

    # ------------------------------------------------------------------ jobs

    def submit(self, cells: np.ndarray, start: tuple[int, int], algo: str, time_limit: float) -> SolveJob:
        """Queue a solve (from inside the event loop); ``PoolFull`` when the line is full."""
        loop = asyncio.get_running_loop()
        with self._lock:
            if self._closing or not self._started:
                raise PoolClosed("the server is shutting down")
            idle = any(w.ready and w.job is None for w in self._workers)
            if not idle and len(self._waiting) >= self.queue_size:
                raise PoolFull(self._retry_after(), len(self._waiting))
            job = SolveJob(self, next(self._ids), SolveTask(cells, start, algo, float(time_limit)), loop)
            self._waiting.append(job)
            self._dispatch()  # it runs now, or gets its place in the line
            return job

    def _dispatch(self) -> None:
        """Give waiting jobs to idle workers and tell the others their new places (the
        lock held)."""
        for w in self._workers:
            if not self._waiting:
                break
            if w.ready and w.job is None and not w.killed:
                job = self._waiting.popleft()
                w.job = job
                w.deadline = time.monotonic() + job.task.time_limit
                w.stop_sent = False
                # if the worker just died, its reader fails this job and replaces it
                w.send(("solve", job.id, job.task))
        for i, job in enumerate(self._waiting, start=1):
            if job.position != i:
                job.position = i
                job._deliver("queued", {"position": i})

    def _cancel(self, job: SolveJob, message: str) -> None:
        with self._lock:
            if job.finished:
                return
            if job in self._waiting:
                self._waiting.remove(job)
                job._deliver("failed", SolveFailed("cancelled", message))
                self._dispatch()
                return
            for w in self._workers:
                if w.job is job:
                    job._deliver("failed", SolveFailed("cancelled", message))
                    if not w.stop_sent:
                        w.stop_sent = w.send(("cancel", job.id, "cancelled"))
                    return

    def _retry_after(self) -> int:
        """Seconds until the first running solve reaches its time limit (at least 1)."""
        now = time.monotonic()
        left = [w.deadline - now for w in self._workers if w.job is not None]
        return max(1, math.ceil(min(left))) if left else 1

    def stats(self) -> dict[str, int]:
        """Workers, those ready, those solving, and jobs waiting."""
        with self._lock:
            return {
                "workers": self.size,
                "ready": sum(1 for w in self._workers if w.ready),
                "busy": sum(1 for w in self._workers if w.job is not None),
                "queued": len(self._waiting),
            }

    # ------------------------------------------------------------------ threads

    def _read(self, w: _Worker) -> None:
        """Pass the worker's messages on until its pipe closes, then clean up after it."""
        while True:
            try:
                message = w.conn.recv()
            except (EOFError, OSError):
                break
            except Exception:  # a message that cannot be unpickled: treat the worker as broken
                log.exception("unreadable message from solver worker %s", w.process.pid)
                w.signal("kill")
                break
            self._on_message(w, message)
        self._on_exit(w)

    def _on_message(self, w: _Worker, message: tuple[Any, ...]) -> None:
        kind = message[0]
        with self._lock:
            if kind == "ready":
                w.ready = True
                self._failed_starts = 0
                self._dispatch()
                self._changed.notify_all()
                return
            job = w.job
            if job is None or job.id != message[1]:
                return  # an event of a job already given up
            if kind in ("started", "progress"):
                job._deliver(kind, message[2])
            elif kind == "result":
                w.job = None
                job._deliver("result", message[2])
                self._dispatch()
            elif kind == "failed":
                w.job = None
                job._deliver("failed", SolveFailed(message[2], message[3]))
                self._dispatch()

    def _on_exit(self, w: _Worker) -> None:
        """A worker's pipe closed: fail its job and, unless the pool is closing, replace it."""
        w.wait(2.0)
        with self._lock:
            job, w.job = w.job, None
            if job is not None:
                message = "the solver process stopped unexpectedly"
                if w.killed:
                    message = "the solver did not stop at its time limit and was ended"
                job._deliver("failed", SolveFailed("crashed", message))
            if self._closing or w not in self._workers:
                return
            code = w.process.exitcode
            log.warning("solver worker %s ended (exit code %s)", w.process.pid, code)
            if not w.ready:
                # it died loading its kernels: another would too. Give up on this slot.
                self._failed_starts += 1
                self._workers.remove(w)
                self._retired.append(w)
                self._changed.notify_all()
                if not self._workers:
                    self._fail_all("no solver process is running (see the server log)")
                return
            i = self._workers.index(w)
            self._retired.append(w)
            try:
                self._workers[i] = self._spawn(w.index)
            except OSError:
                log.exception("cannot start a new solver worker")
                self._workers.remove(w)
            self._changed.notify_all()

    def _watch(self) -> None:
        """Ask solves overdue by ``STOP_GRACE`` to stop; kill workers overdue by ``KILL_GRACE``."""
        while True:
            time.sleep(WATCH_EVERY)
            doomed = []
            with self._lock:
                if self._closing:
                    return
                now = time.monotonic()
                for w in self._workers:
                    if w.job is None or w.killed:
                        continue
                    late = now - w.deadline
                    if late > KILL_GRACE:
                        log.error("solve %s ran %.1f s past its time limit; ending its worker", w.job.id, late)
                        w.killed = True
                        doomed.append(w)
                    elif late > STOP_GRACE and not w.stop_sent:
                        w.stop_sent = w.send(("cancel", w.job.id, "time"))
            for w in doomed:  # not under the pool's lock: the event loop needs it
                w.signal("kill")


# ---------------------------------------------------------------------- the worker


def _worker_main(conn: Connection, memory_per_solve: int | None, warm: bool) -> None:
    """A solver process: load the kernels, say ``ready``, then solve what comes down
    the pipe until ``None`` or the pipe closes (the parent is gone)."""
    # Ctrl-C in a terminal, `timeout`, a service manager: all signal the whole process
    # group. The server decides when its workers end (and kills one that does not), so
    # they ignore both (and never print a KeyboardInterrupt traceback); a worker whose
    # server is gone sees its pipe close and exits.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    # a worker that does not stop when asked shows where it is stuck (close() asks)
    faulthandler.register(signal.SIGUSR1, all_threads=True)
    import queue

    from ..solvers.bound import lower_bound
    from ..errors import ColoritError
    from ..game.graph import RegionGraph
    from ..solvers import Control, Limits, get_solver, solve

    if warm:
        from ..runtime.warmup import warmup

        warmup()

    controls: dict[int, Control] = {}
    lock = threading.Lock()
    jobs: queue.SimpleQueue[tuple[int, SolveTask] | None] = queue.SimpleQueue()

    def listen() -> None:
        while True:
            try:
                message = conn.recv()
            except (EOFError, OSError):
                message = None
            if message is None:
                with lock:
                    for control in controls.values():
                        control.request_stop("shutdown")
                jobs.put(None)
                return
            if message[0] == "solve":
                _, job_id, task = message
                with lock:  # the clock starts now: the job's time limit counts from here
                    controls[job_id] = Control(Limits(time=task.time_limit, memory=memory_per_solve))
                jobs.put((job_id, task))
            elif message[0] == "cancel":
                with lock:
                    running = controls.get(message[1])
                    if running is not None:
                        running.request_stop(message[2])

    send_lock = threading.Lock()

    def send(message: tuple[Any, ...]) -> None:
        try:
            with send_lock:
                conn.send(message)
        except (OSError, ValueError):  # the parent is gone: nothing left to do
            _exit(0)

    def run(job_id: int, task: SolveTask, control: Control) -> None:
        from ..game.board import Board

        try:
            board = Board(task.cells, task.start)
            spec = get_solver(task.algo)
            graph = RegionGraph.from_board(board)
            # the start position's bound holds for the whole solve: progress shows it
            # from the first answer on (a solver's quick answer comes before its bound)
            root = lower_bound(graph)
            send(("started", job_id, {"algo": spec.name, "regions": graph.n_regions, "lower_bound": root}))

            def improved(n_moves: int, bound: int, elapsed: float) -> None:
                bound = max(bound, root)
                gap = (n_moves - bound) / bound if bound > 0 and n_moves > bound else 0.0
                send(
                    (
                        "progress",
                        job_id,
                        {
                            "moves": n_moves,
                            "lower_bound": bound,
                            "gap": round(gap, 6),
                            "proven": n_moves <= bound,
                            "elapsed_s": round(elapsed, 4),
                        },
                    )
                )

            solution = solve(board, spec.name, control=control, on_improve=improved)
            n_moves = len(solution.moves)
            bound = min(n_moves, max(solution.lower_bound, root))  # the heuristics know no bound
            gap = (n_moves - bound) / bound if bound > 0 else 0.0
            send(
                (
                    "result",
                    job_id,
                    {
                        "moves": list(solution.moves),
                        "proven": solution.proven_optimal or n_moves == bound,
                        "lower_bound": bound,
                        "gap": round(gap, 6),
                        "elapsed_s": round(solution.elapsed, 4),
                        "algo": solution.algo,
                        "stopped": solution.stopped,
                        "table_bytes": solution.table_bytes,
                    },
                )
            )
        except ColoritError as e:
            send(("failed", job_id, "input", str(e)))
        except MemoryError:
            send(
                (
                    "failed",
                    job_id,
                    "memory",
                    "the solver ran out of memory; try a shorter time limit or a faster algorithm",
                )
            )
        except Exception:  # noqa: BLE001  (a bug: logged here, the client gets one line)
            traceback.print_exc(file=sys.stderr)
            send(("failed", job_id, "internal", "the solver failed unexpectedly (the server log has the details)"))

    threading.Thread(target=listen, name="colorit-worker-listener", daemon=True).start()
    send(("ready", os.getpid()))
    while (item := jobs.get()) is not None:
        job_id, task = item
        with lock:
            control = controls[job_id]
        try:
            run(job_id, task, control)
        finally:
            with lock:
                controls.pop(job_id, None)
    _exit(0)


def _exit(code: int) -> None:
    """Leave without the interpreter's teardown (unloading numba takes 0.3-0.5 s)."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)
