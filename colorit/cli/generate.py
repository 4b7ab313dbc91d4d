"""``colorit generate --size WxH --colours C [--seed S] [-o FILE]``: a random board.

The same seed, size and colours give the same board here, in the library
(``colorit.generate.random_board``) and on the web page. The seed is always reported:
with ``-o`` in the progress line, to standard output's board on standard error.
"""

from __future__ import annotations

import argparse
import secrets
import sys

from ..csvio import STDIO
from . import core

#: Colour ids are signed 64-bit integers (as ``colorit.generate.MAX_COLOURS``).
MAX_COLOURS = 2**63 - 1
#: numpy takes seeds of any size; a seed is reported and typed back, so keep it to 128 bits.
MAX_SEED = 2**128 - 1


def _size(text: str) -> tuple[int, int]:
    from ..generate import parse_size

    return parse_size(text)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--size", required=True, type=core.arg_type(_size, "--size", "size"), metavar="WxH", help="width x height, e.g. 14x14 or 20x12")
    p.add_argument("--colours", "--colors", type=core.count_arg(1, "--colours", MAX_COLOURS), required=True, metavar="C", help="number of colours")
    p.add_argument("--seed", type=core.count_arg(0, "--seed", MAX_SEED), default=None, metavar="S", help="random seed (default: a new one, reported)")
    p.add_argument("-o", "--output", default=STDIO, metavar="FILE", help="board file to write (default '-': standard output)")
    core.add_quiet(p, "no progress line (the seed of a board sent to standard output is still reported on standard error)")


def run(args: argparse.Namespace, ctx: core.Context) -> int:
    from ..generate import random_board

    width, height = args.size
    core.check_files([], [args.output])
    chosen = args.seed is None
    seed = secrets.randbits(32) if chosen else args.seed
    board = random_board(width, height, args.colours, seed)
    core.write_output(args.output, str(board) + "\n")
    if args.output == STDIO:
        if chosen or not ctx.log.quiet:
            print(f"colorit generate: seed {seed}", file=sys.stderr, flush=True)
    else:
        ctx.log.info(f"wrote a {width}x{height} board with {args.colours} colours (seed {seed}) to {args.output}")
    return core.EXIT_OK
