"""``colorit check IN.csv ANSWER.csv``: replay an answer on its board, cell by cell.

Prints ``valid: N moves`` (exit 0) or ``invalid: why`` (exit 1); either file may be ``-``
(standard input), not both.
"""

from __future__ import annotations

import argparse

from ..errors import SolutionError
from ..io.files import check_files
from ..log import plural
from ..runtime.signals import EXIT_FAILED, EXIT_OK
from .context import Context, read_board
from .options import add_quiet, add_start


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("input", metavar="IN.csv", help="the board ('-': standard input)")
    p.add_argument("answer", metavar="ANSWER.csv", help="the answer: one colour id per line ('-': standard input)")
    add_start(p)
    add_quiet(p, "accepted for symmetry with solve; check prints only its verdict")


def run(args: argparse.Namespace, ctx: Context) -> int:
    from ..io.csvfile import read_moves_csv

    check_files([args.input, args.answer], [])
    board = read_board(args.input, start=args.start)
    moves = read_moves_csv(args.answer)
    try:
        board.check(moves)
    except SolutionError as e:
        print(f"invalid: {e}", flush=True)
        return EXIT_FAILED
    print(f"valid: {plural(len(moves), 'move')}", flush=True)
    return EXIT_OK
