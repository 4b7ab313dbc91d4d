"""``colorit bench``: solve whole benchmark sets and measure the solver on them.

Boards are solved one by one in this process, or in chunks by ``--workers`` processes;
either way the answers come back in input order, so the ``--solutions`` file and every
report are the same whatever the worker count. Every answer is replayed on its board by
``colorit.solve``. ``--expect`` compares the lengths with a set's ``.opt`` (proven optima)
or ``.best`` (best known) file: longer than known fails the run, shorter than a proven
optimum is a solver bug and fails it too, shorter than a best known length is a new record.

Ctrl-C asks the running searches to stop and return what they have, skips the boards not
started, and still prints (and writes) the summary of what was done; a second Ctrl-C
aborts at once.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import re
import resource
import signal
import statistics
import sys
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from .board import Board
from .csvio import check_output_path, write_text_atomic
from .datasets import known_lengths_path, lengths_are_proven, read_board_set, read_lengths, solutions_text
from .errors import ColoritError
from .solvers import DEFAULT_ALGO, Control, Limits, get_solver, solve
from .solvers.base import default_memory_bytes

#: Per-board time limit (seconds) unless ``--time-limit`` says otherwise: a safety net so
#: that one hard board cannot hold a whole set up for ever.
DEFAULT_TIME_LIMIT = 60.0
#: Most mismatches printed per kind; the counts are always complete.
MAX_REPORTED = 20
EXIT_OK, EXIT_FAIL, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130

SUMMARY_KEYS = ("boards", "total_moves", "proven", "proven_moves", "wall_s", "median_ms", "max_ms", "peak_rss_mb")


# -- arguments -------------------------------------------------------------------------


_SIZE = re.compile(r"\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(i?b)?\s*", re.IGNORECASE)


def parse_size(text: str) -> int:
    """Bytes from ``512M``, ``2G``, ``1.5GiB``, ``4096`` (plain numbers are bytes;
    K, M, G, T are powers of 1024)."""
    m = _SIZE.fullmatch(text)
    if not m:
        raise ColoritError(f"memory size {text!r} is not a number with an optional K, M, G or T suffix")
    scale = 1024 ** "_kmgt".index(m.group(2).lower() or "_")
    size = int(float(m.group(1)) * scale)
    if size < 1 << 20:
        raise ColoritError(f"memory size {text!r} is below 1M, too little to search in")
    return size


def _size_arg(text: str) -> int:
    try:
        return parse_size(text)
    except ColoritError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not value > 0 or math.isinf(value):
        raise argparse.ArgumentTypeError(f"time limit must be a positive number of seconds, got {text}")
    return value


def _count(minimum: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be {minimum} or more, got {value}")
        return value

    return parse


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register the ``bench`` subcommand on ``subparsers`` (from ``add_subparsers``)."""
    p = subparsers.add_parser(
        "bench",
        help="solve benchmark sets of boards and report totals, times and memory",
        description=(
            "Solve every board of one or more benchmark files (one board per line, "
            "blank-line separated blocks, or Color-It CSV) and report the total number "
            "of moves, how many answers are proven optimal, times and peak memory."
        ),
        epilog=(
            "exit status: 0 when every board was solved and none is longer than --expect "
            "says; 1 when a board is longer than known, shorter than a proven optimum (a "
            "bug) or failed; 2 for bad arguments or input; 130 when interrupted (143 on SIGTERM)."
        ),
    )
    p.add_argument("files", nargs="+", metavar="FILE", help="benchmark files (boards are solved in file order)")
    p.add_argument(
        "--start",
        metavar="S",
        help="start cell: top-left, center or ROW,COL (default: the set's own, the centre "
        "for files named *_center*, the top-left corner otherwise)",
    )
    p.add_argument("--algo", default=DEFAULT_ALGO, metavar="A", help=f"solver (default: {DEFAULT_ALGO})")
    p.add_argument(
        "--time-limit",
        type=_positive_float,
        default=DEFAULT_TIME_LIMIT,
        metavar="S",
        help=f"seconds per board (default: {DEFAULT_TIME_LIMIT:g})",
    )
    p.add_argument(
        "--workers", type=_count(0), default=1, metavar="N", help="solver processes (default: 1, in this process; 0: one per core)"
    )
    p.add_argument(
        "--solutions",
        metavar="OUT",
        help="write each board's moves, one line per board in input order, as dataset "
        "characters (1-9, a-z; as comma-separated ids when a board has ids outside 1-35)",
    )
    p.add_argument("--json", metavar="SUMMARY", help="write the summary as JSON")
    p.add_argument(
        "--expect",
        action="append",
        metavar="OPT",
        help="known lengths (.opt optimal, .best best known), one per FILE in order, or "
        "'auto' for the .opt/.best beside each FILE",
    )
    p.add_argument("--limit", type=_count(1), metavar="N", help="only the first N boards of each file")
    p.add_argument(
        "--max-memory",
        type=_size_arg,
        metavar="SIZE",
        help="memory for search tables in all (e.g. 4G; shared among the workers; default: half the RAM)",
    )
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    assert isinstance(p, argparse.ArgumentParser)
    return p


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


def _solve_one(board: Board, algo: str, limits: Limits, control: Control) -> BoardResult:
    """Solve and replay one board; an error becomes a result so one bad board does not
    end the run."""
    try:
        s = solve(board, algo, limits, control=control)
    except Exception as e:  # noqa: BLE001 (reported per board, and the run fails)
        return BoardResult((), False, 0, control.elapsed(), 0, "", f"{type(e).__name__}: {e}")
    return BoardResult(s.moves, s.proven_optimal, s.lower_bound, s.elapsed, s.states, s.stopped)


_WARMUP_ROWS = [[1, 2, 0, 0, 3], [0, 1, 1, 0, 3], [2, 2, 0, 1, 1], [0, 3, 0, 1, 2]]


def warm_up(algo: str) -> None:
    """Load the solver's compiled kernels on a tiny board, so the first real board's time
    is the solver's, not the kernel cache's."""
    board = Board.from_rows(_WARMUP_ROWS)
    for start in ((0, 0), (2, 2)):
        solve(board.with_start(start), algo, Limits(time=5.0))


# Worker process state, set by _init_worker.
_w_stop: Any = None
_w_algo = ""
_w_limits = Limits()
_w_current: Control | None = None


def _init_worker(stop_event: Any, algo: str, limits: Limits) -> None:
    """Workers leave Ctrl-C to the parent, which sets ``stop_event``; a watcher thread
    then stops the running search (kernels release the GIL, so it gets to run)."""
    global _w_stop, _w_algo, _w_limits
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _w_stop, _w_algo, _w_limits = stop_event, algo, limits
    warm_up(algo)

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
        out.append(_solve_one(board, _w_algo, _w_limits, control))
    _w_current = None
    return first, out


class _Interrupt:
    """SIGINT/SIGTERM handling in the parent: the first signal asks for a clean stop, a
    second one raises KeyboardInterrupt."""

    SIGNALS = (signal.SIGINT, signal.SIGTERM)

    def __init__(self) -> None:
        self.signum = 0  #: the first stop signal received, 0 if none
        self.event: Any = None  # the workers' stop event
        self.control: Control | None = None  # the in-process search
        self._previous: dict[int, Any] = {}

    @property
    def requested(self) -> bool:
        return self.signum != 0

    def __enter__(self) -> _Interrupt:
        if threading.current_thread() is threading.main_thread():
            for sig in self.SIGNALS:
                self._previous[sig] = signal.signal(sig, self._handle)
        return self

    def __exit__(self, *exc: object) -> None:
        for sig, previous in self._previous.items():
            signal.signal(sig, previous)

    def _handle(self, signum: int, frame: object) -> None:
        if self.signum:
            raise KeyboardInterrupt
        self.signum = signum
        if self.event is not None:
            self.event.set()
        if self.control is not None:
            self.control.request_stop("signal")


class WorkerDied(ColoritError):
    """A worker process ended without answering (killed, or out of memory)."""


class _Progress:
    """A tqdm bar on stderr (boards done, moves so far, time left), or nothing."""

    def __init__(self, total: int, enabled: bool) -> None:
        self.moves = 0
        self.bar: Any = None
        if enabled and total > 0:
            from tqdm import tqdm  # type: ignore[import-untyped,unused-ignore]

            self.bar = tqdm(total=total, unit="board", file=sys.stderr, dynamic_ncols=True, smoothing=0.1)

    def add(self, results: Sequence[BoardResult | None]) -> None:
        done = [r for r in results if r is not None]
        self.moves += sum(len(r.moves) for r in done)
        if self.bar is not None and results:
            self.bar.set_postfix_str(f"moves={self.moves}", refresh=False)
            self.bar.update(len(results))

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def _chunk_size(n: int, workers: int) -> int:
    """Small chunks so that hard boards spread over the workers; big enough that the
    per-chunk cost vanishes when boards are quick."""
    return max(1, min(8, n // (workers * 16) or 1))


def solve_boards(
    boards: Sequence[Board],
    algo: str,
    limits: Limits,
    workers: int = 1,
    *,
    progress: bool = False,
    interrupt: _Interrupt | None = None,
) -> list[BoardResult | None]:
    """Answers for ``boards`` in input order; None for boards skipped after a stop request."""
    results: list[BoardResult | None] = [None] * len(boards)
    stop = interrupt or _Interrupt()
    bar = _Progress(0, False)
    try:
        if workers <= 1 or len(boards) <= 1:
            bar = _Progress(len(boards), progress)
            if boards:
                warm_up(algo)
            for i, board in enumerate(boards):
                if stop.requested:
                    break
                control = Control(limits)
                stop.control = control
                results[i] = _solve_one(board, algo, limits, control)
                bar.add([results[i]])
            stop.control = None
            return results
        ctx = multiprocessing.get_context()
        event = ctx.Event()
        stop.event = event
        if stop.requested:
            return results
        size = _chunk_size(len(boards), workers)
        with ProcessPoolExecutor(workers, mp_context=ctx, initializer=_init_worker, initargs=(event, algo, limits)) as pool:
            pending: set[Future[tuple[int, list[BoardResult | None]]]] = {
                pool.submit(_solve_chunk, i, list(boards[i : i + size])) for i in range(0, len(boards), size)
            }
            # after the workers are forked: the bar's monitor thread must not be forked with them
            bar = _Progress(len(boards), progress)
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
                        results[first : first + len(chunk)] = chunk
                        bar.add(chunk)
            except BaseException:
                event.set()
                pool.shutdown(wait=False, cancel_futures=True)
                raise
        return results
    finally:
        bar.close()


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


def _load_expect(specs: list[str] | None, files: list[str]) -> list[tuple[str, list[int]] | None]:
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


def _compare(report: FileReport, results: Sequence[BoardResult | None]) -> None:
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


def _print_report(summary: dict[str, Any], reports: list[FileReport], results: Sequence[BoardResult | None], out: TextIO) -> None:
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


# -- the command -------------------------------------------------------------------------


def _execute(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    t0 = time.monotonic()
    get_solver(args.algo)  # unknown names fail before any reading
    for target in (args.solutions, args.json):
        if target:
            check_output_path(target)
    expects = _load_expect(args.expect, args.files)
    boards: list[Board] = []
    reports: list[FileReport] = []
    for f, known in zip(args.files, expects):
        bset = read_board_set(f, start=args.start, limit=args.limit)
        rep = FileReport(f, bset.format, len(boards), len(bset))
        if known is not None:
            known_path, lengths = known
            if len(lengths) < len(bset):
                raise ColoritError(f"{known_path}: has {len(lengths)} lengths but {f} has {len(bset)} boards")
            rep.known, rep.known_path, rep.known_proven = lengths[: len(bset)], known_path, lengths_are_proven(known_path)
        boards.extend(bset.boards)
        reports.append(rep)

    workers = args.workers or os.cpu_count() or 1
    workers = max(1, min(workers, len(boards)))
    total_memory = args.max_memory if args.max_memory is not None else default_memory_bytes()
    limits = Limits(time=args.time_limit, memory=max(1, total_memory // workers))
    show = not args.quiet and err.isatty()

    with _Interrupt() as interrupt:
        results = solve_boards(boards, args.algo, limits, workers, progress=show, interrupt=interrupt)
    interrupted = interrupt.requested or any(r is None for r in results)

    wall = time.monotonic() - t0
    summary = summarize(results, wall)
    for rep in reports:
        _compare(rep, results[rep.first : rep.first + rep.count])
    _print_report(summary, reports, results, out)

    if args.solutions:
        # a line per board in input order; after an interrupt, the boards up to the first gap
        solved = []
        for r in results:
            if r is None or r.error:
                break
            solved.append(r.moves)
        write_text_atomic(args.solutions, solutions_text(solved))
        if len(solved) < len(results):
            print(f"{args.solutions}: wrote the answers of the first {len(solved)} of {len(results)} boards", file=err)
    if args.json:
        doc = dict(summary)
        doc.update(
            algo=get_solver(args.algo).name,
            workers=workers,
            time_limit_s=args.time_limit,
            interrupted=interrupted,
            errors=sum(len(r.errors) for r in reports),
            files=[
                {
                    "path": rep.path,
                    "format": rep.format,
                    "boards": rep.count,
                    "expect": rep.known_path or None,
                    "longer": len(rep.longer),
                    "shorter_than_proven": len(rep.bugs),
                    "records": len(rep.records),
                    "stopped": rep.stopped,
                }
                for rep in reports
            ],
        )
        write_text_atomic(args.json, json.dumps(doc, indent=2) + "\n")

    bugs = sum(len(r.bugs) for r in reports)
    if bugs:
        print(f"BUG: {bugs} answer{'s are' if bugs != 1 else ' is'} shorter than a proven optimum", file=err)
    if interrupted:
        print(f"interrupted: {summary['boards']} of {len(boards)} boards solved", file=err)
        return 128 + interrupt.signum if interrupt.signum else EXIT_INTERRUPTED
    failed = bugs or any(rep.longer or rep.errors for rep in reports)
    return EXIT_FAIL if failed else EXIT_OK


def run(args: argparse.Namespace) -> int:
    """Run ``colorit bench`` with parsed arguments; the exit status (see the epilog)."""
    try:
        return _execute(args, sys.stdout, sys.stderr)
    except WorkerDied as e:
        print(f"colorit bench: error: {e}", file=sys.stderr)
        return EXIT_FAIL
    except ColoritError as e:
        print(f"colorit bench: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("colorit bench: aborted", file=sys.stderr)
        return EXIT_INTERRUPTED


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m colorit.bench FILE ...``: the subcommand without the rest of the CLI."""
    parser = argparse.ArgumentParser(prog="colorit")
    sub = parser.add_subparsers(dest="command", required=True)
    add_parser(sub)
    args = parser.parse_args(["bench", *(sys.argv[1:] if argv is None else argv)])
    return run(args)


if __name__ == "__main__":
    raise SystemExit(main())
