"""The region graph: the board seen as same-coloured 4-connected regions and their
adjacency. Every solver works on it, never on cells: a move adds to the flooded set
exactly the regions of the played colour that border it (two regions of one colour are
never adjacent, so the flood never spreads further in the same move).

Regions are numbered in reading order of their first cell, so region 0 holds the top-left
cell. Adjacency is kept as CSR lists (``adj_ptr``/``adj_idx``): bitset rows would cost
R*R bits, too much for a 300x300 board of single-cell regions. The bitset tables (a row
of region bits per colour, and adjacency rows) are built on first use and only where
they are affordable (``colour_tables_fit``, ``BITSET_MAX_REGIONS``): a 1000x1000 board
with a million colours has a graph, but no colour table (it would take 125 TB).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import NamedTuple

import numpy as np

from .._kernel import kernel
from ..errors import ColoritError
from .bitset import ctz, n_words, padded_width, width_shape
from .board import Board

#: Above this many regions the bitset adjacency (R x R bits) costs too much, and searches
#: use the adjacency lists: 1024 regions is 128 KB of rows, 4096 would be 2 MB.
BITSET_MAX_REGIONS = 1024
#: Most bytes the colour table (colours x words) may take: past it the dense solvers
#: cannot run and the list-based ones (``linear``, ``greedy``) answer.
COLOUR_TABLE_MAX_BYTES = 1 << 30


class GraphArrays(NamedTuple):
    """The graph as the search kernels take it, in one argument."""

    colour_mask: np.ndarray  #: (C, words) uint64, the regions of each colour
    region_colour: np.ndarray  #: (R,) int32
    region_size: np.ndarray  #: (R,) int32, cells per region
    adj_ptr: np.ndarray  #: (R + 1,) int32
    adj_idx: np.ndarray  #: (2 * edges,) int32


class GraphTooBig(ColoritError):
    """A solver's tables would not fit this graph (too many colours times regions)."""


@kernel
def _label_regions(codes):  # type: ignore[no-untyped-def]
    """Each cell's region, on the board framed by a border of -1 cells: a flat index then
    reaches a cell's four neighbours without bounds tests or divisions. Returns the framed
    labels and codes ((h + 2) * (w + 2) each, -1 on the border) and the number of regions."""
    h, w = codes.shape
    row = w + 2
    framed = np.full((h + 2) * row, -1, dtype=np.int32)
    for r in range(h):
        for c in range(w):
            framed[(r + 1) * row + c + 1] = codes[r, c]
    labels = np.full((h + 2) * row, -1, dtype=np.int32)
    stack = np.empty(h * w, dtype=np.int32)
    n = 0
    for r in range(h):
        for p0 in range((r + 1) * row + 1, (r + 1) * row + w + 1):
            if labels[p0] >= 0:
                continue
            colour = framed[p0]
            labels[p0] = n
            sp = 1
            stack[0] = p0
            while sp > 0:
                sp -= 1
                p = stack[sp]
                for q in (p - row, p + row, p - 1, p + 1):
                    if framed[q] == colour and labels[q] < 0:
                        labels[q] = n
                        stack[sp] = q
                        sp += 1
            n += 1
    return labels, framed, n


def count_regions(board: Board) -> int:
    """How many regions ``board`` has: its cells labelled, no graph built (a third of
    the time ``RegionGraph.from_board`` takes; a bench sizes its kernels by it)."""
    return int(_label_regions(board.codes)[2])


@kernel
def _colour_masks(region_colour, n_colours, words):  # type: ignore[no-untyped-def]
    masks = np.zeros((n_colours, words), dtype=np.uint64)
    for r in range(region_colour.shape[0]):
        masks[region_colour[r], r >> 6] |= np.uint64(1) << np.uint64(r & 63)
    return masks


@kernel
def _build_graph(codes):  # type: ignore[no-untyped-def]
    """Labels, region colours and sizes, and deduplicated CSR adjacency. The tests of
    whether two cells touch across regions go either way at random on a random board, so
    they are counted rather than branched on: every contact is written, and kept (the
    count moves on) only if it is one; the border's -1 adds its 0 to the spare last
    ``deg``."""
    framed_labels, framed, n = _label_regions(codes)
    h, w = codes.shape
    row = w + 2
    labels = np.empty((h, w), dtype=np.int32)
    region_colour = np.empty(n, dtype=np.int32)
    region_size = np.zeros(n, dtype=np.int32)
    deg = np.zeros(n + 1, dtype=np.int64)
    contacts = np.empty((2 * h * w + 1, 2), dtype=np.int32)  # (region, other region), in reading order
    m = 0
    for r in range(h):
        for c in range(w):
            p = (r + 1) * row + c + 1
            a = framed_labels[p]
            labels[r, c] = a
            region_size[a] += 1
            region_colour[a] = framed[p]
            for b in (framed_labels[p + 1], framed_labels[p + row]):  # right, below (-1: the border)
                touch = (b >= 0) & (b != a)
                contacts[m, 0] = a
                contacts[m, 1] = b
                m += touch
                deg[a] += touch
                deg[b] += touch
    # every contact, both ways, grouped by region (counting sort)
    start = np.zeros(n + 1, dtype=np.int64)
    for i in range(n):
        start[i + 1] = start[i] + deg[i]
    fill = start[:n].copy()
    raw = np.empty(start[n], dtype=np.int32)
    for i in range(m):
        a = contacts[i, 0]
        b = contacts[i, 1]
        raw[fill[a]] = b
        fill[a] += 1
        raw[fill[b]] = a
        fill[b] += 1
    # drop repeated contacts, keeping first-seen order
    seen = np.full(n, -1, dtype=np.int32)
    adj_ptr = np.zeros(n + 1, dtype=np.int32)
    adj_idx = np.empty(start[n], dtype=np.int32)
    k = 0
    for a in range(n):
        for i in range(start[a], start[a + 1]):
            b = raw[i]
            first = seen[b] != a
            seen[b] = a
            adj_idx[k] = b
            k += first
        adj_ptr[a + 1] = k
    return labels, region_colour, region_size, adj_ptr, adj_idx[:k].copy()


@dataclass(frozen=True, eq=False)
class RegionGraph:
    """Regions of a board and their adjacency, in the arrays the kernels take."""

    labels: np.ndarray  #: (H, W) int32, the region of each cell
    region_colour: np.ndarray  #: (R,) int32 colour code of each region
    region_size: np.ndarray  #: (R,) int32 cells in each region
    adj_ptr: np.ndarray  #: (R + 1,) int32, neighbours of r are adj_idx[adj_ptr[r]:adj_ptr[r+1]]
    adj_idx: np.ndarray  #: (2 * edges,) int32
    start_region: int
    n_colours: int

    @classmethod
    def from_board(cls, board: Board) -> RegionGraph:
        labels, region_colour, region_size, adj_ptr, adj_idx = _build_graph(board.codes)
        start_region = int(labels[board.start])
        return cls(labels, region_colour, region_size, adj_ptr, adj_idx, start_region, board.n_colours)

    @property
    def n_regions(self) -> int:
        return int(self.region_colour.shape[0])

    @cached_property
    def n_words(self) -> int:
        """Words of a region bitset."""
        return n_words(self.n_regions)

    def colour_table_bytes(self) -> int:
        return self.n_colours * self.n_words * 8

    @property
    def colour_tables_fit(self) -> bool:
        """Whether ``colour_mask`` is affordable (the dense solvers need it)."""
        return self.colour_table_bytes() <= COLOUR_TABLE_MAX_BYTES

    @cached_property
    def colour_mask(self) -> np.ndarray:
        """(C, words) uint64: the regions of each colour; ``GraphTooBig`` when
        ``colour_tables_fit`` is false."""
        if not self.colour_tables_fit:
            raise GraphTooBig(
                f"a board with {self.n_colours:,} colours and {self.n_regions:,} regions is too big for the "
                f"bitset solvers (their colour table would take {self.colour_table_bytes() / 2**30:,.0f} GiB)"
            )
        return _colour_masks(self.region_colour, self.n_colours, self.n_words)  # type: ignore[no-any-return]

    def arrays(self) -> GraphArrays:
        """The kernels' view of the graph (needs ``colour_mask``: ``GraphTooBig`` where
        it does not fit)."""
        return GraphArrays(self.colour_mask, self.region_colour, self.region_size, self.adj_ptr, self.adj_idx)

    @property
    def adjacency_bits_fit(self) -> bool:
        """Whether R x R adjacency bits are affordable (``BITSET_MAX_REGIONS``)."""
        return self.n_regions <= BITSET_MAX_REGIONS

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


@kernel
def colour_rows(colour_mask, adj_bits):  # type: ignore[no-untyped-def]
    """Row ``c``: the neighbours of colour ``c``'s regions, together (the union of their
    ``adj_bits`` rows), as ``bound.bound_bits`` takes them."""
    n_col, words = colour_mask.shape
    rows = np.zeros((n_col, adj_bits.shape[1]), dtype=np.uint64)
    for c in range(n_col):
        for w in range(words):
            x = colour_mask[c, w]
            while x != np.uint64(0):
                r = (w << 6) + np.int64(ctz(x))
                x &= x - np.uint64(1)
                for v in range(adj_bits.shape[1]):
                    rows[c, v] |= adj_bits[r, v]
    return rows


def adjacency_bits(graph: RegionGraph) -> np.ndarray:
    """Adjacency as bitset rows, (R, words) uint64: R*R bits, for the exact searches on
    graphs small enough to afford it."""
    return _adjacency_bits(graph.adj_ptr, graph.adj_idx, graph.n_words)  # type: ignore[no-any-return]


class PaddedGraph(NamedTuple):
    """A graph as the compile-time-width search kernels take it: every set padded with zero
    words to ``padded_width`` (see ``bitset.WIDTH_TIERS``)."""

    arrays: GraphArrays  #: colour_mask padded
    adj_bits: np.ndarray  #: (R, words) uint64 adjacency rows, padded
    colour_adj: np.ndarray  #: (C, words) uint64 the rows of each colour's regions together (``colour_rows``)
    root: np.ndarray  #: (words,) the start position
    root_front: np.ndarray  #: (words,) its frontier
    shape: tuple[int, ...] | np.ndarray  #: the kernels' width argument (``bitset.width_shape``)


def padded(graph: RegionGraph) -> PaddedGraph:
    """``graph`` padded to its search width (needs bitset adjacency: ``adjacency_bits_fit``),
    made once per graph: the first answer and the search that follows it share it, and
    none of them writes to its arrays."""
    kept: PaddedGraph | None = graph.__dict__.get("_padded")
    if kept is None:
        kept = graph.__dict__["_padded"] = _padded(graph)
    return kept


def _padded(graph: RegionGraph) -> PaddedGraph:
    words = padded_width(graph.n_words)
    colour_mask, adj_bits, colour_adj, root, root_front = _padded_sets(
        graph.region_colour, graph.adj_ptr, graph.adj_idx, graph.n_colours, graph.start_region, words)
    arrays = GraphArrays(colour_mask, graph.region_colour, graph.region_size, graph.adj_ptr, graph.adj_idx)
    return PaddedGraph(arrays, adj_bits, colour_adj, root, root_front, width_shape(words))


@kernel
def _padded_sets(region_colour, adj_ptr, adj_idx, n_colours, start_region, words):  # type: ignore[no-untyped-def]
    """``PaddedGraph``'s sets, ``words`` words wide, in one pass over the adjacency lists
    (a bench makes one per board): each colour's regions, each region's neighbours, each
    colour's regions' neighbours together (``colour_rows``), the start region and its
    neighbours (its frontier)."""
    n = region_colour.shape[0]
    colour_mask = np.zeros((n_colours, words), dtype=np.uint64)
    adj_bits = np.zeros((n, words), dtype=np.uint64)
    colour_adj = np.zeros((n_colours, words), dtype=np.uint64)
    root = np.zeros(words, dtype=np.uint64)
    for r in range(n):
        c = region_colour[r]
        colour_mask[c, r >> 6] |= np.uint64(1) << np.uint64(r & 63)
        for k in range(adj_ptr[r], adj_ptr[r + 1]):
            nb = adj_idx[k]
            bit = np.uint64(1) << np.uint64(nb & 63)
            adj_bits[r, nb >> 6] |= bit
            colour_adj[c, nb >> 6] |= bit
    root[start_region >> 6] = np.uint64(1) << np.uint64(start_region & 63)
    root_front = adj_bits[start_region].copy()  # the start region alone is flooded
    return colour_mask, adj_bits, colour_adj, root, root_front


