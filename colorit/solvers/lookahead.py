"""``lookahead``: play the move whose result has the lowest colour-elimination bound (ties:
the most cells absorbed). Much closer to optimal than ``greedy`` at a few bound
evaluations per move, which makes it the exact searches' first answer: every node the
search can prove no better than it is never stored."""

from __future__ import annotations

import numpy as np

from .._jit import kernel
from ..bound import bound_bits
from ..bitset import count
from ..flood import absorbed_cells, frontier, play
from ..graph import RegionGraph, adjacency_bits
from .base import Control, Outcome, register
from .greedy import greedy_moves

#: Above this many regions the bitset adjacency (R x R bits) costs too much and one
#: lookahead pass (bound evaluations over the whole graph per move, in one kernel call)
#: too long: searches there start from ``greedy`` and use adjacency lists.
BITSET_MAX_REGIONS = 1024


@kernel
def _lookahead_moves(start_bits, start_front, colour_mask, adj_bits, region_colour, region_size, adj_ptr, adj_idx):  # type: ignore[no-untyped-def]
    n = region_colour.shape[0]
    n_col = colour_mask.shape[0]
    words = start_bits.shape[0]
    flooded = start_bits.copy()
    front = start_front.copy()
    child = np.empty_like(flooded)
    child_front = np.empty_like(flooded)
    gain = np.zeros(n_col, dtype=np.int64)
    moves = np.empty(n, dtype=np.int32)
    k = 0
    while count(flooded) < n:
        absorbed_cells(front, region_colour, region_size, gain)
        best = -1
        best_h = 1 << 60
        for c in range(n_col):
            if gain[c] == 0:
                continue
            for w in range(words):
                child[w] = flooded[w]
                child_front[w] = front[w]
            play(child, child_front, colour_mask, c, adj_ptr, adj_idx)
            h = bound_bits(child, child_front, colour_mask, adj_bits, child, best_h)
            if h < best_h or (h == best_h and gain[c] > gain[best]):
                best = c
                best_h = h
        moves[k] = best
        k += 1
        play(flooded, front, colour_mask, best, adj_ptr, adj_idx)
    return moves[:k]


def lookahead_moves(graph: RegionGraph) -> list[int]:
    start = graph.initial_state()
    front = np.zeros_like(start)
    frontier(start, graph.adj_ptr, graph.adj_idx, front)
    return _lookahead_moves(  # type: ignore[no-any-return]
        start, front, graph.colour_mask, adjacency_bits(graph), graph.region_colour, graph.region_size,
        graph.adj_ptr, graph.adj_idx,
    ).tolist()


def first_answer(graph: RegionGraph) -> list[int]:
    """The quick answer every search starts from."""
    if graph.n_regions <= BITSET_MAX_REGIONS:
        return lookahead_moves(graph)
    return greedy_moves(graph)


@register("lookahead", "the move whose result has the lowest lower bound (ties: most cells)")
def solve_lookahead(graph: RegionGraph, control: Control) -> Outcome:
    codes = lookahead_moves(graph)
    control.improved(codes)
    return Outcome(codes, proven_optimal=graph.n_regions == 1, lower_bound=0, states=len(codes))
