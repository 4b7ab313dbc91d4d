"""Game IDs of Simon Tatham's Flood (the puzzle collection): reading and writing them.

That game names a board ``WxH:DESC,LIMIT`` in its "Game ID" dialog and
``WxHcCmK:DESC,LIMIT`` with its parameters (C colours, K extra moves). DESC has one
character per cell in reading order, ``0``-``9`` then ``A``-``Z`` (colours 10 to 35);
LIMIT is that game's move limit (its own solver's moves plus K). The flood starts in the
top-left corner, as there.

Reading keeps each cell's character value as its colour id, so the board's ids are the
ID's colours. Writing uses a board's ids as they are when all of them are 0..35; any
other board is written by colour code, the rank of each id among the board's ids (the
colour's number minus 1, see "Colours and their numbers" in docs/guide.md). A board of
more than 36 colours has no game ID.

Every fault is a ``BoardFormatError`` of one line naming the character column (from 1)
where it is: ``NAME:LINE:COL: message`` for a file, ``NAME: column COL: message`` for a
string. The page's parser (colorit/web/static/tatham.js) gives the same messages.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from ..errors import BoardFormatError, ColoritError
from ..game.board import START_CORNER, Board

#: One character per colour: DESC's alphabet.
DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
MAX_COLOURS = len(DIGITS)
#: The most cells an ID may describe (as ``colorit.game.generate.MAX_CELLS``).
MAX_CELLS = 50_000_000
#: Limits and extra moves past this are not a move count any board needs.
MAX_MOVES = 10**9

_NUMBER = re.compile(r"[0-9]+", re.ASCII)


@dataclass(frozen=True)
class GameId:
    """A parsed game ID: the grid of colour ids (the cells' character values), the
    number of colours and extra moves its parameters give (``None`` in the short form),
    and its move limit."""

    cells: np.ndarray  #: height x width, int64 colour ids 0..35
    colours: int  #: C, or one more than the highest colour in the short form
    extra: int | None  #: K, unknown in the short form
    limit: int

    @property
    def width(self) -> int:
        return int(self.cells.shape[1])

    @property
    def height(self) -> int:
        return int(self.cells.shape[0])

    def board(self, start: tuple[int, int] = START_CORNER) -> Board:
        """The board, started in the top-left corner unless told otherwise."""
        return Board(self.cells, start)

    def describe_limit(self) -> str:
        """``limit 18`` or ``limit 18 (13 + 5 extra)``: what the ID promises a player."""
        if self.extra:
            return f"limit {self.limit} ({self.limit - self.extra} + {self.extra} extra)"
        return f"limit {self.limit}"


def looks_like_game_id(line: str) -> bool:
    """Whether a board file's first line is meant as a game ID (``WxH...:``): CSV boards
    never hold a ``:``, so any line with one is, and a faulty ID gets the ID's message
    rather than a CSV one."""
    return ":" in line


class _Reader:
    """A cursor over one line that names the column of each fault."""

    def __init__(self, text: str, name: str, line: int | None) -> None:
        self.text = text
        self.pos = 0
        self.name = name
        self.line = line

    def fail(self, message: str, pos: int | None = None) -> BoardFormatError:
        col = (self.pos if pos is None else pos) + 1
        where = f"{self.name}:{self.line}:{col}" if self.line is not None else f"{self.name}: column {col}"
        return BoardFormatError(f"{where}: {message}")

    def peek(self) -> str:
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def shown(self) -> str:
        """The character at the cursor as a message shows it."""
        ch = self.peek()
        return "the end of the line" if not ch else repr(ch)

    def number(self, what: str, limit: int) -> int:
        m = _NUMBER.match(self.text, self.pos)
        if not m:
            raise self.fail(f"expected {what} (a whole number), found {self.shown()}")
        digits = m.group().lstrip("0") or "0"  # int() refuses texts of thousands of digits
        if len(digits) > len(str(limit)) or int(digits) > limit:
            raise self.fail(f"{what} {m.group()} is more than {limit}")
        self.pos = m.end()
        return int(digits)

    def expect(self, ch: str, why: str) -> None:
        if self.peek() != ch:
            raise self.fail(f"expected {ch!r} {why}, found {self.shown()}")
        self.pos += 1


def parse_game_id(text: str, name: str = "game ID", line: int | None = None) -> GameId:
    """The board, colours, extra moves and limit of a game ID (either form; spaces
    around it are ignored). ``name`` and ``line`` say where it came from in messages."""
    r = _Reader(text, name, line)
    while r.peek() in (" ", "\t"):
        r.pos += 1
    end = len(text.rstrip(" \t"))
    r.text = text[:end]
    if r.pos >= end:
        raise r.fail("empty game ID, expected WxH:DESC,LIMIT")
    size_at = r.pos
    width = r.number("the width", MAX_CELLS)
    r.expect("x", "between the width and the height (WxH)")
    height = r.number("the height", MAX_CELLS)
    if width < 1 or height < 1:
        raise r.fail(f"a {width}x{height} board has no cells", size_at)
    if width * height > MAX_CELLS:
        raise r.fail(f"a {width}x{height} board has more than {MAX_CELLS:,} cells", size_at)
    colours: int | None = None
    extra: int | None = None
    if r.peek() == "c":
        r.pos += 1
        at = r.pos
        colours = r.number("the number of colours", MAX_CELLS)
        if colours > MAX_COLOURS:
            raise r.fail(f"{colours} colours are more than the {MAX_COLOURS} that 0-9 and A-Z can name", at)
        if colours < 1:
            raise r.fail("a board needs at least 1 colour", at)
    if r.peek() == "m":
        r.pos += 1
        extra = r.number("the extra moves", MAX_MOVES)
    r.expect(":", "after the parameters (WxH or WxHcCmK)")
    n = width * height
    desc_at = r.pos
    values = np.empty(n, dtype=np.int64)
    for i in range(n):
        ch = r.peek()
        if ch == "," or not ch:
            raise r.fail(f"the description has {i} cells, a {width}x{height} board needs {n}")
        value = DIGITS.find(ch)
        if value < 0:
            raise r.fail(f"{ch!r} is not a colour (0-9, A-Z)")
        if colours is not None and value >= colours:
            raise r.fail(f"{ch!r} is colour {value}, but the parameters give {colours} colours (0 to {colours - 1})")
        values[i] = value
        r.pos += 1
    if r.peek() not in (",", ""):
        more = len(r.text[desc_at:].split(",")[0])
        raise r.fail(f"the description has {more} cells, a {width}x{height} board needs {n}")
    r.expect(",", "and the move limit after the description")
    limit = r.number("the move limit", MAX_MOVES)
    if r.peek():
        raise r.fail(f"unexpected {r.shown()} after the move limit")
    if colours is None:
        colours = int(values.max()) + 1
    return GameId(values.reshape(height, width), colours, extra, limit)


def game_id_digits(board: Board) -> np.ndarray:
    """Each cell's colour as a DESC value: the ids themselves when all are 0..35,
    else the colour codes; ``ColoritError`` for a board of more than 36 colours."""
    if board.n_colours > MAX_COLOURS:
        raise ColoritError(
            f"a game ID names at most {MAX_COLOURS} colours (0-9, A-Z); this board has {board.n_colours}"
        )
    palette = board.palette
    if int(palette[0]) >= 0 and int(palette[-1]) < MAX_COLOURS:
        return board.cells
    return board.codes


def format_game_id(board: Board, limit: int, extra: int = 0, colours: int | None = None) -> str:
    """The full form ``WxHcCmK:DESC,LIMIT`` of ``board``. C is ``colours`` or, by
    default, one more than the highest colour written (Tatham's Flood plays 3 to 10)."""
    digits = game_id_digits(board)
    highest = int(digits.max()) + 1
    if colours is None:
        colours = highest
    if not highest <= colours <= MAX_COLOURS:
        raise ColoritError(f"colours must be {highest} to {MAX_COLOURS} for this board, got {colours}")
    for value, what in ((limit, "limit"), (extra, "extra moves")):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not 0 <= value <= MAX_MOVES:
            raise ColoritError(f"{what} must be a whole number from 0 to {MAX_MOVES}, got {value!r}")
    desc = "".join(DIGITS[v] for v in digits.ravel().tolist())
    return f"{board.width}x{board.height}c{colours}m{extra}:{desc},{limit}"
