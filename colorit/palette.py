"""The one palette: how a colour is shown in every picture, in the terminal and on the web page.

A board's colours are shown by their code (the rank of the colour id among the board's
ids), so a board looks the same in a GIF, a PNG, the terminal and the browser, and its
first colours get the most distinct swatches. The first colours are the Okabe-Ito set,
chosen to stay apart for the common kinds of colour blindness, followed by four of Paul
Tol's; past ``len(PALETTE)`` colours are generated (golden-angle hues, alternating
lightness), distinct from each other but no longer safe for colour-blind eyes, which is
what labels are for: a number or a symbol (a shape each renderer draws itself, so no
font needs the glyph).

One numbering a person reads: a colour's *number* is its code + 1 (its rank among the
board's ids, from 1). Number labels, captions ("colour 3"), the terminal's status line,
the page's colour buttons and its keys 1-9 all use it (``number``, ``name``). A colour
id that differs from its number (ids 0..C-1, or any other ids) is shown beside it as
"colour 3 (id 2)", since answer files hold ids.

Pure Python: nothing here imports numpy or an imaging library.
"""

from __future__ import annotations

import colorsys
import math

#: Fixed swatches, most distinct first.
PALETTE: tuple[str, ...] = (
    "#E69F00",  # orange
    "#56B4E9",  # sky blue
    "#009E73",  # bluish green
    "#F0E442",  # yellow
    "#0072B2",  # blue
    "#D55E00",  # vermillion
    "#CC79A7",  # reddish purple
    "#332288",  # indigo
    "#999933",  # olive
    "#882255",  # wine
    "#DDDDDD",  # pale grey
    "#44AA99",  # teal
)

#: Shapes for the symbol labels, in order of colour code (repeated past the end, with the
#: number beside them on the page's palette buttons).
SYMBOLS: tuple[str, ...] = (
    "circle",
    "triangle",
    "square",
    "diamond",
    "cross",
    "plus",
    "star",
    "ring",
    "bar",
    "column",
    "dot",
    "hexagon",
)

#: The same shapes as terminal characters.
SYMBOL_CHARS: dict[str, str] = {
    "circle": "●",
    "triangle": "▲",
    "square": "■",
    "diamond": "◆",
    "cross": "✕",
    "plus": "+",
    "star": "★",
    "ring": "○",
    "bar": "▬",
    "column": "▮",
    "dot": "·",
    "hexagon": "⬢",
}

LABEL_KINDS = ("none", "numbers", "symbols")

_GOLDEN_ANGLE = 137.50776405003785


def _generated(index: int) -> str:
    """A swatch past the fixed ones: hues spread by the golden angle, lightness and
    saturation alternating so that neighbours in hue still differ."""
    k = index - len(PALETTE)
    hue = ((k * _GOLDEN_ANGLE) + 20.0) % 360.0 / 360.0
    lightness = (0.45, 0.62, 0.34)[k % 3]
    saturation = (0.75, 0.55, 0.9)[(k // 3) % 3]
    r, g, b = colorsys.hls_to_rgb(hue, lightness, saturation)
    return f"#{round(r * 255):02X}{round(g * 255):02X}{round(b * 255):02X}"


def colour(code: int) -> str:
    """The swatch (``#RRGGBB``) of colour code ``code``."""
    if code < 0:
        raise ValueError(f"colour code must be 0 or more, got {code}")
    return PALETTE[code] if code < len(PALETTE) else _generated(code)


def colours(n: int) -> list[str]:
    """The swatches of codes ``0 .. n - 1``."""
    return [colour(i) for i in range(n)]


def rgb(swatch: str) -> tuple[int, int, int]:
    """``(r, g, b)`` of a ``#RRGGBB`` swatch."""
    text = swatch.lstrip("#")
    return int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16)


def _luminance(swatch: str) -> float:
    """Relative luminance (WCAG) of a swatch."""

    def channel(v: int) -> float:
        s = v / 255
        return s / 12.92 if s <= 0.03928 else math.pow((s + 0.055) / 1.055, 2.4)

    r, g, b = rgb(swatch)
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def ink(swatch: str) -> str:
    """Black or white, whichever reads better on ``swatch`` (for labels and outlines)."""
    lum = _luminance(swatch)
    return "#000000" if (lum + 0.05) / 0.05 >= 1.05 / (lum + 0.05) else "#FFFFFF"


def symbol(code: int) -> str:
    """The shape name of colour code ``code``."""
    return SYMBOLS[code % len(SYMBOLS)]


def number(code: int) -> int:
    """The number a person reads for colour code ``code``: its rank among the board's
    colours, counted from 1 (the number label, the caption, the page's button and key)."""
    if code < 0:
        raise ValueError(f"colour code must be 0 or more, got {code}")
    return code + 1


def name(code: int, ident: int | None = None) -> str:
    """``colour 3``: how captions and status lines name colour code ``code``; with the
    colour's id when that differs from its number, ``colour 3 (id 2)``."""
    n = number(code)
    if ident is None or int(ident) == n:
        return f"colour {n}"
    return f"colour {n} (id {int(ident)})"


def label(code: int, kind: str) -> str:
    """The text drawn in a cell of colour code ``code``: ``numbers`` gives its
    ``number``, ``symbols`` a character for terminals, ``none`` nothing."""
    if kind == "numbers":
        return str(number(code))
    if kind == "symbols":
        return SYMBOL_CHARS[symbol(code)]
    if kind == "none":
        return ""
    raise ValueError(f"labels must be one of {', '.join(LABEL_KINDS)}, got {kind!r}")


def as_json(n: int) -> dict[str, list[str] | list[int]]:
    """The palette for ``n`` colours as the web page takes it (``numbers``: what its
    buttons, labels and keys show for each code)."""
    return {
        "colours": colours(n),
        "ink": [ink(c) for c in colours(n)],
        "symbols": [symbol(i) for i in range(n)],
        "numbers": [number(i) for i in range(n)],
    }
