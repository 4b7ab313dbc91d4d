"""Board pictures, replay frames, animated GIFs and key-frame sheets, drawn with Pillow.

Frames are palette images ("P") built straight from the board's colour codes
(``colorit.render.tiles``: the colours, greys, label shades and a spare index for
transparency), so a GIF is written without quantising, and as a frame differs from the
one before only in the flood, Pillow stores little more than the flood per frame. A
board with more colours than a 256-entry palette holds (about 240) gets RGB frames
instead, and GIF encoding quantises them: slower, and its rarer colours come out
approximate. Every frame shows a position of ``colorit.render.replay``.

Labels (``labels="numbers"``: the colour's number, code + 1, as the captions name it;
``labels="symbols"``: a shape per code; both from ``colorit.render.glyphs``) are drawn
only in cells of at least ``MIN_LABEL_CELL`` (12) pixels whose numbers fit at
``MIN_LABEL_FONT`` (8) pixels or more; smaller cells show colours alone, without a
warning (``labels_drawn`` says whether they will be). With ``cell=None`` and labels
asked for, the cell grows to ``LABEL_CELL`` (16) pixels, or as far as it can while the
board stays within ``LABEL_SIDE`` pixels.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
from PIL import Image, ImageDraw

from .. import palette as pal
from ..errors import ColoritError
from ..game.board import Board
from ._options import check_labels, whole
from .glyphs import MIN_LABEL_CELL, font, labels_fit, text_width
from .replay import Replay
from .tiles import CellTiles, FramePalette, outline_flood

#: Longest side, in pixels, of a board picture when no cell size is given.
BOARD_SIDE = 480
#: The same for each frame of a key-frame sheet.
SHEET_SIDE = 240
#: The largest cell chosen automatically (a 4x4 board is 256 px, not 16).
AUTO_MAX_CELL = 64
#: The largest cell that may be asked for.
MAX_CELL = 256
#: With labels, the automatic cell size grows to this (labels read easily) ...
LABEL_CELL = 16
#: ... or as far as it can while the board stays within this many pixels.
LABEL_SIDE = 2400
#: No picture (frame or sheet) is wider or taller than this.
MAX_SIDE = 16384
#: Pixels in all frames of one replay together: past this a GIF would take gigabytes.
MAX_REPLAY_PIXELS = 600_000_000


class Layout(NamedTuple):
    """Where things are in a frame: the board's top-left pixel, the cell size, and the
    frame's size; ``band`` is the caption's height (0 without a caption)."""

    cell: int
    left: int
    top: int
    width: int
    height: int
    band: int


# --------------------------------------------------------------------------- sizes


def _fit_cell(height: int, width: int, side: int, labels: str) -> int:
    cell = max(1, min(AUTO_MAX_CELL, round(side / max(height, width))))
    if labels != "none" and cell < LABEL_CELL:
        room = LABEL_SIDE // max(height, width)
        if room >= MIN_LABEL_CELL:
            cell = max(cell, min(LABEL_CELL, room))
    return cell


def cell_size_for(height: int, width: int, *, labels: str = "none") -> int:
    """The cell size (pixels) a board gets when none is asked for: the board about 480
    pixels on its longer side, between 1 and 64 pixels a cell (a 4x4 board is 256 px
    wide, a 100x100 board 500 px, a 300x300 board 600 px). With labels, ``LABEL_CELL``
    (16) pixels, or less while the board would pass ``LABEL_SIDE`` (2400) pixels but not
    less than ``MIN_LABEL_CELL`` (12): a 100x100 board with labels is 1600 px; past 200
    cells a side, labels are left out unless a cell size is asked for."""
    height = whole(height, "height", 1)
    width = whole(width, "width", 1)
    return _fit_cell(height, width, BOARD_SIDE, check_labels(labels))


def _margin(cell: int) -> int:
    return max(2, min(8, cell // 2))


def _caption_font_size(board_width_px: int) -> int:
    return max(13, min(22, round(board_width_px / 26)))


def _band_height(font_size: int) -> int:
    return round(font_size * 1.9)


# --------------------------------------------------------------------------- frames


class _Captions:
    """The band above a frame: "move k/n", a swatch of the flood's colour, "colour N".
    Its font follows the board's width; the band is 0 px high without captions."""

    def __init__(self, board_w: int, texts: Sequence[tuple[str, str]]):
        self.font_size = _caption_font_size(board_w)
        self.band = _band_height(self.font_size) if texts else 0
        self.pad = max(4, round(self.font_size * 0.5))
        self.swatch = self.band - 2 * round(self.font_size * 0.35) if texts else 0
        self.width = 0  # the widest caption's right end
        for left, right in texts:
            self.width = max(self.width, math.ceil(self._right_x(left) + text_width(right, self.font_size)))

    def _right_x(self, left_text: str) -> float:
        """Where the text after the swatch starts."""
        return self.pad + text_width(left_text, self.font_size) + self.pad + self.swatch + self.pad * 0.6

    def draw(self, canvas: np.ndarray, tiles: CellTiles, left_text: str, code: int, right_text: str) -> None:
        """Write ``left_text``, a swatch of colour ``code`` (labelled when labels are
        asked for) and ``right_text`` into the band at the top of ``canvas``."""
        p = tiles.palette
        band = Image.new("L", (canvas.shape[1], self.band), 255)
        draw = ImageDraw.Draw(band)
        caption_font = font(self.font_size)
        mid = self.band / 2
        draw.text((self.pad, mid), left_text, fill=0, font=caption_font, anchor="lm")
        draw.text((self._right_x(left_text), mid), right_text, fill=0, font=caption_font, anchor="lm")
        shade = np.asarray(band, dtype=np.int32)
        canvas[: self.band] = (p.grey0 + ((255 - shade) * 7 + 127) // 255).astype(p.dtype)
        s = self.swatch
        x = round(self.pad + text_width(left_text, self.font_size) + self.pad)
        y = (self.band - s) // 2
        canvas[y : y + s, x : x + s] = tiles.tile(code, s, tiles.labels != "none")
        frame = canvas[y : y + s, x : x + s]
        frame[0, :] = frame[-1, :] = frame[:, 0] = frame[:, -1] = p.frame_grey


class _Painter:
    """Everything one board's frames share: the palette, the cell tiles, the captions'
    band and where the board sits in the frame."""

    def __init__(self, board: Board, cell: int, labels: str, *, caption_texts: Sequence[tuple[str, str]] = ()):
        self.cell = cell
        self.palette = FramePalette(board.n_colours)
        self.tiles = CellTiles(self.palette, board.n_colours, cell, labels)
        self.board_w = board.width * cell
        self.board_h = board.height * cell
        self.captions = _Captions(self.board_w, caption_texts)
        margin = _margin(cell)
        band = self.captions.band
        self.width = max(self.board_w + 2 * margin, self.captions.width + self.captions.pad)
        self.height = band + self.board_h + (margin if band else 2 * margin)
        self.left = (self.width - self.board_w) // 2
        self.top = band if band else margin
        if self.width > MAX_SIDE or self.height > MAX_SIDE:
            raise ColoritError(
                f"a {board.height}x{board.width} board at {cell} px a cell makes a {self.width}x{self.height} "
                f"picture; the most is {MAX_SIDE} pixels a side: ask for a smaller cell size"
            )

    @property
    def layout(self) -> Layout:
        return Layout(self.cell, self.left, self.top, self.width, self.height, self.captions.band)

    def frame(self, grid: np.ndarray, flood: np.ndarray | None = None, outline_code: int | None = None) -> np.ndarray:
        """A frame of the board ``grid`` (colour codes) on white: no labels in ``flood``,
        whose border is outlined in the ink of colour ``outline_code`` when one is given."""
        pixels = self.tiles.board_pixels(grid, flood)
        if flood is not None and outline_code is not None:
            outline_flood(pixels, flood, self.cell, int(self.palette.ink[outline_code]))
        canvas = np.full((self.height, self.width), self.palette.white, dtype=self.palette.dtype)
        canvas[self.top : self.top + self.board_h, self.left : self.left + self.board_w] = pixels
        return canvas


# --------------------------------------------------------------------------- public functions


def _board(board: object) -> Board:
    if not isinstance(board, Board):
        raise TypeError(f"expected a colorit.Board, got {type(board).__name__}")
    return board


def _cell(cell: object, board: Board, side: int, labels: str) -> int:
    if cell is None:
        return _fit_cell(board.height, board.width, side, labels)
    return whole(cell, "cell size", 1, MAX_CELL)


def labels_drawn(board: Board, *, cell: int | None = None, labels: str = "none", sheet: bool = False) -> bool:
    """Whether pictures of ``board`` with these options show the labels asked for (for a
    key-frame sheet with ``sheet``): ``False`` when the cells are too small to read them,
    so a command can say so."""
    board = _board(board)
    labels = check_labels(labels)
    chosen = _cell(cell, board, SHEET_SIDE if sheet else BOARD_SIDE, labels)
    return labels_fit(chosen, labels, board.n_colours)


def board_image(board: Board, *, cell: int | None = None, labels: str = "none") -> Image.Image:
    """A picture of ``board`` (a small white margin around it, no caption): palette mode
    when the board's colours fit one, else RGB."""
    board = _board(board)
    labels = check_labels(labels)
    painter = _Painter(board, _cell(cell, board, BOARD_SIDE, labels), labels)
    return painter.palette.image(painter.frame(board.codes))


def _captions(replay: Replay) -> list[tuple[str, str]]:
    """The caption of each frame: ("move k/n", "colour N") with "start" and "solved";
    N is the colour's number, as its labels show it (``palette.name``)."""
    n = replay.n
    out = [(f"move 0/{n}", f"{pal.name(*replay.colour(0))}  start")]
    for k in range(1, n + 1):
        out.append((f"move {k}/{n}", pal.name(*replay.colour(k)) + ("  solved" if k == n and replay.solved else "")))
    return out


def _frame_canvases(
    board: Board,
    moves: Sequence[int],
    cell: int,
    labels: str,
    outline: bool,
    caption: bool,
    picks: Sequence[int] | None = None,
) -> tuple[_Painter, list[np.ndarray]]:
    """The frames ``picks`` (by default all: the start, then one per move) as palette indices."""
    replay = Replay.of(board, moves)
    texts = _captions(replay) if caption else []
    painter = _Painter(board, cell, labels, caption_texts=texts)
    if picks is None:
        picks = range(replay.n + 1)
    if len(picks) * painter.width * painter.height > MAX_REPLAY_PIXELS:
        raise ColoritError(
            f"a replay of {replay.n} moves at {painter.width}x{painter.height} pixels a frame is too large "
            f"to animate; ask for a smaller cell size or a key-frame sheet (png)"
        )
    canvases = []
    for k in picks:
        grid, flood, code, _ = replay.position(k)
        canvas = painter.frame(grid, flood, code if outline else None)
        if caption:
            left, right = texts[k]
            painter.captions.draw(canvas, painter.tiles, left, code, right)
        canvases.append(canvas)
    return painter, canvases


def frame_layout(
    board: Board, moves: Sequence[int] = (), *, cell: int | None = None, labels: str = "none", caption: bool = True
) -> Layout:
    """Where ``replay_frames`` (same arguments) puts the board in its frames; with
    ``caption=False`` and no moves, the layout of ``board_image``."""
    board = _board(board)
    labels = check_labels(labels)
    texts = _captions(Replay.of(board, moves)) if caption else []
    return _Painter(board, _cell(cell, board, BOARD_SIDE, labels), labels, caption_texts=texts).layout


def replay_frames(
    board: Board,
    moves: Sequence[int],
    *,
    cell: int | None = None,
    labels: str = "none",
    outline: bool = True,
    caption: bool = True,
) -> list[Image.Image]:
    """The replay of ``moves`` (colour ids) on ``board``: ``len(moves) + 1`` frames, the
    start board first, then the board after each move (one colour after the last move
    of an answer).

    Each frame carries a caption band (``caption``): "move k/n", a swatch of the flood's
    colour (with its label when labels are asked for) and "colour ID"; the flood is
    outlined (``outline``) in its colour's ink where it meets other cells (not on cells
    under 3 px). Labels mark the cells outside the flood: a cell's label goes when the
    flood takes it in (the caption names the flood's colour), which keeps the growing
    flood calm to look at and a labelled GIF small. ``SolutionError`` for a move whose colour the board lacks; moves that
    leave the board unsolved are drawn as they are."""
    board = _board(board)
    labels = check_labels(labels)
    painter, canvases = _frame_canvases(board, moves, _cell(cell, board, BOARD_SIDE, labels), labels, outline, caption)
    return [painter.palette.image(c) for c in canvases]


def gif_bytes(
    board: Board,
    moves: Sequence[int],
    *,
    cell: int | None = None,
    labels: str = "none",
    frame_ms: int | None = None,
    first_frame_ms: int = 1000,
    last_frame_ms: int = 2500,
) -> bytes:
    """The replay as an endlessly looping GIF: each frame of ``replay_frames`` shown
    ``frame_ms`` milliseconds (by default about 12 s for the whole replay, 80 to 400 ms a
    move), the start board ``first_frame_ms`` and the solved board ``last_frame_ms``."""
    board = _board(board)
    labels = check_labels(labels)
    n = len(moves)
    if frame_ms is None:
        frame_ms = max(80, min(400, 10 * round(1200 / max(1, n))))
    frame_ms = whole(frame_ms, "frame time (ms)", 20, 60000)
    first_frame_ms = whole(first_frame_ms, "first frame time (ms)", 20, 60000)
    last_frame_ms = whole(last_frame_ms, "last frame time (ms)", 20, 60000)
    painter, canvases = _frame_canvases(board, moves, _cell(cell, board, BOARD_SIDE, labels), labels, True, True)
    frames = [painter.palette.image(c) for c in canvases]
    durations = [frame_ms] * len(frames)
    durations[0] = first_frame_ms
    durations[-1] = last_frame_ms if len(frames) > 1 else max(first_frame_ms, last_frame_ms)
    buf = io.BytesIO()
    options: dict[str, object] = {"loop": 0, "duration": durations, "disposal": 1}
    p = painter.palette
    if p.mode == "P":
        # unchanged pixels of a frame become the spare index: Pillow then stores the flood
        options.update(optimize=True, transparency=p.transparent, palette=p.lut.tobytes())
    frames[0].save(buf, format="GIF", save_all=True, append_images=frames[1:], **options)
    return buf.getvalue()


def key_frame_numbers(n_moves: int, every: int | None = None) -> list[int]:
    """The frames a sheet shows: the start, every ``every``-th move, the end. By default
    ``every`` gives about eight frames."""
    n_moves = whole(n_moves, "moves", 0)
    if every is None:
        every = max(1, math.ceil(n_moves / 7))
    every = whole(every, "every", 1)
    picks = list(range(0, n_moves + 1, every))
    if picks[-1] != n_moves:
        picks.append(n_moves)
    return picks


def keyframes_png(
    board: Board,
    moves: Sequence[int],
    *,
    every: int | None = None,
    columns: int | None = None,
    cell: int | None = None,
    labels: str = "none",
) -> bytes:
    """A PNG sheet of key frames of the replay (the start, every ``every``-th move, the
    end), ``columns`` to a row (by default at most 4, rows as even as can be); each frame as
    ``replay_frames`` draws it, about 240 px a side unless ``cell`` is given."""
    board = _board(board)
    labels = check_labels(labels)
    picks = key_frame_numbers(len(moves), every)
    if columns is None:  # at most 4, the rows as full as they can be
        columns = math.ceil(len(picks) / math.ceil(len(picks) / 4))
    columns = whole(columns, "columns", 1)
    columns = min(columns, len(picks))
    painter, canvases = _frame_canvases(board, moves, _cell(cell, board, SHEET_SIDE, labels), labels, True, True, picks)
    gap = 12
    rows = math.ceil(len(picks) / columns)
    width = columns * painter.width + (columns + 1) * gap
    height = rows * painter.height + (rows + 1) * gap
    if width > MAX_SIDE or height > MAX_SIDE:
        raise ColoritError(
            f"a sheet of {len(picks)} frames in {columns} columns would be {width}x{height} pixels; "
            f"the most is {MAX_SIDE}: ask for more moves between frames, fewer columns or a smaller cell size"
        )
    sheet = np.full((height, width), painter.palette.grey0 + 1, dtype=painter.palette.dtype)
    for i in range(len(picks)):
        y = gap + (i // columns) * (painter.height + gap)
        x = gap + (i % columns) * (painter.width + gap)
        sheet[y : y + painter.height, x : x + painter.width] = canvases[i]
    return png_bytes(painter.palette.image(sheet))


def png_bytes(image: Image.Image) -> bytes:
    """``image`` as PNG bytes."""
    buf = io.BytesIO()
    image.save(buf, format="PNG", optimize=False, compress_level=6)
    return buf.getvalue()
