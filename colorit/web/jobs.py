"""A solve as the web server's pool sees it: the task a worker gets, the job the event
loop reads, the bounded line where jobs wait, and the ways a job can fail.

The pool (``pool.py``) and the worker process (``worker.py``) both use these; nothing
here imports numpy, a solver or the web framework, so a worker unpickling a task stays
light until it has set up its signals.
"""

from __future__ import annotations

import asyncio
import collections
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..game.board import Board

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
    """What a worker needs for one solve (pickled down the pipe). ``board`` is the board
    the server built and checked, with its colour codes: the worker uses it as it is."""

    board: Board
    algo: str
    time_limit: float

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as the board's checked parts, so the worker's copy is the same board,
        read-only like the server's, with nothing worked out again."""
        b = self.board
        return (_task_from_parts, (b.cells, b.start, b.palette, b.codes, self.algo, self.time_limit))


def _task_from_parts(
    cells: Any, start: tuple[int, int], palette: Any, codes: Any, algo: str, time_limit: float
) -> SolveTask:
    from ..game.board import Board

    return SolveTask(Board._from_parts(cells, start, palette, codes), algo, time_limit)


class SolveJob:
    """One submitted solve, seen from the event loop: read its events in order with
    ``next_event`` (or just ``await result()``); ``cancel()`` when the client goes away.

    Events are ``(kind, data)``: ``queued`` {position}, ``started`` {algo, regions,
    lower_bound (of the start position)},
    ``progress`` {moves, lower_bound, gap, proven, elapsed_s}, then exactly one of
    ``result`` (the answer dict) or ``failed`` (a ``SolveFailed``)."""

    def __init__(
        self,
        job_id: int,
        task: SolveTask,
        loop: asyncio.AbstractEventLoop,
        on_cancel: Callable[[SolveJob, str], None],
    ) -> None:
        self.id = job_id
        self.task = task
        self._loop = loop
        self._on_cancel = on_cancel
        self._events: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()
        self.finished = False  #: a final event was delivered (guarded by the pool's lock)
        self.position = 0

    def deliver(self, kind: str, data: Any) -> None:
        """Queue an event for the loop; safe from any thread (the pool's lock held).
        Nothing follows a final event."""
        if self.finished:
            return
        if kind in ("result", "failed"):
            self.finished = True
        try:
            self._loop.call_soon_threadsafe(self._events.put_nowait, (kind, data))
        except RuntimeError:  # the loop is closed: nobody is listening any more
            pass

    def fail(self, kind: str, message: str) -> None:
        self.deliver("failed", SolveFailed(kind, message))

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
        self._on_cancel(self, message)


class WaitingLine:
    """The jobs waiting for a worker, first come first served, at most ``size`` of them;
    each is told its place whenever it changes (its ``queued`` event)."""

    def __init__(self, size: int) -> None:
        self.size = max(0, size)
        self._jobs: collections.deque[SolveJob] = collections.deque()

    def __len__(self) -> int:
        return len(self._jobs)

    def __iter__(self) -> Iterator[SolveJob]:
        return iter(self._jobs)

    def __contains__(self, job: object) -> bool:
        return job in self._jobs

    @property
    def full(self) -> bool:
        return len(self._jobs) >= self.size

    def append(self, job: SolveJob) -> None:
        self._jobs.append(job)

    def remove(self, job: SolveJob) -> None:
        self._jobs.remove(job)

    def pop(self) -> SolveJob:
        """The job first in line, taken out of it."""
        return self._jobs.popleft()

    def tell_places(self) -> None:
        """Send each job whose place changed its new one (1: next to run)."""
        for place, job in enumerate(self._jobs, start=1):
            if job.position != place:
                job.position = place
                job.deliver("queued", {"position": place})

    def fail_all(self, kind: str, message: str) -> None:
        """Empty the line, failing every job in it."""
        while self._jobs:
            self._jobs.popleft().fail(kind, message)
