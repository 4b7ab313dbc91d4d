"""Random boards, reproducible from a seed, for demos, tests and benchmarks.

Each cell's colour is drawn uniformly from ``0 .. colours - 1`` by numpy's default
generator (PCG64), so a seed gives the same board on every machine and numpy version that
keeps ``Generator.integers`` stable.
"""

from __future__ import annotations

import re

import numpy as np

from ..errors import ColoritError
from ..limits import whole_number
from .board import START_CORNER, Board

#: The largest board ``random_board`` makes: beyond this the grid alone takes gigabytes.
MAX_CELLS = 50_000_000
#: Colour ids are signed 64-bit integers.
MAX_COLOURS = 2**63 - 1


def random_board(
    width: int, height: int, colours: int, seed: int | None = None, start: tuple[int, int] = START_CORNER
) -> Board:
    """A ``height`` x ``width`` board of colours ``0 .. colours - 1``, the same for the same seed."""
    width = whole_number(width, "width", 1)
    height = whole_number(height, "height", 1)
    colours = whole_number(colours, "colours", 1)
    if colours > MAX_COLOURS:
        raise ColoritError(f"colours must be at most {MAX_COLOURS:,} (2**63 - 1), got {colours}")
    if seed is not None:
        seed = whole_number(seed, "seed", 0)
    if width * height > MAX_CELLS:
        raise ColoritError(f"a {width}x{height} board has more than {MAX_CELLS:,} cells")
    rng = np.random.default_rng(seed)
    cells = rng.integers(0, colours, size=(height, width), dtype=np.int64)
    return Board(cells, start)


def parse_board_size(spec: str) -> tuple[int, int]:
    """``(width, height)`` from ``WxH`` (e.g. ``20x12``) or ``N`` for a square."""
    m = re.fullmatch(r"\s*(\d+)\s*(?:[xX*]\s*(\d+)\s*)?", spec)
    if not m:
        raise ColoritError(f"size {spec!r} is not WIDTHxHEIGHT (e.g. 14x14) or a single number")
    width = int(m.group(1))
    height = int(m.group(2)) if m.group(2) is not None else width
    if width < 1 or height < 1:
        raise ColoritError(f"size {spec!r} needs a width and height of at least 1")
    if width * height > MAX_CELLS:
        raise ColoritError(f"size {spec!r} makes a board of more than {MAX_CELLS:,} cells")
    return width, height
