"""The board: a rectangular grid of colour ids, a start cell, and the rules of the game.

Colour ids are kept exactly as the user gave them (any 64-bit integers). Inside, every
colour is a small code (its rank among the board's ids), which is what the solvers use;
the ``Board`` translates between the two. ``replay`` plays moves cell by cell,
independently of the region graph the solvers use, so every answer is checked by code
that shares nothing with the code that found it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from .._kernel import kernel
from ..errors import BoardFormatError, ColoritError, SolutionError
from ..limits import whole_number

START_CORNER = (0, 0)
#: The range of a colour id: a signed 64-bit integer.
INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1


def fits_int64(value: int) -> bool:
    """Whether ``value`` (a whole number) is a signed 64-bit integer, as a colour id must be."""
    return INT64_MIN <= value <= INT64_MAX


def _cells_from_rows(rows: Iterable[Sequence[int]]) -> np.ndarray:
    """Rows of Python integers as an int64 grid, each value checked (no rounding, no
    wrapping), with the row and column of the first bad one."""
    try:
        grid = [list(row) for row in rows]
    except TypeError:
        raise BoardFormatError("a board is a list of rows, each a list of integer colour ids") from None
    if not grid:
        raise BoardFormatError("a board needs at least one row")
    width = len(grid[0])
    if width == 0:
        raise BoardFormatError("row 1 is empty: a board needs at least one column")
    for i, row in enumerate(grid):
        if len(row) != width:
            raise BoardFormatError(f"row {i + 1} has {len(row)} value{'' if len(row) == 1 else 's'}, expected {width}")
        for j, value in enumerate(row):
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
                raise BoardFormatError(f"row {i + 1}, column {j + 1}: {value!r} is not an integer colour id")
            if not fits_int64(int(value)):
                raise BoardFormatError(f"row {i + 1}, column {j + 1}: {value} is beyond the signed 64-bit range")
    return np.array(grid, dtype=np.int64)


def _as_cells(cells: object) -> np.ndarray:
    """The grid as a fresh int64 array, refusing what would be rounded or wrapped
    (1.5, True, 2**64) instead of converting it in silence."""
    if isinstance(cells, np.ndarray) and cells.dtype.kind in "iu":
        grid = cells
    else:
        try:
            grid = np.asarray(cells)
        except (ValueError, TypeError):
            raise BoardFormatError("a board is a rectangular grid of integer colour ids (rows of equal length)") from None
    if grid.ndim != 2 or grid.shape[0] == 0 or grid.shape[1] == 0:
        raise BoardFormatError(f"a board needs at least one row and one column, got shape {grid.shape}")
    kind = grid.dtype.kind
    if kind == "f":
        bad = ~np.isfinite(grid) | (grid != np.round(grid))
        if bad.any():
            r, c = (int(v) for v in np.argwhere(bad)[0])
            raise BoardFormatError(f"row {r + 1}, column {c + 1}: {float(grid[r, c])!r} is not an integer colour id")
    elif kind == "u" and grid.size and int(grid.max()) > INT64_MAX:
        r, c = (int(v) for v in np.argwhere(grid > INT64_MAX)[0])
        raise BoardFormatError(f"row {r + 1}, column {c + 1}: {grid[r, c]} is beyond the signed 64-bit range")
    elif kind == "O":
        return _cells_from_rows(grid.tolist())
    elif kind not in "iu":
        raise BoardFormatError(f"a board holds integer colour ids, got values of type {grid.dtype}")
    if kind == "f" and grid.size and (grid.max() >= 2.0**63 or grid.min() < -(2.0**63)):
        r, c = (int(v) for v in np.argwhere((grid >= 2.0**63) | (grid < -(2.0**63)))[0])
        raise BoardFormatError(f"row {r + 1}, column {c + 1}: {float(grid[r, c])!r} is beyond the signed 64-bit range")
    return np.array(grid, dtype=np.int64, copy=True)


def _start_cell(start: object, height: int, width: int) -> tuple[int, int]:
    """``start`` as a cell ``(row, column)`` of a ``height`` x ``width`` board, checked as
    ``Board`` takes it (any whole numbers, numpy's too)."""
    row: object
    column: object
    try:
        row, column = start  # type: ignore[misc]  # any pair; anything else is the error below
    except (TypeError, ValueError):
        raise BoardFormatError(f"start cell must be (row, column), got {start!r}") from None
    try:
        r, c = whole_number(row, "start row"), whole_number(column, "start column")
    except ColoritError as e:
        raise BoardFormatError(str(e)) from None
    _check_start_inside(r, c, height, width)
    return (r, c)


def _check_start_inside(r: int, c: int, height: int, width: int) -> None:
    """``BoardFormatError`` unless the start cell ``(r, c)`` is on a ``height`` x ``width``
    board."""
    if not (0 <= r < height and 0 <= c < width):
        raise BoardFormatError(
            f"start cell {r},{c} is outside the {height}x{width} board (rows 0..{height - 1}, columns 0..{width - 1})"
        )


def _move_ids(moves: Sequence[int]) -> np.ndarray:
    """Moves given as colour ids, as int64; ``SolutionError`` naming the first that is not
    an integer, or beyond any colour id (``fits_int64``)."""
    for i, m in enumerate(moves):
        if not isinstance(m, (int, np.integer)) or isinstance(m, bool):
            raise SolutionError(f"move {i + 1} is not a colour id: {m!r}")
        if not fits_int64(int(m)):
            raise SolutionError(f"move {i + 1}: colour {m} does not occur on the board")
    return np.array([int(m) for m in moves], dtype=np.int64)


@kernel
def _replay_cells(codes, n_colours, start_r, start_c, moves):  # type: ignore[no-untyped-def]
    """Play ``moves`` (colour codes) on a copy of ``codes``; return the final grid and,
    for each cell, the move that flooded it (0: in the flood from the start, -1: never).

    The cells bordering the flood wait in one list per colour (``head``/``link``), so a
    move takes its colour's list whole and the replay costs time linear in the cells and
    moves, whatever the number of colours (a million-colour board included). Invariant:
    a cell is in at most one list, the one of its own colour, and only while it borders
    the flood without being in it."""
    h, w = codes.shape
    row = w + 2  # cells framed by a border: a flat index reaches four neighbours without tests
    size = (h + 2) * row
    framed = np.full(size, -1, dtype=codes.dtype)
    state = np.full(size, 2, dtype=np.int8)  # 0 outside, 1 waiting in a list, 2 flooded (or the border)
    for r in range(h):
        for c in range(w):
            framed[(r + 1) * row + c + 1] = codes[r, c]
            state[(r + 1) * row + c + 1] = 0
    joined_at = np.full(size, -1, dtype=np.int32)
    head = np.full(n_colours, -1, dtype=np.int64)
    link = np.empty(size, dtype=np.int64)
    stack = np.empty(h * w, dtype=np.int64)
    colour = codes[start_r, start_c]
    sp = 1
    stack[0] = (start_r + 1) * row + start_c + 1
    state[stack[0]] = 2
    joined_at[stack[0]] = 0
    for step in range(-1, moves.shape[0]):
        if step >= 0:
            colour = moves[step]
            cell = head[colour]
            head[colour] = -1
            while cell >= 0:
                state[cell] = 2
                joined_at[cell] = step + 1
                stack[sp] = cell
                sp += 1
                cell = link[cell]
        # spread through the new cells: same colour joins, the rest waits in its list
        while sp > 0:
            sp -= 1
            cell = stack[sp]
            for nb in (cell + 1, cell - 1, cell + row, cell - row):
                if state[nb] != 0:
                    continue
                k = framed[nb]
                if k == colour:
                    state[nb] = 2
                    joined_at[nb] = step + 1
                    stack[sp] = nb
                    sp += 1
                else:
                    state[nb] = 1
                    link[nb] = head[k]
                    head[k] = nb
    grid = codes.copy()
    joined = np.empty((h, w), dtype=np.int32)
    for r in range(h):
        for c in range(w):
            j = joined_at[(r + 1) * row + c + 1]
            joined[r, c] = j
            if j >= 0:
                grid[r, c] = colour
    return grid, joined


@kernel
def _replay_check(codes, n_colours, start_r, start_c, moves):  # type: ignore[no-untyped-def]
    """What checking an answer needs, in one call (every answer is checked before it is
    written or served): the index of the first move that is not a colour code of the
    board (-1 if none; then nothing is played), and the number of colours left after
    playing them all."""
    for i in range(moves.shape[0]):
        if moves[i] < 0 or moves[i] >= n_colours:
            return i, 0
    grid, _ = _replay_cells(codes, n_colours, start_r, start_c, moves)
    seen = np.zeros(n_colours, dtype=np.bool_)
    left = 0
    for r in range(grid.shape[0]):
        for c in range(grid.shape[1]):
            k = grid[r, c]
            if not seen[k]:
                seen[k] = True
                left += 1
    return -1, left


def _palette_and_codes(cells: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The sorted colour ids and each cell's rank among them, as ``np.unique`` gives
    them; by counting instead of sorting where the ids span a range no wider than the
    cell count or 65,536 (every board but a few), which on a million cells takes 20 ms,
    not 300."""
    lo, hi = int(cells.min()), int(cells.max())
    if hi - lo <= max(cells.size, 1 << 16):
        offsets = (cells - lo).astype(np.intp)
        present = np.zeros(hi - lo + 1, dtype=np.bool_)
        present[offsets] = True
        rank = np.cumsum(present, dtype=np.int32) - 1
        return np.flatnonzero(present) + lo, rank[offsets]
    palette, codes = np.unique(cells, return_inverse=True)
    return palette, codes.reshape(cells.shape).astype(np.int32)


def palettes_and_codes(grids: np.ndarray) -> tuple[list[np.ndarray], np.ndarray]:
    """``_palette_and_codes`` of every grid of ``grids`` ((N, H, W) int64, ids from 0 to
    a few hundred, as a board file's alphabet gives them) in a few whole-array steps: a
    set of 1000 boards in about 5 ms instead of 40."""
    n = grids.shape[0]
    flat = grids.reshape(n, -1)
    present = np.zeros((n, int(flat.max(initial=0)) + 1), dtype=np.bool_)
    present[np.arange(n)[:, None], flat] = True
    rank = np.cumsum(present, axis=1, dtype=np.int32) - 1
    codes = np.take_along_axis(rank, flat, axis=1).reshape(grids.shape)
    ids = np.nonzero(present)[1].astype(np.int64)  # row by row: each grid's ids, increasing
    palettes = np.split(ids, np.cumsum(present.sum(axis=1))[:-1])
    return palettes, codes


class _Rules:
    """The rules of the game on a board's cells (``Board``'s): the replay that checks every
    answer plays the moves cell by cell, sharing no code with the region graph the
    solvers play on."""

    if TYPE_CHECKING:  # what the rules read of the board, as ``Board`` has it
        start: tuple[int, int]

        @property
        def palette(self) -> np.ndarray: ...

        @property
        def codes(self) -> np.ndarray: ...

        @property
        def n_colours(self) -> int: ...

        def codes_of(self, moves: Sequence[int]) -> np.ndarray: ...

    def replay(self, moves: Sequence[int]) -> np.ndarray:
        """The grid of colour ids after playing ``moves`` (colour ids)."""
        grid, _ = _replay_cells(self.codes, self.n_colours, self.start[0], self.start[1], self.codes_of(moves))
        return self.palette[grid]  # type: ignore[no-any-return]

    def flood_steps(self, moves: Sequence[int]) -> np.ndarray:
        """For each cell, the move after which it is flooded (0: flooded from the start,
        ``-1``: still outside after the last move); ``moves`` are colour ids.

        One array describes every position of a replay: after move ``k`` the flood is
        ``steps <= k`` (and ``>= 0``), coloured with move ``k``'s colour, and every other
        cell keeps its own. Pictures and the terminal view draw their frames from it."""
        _, joined = _replay_cells(self.codes, self.n_colours, self.start[0], self.start[1], self.codes_of(moves))
        return joined  # type: ignore[no-any-return]

    def check(self, moves: Sequence[int]) -> None:
        """Raise ``SolutionError`` unless ``moves`` (colour ids) leave one colour everywhere."""
        self.check_codes(self.codes_of(moves))

    def check_codes(self, codes: Sequence[int] | np.ndarray) -> None:
        """``check`` for moves given as colour codes (what the solvers answer in)."""
        codes = np.asarray(codes, dtype=np.int32)
        n_colours = self.n_colours
        bad, left = _replay_check(self.codes, n_colours, self.start[0], self.start[1], codes)
        if bad >= 0:
            raise SolutionError(f"move {bad + 1}: colour code {int(codes[bad])} is not one of the board's {n_colours} colours")
        if left != 1:
            raise SolutionError(f"after {len(codes)} moves the board still has {left} colours")


@dataclass(frozen=True, eq=False)
class Board(_Rules):
    """A Color-It board.

    ``cells`` holds the colour ids as given; ``codes`` the same grid as codes
    ``0 .. n_colours - 1`` (the rank of each id in ``palette``). Its answers are checked
    by the rules on its cells (``replay``, ``check``: ``_Rules``).
    """

    cells: np.ndarray
    start: tuple[int, int] = START_CORNER

    def __post_init__(self) -> None:
        cells = _as_cells(self.cells)
        cells.setflags(write=False)
        object.__setattr__(self, "cells", cells)
        object.__setattr__(self, "start", _start_cell(self.start, cells.shape[0], cells.shape[1]))
        palette, codes = _palette_and_codes(cells)
        palette.setflags(write=False)
        codes.setflags(write=False)
        object.__setattr__(self, "_palette", palette)
        object.__setattr__(self, "_codes", codes)

    @classmethod
    def _from_parts(cls, cells: np.ndarray, start: tuple[int, int], palette: np.ndarray, codes: np.ndarray) -> Board:
        """A board from parts its caller has checked as ``__post_init__`` would: ``cells``
        an int64 grid no one writes to, ``start`` a cell of it, ``palette`` and ``codes``
        as ``_palette_and_codes`` gives them (the set readers work them out for a whole
        file at once, ``palettes_and_codes``)."""
        board = object.__new__(cls)
        for name, value in (("cells", cells), ("_palette", palette), ("_codes", codes)):
            value.setflags(write=False)
            object.__setattr__(board, name, value)
        object.__setattr__(board, "start", start)
        return board

    @classmethod
    def from_rows(cls, rows: Iterable[Sequence[int]], start: tuple[int, int] = START_CORNER) -> Board:
        """A board from rows of integers (all rows the same length)."""
        return cls(_cells_from_rows(rows), start)

    def with_start(self, start: tuple[int, int]) -> Board:
        return Board(self.cells, start)

    @property
    def palette(self) -> np.ndarray:
        """The board's colour ids, increasing; a colour's code is its index here."""
        return self._palette  # type: ignore[attr-defined,no-any-return]

    @property
    def codes(self) -> np.ndarray:
        return self._codes  # type: ignore[attr-defined,no-any-return]

    @property
    def height(self) -> int:
        return int(self.cells.shape[0])

    @property
    def width(self) -> int:
        return int(self.cells.shape[1])

    @property
    def n_colours(self) -> int:
        return int(self.palette.shape[0])

    def code_of(self, colour_id: int) -> int:
        """The code of a colour id; ``SolutionError`` if the board has no such colour."""
        i = int(np.searchsorted(self.palette, colour_id))
        if i >= self.palette.shape[0] or int(self.palette[i]) != int(colour_id):
            raise SolutionError(f"colour {colour_id} does not occur on the board")
        return i

    def ids_of(self, codes: Iterable[int]) -> list[int]:
        """Colour ids for a sequence of codes."""
        return self.palette[np.asarray(list(codes) if not isinstance(codes, np.ndarray) else codes, dtype=np.int64)].tolist()  # type: ignore[no-any-return]

    def codes_of(self, moves: Sequence[int]) -> np.ndarray:
        """Codes for colour ids; ``SolutionError`` naming the first move whose colour the
        board does not have."""
        ids = _move_ids(moves)
        codes = np.searchsorted(self.palette, ids)
        ok = (codes < self.palette.shape[0]) & (self.palette[np.minimum(codes, self.palette.shape[0] - 1)] == ids)
        if not ok.all():
            i = int(np.argmin(ok))
            raise SolutionError(f"move {i + 1}: colour {moves[i]} does not occur on the board")
        return codes.astype(np.int32)

    def is_solved(self) -> bool:
        return self.n_colours == 1

    def __repr__(self) -> str:
        rows = ", ".join("[" + ", ".join(str(v) for v in row) + "]" for row in self.cells.tolist())
        start = "" if self.start == START_CORNER else f", start={self.start}"
        return f"Board.from_rows([{rows}]{start})"

    def __str__(self) -> str:
        return "\n".join(",".join(str(v) for v in row) for row in self.cells.tolist())


def parse_start(spec: str, height: int, width: int) -> tuple[int, int]:
    """The start cell named by ``spec``: ``top-left`` (default), ``center``/``centre``
    (``height // 2, width // 2``) or ``ROW,COL`` counted from 0."""
    text = spec.strip().lower()
    if text in ("", "top-left", "topleft", "corner"):
        return START_CORNER
    if text in ("center", "centre", "middle"):
        return (height // 2, width // 2)
    parts = text.split(",")
    if len(parts) != 2:
        raise BoardFormatError(f"start cell {spec!r} is not ROW,COL, 'center' or 'top-left'")
    try:
        r, c = int(parts[0]), int(parts[1])
    except ValueError:
        raise BoardFormatError(f"start cell {spec!r} is not ROW,COL with whole numbers") from None
    _check_start_inside(r, c, height, width)
    return (r, c)

