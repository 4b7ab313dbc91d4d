"""Reading boards and answers from CSV, writing them back.

A board file has one row of the board per line, integer colour ids separated by commas;
an answer file has one colour id per line (the original project's format). A board file
may also hold a game ID of Simon Tatham's Flood instead (``colorit.io.gameid``). Reading is
plain Python, not pandas: a board is small, and importing pandas would cost more than the
whole warm solve. Every problem with a file is a ``BoardFormatError`` or ``OutputError``
whose one-line message names the file, line and column (the value's position in its row),
so the CLI can print it without a traceback.

Files are read and written through ``colorit.io.files``: whole or not at all.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

import numpy as np

from .._kernel import kernel
from ..errors import BoardFormatError
from ..game.board import INT64_MAX, INT64_MIN, START_CORNER, Board, fits_int64, parse_start
from .files import StrPath, display_name, read_bytes, write_text_atomic
from .gameid import GameId, looks_like_game_id, parse_game_id

# ASCII only: int() would also accept "1_000" and non-ASCII digits, which no CSV means.
_INT = re.compile(r"[+-]?[0-9]+", re.ASCII)
_ROW = re.compile(r"[ \t]*[+-]?[0-9]+[ \t]*(?:,[ \t]*[+-]?[0-9]+[ \t]*)*", re.ASCII)


def _read_lines(path: StrPath, what: str) -> list[str]:
    """The file's lines without line ends (LF, CRLF or CR) or a UTF-8 BOM, trailing
    blank lines dropped; ``BoardFormatError`` if it cannot be read or holds nothing."""
    name = display_name(path)
    data = read_bytes(path, what)
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]  # a BOM: positions below count from after it, as the text does
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise BoardFormatError(f"{name}:{line}: not utf-8 text (byte {data[e.start]:#04x})") from None
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    while lines and not lines[-1].strip():
        lines.pop()
    return lines


def _bad_value(name: str, line_no: int, values: list[str]) -> BoardFormatError:
    """The error for the first value of a row that is not a signed 64-bit integer."""
    for col, raw in enumerate(values, start=1):
        value = raw.strip()
        where = f"{name}:{line_no}:{col}"
        if not value:
            return BoardFormatError(f"{where}: empty value")
        if not _INT.fullmatch(value):
            return BoardFormatError(f"{where}: {value!r} is not an integer")
        if not fits_int64(int(value)):
            return BoardFormatError(f"{where}: {value} is beyond the signed 64-bit range")
    return BoardFormatError(f"{name}:{line_no}: cannot read this row")  # pragma: no cover


def parse_board_lines(lines: Sequence[str], name: str = "<board>") -> list[list[int]]:
    """Rows of integers from board lines, checked to be a rectangle of 64-bit values."""
    if not lines:
        raise BoardFormatError(f"{name}: file is empty, expected rows of comma-separated integers")
    rows: list[list[int]] = []
    width = -1
    for line_no, line in enumerate(lines, start=1):
        if not line.strip():
            where = "before" if line_no == 1 else "inside"
            raise BoardFormatError(f"{name}:{line_no}: blank line {where} the board")
        values = line.split(",")
        if not _ROW.fullmatch(line):
            raise _bad_value(name, line_no, values)
        row = [int(v) for v in values]
        if max(row) > INT64_MAX or min(row) < INT64_MIN:
            raise _bad_value(name, line_no, values)
        if width < 0:
            width = len(row)
        elif len(row) != width:
            raise BoardFormatError(
                f"{name}:{line_no}: row has {len(row)} value{'s' if len(row) != 1 else ''}, expected {width}"
            )
        rows.append(row)
    return rows


def parse_board_cells(lines: Sequence[str], name: str = "<board>") -> np.ndarray:
    """``parse_board_lines`` as an int64 array, the way big boards need it: the rows are
    checked by the same pattern, then numpy reads every value at once (a million values
    in tens of milliseconds, against half a second through ``int``). Anything the quick
    way cannot vouch for (a bad row, ragged rows, a value at the edge of the 64-bit
    range, where numpy saturates) goes the careful way, which says what is wrong."""
    width = lines[0].count(",") + 1 if lines else 0
    if lines and all(_ROW.fullmatch(line) and line.count(",") + 1 == width for line in lines):
        cells = np.fromstring(",".join(lines), dtype=np.int64, sep=",")
        if cells.size == width * len(lines) and not np.isin(cells, (INT64_MIN, INT64_MAX)).any():
            return cells.reshape(len(lines), width)
    return np.array(parse_board_lines(lines, name), dtype=np.int64)


def read_board_csv(path: StrPath, start: str | tuple[int, int] = START_CORNER) -> Board:
    """The board in a CSV file (one row per line) or a game ID file (one line).

    ``start`` is a start cell ``(row, col)`` or a spec for ``parse_start``
    (``"top-left"``, ``"center"``, ``"ROW,COL"``).
    """
    return read_board_file(path, start)[0]


def read_board_file(path: StrPath, start: str | tuple[int, int] = START_CORNER) -> tuple[Board, GameId | None]:
    """The board in a file, and the game ID it was written as (``None`` for CSV).

    A file whose first line holds a ``:`` is a game ID of Simon Tatham's Flood
    (``colorit.io.gameid``): one line, blank lines after it allowed.
    """
    name = display_name(path)
    lines = _read_lines(path, "board")
    game_id: GameId | None = None
    if lines and looks_like_game_id(lines[0]):
        for line_no, line in enumerate(lines[1:], start=2):
            if line.strip():
                raise BoardFormatError(f"{name}:{line_no}: a game ID file holds one line, found more")
        game_id = parse_game_id(lines[0], name, line=1)
        cells = game_id.cells
    else:
        cells = parse_board_cells(lines, name)
    if isinstance(start, str):
        start = parse_start(start, cells.shape[0], cells.shape[1])
    return Board(cells, start), game_id


def read_moves_csv(path: StrPath) -> list[int]:
    """The colour ids in an answer file, one per line (an empty file is no moves)."""
    name = display_name(path)
    moves: list[int] = []
    for line_no, line in enumerate(_read_lines(path, "answer"), start=1):
        value = line.strip()
        if not value:
            raise BoardFormatError(f"{name}:{line_no}: blank line inside the answer")
        if "," in value:
            raise BoardFormatError(f"{name}:{line_no}: expected one colour id per line, got {value!r}")
        if not _INT.fullmatch(value):
            raise BoardFormatError(f"{name}:{line_no}: {value!r} is not a colour id (an integer)")
        move = int(value)
        if not fits_int64(move):
            raise BoardFormatError(f"{name}:{line_no}: {value} is beyond the signed 64-bit range")
        moves.append(move)
    return moves


#: Answers of at least this many moves are put into text by a compiled loop (a million
#: lines in 30 ms, against 300 ms through ``str``); shorter ones by Python, which needs no
#: kernel loaded.
COMPILED_TEXT_MOVES = 10_000


@kernel
def _decimal_lines(values, out):  # type: ignore[no-untyped-def]
    """Write each of ``values`` (int64) into ``out`` (uint8, 21 bytes a value) as ASCII
    decimal and a line feed, as ``str`` would; return the bytes written."""
    at = 0
    digits = np.empty(20, dtype=np.uint8)
    for i in range(values.shape[0]):
        v = values[i]
        if v < 0:
            out[at] = 45  # "-"
            at += 1
            magnitude = np.uint64(0) - np.uint64(v)  # modulo 2**64: right for -2**63 too
        else:
            magnitude = np.uint64(v)
        n = 0
        while True:
            digits[n] = np.uint8(48 + magnitude % np.uint64(10))
            n += 1
            magnitude //= np.uint64(10)
            if magnitude == 0:
                break
        while n > 0:
            n -= 1
            out[at] = digits[n]
            at += 1
        out[at] = 10  # "\n"
        at += 1
    return at


def moves_text(moves: Iterable[int]) -> str:
    """An answer file's text: one colour id per line; no moves gives no text."""
    if not isinstance(moves, (Sequence, np.ndarray)):
        moves = list(moves)
    if len(moves) < COMPILED_TEXT_MOVES:
        return "".join(f"{int(m)}\n" for m in moves)
    values = np.fromiter(moves, dtype=np.int64, count=len(moves))
    out = np.empty(21 * values.shape[0], dtype=np.uint8)
    return out[: _decimal_lines(values, out)].tobytes().decode("ascii")


def write_moves_csv(path: StrPath, moves: Iterable[int]) -> None:
    """Write an answer: one colour id per line; no moves gives an empty file."""
    write_text_atomic(path, moves_text(moves))


def write_board_csv(path: StrPath, board: Board) -> None:
    """Write a board: one row per line, ids separated by commas."""
    write_text_atomic(path, str(board) + "\n")
