"""``lookahead``: play the move whose result has the lowest colour-elimination bound (ties:
the most cells absorbed). Much closer to optimal than ``greedy`` at a few bound
evaluations per move, which makes it the exact searches' first answer on the graphs
where it is quick (see ``incumbent``).

Where bitset adjacency fits (``RegionGraph.adjacency_bits_fit``) a whole game is one
kernel call of a few milliseconds, on the padded graph A* uses next: its moves made from
the regions' adjacency rows and its bound at the graph's compiled width (so its kernel
is compiled per width, like A*'s). On bigger graphs each bound walks the adjacency lists
of the whole remaining board, so a game costs moves x colours x (regions + edges): it
runs a few moves per kernel call, checks its deadline between calls, and a game cut
short is finished by greedy or the basic AI (``play_lists.finish``).
"""

from __future__ import annotations

import numpy as np

from .._kernel import kernel
from ..game import play_lists
from ..game.bitset import borrowed, count, local_words
from ..game.graph import RegionGraph, padded
from ..game.play_bits import absorbed_cells, play, play_rows, start_state
from .base import Control, Outcome, SliceBudget, one_game, register
from .bound import BoundScratch, bound_bits, bound_bits_many_colours, elimination_bound


@kernel
def _preferred(h, gain, best_h, best_gain):  # type: ignore[no-untyped-def]
    """Lookahead's order of moves, for both its kernels: the lower bound after the move
    first, then the more cells absorbed (``best_h`` starts above any bound, so the first
    candidate wins whatever ``best_gain`` holds)."""
    return h < best_h or (h == best_h and gain > best_gain)


@kernel
def _lookahead_rows(flooded, front, moves, counts, g, adj_bits, colour_adj, shape):  # type: ignore[no-untyped-def]
    """A whole lookahead game on the bitset adjacency rows ``adj_bits`` (``colour_adj``
    the colours' rows) at the padded graph's compile-time width ``shape``, from
    ``flooded`` (whose frontier is ``front``; neither is changed), its moves appended to
    ``moves`` (``counts[0]`` of them). Each candidate's flood and frontier are made from
    the rows of the regions it takes, into sets local to the kernel: on the adjacency
    lists the game took 1.2-1.4 times as long."""
    colour_mask, region_colour, region_size, _, _ = g
    # what the bound is handed, without reference counts (``bitset.borrowed``)
    colour_mask, adj_bits, colour_adj = borrowed(colour_mask), borrowed(adj_bits), borrowed(colour_adj)
    n_col = colour_mask.shape[0]
    words = len(shape)
    fl = local_words(shape)
    fr = local_words(shape)
    child = local_words(shape)
    child_front = local_words(shape)
    gain = np.zeros(n_col, dtype=np.int64)
    for w in range(words):
        fl[w] = flooded[w]
        fr[w] = front[w]
    while True:
        # the region graph is connected: an empty frontier means a flooded board
        left = np.uint64(0)
        for w in range(words):
            left |= fr[w]
        if left == np.uint64(0):
            return
        absorbed_cells(fr, region_colour, region_size, gain)
        best = -1
        best_h = 1 << 60
        for c in range(n_col):
            if gain[c] == 0:
                continue
            play_rows(fl, fr, colour_mask, adj_bits, c, child, child_front, shape)
            if n_col > 64:
                h = bound_bits_many_colours(child, child_front, colour_mask, adj_bits, shape, best_h)
            else:
                h = bound_bits(child, child_front, colour_mask, colour_adj, adj_bits, shape, best_h)
            if _preferred(h, gain[c], best_h, gain[best]):
                best = c
                best_h = h
        moves[counts[0]] = best
        counts[0] += 1
        play_rows(fl, fr, colour_mask, adj_bits, best, child, child_front, shape)
        for w in range(words):
            fl[w] = child[w]
            fr[w] = child_front[w]


@kernel
def _lookahead_run(flooded, front, moves, counts, g, scratch, budget):  # type: ignore[no-untyped-def]
    """Up to ``budget`` lookahead moves from ``flooded``/``front`` on the graph ``g``
    (``GraphArrays``), on its adjacency lists, the bound with ``scratch``
    (``BoundScratch``), appended to ``moves`` (``counts[0]`` of them so far). True when
    the board is flooded. Between calls ``front`` is the frontier of ``flooded`` and
    ``moves[:counts[0]]`` the moves that made it."""
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
            h = elimination_bound(child, child_front, g, scratch, best_h)
            if _preferred(h, gain[c], best_h, gain[best]):
                best = c
                best_h = h
        moves[counts[0]] = best
        counts[0] += 1
        play(flooded, front, colour_mask, best, adj_ptr, adj_idx)
        budget -= 1
    return count(flooded) >= n


def lookahead_moves(graph: RegionGraph, control: Control | None = None) -> tuple[list[int], bool]:
    """Lookahead's answer in colour codes, and whether it is lookahead's own to the end
    (False when ``control`` stopped it and ``play_lists.finish`` completed it)."""
    moves = np.empty(graph.n_regions, dtype=np.int32)
    counts = np.zeros(1, dtype=np.int64)
    if graph.adjacency_bits_fit:
        # a whole game in milliseconds: one call, on the rows the exact search that
        # follows uses too
        pg = padded(graph)
        _lookahead_rows(pg.root, pg.root_front, moves, counts, pg.arrays, pg.adj_bits, pg.colour_adj, pg.shape)
        return moves[: counts[0]].tolist(), True
    start, front = start_state(graph)
    g = graph.arrays()
    scratch = BoundScratch.for_graph(graph)
    done = SliceBudget(first=1, most=1 << 20).run(
        lambda budget: _lookahead_run(start, front, moves, counts, g, scratch, budget), control)
    played = moves[: counts[0]].tolist()
    if done:
        return played, True
    return play_lists.finish(graph, played), False


@register("lookahead", "the move whose result has the lowest lower bound (ties: most cells)", rank=2)
def solve_lookahead(graph: RegionGraph, control: Control) -> Outcome:
    return one_game(graph, control, *lookahead_moves(graph, control))
