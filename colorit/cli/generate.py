"""``colorit generate --size WxH --colours C [--seed S] [--format csv|tatham] [-o FILE]``: a random board.

The same seed, size and colours give the same board here, in the library
(``colorit.game.generate.random_board``) and on the web page. The seed is always reported:
with ``-o`` in the progress line, to standard output's board on standard error.

``--format tatham`` writes the board as a game ID of Simon Tatham's Flood,
``WxHcCmK:DESC,LIMIT`` with LIMIT the proven optimum plus K (``--extra``). The optimum
comes from the exact solver within ``--time-limit``; a board it cannot prove in that
time gets the best answer found as LIMIT's base, and a warning that says so (the
warning is printed even with ``-q``: the file alone does not tell).
"""

from __future__ import annotations

import argparse
import secrets
import sys
from typing import TYPE_CHECKING

from ..io.files import STDIO, check_files
from ..log import plural
from ..runtime.signals import EXIT_OK, SignalGuard, write_output
from .context import Context
from .options import UsageError, add_quiet, add_time_limit, arg_type, count_arg
from .solving import solve_within

if TYPE_CHECKING:
    from ..game.board import Board

#: Colour ids are signed 64-bit integers (as ``colorit.game.generate.MAX_COLOURS``).
MAX_COLOURS = 2**63 - 1
#: numpy takes seeds of any size; a seed is reported and typed back, so keep it to 128 bits.
MAX_SEED = 2**128 - 1


def _size(text: str) -> tuple[int, int]:
    from ..game.generate import parse_board_size

    return parse_board_size(text)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--size", required=True, type=arg_type(_size, "--size", "size"), metavar="WxH", help="width x height, e.g. 14x14 or 20x12"
    )
    p.add_argument(
        "--colours", "--colors", type=count_arg(1, "--colours", MAX_COLOURS), required=True, metavar="C", help="number of colours"
    )
    p.add_argument(
        "--seed", type=count_arg(0, "--seed", MAX_SEED), default=None, metavar="S", help="random seed (default: a new one, reported)"
    )
    p.add_argument("-o", "--output", default=STDIO, metavar="FILE", help="board file to write (default '-': standard output)")
    p.add_argument(
        "--format",
        choices=("csv", "tatham"),
        default="csv",
        help="csv (default), or tatham: a game ID of Simon Tatham's Flood, WxHcCmK:DESC,LIMIT with LIMIT the proven optimum + K",
    )
    p.add_argument(
        "--extra",
        type=count_arg(0, "--extra", 10**9),
        default=0,
        metavar="K",
        help="--format tatham: extra moves the limit allows beyond the optimum (default 0)",
    )
    add_time_limit(p, "--format tatham: seconds to prove the optimum the limit counts from")
    add_quiet(p, "no progress line (the seed of a board sent to standard output is still reported on standard error)")


def tatham_id(board: Board, extra: int, limit: float, ctx: Context) -> tuple[str, str]:
    """``board``'s game ID with LIMIT = its optimum + ``extra`` and a note for the
    progress line; the optimum proven by the exact solver within ``limit`` seconds, else
    the best found, with a warning."""
    from ..io.gameid import format_game_id

    with SignalGuard(ctx.log) as guard:
        solution = solve_within(board, "auto", limit, None, guard)
    if guard.requested:
        raise UsageError(f"interrupted by {guard.signal_name} before the optimum was proven; nothing written")
    n = len(solution.moves)
    if solution.proven_optimal:
        note = f"optimum {plural(n, 'move')} (proven), limit {n + extra}"
    else:
        note = f"best found {plural(n, 'move')} (not proven), limit {n + extra}"
        ctx.log.warning(
            f"the optimum was not proven within {limit:g} s: the limit counts from the best answer found, "
            f"{plural(n, 'move')} (lower bound {solution.lower_bound}); a longer --time-limit may prove it"
        )
    return format_game_id(board, n + extra, extra), note


def run(args: argparse.Namespace, ctx: Context) -> int:
    from ..game.generate import random_board

    if args.format == "csv" and args.extra:
        raise UsageError("--extra goes with --format tatham (a CSV board has no move limit)")
    if args.format == "tatham":
        from ..io.gameid import MAX_COLOURS as ID_COLOURS

        # refused before the board is made and solved (format_game_id would refuse it after)
        if args.colours > ID_COLOURS:
            raise UsageError(f"--colours: a game ID names at most {ID_COLOURS} colours (0-9, A-Z), got {args.colours}")

    width, height = args.size
    check_files([], [args.output])
    chosen = args.seed is None
    seed = secrets.randbits(32) if chosen else args.seed
    board = random_board(width, height, args.colours, seed)
    text, note = str(board), ""
    if args.format == "tatham":
        text, note = tatham_id(board, args.extra, args.time_limit, ctx)
        note = f"; game ID {note}"
    write_output(args.output, text + "\n")
    if args.output == STDIO:
        if chosen or not ctx.log.quiet:
            print(f"colorit generate: seed {seed}{note}", file=sys.stderr, flush=True)
    else:
        ctx.log.info(f"wrote a {width}x{height} board with {plural(args.colours, 'colour')} (seed {seed}) to {args.output}{note}")
    return EXIT_OK
