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


def bits_of(g: RegionGraph, words: int = 0, memo: bool = False) -> int:
    """``bound_bits`` at the start position with no limit, at the searches' width or
    with its sets padded to ``words`` words, through a new memo of A*'s (``memo``) or
    none. With a memo the limit is the count's own (``lower_bound``): A*'s searches ask
    whether a node lies above a level, and a count below it is not tested."""
    pg = padded(g)
    sets = [pg.root, pg.root_front, pg.arrays.colour_mask, pg.colour_adj, pg.adj_bits]
    if words:
        sets = [np.pad(a, [(0, 0)] * (a.ndim - 1) + [(0, words - a.shape[-1])]) for a in sets]
    shape = (0,) * words if words else pg.shape
    if not memo:
        return int(bound_bits(*sets, shape, 99))
    kept = np.zeros((65, len(shape) + 1), np.uint64)
    kept[0, 0] = 1  # its first epoch
    return int(bound_bits(*sets, shape, lower_bound(g), kept))


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
    # through a memo (A*'s searches ask only whether a node lies above the limit) the
    # test is made at the limit, not below it
    memo = np.zeros((65, len(pg.shape) + 1), np.uint64)
    memo[0, 0] = 1
    sets = (pg.root, pg.root_front, pg.arrays.colour_mask, pg.colour_adj, pg.adj_bits, pg.shape)
    assert [int(bound_bits(*sets, limit, memo)) for limit in (5, 4)] == [4, 5]


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


def test_a_third_to_last_colour_blind_step_no_real_move_can_stand_for() -> None:
    # fifteen regions of three colours: the count is 6, and neither the last colour-blind
    # step's test nor the one before's adds a move (with a memo both are made on three
    # words); but from where the step before those two starts, every real move leaves a
    # position whose count is no smaller than the count's after it: 7, the optimum. That
    # third test is made with a memo (in A*'s searches) on sets of THIRD_TEST_MIN_WORDS
    # words or more.
    from colorit.solvers.bound import MEMO_SECOND_TEST_MIN_WORDS, THIRD_TEST_MIN_WORDS

    rows = [[1, 0, 1, 2, 1], [2, 1, 0, 1, 2], [1, 0, 1, 0, 0], [2, 2, 0, 0, 0]]
    g = RegionGraph.from_board(Board.from_rows(rows))
    assert lower_bound(g) == 6
    assert MEMO_SECOND_TEST_MIN_WORDS < THIRD_TEST_MIN_WORDS
    assert bits_of(g, MEMO_SECOND_TEST_MIN_WORDS, memo=True) == 6
    assert bits_of(g, THIRD_TEST_MIN_WORDS, memo=True) == 7 == naive.optimal_length(rows)
    assert bits_of(g, THIRD_TEST_MIN_WORDS) == 6  # lookahead's and beam's calls


def test_the_memo_keeps_the_answers_of_its_own_search_only() -> None:
    """Through A*'s memo the bound, asked twice at each position along a game at the
    count's level (the second time from the memo), gives the same value both times, no lower than without it (it
    makes the second test from ``MEMO_SECOND_TEST_MIN_WORDS``); a new epoch (a new
    search) finds nothing kept."""
    from test_solvers_bound import states_along

    from colorit.game.bitset import pad_words
    from colorit.game.generate import random_board
    from colorit.solvers.astar_store import TEST_MEMO_SLOTS
    from colorit.solvers.bound import MEMO_SECOND_TEST_MIN_WORDS
    from colorit.solvers.bound_steps import TAG_BITS, memo_get

    from boardgen import front_of

    g = RegionGraph.from_board(random_board(14, 14, 6, seed=3))
    pg = padded(g)
    words = len(pg.root)
    assert words >= MEMO_SECOND_TEST_MIN_WORDS
    memo = np.zeros((TEST_MEMO_SLOTS + 1, words + 1), np.uint64)
    memo[0, 0] = 1
    rows = (pg.arrays.colour_mask, pg.colour_adj, pg.adj_bits)
    for flooded in states_along(g, [m % g.n_colours for m in range(1, 13)]):
        fl, fr = pad_words(flooded, words), pad_words(front_of(g, flooded), words)
        if not fr.any():
            break
        plain = int(bound_bits(fl, fr, *rows, pg.shape, 99))
        # asked at the count's own level, as A* asks (a count below it is not tested)
        level = lower_bound(g, flooded)
        with_memo = [int(bound_bits(fl, fr, *rows, pg.shape, level, memo)) for _ in range(2)]
        assert with_memo[0] == with_memo[1] >= plain
    kept = [k for k in range(1, memo.shape[0]) if memo[k, words]]
    assert kept
    key = memo[kept[0], :words].copy()
    tag = np.uint64((int(memo[kept[0], words]) >> 1) & ((1 << TAG_BITS) - 1))
    assert memo_get(memo, key, tag, pg.shape) >= 0
    memo[0, 0] += np.uint64(1)
    assert memo_get(memo, key, tag, pg.shape) == -1
