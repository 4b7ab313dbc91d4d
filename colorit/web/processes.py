"""The pool's solver processes, seen from the server: starting them, hearing from them,
replacing one that dies, ending one that overruns, and ending them all.

Each worker is a ``spawn``ed interpreter (never a fork of the threaded server) running
``worker.worker_main``, with one duplex pipe: ``("solve", id, task)``, ``("cancel", id,
why)`` and ``None`` (end) go down; what comes up is read by one thread per worker and
passed to the worker's job. A watchdog asks a solve that overran its time limit to stop
and, if it still does not answer, kills its worker; a worker that dies is replaced
(unless it died loading its kernels: another would too) and its job fails.

The pool's lock guards every field here; the pool decides which job runs where.
"""

from __future__ import annotations

import logging
import math
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from multiprocessing.connection import Connection
from typing import Any

from .jobs import SolveJob
from .worker import worker_main

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


class WorkerProcess:
    """One solver process and what the server knows of it: whether it is ready, the job
    it runs and that job's deadline, whether it was asked to stop or killed."""

    def __init__(self, index: int, process: Any, conn: Connection) -> None:
        self.index = index
        self.process = process
        self.conn = conn
        self.ready = False
        self.job: SolveJob | None = None
        self.deadline = 0.0
        self.stop_sent = False
        self.killed = False
        self.reader: threading.Thread | None = None
        self._send_lock = threading.Lock()
        # one thread at a time waits for, or signals, the process: two waiting at once
        # race to reap it, and the loser thinks it alive (then signals a reaped pid)
        self._process_lock = threading.Lock()

    def listen(self, on_message: Callable[[WorkerProcess, Any], None], on_end: Callable[[WorkerProcess], None]) -> None:
        """Start the reader thread: each message to ``on_message``, then ``on_end``
        once the pipe closes."""

        def read() -> None:
            while True:
                try:
                    message = self.conn.recv()
                except (EOFError, OSError):
                    break
                except Exception:  # a message that cannot be unpickled: the worker is broken
                    log.exception("unreadable message from solver worker %s", self.process.pid)
                    self.signal("kill")
                    break
                on_message(self, message)
            on_end(self)

        self.reader = threading.Thread(target=read, name=f"colorit-pool-reader-{self.index}", daemon=True)
        self.reader.start()

    def run(self, job: SolveJob) -> None:
        """Give the worker ``job``; its time limit counts from now. If the worker has
        just died, its reader fails the job."""
        self.job, self.deadline, self.stop_sent = job, time.monotonic() + job.task.time_limit, False
        self.send(("solve", job.id, job.task))

    def hand_on(self, message: tuple[Any, ...]) -> bool:
        """Pass an event of the worker's to its job; True once the job has ended (the
        worker is free). Events of a job already given up are dropped."""
        kind, job = message[0], self.job
        if job is None or job.id != message[1]:
            return False
        if kind in ("started", "progress"):
            job.deliver(kind, message[2])
            return False
        self.job = None
        if kind == "result":
            job.deliver("result", message[2])
        else:
            job.fail(message[2], message[3])
        return True

    def stop(self, why: str) -> None:
        """Ask the running solve to stop (once): ``why`` is its ``stopped`` reason."""
        if self.job is not None and not self.stop_sent:
            self.stop_sent = self.send(("cancel", self.job.id, why))

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
            with self._send_lock:
                self.conn.send(message)
            return True
        except (OSError, ValueError, EOFError):
            return False


class WorkerSet:
    """``size`` solver processes, kept at that number while they work.

    ``on_free()`` is called (the lock held) when a worker becomes free for a job: it is
    ready, or its job ended; ``on_none_left()`` when no worker is left to solve."""

    def __init__(
        self,
        size: int,
        *,
        lock: threading.RLock,
        worker_args: tuple[Any, ...],
        context: str,
        on_free: Callable[[], None],
        on_none_left: Callable[[], None],
    ) -> None:
        self.size = size
        self.workers: list[WorkerProcess] = []
        self.closing = False
        #: workers that died loading their kernels since one was last ready
        self.failed_starts = 0
        self.lock = lock
        self.changed = threading.Condition(lock)
        self._ctx: Any = multiprocessing.get_context(context)
        self._worker_args = worker_args
        self._on_free, self._on_none_left = on_free, on_none_left
        self._retired: list[WorkerProcess] = []
        self._watchdog = threading.Thread(target=_watch, args=(self,), name="colorit-pool-watchdog", daemon=True)

    def start(self) -> None:
        """Start every process and the watchdog (the lock held)."""
        self.workers = [self._spawn(i) for i in range(self.size)]
        self._watchdog.start()

    def _spawn(self, index: int) -> WorkerProcess:
        parent_end, child_end = self._ctx.Pipe(duplex=True)
        process = self._ctx.Process(
            target=worker_main, args=(child_end, *self._worker_args), name=f"colorit-solver-{index}", daemon=True
        )
        process.start()
        child_end.close()  # so the parent sees EOF when the worker exits
        worker = WorkerProcess(index, process, parent_end)
        worker.listen(self._heard, self._ended)
        return worker

    def idle(self) -> Iterator[WorkerProcess]:
        """The workers ready for a job (the lock held)."""
        return (w for w in self.workers if w.ready and w.job is None and not w.killed)

    def busy(self) -> Iterator[WorkerProcess]:
        """The workers running a job (the lock held)."""
        return (w for w in self.workers if w.job is not None)

    def first_free_in(self) -> int:
        """Seconds until the first running solve reaches its time limit (at least 1)."""
        now = time.monotonic()
        return max(1, math.ceil(min((w.deadline - now for w in self.busy()), default=1)))

    def _heard(self, w: WorkerProcess, message: tuple[Any, ...]) -> None:
        with self.lock:
            if message[0] == "ready":
                w.ready, self.failed_starts = True, 0
                self.changed.notify_all()
            elif not w.hand_on(message):
                return
            self._on_free()

    def _ended(self, w: WorkerProcess) -> None:
        """A worker's pipe closed: its job fails and, unless the set is closing, the
        process is replaced (or its slot given up if it died loading its kernels)."""
        w.wait(2.0)
        with self.lock:
            if w.job is not None:
                why = "did not stop at its time limit and was ended" if w.killed else "process stopped unexpectedly"
                w.job.fail("crashed", f"the solver {why}")
                w.job = None
            if self.closing or w not in self.workers:
                return
            log.warning("solver worker %s ended (exit code %s)", w.process.pid, w.process.exitcode)
            self._retired.append(w)
            if w.ready:
                try:
                    self.workers[self.workers.index(w)] = self._spawn(w.index)
                except OSError:
                    log.exception("cannot start a new solver worker")
                    self.workers.remove(w)
            else:
                self.failed_starts += 1
                self.workers.remove(w)
            self.changed.notify_all()
            if not self.workers:
                self._on_none_left()

    def end(self, timeout: float) -> None:
        """Ask every process to end and wait for them (``closing`` already set); kill
        those still running after ``timeout`` s."""
        with self.lock:
            workers = self.workers + self._retired
            self.changed.notify_all()
        _end_all(workers, timeout)
        if self._watchdog.is_alive():
            self._watchdog.join(1.0)


def _watch(workers: WorkerSet) -> None:
    """The watchdog: ask solves overdue by ``STOP_GRACE`` to stop; kill workers overdue
    by ``KILL_GRACE`` (they are replaced once their pipe closes)."""
    while True:
        time.sleep(WATCH_EVERY)
        doomed = []
        with workers.lock:
            if workers.closing:
                return
            now = time.monotonic()
            for w in workers.busy():
                late = now - w.deadline
                if w.killed or late <= STOP_GRACE:
                    continue
                if late > KILL_GRACE:
                    log.error("solve %s ran %.1f s past its time limit; ending its worker", w.job.id, late)  # type: ignore[union-attr]
                    w.killed = True
                    doomed.append(w)
                else:
                    w.stop("time")
        for w in doomed:  # not under the lock: the event loop needs it
            w.signal("kill")


def _end_all(workers: list[WorkerProcess], timeout: float) -> None:
    """Ask each process to end, wait up to ``timeout`` s in all, kill those still
    running, and close the pipes."""
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
