"""Solving a bench on a Dask cluster: ``colorit bench --scheduler tcp://HOST:PORT`` (a
running ``dask scheduler`` and its ``dask worker`` processes) or ``--scheduler local:N``
(a LocalCluster of N worker processes on 127.0.0.1, for its dashboard).

``DaskRunner`` is a ``colorit.bench.Runner``: the boards go to the workers in chunks and
the answers come back through ``on_results``, which ``bench.solve_boards`` puts in input
order, so the answers file and the summary are those of a local run. On the workers a
chunk is solved by the same ``bench.solve_one`` (``colorit.solve``, answers replayed)
with the same per-board time limit; the memory share is the run's (``--max-memory``
over the cluster's threads) but never more than half a worker's own memory limit per
thread. The kernels are loaded once per worker process, before its first board's clock
starts (``DaskRunner.warm`` on every worker before the run, ``_ensure_warm`` in the
first chunk of a worker that joins later), and the worker's allocator is set back to
glibc's defaults where Dask's nanny changed them (``_tune_malloc``: boards took 20-25%
longer on a worker without it).

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
raises is retried ``CHUNK_RETRIES`` times. A scheduler that does not answer within
``CONNECT_TIMEOUT_S`` is a one-line error; one lost mid-run ends the run (exit 1) with
every finished answer kept in the journal. A stop request (Ctrl-C) stops the running
searches on the workers (they return their best answers), drops the queued chunks and
cancels whatever has not come back within ``STOP_GRACE_S``.

Dask is an optional extra (``colorit[cluster]``): this module imports it only inside
functions, and only ``--scheduler`` imports this module.
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import queue
import signal
import sys
import threading
import time
import uuid
from collections import deque
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Self

from .errors import ColoritError

if TYPE_CHECKING:
    from .bench import BoardResult, OnResults, StopFlag
    from .board import Board
    from .solvers import Control, Limits

INSTALL_HINT = "--scheduler needs Dask: pip install 'colorit[cluster]' (or bin/colorit, which installs it)"
#: Seconds to reach the scheduler before giving up (Dask would keep trying for 30 s).
CONNECT_TIMEOUT_S = 5.0
#: Seconds to wait for a first worker on a scheduler that has none.
WORKERS_WAIT_S = 15.0
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
#: A worker thread's share of its worker's memory limit for search tables (Dask's
#: nanny restarts a worker at 95%).
WORKER_MEMORY_SHARE = 0.5
POLL_S = 0.2
#: glibc's mallopt parameter, and its dynamic ceiling (see ``_tune_malloc``).
M_MMAP_THRESHOLD = -3
MMAP_THRESHOLD_BYTES = 32 << 20
#: The network protocols of Dask's scheduler addresses.
SCHEMES = ("tcp", "tls", "ws", "wss", "ucx")


class DaskMissing(ColoritError):
    """``--scheduler`` without Dask installed."""


class SchedulerUnreachable(ColoritError):
    """No scheduler at the address, or one without workers (nothing was done)."""


class ClusterLost(ColoritError):
    """The scheduler or every worker went away mid-run."""

    exit_code = 1


def require_dask() -> None:
    """Fail with how to install Dask unless ``dask.distributed`` can be imported."""
    try:
        import dask  # noqa: F401
        import distributed  # noqa: F401
    except ImportError:
        raise DaskMissing(INSTALL_HINT) from None


def parse_scheduler(text: str) -> str:
    """A ``--scheduler`` value: ``local``, ``local:N`` (N worker processes here) or a
    scheduler address ``SCHEME://HOST:PORT`` (``tcp://10.0.0.5:8786``)."""
    spec = text.strip()
    if spec == "local":
        return f"local:{os.cpu_count() or 1}"
    if spec.startswith("local:"):
        n = spec[len("local:") :]
        if not n.isdigit() or int(n) < 1:
            raise ColoritError(f"scheduler {text!r}: local:N needs a whole number of workers, at least 1")
        return f"local:{int(n)}"
    scheme, sep, rest = spec.partition("://")
    host, colon, port = rest.rpartition(":")
    if not sep or scheme not in SCHEMES or not colon or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ColoritError(f"scheduler {text!r} is not an address such as tcp://HOST:8786, nor local:N")
    return spec


# -- on the workers ------------------------------------------------------------------------

_warm_lock = threading.Lock()
_malloc_tuned: bool | None = None
_warmed_algos: set[str] = set()
_warmed_widths: set[int] = set()
_runs_lock = threading.Lock()
_stopped_runs: set[str] = set()
_running: dict[str, set[Control]] = {}


def dask_setup(worker: Any) -> None:
    """Dask preload hook of a ``local:N`` cluster's workers: Ctrl-C in the terminal
    reaches the whole process group, and it is colorit bench's to handle (it stops the
    run and keeps the answers); a worker killed by it would only be restarted."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def _tune_malloc() -> bool:
    """Undo, in this worker process, what Dask's nanny does to glibc's allocator.

    The nanny starts workers with ``MALLOC_TRIM_THRESHOLD_`` set (to give freed memory
    back to the system); setting it also pins glibc's mmap threshold at 128 KiB, so that
    every search's bigger arrays come fresh from the kernel, page by page: boards took
    20-25% longer (b14c8: 18.5 ms a board instead of 14.8). Raising the mmap threshold to
    glibc's own dynamic ceiling (32 MiB) gives that back; the trimming stays. Nothing is
    done where the variable is not set, or ``MALLOC_MMAP_THRESHOLD_`` is, or off glibc."""
    if not sys.platform.startswith("linux") or "MALLOC_TRIM_THRESHOLD_" not in os.environ or "MALLOC_MMAP_THRESHOLD_" in os.environ:
        return False
    try:
        import ctypes

        return bool(ctypes.CDLL(None).mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD_BYTES))
    except (OSError, AttributeError):  # not glibc
        return False


def _ensure_warm(algo: str, widths: Iterable[int] = ()) -> None:
    """Load the kernels of ``algo`` and A*'s ``widths`` this worker has not loaded yet
    (and tune its allocator, once)."""
    from .warmup import warm_astar, warm_for

    global _malloc_tuned
    with _warm_lock:
        if _malloc_tuned is None:
            _malloc_tuned = _tune_malloc()
        if algo not in _warmed_algos:
            warm_for(algo)
            _warmed_algos.add(algo)
        need = set(widths) - _warmed_widths  # none unless algo runs A* (warmup.widths_for)
        if need:
            warm_astar(need)
            _warmed_widths.update(need)


async def _warm_worker(algo: str, widths: list[int]) -> None:
    """``_ensure_warm`` from ``Client.run``, off the worker's event loop (so that it
    keeps answering the scheduler while it loads or compiles)."""
    import asyncio

    await asyncio.get_running_loop().run_in_executor(None, _ensure_warm, algo, widths)


def _worker_limits(limits: Limits) -> Limits:
    """The run's limits with the memory share this worker can give each thread."""
    from .limits import MIN_MEMORY, machine_memory
    from .solvers import Limits

    budget, threads = machine_memory(), 1
    with contextlib.suppress(Exception):  # not in a worker (a direct call): the machine's
        from distributed import get_worker

        worker = get_worker()
        budget = worker.memory_manager.memory_limit or budget
        threads = max(1, int(worker.state.nthreads))
    share = min(machine_memory(), max(MIN_MEMORY, int(WORKER_MEMORY_SHARE * budget / threads)))
    memory = share if limits.memory is None else min(limits.memory, share)
    return Limits(time=limits.time, memory=memory)


def _solve_chunk(run_id: str, first: int, boards: list[Board], algo: str, limits: Limits) -> tuple[int, list[BoardResult | None]]:
    """A chunk on a worker: ``bench.solve_one`` for each board (None once the run is
    stopped)."""
    from . import bench
    from .solvers import Control

    _ensure_warm(algo, bench.widths_for(algo, boards))
    mine = _worker_limits(limits)
    out: list[BoardResult | None] = []
    for board in boards:
        if run_id in _stopped_runs:
            out.append(None)
            continue
        control = Control(mine)
        with _runs_lock:
            _running.setdefault(run_id, set()).add(control)
            if run_id in _stopped_runs:  # a stop that came in between
                control.request_stop("signal")
        try:
            out.append(bench.solve_one(board, algo, mine, control))
        finally:
            with _runs_lock:
                _running.get(run_id, set()).discard(control)
    with _runs_lock:
        if not _running.get(run_id):
            _running.pop(run_id, None)
    return first, out


def _stop_run(run_id: str) -> int:
    """Run by ``Client.run`` on every worker: stop the run's searches and chunks."""
    with _runs_lock:
        _stopped_runs.add(run_id)
        controls = list(_running.get(run_id, ()))
    for control in controls:
        control.request_stop("signal")
    return len(controls)


def _peak_rss_mb() -> float:
    from .bench import peak_rss_mb

    return peak_rss_mb()


def _worker_version() -> str:
    from . import __version__

    return __version__


# -- on the client -------------------------------------------------------------------------


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


def _local_cluster(workers: int) -> Any:
    """A LocalCluster of ``workers`` one-thread processes, every port on 127.0.0.1."""
    import dask
    from distributed import LocalCluster

    try:
        # Dask's sampling profiler takes the GIL every 10 ms from the searches: boards
        # took 10% longer (the dashboard has all but its Profile page)
        with dask.config.set({"distributed.worker.profile.enabled": False}):
            return LocalCluster(
                n_workers=workers,
                threads_per_worker=1,
                processes=True,
                host="127.0.0.1",
                # loopback only, on a free port (without bokeh it serves no dashboard)
                dashboard_address="127.0.0.1:0",
                silence_logs=logging.ERROR,
                preload=["colorit.cluster"],  # dask_setup: Ctrl-C is the bench's
            )
    except Exception as e:  # noqa: BLE001 (one line, whatever Dask raised)
        cause = e.__cause__ or e
        why = " ".join(f"{type(cause).__name__}: {cause}".split())
        raise SchedulerUnreachable(f"could not start a local Dask cluster of {workers} workers ({why})") from None


def quiet_dask_logs() -> None:
    """Only Dask's critical log lines in this process."""
    logging.getLogger("distributed").setLevel(logging.CRITICAL)


def _has_bokeh() -> bool:
    import importlib.util

    return importlib.util.find_spec("bokeh") is not None


class DaskRunner:
    """Boards solved in chunks by a Dask cluster's workers."""

    def __init__(self, client: Any, spec: str, cluster: Any = None) -> None:
        self.client = client
        self.spec = spec
        self.cluster = cluster  #: the LocalCluster of ``local:N`` (closed with the runner)
        self.address: str = client.scheduler.address if cluster is None else cluster.scheduler_address
        self.chunks_done = 0
        self.chunks_failed = 0
        self.closed = False

    @classmethod
    def start(
        cls, spec: str, *, connect_timeout: float = CONNECT_TIMEOUT_S, workers_wait: float = WORKERS_WAIT_S, quiet_logs: bool = True
    ) -> DaskRunner:
        """Connect to the scheduler at ``spec`` (a ``parse_scheduler`` value), or start
        a LocalCluster for ``local:N``; check that the workers can run colorit.
        ``quiet_logs``: leave out Dask's own log lines (the traceback of a lost
        connection, a worker restarted); what a user needs comes as colorit's errors."""
        require_dask()
        from distributed import Client

        if quiet_logs:
            quiet_dask_logs()
        spec = parse_scheduler(spec)
        cluster = None
        if spec.startswith("local:"):
            cluster = _local_cluster(int(spec.split(":", 1)[1]))
            try:
                client = Client(cluster, set_as_default=False)
            except BaseException:
                cluster.close()
                raise
        else:
            try:
                client = Client(spec, timeout=connect_timeout, set_as_default=False)
            except Exception as e:  # noqa: BLE001 (whatever the connection did, one line)
                why = " ".join(str(e).split()) or type(e).__name__
                if "Timed out" in why:
                    why = f"no answer within {connect_timeout:g} s"
                elif isinstance(e, MemoryError):  # a frame length read from whatever answered
                    why = "what answers there does not speak Dask's protocol"
                raise SchedulerUnreachable(
                    f"cannot reach the Dask scheduler at {spec} ({why}); is 'dask scheduler' running there?"
                ) from None
        runner = cls(client, spec, cluster)
        try:
            runner._check_workers(workers_wait)
        except BaseException:
            runner.close()
            raise
        return runner

    def _check_workers(self, wait_s: float) -> None:
        from . import __version__

        try:
            self.client.wait_for_workers(1, timeout=wait_s)
        except TimeoutError:
            raise SchedulerUnreachable(
                f"the Dask scheduler at {self.spec} has no workers (waited {wait_s:g} s); start some with 'dask worker {self.address}'"
            ) from None
        versions = self.client.run(_worker_version, on_error="return")
        for address, version in versions.items():
            if isinstance(version, BaseException):
                why = " ".join(f"{type(version).__name__}: {version}".split())
                raise SchedulerUnreachable(f"the Dask worker {address} cannot run colorit ({why}); install colorit on every worker")
            if version != __version__:
                raise SchedulerUnreachable(
                    f"the Dask worker {address} runs colorit {version}, this is {__version__}; install the same version everywhere"
                )

    # -- about the cluster

    def worker_threads(self) -> dict[str, int]:
        """Each worker's thread count, as the client last heard from the scheduler."""
        info = self.client.scheduler_info()
        return {addr: int(w.get("nthreads", 1)) for addr, w in info.get("workers", {}).items()}

    @property
    def threads(self) -> int:
        return sum(self.worker_threads().values())

    @property
    def dashboard(self) -> str | None:
        if self.cluster is not None and not _has_bokeh():
            return None
        with contextlib.suppress(Exception):
            return str(self.client.dashboard_link)
        return None

    def describe(self) -> str:
        threads = self.worker_threads()
        what = "Dask LocalCluster on 127.0.0.1" if self.cluster is not None else f"Dask scheduler {self.address}"
        board = self.dashboard
        if board is None and self.cluster is not None:
            dash = "dashboard off (it needs bokeh: pip install bokeh)"
        else:
            dash = f"dashboard {board}" if board else "no dashboard"
        n = len(threads)
        return f"{what}: {n} worker{'s' if n != 1 else ''}, {sum(threads.values())} threads, {dash}"

    def worker_pids(self) -> dict[str, int]:
        """Each worker's process id (for tests and a look with ``ps``)."""
        return dict(self.client.run(os.getpid))

    def warm(self, algo: str, widths: Iterable[int] = ()) -> None:
        """Load the kernels ``algo`` needs (and A*'s ``widths``, see
        ``bench.astar_widths``) on every worker now, before any board is sent; a worker
        that joins later loads them with its first chunk, before its boards' clocks."""
        self.client.run(_warm_worker, algo, sorted(widths))

    def peak_rss_mb(self) -> float:
        """The largest resident set of any worker process so far, in MB (0 if unknown)."""
        try:
            peaks = self.client.run(_peak_rss_mb, on_error="ignore")
        except Exception:  # noqa: BLE001 (a report, not worth failing a run for)
            return 0.0
        return max((float(v) for v in peaks.values()), default=0.0)

    # -- the run

    def run(
        self,
        boards: Sequence[Board],
        todo: Sequence[int],
        algo: str,
        limits: Limits,
        on_results: OnResults,
        stop: StopFlag,
    ) -> None:
        from .bench import runs_of

        if not todo or stop.requested:
            return
        run_id = uuid.uuid4().hex[:12]
        runs = deque(runs_of(todo))
        left = len(todo)
        planner = ChunkPlanner()
        finished: queue.SimpleQueue[Any] = queue.SimpleQueue()
        pending: dict[str, tuple[Any, int, int]] = {}  # key -> (future, first, count)
        stop_sent_at: float | None = None
        no_workers_since: float | None = None
        try:
            while True:
                now = time.monotonic()
                if stop.requested and stop_sent_at is None:
                    stop_sent_at = now
                    self._send_stop(run_id)
                threads = self.threads
                while stop_sent_at is None and runs and len(pending) < max(2, IN_FLIGHT_PER_THREAD * threads):
                    a, b = runs[0]
                    size = min(planner.next_size(left, threads), b - a)
                    key = f"colorit-chunk-{run_id}-{a}"
                    fut = self.client.submit(
                        _solve_chunk,
                        run_id,
                        a,
                        list(boards[a : a + size]),
                        algo,
                        limits,
                        key=key,
                        retries=CHUNK_RETRIES,
                        pure=False,
                    )
                    pending[key] = (fut, a, size)
                    fut.add_done_callback(finished.put)
                    left -= size
                    if a + size < b:
                        runs[0] = (a + size, b)
                    else:
                        runs.popleft()
                if not pending:
                    break
                if stop_sent_at is not None and now - stop_sent_at > STOP_GRACE_S:
                    break  # the rest is cancelled below
                try:
                    fut = finished.get(timeout=POLL_S)
                except queue.Empty:
                    no_workers_since = self._check_alive(no_workers_since, now)
                    continue
                entry = pending.pop(fut.key, None)
                if entry is None:
                    continue
                _, first, count = entry
                chunk = self._collect(fut, first, count, stop)
                if chunk is not None:
                    planner.observe(chunk)
                    self.chunks_done += 1
                    on_results(first, chunk)
        finally:
            if pending:
                with contextlib.suppress(Exception):  # a lost scheduler: nothing to cancel
                    self.client.cancel([f for f, _, _ in pending.values()], force=True)

    def _send_stop(self, run_id: str) -> None:
        """Stop the run's searches on every worker; the queued chunks then come back at
        once, with no answers."""
        with contextlib.suppress(Exception):  # a worker gone meanwhile: nothing to stop there
            self.client.run(_stop_run, run_id, on_error="ignore")

    def _collect(self, fut: Any, first: int, count: int, stop: StopFlag) -> list[BoardResult | None] | None:
        """A finished chunk's answers; a chunk that failed for good gives failed boards."""
        from .bench import BoardResult

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
            raise ClusterLost(f"lost the Dask scheduler at {self.address} (its connection closed)")
        else:
            exc = fut.exception()
        self.chunks_failed += 1
        if type(exc).__name__ == "KilledWorker":
            why = "workers kept dying on this chunk (out of memory? try a smaller --max-memory)"
        else:
            why = " ".join(f"{type(exc).__name__}: {exc}".split())
        return [BoardResult((), False, 0, 0.0, 0, "", why) for _ in range(count)]

    def _check_alive(self, no_workers_since: float | None, now: float) -> float | None:
        """Raise ``ClusterLost`` when the scheduler is gone or no worker has been seen for
        ``NO_WORKERS_S``; return since when there have been none."""
        if self.client.status in ("closed", "closing", "failed"):
            raise ClusterLost(f"lost the Dask scheduler at {self.address}")
        if self.worker_threads():
            return None
        if no_workers_since is None:
            return now
        if now - no_workers_since > NO_WORKERS_S:
            raise ClusterLost(f"the Dask cluster at {self.address} has had no workers for {NO_WORKERS_S:g} s")
        return no_workers_since

    def close(self) -> None:
        """Close the connection (and the LocalCluster this runner started); again: nothing."""
        if self.closed:
            return
        self.closed = True
        with contextlib.suppress(Exception):
            self.client.close()
        if self.cluster is not None:
            with contextlib.suppress(Exception):
                self.cluster.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


__all__ = [
    "INSTALL_HINT",
    "ChunkPlanner",
    "ClusterLost",
    "DaskMissing",
    "DaskRunner",
    "SchedulerUnreachable",
    "parse_scheduler",
    "require_dask",
]
