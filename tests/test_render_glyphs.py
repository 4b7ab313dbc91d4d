"""Label glyphs: number fonts that fit their cells, a distinct centred shape per symbol,
and the rule for when labels can be read at all."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image, ImageDraw

from colorit import palette
from colorit.render.glyphs import (
    MIN_LABEL_CELL,
    MIN_LABEL_FONT,
    draw_symbol,
    label_coverage,
    labels_fit,
    number_font_size,
    text_width,
)


def coverage(code: int, kind: str, size: int) -> np.ndarray:
    font = number_font_size(size, str(code + 1)) if kind == "numbers" else 0
    return np.frombuffer(label_coverage(code, kind, size, font), dtype=np.uint8).reshape(size, size)


@pytest.mark.parametrize("cell", [12, 16, 24, 40])
@pytest.mark.parametrize("widest", ["9", "12", "240"])
def test_number_fonts_fit_their_cells(cell: int, widest: str) -> None:
    size = number_font_size(cell, widest)
    assert size <= int(cell * 0.7)
    if size >= MIN_LABEL_FONT:
        assert text_width(widest, size) <= cell * 0.85
        assert text_width(widest, size + 1) > cell * 0.85 or size == int(cell * 0.7)


def test_labels_fit_only_where_they_can_be_read() -> None:
    assert not labels_fit(64, "none", 4)
    for kind in ("numbers", "symbols"):
        assert not labels_fit(MIN_LABEL_CELL - 1, kind, 4)
        assert labels_fit(MIN_LABEL_CELL, kind, 4)
    # four-digit numbers do not fit a 12 px cell; shapes do
    assert not labels_fit(MIN_LABEL_CELL, "numbers", 1000)
    assert labels_fit(MIN_LABEL_CELL, "symbols", 1000)


def test_every_symbol_is_a_distinct_shape_near_the_centre() -> None:
    size = 24
    masks = [coverage(code, "symbols", size) for code in range(len(palette.SYMBOLS))]
    for mask in masks:
        assert mask.any() and not mask[0].any() and not mask[:, 0].any()  # inside the cell
        ys, xs = np.nonzero(mask)
        weights = mask[ys, xs].astype(float)
        assert abs(np.average(ys, weights=weights) - size / 2) < size * 0.15
        assert abs(np.average(xs, weights=weights) - size / 2) < size * 0.15
    assert len({m.tobytes() for m in masks}) == len(masks)
    # past the last shape they repeat, as palette.symbol does
    assert np.array_equal(coverage(len(palette.SYMBOLS), "symbols", size), masks[0])


def test_symbols_are_smoothed_and_numbers_are_the_colour_s_number() -> None:
    ring = coverage(palette.SYMBOLS.index("ring"), "symbols", 20)
    assert ((ring > 0) & (ring < 255)).any()  # averaged-down edges
    one, two = coverage(0, "numbers", 20), coverage(1, "numbers", 20)
    assert one.any() and two.any() and not np.array_equal(one, two)
    assert (one > 0).sum() < (two > 0).sum()  # "1" is thinner than "2"


def test_an_unknown_shape_is_refused() -> None:
    img = Image.new("L", (8, 8))
    with pytest.raises(ValueError, match="no drawing for symbol 'moon'"):
        draw_symbol(ImageDraw.Draw(img), "moon", 8)
