"""A*'s expansion kernel (``colorit.solvers.astar_expand``) driven by hand, slice after
slice, from a planted root: its counters start as the store does, it hands back every
shorter answer it finds and asks for room when the store is full, and when it says no
open node can beat its answer, that answer is the naive search's optimum."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings

from colorit import Board, RegionGraph
from colorit.game.graph import padded
from colorit.solvers.astar_expand import (
    CUR_F,
    DEFER_AFTER,
    DEFER_BELOW,
    EXPANDED,
    GENERATED,
    GOAL,
    N_NODES,
    TABLE_USED,
    UB,
    WINDOW_FIRST,
    expand,
    new_counters,
)
from colorit.solvers.astar_store import NodeStore
from colorit.solvers.bound import elimination_bound_bits
from colorit.solvers.linear import linear_moves
from colorit.solvers.status import EXHAUSTED, IMPROVED, NEED_NODES, NEED_TABLE, SLICE_DONE

import naive
from boardgen import STABLE, boards, rows_of


def test_new_counters_describe_a_store_of_its_root() -> None:
    ctr = new_counters(root_bound=5, ub=9, defer_after=100, defer_below=7, window_first=True)
    assert ctr.dtype == np.int64 and ctr.shape == (WINDOW_FIRST + 1,)
    assert (ctr[N_NODES], ctr[TABLE_USED], ctr[CUR_F], ctr[UB], ctr[GOAL]) == (1, 1, 5, 9, -1)
    assert (ctr[DEFER_AFTER], ctr[DEFER_BELOW], ctr[WINDOW_FIRST]) == (100, 7, 1)
    assert ctr[EXPANDED] == ctr[GENERATED] == 0


def prove(graph: RegionGraph, budget: int, defer_after: int,
          shape: tuple[int, ...] | np.ndarray | None = None) -> tuple[list[int], list[int], np.ndarray]:
    """Run the kernel from the start to the end of its search, in slices of ``budget``
    nodes, growing a store of 16 records when it asks: the answer, the lengths of the
    answers it handed back, and its counters. With ``shape``, the sets are padded to its
    length and the kernel takes it (a tuple: a compile-time width, an array: a run-time
    one)."""
    pg = padded(graph)
    if shape is not None:
        words = len(shape)
        wide = [np.pad(a, [(0, 0)] * (a.ndim - 1) + [(0, words - a.shape[-1])])
                for a in (pg.arrays.colour_mask, pg.adj_bits, pg.colour_adj, pg.root, pg.root_front)]
        pg = pg._replace(arrays=pg.arrays._replace(colour_mask=wide[0]), adj_bits=wide[1], colour_adj=wide[2],
                         root=wide[3], root_front=wide[4], shape=shape)
    best = linear_moves(graph)
    root_bound = elimination_bound_bits(pg.root, pg.root_front, pg.arrays.colour_mask, pg.adj_bits, len(best),
                                        pg.colour_adj, pg.shape)
    if root_bound >= len(best):
        return best, [], np.zeros(0, dtype=np.int64)
    st = NodeStore(len(pg.root), len(best), 16, 1 << 16)
    st.plant_root(pg.root, root_bound)
    ctr = new_counters(root_bound, len(best), defer_after, 0, False)
    absorbs = np.zeros(graph.n_colours, np.bool_)
    found: list[int] = []
    while True:
        status = expand(pg.arrays, pg.adj_bits, pg.colour_adj, st.arrays(), ctr, absorbs, budget, pg.shape)
        if status == EXHAUSTED:
            return best, found, ctr
        if status == IMPROVED:
            assert ctr[UB] < len(best)
            best = st.path_to(int(ctr[GOAL]))
            assert len(best) == ctr[UB]
            found.append(len(best))
        elif status == NEED_NODES:
            assert ctr[N_NODES] + graph.n_colours + 1 > st.capacity
            st.grow_nodes(int(ctr[N_NODES]))
        elif status == NEED_TABLE:
            ctr[TABLE_USED] = st.grow_table(int(ctr[N_NODES]))
        else:
            assert status == SLICE_DONE


@settings(STABLE, max_examples=60)
@given(boards(min_colours=2, max_colours=6, for_bfs=True))
def test_the_kernel_alone_proves_the_optimum(board: Board) -> None:
    optimum = naive.optimal_length(rows_of(board), board.start)
    graph = RegionGraph.from_board(board)
    for budget, defer_after in ((1, 1 << 20), (7, 0), (1 << 20, 1 << 20)):
        answer, found, ctr = prove(graph, budget, defer_after)
        assert len(answer) == optimum
        assert naive.solved(naive.play_all(rows_of(board), board.ids_of(answer), board.start))
        assert found == sorted(found, reverse=True)  # each answer handed back is shorter
        if ctr.size:
            assert ctr[UB] == optimum and ctr[CUR_F] >= optimum
            assert ctr[EXPANDED] > 0 and ctr[GENERATED] > 0


def test_the_vectorised_widths_search_as_the_plain_compile_does() -> None:
    """From ``SUPERWORD_MIN_WORDS`` words the kernel is compiled with LLVM's SLP
    vectorizer (``_jit.superword_kernel``, off by default for past miscompilations): at
    each such width it makes the very search the plain compile (the run-time-width
    kernel) makes, node for node, and answers the optimum."""
    from colorit.game.bitset import WIDTH_TIERS
    from colorit.game.generate import random_board
    from colorit.solvers.astar_expand import SUPERWORD_MIN_WORDS

    widths = [w for w in WIDTH_TIERS if w >= SUPERWORD_MIN_WORDS]
    assert widths
    for side, colours, seed in [(8, 4, 0), (9, 4, 2), (6, 5, 2)]:
        board = random_board(side, side, colours, seed=seed)
        graph = RegionGraph.from_board(board)
        optimum = naive.optimal_length(rows_of(board), board.start)
        for words in widths:
            answer, found, ctr = prove(graph, 5, 0, (0,) * words)
            plain = prove(graph, 5, 0, np.zeros(words))
            assert (answer, found, ctr.tolist()) == (plain[0], plain[1], plain[2].tolist())
            assert len(answer) == optimum and ctr.size and ctr[EXPANDED] > 5
