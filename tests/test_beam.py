"""The beam's pass (``colorit.solvers.beam``): its kernel moves across levels in slices of
any size with the same result, keeps no state that an earlier one of its level
dominates, and ends at a bound the caller has proven."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from boardgen import STABLE, boards
from colorit import Board, Control, Limits, RegionGraph
from colorit.game.generate import random_board
from colorit.solvers import beam
from colorit.solvers.lookahead import lookahead_moves
from colorit.solvers.status import IMPROVED, PASS_DONE, SLICE_DONE


def run_pass(graph: RegionGraph, width: int, best: list[int], budget: int, window: int = beam.DOMINANCE_WINDOW,
             levels: list[np.ndarray] | None = None) -> tuple[beam.BeamArrays, int]:
    """One pass at ``width`` from ``best``, ``budget`` parents per kernel call: its arrays
    and the last status. ``levels`` collects each level's kept floods."""
    space = beam._space(graph)
    b = beam._new_beam(graph, width, len(best), space.start.shape[0])
    b.pos[beam.DOMINANCE] = window
    b.fl[0] = space.start
    b.fr[0] = space.front
    while True:
        level = int(b.pos[beam.LEVEL])
        status = beam._beam_run(b, space.arrays, space.adj_bits, space.sizes, space.colour_adj, space.scratch,
                                space.shape, budget)
        if levels is not None and int(b.pos[beam.LEVEL]) > level:
            levels.append(b.fl[: int(b.pos[beam.N_BEAM])].copy())
        if status != SLICE_DONE:
            return b, status


@STABLE
@given(boards(max_side=9, min_colours=3, max_colours=7), st.integers(1, 5))
def test_a_pass_in_slices_of_any_size_ends_as_in_one_call(board: Board, budget: int) -> None:
    graph = RegionGraph.from_board(board)
    if graph.n_regions < 2:
        return
    first = lookahead_moves(graph)[0]
    whole, whole_status = run_pass(graph, 8, first, 1 << 30)
    sliced, sliced_status = run_pass(graph, 8, first, budget)
    assert whole_status == sliced_status and whole_status in (PASS_DONE, IMPROVED)
    for field in ("KEPT", "LEVEL", "FOUND_LEN", "GOAL_PARENT", "GOAL_MOVE"):
        index = getattr(beam, field)
        assert whole.pos[index] == sliced.pos[index], field
    found = int(whole.pos[beam.FOUND_LEN])
    assert np.array_equal(whole.found[:found], sliced.found[:found])


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_no_state_kept_is_dominated_by_one_kept_before_it(seed: int) -> None:
    board = random_board(16, 16, 6, seed=seed)
    graph = RegionGraph.from_board(board)
    levels: list[np.ndarray] = []
    run_pass(graph, 64, lookahead_moves(graph)[0], 1, levels=levels)
    assert len(levels) > 5
    for floods in levels:
        for j in range(1, len(floods)):
            inside = np.all(floods[j] & ~floods[:j] == 0, axis=1)
            assert not inside.any(), "a kept state is dominated by an earlier one"


def test_without_the_window_dominated_states_are_kept() -> None:
    """The check is what leaves them out: on these boards a beam without it keeps some."""
    found = 0
    for seed in (1, 2, 3):
        graph = RegionGraph.from_board(random_board(16, 16, 6, seed=seed))
        levels: list[np.ndarray] = []
        run_pass(graph, 64, lookahead_moves(graph)[0], 1, window=0, levels=levels)
        for floods in levels:
            for j in range(1, len(floods)):
                found += int(np.all(floods[j] & ~floods[:j] == 0, axis=1).any())
    assert found > 0


def test_a_bound_proven_by_the_caller_ends_the_passes() -> None:
    board = random_board(12, 12, 5, seed=4)
    graph = RegionGraph.from_board(board)
    first = lookahead_moves(graph)[0]
    out = beam.search(graph, Control(Limits()), first, known_bound=len(first))
    assert out.codes == first and out.proven_optimal and out.states == 0
    board.check_codes(np.array(out.codes, dtype=np.int64))
