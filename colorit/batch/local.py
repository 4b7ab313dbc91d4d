"""The runner of this machine's processes: ``ProcessPool`` (chunks of boards on worker
processes, ``--workers N``; one board after another in this process is
``solving.InProcess``).

Workers load their kernels before their first board's clock starts, leave Ctrl-C to the
parent (which sets a shared event that stops the running searches) and send their
answers back a chunk at a time.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import signal
import threading
from collections.abc import Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from ..errors import ColoritError
from ..game.board import Board
from ..runtime.warmup import warm_up, widths_for
from ..solvers import Control, Limits
from .solving import BoardResult, OnResults, Seed, StopFlag, chunk_size, runs_of, solve_one

# Worker process state, set by _init_worker.
_w_stop: Any = None
_w_algo = ""
_w_current: Control | None = None


def _init_worker(stop_event: Any, algo: str, widths: frozenset[int]) -> None:
    """Workers leave Ctrl-C to the parent, which sets ``stop_event``; a watcher thread
    then stops the running search (kernels release the GIL, so it gets to run)."""
    global _w_stop, _w_algo
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _w_stop, _w_algo = stop_event, algo
    from ..runtime.warmup import warm_astar, warm_for
    from ..solvers import get_solver

    warm_for(algo)
    warm_astar(set(widths), algo=get_solver(algo).name)

    def watch() -> None:
        stop_event.wait()
        ctl = _w_current
        if ctl is not None:
            ctl.request_stop("signal")

    threading.Thread(target=watch, name="colorit-bench-stop", daemon=True).start()


def _solve_chunk(first: int, boards: list[Board], seeds: list[Seed | None], limits: Limits) -> tuple[int, list[BoardResult | None]]:
    """Solve a chunk in a worker; boards reached after a stop request come back None."""
    global _w_current
    out: list[BoardResult | None] = []
    for board, seed in zip(boards, seeds):
        control = Control(limits)
        _w_current = control
        if _w_stop.is_set():
            out.append(None)
            continue
        out.append(solve_one(board, _w_algo, limits, control, seed))
    _w_current = None
    return first, out


class WorkerDied(ColoritError):
    """A worker process ended without answering (killed, or out of memory)."""

    exit_code = 1


class ProcessPool:
    """Chunks of boards on ``workers`` processes of this machine. With ``keep``, the
    processes stay for the runs that follow (a budget's passes: their kernels stay
    loaded) until ``close``; a stop request ends them all."""

    def __init__(self, workers: int, keep: bool = False) -> None:
        self.workers = workers
        self.keep = keep
        self.processes: list[Any] = []
        self._pool: ProcessPoolExecutor | None = None
        self._event: Any = None
        self._algo = ""
        self.warmed: tuple[str, frozenset[int]] | None = None  #: the algorithm and A* widths the workers load

    def warm(self, algo: str, boards: Sequence[Board]) -> None:
        """Load ``algo``'s kernels here (compiling into numba's cache what the workers
        then only load; this also settles the collector) and note the A* widths of
        ``boards``: each worker loads them as it starts, before its first board."""
        warm_up(algo, [])
        self.warmed = (algo, widths_for(algo, boards))

    def terminate(self) -> None:
        """End the workers at once (an abort)."""
        for p in self.processes:
            with contextlib.suppress(Exception):  # ending anyway
                p.terminate()

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    def _executor(self, algo: str, widths: frozenset[int]) -> ProcessPoolExecutor:
        if self._pool is None or algo != self._algo:
            self.close()
            ctx = multiprocessing.get_context()
            self._event = ctx.Event()
            self._algo = algo
            self._pool = ProcessPoolExecutor(self.workers, mp_context=ctx, initializer=_init_worker,
                                             initargs=(self._event, algo, widths))
        return self._pool

    def run(
        self,
        boards: Sequence[Board],
        todo: Sequence[int],
        algo: str,
        limits: Limits,
        on_results: OnResults,
        stop: StopFlag,
        seeds: Mapping[int, Seed] | None = None,
    ) -> None:
        if stop.requested or not todo:
            return
        size = chunk_size(len(todo), self.workers)
        if self.warmed is None or self.warmed[0] != algo:
            self.warm(algo, [boards[i] for i in todo])
        assert self.warmed is not None
        # the widths of every board warmed for: the kernels load once, for every pass
        pool = self._executor(algo, self.warmed[1])
        event = self._event
        stop.on_stop(event.set)
        seeds = seeds or {}
        pending: set[Future[tuple[int, list[BoardResult | None]]]] = set()
        for a, b in runs_of(todo):
            for k in range(a, b, size):
                end = min(b, k + size)
                pending.add(pool.submit(_solve_chunk, k, list(boards[k:end]), [seeds.get(i) for i in range(k, end)], limits))
        self.processes = list(getattr(pool, "_processes", {}).values())
        try:
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for fut in done:
                    try:
                        first, chunk = fut.result()
                    except BrokenProcessPool:
                        if stop.requested:  # killed along with us: keep what we have
                            pending = set()
                            break
                        raise WorkerDied(
                            "a worker process died without answering (out of memory? try a smaller --max-memory or fewer --workers)"
                        ) from None
                    on_results(first, chunk)
        except BaseException:
            event.set()
            pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
            raise
        if stop.requested or not self.keep:
            self.close()
