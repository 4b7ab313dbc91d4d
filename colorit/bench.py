"""Solving whole benchmark sets of boards, and measuring the solver on them.

Boards are solved by a runner: in this process (``InProcess``), in chunks by a pool of
worker processes (``ProcessPool``), or by a Dask cluster (``colorit.cluster``). Whatever
the runner, answers come back in input order, so the ``--solutions`` file and every
report are the same whatever solved them. Every answer is replayed on its board by
``colorit.solve``, and each board keeps its time limit (the deadline guard). Known
lengths (a set's ``.opt`` proven optima or ``.best`` best known) are compared with
``FileReport``: longer than known fails a run, shorter than a proven optimum is a solver
bug and fails it too, shorter than a best known length is a new record.

``colorit.cli.bench`` is the command around this.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import resource
import signal
import statistics
import sys
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TextIO

from .board import Board
from .datasets import known_lengths_path, read_lengths
from .errors import ColoritError
from .solvers import Control, Limits, solve
from .warmup import astar_widths, widths_for  # noqa: F401  (astar_widths: part of this module's surface)

#: Most mismatches printed per kind; the counts are always complete.
MAX_REPORTED = 20

SUMMARY_KEYS = ("boards", "total_moves", "proven", "proven_moves", "wall_s", "median_ms", "max_ms", "peak_rss_mb")


# -- solving ---------------------------------------------------------------------------


@dataclass(frozen=True)
class BoardResult:
    """One board's answer as the bench keeps it (picklable, small)."""

    moves: tuple[int, ...]
    proven: bool
    lower_bound: int
    elapsed: float
    states: int
    stopped: str
    error: str = ""


def solve_one(board: Board, algo: str, limits: Limits, control: Control | None = None) -> BoardResult:
    """Solve and replay one board; an error becomes a result so one bad board does not
    end the run."""
    control = control or Control(limits)
    try:
        s = solve(board, algo, control=control)
    except Exception as e:  # noqa: BLE001 (reported per board, and the run fails)
        return BoardResult((), False, 0, control.elapsed(), 0, "", f"{type(e).__name__}: {e}")
    return BoardResult(s.moves, s.proven_optimal, s.lower_bound, s.elapsed, s.states, s.stopped)


def chunk_size(n: int, workers: int) -> int:
    """Small chunks so that hard boards spread over the workers; big enough that the
    per-chunk cost vanishes when boards are quick."""
    return max(1, min(8, n // (workers * 16) or 1))


#: Called with the input index of a chunk's first board and its results (None for a
#: board skipped after a stop request).
OnResults = Callable[[int, list["BoardResult | None"]], None]


class StopFlag:
    """A stop request shared by a runner and its caller: it stops the running searches
    (``on_stop`` hooks) and the boards not started yet."""

    def __init__(self) -> None:
        self.requested = False
        self._hooks: list[Callable[[], None]] = []

    def on_stop(self, fn: Callable[[], None]) -> None:
        self._hooks.append(fn)
        if self.requested:
            fn()

    def set(self) -> None:
        if not self.requested:
            self.requested = True
            for fn in list(self._hooks):
                fn()


class Runner(Protocol):
    """Solves ``boards[i]`` for each ``i`` in ``todo``, reporting chunks as they finish."""

    def run(
        self, boards: Sequence[Board], todo: Sequence[int], algo: str, limits: Limits, on_results: OnResults, stop: StopFlag
    ) -> None: ...


class InProcess:
    """One board after another in this process."""

    def run(
        self, boards: Sequence[Board], todo: Sequence[int], algo: str, limits: Limits, on_results: OnResults, stop: StopFlag
    ) -> None:
        current: list[Control] = []

        def stop_current() -> None:
            for control in current:
                control.request_stop("signal")

        stop.on_stop(stop_current)
        for i in todo:
            if stop.requested:
                break
            control = Control(limits)
            current[:] = [control]
            on_results(i, [solve_one(boards[i], algo, limits, control)])
        current.clear()


# Worker process state, set by _init_worker.
_w_stop: Any = None
_w_algo = ""
_w_limits = Limits()
_w_current: Control | None = None


def _init_worker(stop_event: Any, algo: str, limits: Limits, widths: frozenset[int]) -> None:
    """Workers leave Ctrl-C to the parent, which sets ``stop_event``; a watcher thread
    then stops the running search (kernels release the GIL, so it gets to run)."""
    global _w_stop, _w_algo, _w_limits
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _w_stop, _w_algo, _w_limits = stop_event, algo, limits
    from .warmup import warm_astar, warm_for

    warm_for(algo)
    warm_astar(set(widths))

    def watch() -> None:
        stop_event.wait()
        ctl = _w_current
        if ctl is not None:
            ctl.request_stop("signal")

    threading.Thread(target=watch, name="colorit-bench-stop", daemon=True).start()


def _solve_chunk(first: int, boards: list[Board]) -> tuple[int, list[BoardResult | None]]:
    """Solve a chunk in a worker; boards reached after a stop request come back None."""
    global _w_current
    out: list[BoardResult | None] = []
    for board in boards:
        control = Control(_w_limits)
        _w_current = control
        if _w_stop.is_set():
            out.append(None)
            continue
        out.append(solve_one(board, _w_algo, _w_limits, control))
    _w_current = None
    return first, out


class WorkerDied(ColoritError):
    """A worker process ended without answering (killed, or out of memory)."""

    exit_code = 1


def runs_of(todo: Sequence[int]) -> list[tuple[int, int]]:
    """``todo`` (increasing indices) as (first, end) runs of consecutive indices."""
    out: list[tuple[int, int]] = []
    for i in todo:
        if out and out[-1][1] == i:
            out[-1] = (out[-1][0], i + 1)
        else:
            out.append((i, i + 1))
    return out


class ProcessPool:
    """Chunks of boards on ``workers`` processes of this machine."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.processes: list[Any] = []

    def terminate(self) -> None:
        """End the workers at once (an abort)."""
        for p in self.processes:
            with contextlib.suppress(Exception):  # ending anyway
                p.terminate()

    def run(
        self, boards: Sequence[Board], todo: Sequence[int], algo: str, limits: Limits, on_results: OnResults, stop: StopFlag
    ) -> None:
        ctx = multiprocessing.get_context()
        event = ctx.Event()
        stop.on_stop(event.set)
        if stop.requested or not todo:
            return
        size = chunk_size(len(todo), self.workers)
        widths = widths_for(algo, [boards[i] for i in todo])
        with ProcessPoolExecutor(
            self.workers, mp_context=ctx, initializer=_init_worker, initargs=(event, algo, limits, widths)
        ) as pool:
            pending: set[Future[tuple[int, list[BoardResult | None]]]] = set()
            for a, b in runs_of(todo):
                for k in range(a, b, size):
                    pending.add(pool.submit(_solve_chunk, k, list(boards[k : min(b, k + size)])))
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
                raise


def solve_boards(
    boards: Sequence[Board],
    algo: str,
    limits: Limits,
    runner: Runner | None = None,
    *,
    todo: Sequence[int] | None = None,
    on_results: OnResults | None = None,
    stop: StopFlag | None = None,
) -> list[BoardResult | None]:
    """Answers for ``boards`` in input order (None where not solved: not in ``todo``,
    or skipped after a stop request)."""
    results: list[BoardResult | None] = [None] * len(boards)
    indices = list(range(len(boards))) if todo is None else sorted(todo)

    def store(first: int, chunk: list[BoardResult | None]) -> None:
        results[first : first + len(chunk)] = chunk
        if on_results is not None:
            on_results(first, chunk)

    (runner or InProcess()).run(boards, indices, algo, limits, store, stop or StopFlag())
    return results


# -- known lengths -----------------------------------------------------------------------


@dataclass
class FileReport:
    """One input file: where its boards sit in the run and how they compare to known."""

    path: str
    format: str
    first: int  #: index of its first board in the run
    count: int
    known: list[int] | None = None
    known_path: str = ""
    known_proven: bool = True
    longer: list[tuple[int, int, int]] = field(default_factory=list)  #: (board, ours, known)
    bugs: list[tuple[int, int, int]] = field(default_factory=list)  #: shorter than a proven optimum
    records: list[tuple[int, int, int]] = field(default_factory=list)  #: shorter than best known
    errors: list[tuple[int, str]] = field(default_factory=list)
    stopped: dict[str, int] = field(default_factory=dict)


def load_expect(specs: list[str] | None, files: list[str]) -> list[tuple[str, list[int]] | None]:
    """The known lengths paired with each file (None where there are none)."""
    if not specs:
        return [None] * len(files)
    if len(specs) == 1 and specs[0] == "auto":
        specs = ["auto"] * len(files)
    if len(specs) != len(files):
        raise ColoritError(f"--expect given {len(specs)} times for {len(files)} files; give it once per FILE, or once as 'auto'")
    out: list[tuple[str, list[int]] | None] = []
    for spec, f in zip(specs, files):
        if spec == "auto":
            found = known_lengths_path(f)
            if found is None:
                raise ColoritError(f"{f}: no .opt or .best file beside it for --expect auto")
            spec = os.fspath(found)
        out.append((spec, read_lengths(spec)))
    return out


def compare_known(report: FileReport, results: Sequence[BoardResult | None]) -> None:
    for k, r in enumerate(results):
        if r is None:
            continue
        board_no = k + 1
        if r.error:
            report.errors.append((board_no, r.error))
            continue
        if r.stopped:
            report.stopped[r.stopped] = report.stopped.get(r.stopped, 0) + 1
        if report.known is None:
            continue
        ours, known = len(r.moves), report.known[k]
        if ours > known:
            report.longer.append((board_no, ours, known))
        elif ours < known:
            (report.bugs if report.known_proven else report.records).append((board_no, ours, known))


# -- summary -----------------------------------------------------------------------------


def peak_rss_mb() -> float:
    """The largest resident set of this process or any of its finished children, in MB."""
    scale = 1 / 1024 if sys.platform != "darwin" else 1 / (1024 * 1024)  # KB on Linux, bytes on macOS
    peak = max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
    return round(peak * scale, 1)


def summarize(results: Sequence[BoardResult | None], wall: float) -> dict[str, Any]:
    """The summary keys (``SUMMARY_KEYS``) over the boards that have an answer. ``wall``
    is the whole command (reading, warm-up, solving) without interpreter start-up; the
    per-board times are the solver's, graph building and replay included."""
    done = [r for r in results if r is not None and not r.error]
    ms = [r.elapsed * 1000 for r in done]
    return {
        "boards": len(done),
        "total_moves": sum(len(r.moves) for r in done),
        "proven": sum(r.proven for r in done),
        # the moves of the proven boards: on a set nobody has solved, the proven total
        "proven_moves": sum(len(r.moves) for r in done if r.proven),
        "wall_s": round(wall, 3),
        "median_ms": round(statistics.median(ms), 3) if ms else 0.0,
        "max_ms": round(max(ms), 3) if ms else 0.0,
        "peak_rss_mb": peak_rss_mb(),
    }


def _table(rows: list[list[str]], out: TextIO) -> None:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for n, row in enumerate(rows):
        cells = [c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths))]
        print("  ".join(cells).rstrip(), file=out)
        if n == 0:
            print("  ".join("-" * w for w in widths), file=out)


def print_report(summary: dict[str, Any], reports: list[FileReport], results: Sequence[BoardResult | None], out: TextIO) -> None:
    multi = len(reports) > 1
    for rep in reports:
        where = f"{Path(rep.path).name} " if multi else ""
        for board_no, err in rep.errors:
            print(f"{where}board {board_no}: failed: {err}", file=out)
        for title, items, cap in (
            ("BUG: shorter than the proven optimum", rep.bugs, None),
            ("new record: shorter than the best known", rep.records, None),
            ("longer than known", rep.longer, MAX_REPORTED),
        ):
            if not items:
                continue
            print(f"{where}{title}: {len(items)} board{'s' if len(items) != 1 else ''}", file=out)
            for board_no, ours, known in items[:cap]:
                print(f"  board {board_no}: ours {ours}, known {known} ({ours - known:+d})", file=out)
            if cap is not None and len(items) > cap:
                print(f"  ... and {len(items) - cap} more", file=out)
    rows = [["file", "boards", "moves", "proven", "known", "diff", "stopped"]]
    for rep in reports:
        part = [r for r in results[rep.first : rep.first + rep.count] if r is not None and not r.error]
        moves = sum(len(r.moves) for r in part)
        if rep.known is not None:
            mine = results[rep.first : rep.first + rep.count]
            known_total = sum(rep.known[k] for k, r in enumerate(mine) if r is not None and not r.error)
            known_cell, diff_cell = str(known_total), f"{moves - known_total:+d}"
        else:
            known_cell = diff_cell = "-"
        stopped = ", ".join(f"{n} {why}" for why, n in sorted(rep.stopped.items())) or "-"
        proven = str(sum(r.proven for r in part))
        rows.append([Path(rep.path).name, f"{len(part)}/{rep.count}", str(moves), proven, known_cell, diff_cell, stopped])
    print(file=out)
    _table(rows, out)
    print(file=out)
    _table([["summary", "value"], *[[k, f"{summary[k]:g}" if isinstance(summary[k], float) else str(summary[k])] for k in SUMMARY_KEYS]], out)


__all__ = [
    "SUMMARY_KEYS",
    "BoardResult",
    "FileReport",
    "InProcess",
    "ProcessPool",
    "Runner",
    "StopFlag",
    "WorkerDied",
    "load_expect",
    "print_report",
    "solve_boards",
    "summarize",
]
