"""A solve's job and the waiting line, without processes: events in order and nothing
after the last one, the places in the line told only when they change."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from colorit import Board
from colorit.web.jobs import SolveFailed, SolveJob, SolveTask, WaitingLine

TASK = SolveTask(Board.from_rows([[0, 1]]), "auto", 1.0)


def jobs(n: int, loop: asyncio.AbstractEventLoop, cancelled: list[tuple[int, str]] | None = None) -> list[SolveJob]:
    def on_cancel(job: SolveJob, message: str) -> None:
        if cancelled is not None:
            cancelled.append((job.id, message))

    return [SolveJob(i, TASK, loop, on_cancel) for i in range(1, n + 1)]


async def drained(job: SolveJob) -> list[tuple[str, Any]]:
    """The events queued for ``job`` so far."""
    await asyncio.sleep(0)  # the events are handed over with call_soon_threadsafe
    events = []
    while True:
        try:
            events.append(await job.next_event(timeout=0.01))
        except TimeoutError:
            return events


def test_a_job_s_events_end_with_its_first_final_one() -> None:
    async def run() -> None:
        (job,) = jobs(1, asyncio.get_running_loop())
        job.deliver("started", {"regions": 3})
        job.deliver("progress", {"moves": 2})
        job.deliver("result", {"moves": [1]})
        job.fail("crashed", "too late")  # a worker dying after the answer changes nothing
        job.deliver("progress", {"moves": 1})
        assert job.finished
        assert await drained(job) == [("started", {"regions": 3}), ("progress", {"moves": 2}), ("result", {"moves": [1]})]

    asyncio.run(run())


def test_result_raises_the_failure() -> None:
    async def run() -> None:
        (job,) = jobs(1, asyncio.get_running_loop())
        job.deliver("started", {})
        job.fail("memory", "the solver ran out of memory")
        with pytest.raises(SolveFailed) as failed:
            await job.result()
        assert failed.value.kind == "memory" and str(failed.value) == "the solver ran out of memory"

    asyncio.run(run())


def test_cancel_asks_the_pool() -> None:
    async def run() -> list[tuple[int, str]]:
        cancelled: list[tuple[int, str]] = []
        a, b = jobs(2, asyncio.get_running_loop(), cancelled)
        b.cancel("the client went away")
        a.cancel()
        return cancelled

    assert asyncio.run(run()) == [(2, "the client went away"), (1, "the solve was cancelled")]


def test_the_line_tells_each_job_its_place_when_it_changes() -> None:
    async def run() -> None:
        line = WaitingLine(3)
        a, b, c = jobs(3, asyncio.get_running_loop())
        for job in (a, b, c):
            line.append(job)
        assert line.full and len(line) == 3 and b in line
        line.tell_places()
        line.tell_places()  # nothing changed: nothing told
        assert [await drained(j) for j in (a, b, c)] == [[("queued", {"position": p})] for p in (1, 2, 3)]
        assert line.pop() is a
        line.remove(c)
        line.tell_places()
        assert await drained(b) == [("queued", {"position": 1})]
        assert not line.full and list(line) == [b]

    asyncio.run(run())


def test_failing_the_line_empties_it() -> None:
    async def run() -> None:
        line = WaitingLine(0)
        assert line.full  # no waiting at all: a solve runs at once or is refused
        a, b = jobs(2, asyncio.get_running_loop())
        line.append(a)
        line.append(b)
        line.fail_all("shutdown", "the server is shutting down")
        assert len(line) == 0
        for job in (a, b):
            ((kind, failure),) = await drained(job)
            assert kind == "failed" and failure.kind == "shutdown"

    asyncio.run(run())
