"""``colorit bench FILE...``: solve benchmark sets and report totals, times and memory.

The work is ``colorit.bench``'s; this module reads the sets, picks the runner (this
process, ``--workers`` processes), reports progress, and writes the outputs whole.
Ctrl-C asks the running searches to stop and return what they have, skips the boards not
started, and still prints (and writes) the summary of what was done; a second Ctrl-C
more than a second later aborts at once.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Any

from . import core


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.description = (
        "Solve every board of one or more benchmark files (one square board per line, of "
        "one size or several; blank-line separated blocks; or Color-It CSV) and report the "
        "total number of moves, how many answers are proven optimal, times and peak memory."
    )
    p.epilog = (
        "exit status: 0 when every board was solved and none is longer than --expect "
        "says; 1 when a board is longer than known, shorter than a proven optimum (a "
        "bug) or failed; 2 for bad arguments or input; 130 when interrupted (143 on SIGTERM)."
    )
    p.add_argument("files", nargs="+", metavar="FILE", help="benchmark files, solved in file order ('-': standard input)")
    core.add_start(p, default=None, note="default: the set's own, the centre for files named *_center*, the top-left corner otherwise")
    core.add_algo(p)
    core.add_time_limit(p, "seconds per board")
    p.add_argument(
        "--workers", type=core.count_arg(0, "--workers"), default=1, metavar="N",
        help="solver processes (default: 1, in this process; 0: one per core)",
    )
    p.add_argument(
        "--solutions",
        metavar="OUT",
        help="write each board's moves, one line per board in input order, as dataset characters "
        "(1-9, a-z; as comma-separated ids when a board has ids outside 1-35); '-': standard output",
    )
    p.add_argument("--json", metavar="SUMMARY", help="write the summary as JSON ('-': standard output)")
    p.add_argument("--plot", metavar="PNG", help="draw the lengths, the times and (with --expect) the differences from the known lengths")
    p.add_argument(
        "--expect",
        action="append",
        metavar="OPT",
        help="known lengths (.opt optimal, .best best known), one per FILE in order, or 'auto' for the .opt/.best beside each FILE",
    )
    p.add_argument("--limit", type=core.count_arg(1, "--limit"), metavar="N", help="only the first N boards of each file")
    core.add_memory(p, "memory for search tables in all (shared among the workers)")
    core.add_quiet(p, "no progress reports on standard error")


def run(args: argparse.Namespace, ctx: core.Context) -> int:
    """Run ``colorit bench`` (see the epilog for the exit status)."""
    from .. import bench
    from ..board import Board
    from ..datasets import lengths_are_proven, read_board_set, solutions_text
    from ..limits import default_memory_bytes
    from ..solvers import Limits, get_solver

    t0 = time.monotonic()
    algo = get_solver(args.algo).name  # unknown names fail before any reading
    expects = bench.load_expect(args.expect, args.files)
    core.check_files(
        [*args.files, *(e[0] for e in expects if e is not None)], [args.solutions, args.json, args.plot]
    )
    report_out = sys.stderr if args.solutions == "-" or args.json == "-" else sys.stdout
    boards: list[Board] = []
    reports: list[bench.FileReport] = []
    for f, known in zip(args.files, expects):
        bset = read_board_set(f, start=args.start, limit=args.limit)
        rep = bench.FileReport(f, bset.format, len(boards), len(bset))
        if known is not None:
            known_path, lengths = known
            if len(lengths) < len(bset):
                raise core.UsageError(f"{known_path}: has {len(lengths)} lengths but {f} has {len(bset)} boards")
            rep.known, rep.known_path, rep.known_proven = lengths[: len(bset)], known_path, lengths_are_proven(known_path)
        boards.extend(bset.boards)
        reports.append(rep)

    workers = args.workers or os.cpu_count() or 1
    workers = max(1, min(workers, len(boards)))
    total_memory = args.max_memory if args.max_memory is not None else default_memory_bytes()
    limits = Limits(time=args.time_limit, memory=max(1 << 20, total_memory // workers))
    if workers == 1:
        core.warm_up(algo, boards)  # compiled before any board's clock starts
        runner: Any = bench.InProcess()
    else:
        core.warm_up(algo, [])  # each worker loads what its boards need
        runner = bench.ProcessPool(workers)

    progress = core.Progress(len(boards), "boards", label="bench", enabled=not args.quiet)
    moves_so_far = [0]

    def on_results(first: int, chunk: list[Any]) -> None:
        moves_so_far[0] += sum(len(r.moves) for r in chunk if r is not None)
        progress.update(len(chunk), note=f"{moves_so_far[0]} moves")

    stop = bench.StopFlag()
    with core.SignalGuard(ctx.log) as guard:
        guard.on_stop(stop.set)
        if isinstance(runner, bench.ProcessPool):
            guard.on_abort(runner.terminate)
        try:
            results = bench.solve_boards(boards, algo, limits, runner, on_results=on_results, stop=stop)
        finally:
            progress.close()
        interrupted = guard.requested or any(r is None for r in results)

        wall = time.monotonic() - t0
        summary = bench.summarize(results, wall)
        for rep in reports:
            bench.compare_known(rep, results[rep.first : rep.first + rep.count])
        bench.print_report(summary, reports, results, report_out)
        report_out.flush()

        if args.solutions:
            # a line per board in input order; after an interrupt, the boards up to the first gap
            solved = []
            for r in results:
                if r is None or r.error:
                    break
                solved.append(r.moves)
            core.write_output(args.solutions, solutions_text(solved), guard)
            if len(solved) < len(results):
                print(f"{args.solutions}: wrote the answers of the first {len(solved)} of {len(results)} boards", file=sys.stderr)
        if args.json:
            doc = dict(summary)
            doc.update(
                algo=algo,
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
            core.write_output(args.json, json.dumps(doc, indent=2) + "\n", guard)
        if args.plot:
            from ..render.charts import bench_chart

            done = [(k, r) for k, r in enumerate(results) if r is not None and not r.error]
            known_all: list[int] | None = None
            if all(rep.known is not None for rep in reports):
                known_all = [v for rep in reports for v in (rep.known or [])]
            png = bench_chart(
                [len(r.moves) for _, r in done],
                [r.elapsed * 1000 for _, r in done],
                known=None if known_all is None else [known_all[k] for k, _ in done],
                title=f"{', '.join(os.path.basename(f) for f in args.files)}: {algo}, {args.time_limit:g} s per board",
            )
            core.write_output(args.plot, png, guard)

    bugs = sum(len(r.bugs) for r in reports)
    if bugs:
        print(f"BUG: {bugs} answer{'s are' if bugs != 1 else ' is'} shorter than a proven optimum", file=sys.stderr)
    if interrupted:
        print(f"interrupted: {summary['boards']} of {len(boards)} boards solved", file=sys.stderr)
        return guard.exit_code if guard.requested else core.EXIT_SIGINT
    failed = bugs or any(rep.longer or rep.errors for rep in reports)
    return core.EXIT_FAILED if failed else core.EXIT_OK
