"""``greedy``: the colour that floods the most cells now (ties: the lowest colour code).

It runs on the frontier lists (``colorit.game.play_lists``) in slices of moves, so it notices its
deadline; a greedy game cut short is finished by the basic AI, which is quick on any
board. The exact searches' first answer on small graphs (``incumbent``) is the same game
played on the padded graph's bitset rows they search next (``greedy_rows``): on b24c4's
boards a third of the time of the lists' game.
"""

from __future__ import annotations

import numpy as np

from .._kernel import kernel
from ..game import play_lists
from ..game.bitset import local_words
from ..game.graph import PaddedGraph, RegionGraph
from ..game.play_bits import absorbed_cells, play_rows
from .base import Control, Outcome, SliceBudget, one_game, register


def greedy_moves(graph: RegionGraph, control: Control | None = None) -> tuple[list[int], bool]:
    """Greedy's answer in colour codes, and whether it is greedy's own to the end (False
    when ``control`` stopped it and the basic AI finished it). A graph small enough for
    bitset adjacency plays in one call: its game takes microseconds."""
    if graph.adjacency_bits_fit:
        return play_lists.greedy_codes(graph), True
    g = play_lists.graph_lists(graph)
    state = play_lists.new_state(graph)
    done = SliceBudget(first=256, most=1 << 30).run(lambda budget: play_lists.greedy_run(g, state, budget), control)
    if not done:
        play_lists.linear_run(g, state, 1 << 62)
    return play_lists.moves_of(state), done


@kernel
def _greedy_rows(flooded, front, g, adj_bits, shape):  # type: ignore[no-untyped-def]
    """Greedy's whole game from ``flooded`` (frontier ``front``; neither is changed) on the
    bitset rows of the padded graph (``g``: its ``GraphArrays``) at the compile-time
    width ``shape``: the moves, the ones the lists' game plays (``play_lists.greedy_choice``
    picks each)."""
    colour_mask, region_colour, region_size, _, _ = g
    words = len(shape)
    fl = local_words(shape)
    fr = local_words(shape)
    child = local_words(shape)
    child_front = local_words(shape)
    gain = np.zeros(colour_mask.shape[0], dtype=np.int64)
    moves = np.empty(region_colour.shape[0], dtype=np.int32)
    n_moves = 0
    for w in range(words):
        fl[w] = flooded[w]
        fr[w] = front[w]
    while True:
        left = np.uint64(0)  # (the graph is connected: no frontier, a flooded board)
        for w in range(words):
            left |= fr[w]
        if left == np.uint64(0):
            return moves[:n_moves]
        absorbed_cells(fr, region_colour, region_size, gain)
        best = play_lists.greedy_choice(gain)
        moves[n_moves] = best
        n_moves += 1
        play_rows(fl, fr, colour_mask, adj_bits, best, child, child_front, shape)
        for w in range(words):
            fl[w] = child[w]
            fr[w] = child_front[w]


def greedy_rows(pg: PaddedGraph) -> list[int]:
    """Greedy's answer in colour codes, played on the padded graph ``pg`` (one kernel
    call: for graphs whose game takes microseconds)."""
    return _greedy_rows(pg.root, pg.root_front, pg.arrays, pg.adj_bits, pg.shape).tolist()  # type: ignore[no-any-return]


@register("greedy", "the colour that floods the most cells now (ties: smallest id)", rank=1)
def solve_greedy(graph: RegionGraph, control: Control) -> Outcome:
    return one_game(graph, control, *greedy_moves(graph, control))
