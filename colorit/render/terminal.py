"""The board and its replay in a terminal: true-colour ANSI text, or plain characters.

Colour mode draws two cells per character (``▀``: the upper cell as foreground, the lower
as background), so a 100x100 board takes 100 columns and 50 lines; with labels, each cell
shows its label in ink on the cell's colour, two columns a cell (square, like the
pictures) where the board fits that way, else one. Plain mode (no colour, or output
that is not a terminal) writes one character per cell and no escape sequence at all.
Characters are the board's own colour ids where each fits one, else numbers or symbols,
with a key line from characters to ids (``colorit.render.chars``).

A board wider than ``max_width`` columns (or taller than ``max_height`` lines) is scaled
down, not cropped: every ``s``-th cell of every ``s``-th row is shown, with a note line
saying so. Colours come from ``colorit.palette`` by colour code, as in every picture, and
the positions of a replay from ``colorit.render.replay``.
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
from ..errors import ColoritError
from ..game.board import Board
from ._options import check_labels, seconds
from .chars import ID_CHARS, CellChars, cell_chars
from .replay import Replay

RESET = "\x1b[0m"
HIDE_CURSOR = "\x1b[?25l"
SHOW_CURSOR = "\x1b[?25h"
CLEAR_TO_EOL = "\x1b[K"
DEFAULT_BG = "\x1b[49m"
UPPER_HALF = "▀"
#: Columns a plain key line is wrapped to.
PLAIN_WIDTH = 80


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


def _fg(code: int) -> str:
    return "\x1b[38;2;{};{};{}m".format(*pal.rgb(pal.colour(code)))


def _bg(code: int) -> str:
    return "\x1b[48;2;{};{};{}m".format(*pal.rgb(pal.colour(code)))


def _ink_fg(code: int) -> str:
    return "\x1b[38;2;{};{};{}m".format(*pal.rgb(pal.ink(pal.colour(code))))


def _grid_and_chars(
    board_or_grid: Board | np.ndarray | Sequence[Sequence[int]], labels: str
) -> tuple[np.ndarray, CellChars]:
    """The grid of colour codes to draw and the characters of its colours (a board's
    own ids where they fit; numbers for a grid of codes alone)."""
    if isinstance(board_or_grid, Board):
        return board_or_grid.codes, cell_chars(board_or_grid.palette.tolist(), labels)
    grid = np.asarray(board_or_grid)
    if grid.ndim != 2 or grid.size == 0 or not np.issubdtype(grid.dtype, np.integer):
        raise ColoritError("a board to show must be a Board or a non-empty 2-d grid of colour codes")
    if int(grid.min()) < 0:
        raise ColoritError("colour codes must be 0 or more")
    return grid, cell_chars(None, labels, n_colours=int(grid.max()) + 1)


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
    grid: np.ndarray,
    chars: CellChars,
    *,
    colour: bool,
    labels: str,
    flooded: np.ndarray | None,
    scale: int,
    cell_cols: int = 1,
) -> list[str]:
    """The board as text lines (no newlines), each cell drawn as ``chars`` says."""
    h, w = grid.shape
    if scale > 1:
        grid = grid[::scale, ::scale]
        flooded = None if flooded is None else flooded[::scale, ::scale]
    rows = grid.tolist()
    if not colour:
        out = ["".join(chars[c] for c in row) for row in rows]
    elif labels == "none":
        out = [_half_block_line(rows[r], rows[r + 1] if r + 1 < len(rows) else None) for r in range(0, len(rows), 2)]
    else:
        marks = flooded.tolist() if flooded is not None else None
        out = [_labelled_line(row, chars, marks[r] if marks else None, cell_cols) for r, row in enumerate(rows)]
    if scale > 1:
        out.append(f"(the {w}x{h} board shown at 1/{scale} scale: every {_ordinal(scale)} cell each way)")
    return out


def _half_block_line(top: list[int], bottom: list[int] | None) -> str:
    """Two rows of cells in one line of ``▀``, a colour escape only where colours change."""
    parts: list[str] = []
    prev: tuple[int, int] | None = None
    for c, t in enumerate(top):
        b = bottom[c] if bottom is not None else -1
        if (t, b) != prev:
            parts.append(_fg(t) + (_bg(b) if b >= 0 else DEFAULT_BG))
            prev = (t, b)
        parts.append(UPPER_HALF)
    return "".join(parts) + RESET


def _labelled_line(row: list[int], chars: CellChars, flooded: list[bool] | None, cell_cols: int) -> str:
    """A row of cells, each its character in ink on its colour (a blank in the flood)."""
    pad = " " * (cell_cols - 1)
    parts: list[str] = []
    prev_code = -1
    for c, code in enumerate(row):
        if code != prev_code:
            parts.append(_bg(code) + _ink_fg(code))
            prev_code = code
        in_flood = flooded is not None and flooded[c]
        parts.append((" " if in_flood else chars[code]) + pad)
    return "".join(parts) + RESET


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
    ``labels``); without it, one plain character per cell: a ``Board``'s own ids where
    they fit (``colorit.render.chars``; ``cell_chars`` gives the key), else numbers or
    symbols. ``flooded`` (a boolean grid) marks the flood: with labels in colour its cells
    are drawn without them, as in the replay pictures (the status line names the flood's
    colour); half blocks and plain characters ignore it. A board that does not fit
    ``max_width`` columns / ``max_height`` lines is scaled down, with a note line."""
    labels = check_labels(labels)
    grid, chars = _grid_and_chars(board_or_grid_codes, labels)
    if flooded is not None:
        flooded = np.asarray(flooded, dtype=bool)
        if flooded.shape != grid.shape:
            raise ColoritError(f"flooded must have the board's shape {grid.shape}, got {flooded.shape}")
    scale, cell_cols = _layout(
        grid.shape[0], grid.shape[1], colour=colour, labels=labels, max_width=max_width, max_height=max_height
    )
    lines = _lines(grid, chars, colour=colour, labels=labels, flooded=flooded, scale=scale, cell_cols=cell_cols)
    return "\n".join(lines) + "\n"


def _terminal_size(out: object) -> tuple[int, int]:
    """``(columns, lines)`` of the terminal behind ``out``; 80x24 where it does not say
    (a pipe, or a pseudo-terminal whose size was never set)."""
    try:
        size = os.get_terminal_size(out.fileno())  # type: ignore[attr-defined]
    except (AttributeError, ValueError, OSError, io.UnsupportedOperation):
        size = shutil.get_terminal_size((80, 24))
    return (size.columns if size.columns > 0 else 80), (size.lines if size.lines > 0 else 24)


def _swatch(code: int, chars: CellChars, labels: str) -> str:
    text = f"{chars[code]} " if labels != "none" else "  "
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
    id_chars: str = ID_CHARS,
) -> None:
    """Play ``moves`` (colour ids) on ``board`` to ``out``.

    With ``colour`` (pass ``supports_colour(out)``): the start board and a status line
    ("move k/n", a swatch, "colour ID"), then each move drawn in place after ``delay``
    seconds (cursor up, changed lines rewritten), ending on the last position; the board
    is scaled down to the terminal's size (or ``max_width`` x ``max_height``, a key line
    above it included), and the cursor is shown again even when interrupted. Without
    colour: no escapes and no waiting: the start board, one line per move, the final
    board. Cells show the board's ids where each has a character in ``id_chars``
    (``colorit.render.chars``), else numbers (or what ``labels`` asks for), with a key."""
    if not isinstance(board, Board):
        raise TypeError(f"expected a colorit.Board, got {type(board).__name__}")
    labels = check_labels(labels)
    delay = seconds(delay, "delay", 10.0)
    game = Replay.of(board, moves)
    chars = cell_chars(board.palette.tolist(), labels, id_chars=id_chars)
    if not colour:
        _replay_plain(game, chars, out)
        return
    columns, rows = _terminal_size(out)
    width = max_width if max_width is not None else columns
    height = max_height if max_height is not None else rows - 2  # the status line, the prompt
    key = chars.key_lines(max(1, width), max_lines=max(1, height // 4)) if labels != "none" else []
    if key:
        out.write("\n".join(key) + "\n")
    _replay_in_place(game, chars, out, labels, delay, sleep, width, height - len(key))


def _replay_in_place(
    game: Replay,
    chars: CellChars,
    out: TextIO,
    labels: str,
    delay: float,
    sleep: Callable[[float], object],
    width: int,
    height: int,
) -> None:
    """The colour replay: each position drawn over the one before, changed lines only."""
    board, n = game.board, game.n
    scale, cell_cols = _layout(
        board.height, board.width, colour=True, labels=labels, max_width=width, max_height=height
    )
    previous: list[str] | None = None
    out.write(HIDE_CURSOR)
    try:
        for k in range(n + 1):
            grid, flood, code, ident = game.position(k)
            marks = flood if labels != "none" else None
            lines = _lines(grid, chars, colour=True, labels=labels, flooded=marks, scale=scale, cell_cols=cell_cols)
            tail = "  start" if k == 0 else ("  solved" if k == n and game.solved else "")
            status = _status(k, n, code, ident, tail, _swatch(code, chars, labels), width)
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


def _status(k: int, n: int, code: int, ident: int, tail: str, swatch: str, width: int) -> str:
    """The line under the board, "move k/n  ▇ colour N" (``palette.name``: the number
    its labels show, and its id where that differs), shortened to fit ``width`` columns
    (a wrapped line would throw the in-place redraw off by one)."""
    before, after = f"move {k}/{n}  ", f" {pal.name(code, ident)}{tail}"
    if len(before) + 2 + len(after) > width:
        before, after = f"{k}/{n} ", f" {pal.number(code)}"
    if len(before) + 2 > width:
        return before[: max(1, width)].rstrip() or before[:1]
    return before + swatch + after[: width - len(before) - 2]


def _replay_plain(game: Replay, chars: CellChars, out: TextIO) -> None:
    """The plain replay: the start board (after its key), one line per move, the end."""
    board, n = game.board, game.n
    total = board.height * board.width
    out.write(f"start: {board.height}x{board.width} board, {board.n_colours} colours, {n} moves\n")
    for line in chars.key_lines(PLAIN_WIDTH):
        out.write(line + "\n")
    out.write(_plain_text(board.codes, chars))
    sizes = game.flood_sizes()
    for k in range(1, n + 1):
        code, ident = game.colour(k)
        out.write(f"move {k}/{n}: {_move_name(code, ident, chars)}, flood {sizes[k]} of {total} cells\n")
    out.write(("solved:\n" if game.solved else f"after {n} moves:\n") + _plain_text(game.position(n).grid, chars))
    out.flush()


def _move_name(code: int, ident: int, chars: CellChars) -> str:
    """A move's colour as the plain lines name it: by its id where the cells show ids
    ("id 1 (colour 2)"), else as the status line does ("colour 2 (id 1)"); with the
    character its cells show where that is neither ("..., drawn as a")."""
    number, shown = pal.number(code), chars[code]
    if chars.by_id:
        name = f"id {ident}" + ("" if ident == number else f" (colour {number})")
    else:
        name = pal.name(code, ident)
    return name + ("" if shown in (str(number), str(ident)) else f", drawn as {shown}")


def _plain_text(grid: np.ndarray, chars: CellChars) -> str:
    return "\n".join(_lines(grid, chars, colour=False, labels="none", flooded=None, scale=1)) + "\n"
