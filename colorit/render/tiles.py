"""A board's cells as pixels: the frame palette, the cell tiles and the flood's outline.

Frames are arrays of palette indices. ``FramePalette`` lays the indices out: index ``i``
is colour code ``i`` (``colorit.palette``), then eight greys (captions, outlines, black
and white ink), then shades between each colour and its ink (smooth label edges, as many
as the palette has room for, up to ``MAX_SHADES``) and one spare index that GIF delta
frames use as transparency. A board with more colours than a 256-entry palette holds
gets RGB frames instead (``mode``), drawn with the same indices into a wider table.
``CellTiles`` turns a grid of colour codes into those pixels, a labelled tile per colour
where labels can be read (``colorit.render.glyphs``); ``outline_flood`` draws the
flood's border in ink.
"""

from __future__ import annotations

import numpy as np
from PIL import Image

from .. import palette as pal
from .glyphs import label_coverage, labels_fit, number_font_size

#: Shades between a colour and its ink that smooth the edges of labels, palette permitting.
MAX_SHADES = 6

_GREYS = tuple(255 - round(i * 255 / 7) for i in range(8))  # white .. black
_WHITE, _MID_GREY, _BLACK = 0, 5, 7  # offsets into the greys


class FramePalette:
    """The palette of one board's frames: which index is which colour, grey or shade."""

    def __init__(self, n_colours: int):
        n = n_colours
        swatches = pal.colours(n)
        colour_rgb = [pal.rgb(s) for s in swatches]
        entries: list[tuple[int, int, int]] = list(colour_rgb)
        self.grey0 = len(entries)
        entries += [(g, g, g) for g in _GREYS]
        self.white = self.grey0 + _WHITE
        self.black = self.grey0 + _BLACK
        self.frame_grey = self.grey0 + _MID_GREY
        ink_is_black = [pal.ink(s) == "#000000" for s in swatches]
        #: the index of each colour code's ink (black or white)
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

    def image(self, canvas: np.ndarray) -> Image.Image:
        """``canvas`` (indices) as a palette image, or an RGB one where the palette overflows."""
        if self.mode == "P":
            img = Image.fromarray(canvas, "P")
            img.putpalette(self.lut.tobytes(), "RGB")
            return img
        return Image.fromarray(self.lut[canvas], "RGB")


class CellTiles:
    """Cells of ``cell`` pixels: plain blocks of their colour, or labelled tiles (one per
    colour, made once) where labels of this kind can be read at this size."""

    def __init__(self, palette: FramePalette, n_colours: int, cell: int, labels: str):
        self.palette = palette
        self.n = n_colours
        self.cell = cell
        self.labels = labels
        self.number_font = number_font_size(cell, str(n_colours)) if labels == "numbers" else 0
        self.draw_labels = labels_fit(cell, labels, n_colours)
        self.tiles = np.stack([self.tile(c, cell, True) for c in range(n_colours)]) if self.draw_labels else None

    def tile(self, code: int, size: int, with_label: bool) -> np.ndarray:
        """A ``size`` square of colour ``code``, with its label in ink when asked."""
        p = self.palette
        tile = np.full((size, size), code, dtype=p.dtype)
        if not with_label:
            return tile
        font = self.number_font if self.labels == "numbers" else 0
        if self.labels == "numbers" and size != self.cell:
            font = number_font_size(size, str(self.n))
        cover = np.frombuffer(label_coverage(code, self.labels, size, font), dtype=np.uint8).reshape(size, size)
        steps = p.shades + 1
        level = (cover.astype(np.int32) * steps + 127) // 255
        for shade in range(1, steps):
            tile[level == shade] = p.blend0 + (shade - 1) * self.n + code
        tile[level == steps] = p.ink[code]
        return tile

    def board_pixels(self, grid: np.ndarray, unlabelled: np.ndarray | None = None) -> np.ndarray:
        """The board as palette indices, ``cell`` pixels a cell; cells in ``unlabelled``
        (and all of them when labels are off) are plain blocks of their colour."""
        h, w = grid.shape
        c = self.cell
        dtype = self.palette.dtype
        if self.tiles is None:
            return np.repeat(np.repeat(grid.astype(dtype), c, axis=0), c, axis=1)
        pixels: np.ndarray = self.tiles[grid].transpose(0, 2, 1, 3).reshape(h * c, w * c)
        if unlabelled is not None and unlabelled.any():
            blocks = pixels.reshape(h, c, w, c)
            np.copyto(blocks, grid.astype(dtype)[:, None, :, None], where=unlabelled[:, None, :, None])
        return pixels


def outline_width(cell: int) -> int:
    """The outline's thickness in cells of ``cell`` pixels: 1 to 4, none under 3 px."""
    return max(1, min(4, cell // 8)) if cell >= 3 else 0


def _shifted(flood: np.ndarray, dr: int, dc: int) -> np.ndarray:
    """``flood`` moved by ``dr`` rows and ``dc`` columns: ``out[r, c] = flood[r - dr, c - dc]``
    (``False`` where that falls off the board)."""
    h, w = flood.shape
    out = np.zeros_like(flood)
    to_rows, to_cols = slice(max(dr, 0), h + min(dr, 0)), slice(max(dc, 0), w + min(dc, 0))
    from_rows, from_cols = slice(max(-dr, 0), h - max(dr, 0)), slice(max(-dc, 0), w - max(dc, 0))
    out[to_rows, to_cols] = flood[from_rows, from_cols]
    return out


def outline_flood(pixels: np.ndarray, flood: np.ndarray, cell: int, ink: int) -> None:
    """Draw the flood's border (where it meets other cells, not the board's edge) in
    ``ink`` on ``pixels`` (the board, ``cell`` pixels a cell), inside the flood's cells,
    inner corners included."""
    t = outline_width(cell)
    if t == 0:
        return
    h, w = flood.shape
    c = cell
    up, down = _shifted(flood, 1, 0), _shifted(flood, -1, 0)
    left, right = _shifted(flood, 0, 1), _shifted(flood, 0, -1)
    rows = np.arange(h)[:, None]
    cols = np.arange(w)[None, :]
    inside_top, inside_bottom = rows > 0, rows < h - 1
    inside_left, inside_right = cols > 0, cols < w - 1
    v = pixels.reshape(h, c, w, c)

    def paint(where: np.ndarray, ys: slice, xs: slice) -> None:
        if where.any():
            np.copyto(v[:, ys, :, xs], ink, where=where[:, None, :, None])

    first, last, whole = slice(0, t), slice(c - t, c), slice(None)
    paint(flood & ~up & inside_top, first, whole)
    paint(flood & ~down & inside_bottom, last, whole)
    paint(flood & ~left & inside_left, whole, first)
    paint(flood & ~right & inside_right, whole, last)
    # inner corners: both sides flooded, the diagonal not
    paint(flood & up & left & ~_shifted(flood, 1, 1) & inside_top & inside_left, first, first)
    paint(flood & up & right & ~_shifted(flood, 1, -1) & inside_top & inside_right, first, last)
    paint(flood & down & left & ~_shifted(flood, -1, 1) & inside_bottom & inside_left, last, first)
    paint(flood & down & right & ~_shifted(flood, -1, -1) & inside_bottom & inside_right, last, last)
