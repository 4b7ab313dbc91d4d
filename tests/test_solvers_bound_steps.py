"""The tests that lift the count (``colorit.solvers.bound_steps``): on hand boards where
the count falls a move short, each test lifts it to the optimum the naive exhaustive
search finds (the random cases, admissibility included, are in ``test_solvers_bound``)."""

from __future__ import annotations

import numpy as np

from colorit import Board, RegionGraph
from colorit.game.graph import padded
from colorit.solvers.bound import SECOND_TEST_MIN_WORDS, bound_bits, lower_bound
from colorit.solvers.bound_steps import count_from

import naive


def bits_of(g: RegionGraph, words: int = 0) -> int:
    """``bound_bits`` at the start position with no limit, at the searches' width or
    with its sets padded to ``words`` words."""
    pg = padded(g)
    sets = [pg.root, pg.root_front, pg.arrays.colour_mask, pg.colour_adj, pg.adj_bits]
    if words:
        sets = [np.pad(a, [(0, 0)] * (a.ndim - 1) + [(0, words - a.shape[-1])]) for a in sets]
    shape = (0,) * words if words else pg.shape
    return int(bound_bits(*sets, shape, 99))


def test_a_last_colour_blind_step_no_real_move_can_stand_for() -> None:
    # 0 2 0 / 1 0 1 / 0 2 2 from the top-left 0: the count takes the layer {2, 1} in one
    # colour-blind step, then removes colours 0, 1 and 2 (4 moves). A real first move
    # takes the top 2 or the left 1; after either, no run of moves that each remove a
    # colour finishes the board, so one more move is needed: 5, the optimum.
    rows = [[0, 2, 0], [1, 0, 1], [0, 2, 2]]
    g = RegionGraph.from_board(Board.from_rows(rows))
    assert lower_bound(g) == 4
    assert bits_of(g) == 5 == naive.optimal_length(rows)
    pg = padded(g)
    assert bound_bits(pg.root, pg.root_front, pg.arrays.colour_mask, pg.colour_adj, pg.adj_bits, pg.shape, 4) == 5


def test_a_second_to_last_colour_blind_step_no_real_move_can_stand_for() -> None:
    # twelve one-cell regions: the count is 5 and its last colour-blind step passes its
    # test (``count_from`` counts with that test alone), but from where the step before
    # it starts, every real move leaves a position whose count is still 4: 6, the optimum.
    # That second test is made on sets of SECOND_TEST_MIN_WORDS words or more.
    rows = [[0, 2, 1], [1, 0, 2], [0, 1, 0], [1, 0, 2]]
    g = RegionGraph.from_board(Board.from_rows(rows))
    pg = padded(g)
    assert lower_bound(g) == 5
    assert count_from(pg.root, pg.root_front, pg.arrays.colour_mask, pg.colour_adj, pg.adj_bits, pg.shape, 99) == 5
    assert bits_of(g) == 5  # two words
    assert bits_of(g, SECOND_TEST_MIN_WORDS) == 6 == naive.optimal_length(rows)
