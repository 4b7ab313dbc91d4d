"""Board pictures, replay frames, animated GIFs and key-frame sheets, drawn with Pillow.

Frames are palette images ("P") built straight from the board's colour codes: palette
index ``i`` is colour code ``i`` (``colorit.palette``), followed by eight greys (captions,
outlines, black and white ink), shades between each colour and its ink (smooth label
edges, as many as the palette has room for) and one spare index that GIF delta frames use
as transparency. A GIF is then written without quantising, and as a frame differs from
the one before only in the flood, Pillow stores little more than the flood per frame. A
board with more colours than a 256-entry palette holds (about 240) gets RGB frames
instead, and GIF encoding quantises them: slower, and its rarer colours come out
approximate.

Labels (``labels="numbers"``: the colour's number, code + 1, as the captions name it; ``labels="symbols"``: a shape per code, drawn with
ImageDraw so no font needs the glyph) are drawn only in cells of at least
``MIN_LABEL_CELL`` (12) pixels whose numbers fit at ``MIN_LABEL_FONT`` (8) pixels or more;
smaller cells show colours alone, without a warning (``labels_drawn`` says whether they
will be). With ``cell=None`` and labels asked for, the cell grows to ``LABEL_CELL`` (16)
pixels, or as far as it can while the board stays within ``LABEL_SIDE`` pixels.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from .. import palette as pal
from ..game.board import Board
from ..errors import ColoritError
from ._options import check_labels, whole

#: Longest side, in pixels, of a board picture when no cell size is given.
BOARD_SIDE = 480
#: The same for each frame of a key-frame sheet.
SHEET_SIDE = 240
#: The largest cell chosen automatically (a 4x4 board is 256 px, not 16).
AUTO_MAX_CELL = 64
#: The largest cell that may be asked for.
MAX_CELL = 256
#: Cells smaller than this show no labels.
MIN_LABEL_CELL = 12
#: With labels, the automatic cell size grows to this (labels read easily) ...
LABEL_CELL = 16
#: ... or as far as it can while the board stays within this many pixels.
LABEL_SIDE = 2400
#: No picture (frame or sheet) is wider or taller than this.
MAX_SIDE = 16384
#: Pixels in all frames of one replay together: past this a GIF would take gigabytes.
MAX_REPLAY_PIXELS = 600_000_000
#: Shades between a colour and its ink that smooth the edges of labels, palette permitting.
MAX_SHADES = 6
#: Smallest label font, in pixels: numbers that only fit smaller are not drawn.
MIN_LABEL_FONT = 8

_GREYS = tuple(255 - round(i * 255 / 7) for i in range(8))  # white .. black
_WHITE, _MID_GREY, _BLACK = 0, 5, 7  # offsets into the greys
_SUPERSAMPLE = 4  # symbols are drawn this much larger, then averaged down


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


# --------------------------------------------------------------------------- fonts and shapes


@lru_cache(maxsize=64)
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's bundled font at ``size`` pixels (its fixed bitmap font where Pillow was
    built without FreeType)."""
    try:
        return ImageFont.load_default(size=size)
    except (ImportError, OSError, TypeError):  # pragma: no cover - Pillow without FreeType
        return ImageFont.load_default()


def _text_width(text: str, size: int) -> float:
    return float(_font(size).getlength(text))


def _number_font_size(cell: int, widest: str) -> int:
    """The largest font (at most 70% of the cell) whose widest number fills at most 85% of it."""
    size = max(1, int(cell * 0.7))
    while size >= MIN_LABEL_FONT and _text_width(widest, size) > cell * 0.85:
        size -= 1
    return size


def _labels_fit(cell: int, labels: str, n_colours: int) -> bool:
    """Whether labels of this kind can be read in cells of ``cell`` pixels."""
    if labels == "none" or cell < MIN_LABEL_CELL:
        return False
    return labels != "numbers" or _number_font_size(cell, str(n_colours)) >= MIN_LABEL_FONT


def _star(cx: float, cy: float, outer: float, inner: float, points: int = 5) -> list[tuple[float, float]]:
    out = []
    for i in range(points * 2):
        r = outer if i % 2 == 0 else inner
        a = math.pi * i / points - math.pi / 2
        out.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return out


def _polygon(cx: float, cy: float, r: float, sides: int, turn: float) -> list[tuple[float, float]]:
    return [
        (cx + r * math.cos(2 * math.pi * i / sides + turn), cy + r * math.sin(2 * math.pi * i / sides + turn))
        for i in range(sides)
    ]


def _draw_symbol(draw: ImageDraw.ImageDraw, name: str, size: int) -> None:
    """Draw shape ``name`` in white, centred in a ``size`` square."""
    c = size / 2
    r = size * 0.34
    w = r * 0.5  # stroke width of crosses, pluses, rings
    fill = 255
    if name == "circle":
        draw.ellipse((c - r, c - r, c + r, c + r), fill=fill)
    elif name == "triangle":
        draw.polygon(_polygon(c, c + r * 0.18, r * 1.12, 3, -math.pi / 2), fill=fill)
    elif name == "square":
        s = r * 0.86
        draw.rectangle((c - s, c - s, c + s, c + s), fill=fill)
    elif name == "diamond":
        draw.polygon(_polygon(c, c, r * 1.1, 4, -math.pi / 2), fill=fill)
    elif name == "cross":
        for a in (math.pi / 4, -math.pi / 4):
            dx, dy = math.cos(a) * r * 1.05, math.sin(a) * r * 1.05
            draw.line((c - dx, c - dy, c + dx, c + dy), fill=fill, width=max(1, round(w)))
    elif name == "plus":
        h = w / 2
        draw.rectangle((c - r, c - h, c + r, c + h), fill=fill)
        draw.rectangle((c - h, c - r, c + h, c + r), fill=fill)
    elif name == "star":
        draw.polygon(_star(c, c + r * 0.08, r * 1.15, r * 0.48), fill=fill)
    elif name == "ring":
        draw.ellipse((c - r, c - r, c + r, c + r), outline=fill, width=max(1, round(w * 0.8)))
    elif name == "bar":
        draw.rectangle((c - r, c - r * 0.36, c + r, c + r * 0.36), fill=fill)
    elif name == "column":
        draw.rectangle((c - r * 0.36, c - r, c + r * 0.36, c + r), fill=fill)
    elif name == "dot":
        d = r * 0.42
        draw.ellipse((c - d, c - d, c + d, c + d), fill=fill)
    elif name == "hexagon":
        draw.polygon(_polygon(c, c, r * 1.05, 6, 0.0), fill=fill)
    else:  # pragma: no cover - palette.SYMBOLS and this list go together
        raise ValueError(f"no drawing for symbol {name!r}")


@lru_cache(maxsize=4096)
def _label_coverage(code: int, kind: str, size: int, number_font: int) -> bytes:
    """The label of colour code ``code`` in a ``size`` square as coverage 0..255 (row major)."""
    if kind == "numbers":
        img = Image.new("L", (size, size), 0)
        ImageDraw.Draw(img).text((size / 2, size / 2), str(pal.number(code)), fill=255, font=_font(number_font), anchor="mm")
        return img.tobytes()
    big = Image.new("L", (size * _SUPERSAMPLE, size * _SUPERSAMPLE), 0)
    _draw_symbol(ImageDraw.Draw(big), pal.symbol(code), size * _SUPERSAMPLE)
    return big.resize((size, size), Image.Resampling.BOX).tobytes()


# --------------------------------------------------------------------------- the painter


class _Painter:
    """Everything one board's pictures share: the palette, the cell tiles, the layout."""

    def __init__(self, board: Board, cell: int, labels: str, *, caption_texts: Sequence[tuple[str, str]] = ()):
        self.board = board
        self.cell = cell
        n = board.n_colours
        self.n = n
        swatches = pal.colours(n)
        colour_rgb = [pal.rgb(s) for s in swatches]
        entries: list[tuple[int, int, int]] = list(colour_rgb)
        self.grey0 = len(entries)
        entries += [(g, g, g) for g in _GREYS]
        self.white = self.grey0 + _WHITE
        self.black = self.grey0 + _BLACK
        self.frame_grey = self.grey0 + _MID_GREY
        ink_is_black = [pal.ink(s) == "#000000" for s in swatches]
        self.ink = np.array([self.black if b else self.white for b in ink_is_black], dtype=np.int64)
        # shades between each colour and its ink, for smooth labels: as many as the
        # palette has room for, up to MAX_SHADES (RGB frames, for boards whose colours
        # overflow a palette anyway, always get them all)
        overflow = len(entries) + 1 > 256
        self.shades = MAX_SHADES if overflow else max(0, min(MAX_SHADES, (256 - len(entries) - 1) // n))
        self.blend0 = len(entries)
        for level in range(1, self.shades + 1):
            for rgb, black in zip(colour_rgb, ink_is_black):
                target = 0 if black else 255
                share = level / (self.shades + 1)
                r, g, b = (round(v + (target - v) * share) for v in rgb)
                entries.append((r, g, b))
        self.transparent = len(entries)
        entries.append((255, 0, 255))  # never drawn: GIF delta frames mark unchanged pixels with it
        self.lut = np.array(entries, dtype=np.uint8)
        self.mode = "P" if len(entries) <= 256 else "RGB"
        self.dtype = np.uint8 if self.mode == "P" else np.int32

        # labels: drawn only where they can be read
        self.labels = labels
        self.number_font = _number_font_size(cell, str(n)) if labels == "numbers" else 0
        self.draw_labels = _labels_fit(cell, labels, n)
        self.outline_width = max(1, min(4, cell // 8)) if cell >= 3 else 0

        # layout
        self.margin = _margin(cell)
        self.board_w = board.width * cell
        self.board_h = board.height * cell
        self.font_size = _caption_font_size(self.board_w)
        self.band = _band_height(self.font_size) if caption_texts else 0
        self.pad = max(4, round(self.font_size * 0.5))
        self.swatch = self.band - 2 * round(self.font_size * 0.35) if caption_texts else 0
        caption_w = 0
        for left, right in caption_texts:
            caption_w = max(caption_w, math.ceil(self._caption_right_x(left) + _text_width(right, self.font_size)))
        self.width = max(self.board_w + 2 * self.margin, caption_w + self.pad)
        self.height = self.band + self.board_h + (self.margin if self.band else 2 * self.margin)
        self.left = (self.width - self.board_w) // 2
        self.top = self.band if self.band else self.margin
        if self.width > MAX_SIDE or self.height > MAX_SIDE:
            raise ColoritError(
                f"a {board.height}x{board.width} board at {cell} px a cell makes a {self.width}x{self.height} "
                f"picture; the most is {MAX_SIDE} pixels a side: ask for a smaller cell size"
            )
        # one labelled tile per colour (cells without labels are plain blocks)
        self.tiles = np.stack([self._tile(c, cell, True) for c in range(n)]) if self.draw_labels else None

    @property
    def layout(self) -> Layout:
        return Layout(self.cell, self.left, self.top, self.width, self.height, self.band)

    # tiles ---------------------------------------------------------------

    def _tile(self, code: int, size: int, with_label: bool) -> np.ndarray:
        """A ``size`` square of colour ``code``, with its label in ink when asked."""
        tile = np.full((size, size), code, dtype=self.dtype)
        if not with_label:
            return tile
        font = self.number_font if self.labels == "numbers" else 0
        if self.labels == "numbers" and size != self.cell:
            font = _number_font_size(size, str(self.n))
        cover = np.frombuffer(_label_coverage(code, self.labels, size, font), dtype=np.uint8).reshape(size, size)
        steps = self.shades + 1
        level = (cover.astype(np.int32) * steps + 127) // 255
        for shade in range(1, steps):
            tile[level == shade] = self.blend0 + (shade - 1) * self.n + code
        tile[level == steps] = self.ink[code]
        return tile

    def board_pixels(self, grid: np.ndarray, unlabelled: np.ndarray | None = None) -> np.ndarray:
        """The board as palette indices, ``cell`` pixels a cell; cells in ``unlabelled``
        (and all of them when labels are off) are plain blocks of their colour."""
        h, w = grid.shape
        c = self.cell
        if self.tiles is None:
            return np.repeat(np.repeat(grid.astype(self.dtype), c, axis=0), c, axis=1)
        pixels: np.ndarray = self.tiles[grid].transpose(0, 2, 1, 3).reshape(h * c, w * c)
        if unlabelled is not None and unlabelled.any():
            blocks = pixels.reshape(h, c, w, c)
            np.copyto(blocks, grid.astype(self.dtype)[:, None, :, None], where=unlabelled[:, None, :, None])
        return pixels

    def outline(self, pixels: np.ndarray, flood: np.ndarray, ink: int) -> None:
        """Draw the flood's border (where it meets other cells, not the board's edge) in
        ``ink``, inside the flood's cells, corners included."""
        t = self.outline_width
        if t == 0:
            return
        h, w = flood.shape
        c = self.cell
        up = np.zeros_like(flood)
        up[1:] = flood[:-1]
        down = np.zeros_like(flood)
        down[:-1] = flood[1:]
        left = np.zeros_like(flood)
        left[:, 1:] = flood[:, :-1]
        right = np.zeros_like(flood)
        right[:, :-1] = flood[:, 1:]
        rows = np.arange(h)[:, None]
        cols = np.arange(w)[None, :]
        top_edge = flood & ~up & (rows > 0)
        bottom_edge = flood & ~down & (rows < h - 1)
        left_edge = flood & ~left & (cols > 0)
        right_edge = flood & ~right & (cols < w - 1)
        v = pixels.reshape(h, c, w, c)

        def paint(where: np.ndarray, ys: slice, xs: slice) -> None:
            if where.any():
                np.copyto(v[:, ys, :, xs], ink, where=where[:, None, :, None])

        paint(top_edge, slice(0, t), slice(None))
        paint(bottom_edge, slice(c - t, c), slice(None))
        paint(left_edge, slice(None), slice(0, t))
        paint(right_edge, slice(None), slice(c - t, c))
        # inner corners: both sides flooded, the diagonal not
        diag = np.zeros_like(flood)
        diag[1:, 1:] = flood[:-1, :-1]
        paint(flood & up & left & ~diag & (rows > 0) & (cols > 0), slice(0, t), slice(0, t))
        diag = np.zeros_like(flood)
        diag[1:, :-1] = flood[:-1, 1:]
        paint(flood & up & right & ~diag & (rows > 0) & (cols < w - 1), slice(0, t), slice(c - t, c))
        diag = np.zeros_like(flood)
        diag[:-1, 1:] = flood[1:, :-1]
        paint(flood & down & left & ~diag & (rows < h - 1) & (cols > 0), slice(c - t, c), slice(0, t))
        diag = np.zeros_like(flood)
        diag[:-1, :-1] = flood[1:, 1:]
        paint(flood & down & right & ~diag & (rows < h - 1) & (cols < w - 1), slice(c - t, c), slice(c - t, c))

    # captions ------------------------------------------------------------

    def _caption_right_x(self, left_text: str) -> float:
        """Where the text after the swatch starts."""
        return self.pad + _text_width(left_text, self.font_size) + self.pad + self.swatch + self.pad * 0.6

    def caption(self, canvas: np.ndarray, left_text: str, code: int, right_text: str) -> None:
        """Write ``left_text``, a swatch of colour ``code`` and ``right_text`` into the band."""
        band = Image.new("L", (self.width, self.band), 255)
        draw = ImageDraw.Draw(band)
        font = _font(self.font_size)
        mid = self.band / 2
        draw.text((self.pad, mid), left_text, fill=0, font=font, anchor="lm")
        draw.text((self._caption_right_x(left_text), mid), right_text, fill=0, font=font, anchor="lm")
        shade = np.asarray(band, dtype=np.int32)
        canvas[: self.band] = (self.grey0 + ((255 - shade) * 7 + 127) // 255).astype(self.dtype)
        s = self.swatch
        x = round(self.pad + _text_width(left_text, self.font_size) + self.pad)
        y = (self.band - s) // 2
        canvas[y : y + s, x : x + s] = self._tile(code, s, self.labels != "none")
        frame = canvas[y : y + s, x : x + s]
        frame[0, :] = frame[-1, :] = frame[:, 0] = frame[:, -1] = self.frame_grey

    # frames --------------------------------------------------------------

    def blank(self) -> np.ndarray:
        return np.full((self.height, self.width), self.white, dtype=self.dtype)

    def place(self, canvas: np.ndarray, pixels: np.ndarray) -> None:
        canvas[self.top : self.top + self.board_h, self.left : self.left + self.board_w] = pixels

    def image(self, canvas: np.ndarray) -> Image.Image:
        if self.mode == "P":
            img = Image.fromarray(canvas, "P")
            img.putpalette(self.lut.tobytes(), "RGB")
            return img
        return Image.fromarray(self.lut[canvas], "RGB")


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
    return _labels_fit(chosen, labels, board.n_colours)


def board_image(board: Board, *, cell: int | None = None, labels: str = "none") -> Image.Image:
    """A picture of ``board`` (a small white margin around it, no caption): palette mode
    when the board's colours fit one, else RGB."""
    board = _board(board)
    labels = check_labels(labels)
    painter = _Painter(board, _cell(cell, board, BOARD_SIDE, labels), labels)
    canvas = painter.blank()
    painter.place(canvas, painter.board_pixels(board.codes))
    return painter.image(canvas)


def _captions(board: Board, moves: Sequence[int], steps: np.ndarray) -> list[tuple[str, str]]:
    """The caption of each frame: ("move k/n", "colour N") with "start" and "solved";
    N is the colour's number, as its labels show it (``palette.name``)."""
    move_ids = [int(m) for m in moves]
    move_codes = board.codes_of(move_ids).tolist()
    n = len(move_ids)
    solved = board.n_colours == 1 or bool((steps >= 0).all())
    start_id = int(board.cells[board.start])
    out = [(f"move 0/{n}", f"{pal.name(int(board.codes[board.start]), start_id)}  start")]
    for k, (m, c) in enumerate(zip(move_ids, move_codes), 1):
        out.append((f"move {k}/{n}", pal.name(c, m) + ("  solved" if k == n and solved else "")))
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
    move_codes = [int(c) for c in board.codes_of(moves)]
    steps = board.flood_steps(moves)
    n = len(move_codes)
    texts = _captions(board, moves, steps) if caption else []
    painter = _Painter(board, cell, labels, caption_texts=texts)
    if picks is None:
        picks = range(n + 1)
    if len(picks) * painter.width * painter.height > MAX_REPLAY_PIXELS:
        raise ColoritError(
            f"a replay of {n} moves at {painter.width}x{painter.height} pixels a frame is too large "
            f"to animate; ask for a smaller cell size or a key-frame sheet (png)"
        )
    codes = board.codes
    start_code = int(codes[board.start])
    canvases = []
    for k in picks:
        flood = (steps >= 0) & (steps <= k)
        flood_code = start_code if k == 0 else move_codes[k - 1]
        grid = codes if k == 0 else np.where(flood, flood_code, codes)
        pixels = painter.board_pixels(grid, flood)
        if outline:
            painter.outline(pixels, flood, int(painter.ink[flood_code]))
        canvas = painter.blank()
        painter.place(canvas, pixels)
        if caption:
            left, right = texts[k]
            painter.caption(canvas, left, flood_code, right)
        canvases.append(canvas)
    return painter, canvases


def frame_layout(
    board: Board, moves: Sequence[int] = (), *, cell: int | None = None, labels: str = "none", caption: bool = True
) -> Layout:
    """Where ``replay_frames`` (same arguments) puts the board in its frames; with
    ``caption=False`` and no moves, the layout of ``board_image``."""
    board = _board(board)
    labels = check_labels(labels)
    texts = _captions(board, moves, board.flood_steps(moves)) if caption else []
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
    return [painter.image(c) for c in canvases]


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
    frames = [painter.image(c) for c in canvases]
    durations = [frame_ms] * len(frames)
    durations[0] = first_frame_ms
    durations[-1] = last_frame_ms if len(frames) > 1 else max(first_frame_ms, last_frame_ms)
    buf = io.BytesIO()
    options: dict[str, object] = {"loop": 0, "duration": durations, "disposal": 1}
    if painter.mode == "P":
        # unchanged pixels of a frame become the spare index: Pillow then stores the flood
        options.update(optimize=True, transparency=painter.transparent, palette=painter.lut.tobytes())
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
    sheet = np.full((height, width), painter.grey0 + 1, dtype=painter.dtype)
    for i in range(len(picks)):
        y = gap + (i // columns) * (painter.height + gap)
        x = gap + (i % columns) * (painter.width + gap)
        sheet[y : y + painter.height, x : x + painter.width] = canvases[i]
    return png_bytes(painter.image(sheet))


def png_bytes(image: Image.Image) -> bytes:
    """``image`` as PNG bytes."""
    buf = io.BytesIO()
    image.save(buf, format="PNG", optimize=False, compress_level=6)
    return buf.getvalue()
