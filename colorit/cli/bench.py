"""``colorit bench FILE...``: solve benchmark sets and report totals, times and memory.

This module parses the command line, draws the ``--plot`` chart (``render``) and
prints; the run itself is ``colorit.batch.session``'s (reading the sets, the runner, the
passes, the journal and the results, the outputs). Ctrl-C asks the running searches to
stop and return what they have, skips the boards not started, and still prints (and
writes) the summary of what was done; a second Ctrl-C more than a second later aborts at
once.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import TYPE_CHECKING

from ..io.files import looks_like_a_name
from ..log import plural
from ..runtime.signals import EXIT_FAILED, EXIT_OK, EXIT_SIGINT, SignalGuard, write_output
from .context import Context
from .options import (
    DEFAULT_TIME_LIMIT,
    add_algo,
    add_memory,
    add_quiet,
    add_start,
    add_time_limit,
    arg_type,
    count_arg,
    require_extra,
    solver_name,
)

if TYPE_CHECKING:
    from ..batch.outputs import BenchChart


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.description = (
        "Solve every board of one or more benchmark files (one square board per line, of "
        "one size or several; blank-line separated blocks; or Color-It CSV) and report the "
        "total number of moves, how many answers are proven optimal, times and peak memory."
    )
    p.epilog = (
        "exit status: 0 when every board was solved and none is longer than --expect "
        "says; 1 when a board is longer than known, shorter than a proven optimum (a "
        "bug) or failed; 2 for bad arguments or input; 130 when interrupted (143 on SIGTERM). "
        "With --solutions OUT, every finished answer is also kept in OUT.journal while the "
        "run goes on (removed once OUT is written complete); after an interrupt, a kill or "
        "a crash, the same command with --resume solves only the boards it lacks. "
        "With --results FILE.jsonl the run keeps a campaign's record instead: each board's "
        "best answer and lower bound; --resume with a larger --time-limit (or --budget) "
        "solves only the unproven boards again, from their answers."
    )
    p.add_argument(
        "files", nargs="+", metavar="FILE",
        help="benchmark files, solved in file order ('-': standard input), or names of sets ('colorit datasets' lists them), "
        "fetched into the cache on first use",
    )
    add_start(p, default=None, note="default: the set's own, the centre for files named *_center*, the top-left corner otherwise")
    add_algo(p)
    add_time_limit(p, "seconds per board; with --budget, the most a board gets", default=None)
    p.add_argument(
        "--budget", type=arg_type(_parse_budget, "--budget", "budget"), metavar="DURATION",
        help="a total for the whole run (90s, 10m, 2h), spent in passes of growing per-board limits "
        "on the boards not yet proven, starting from their best answers; never overrun by more than 1%%",
    )
    p.add_argument(
        "--workers", type=count_arg(0, "--workers"), default=None, metavar="N",
        help="solver processes on this machine (default: 1, in this process; 0: one per core it may use, within a container's CPU quota)",
    )
    p.add_argument(
        "--scheduler",
        type=arg_type(_parse_scheduler, "--scheduler", "scheduler"),
        metavar="ADDRESS",
        help="solve on a Dask cluster: the address of a running 'dask scheduler' (tcp://HOST:8786), "
        "or local:N for N worker processes on this machine with Dask's dashboard (needs colorit[cluster])",
    )
    p.add_argument(
        "--resume",
        action="store_true",
        help="continue a run that was interrupted, killed or crashed: the answers kept in OUT.journal "
        "(beside --solutions OUT) are checked on their boards and kept; only the other boards are solved. "
        "With --results: go on with that campaign",
    )
    p.add_argument(
        "--solutions",
        metavar="OUT",
        help="write each board's moves, one line per board in input order, as dataset characters "
        "(1-9, a-z; as comma-separated ids when a board has ids outside 1-35); '-': standard output",
    )
    p.add_argument(
        "--results", metavar="FILE.jsonl",
        help="keep a campaign's record: one JSON line per board (moves, proven, lower bound, seconds), "
        "written whole every few seconds; with --resume, go on with it",
    )
    p.add_argument(
        "--import-journal", metavar="JOURNAL",
        help="put the answers of a bench journal (OUT.journal) into --results FILE, checked on their boards, and stop",
    )
    p.add_argument("--json", metavar="SUMMARY", help="write the summary and every board's result as JSON ('-': standard output)")
    p.add_argument("--plot", metavar="PNG", help="draw the lengths, the times and (with --expect) the differences from the known lengths")
    p.add_argument(
        "--expect",
        action="append",
        metavar="OPT",
        help="known lengths (.opt optimal, .best best known), one per FILE in order, or 'auto' for the .opt/.best beside each FILE",
    )
    p.add_argument("--limit", type=count_arg(1, "--limit"), metavar="N", help="only the first N boards of each file")
    add_memory(p, "memory for search tables in all (shared among the workers)")
    add_quiet(p, "no progress reports on standard error")


def _parse_scheduler(text: str) -> str:
    # a light module: Dask itself is imported only to connect
    from ..batch.dask_connection import parse_scheduler

    return parse_scheduler(text)


def _parse_budget(text: str) -> float:
    from ..batch.planner import parse_duration

    return parse_duration(text)


def _plot(path: str, chart: BenchChart, guard: SignalGuard) -> None:
    """Draw the run's ``--plot`` chart and write it whole (the pictures load only here)."""
    from ..render.charts import bench_chart

    write_output(path, bench_chart(chart.lengths, chart.times_ms, known=chart.known, title=chart.title), guard)


def run(args: argparse.Namespace, ctx: Context) -> int:
    """Run ``colorit bench`` (see the epilog for the exit status)."""
    if any(looks_like_a_name(f) for f in args.files):
        from ..io.fetch import resolve_paths  # set names (pc19) to their files in the cache, fetched on first use

        args.files = resolve_paths(args.files, lambda line: print(f"colorit bench: {line}", file=sys.stderr, flush=True))
    t0 = time.monotonic()
    if args.scheduler is not None:
        from ..batch.dask_connection import require_dask

        require_dask()  # before any work: one line saying how to install it
    if args.plot is not None:
        require_extra("pictures", "bench --plot", "matplotlib")
    from ..batch.inputs import BenchOptions
    from ..batch.outputs import ranges
    from ..batch.session import BenchRun

    opts = BenchOptions(
        files=args.files, algo=solver_name(args.algo), start=args.start,  # unknown names fail before any reading
        time_limit=args.time_limit if args.time_limit is not None else DEFAULT_TIME_LIMIT,
        time_limit_given=args.time_limit is not None, budget=args.budget, workers=args.workers,
        scheduler=args.scheduler, resume=args.resume, solutions=args.solutions, results=args.results,
        import_journal=args.import_journal, json=args.json, plot=args.plot, expect=args.expect, limit=args.limit,
        max_memory=args.max_memory, quiet=args.quiet,
    )
    bench = BenchRun(opts, t0)
    bench.check()
    bench.load()
    if args.import_journal:
        print(bench.import_journal(), file=sys.stderr)
        return EXIT_OK
    report_out = sys.stderr if args.solutions == "-" or args.json == "-" else sys.stdout
    with SignalGuard(ctx.log) as guard:
        out = bench.run(guard)
        if args.plot is not None:
            _plot(args.plot, bench.chart(out), guard)
        bench.print(out, report_out)
        report_out.flush()
    for note in out.notes:
        print(note, file=sys.stderr)
    if out.bugs:
        print(f"BUG: {out.bugs} answer{'s are' if out.bugs != 1 else ' is'} shorter than a proven optimum", file=sys.stderr)
    if out.interrupted:
        missing = [i for i, r in enumerate(out.results) if r is None]
        gap = f"; not solved: boards {ranges(missing)}" if missing else ""
        print(f"interrupted: {out.summary['boards']} of {plural(len(out.results), 'board')} solved{gap}", file=sys.stderr)
        return guard.exit_code if guard.requested else EXIT_SIGINT
    return EXIT_FAILED if out.failed else EXIT_OK
