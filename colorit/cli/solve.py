"""``colorit solve IN.csv OUT.csv`` (also ``colorit IN.csv OUT.csv``): the original tool.

CSV in, CSV out, timestamped progress lines as the original printed them. The time limit
is counted from the process start and covers writing the answer; Ctrl-C or SIGTERM
writes the best answer found so far (see ``runtime.signals.SignalGuard``). ``-`` reads the board
from standard input or writes the answer to standard output (the progress lines then go
to standard error).
"""

from __future__ import annotations

import argparse
import sys

from .. import __version__
from ..io.csvfile import moves_text
from ..io.files import check_files
from ..log import PROG, Log, plural
from ..machine import default_memory_text
from ..runtime.signals import SignalGuard, write_output
from .context import Context, read_board_and_id
from .options import add_algo, add_memory, add_quiet, add_start, add_time_limit, solver_name
from .solving import describe, limit_beside_par, solve_on_time


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "input",
        metavar="IN.csv",
        help="the board: one row per line, integer colour ids separated by commas, "
        "or a game ID of Simon Tatham's Flood ('-': standard input)",
    )
    p.add_argument("output", metavar="OUT.csv", help="where to write the answer: one colour id per line ('-': standard output)")
    add_algo(p)
    add_time_limit(p, "seconds from the start of the process to the written answer")
    add_memory(p)
    add_start(p)
    add_quiet(p, "no progress lines (errors are still printed)")


def run(args: argparse.Namespace, ctx: Context) -> int:
    """Solve IN, write OUT; 0, or 130/143 when a signal cut the search short."""
    log = ctx.log
    if args.output == "-":
        log = ctx.log = Log(quiet=log.quiet, out=sys.stderr)
    algo = solver_name(args.algo)
    memory = args.max_memory
    limit = args.time_limit
    check_files([args.input], [args.output])
    log.info(
        f"{PROG} {__version__}: solve {args.input} -> {args.output} "
        f"(algo {algo}, time limit {limit:g} s, start {args.start}"
        f", max memory {default_memory_text() if memory is None else f'{memory} bytes'})"
    )
    with SignalGuard(log) as guard:
        log.info(f"reading board {args.input}")
        board, game_id = read_board_and_id(args.input, start=args.start)
        log.info(
            f"board {plural(board.height, 'row')} x {plural(board.width, 'column')}, {plural(board.n_colours, 'colour')}, "
            f"start cell {board.start[0]},{board.start[1]}"
        )
        log.info(f"solving with {algo}, time limit {limit:g} s ({max(0.0, limit - ctx.since_start()):.2f} s left)")

        def improved(n_moves: int, lower_bound: int, elapsed: float) -> None:
            bound = f" (lower bound {lower_bound})" if lower_bound > 0 else ""
            log.info(f"improved: {plural(n_moves, 'move')} after {elapsed:.2f} s{bound}")

        solution = solve_on_time(board, algo, limit, memory, ctx, guard, on_improve=improved)
        log.info(describe(solution))
        if game_id is not None:
            log.info(limit_beside_par(game_id, solution))
        if solution.stopped == "time":
            log.info("the search was stopped by the time limit")
        elif solution.stopped == "memory":
            log.info("the search was stopped by the memory limit (see --max-memory)")
        if guard.requested:
            log.info(f"interrupted by {guard.signal_name}: the answer is the best found so far")
        text = moves_text(solution.moves)
        write_output(args.output, text, guard)
        log.info(f"wrote {plural(len(solution.moves), 'move')} to {args.output}")
        log.info(f"done in {ctx.since_start():.2f} s")
        return guard.exit_code
