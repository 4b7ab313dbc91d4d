"""Reading the community's Flood-It benchmark sets, and writing answers in their alphabet.

Three board formats, told apart by name and content (``detect_format``):

- ``lines``: one board per line, a square of side S written row by row (S*S characters);
  the files are named ``b<S>c<C>n<N>.txt``;
- ``blocks``: each board is a few lines of characters, boards separated by blank lines
  (``floodtest_b19c6n1000_center.txt``);
- ``csv``: one Color-It board per file, rows of comma-separated integer ids.

In the two text formats each character is a colour: ``1``..``9`` then ``a``..``z``, read
as the colour ids 1..35, so an answer's colour id k is written back as the k-th character
of ``ALPHABET``. ``*.opt`` and ``*.best`` files hold one move count per line (optimal and
best known lengths). A set's own start cell is the centre when its name says ``_center``
(the floodtest set), the top-left corner otherwise.

The text formats are parsed as whole files through a byte lookup table, so reading 1,000
boards costs little more than building the 1,000 ``Board`` objects.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..errors import BoardFormatError, ColoritError
from ..game.board import START_CORNER, Board, palettes_and_codes, parse_start
from .files import StrPath, read_bytes

#: The dataset alphabet: the character of colour id k is ``ALPHABET[k - 1]``.
ALPHABET = "123456789abcdefghijklmnopqrstuvwxyz"

FORMATS = ("lines", "blocks", "csv")
LENGTH_SUFFIXES = (".opt", ".best")

_LUT = np.full(256, -1, dtype=np.int64)
for _i, _ch in enumerate(ALPHABET):
    _LUT[ord(_ch)] = _i + 1
_CHAR_OF = {i + 1: ch for i, ch in enumerate(ALPHABET)}
_ID_OF = {ch: i + 1 for i, ch in enumerate(ALPHABET)}

# b<S>c<C>n<N> in a set's name: side, colours and board count
_NAME_SHAPE = re.compile(r"(?:^|_)b(\d+)c(\d+)n(\d+)(?:_|$)")
_SPACE = b" \t\r\f\v"


@dataclass(frozen=True)
class BoardSet:
    """The boards of one file, with how they were read."""

    path: Path
    format: str  #: one of ``FORMATS``
    boards: list[Board]

    @property
    def name(self) -> str:
        return self.path.name

    def __len__(self) -> int:
        return len(self.boards)


# -- names -------------------------------------------------------------------------


def name_shape(path: StrPath) -> tuple[int, int, int] | None:
    """``(side, colours, boards)`` announced by a ``b<S>c<C>n<N>`` file name, if any."""
    m = _NAME_SHAPE.search(Path(path).stem.lower())
    return (int(m.group(1)), int(m.group(2)), int(m.group(3))) if m else None


def default_start(path: StrPath) -> str:
    """The start cell a set is played from: its name says ``_center`` for the floodtest
    set (the centre cell); every other set starts in the top-left corner."""
    stem = Path(path).stem.lower()
    return "center" if ("_center" in stem or "_centre" in stem) else "top-left"


def known_lengths_path(board_path: StrPath) -> Path | None:
    """The ``.opt`` (else ``.best``) file beside a board file, if there is one."""
    p = Path(board_path)
    for suffix in LENGTH_SUFFIXES:
        candidate = p.with_suffix(suffix)
        if candidate.is_file():
            return candidate
    return None


def lengths_are_proven(path: StrPath) -> bool:
    """Whether a lengths file holds proven optima: ``.best`` files hold best known
    lengths only; any other name (``.opt``) is taken as optimal."""
    return Path(path).suffix.lower() != ".best"


# -- reading -----------------------------------------------------------------------


def _split_lines(data: bytes) -> list[bytes]:
    """Lines without line ends or trailing spaces; a UTF-8 BOM and trailing blank lines
    are dropped."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    lines = [line.rstrip(_SPACE) for line in data.split(b"\n")]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def detect_format(path: StrPath, data: bytes | None = None) -> str:
    """``lines``, ``blocks``, ``csv`` or ``lengths`` for a file, from its name and content.

    A ``.csv`` name or a comma in the first line means CSV (a ``:``, a game ID, is read
    by the same reader); ``.opt``/``.best`` means
    lengths. Otherwise blank lines between boards mean blocks; lines of one length that
    is the square of the side a ``b<S>`` name announces (or, without such a name, of any
    side above 1) mean one board per line; a single group of lines is one block.
    """
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix in LENGTH_SUFFIXES:
        return "lengths"
    if suffix == ".csv":
        return "csv"
    if data is None:
        data = read_bytes(path)
    lines = _split_lines(data)
    first = next((line for line in lines if line), b"")
    if not first:
        raise BoardFormatError(f"{os.fspath(path)}: file is empty, expected boards")
    if b"," in first or b":" in first:
        return "csv"
    start = next(i for i, line in enumerate(lines) if line)
    width = len(first)
    shape = name_shape(p)
    blank_between = any(not line for line in lines[start:])
    body = [line for line in lines[start:] if line]
    # lines of several lengths, each a square: boards of several sizes, one per line
    if (not blank_between and len({len(line) for line in body}) > 1
            and all(math.isqrt(len(line)) ** 2 == len(line) for line in body)):
        return "lines"
    if shape is not None and shape[0] > 1:
        # the name decides; a line that fits neither is reported as a bad line of boards
        if width == shape[0] * shape[0]:
            return "lines"
        return "blocks" if width == shape[0] or blank_between else "lines"
    if blank_between:
        return "blocks"
    side = math.isqrt(width)
    # a single square block has as many lines as characters per line
    if side > 1 and side * side == width and len(lines) - start != width:
        return "lines"
    return "blocks"


def _colour_error(name: str, line_no: int, col: int, byte: int) -> BoardFormatError:
    ch = chr(byte)
    shown = repr(ch) if ch.isprintable() and byte < 128 else f"byte {byte:#04x}"
    return BoardFormatError(f"{name}:{line_no}:{col}: {shown} is not a colour (colours are 1-9 then a-z)")


def _check_chars(name: str, line_no: int, line: bytes) -> None:
    """Raise for the first character of ``line`` that is not a colour (used before a
    length error, whose real cause is often a foreign character)."""
    bad = np.flatnonzero(_LUT[np.frombuffer(line, dtype=np.uint8)] < 0)
    if bad.size:
        raise _colour_error(name, line_no, int(bad[0]) + 1, line[int(bad[0])])


def _decode(name: str, rows: Sequence[bytes], row_line: Sequence[int], width: int) -> np.ndarray:
    """The colour ids of equally long ``rows`` as an (len(rows), width) int64 array;
    ``row_line[i]`` is the file line of ``rows[i]``, for errors."""
    ids = _LUT[np.frombuffer(b"".join(rows), dtype=np.uint8)]
    bad = np.flatnonzero(ids < 0)
    if bad.size:
        i = int(bad[0])
        r, c = divmod(i, width)
        raise _colour_error(name, row_line[r], c + 1, rows[r][c])
    return ids.reshape(len(rows), width)


def _check_colours(name: str, grids: np.ndarray, colours: int | None, first_line: int, lines_per_board: int) -> None:
    """Every id within the ``c<C>`` of the set's name (when it has one)."""
    if colours is None or colours >= len(ALPHABET) or grids.size == 0:
        return
    over = np.flatnonzero(grids.reshape(grids.shape[0], -1).max(axis=1) > colours)
    if over.size:
        b = int(over[0])
        flat = grids[b].ravel()
        i = int(np.flatnonzero(flat > colours)[0])
        r, c = divmod(i, grids.shape[2])
        line = first_line + b * lines_per_board + (r if lines_per_board > 1 else 0)
        col = c + 1 if lines_per_board > 1 else i + 1
        raise BoardFormatError(
            f"{name}:{line}:{col}: colour {ALPHABET[int(flat[i]) - 1]!r} is beyond the {colours} colours the file name announces"
        )


def _boards(runs: Iterable[np.ndarray], start: str | tuple[int, int] | None, path: StrPath) -> list[Board]:
    """Boards from runs of grids of one size ((N, H, W) arrays of the alphabet's ids),
    each with its start cell (a spec is resolved per board size). A run's palettes and
    codes are worked out at once (``board.palettes_and_codes``); a start cell given as
    a pair is checked by ``Board`` on the run's first board."""
    spec = default_start(path) if start is None else start
    boards: list[Board] = []
    for run in runs:
        if not len(run):
            continue
        cells = np.asarray(run, dtype=np.int64)  # (the readers made it: the boards' own, never written)
        cell = parse_start(spec, *cells.shape[1:]) if isinstance(spec, str) else Board(cells[0], spec).start
        palettes, codes = palettes_and_codes(cells)
        boards.extend(Board._from_parts(cells[i], cell, palettes[i], codes[i]) for i in range(len(cells)))
    return boards


def _read_lines_format(
    name: str, lines: list[bytes], shape: tuple[int, int, int] | None, limit: int | None
) -> list[np.ndarray]:
    """One square board per line, as runs of boards of one size ((N, S, S) arrays). A
    ``b<S>`` name fixes every side to S; without one, each line's side comes from its
    length, so a file may mix sizes (the community's collections put 12x12 to 20x20
    boards in one file)."""
    start = next(i for i, line in enumerate(lines) if line)
    width = len(lines[start])
    if shape is not None and width != shape[0] * shape[0]:
        _check_chars(name, start + 1, lines[start])
        raise BoardFormatError(
            f"{name}:{start + 1}: line has {width} characters, expected {shape[0] * shape[0]} "
            f"(one {shape[0]}x{shape[0]} board per line)"
        )
    body = lines[start:] if limit is None else lines[start : start + limit]
    # runs of lines of one length are decoded together (most files hold one size)
    runs: list[np.ndarray] = []
    first = 0
    while first < len(body):
        length = len(body[first])
        side = math.isqrt(length)
        line_no = start + first + 1
        if not body[first]:
            raise BoardFormatError(f"{name}:{line_no}: blank line between boards (one board per line)")
        if side * side != length:
            _check_chars(name, line_no, body[first])
            if first > 0:
                before = len(body[first - 1])
                raise BoardFormatError(
                    f"{name}:{line_no}: line has {length} characters, expected {before} or another square "
                    f"number (one square board per line)"
                )
            raise BoardFormatError(f"{name}:{line_no}: line has {length} characters, not a square board (side x side)")
        end = first
        while end < len(body) and len(body[end]) == length:
            end += 1
        if shape is not None and end < len(body):
            bad = body[end]
            _check_chars(name, start + end + 1, bad)
            what = "blank line" if not bad else f"line has {len(bad)} characters"
            raise BoardFormatError(f"{name}:{start + end + 1}: {what}, expected {length} (one {side}x{side} board per line)")
        run = _decode(name, body[first:end], range(line_no, start + end + 1), length).reshape(-1, side, side)
        _check_colours(name, run, shape[1] if shape else None, line_no, 1)
        runs.append(run)
        first = end
    return runs


def _read_blocks_format(
    name: str, lines: list[bytes], shape: tuple[int, int, int] | None, limit: int | None
) -> list[np.ndarray]:
    """Boards of rows separated by blank lines, as runs of consecutive boards of one
    size ((N, H, W) arrays)."""
    groups: list[tuple[int, list[bytes]]] = []  # (first line number, rows)
    current: list[bytes] = []
    first = 0
    for i, line in enumerate(lines):
        if line:
            if not current:
                if limit is not None and len(groups) >= limit:
                    break
                first = i + 1
            current.append(line)
        elif current:
            groups.append((first, current))
            current = []
    if current and (limit is None or len(groups) < limit):
        groups.append((first, current))
    if not groups:
        raise BoardFormatError(f"{name}: file is empty, expected boards")
    out: list[list[np.ndarray]] = []  # runs of boards of one size
    for first, rows in groups:
        width = len(rows[0])
        for k, row in enumerate(rows):
            if len(row) != width:
                _check_chars(name, first + k, row)
                raise BoardFormatError(f"{name}:{first + k}: row has {len(row)} characters, expected {width} like the board's first row")
        if shape is not None and (len(rows) != shape[0] or width != shape[0]):
            raise BoardFormatError(
                f"{name}:{first}: board is {len(rows)}x{width}, expected {shape[0]}x{shape[0]} as the file name announces"
            )
        grid = _decode(name, rows, range(first, first + len(rows)), width)
        _check_colours(name, grid[None], shape[1] if shape else None, first, len(rows))
        if out and out[-1][-1].shape == grid.shape:
            out[-1].append(grid)
        else:
            out.append([grid])
    return [np.stack(run) for run in out]


def read_board_set(
    path: StrPath, start: str | tuple[int, int] | None = None, limit: int | None = None
) -> BoardSet:
    """The boards in ``path`` (any of ``FORMATS``), the first ``limit`` of them if given.

    ``start`` is ``None`` for the set's own start cell (``default_start``), a spec for
    ``parse_start`` (``top-left``, ``center``, ``ROW,COL``; ``center`` is resolved per
    board size) or a ``(row, col)`` cell. Bad input raises a one-line
    ``BoardFormatError`` naming the file, line and column.
    """
    name = os.fspath(path)
    if limit is not None and limit < 0:
        raise ColoritError(f"limit must be 0 or more, got {limit}")
    suffix = Path(path).suffix.lower()
    if suffix in LENGTH_SUFFIXES:
        raise BoardFormatError(f"{name}: is a lengths file (one move count per line), not boards")
    data = None if suffix == ".csv" else read_bytes(path)
    if data is not None and b"\0" in data[:4096]:
        raise BoardFormatError(f"{name}: binary data, not a board file")
    fmt = "csv" if data is None else detect_format(path, data)
    if fmt == "csv":
        from .csvfile import read_board_csv  # the project's one CSV reader

        spec = default_start(path) if start is None else start
        return BoardSet(Path(path), "csv", [read_board_csv(path, start=spec)] if limit != 0 else [])
    assert data is not None
    lines = _split_lines(data)
    shape = name_shape(path)
    if limit == 0:
        return BoardSet(Path(path), fmt, [])
    if fmt == "lines":
        runs = _read_lines_format(name, lines, shape, limit)
    else:
        runs = _read_blocks_format(name, lines, shape, limit)
    return BoardSet(Path(path), fmt, _boards(runs, start, path))


def read_boards(path: StrPath, start: str | tuple[int, int] | None = None, limit: int | None = None) -> list[Board]:
    """The boards in ``path``; see ``read_board_set``."""
    return read_board_set(path, start, limit).boards


def read_lengths(path: StrPath) -> list[int]:
    """The move counts of a ``.opt``/``.best`` file: one whole number per line."""
    name = os.fspath(path)
    lengths: list[int] = []
    for i, line in enumerate(_split_lines(read_bytes(path)), start=1):
        text = line.strip(_SPACE)
        if not text.isdigit() or not text.isascii():
            what = "blank line" if not text else f"{text.decode('utf-8', 'replace')!r} is not a move count"
            raise BoardFormatError(f"{name}:{i}: {what} (expected one whole number per line)")
        lengths.append(int(text))
    if not lengths:
        raise BoardFormatError(f"{name}: file is empty, expected one move count per line")
    return lengths


# -- the alphabet --------------------------------------------------------------------


def alphabet_fits(colour_ids: Iterable[int]) -> bool:
    """Whether every id has a character (1..35)."""
    return all(int(c) in _CHAR_OF for c in colour_ids)


def encode_moves(moves: Iterable[int]) -> str:
    """Moves (colour ids) as dataset characters: id k is ``ALPHABET[k - 1]``."""
    try:
        return "".join(_CHAR_OF[int(m)] for m in moves)
    except KeyError as e:
        raise ColoritError(f"colour id {e.args[0]} has no character in the dataset alphabet (ids 1-35: 1-9, a-z)") from None


def decode_moves(text: str) -> list[int]:
    """Colour ids from dataset characters, the inverse of ``encode_moves``."""
    try:
        return [_ID_OF[ch] for ch in text.strip()]
    except KeyError as e:
        raise BoardFormatError(f"{e.args[0]!r} is not a colour (colours are 1-9 then a-z)") from None


def solutions_text(answers: Sequence[Sequence[int]]) -> str:
    """One line per answer, in the dataset alphabet when every colour id has a
    character, else as comma-separated ids (CSV boards may use ids like 0)."""
    if all(alphabet_fits(a) for a in answers):
        return "".join(encode_moves(a) + "\n" for a in answers)
    return "".join(",".join(str(int(m)) for m in a) + "\n" for a in answers)


__all__ = [
    "ALPHABET",
    "FORMATS",
    "START_CORNER",
    "BoardSet",
    "alphabet_fits",
    "decode_moves",
    "default_start",
    "detect_format",
    "encode_moves",
    "known_lengths_path",
    "lengths_are_proven",
    "name_shape",
    "read_board_set",
    "read_boards",
    "read_lengths",
    "solutions_text",
]
