"""What labels are drawn with in the pictures: Pillow's bundled font and the symbol shapes.

A label is a colour's number (``palette.number``, code + 1) or a shape
(``palette.symbol``), drawn with ImageDraw so that no font needs the glyph. Both come out
as coverage masks (0..255, one byte a pixel) that ``colorit.render.tiles`` blends
between a colour and its ink. Labels are drawn only where they can be read: cells of at
least ``MIN_LABEL_CELL`` pixels whose numbers fit at ``MIN_LABEL_FONT`` pixels or more.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from .. import palette as pal

#: Cells smaller than this show no labels.
MIN_LABEL_CELL = 12
#: Smallest label font, in pixels: numbers that only fit smaller are not drawn.
MIN_LABEL_FONT = 8

_SUPERSAMPLE = 4  # symbols are drawn this much larger, then averaged down


@lru_cache(maxsize=64)
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's bundled font at ``size`` pixels (its fixed bitmap font where Pillow was
    built without FreeType)."""
    try:
        return ImageFont.load_default(size=size)
    except (ImportError, OSError, TypeError):  # pragma: no cover - Pillow without FreeType
        return ImageFont.load_default()


def text_width(text: str, size: int) -> float:
    """The width in pixels of ``text`` in the font at ``size`` pixels."""
    return float(font(size).getlength(text))


def number_font_size(cell: int, widest: str) -> int:
    """The largest font (at most 70% of the cell) whose widest number fills at most 85% of it."""
    size = max(1, int(cell * 0.7))
    while size >= MIN_LABEL_FONT and text_width(widest, size) > cell * 0.85:
        size -= 1
    return size


def labels_fit(cell: int, labels: str, n_colours: int) -> bool:
    """Whether labels of this kind can be read in cells of ``cell`` pixels."""
    if labels == "none" or cell < MIN_LABEL_CELL:
        return False
    return labels != "numbers" or number_font_size(cell, str(n_colours)) >= MIN_LABEL_FONT


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


def draw_symbol(draw: ImageDraw.ImageDraw, name: str, size: int) -> None:
    """Draw shape ``name`` (one of ``palette.SYMBOLS``) in white, centred in a ``size`` square."""
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
def label_coverage(code: int, kind: str, size: int, number_font: int) -> bytes:
    """The label of colour code ``code`` in a ``size`` square as coverage 0..255 (row
    major): its number in the font at ``number_font`` pixels, or its symbol, drawn
    ``_SUPERSAMPLE`` times larger and averaged down for smooth edges."""
    if kind == "numbers":
        img = Image.new("L", (size, size), 0)
        ImageDraw.Draw(img).text((size / 2, size / 2), str(pal.number(code)), fill=255, font=font(number_font), anchor="mm")
        return img.tobytes()
    big = Image.new("L", (size * _SUPERSAMPLE, size * _SUPERSAMPLE), 0)
    draw_symbol(ImageDraw.Draw(big), pal.symbol(code), size * _SUPERSAMPLE)
    return big.resize((size, size), Image.Resampling.BOX).tobytes()
