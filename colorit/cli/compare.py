"""``colorit compare IN.csv``: several algorithms on one board, side by side.

Each algorithm gets the same time limit; ``saving_*`` are measured against ``linear``, the
original project's basic AI, which runs as the baseline even when not listed. Every
solver's kernels are loaded before the clocks start, so ``time_s`` is the search.
``--plot`` draws the table as a chart.
"""

from __future__ import annotations

import argparse
import sys

from ..io.files import check_files
from ..log import Progress, plural
from ..runtime.signals import SignalGuard, write_output
from .context import Context, read_board
from .options import UsageError, add_memory, add_quiet, add_start, add_time_limit, require_extra, solver_name
from .solving import solve_within

BASELINE = "linear"
COLUMNS = ("algorithm", "moves", "time_s", "proven", "saving_moves", "saving_pct")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("input", metavar="IN.csv", help="the board ('-': standard input)")
    p.add_argument("--algos", default=None, metavar="A,B,...", help="algorithms to run (default: all)")
    add_time_limit(p, "seconds per algorithm")
    add_memory(p)
    add_start(p)
    p.add_argument("--csv", action="store_true", help="print CSV instead of a table")
    p.add_argument("--plot", metavar="PNG", default=None, help="also draw the table as a bar chart (moves, and time per algorithm)")
    add_quiet(p, "no progress lines on standard error")


def format_table(rows: list[dict[str, object]]) -> str:
    """The rows as aligned text: names to the left, numbers to the right."""
    cells = [list(COLUMNS)] + [["" if r[c] is None else str(r[c]) for c in COLUMNS] for r in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(COLUMNS))]
    return "".join("  ".join(v.rjust(w) for v, w in zip(row, widths)).rstrip() + "\n" for row in cells)


def format_csv(rows: list[dict[str, object]]) -> str:
    lines = [",".join(COLUMNS)]
    lines += [",".join("" if r[c] is None else str(r[c]) for c in COLUMNS) for r in rows]
    return "\n".join(lines) + "\n"


def run(args: argparse.Namespace, ctx: Context) -> int:
    from ..solvers import Solution, solver_names

    names = [n.strip() for n in args.algos.split(",") if n.strip()] if args.algos else solver_names()
    if not names:
        raise UsageError("--algos names no algorithm")
    algos = list(dict.fromkeys(solver_name(n, "--algos") for n in names))
    check_files([args.input], [args.plot])
    if args.plot:
        require_extra("pictures", "compare --plot", "matplotlib")
    board = read_board(args.input, start=args.start)
    runs = ([BASELINE] if BASELINE not in algos else []) + algos
    progress = Progress(len(runs), "algorithm", label="compare", enabled=not args.quiet)
    if not args.quiet:
        print(
            f"colorit compare: {', '.join(algos)} on {args.input} ({board.height}x{board.width}, "
            f"{plural(board.n_colours, 'colour')}), {args.time_limit:g} s each",
            file=sys.stderr,
            flush=True,
        )
    from ..runtime.warmup import warm_up

    for algo in runs:
        warm_up(algo, [board])
    results: dict[str, Solution] = {}
    with SignalGuard(ctx.log) as guard:
        for algo in runs:
            if guard.requested:
                break
            sol = solve_within(board, algo, args.time_limit, args.max_memory, guard)
            results[algo] = sol
            state = "proven optimal" if sol.proven_optimal else "best found"
            progress.update(1, note=f"{algo}: {plural(len(sol.moves), 'move')} in {sol.elapsed:.2f} s ({state})")
    progress.close()
    baseline = len(results[BASELINE].moves) if BASELINE in results else None
    rows: list[dict[str, object]] = []
    for algo in algos:
        if algo not in results:
            continue
        sol = results[algo]
        saving = None if baseline is None else baseline - len(sol.moves)
        rows.append(
            {
                "algorithm": algo,
                "moves": len(sol.moves),
                "time_s": round(sol.elapsed, 3),
                "proven": bool(sol.proven_optimal),
                "saving_moves": saving,
                "saving_pct": None if saving is None else (round(100.0 * saving / baseline, 1) if baseline else 0.0),
            }
        )
    sys.stdout.write(format_csv(rows) if args.csv else format_table(rows))
    sys.stdout.flush()
    if args.plot:
        from ..render.charts import compare_chart

        lower = max((s.lower_bound for s in results.values()), default=0)
        png = compare_chart(
            rows, lower_bound=lower or None, title=f"{args.input}: {board.height}x{board.width}, {plural(board.n_colours, 'colour')}"
        )
        write_output(args.plot, png, guard)
        if not args.quiet:
            print(f"colorit compare: wrote the chart to {args.plot}", file=sys.stderr, flush=True)
    if guard.requested:
        print(
            f"colorit compare: interrupted by {guard.signal_name}: the table holds the algorithms run so far", file=sys.stderr, flush=True
        )
    return guard.exit_code
