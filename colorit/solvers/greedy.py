"""``greedy``: the colour that floods the most cells now. Also the searches' first answer."""

from __future__ import annotations

import numpy as np

from .._jit import kernel
from ..bitset import count
from ..flood import absorbed_cells, frontier, play
from ..graph import RegionGraph
from .base import Control, Outcome, register


@kernel
def _greedy_moves(start_bits, adj_ptr, adj_idx, colour_mask, region_colour, region_size):  # type: ignore[no-untyped-def]
    n = region_colour.shape[0]
    flooded = start_bits.copy()
    front = np.zeros_like(flooded)
    frontier(flooded, adj_ptr, adj_idx, front)
    gain = np.zeros(colour_mask.shape[0], dtype=np.int64)
    moves = np.empty(n, dtype=np.int32)
    k = 0
    while count(flooded) < n:
        absorbed_cells(front, region_colour, region_size, gain)
        best = 0
        for c in range(gain.shape[0]):
            if gain[c] > gain[best]:
                best = c
        moves[k] = best
        k += 1
        play(flooded, front, colour_mask, best, adj_ptr, adj_idx)
    return moves[:k]


def greedy_moves(graph: RegionGraph) -> list[int]:
    return _greedy_moves(  # type: ignore[no-any-return]
        graph.initial_state(), graph.adj_ptr, graph.adj_idx, graph.colour_mask, graph.region_colour, graph.region_size
    ).tolist()


@register("greedy", "the colour that floods the most cells now (ties: smallest id)")
def solve_greedy(graph: RegionGraph, control: Control) -> Outcome:
    codes = greedy_moves(graph)
    control.improved(codes)
    return Outcome(codes, proven_optimal=graph.n_regions == 1, lower_bound=0, states=len(codes))
