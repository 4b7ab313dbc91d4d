"""The beam's pass (``colorit.solvers.beam``): its kernel moves across levels in slices of
any size with the same result, keeps no state that an earlier one of its level
dominates, and ends at a bound the caller has proven."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from colorit import Board, Control, Limits, RegionGraph
from colorit.game.generate import random_board
from colorit.solvers import beam
from colorit.solvers.lookahead import lookahead_moves
from colorit.solvers.status import IMPROVED, PASS_DONE, SLICE_DONE

from boardgen import STABLE, boards


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


def test_fitted_width_follows_the_cost_model() -> None:
    """A pass ``k`` times as wide takes ``k ** WIDTH_COST_POWER`` times as long: the width
    fitted to a time span is the one the model says takes it."""
    width = beam._fitted_width(16, 0.001, 0.010, 0.8)
    assert width == int(16 * 8 ** (1 / beam.WIDTH_COST_POWER))
    assert 0.001 * (width / 16) ** beam.WIDTH_COST_POWER == pytest.approx(0.008, rel=0.01)
    assert beam._fitted_width(16, 0.001, 0.0, 0.8) == 0


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.mark.parametrize("limit", [0.01, 0.1])
def test_timed_passes_fit_the_time_and_alternate_the_playouts_measure(
    monkeypatch: pytest.MonkeyPatch, limit: float
) -> None:
    """Under a deadline each pass after the first is as wide as fits in the time left, by
    the cost model; the playout's measure alternates (cells, then regions); a pass
    narrower than half the widest before it is not made."""
    import time

    clock = FakeClock()
    monkeypatch.setattr(time, "monotonic", clock)
    graph = RegionGraph.from_board(random_board(14, 14, 6, seed=5))
    space = beam._space(graph)
    made: list[tuple[int, str]] = []

    def fake_pass(graph, control, width, best, space_of_pass):  # type: ignore[no-untyped-def]
        measure = "cells" if space_of_pass.sizes is space.sizes else "regions"
        assert space_of_pass.sizes is (space.sizes if measure == "cells" else space.ones)
        made.append((width, measure))
        clock.now += 0.001 * (width / beam.FIRST_WIDTH) ** beam.WIDTH_COST_POWER
        return best, 1

    monkeypatch.setattr(beam, "_pass", fake_pass)
    control = Control(Limits(time=limit))
    first = [0] * 60  # never beaten: every pass runs to its end
    beam.search(graph, control, first)
    assert made[0] == (beam.FIRST_WIDTH, "cells")
    assert len(made) >= 2 and made[1][0] > 4 * beam.FIRST_WIDTH
    assert [m for _, m in made] == ["cells", "regions", "cells", "regions"][: len(made)]
    assert clock.now - control.started <= limit  # every pass fitted in the time left
    for k in range(2, len(made)):
        assert made[k][0] >= max(w for w, _ in made[:k]) * beam.FOLLOW_UP_SHARE


def test_on_adjacency_lists_a_pass_ends_at_the_goal_with_a_shorter_answer() -> None:
    """Past bitset adjacency there are no playouts: a pass's answer is the goal a child
    reaches on its last level, and it is taken."""
    from colorit.solvers.greedy import greedy_moves

    board = random_board(50, 50, 6, seed=1)
    graph = RegionGraph.from_board(board)
    assert not graph.adjacency_bits_fit
    first = greedy_moves(graph)[0]
    b, status = run_pass(graph, 16, first, 1 << 30)
    assert status == IMPROVED
    found = beam._goal_path(b, int(b.pos[beam.LEVEL]))
    assert len(found) < len(first)
    board.check_codes(np.array(found, dtype=np.int64))
