"""The client side of a bench on a Dask cluster (``colorit bench --scheduler``).

``DaskRunner`` is a ``colorit.batch.solving.Runner``: the boards go to the workers in
chunks and the answers come back through ``on_results``, which ``solve_boards`` puts in
input order, so the answers file and the summary are those of a local run. It is made of
a ``DaskConnection`` (``colorit.batch.dask_connection``: the client, the workers'
check) and a ``ChunkFeeder`` (one run's chunks in flight, their answers and failures).
What runs on the workers is in ``colorit.batch.dask_worker``. The kernels are loaded once
per worker process, before its first board's clock starts (``DaskRunner.warm`` on every
worker before the run, and in the first chunk of a worker that joins later, with the A*
widths the warm-up worked out).

Chunks. A task costs the scheduler about a millisecond and a chunk is also the unit a
dying worker makes the cluster redo, so a chunk should hold about ``TARGET_CHUNK_S``
seconds of work: its size comes from the measured time per board (one board per chunk
until the first answers say how long a board takes), capped so that what is left still
makes ``CHUNKS_PER_THREAD_LEFT`` chunks per thread (no idle threads at the end) and by
``MAX_CHUNK``. At most ``IN_FLIGHT_PER_THREAD`` chunks per thread are submitted at a
time, and more as they finish, so even 100,000 one-board chunks would never sit in the
scheduler at once.

Failures. A worker that dies mid-chunk (killed, out of memory) has its chunk run again
elsewhere by the scheduler (up to its ``allowed-failures``, 3 by default; then the
chunk's boards are reported as failed, the rest of the run goes on); a chunk whose task
raises is retried ``CHUNK_RETRIES`` times. A scheduler lost mid-run ends the run (exit 1) with
every finished answer kept in the journal. A stop request (Ctrl-C) stops the running
searches on the workers (they return their best answers), drops the queued chunks and
cancels whatever has not come back within ``STOP_GRACE_S``.

Dask is an optional extra (``colorit[cluster]``): this module imports it only inside
functions, and only ``--scheduler`` imports this module.
"""

from __future__ import annotations

import contextlib
import math
import os
import queue
import time
import uuid
from collections import deque
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Self

from ..errors import ColoritError
from . import dask_worker
from .dask_connection import DaskConnection

if TYPE_CHECKING:
    from ..game.board import Board
    from ..solvers import Limits
    from .solving import BoardResult, OnResults, Seed, StopFlag

#: Seconds without any worker, mid-run, before the run is given up.
NO_WORKERS_S = 60.0
#: Work per chunk, in seconds of solving.
TARGET_CHUNK_S = 2.0
MAX_CHUNK = 1000
CHUNKS_PER_THREAD_LEFT = 4
IN_FLIGHT_PER_THREAD = 2
#: Times a chunk whose task raised is run again (a worker's death is the scheduler's
#: ``allowed-failures``).
CHUNK_RETRIES = 2
#: Seconds a stop request waits for the chunks running on the workers to come back.
STOP_GRACE_S = 10.0
POLL_S = 0.2


class ClusterLost(ColoritError):
    """The scheduler or every worker went away mid-run."""

    exit_code = 1


class ChunkPlanner:
    """The size of the next chunk (see the module's docstring)."""

    def __init__(self) -> None:
        self.boards = 0
        self.seconds = 0.0

    def observe(self, chunk: Sequence[BoardResult | None]) -> None:
        for r in chunk:
            if r is not None:
                self.boards += 1
                self.seconds += r.elapsed

    def per_board_s(self) -> float | None:
        return None if self.boards == 0 else max(self.seconds / self.boards, 1e-5)

    def next_size(self, left: int, threads: int) -> int:
        balance = max(1, math.ceil(left / (max(1, threads) * CHUNKS_PER_THREAD_LEFT)))
        per = self.per_board_s()
        wanted = 1 if per is None else max(1, round(TARGET_CHUNK_S / per))
        return max(1, min(wanted, balance, MAX_CHUNK, left))




def chunk_answers(fut: Any, count: int, stop: StopFlag, address: str) -> list[BoardResult | None] | None:
    """A finished chunk's answers; a chunk that failed for good gives failed boards (None:
    cancelled by a stop)."""
    from .solving import BoardResult

    status = fut.status
    if status == "finished":
        try:
            _, chunk = fut.result()
            return list(chunk)
        except Exception as e:  # noqa: BLE001 (its data went with a worker, say)
            exc: BaseException = e
    elif status == "cancelled":
        if stop.requested:
            return None
        raise ClusterLost(f"lost the Dask scheduler at {address} (its connection closed)")
    else:
        exc = fut.exception()
    if type(exc).__name__ == "KilledWorker":
        why = "workers kept dying on this chunk (out of memory? try a smaller --max-memory)"
    else:
        why = " ".join(f"{type(exc).__name__}: {exc}".split())
    return [BoardResult((), False, 0, 0.0, 0, "", why) for _ in range(count)]


def _failed(chunk: list[BoardResult | None]) -> bool:
    """Whether every board of a chunk came back failed (the chunk itself failed)."""
    return bool(chunk) and all(r is not None and r.error and not r.moves for r in chunk)


class ChunkFeeder:
    """One run on a cluster: chunks submitted as earlier ones finish (at most
    ``IN_FLIGHT_PER_THREAD`` per thread), their answers handed on, failures turned into
    failed boards, a stop sent to the workers."""

    def __init__(self, conn: DaskConnection, boards: Sequence[Board], todo: Sequence[int], algo: str, limits: Limits,
                 seeds: Mapping[int, Seed] | None, widths: Sequence[int] = ()) -> None:
        from .solving import runs_of

        self.conn = conn
        self.boards = boards
        self.algo = algo
        self.widths = list(widths)  #: the A* widths a worker that joins mid-run loads
        self.limits = limits
        self.seeds = seeds or {}
        self.run_id = uuid.uuid4().hex[:12]
        self.runs = deque(runs_of(todo))
        self.left = len(todo)
        self.planner = ChunkPlanner()
        self.finished: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self.pending: dict[str, tuple[Any, int, int]] = {}  # key -> (future, first, count)
        self.chunks_done = 0
        self.chunks_failed = 0

    def submit_more(self, threads: int) -> None:
        """Submit chunks until ``IN_FLIGHT_PER_THREAD`` per thread are in flight."""
        while self.runs and len(self.pending) < max(2, IN_FLIGHT_PER_THREAD * threads):
            a, b = self.runs[0]
            size = min(self.planner.next_size(self.left, threads), b - a)
            key = f"colorit-chunk-{self.run_id}-{a}"
            fut = self.conn.client.submit(
                dask_worker.solve_chunk, self.run_id, a, list(self.boards[a : a + size]), self.algo, self.limits,
                [self.seeds.get(i) for i in range(a, a + size)], self.widths, key=key, retries=CHUNK_RETRIES, pure=False,
            )
            self.pending[key] = (fut, a, size)
            fut.add_done_callback(self.finished.put)
            self.left -= size
            if a + size < b:
                self.runs[0] = (a + size, b)
            else:
                self.runs.popleft()

    def feed(self, on_results: OnResults, stop: StopFlag) -> None:
        """Run until every chunk is back, or a stop has waited ``STOP_GRACE_S``."""
        stop_sent_at: float | None = None
        no_workers_since: float | None = None
        while True:
            now = time.monotonic()
            if stop.requested and stop_sent_at is None:
                stop_sent_at = now
                self.send_stop()
            if stop_sent_at is None:
                self.submit_more(sum(self.conn.worker_threads().values()))
            if not self.pending:
                return
            if stop_sent_at is not None and now - stop_sent_at > STOP_GRACE_S:
                return  # the rest is cancelled by ``cancel_pending``
            try:
                fut = self.finished.get(timeout=POLL_S)
            except queue.Empty:
                no_workers_since = self.check_alive(no_workers_since, now)
                continue
            entry = self.pending.pop(fut.key, None)
            if entry is None:
                continue
            _, first, count = entry
            chunk = chunk_answers(fut, count, stop, self.conn.address)
            if chunk is None:
                continue
            self.chunks_failed += fut.status != "finished" or _failed(chunk)
            self.chunks_done += 1
            self.planner.observe(chunk)
            on_results(first, chunk)

    def send_stop(self) -> None:
        """Stop the run's searches on every worker; the queued chunks then come back at
        once, with no answers."""
        with contextlib.suppress(Exception):  # a worker gone meanwhile: nothing to stop there
            self.conn.client.run(dask_worker.stop_run, self.run_id, on_error="ignore")

    def cancel_pending(self) -> None:
        if self.pending:
            with contextlib.suppress(Exception):  # a lost scheduler: nothing to cancel
                self.conn.client.cancel([f for f, _, _ in self.pending.values()], force=True)

    def check_alive(self, no_workers_since: float | None, now: float) -> float | None:
        """Raise ``ClusterLost`` when the scheduler is gone or no worker has been seen for
        ``NO_WORKERS_S``; return since when there have been none."""
        if self.conn.client.status in ("closed", "closing", "failed"):
            raise ClusterLost(f"lost the Dask scheduler at {self.conn.address}")
        if self.conn.worker_threads():
            return None
        if no_workers_since is None:
            return now
        if now - no_workers_since > NO_WORKERS_S:
            raise ClusterLost(f"the Dask cluster at {self.conn.address} has had no workers for {NO_WORKERS_S:g} s")
        return no_workers_since


class DaskRunner:
    """Boards solved in chunks by a Dask cluster's workers (a ``Runner``)."""

    def __init__(self, client: Any, spec: str, cluster: Any = None) -> None:
        self.conn = DaskConnection(client, spec, cluster)
        self.chunks_done = 0
        self.chunks_failed = 0
        self.widths: dict[str, list[int]] = {}  #: each warmed algorithm's A* widths

    @classmethod
    def start(cls, spec: str, **options: Any) -> DaskRunner:
        """Connect (see ``DaskConnection.open``, which takes the same options)."""
        conn = DaskConnection.open(spec, **options)
        return cls(conn.client, conn.spec, conn.cluster)

    @property
    def client(self) -> Any:
        return self.conn.client

    @property
    def cluster(self) -> Any:
        return self.conn.cluster

    @property
    def address(self) -> str:
        return self.conn.address

    @property
    def closed(self) -> bool:
        return self.conn.closed

    def worker_threads(self) -> dict[str, int]:
        return self.conn.worker_threads()

    @property
    def threads(self) -> int:
        return sum(self.worker_threads().values())

    @property
    def dashboard(self) -> str | None:
        return self.conn.dashboard

    def describe(self) -> str:
        return self.conn.describe()

    def worker_pids(self) -> dict[str, int]:
        """Each worker's process id (for tests and a look with ``ps``)."""
        return dict(self.client.run(os.getpid))

    def warm(self, algo: str, boards: Sequence[Board]) -> None:
        """Load the kernels ``algo`` needs on ``boards`` (its own, and A*'s at the widths
        ``runtime.warmup.widths_for`` gives) on every worker now, before any board is
        sent; a worker that joins later loads them with its first chunk, before its
        boards' clocks."""
        from ..runtime.warmup import widths_for

        self.widths[algo] = sorted(widths_for(algo, boards))
        self.client.run(dask_worker.warm_worker, algo, self.widths[algo])

    def peak_rss_mb(self) -> float:
        """The largest resident set of any worker process so far, in MB (0 if unknown)."""
        try:
            peaks = self.client.run(dask_worker.worker_peak_rss_mb, on_error="ignore")
        except Exception:  # noqa: BLE001 (a report, not worth failing a run for)
            return 0.0
        return max((float(v) for v in peaks.values()), default=0.0)

    def run(self, boards: Sequence[Board], todo: Sequence[int], algo: str, limits: Limits, on_results: OnResults,
            stop: StopFlag, seeds: Mapping[int, Seed] | None = None) -> None:
        if not todo or stop.requested:
            return
        if algo not in self.widths:
            self.warm(algo, [boards[i] for i in todo])
        feeder = ChunkFeeder(self.conn, boards, todo, algo, limits, seeds, self.widths[algo])
        try:
            feeder.feed(on_results, stop)
        finally:
            feeder.cancel_pending()
            self.chunks_done += feeder.chunks_done
            self.chunks_failed += feeder.chunks_failed

    def close(self) -> None:
        """Close the connection (and the LocalCluster this runner started); again: nothing."""
        self.conn.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


__all__ = ["ChunkFeeder", "ChunkPlanner", "ClusterLost", "DaskRunner", "chunk_answers"]
