"""``linear``: the original project's basic AI, kept as the baseline to compare with."""

from __future__ import annotations

import numpy as np

from .._jit import kernel
from ..bitset import count, ctz
from ..flood import frontier, play
from ..graph import RegionGraph
from .base import Control, Outcome, register


@kernel
def _linear_moves(start_bits, adj_ptr, adj_idx, colour_mask, region_colour):  # type: ignore[no-untyped-def]
    n = region_colour.shape[0]
    flooded = start_bits.copy()
    front = np.zeros_like(flooded)
    frontier(flooded, adj_ptr, adj_idx, front)
    moves = np.empty(n, dtype=np.int32)
    k = 0
    while count(flooded) < n:
        # regions are numbered by their first cell in reading order, so the lowest
        # frontier region holds the first cell (reading order) that borders the flood
        for w in range(front.shape[0]):
            if front[w] != np.uint64(0):
                r = (w << 6) + np.int64(ctz(front[w]))
                break
        moves[k] = region_colour[r]
        k += 1
        play(flooded, front, colour_mask, region_colour[r], adj_ptr, adj_idx)
    return moves[:k]


def linear_moves(graph: RegionGraph) -> list[int]:
    return _linear_moves(graph.initial_state(), graph.adj_ptr, graph.adj_idx, graph.colour_mask, graph.region_colour).tolist()  # type: ignore[no-any-return]



@register("linear", "the original basic AI: the colour of the first cell, in reading order, that borders the flood", aliases=("basic",))
def solve_linear(graph: RegionGraph, control: Control) -> Outcome:
    codes = linear_moves(graph)
    control.improved(codes)
    return Outcome(codes, proven_optimal=graph.n_regions == 1, lower_bound=0, states=len(codes))


