"""The board and its replay in a terminal: true-colour ANSI text, or plain characters.

Colour mode draws two cells per character (``▀``: the upper cell as foreground, the lower
as background), so a 100x100 board takes 100 columns and 50 lines; with labels, each cell
shows its label in ink on the cell's colour, two columns a cell (square, like the
pictures) where the board fits that way, else one. Plain mode (no colour, or output
that is not a terminal) writes one character per cell and no escape sequence at all:
``1``-``9``, then ``a``-``z`` and ``A``-``Z`` by colour code (``?`` past 61 colours), or
the palette's symbol characters with ``labels="symbols"``.

A board wider than ``max_width`` columns (or taller than ``max_height`` lines) is scaled
down, not cropped: every ``s``-th cell of every ``s``-th row is shown, with a note line
saying so. Colours come from ``colorit.palette`` by colour code, as in every picture.
"""

from __future__ import annotations

import io
import math
import os
import shutil
import time
from collections.abc import Callable, Mapping, Sequence
from typing import TextIO

import numpy as np

from .. import palette as pal
from ..game.board import Board
from ..errors import ColoritError
from ._options import check_labels, seconds

RESET = "\x1b[0m"
HIDE_CURSOR = "\x1b[?25l"
SHOW_CURSOR = "\x1b[?25h"
CLEAR_TO_EOL = "\x1b[K"
DEFAULT_BG = "\x1b[49m"
UPPER_HALF = "▀"
#: Plain characters by colour code.
PLAIN_CHARS = "123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def supports_colour(stream: object, *, env: Mapping[str, str] | None = None) -> bool:
    """Whether ``stream`` should get colour: a terminal, ``TERM`` not ``dumb`` and
    ``NO_COLOR`` unset or empty (https://no-color.org)."""
    env = os.environ if env is None else env
    if env.get("NO_COLOR", ""):
        return False
    if env.get("TERM", "") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    if isatty is None:
        return False
    try:
        return bool(isatty())
    except (ValueError, OSError):  # a closed stream
        return False


def plain_char(code: int, labels: str = "none") -> str:
    """The one character that shows colour code ``code`` without colour."""
    if labels == "symbols":
        return pal.label(code, "symbols")
    return PLAIN_CHARS[code] if 0 <= code < len(PLAIN_CHARS) else "?"


def _fg(code: int) -> str:
    return "\x1b[38;2;{};{};{}m".format(*pal.rgb(pal.colour(code)))


def _bg(code: int) -> str:
    return "\x1b[48;2;{};{};{}m".format(*pal.rgb(pal.colour(code)))


def _ink_fg(code: int) -> str:
    return "\x1b[38;2;{};{};{}m".format(*pal.rgb(pal.ink(pal.colour(code))))


def _grid_codes(board_or_grid: Board | np.ndarray | Sequence[Sequence[int]]) -> np.ndarray:
    if isinstance(board_or_grid, Board):
        return board_or_grid.codes
    grid = np.asarray(board_or_grid)
    if grid.ndim != 2 or grid.size == 0 or not np.issubdtype(grid.dtype, np.integer):
        raise ColoritError("a board to show must be a Board or a non-empty 2-d grid of colour codes")
    if int(grid.min()) < 0:
        raise ColoritError("colour codes must be 0 or more")
    return grid


def _scale(
    height: int, width: int, *, half_blocks: bool, max_width: int | None, max_height: int | None, cell_cols: int = 1
) -> int:
    """The smallest step ``s`` (every ``s``-th cell) that fits the board in the limits;
    a note line is counted when ``s > 1``."""
    s = 1
    while True:
        cols = math.ceil(width / s) * cell_cols
        rows = math.ceil(height / s)
        lines = math.ceil(rows / 2) if half_blocks else rows
        if s > 1:
            lines += 1
        fits_w = max_width is None or cols <= max(1, max_width)
        fits_h = max_height is None or lines <= max(2, max_height)
        if (fits_w and fits_h) or (math.ceil(width / s) == 1 and rows == 1):
            return s
        s += 1


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _layout(
    height: int, width: int, *, colour: bool, labels: str, max_width: int | None, max_height: int | None
) -> tuple[int, int]:
    """``(scale, cell_cols)``: labelled cells in colour take two columns (a square cell)
    where the board fits that way, else one; then the board is scaled down to fit."""
    half = colour and labels == "none"
    two_columns = _scale(height, width, half_blocks=False, max_width=max_width, max_height=max_height, cell_cols=2)
    if colour and labels != "none" and two_columns == 1:
        return 1, 2
    return _scale(height, width, half_blocks=half, max_width=max_width, max_height=max_height), 1


def _lines(
    grid: np.ndarray, *, colour: bool, labels: str, flooded: np.ndarray | None, scale: int, cell_cols: int = 1
) -> list[str]:
    """The board as text lines (no newlines)."""
    h, w = grid.shape
    if scale > 1:
        grid = grid[::scale, ::scale]
        flooded = None if flooded is None else flooded[::scale, ::scale]
    rows = grid.tolist()
    out: list[str] = []
    if not colour:
        chars = {c: plain_char(c, labels) for c in set(grid.ravel().tolist())}
        out = ["".join(chars[c] for c in row) for row in rows]
    elif labels == "none":
        for r in range(0, len(rows), 2):
            top = rows[r]
            bottom = rows[r + 1] if r + 1 < len(rows) else None
            parts: list[str] = []
            prev: tuple[int, int] | None = None
            for c, t in enumerate(top):
                b = bottom[c] if bottom is not None else -1
                if (t, b) != prev:
                    parts.append(_fg(t) + (_bg(b) if b >= 0 else DEFAULT_BG))
                    prev = (t, b)
                parts.append(UPPER_HALF)
            out.append("".join(parts) + RESET)
    else:
        marks = flooded.tolist() if flooded is not None else None
        pad = " " * (cell_cols - 1)
        for r, row in enumerate(rows):
            parts = []
            prev_code = -1
            for c, code in enumerate(row):
                if code != prev_code:
                    parts.append(_bg(code) + _ink_fg(code))
                    prev_code = code
                in_flood = marks is not None and marks[r][c]
                parts.append((" " if in_flood else plain_char(code, labels)) + pad)
            out.append("".join(parts) + RESET)
    if scale > 1:
        out.append(f"(the {w}x{h} board shown at 1/{scale} scale: every {_ordinal(scale)} cell each way)")
    return out


def board_text(
    board_or_grid_codes: Board | np.ndarray | Sequence[Sequence[int]],
    *,
    colour: bool,
    labels: str = "none",
    flooded: np.ndarray | None = None,
    max_width: int | None = None,
    max_height: int | None = None,
) -> str:
    """The board (a ``Board``, or a grid of colour codes) as text ending in a newline.

    ``colour``: true-colour escapes (half blocks, or one labelled cell per character with
    ``labels``); without it, one plain character per cell. ``flooded`` (a boolean grid)
    marks the flood: with labels in colour its cells are drawn without them, as in the
    replay pictures (the status line names the flood's colour); half blocks and plain
    characters ignore it. A board that does not fit ``max_width`` columns /
    ``max_height`` lines is scaled down, with a note line."""
    labels = check_labels(labels)
    grid = _grid_codes(board_or_grid_codes)
    if flooded is not None:
        flooded = np.asarray(flooded, dtype=bool)
        if flooded.shape != grid.shape:
            raise ColoritError(f"flooded must have the board's shape {grid.shape}, got {flooded.shape}")
    scale, cell_cols = _layout(
        grid.shape[0], grid.shape[1], colour=colour, labels=labels, max_width=max_width, max_height=max_height
    )
    lines = _lines(grid, colour=colour, labels=labels, flooded=flooded, scale=scale, cell_cols=cell_cols)
    return "\n".join(lines) + "\n"


def _terminal_size(out: object) -> tuple[int, int]:
    """``(columns, lines)`` of the terminal behind ``out``; 80x24 where it does not say
    (a pipe, or a pseudo-terminal whose size was never set)."""
    try:
        size = os.get_terminal_size(out.fileno())  # type: ignore[attr-defined]
    except (AttributeError, ValueError, OSError, io.UnsupportedOperation):
        size = shutil.get_terminal_size((80, 24))
    return (size.columns if size.columns > 0 else 80), (size.lines if size.lines > 0 else 24)


def _swatch(code: int, labels: str) -> str:
    text = f"{plain_char(code, labels)} " if labels != "none" else "  "
    return _bg(code) + _ink_fg(code) + text + RESET


def replay(
    board: Board,
    moves: Sequence[int],
    out: TextIO,
    *,
    delay: float = 0.15,
    colour: bool = True,
    labels: str = "none",
    sleep: Callable[[float], object] = time.sleep,
    max_width: int | None = None,
    max_height: int | None = None,
) -> None:
    """Play ``moves`` (colour ids) on ``board`` to ``out``.

    With ``colour`` (pass ``supports_colour(out)``): the start board and a status line
    ("move k/n", a swatch, "colour ID"), then each move drawn in place after ``delay``
    seconds (cursor up, changed lines rewritten), ending on the last position; the board
    is scaled down to the terminal's size (or ``max_width`` x ``max_height``), and the
    cursor is shown again even when interrupted. Without colour: no escapes and no
    waiting: the start board, one line per move, the final board."""
    if not isinstance(board, Board):
        raise TypeError(f"expected a colorit.Board, got {type(board).__name__}")
    labels = check_labels(labels)
    delay = seconds(delay, "delay", 10.0)
    move_ids = [int(m) for m in moves]
    move_codes = [int(c) for c in board.codes_of(move_ids)]
    steps = board.flood_steps(move_ids)
    n = len(move_ids)
    codes = board.codes
    start_code = int(codes[board.start])
    total = board.height * board.width

    def position(k: int) -> tuple[np.ndarray, np.ndarray, int]:
        flood = (steps >= 0) & (steps <= k)
        code = start_code if k == 0 else move_codes[k - 1]
        return (codes if k == 0 else np.where(flood, code, codes)), flood, code

    solved_at_end = bool(position(n)[1].all()) or board.n_colours == 1
    if not colour:
        _replay_plain(board, move_ids, move_codes, out, labels, position, total, solved_at_end)
        return

    columns, rows = _terminal_size(out)
    width = max_width if max_width is not None else columns
    height = max_height if max_height is not None else rows - 2  # the status line, the prompt
    scale, cell_cols = _layout(
        board.height, board.width, colour=True, labels=labels, max_width=width, max_height=height
    )
    previous: list[str] | None = None
    out.write(HIDE_CURSOR)
    try:
        for k in range(n + 1):
            grid, flood, code = position(k)
            marks = flood if labels != "none" else None
            lines = _lines(grid, colour=True, labels=labels, flooded=marks, scale=scale, cell_cols=cell_cols)
            ident = int(board.cells[board.start]) if k == 0 else move_ids[k - 1]
            tail = "  start" if k == 0 else ("  solved" if k == n and solved_at_end else "")
            status = _status(k, n, code, ident, tail, labels, width)
            if previous is None:
                out.write("\n".join(lines) + "\n" + status + CLEAR_TO_EOL + "\n")
            else:
                sleep(delay)
                parts = [f"\r\x1b[{len(lines) + 1}A"]
                for new, old in zip(lines, previous):
                    parts.append((new + CLEAR_TO_EOL if new != old else "") + "\n")
                parts.append(status + CLEAR_TO_EOL + "\n")
                out.write("".join(parts))
            out.flush()
            previous = lines
    finally:
        out.write(RESET + SHOW_CURSOR)
        out.flush()


def _status(k: int, n: int, code: int, ident: int, tail: str, labels: str, width: int) -> str:
    """The line under the board, "move k/n  ▇ colour N" (``palette.name``: the number
    its labels show, and its id where that differs), shortened to fit ``width`` columns
    (a wrapped line would throw the in-place redraw off by one)."""
    before, after = f"move {k}/{n}  ", f" {pal.name(code, ident)}{tail}"
    if len(before) + 2 + len(after) > width:
        before, after = f"{k}/{n} ", f" {pal.number(code)}"
    if len(before) + 2 > width:
        return before[: max(1, width)].rstrip() or before[:1]
    return before + _swatch(code, labels) + after[: width - len(before) - 2]


def _replay_plain(
    board: Board,
    move_ids: list[int],
    move_codes: list[int],
    out: TextIO,
    labels: str,
    position: Callable[[int], tuple[np.ndarray, np.ndarray, int]],
    total: int,
    solved_at_end: bool,
) -> None:
    n = len(move_ids)
    out.write(f"start: {board.height}x{board.width} board, {board.n_colours} colours, {n} moves\n")
    out.write(board_text(board.codes, colour=False, labels=labels))
    for k in range(1, n + 1):
        _, flood, _ = position(k)
        shown = plain_char(move_codes[k - 1], labels)
        number = pal.number(move_codes[k - 1])
        name = pal.name(move_codes[k - 1], move_ids[k - 1]) + (f", drawn as {shown}" if shown != str(number) else "")
        out.write(f"move {k}/{n}: {name}, flood {int(flood.sum())} of {total} cells\n")
    grid, _, _ = position(n)
    out.write(("solved:\n" if solved_at_end else f"after {n} moves:\n") + board_text(grid, colour=False, labels=labels))
    out.flush()
