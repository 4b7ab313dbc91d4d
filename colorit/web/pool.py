"""A bounded pool of solver processes for the web server.

Why processes: a solve is seconds of CPU in numba kernels, and the server must keep
answering (``/api/health`` within a second) while every worker is busy. Each worker
loads every kernel before it says it is ready (``worker.py``), so the first request does
not wait for them.

How a solve travels: ``submit`` (on the event loop) hands the job to an idle worker or
puts it in a bounded waiting line; when the line is full it raises ``PoolFull`` (the
server's 503). The worker sends ``started``, ``progress`` (each better answer), then
``result`` or ``failed``; the reader threads (``processes.py``) pass them to the job,
which hands them to the event loop. ``cancel`` stops a running solve within one kernel
slice. A worker that dies is replaced and its job fails, the others carry on.

This module keeps the jobs (which runs where, which waits); ``processes.py`` keeps the
processes. Nothing here imports the web framework, so worker processes stay light.
"""

from __future__ import annotations

import asyncio
import itertools
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from .jobs import (
    FAIL_KINDS,
    PoolClosed,
    PoolFull,
    SolveFailed,
    SolveJob,
    SolveTask,
    WaitingLine,
)
from .processes import READY_TIMEOUT, WorkerSet

if TYPE_CHECKING:
    from ..game.board import Board

__all__ = ["FAIL_KINDS", "PoolClosed", "PoolFull", "SolveFailed", "SolveJob", "SolverPool"]


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
        self.memory_per_solve = memory_per_solve
        self._lock = threading.RLock()
        self._workers = WorkerSet(
            workers,
            lock=self._lock,
            worker_args=(memory_per_solve, warm),
            context=context,
            on_free=lambda: self._jobs.dispatch(),
            on_none_left=lambda: self._jobs.fail_all("no solver process is running (see the server log)"),
        )
        self._jobs = _Schedule(self._workers, queue_size)
        self._started = False

    def start(self, wait: bool = True, timeout: float = READY_TIMEOUT) -> None:
        """Start the workers; with ``wait``, return once all are ready (``RuntimeError``
        if one dies first or they take longer than ``timeout``)."""
        with self._lock:
            if self._started:
                return
            self._started = True
            self._workers.start()
        if wait:
            self.wait_ready(timeout)

    def wait_ready(self, timeout: float = READY_TIMEOUT, give_up: Callable[[], bool] | None = None) -> bool:
        """Wait until every worker is ready (True), or ``give_up()`` says to stop
        waiting (False); ``RuntimeError`` if a worker dies first or after ``timeout``."""
        end = time.monotonic() + timeout
        workers = self._workers
        with self._lock:
            while give_up is None or not give_up():
                if workers.failed_starts or workers.closing or not workers.workers:
                    raise RuntimeError("a solver worker stopped while loading its kernels (see the messages above)")
                if all(w.ready for w in workers.workers):
                    return True
                left = end - time.monotonic()
                if left <= 0:
                    raise RuntimeError(f"the solver workers were not ready after {timeout:.0f} s")
                workers.changed.wait(min(left, 0.2))
            return False

    def close(self, timeout: float = 5.0) -> None:
        """Fail every job still open, ask every worker to stop, and wait for the
        processes to end (kill those that do not)."""
        with self._lock:
            if self._workers.closing:
                return
            self._workers.closing = True
            self._jobs.fail_all("the server is shutting down")
        self._workers.end(timeout)

    def cancel_all(self, message: str = "the server is shutting down") -> None:
        """Fail every open job at once (their clients get ``message``) and stop the
        running solves; new jobs are still taken. Called when the server starts to stop,
        so that no stream keeps it waiting."""
        with self._lock:
            self._jobs.fail_all(message)

    def pids(self) -> list[int]:
        """Process ids of the current workers."""
        with self._lock:
            return [w.process.pid for w in self._workers.workers if w.process.pid is not None]

    def stats(self) -> dict[str, int]:
        """Workers, those ready, those solving, and jobs waiting."""
        with self._lock:
            return {
                "workers": self.size,
                "ready": sum(w.ready for w in self._workers.workers),
                "busy": sum(1 for _ in self._workers.busy()),
                "queued": len(self._jobs.line),
            }

    def submit(self, board: Board, algo: str, time_limit: float) -> SolveJob:
        """Queue a solve of ``board`` (from inside the event loop); ``PoolFull`` when
        the line is full."""
        loop = asyncio.get_running_loop()
        with self._lock:
            if self._workers.closing or not self._started:
                raise PoolClosed("the server is shutting down")
            return self._jobs.add(SolveTask(board, algo, float(time_limit)), loop, self._cancel)

    def _cancel(self, job: SolveJob, message: str) -> None:
        with self._lock:
            self._jobs.cancel(job, message)


class _Schedule:
    """The pool's jobs: those waiting in the line, and which worker runs which. Every
    method runs with the pool's lock held."""

    def __init__(self, workers: WorkerSet, queue_size: int) -> None:
        self.workers = workers
        self.line = WaitingLine(queue_size)
        self._ids = itertools.count(1)

    def add(self, task: SolveTask, loop: asyncio.AbstractEventLoop, on_cancel: Callable[[SolveJob, str], None]) -> SolveJob:
        """A new job, run now or given its place in the line; ``PoolFull`` if the line
        is full."""
        if next(self.workers.idle(), None) is None and self.line.full:
            raise PoolFull(self.workers.first_free_in(), len(self.line))
        job = SolveJob(next(self._ids), task, loop, on_cancel)
        self.line.append(job)
        self.dispatch()
        return job

    def dispatch(self) -> None:
        """Give waiting jobs to idle workers and tell the others their new places."""
        for w in self.workers.idle():
            if not self.line:
                break
            w.run(self.line.pop())
        self.line.tell_places()

    def cancel(self, job: SolveJob, message: str) -> None:
        """Fail ``job`` unless it has ended: take it out of the line, or stop its solve
        (an open job is in one or the other)."""
        if job.finished:
            return
        job.fail("cancelled", message)
        if job in self.line:
            self.line.remove(job)
            self.dispatch()
        for w in self.workers.busy():
            if w.job is job:
                w.stop("cancelled")

    def fail_all(self, message: str) -> None:
        """Fail every open job (as ``shutdown``) and stop the running solves."""
        self.line.fail_all("shutdown", message)
        for w in self.workers.busy():
            w.job.fail("shutdown", message)  # type: ignore[union-attr]
            w.stop("cancelled")
