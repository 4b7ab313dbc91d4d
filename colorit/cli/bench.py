"""``colorit bench FILE...``: solve benchmark sets and report totals, times and memory.

The work is ``colorit.bench``'s; this module reads the sets, picks the runner (this
process, ``--workers`` processes, or a Dask cluster with ``--scheduler``:
``colorit.cluster``), reports progress, and writes the outputs whole. With ``--solutions
OUT`` each finished answer also goes to the journal ``OUT.journal`` at once
(``colorit.journal``), and ``--resume`` continues from it after an interrupt, a kill or
a crash. Ctrl-C asks the running searches to stop and return what they have, skips the
boards not started, and still prints (and writes) the summary of what was done; a second
Ctrl-C more than a second later aborts at once.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import time
from collections.abc import Sequence
from typing import Any

from ..errors import ColoritError
from ..log import PROG
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
        "bug) or failed; 2 for bad arguments or input; 130 when interrupted (143 on SIGTERM). "
        "With --solutions OUT, every finished answer is also kept in OUT.journal while the "
        "run goes on (removed once OUT is written complete); after an interrupt, a kill or "
        "a crash, the same command with --resume solves only the boards it lacks."
    )
    p.add_argument("files", nargs="+", metavar="FILE", help="benchmark files, solved in file order ('-': standard input)")
    core.add_start(p, default=None, note="default: the set's own, the centre for files named *_center*, the top-left corner otherwise")
    core.add_algo(p)
    core.add_time_limit(p, "seconds per board")
    p.add_argument(
        "--workers", type=core.count_arg(0, "--workers"), default=None, metavar="N",
        help="solver processes on this machine (default: 1, in this process; 0: one per core)",
    )
    p.add_argument(
        "--scheduler",
        type=core.arg_type(_parse_scheduler),
        metavar="ADDRESS",
        help="solve on a Dask cluster: the address of a running 'dask scheduler' (tcp://HOST:8786), "
        "or local:N for N worker processes on this machine with Dask's dashboard (needs colorit[cluster])",
    )
    p.add_argument(
        "--resume",
        action="store_true",
        help="continue a run that was interrupted, killed or crashed: the answers kept in OUT.journal "
        "(beside --solutions OUT) are checked on their boards and kept; only the other boards are solved",
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


def _parse_scheduler(text: str) -> str:
    # a light module: Dask itself is imported only to connect
    from ..cluster import parse_scheduler

    return parse_scheduler(text)


def _ranges(indices: Sequence[int], most: int = 8) -> str:
    """Board numbers (from 1) as ranges: ``3, 7-9, 12`` (the first ``most`` ranges)."""
    spans: list[list[int]] = []
    for i in indices:
        if spans and spans[-1][1] == i:
            spans[-1][1] = i + 1
        else:
            spans.append([i, i + 1])
    text = ", ".join(f"{a + 1}" if b == a + 1 else f"{a + 1}-{b}" for a, b in spans[:most])
    return text + (", ..." if len(spans) > most else "")


def run(args: argparse.Namespace, ctx: core.Context) -> int:
    """Run ``colorit bench`` (see the epilog for the exit status)."""
    t0 = time.monotonic()
    if args.scheduler is not None:
        from ..cluster import require_dask

        require_dask()  # before any work: one line saying how to install it
        if args.workers is not None:
            raise core.UsageError("--workers is for processes on this machine; with --scheduler the cluster's workers solve")
    to_file = args.solutions is not None and args.solutions != "-"
    if args.resume and not to_file:
        raise core.UsageError("--resume needs --solutions FILE: it continues from the journal FILE.journal")

    from .. import bench
    from ..board import Board
    from ..datasets import lengths_are_proven, read_board_set, solutions_text
    from ..journal import JournalWriter, journal_path, read_journal, worth_keeping
    from ..limits import default_memory_bytes
    from ..solvers import Limits, get_solver

    algo = get_solver(args.algo).name  # unknown names fail before any reading
    expects = bench.load_expect(args.expect, args.files)
    journal = os.fspath(journal_path(args.solutions)) if to_file else None
    core.check_files(
        [*args.files, *(e[0] for e in expects if e is not None)], [args.solutions, args.json, args.plot, journal]
    )
    if journal is not None and os.path.lexists(journal) and not args.resume:
        raise core.UsageError(
            f"{journal}: holds the answers of a run that did not finish; pass --resume to continue it, or delete it to start over"
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

    # the answers a resumed run keeps: read back, each replayed on its board
    run_key = {"algo": algo, "time_limit": args.time_limit}
    kept: dict[int, bench.BoardResult] = {}
    foreign: list[str] = []  # good journal lines for boards not in this run: never dropped
    if args.resume:
        assert journal is not None
        if os.path.exists(journal):
            back = read_journal(journal, boards, run_key)
            kept, foreign = back.answers, back.foreign
            redone = f" ({back.describe_redone()} redone)" if back.redone else ""
            note = f"resumed {len(kept)} answers from {journal}, solving {len(boards) - len(kept)}{redone}"
            if foreign:
                note += f"; {len(foreign)} lines for other boards stay in the journal"
        else:
            note = f"no journal {journal} to resume: solving all {len(boards)} boards"
        print(f"{PROG} bench: {note}", file=sys.stderr)
    todo = [i for i in range(len(boards)) if i not in kept]

    with contextlib.ExitStack() as stack:
        runner: Any
        scheduler = args.scheduler if todo else None  # nothing left to solve: no cluster needed
        if scheduler is not None:
            from ..cluster import DaskRunner

            runner = DaskRunner.start(scheduler)
            stack.callback(runner.close)
            workers = max(1, runner.threads)
            if not args.quiet:
                print(f"{PROG} bench: {runner.describe()}", file=sys.stderr)
            # --max-memory shared by the cluster's threads; without it each worker gives
            # its threads a share of its own memory limit
            memory = None if args.max_memory is None else max(1 << 20, args.max_memory // workers)
            widths = bench.widths_for(algo, [boards[i] for i in todo])
            runner.warm(algo, widths)  # before any board's clock, as below
        else:
            workers = args.workers if args.workers is not None else 1
            workers = max(1, min(workers or os.cpu_count() or 1, len(todo)))
            total_memory = args.max_memory if args.max_memory is not None else default_memory_bytes()
            memory = max(1 << 20, total_memory // workers)
            if workers == 1:
                core.warm_up(algo, [boards[i] for i in todo])  # compiled before any board's clock starts
                runner = bench.InProcess()
            else:
                core.warm_up(algo, [])  # each worker loads what its boards need
                runner = bench.ProcessPool(workers)
        limits = Limits(time=args.time_limit, memory=memory)

        writer: JournalWriter | None = None
        journaled = set(kept)
        if journal is not None:
            writer = JournalWriter(journal, boards, run_key, kept, foreign)
            stack.callback(writer.close)

        progress = core.Progress(len(todo), "boards", label="bench", enabled=not args.quiet)
        moves_so_far = [0]

        def on_results(first: int, chunk: list[Any]) -> None:
            got = [(first + k, r) for k, r in enumerate(chunk) if r is not None]
            if writer is not None:
                keep = [(i, r) for i, r in got if worth_keeping(r)]
                writer.append(keep)
                journaled.update(i for i, _ in keep)
            moves_so_far[0] += sum(len(r.moves) for _, r in got)
            progress.update(len(got), note=f"{moves_so_far[0]} moves")

        stop = bench.StopFlag()
        with core.SignalGuard(ctx.log) as guard:
            guard.on_stop(stop.set)
            if isinstance(runner, bench.ProcessPool):
                guard.on_abort(runner.terminate)
            t_solve = time.monotonic()
            try:
                solved = bench.solve_boards(boards, algo, limits, runner, todo=todo, on_results=on_results, stop=stop)
            except ColoritError:
                if writer is not None:
                    writer.close()
                    print(
                        f"{journal}: keeps the {len(journaled)} answers finished so far; "
                        "run the same command with --resume to solve the rest",
                        file=sys.stderr,
                    )
                raise
            finally:
                progress.close()
            solve_s = time.monotonic() - t_solve
            results = [kept.get(i, r) for i, r in enumerate(solved)]
            interrupted = guard.requested or any(r is None for r in results)

            wall = time.monotonic() - t0
            summary = bench.summarize(results, wall)
            if scheduler is not None:  # the largest process, the workers' included
                summary["peak_rss_mb"] = max(summary["peak_rss_mb"], runner.peak_rss_mb())
            for rep in reports:
                bench.compare_known(rep, results[rep.first : rep.first + rep.count])
            bench.print_report(summary, reports, results, report_out)
            report_out.flush()

            if args.solutions:
                # a line per board in input order; after an interrupt, the boards up to the first gap
                answers = []
                for r in results:
                    if r is None or r.error:
                        break
                    answers.append(r.moves)
                core.write_output(args.solutions, solutions_text(answers), guard)
                if len(answers) < len(results):
                    print(f"{args.solutions}: wrote the answers of the first {len(answers)} of {len(results)} boards", file=sys.stderr)
            if writer is not None:
                if len(journaled) == len(boards) and not foreign:
                    writer.remove()  # every answer is in the answers file now
                elif len(journaled) == len(boards):
                    writer.close()
                    print(f"{journal}: kept: it also holds {len(foreign)} answers for boards not in this run", file=sys.stderr)
                else:
                    writer.close()
                    missing = [i for i in range(len(boards)) if i not in journaled]
                    print(
                        f"{journal}: keeps {len(journaled)} of {len(boards)} answers; the same command with --resume "
                        f"solves the other {len(missing)} (boards {_ranges(missing)})",
                        file=sys.stderr,
                    )
            if args.json:
                doc = dict(summary)
                doc.update(
                    algo=algo,
                    workers=workers,
                    scheduler=args.scheduler,
                    time_limit_s=args.time_limit,
                    interrupted=interrupted,
                    resumed=len(kept),
                    solved=sum(1 for r in solved if r is not None and not r.error),
                    solve_s=round(solve_s, 3),
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
            if scheduler is not None:
                runner.close()  # under the guard: a late signal ends it the guard's way

    bugs = sum(len(r.bugs) for r in reports)
    if bugs:
        print(f"BUG: {bugs} answer{'s are' if bugs != 1 else ' is'} shorter than a proven optimum", file=sys.stderr)
    if interrupted:
        missing_now = [i for i, r in enumerate(results) if r is None]
        gap = f"; not solved: boards {_ranges(missing_now)}" if missing_now else ""
        print(f"interrupted: {summary['boards']} of {len(boards)} boards solved{gap}", file=sys.stderr)
        return guard.exit_code if guard.requested else core.EXIT_SIGINT
    failed = bugs or any(rep.longer or rep.errors for rep in reports)
    return core.EXIT_FAILED if failed else core.EXIT_OK
