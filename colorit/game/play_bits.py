"""The game on bitset rows: the kernels the searches play with, shared by every solver
that keeps its states as sets.

A state is the flooded set ``F`` (a bitset of regions) and its frontier ``N`` (the regions
outside ``F`` that border it). Playing colour ``c`` adds ``A_c = N & colour_mask[c]`` to
``F``; the frontier then loses ``A_c`` and gains the unflooded neighbours of ``A_c``. A
move costs O(words) and needs the colours x words table (``RegionGraph.colour_mask``);
the game on adjacency lists (``play_lists``) plays any board, whatever its colour count,
and is what the basic AI and greedy play on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .._kernel import kernel
from .bitset import ctz, popcount

if TYPE_CHECKING:
    from .graph import RegionGraph


@kernel
def frontier(flooded, adj_ptr, adj_idx, out):  # type: ignore[no-untyped-def]
    """Write N(flooded) into ``out``."""
    words = flooded.shape[0]
    for w in range(words):
        out[w] = 0
    for w in range(words):
        x = flooded[w]
        while x != np.uint64(0):
            r = (w << 6) + np.int64(ctz(x))
            x &= x - np.uint64(1)
            for k in range(adj_ptr[r], adj_ptr[r + 1]):
                nb = adj_idx[k]
                out[nb >> 6] |= np.uint64(1) << np.uint64(nb & 63)
    for w in range(words):
        out[w] &= ~flooded[w]


@kernel
def play(flooded, front, colour_mask, colour, adj_ptr, adj_idx):  # type: ignore[no-untyped-def]
    """Play ``colour``: update ``flooded`` and ``front`` in place; return regions absorbed."""
    words = flooded.shape[0]
    absorbed = 0
    for w in range(words):
        a = front[w] & colour_mask[colour, w]
        if a == np.uint64(0):
            continue
        flooded[w] |= a
        front[w] &= ~a
        absorbed += np.int64(popcount(a))
        x = a
        while x != np.uint64(0):
            r = (w << 6) + np.int64(ctz(x))
            x &= x - np.uint64(1)
            for k in range(adj_ptr[r], adj_ptr[r + 1]):
                nb = adj_idx[k]
                front[nb >> 6] |= np.uint64(1) << np.uint64(nb & 63)
    for w in range(words):
        front[w] &= ~flooded[w]
    return absorbed


@kernel
def play_rows(flooded, front, colour_mask, adj_bits, c, child, child_front, shape):  # type: ignore[no-untyped-def]
    """``play`` on bitset adjacency rows (``adj_bits[r]`` = neighbours of r), into
    ``child``/``child_front`` (``flooded``/``front`` unchanged), at the width ``shape``
    (a tuple: a compile-time width, whose word loops unroll)."""
    words = len(shape)
    for w in range(words):
        a = front[w] & colour_mask[c, w]
        child[w] = flooded[w] | a
        child_front[w] = front[w] & ~a
    for w in range(words):
        x = front[w] & colour_mask[c, w]
        while x != np.uint64(0):
            r = (w << 6) + np.int64(ctz(x))
            x &= x - np.uint64(1)
            for v in range(words):
                child_front[v] |= adj_bits[r, v]
    for w in range(words):
        child_front[w] &= ~child[w]


@kernel
def eliminating_colour(flooded, front, colour_mask, shape):  # type: ignore[no-untyped-def]
    """A colour whose remaining regions all border the flood, or -1: playing it now is
    always optimal (it must be played some time, and playing it first loses nothing).
    The sets have ``len(shape)`` words: a tuple makes it a compile-time width, the set
    itself (``flooded``) its own width, at run time."""
    for c in range(colour_mask.shape[0]):
        absorbs = False
        complete = True
        for w in range(len(shape)):
            a = front[w] & colour_mask[c, w]
            if a != np.uint64(0):
                absorbs = True
            if (colour_mask[c, w] & ~flooded[w]) != a:
                complete = False
        if absorbs and complete:
            return c
    return -1


@kernel
def absorbed_cells(front, region_colour, region_size, out):  # type: ignore[no-untyped-def]
    """``out[c]`` = cells the move ``c`` would absorb now."""
    for c in range(out.shape[0]):
        out[c] = 0
    for w in range(front.shape[0]):
        x = front[w]
        while x != np.uint64(0):
            r = (w << 6) + np.int64(ctz(x))
            x &= x - np.uint64(1)
            out[region_colour[r]] += region_size[r]


def start_state(graph: RegionGraph, flooded: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The flooded set a search or a playout starts from (default: the start region alone,
    ``RegionGraph.initial_state``) and its frontier, at the graph's own width (the padded
    graph has its own, ``PaddedGraph.root`` and ``root_front``)."""
    bits = graph.initial_state() if flooded is None else flooded
    front = np.zeros_like(bits)
    frontier(bits, graph.adj_ptr, graph.adj_idx, front)
    return bits, front
