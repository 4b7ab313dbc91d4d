"""``lookahead``: play the move whose result has the lowest colour-elimination bound (ties:
the most cells absorbed). Much closer to optimal than ``greedy`` at a few bound
evaluations per move, which makes it the exact searches' first answer on the graphs
where it is quick (see ``incumbent``).

Where bitset adjacency fits (``RegionGraph.adjacency_bits_fit``) a whole game is one
kernel call of a few milliseconds, on the padded graph A* uses next, its bound at the
graph's compiled width (so its kernel is compiled per width, like A*'s). On bigger
graphs each bound walks the adjacency lists of the whole remaining board, so a game
costs moves x colours x (regions + edges): it runs a few moves per kernel call, checks
its deadline between calls, and a game cut short is finished by greedy or the basic AI
(``frontier.finish``).
"""

from __future__ import annotations

import numpy as np

from .. import frontier as frontier_lists
from .._jit import kernel
from ..bitset import count
from ..bound import BoundScratch, bound_bits, bound_bits_many_colours, elimination_bound
from ..flood import absorbed_cells, frontier, play
from ..graph import RegionGraph, padded
from .base import Control, Outcome, SliceBudget, register


@kernel
def _lookahead_run(flooded, front, moves, counts, g, adj_bits, colour_adj, scratch, shape, budget):  # type: ignore[no-untyped-def]
    """Up to ``budget`` lookahead moves from ``flooded``/``front`` on the graph ``g``
    (``GraphArrays``), appended to ``moves`` (``counts[0]`` of them so far). True when
    the board is flooded. The bound works on the bitset adjacency rows ``adj_bits`` when
    given (one row per region; ``colour_adj`` the colours' rows), at the width ``shape``
    (the padded graph's: a tuple, so its word loops unroll), on the adjacency lists with
    ``scratch`` otherwise (``shape`` unused).
    Between calls ``front`` is the frontier of ``flooded`` and ``moves[:counts[0]]`` the
    moves that made it."""
    colour_mask, region_colour, region_size, adj_ptr, adj_idx = g
    n = region_colour.shape[0]
    n_col = colour_mask.shape[0]
    child = np.empty_like(flooded)
    child_front = np.empty_like(flooded)
    gain = np.zeros(n_col, dtype=np.int64)
    while budget > 0:
        if count(flooded) >= n:
            return True
        absorbed_cells(front, region_colour, region_size, gain)
        best = -1
        best_h = 1 << 60
        for c in range(n_col):
            if gain[c] == 0:
                continue
            child[:] = flooded
            child_front[:] = front
            play(child, child_front, colour_mask, c, adj_ptr, adj_idx)
            if adj_bits.shape[0] != n:
                h = elimination_bound(child, child_front, g, scratch, best_h)
            elif n_col > 64:
                h = bound_bits_many_colours(child, child_front, colour_mask, adj_bits, shape, best_h)
            else:
                h = bound_bits(child, child_front, colour_mask, colour_adj, adj_bits, shape, best_h)
            if h < best_h or (h == best_h and gain[c] > gain[best]):
                best = c
                best_h = h
        moves[counts[0]] = best
        counts[0] += 1
        play(flooded, front, colour_mask, best, adj_ptr, adj_idx)
        budget -= 1
    return count(flooded) >= n


#: The list bound's scratch where bitset rows are used instead (the kernel takes one).
_NO_SCRATCH = BoundScratch(
    np.zeros(1, np.uint64), np.zeros(0, np.int32), np.zeros(0, np.int32), np.zeros(0, np.int64),
    np.zeros(1, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.bool_),
)


def lookahead_moves(graph: RegionGraph, control: Control | None = None) -> tuple[list[int], bool]:
    """Lookahead's answer in colour codes, and whether it is lookahead's own to the end
    (False when ``control`` stopped it and ``frontier.finish`` completed it)."""
    moves = np.empty(graph.n_regions, dtype=np.int32)
    counts = np.zeros(1, dtype=np.int64)
    if graph.adjacency_bits_fit:
        # a whole game in milliseconds: one call, on the rows the exact search that
        # follows uses too (the list bound's scratch goes unused)
        pg = padded(graph)
        _lookahead_run(pg.root.copy(), pg.root_front.copy(), moves, counts, pg.arrays, pg.adj_bits, pg.colour_adj,
                       _NO_SCRATCH, pg.shape, 1 << 62)
        return moves[: counts[0]].tolist(), True
    start = graph.initial_state()
    front = np.zeros_like(start)
    frontier(start, graph.adj_ptr, graph.adj_idx, front)
    g = graph.arrays()
    scratch = BoundScratch.for_graph(graph)
    no_bits = np.zeros((0, 1), dtype=np.uint64)
    budget = SliceBudget(first=1, most=1 << 20)
    done = False
    while not done:
        if control is not None and control.should_stop():
            break
        remaining = control.remaining() if control is not None else float("inf")
        done = bool(_lookahead_run(start, front, moves, counts, g, no_bits, no_bits, scratch, start, budget.start(remaining)))
        budget.done()
    played = moves[: counts[0]].tolist()
    if done:
        return played, True
    return frontier_lists.finish(graph, played), False


@register("lookahead", "the move whose result has the lowest lower bound (ties: most cells)", rank=2)
def solve_lookahead(graph: RegionGraph, control: Control) -> Outcome:
    codes, whole = lookahead_moves(graph, control)
    control.improved(codes)
    return Outcome(codes, proven_optimal=graph.n_regions == 1, lower_bound=0, states=len(codes),
                   stopped="" if whole else control.stop_reason)
