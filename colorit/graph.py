"""The region graph: the board seen as same-coloured 4-connected regions and their
adjacency. Every solver works on it, never on cells: a move adds to the flooded set
exactly the regions of the played colour that border it (two regions of one colour are
never adjacent, so the flood never spreads further in the same move).

Regions are numbered in reading order of their first cell, so region 0 holds the top-left
cell. Adjacency is kept as CSR lists (``adj_ptr``/``adj_idx``): bitset rows would cost
R*R bits, too much for a 300x300 board of single-cell regions.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._jit import kernel
from .bitset import n_words
from .board import Board


@kernel
def _label_regions(codes):  # type: ignore[no-untyped-def]
    h, w = codes.shape
    labels = np.full((h, w), -1, dtype=np.int32)
    stack = np.empty(h * w, dtype=np.int64)
    n = 0
    for r0 in range(h):
        for c0 in range(w):
            if labels[r0, c0] >= 0:
                continue
            colour = codes[r0, c0]
            labels[r0, c0] = n
            sp = 1
            stack[0] = r0 * w + c0
            while sp > 0:
                sp -= 1
                r = stack[sp] // w
                c = stack[sp] % w
                if r > 0 and labels[r - 1, c] < 0 and codes[r - 1, c] == colour:
                    labels[r - 1, c] = n
                    stack[sp] = (r - 1) * w + c
                    sp += 1
                if r + 1 < h and labels[r + 1, c] < 0 and codes[r + 1, c] == colour:
                    labels[r + 1, c] = n
                    stack[sp] = (r + 1) * w + c
                    sp += 1
                if c > 0 and labels[r, c - 1] < 0 and codes[r, c - 1] == colour:
                    labels[r, c - 1] = n
                    stack[sp] = r * w + c - 1
                    sp += 1
                if c + 1 < w and labels[r, c + 1] < 0 and codes[r, c + 1] == colour:
                    labels[r, c + 1] = n
                    stack[sp] = r * w + c + 1
                    sp += 1
            n += 1
    return labels, n


@kernel
def _colour_masks(region_colour, n_colours, words):  # type: ignore[no-untyped-def]
    masks = np.zeros((n_colours, words), dtype=np.uint64)
    for r in range(region_colour.shape[0]):
        masks[region_colour[r], r >> 6] |= np.uint64(1) << np.uint64(r & 63)
    return masks


@dataclass(frozen=True, eq=False)
class RegionGraph:
    """Regions of a board and their adjacency, in the arrays the kernels take."""

    labels: np.ndarray  #: (H, W) int32, the region of each cell
    region_colour: np.ndarray  #: (R,) int32 colour code of each region
    region_size: np.ndarray  #: (R,) int32 cells in each region
    adj_ptr: np.ndarray  #: (R + 1,) int32, neighbours of r are adj_idx[adj_ptr[r]:adj_ptr[r+1]]
    adj_idx: np.ndarray  #: (2 * edges,) int32
    colour_mask: np.ndarray  #: (C, words) uint64, the regions of each colour
    start_region: int
    n_colours: int

    @classmethod
    def from_board(cls, board: Board) -> RegionGraph:
        codes = board.codes
        labels, n = _label_regions(codes)
        flat = labels.ravel()
        first = np.full(n, -1, dtype=np.int64)
        first[flat[::-1]] = np.arange(flat.shape[0] - 1, -1, -1)
        region_colour = codes.ravel()[first].astype(np.int32)
        region_size = np.bincount(flat, minlength=n).astype(np.int32)
        pairs = [
            (labels[:, :-1].ravel(), labels[:, 1:].ravel()),
            (labels[:-1, :].ravel(), labels[1:, :].ravel()),
        ]
        a = np.concatenate([p[0] for p in pairs]).astype(np.int64)
        b = np.concatenate([p[1] for p in pairs]).astype(np.int64)
        differ = a != b
        a, b = a[differ], b[differ]
        keys = np.unique(np.concatenate([a * n + b, b * n + a]))
        src = (keys // n).astype(np.int32)
        dst = (keys % n).astype(np.int32)
        adj_ptr = np.zeros(n + 1, dtype=np.int32)
        np.cumsum(np.bincount(src, minlength=n), out=adj_ptr[1:])
        masks = _colour_masks(region_colour, board.n_colours, n_words(n))
        start_region = int(labels[board.start])
        return cls(labels, region_colour, region_size, adj_ptr, dst, masks, start_region, board.n_colours)

    @property
    def n_regions(self) -> int:
        return int(self.region_colour.shape[0])

    @property
    def n_words(self) -> int:
        return int(self.colour_mask.shape[1])

    def neighbours(self, region: int) -> np.ndarray:
        return self.adj_idx[self.adj_ptr[region] : self.adj_ptr[region + 1]]

    def initial_state(self) -> np.ndarray:
        """The flooded set before any move: the start region alone."""
        bits = np.zeros(self.n_words, dtype=np.uint64)
        bits[self.start_region >> 6] |= np.uint64(1) << np.uint64(self.start_region & 63)
        return bits

    def __repr__(self) -> str:
        return f"<RegionGraph {self.n_regions} regions, {self.n_colours} colours, start region {self.start_region}>"


@kernel
def _adjacency_bits(adj_ptr, adj_idx, words):  # type: ignore[no-untyped-def]
    n = adj_ptr.shape[0] - 1
    bits = np.zeros((n, words), dtype=np.uint64)
    for r in range(n):
        for k in range(adj_ptr[r], adj_ptr[r + 1]):
            nb = adj_idx[k]
            bits[r, nb >> 6] |= np.uint64(1) << np.uint64(nb & 63)
    return bits


def adjacency_bits(graph: RegionGraph) -> np.ndarray:
    """Adjacency as bitset rows, (R, words) uint64: R*R bits, for the exact searches on
    graphs small enough to afford it."""
    return _adjacency_bits(graph.adj_ptr, graph.adj_idx, graph.n_words)  # type: ignore[no-any-return]
