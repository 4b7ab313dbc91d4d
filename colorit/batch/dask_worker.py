"""What runs on a Dask cluster's workers for ``colorit bench --scheduler``.

``colorit.batch.dask_client`` sends these functions to the workers: ``solve_chunk``
solves a chunk of boards with the same ``solve_one`` as a local run (answers replayed,
the per-board time limit kept), with the run's memory share but never more than each
thread's share (``machine.memory_share``) of half its worker's own memory limit
(``worker_limits``); ``ensure_warm`` loads the kernels (and the A* widths the client's
warm-up worked out) once per worker process, before its first board's clock starts,
and sets the worker's allocator back to glibc's defaults where Dask's nanny changed them
(``_tune_malloc``: boards took 20-25% longer on a worker without it); ``stop_run`` stops
a run's searches; ``worker_version`` is what the client checks against its own version.
``dask_setup`` is the preload of a ``local:N`` cluster's workers (its module path is
named in ``dask_connection``). Dask itself is not imported here.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..game.board import Board
    from ..solvers import Control, Limits
    from .solving import BoardResult, Seed

#: A worker thread's share of its worker's memory limit for search tables (Dask's
#: nanny restarts a worker at 95%).
WORKER_MEMORY_SHARE = 0.5
#: glibc's mallopt parameter, and its dynamic ceiling (see ``_tune_malloc``).
M_MMAP_THRESHOLD = -3
MMAP_THRESHOLD_BYTES = 32 << 20

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


def ensure_warm(algo: str, widths: Iterable[int] = ()) -> None:
    """Load the kernels of ``algo`` and the searches' ``widths`` this worker has not
    loaded yet (and tune its allocator, once)."""
    from ..runtime.warmup import warm_astar, warm_for
    from ..solvers import get_solver

    global _malloc_tuned
    with _warm_lock:
        if _malloc_tuned is None:
            _malloc_tuned = _tune_malloc()
        if algo not in _warmed_algos:
            warm_for(algo)
            _warmed_algos.add(algo)
        need = set(widths) - _warmed_widths  # none unless algo runs A* (warmup.widths_for)
        if need:
            warm_astar(need, algo=get_solver(algo).name)
            _warmed_widths.update(need)


async def warm_worker(algo: str, widths: list[int]) -> None:
    """``ensure_warm`` from ``Client.run``, off the worker's event loop (so that it keeps
    answering the scheduler while it loads or compiles)."""
    import asyncio

    await asyncio.get_running_loop().run_in_executor(None, ensure_warm, algo, widths)


def worker_limits(limits: Limits) -> Limits:
    """The run's limits with the memory share this worker can give each thread: its
    share of ``WORKER_MEMORY_SHARE`` of the worker's memory limit, never more than the
    machine's memory nor the run's own share."""
    from ..machine import machine_memory, memory_share
    from ..solvers import Limits

    budget, threads = machine_memory(), 1
    with contextlib.suppress(Exception):  # not in a worker (a direct call): the machine's
        from distributed import get_worker

        worker = get_worker()
        budget = worker.memory_manager.memory_limit or budget
        threads = max(1, int(worker.state.nthreads))
    share = min(machine_memory(), memory_share(int(WORKER_MEMORY_SHARE * budget), threads))
    memory = share if limits.memory is None else min(limits.memory, share)
    return Limits(time=limits.time, memory=memory)


def solve_chunk(
    run_id: str, first: int, boards: list[Board], algo: str, limits: Limits, seeds: list[Seed | None],
    widths: Iterable[int] = (),
) -> tuple[int, list[BoardResult | None]]:
    """A chunk on a worker: ``solve_one`` for each board (None once the run is
    stopped), after loading what this worker has not loaded yet of ``algo``'s kernels
    and the run's A* ``widths`` (``DaskRunner.warm``)."""
    from ..solvers import Control
    from .solving import solve_one

    ensure_warm(algo, widths)
    mine = worker_limits(limits)
    out: list[BoardResult | None] = []
    for board, seed in zip(boards, seeds):
        if run_id in _stopped_runs:
            out.append(None)
            continue
        control = Control(mine)
        with _runs_lock:
            _running.setdefault(run_id, set()).add(control)
            if run_id in _stopped_runs:  # a stop that came in between
                control.request_stop("signal")
        try:
            out.append(solve_one(board, algo, mine, control, seed))
        finally:
            with _runs_lock:
                _running.get(run_id, set()).discard(control)
    with _runs_lock:
        if not _running.get(run_id):
            _running.pop(run_id, None)
    return first, out


def stop_run(run_id: str) -> int:
    """Run by ``Client.run`` on every worker: stop the run's searches and chunks."""
    with _runs_lock:
        _stopped_runs.add(run_id)
        controls = list(_running.get(run_id, ()))
    for control in controls:
        control.request_stop("signal")
    return len(controls)


def worker_peak_rss_mb() -> float:
    from .report import peak_rss_mb

    return peak_rss_mb()


def worker_version() -> str:
    from .. import __version__

    return __version__
