"""``colorit show IN.csv [MOVES.csv]``: see a solve.

Without a moves file the board is solved first (``--algo``, ``--time-limit``). ``-o
x.gif`` writes an animated replay, one frame per move; ``-o x.png`` a sheet of key
frames; without ``-o`` the replay plays in the terminal, in true colour when it is one
(plain characters in a pipe, or with NO_COLOR). The pictures come from
``colorit.render``, imported only here.
"""

from __future__ import annotations

import argparse
import os
import sys

from ..errors import ColoritError, SolutionError
from ..io.files import check_files
from ..log import plural
from ..runtime.signals import EXIT_OK, SignalGuard, write_output
from .context import Context, read_board_and_id
from .options import (
    UsageError,
    add_algo,
    add_labels,
    add_memory,
    add_quiet,
    add_start,
    add_time_limit,
    add_value,
    count_arg,
    pause_arg,
    require_extra,
    solver_name,
)
from .solving import describe, solve_within

KINDS = {".gif": "gif", ".png": "png"}
#: The longest pause between moves of a terminal replay (as ``render.terminal.replay`` allows).
MAX_DELAY = 10.0


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("input", metavar="IN.csv", help="the board ('-': standard input)")
    p.add_argument("moves", metavar="MOVES.csv", nargs="?", default=None, help="an answer to show (default: solve the board first)")
    p.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        default=None,
        help="write solve.gif (animated) or solve.png (key frames) instead of playing in the terminal",
    )
    add_algo(p)
    add_time_limit(p, "seconds for the solve when no moves file is given")
    add_memory(p)
    add_start(p)
    add_labels(p)
    add_value(p, "--delay", pause_arg("--delay", MAX_DELAY), 0.15, "S",
              f"seconds between moves in the terminal, 0 to {MAX_DELAY:g} (default 0.15; 0: as fast as the terminal draws)")
    add_value(p, "--every", count_arg(1, "--every"), None, "K", "PNG: a key frame every K moves (default: about eight frames)")
    add_value(p, "--cell", count_arg(1, "--cell"), None, "PX", "pixels per cell (default: chosen from the board size)")
    add_quiet(p, "no summary line on standard error")


def run(args: argparse.Namespace, ctx: Context) -> int:
    from ..io.csvfile import read_moves_csv

    algo = solver_name(args.algo)  # an unknown name fails before any reading
    kind = None
    if args.output is not None:
        kind = KINDS.get(os.path.splitext(args.output)[1].lower())
        if kind is None:
            raise UsageError(f"{args.output}: -o takes a .gif (animated replay) or .png (key frames) file name")
        require_extra("pictures", "show", "PIL")
    check_files([args.input, args.moves], [args.output])
    board, game_id = read_board_and_id(args.input, start=args.start)
    if args.moves is not None:
        moves = read_moves_csv(args.moves)
        try:
            board.check(moves)
        except SolutionError as e:
            raise ColoritError(f"{args.moves}: invalid: {e}") from None
        what = f"{plural(len(moves), 'move')} from {args.moves}"
        signalled = EXIT_OK
    else:
        with SignalGuard(ctx.log) as guard:
            solution = solve_within(board, algo, args.time_limit, args.max_memory, guard)
        moves = list(solution.moves)
        what = f"{solution.algo}: {describe(solution)}"
        signalled = guard.exit_code
    if kind is None:
        # Ctrl-C during the replay ends it (the terminal is restored first). The cells
        # show the board's ids as its file spells them: a game ID's 0-9, A-Z
        from ..io.gameid import DIGITS
        from ..render.chars import ID_CHARS
        from ..render.terminal import replay, supports_colour

        id_chars = DIGITS if game_id is not None else ID_CHARS
        colour = supports_colour(sys.stdout)
        replay(board, moves, sys.stdout, delay=args.delay, colour=colour, labels=args.labels, id_chars=id_chars)
        sys.stdout.flush()
        return signalled
    from ..render import frames

    if args.labels != "none" and not frames.labels_drawn(board, cell=args.cell, labels=args.labels, sheet=kind == "png"):
        ctx.log.warning(f"cells are too small for labels on a {board.height}x{board.width} board; pass --cell 16 to draw them")
    if kind == "gif":
        data = frames.gif_bytes(board, moves, cell=args.cell, labels=args.labels)
    else:
        data = frames.keyframes_png(board, moves, every=args.every, cell=args.cell, labels=args.labels)
    with SignalGuard(ctx.log) as guard:
        write_output(args.output, data, guard)
    if not args.quiet:
        print(f"colorit show: {what}; wrote {args.output} ({len(data) / 1e6:.2f} MB)", file=sys.stderr, flush=True)
    return signalled
