"""Cells as pixels: the frame palette's layout of colours, greys, shades and the spare
index; labelled and plain tiles; the flood's outline, inner corners included."""

from __future__ import annotations

import numpy as np
import pytest

from colorit import palette
from colorit.render.tiles import MAX_SHADES, CellTiles, FramePalette, outline_flood, outline_width


def test_a_small_board_s_palette() -> None:
    p = FramePalette(5)
    assert p.mode == "P" and p.dtype == np.uint8
    assert [tuple(v) for v in p.lut[:5]] == [palette.rgb(s) for s in palette.colours(5)]
    assert tuple(p.lut[p.white]) == (255, 255, 255) and tuple(p.lut[p.black]) == (0, 0, 0)
    assert p.grey0 == 5 and p.shades == MAX_SHADES and p.blend0 == 13
    assert p.transparent == len(p.lut) - 1 == 13 + 5 * MAX_SHADES
    for code, swatch in enumerate(palette.colours(5)):
        assert tuple(p.lut[p.ink[code]]) == palette.rgb(palette.ink(swatch))
    # a shade lies between its colour and its ink
    first_shade = p.lut[p.blend0].astype(int)
    colour, ink = p.lut[0].astype(int), p.lut[p.ink[0]].astype(int)
    assert (np.minimum(colour, ink) <= first_shade).all() and (first_shade <= np.maximum(colour, ink)).all()


def test_fewer_shades_when_the_palette_is_full_and_rgb_past_it() -> None:
    p = FramePalette(40)
    assert p.shades == (256 - 48 - 1) // 40 and len(p.lut) <= 256 and p.mode == "P"
    wide = FramePalette(300)
    assert wide.mode == "RGB" and wide.dtype == np.int32 and wide.shades == MAX_SHADES
    assert wide.image(np.full((2, 3), 299, dtype=np.int32)).getpixel((0, 0)) == palette.rgb(palette.colour(299))


def test_plain_and_labelled_tiles() -> None:
    p = FramePalette(3)
    grid = np.array([[0, 1], [2, 0]], dtype=np.int32)
    plain = CellTiles(p, 3, 8, "none").board_pixels(grid)
    assert np.array_equal(plain, np.repeat(np.repeat(grid, 8, axis=0), 8, axis=1))
    tiles = CellTiles(p, 3, 16, "symbols")
    assert tiles.draw_labels
    pixels = tiles.board_pixels(grid)
    cell = pixels[16:32, :16]  # colour code 2
    assert cell[0, 0] == 2 and p.ink[2] in cell  # the colour at the edge, the label in ink
    unlabelled = np.array([[True, False], [False, False]])
    marked = tiles.board_pixels(grid, unlabelled)
    assert (marked[:16, :16] == 0).all()  # a plain block
    assert np.array_equal(marked[16:, :], pixels[16:, :])
    assert not CellTiles(p, 3, 11, "symbols").draw_labels  # too small to read


@pytest.mark.parametrize(("cell", "width"), [(1, 0), (2, 0), (3, 1), (16, 2), (40, 4), (200, 4)])
def test_outline_width(cell: int, width: int) -> None:
    assert outline_width(cell) == width


def test_the_outline_follows_the_flood_s_border_inside_its_cells() -> None:
    cell, ink = 8, 9
    # an L of flooded cells: (0,0), (0,1), (1,0); (1,1) is outside
    flood = np.zeros((3, 3), dtype=bool)
    flood[0, :2] = flood[1, 0] = True
    pixels = np.zeros((3 * cell, 3 * cell), dtype=np.uint8)
    outline_flood(pixels, flood, cell, ink)
    painted = pixels == ink
    expected = np.zeros_like(painted)
    last = cell - 1
    expected[cell : 2 * cell, last] = True  # (1,0) meets (1,1) on its right
    expected[2 * cell - 1, 0:cell] = True  # ... and (2,0) below it
    expected[last, cell : 2 * cell] = True  # (0,1) meets (1,1) below it
    expected[0:cell, 2 * cell - 1] = True  # ... and (0,2) on its right
    expected[last, last] = True  # the inner corner of the L, in (0,0)
    # nothing along the board's edge, nothing between flooded cells, nothing outside
    assert np.array_equal(painted, expected)
    untouched = np.zeros_like(pixels)
    outline_flood(untouched, flood, 2, ink)  # cells under 3 px get no outline
    assert not untouched.any()
