"""The solvers (``colorit.solvers``): every answer replays to one colour on the cells, the
baseline reproduces the original basic AI, the exact searches match the naive exhaustive
search and the published optima, and limits, stop requests and the registry behave as
documented."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import colorit
from colorit import (
    Board,
    ColoritError,
    Control,
    Limits,
    RegionGraph,
    Solution,
    get_solver,
    solve,
    solver_names,
)
from colorit.game.generate import random_board
from colorit.io.datasets import read_boards, read_lengths

import naive
from boardgen import STABLE, boards, rows_of
from conftest import HAND_ROWS

EXACT = ("dfs", "astar", "auto")


def assert_valid(board: Board, sol: Solution) -> None:
    """The answer is in the board's own ids, solves it when played cell by cell (naive
    flooding, no colorit code), wastes no move, and its bound is consistent."""
    rows = rows_of(board)
    ids = {int(v) for v in board.palette}
    grid: naive.Grid = tuple(tuple(r) for r in rows)
    for m in sol.moves:
        assert type(m) is int and m in ids, f"move {m!r} is not one of the board's ids"
        nxt = naive.flood(grid, board.start, m)
        assert nxt != grid, f"{sol.algo}: move {m} absorbs nothing"
        grid = nxt
    assert naive.solved(grid), f"{sol.algo}: {sol.moves} does not solve {board!r}"
    assert 0 <= sol.lower_bound <= len(sol.moves)
    if sol.proven_optimal:
        assert sol.lower_bound == len(sol.moves)
        assert sol.stopped == ""


def original_basic_ai(rows: list[list[int]]) -> list[int]:
    """The original project's basic AI, on cells from the top-left corner: play the colour
    of the first cell in reading order that differs from the start cell's colour."""
    grid: naive.Grid = tuple(tuple(r) for r in rows)
    moves = []
    while not naive.solved(grid):
        current = grid[0][0]
        colour = next(v for row in grid for v in row if v != current)
        moves.append(colour)
        grid = naive.flood(grid, (0, 0), colour)
    return moves


# -- the registry and the Solution -------------------------------------------------------


def test_registered_solvers() -> None:
    names = solver_names()
    assert set(names) >= {"linear", "greedy", "lookahead", "beam", "dfs", "astar", "auto"}
    assert len(names) == len(set(names))
    assert colorit.DEFAULT_ALGO in names
    for name in names:
        assert get_solver(name).name == name
    assert {n for n in names if get_solver(n).exact} >= set(EXACT)
    assert not get_solver("linear").exact and not get_solver("greedy").exact


@pytest.mark.parametrize(
    ("alias", "name"),
    [
        ("basic", "linear"),
        ("a*", "astar"),
        ("exact", "astar"),
        ("default", "auto"),
        ("  AStar ", "astar"),
        ("DFS", "dfs"),
    ],
)
def test_aliases(alias: str, name: str) -> None:
    assert get_solver(alias).name == name
    sol = solve(Board.from_rows(HAND_ROWS), alias)
    assert sol.algo == name
    assert_valid(Board.from_rows(HAND_ROWS), sol)


def test_unknown_solver_is_a_clear_error() -> None:
    with pytest.raises(ColoritError, match=r"unknown algorithm 'bfs'") as err:
        get_solver("bfs")
    for name in solver_names():
        assert name in str(err.value)
    assert "\n" not in str(err.value)
    with pytest.raises(ColoritError, match="unknown algorithm"):
        solve(Board.from_rows(HAND_ROWS), "nope")
    assert issubclass(ColoritError, ValueError)


def test_solution_gap_and_length() -> None:
    sol = Solution(moves=(1, 2, 3, 4, 5, 6), proven_optimal=False, lower_bound=4, elapsed=0.5)
    assert len(sol) == 6
    assert sol.gap == pytest.approx(0.5)
    assert Solution((1, 2), True, 2, 0.0).gap == 0.0
    assert Solution((1, 2), False, 0, 0.0).gap == 0.0  # no bound: no finite gap to report
    with pytest.raises(AttributeError):
        sol.moves = ()  # type: ignore[misc]


@pytest.mark.parametrize("algo", solver_names())
def test_solution_fields(algo: str) -> None:
    board = random_board(9, 7, 5, seed=11, start=(3, 4))
    sol = solve(board, algo)
    assert_valid(board, sol)
    assert sol.algo == algo
    assert sol.elapsed >= 0 and sol.states >= 0
    assert 0.0 <= sol.gap
    if get_solver(algo).exact:
        opt = solve(board, "astar")
        assert sol.proven_optimal and len(sol) == len(opt) == sol.lower_bound and sol.gap == 0.0


@pytest.mark.parametrize("algo", solver_names())
def test_progress_reports_shrink_to_the_answer(algo: str) -> None:
    board = random_board(12, 12, 6, seed=4)
    seen: list[tuple[int, int, float]] = []
    sol = solve(board, algo, on_improve=lambda n, lb, t: seen.append((n, lb, t)))
    assert seen, "no answer was reported"
    lengths = [n for n, _, _ in seen]
    assert lengths == sorted(set(lengths), reverse=True)  # strictly shorter each time
    assert lengths[-1] == len(sol.moves)
    assert all(t >= 0 for _, _, t in seen)


@pytest.mark.parametrize("algo", solver_names())
def test_solved_boards_need_no_move(algo: str) -> None:
    for board in (Board.from_rows([[7]]), Board.from_rows([[-1] * 5] * 4, start=(3, 2))):
        sol = solve(board, algo)
        assert sol.moves == ()
        assert sol.proven_optimal and sol.lower_bound == 0 and sol.gap == 0.0


# -- every solver, any board --------------------------------------------------------------


@settings(STABLE, max_examples=120)
@given(boards(max_side=8, min_colours=1, max_colours=10))
def test_every_solver_solves_any_board(board: Board) -> None:
    """Rectangular boards up to 8x8, 1 to 10 colours with ids anywhere in 64 bits, any
    start: each solver's moves are the board's own ids and flood it to one colour."""
    lengths = {}
    for algo in solver_names():
        sol = solve(board, algo, Limits(time=20))
        assert sol.algo == algo
        assert_valid(board, sol)
        lengths[algo] = len(sol)
    # the exact solvers agree and nothing beats them
    exact = {lengths[a] for a in EXACT}
    assert len(exact) == 1
    assert min(lengths.values()) == exact.pop()


# -- linear is the original basic AI ------------------------------------------------------


def test_linear_by_hand() -> None:
    # 1 at (0,0): (0,1)=2 first differs -> 2; then (0,2)=0 -> 0 (takes the top row's 0s
    # and (1,0)); then (1,1)=1 -> 1 (takes (1,1),(1,2) and the right column's 1s); then
    # (2,0)=2 -> 2; then (2,2)=0 -> 0, and the board is all 0
    moves = [2, 0, 1, 2, 0]
    assert original_basic_ai(HAND_ROWS) == moves
    sol = solve(Board.from_rows(HAND_ROWS), "linear")
    assert list(sol.moves) == moves
    assert not sol.proven_optimal  # 5 moves where 4 will do


@settings(STABLE, max_examples=200)
@given(boards(max_side=10, min_colours=1, max_colours=10, corner=True))
def test_linear_reproduces_the_original_basic_ai(board: Board) -> None:
    sol = solve(board, "linear")
    assert list(sol.moves) == original_basic_ai(rows_of(board))


# -- the exact solvers against exhaustive search ------------------------------------------


@settings(STABLE, max_examples=300)
@given(boards(min_colours=2, max_colours=12, for_bfs=True))
def test_exact_solvers_match_exhaustive_search(board: Board) -> None:
    """Boards of up to 30 cells (fewer with more colours), rectangular, any start, 2 to 12
    colours: dfs, astar and auto find the optimum naive BFS finds, and prove it."""
    optimum = naive.optimal_length(rows_of(board), board.start)
    for algo in EXACT:
        sol = solve(board, algo)
        assert_valid(board, sol)
        assert len(sol.moves) == optimum, f"{algo}: {len(sol.moves)} moves, optimum {optimum}, {board!r}"
        assert sol.proven_optimal, f"{algo} did not prove {board!r}"
        assert sol.lower_bound == optimum
        assert sol.stopped == ""
    for algo in ("linear", "greedy", "lookahead"):
        assert len(solve(board, algo).moves) >= optimum
    # on boards this small the widest beam pass holds every state of a level: exhaustive
    sol = solve(board, "beam")
    assert_valid(board, sol)
    assert len(sol.moves) == optimum, f"beam: {len(sol.moves)} moves, optimum {optimum}, {board!r}"


@settings(STABLE, max_examples=150)
@given(boards(min_colours=2, max_colours=8, for_bfs=True))
def test_astar_deferring_children_stays_exact(board: Board) -> None:
    """Past its node budget A* stores no child above the current level and expands the
    parent again when the search gets there; from the first node on, and from a poor
    first answer (the linear AI's), it still finds and proves the optimum."""
    from colorit.solvers import astar
    from colorit.solvers.linear import linear_moves

    optimum = naive.optimal_length(rows_of(board), board.start)
    graph = RegionGraph.from_board(board)
    out = astar.search(graph, Control(Limits()), linear_moves(graph), defer_after=0)
    assert len(out.codes) == optimum and out.proven_optimal and out.lower_bound == optimum
    assert naive.solved(naive.play_all(rows_of(board), board.ids_of(out.codes), board.start))


@settings(STABLE, max_examples=150)
@given(boards(min_colours=2, max_colours=8, for_bfs=True), st.integers(min_value=1, max_value=40))
def test_astar_deferring_while_young_stays_exact(board: Board, young: int) -> None:
    """Children above the level deferred for the first ``young`` stored nodes only (the
    search switching to storing them part-way, with parents still deferred in its open
    list), from a poor first answer: the optimum is still found and proven."""
    from colorit.solvers import astar
    from colorit.solvers.linear import linear_moves

    optimum = naive.optimal_length(rows_of(board), board.start)
    graph = RegionGraph.from_board(board)
    out = astar.search(graph, Control(Limits()), linear_moves(graph), defer_below=young)
    assert len(out.codes) == optimum and out.proven_optimal and out.lower_bound == optimum
    assert naive.solved(naive.play_all(rows_of(board), board.ids_of(out.codes), board.start))


def astar_states(graph: RegionGraph, defer_after: int | None = None) -> tuple[int, int]:
    """Nodes expanded and moves of A*'s proof on ``graph`` with the deferral settings
    given (the search is deterministic: equal settings expand equal nodes)."""
    from colorit.solvers import astar
    from colorit.solvers.linear import linear_moves

    out = astar.search(graph, Control(Limits()), linear_moves(graph), defer_after=defer_after)
    assert out.proven_optimal
    return out.states, len(out.codes)


@pytest.fixture
def first_slices(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The first slice budget of every A* search run while the test runs, in order."""
    from colorit.solvers import astar
    from colorit.solvers.base import SliceBudget

    firsts: list[int] = []

    class Recorded(SliceBudget):
        def __init__(self, **kw: int) -> None:
            super().__init__(**kw)
            firsts.append(self.budget)

    monkeypatch.setattr(astar, "SliceBudget", Recorded)
    return firsts


def test_astar_defers_every_child_on_small_graphs_and_few_colours_by_default() -> None:
    """On a graph of at most ``SMALL_GRAPH_SIZE`` colours x regions, or of at most
    ``CHILD_LEVEL_COLOURS`` colours (8 here), the default search defers children above the level
    from the first node, as ``defer_after=0`` does; on a bigger graph of more colours
    only past ``DEFER_AFTER_NODES``. Each pair expands the same nodes (the search is
    deterministic), and the first two boards' two settings differ, so the pairs say
    which rule ran."""
    from colorit.solvers import astar
    from colorit.solvers.astar_store import CHILD_LEVEL_COLOURS

    small = RegionGraph.from_board(random_board(12, 12, 8, seed=1))
    big = RegionGraph.from_board(random_board(14, 14, 8, seed=3))
    many = RegionGraph.from_board(random_board(10, 10, CHILD_LEVEL_COLOURS + 2, seed=2))
    assert small.n_colours * small.n_regions <= astar.SMALL_GRAPH_SIZE < big.n_colours * big.n_regions
    assert not astar.is_small(many)
    for graph in (small, big):
        assert astar_states(graph) == astar_states(graph, defer_after=0)
        assert astar_states(graph, defer_after=astar.DEFER_AFTER_NODES) != astar_states(graph)
    assert astar_states(many) == astar_states(many, defer_after=astar.DEFER_AFTER_NODES)


def test_astar_starts_a_few_colours_search_with_a_long_slice(first_slices: list[int]) -> None:
    """On a graph of at most ``FEW_COLOURS`` colours, past ``SMALL_GRAPH_SIZE``, the
    default search starts with a slice of ``SMALL_FIRST_SLICE`` nodes, at a compiled
    width; a graph of one colour more, or past the compiled widths (where a node costs
    more), with the default first slice."""
    from colorit.game.bitset import WIDTH_TIERS
    from colorit.runtime.warmup import OneSlice
    from colorit.solvers import astar
    from colorit.solvers.base import SliceBudget
    from colorit.solvers.linear import linear_moves

    few = RegionGraph.from_board(random_board(26, 26, astar.FEW_COLOURS, seed=5))
    more = RegionGraph.from_board(random_board(20, 20, astar.FEW_COLOURS + 1, seed=1))
    for graph in (few, more):
        assert graph.n_colours * graph.n_regions > astar.SMALL_GRAPH_SIZE
    astar_states(few)
    assert first_slices[0] == astar.SMALL_FIRST_SLICE
    before = len(first_slices)
    astar_states(more)
    assert first_slices[before] == SliceBudget().budget
    wide = RegionGraph.from_board(random_board(40, 40, astar.FEW_COLOURS, seed=1))
    assert wide.n_words > max(WIDTH_TIERS) and wide.adjacency_bits_fit
    before = len(first_slices)
    astar.search(wide, OneSlice(), linear_moves(wide))
    assert first_slices[before:] == [SliceBudget().budget]


@pytest.fixture
def last_counters(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """A*'s counters after the last kernel slice run while the test runs, and the size of
    the store's ``child_f`` then."""
    from colorit.solvers import astar
    from colorit.solvers.astar_expand import BOUNDS, DOMINATED, WINDOW_FIRST

    last: dict[str, int] = {}
    run_slice = astar._run_slice

    def recorded(pg, st, ctr, absorbs, budget):  # type: ignore[no-untyped-def]
        status = run_slice(pg, st, ctr, absorbs, budget)
        last.update(bounds=int(ctr[BOUNDS]), dominated=int(ctr[DOMINATED]),
                    window_first=int(ctr[WINDOW_FIRST]), kept=st.child_f.size)
        return status

    monkeypatch.setattr(astar, "_run_slice", recorded)
    return last


def few_colours_proof(
    graph: RegionGraph, last: dict[str, int], keep_child_f: bool | None = None, window_first: bool | None = None
) -> tuple[int, dict[str, int]]:
    """The length of A*'s proof on ``graph`` with the options given, and its counters."""
    from colorit.solvers import astar
    from colorit.solvers.linear import linear_moves

    last.clear()
    out = astar.search(graph, Control(Limits()), linear_moves(graph), keep_child_f=keep_child_f, window_first=window_first)
    assert out.proven_optimal and last  # proven by the search, not by its first answer
    return len(out.codes), dict(last)


def test_astar_keeps_deferred_childrens_levels_up_to_sixteen_colours(last_counters: dict[str, int]) -> None:
    """On a graph of up to ``CHILD_LEVEL_COLOURS`` colours (few colours or many, small or
    not) the store keeps, per node, the level each deferred child was put off to
    (``StoreArrays.child_f``), so a node expanded again works out fewer bounds; the
    proof is the same length either way. A graph of more colours keeps no such array
    (its memory goes to nodes)."""
    from colorit.solvers import astar, astar_store

    most = astar_store.CHILD_LEVEL_COLOURS
    cases = [(26, astar.FEW_COLOURS, 4), (26, astar.FEW_COLOURS, 8), (18, 6, 2), (14, 6, 1), (13, 8, 5),
             (14, 8, 3), (11, 12, 1), (10, most, 3)]
    for side, colours, seed in cases:
        graph = RegionGraph.from_board(random_board(side, side, colours, seed=seed))
        assert graph.n_colours == colours
        kept_moves, kept = few_colours_proof(graph, last_counters)
        moves, plain = few_colours_proof(graph, last_counters, keep_child_f=False)
        assert kept_moves == moves
        assert kept["kept"] > 0 and plain["kept"] == 0
        assert kept["bounds"] < plain["bounds"], (side, colours, seed)
    for side, seed in ((10, 2), (11, 1)):
        many = RegionGraph.from_board(random_board(side, side, most + 2, seed=seed))
        moves, counters = few_colours_proof(many, last_counters)
        assert counters["kept"] == 0
        # the kernel keeps no levels past the colours a word holds, array or not
        assert few_colours_proof(many, last_counters, keep_child_f=True)[0] == moves

def test_astar_looks_in_the_window_before_the_bound_on_few_colours(last_counters: dict[str, int]) -> None:
    """On a graph of at most ``FEW_COLOURS`` colours a child is compared with the window
    of recent sets before its bound: the dominated ones cost no bound, so the search
    works out fewer bounds and drops more children, for a proof of the same length.
    Graphs of more colours compare after the bound, by default."""
    from colorit.solvers import astar

    for seed in (4, 5, 6):
        few = RegionGraph.from_board(random_board(26, 26, astar.FEW_COLOURS, seed=seed))
        first_moves, first = few_colours_proof(few, last_counters)
        moves, after = few_colours_proof(few, last_counters, window_first=False)
        assert first_moves == moves
        assert first["window_first"] == 1 and after["window_first"] == 0
        assert first["bounds"] < after["bounds"] and first["dominated"] > after["dominated"]
    more = RegionGraph.from_board(random_board(20, 20, astar.FEW_COLOURS + 1, seed=1))
    moves, counters = few_colours_proof(more, last_counters)
    assert counters["window_first"] == 0
    assert few_colours_proof(more, last_counters, window_first=True)[0] == moves


def test_astar_first_slice_is_longer_on_small_graphs(first_slices: list[int]) -> None:
    """A small graph's search starts with a slice of ``SMALL_FIRST_SLICE`` nodes (most of
    them end within it), a bigger graph's with the budget's default, which adapts to a
    node's cost from there."""
    from colorit.solvers import astar
    from colorit.solvers.base import SliceBudget
    from colorit.solvers.linear import linear_moves

    for graph in (RegionGraph.from_board(random_board(12, 12, 8, seed=1)), RegionGraph.from_board(random_board(14, 14, 8, seed=3))):
        assert astar.search(graph, Control(Limits()), linear_moves(graph)).proven_optimal
    assert first_slices == [astar.SMALL_FIRST_SLICE, SliceBudget().budget]
    assert astar.SMALL_FIRST_SLICE > SliceBudget().budget


@settings(STABLE, max_examples=150)
@given(boards(min_colours=2, max_colours=10, for_bfs=True))
def test_astar_dives_for_a_shorter_answer_and_stays_exact(board: Board) -> None:
    """Dives from the first node on, one node a slice (so a dive comes at every new level
    and answer), from a poor first answer (the linear AI's): the optimum is still found
    and proven."""
    from colorit.solvers import astar
    from colorit.solvers.base import SliceBudget
    from colorit.solvers.linear import linear_moves

    optimum = naive.optimal_length(rows_of(board), board.start)
    graph = RegionGraph.from_board(board)
    with pytest.MonkeyPatch.context() as patch:  # (no function-scoped fixture under @given)
        patch.setattr(astar, "DIVE_AFTER", 0)
        patch.setattr(astar, "DIVE_LEAST", 1)
        patch.setattr(astar, "SliceBudget", lambda **_: SliceBudget(first=1, most=1))
        out = astar.search(graph, Control(Limits()), linear_moves(graph))
    assert len(out.codes) == optimum and out.proven_optimal and out.lower_bound == optimum
    assert naive.solved(naive.play_all(rows_of(board), board.ids_of(out.codes), board.start))


def test_astar_dives_find_shorter_answers_on_deep_boards(monkeypatch: pytest.MonkeyPatch) -> None:
    """From a first answer one move too long, on boards of 12 colours, some dive finds the
    optimum before the level below it is proven, and every answer is the optimum A*
    proves without dives."""
    from colorit.solvers import astar
    from colorit.solvers.linear import linear_moves

    found: list[int] = []
    real_dive = astar._dive

    def spy_dive(*args):  # type: ignore[no-untyped-def]
        goal = real_dive(*args)
        found.append(goal)
        return goal

    monkeypatch.setattr(astar, "_dive", spy_dive)
    monkeypatch.setattr(astar, "DIVE_AFTER", 0)
    for seed in range(3):
        board = random_board(12, 12, 12, seed=seed)
        graph = RegionGraph.from_board(board)
        monkeypatch.setattr(astar, "DIVE_SHARE", 0.0)
        without = astar.search(graph, Control(Limits()), linear_moves(graph))
        monkeypatch.setattr(astar, "DIVE_SHARE", 1 / 16)
        assert without.proven_optimal
        # the optimum and one more move (any other colour): a valid answer a move too long
        longer = list(without.codes) + [(without.codes[-1] + 1) % graph.n_colours]
        board.check_codes(longer)
        with_dives = astar.search(graph, Control(Limits()), longer)
        assert with_dives.proven_optimal and len(with_dives.codes) == len(without.codes)
        board.check_codes(with_dives.codes)
    assert any(goal >= 0 for goal in found), f"no dive found a shorter answer ({len(found)} dives)"


def test_exact_solvers_on_a_hand_board() -> None:
    board = Board.from_rows(HAND_ROWS)
    for algo in EXACT:
        sol = solve(board, algo)
        assert len(sol.moves) == 4 and sol.proven_optimal and sol.lower_bound == 4
        assert naive.solved(naive.play_all(HAND_ROWS, list(sol.moves)))


# -- published optima --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "count", "algo"),
    [
        ("pc19_b14c6n1000", 30, "astar"),
        ("pc19_b14c6n1000", 30, "auto"),
        ("b10c15n1000", 30, "astar"),
        ("b10c15n1000", 30, "auto"),
        ("floodtest_b19c6n1000_center", 10, "astar"),
    ],
)
def test_dataset_optima(name: str, count: int, algo: str, dataset_file: Callable[[str], Path]) -> None:
    path, opt_path = dataset_file(f"{name}.txt"), dataset_file(f"{name}.opt")
    boards_ = read_boards(path, limit=count)
    optima = read_lengths(opt_path)[:count]
    assert len(boards_) == count
    if "center" in name:
        assert all(b.start == (9, 9) for b in boards_)
    got = []
    for board in boards_:
        sol = solve(board, algo, Limits(time=60))
        board.check(list(sol.moves))
        assert sol.proven_optimal
        assert sol.lower_bound == len(sol.moves)
        got.append(len(sol.moves))
    assert got == optima


# -- limits and stop requests --------------------------------------------------------------


@pytest.mark.parametrize("algo", ["auto", "dfs", "beam"])
def test_time_limit_is_respected(algo: str) -> None:
    board = random_board(100, 100, 20, seed=1)  # about 9,000 regions: greedy, then beam and dfs
    for warm in ("greedy", "dfs", "beam"):  # kernels compiled before timing
        solve(random_board(8, 8, 5, seed=0), warm)
    t0 = time.monotonic()
    sol = solve(board, algo, Limits(time=1.0))
    wall = time.monotonic() - t0
    assert wall < 5.0, f"{algo} took {wall:.2f} s with a 1 s limit"
    assert sol.elapsed >= 0.99
    assert not sol.proven_optimal
    assert sol.stopped == "time"
    assert 0 < sol.lower_bound <= len(sol.moves)
    assert sol.gap == pytest.approx((len(sol.moves) - sol.lower_bound) / sol.lower_bound)
    assert np.unique(board.replay(list(sol.moves))).size == 1
    assert set(sol.moves) <= set(range(20))


def test_astar_time_limit_on_a_big_board() -> None:
    board = random_board(100, 100, 20, seed=1)  # about 9,000 regions: too many for bitsets
    solve(board, "greedy")  # load the kernels first: the limit is about searching
    t0 = time.monotonic()
    sol = solve(board, "astar", Limits(time=0.5))
    wall = time.monotonic() - t0
    assert sol.stopped == "time" and not sol.proven_optimal
    assert wall < 2.5, f"astar took {wall:.2f} s with a 0.5 s limit"


def hard_board() -> Board:
    """A board A* needs far more than 2 MB for."""
    return random_board(24, 24, 6, seed=1)


def test_astar_memory_cap() -> None:
    """Under a cap far below what the board needs, A* keeps its tables within the cap
    (going on by deepening when its store is full) and answers at its time limit."""
    board = hard_board()
    sol = solve(board, "astar", Limits(memory=2_000_000, time=2))
    assert sol.stopped == "time"
    assert not sol.proven_optimal
    assert 0 < sol.lower_bound < len(sol.moves)
    assert 0 < sol.table_bytes <= 2_000_000
    board.check(list(sol.moves))
    assert len(sol.moves) <= len(solve(board, "lookahead").moves)


def test_astar_starts_no_grow_that_would_pass_the_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    """Growing the store of a big search takes a noticeable time; when the time left is
    shorter than the grow would take, A* answers at once instead."""
    from colorit.solvers import astar

    monkeypatch.setattr(astar, "GROW_S_PER_BYTE", 1.0)  # every grow "takes" far past 30 s
    board = hard_board()
    t0 = time.monotonic()
    sol = solve(board, "astar", Limits(time=30))
    # at once, not after the 30 s limit (wide margin for a loaded CI machine;
    # benchmarks/promises.py measures the promise)
    assert time.monotonic() - t0 < 20
    assert sol.stopped == "time" and not sol.proven_optimal
    assert 0 < sol.lower_bound < len(sol.moves)
    board.check(list(sol.moves))


def test_memory_cap_on_an_easy_board_still_proves() -> None:
    board = random_board(5, 6, 4, seed=2, start=(2, 3))
    optimum = naive.optimal_length(rows_of(board), board.start)
    for algo in ("astar", "auto"):
        sol = solve(board, algo, Limits(memory=2_000_000))
        assert sol.proven_optimal and len(sol.moves) == optimum and sol.stopped == ""


def test_auto_goes_on_in_its_memory_after_the_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    """At the memory cap A* does not stop: it goes on by iterative deepening from its open
    nodes within the cap, with beam's help as before, and answers on time with the best
    answer and the lower bound it reached."""
    from colorit.solvers import astar

    calls: dict[str, tuple[list[int], int, str]] = {}
    real_deepen = astar._deepen

    def spy_deepen(*args, **options):  # type: ignore[no-untyped-def]
        out = real_deepen(*args, **options)
        calls["deepen"] = (list(out.codes), out.lower_bound, out.stopped)
        return out

    monkeypatch.setattr(astar, "_deepen", spy_deepen)
    board = hard_board()
    from colorit.runtime.warmup import warm_for

    warm_for("auto", [board])  # kernels compiled before timing
    t0 = time.monotonic()
    sol = solve(board, "auto", Limits(memory=2_000_000, time=1.5))
    # held to its limit (wide margin for a loaded CI machine; benchmarks/promises.py measures the
    # promise)
    assert time.monotonic() - t0 < 15
    assert "deepen" in calls, "A* did not go on after its memory cap"
    codes, lower, stopped = calls["deepen"]
    assert stopped == "time" and lower > 0
    assert_valid(board, sol)
    assert len(sol.moves) <= len(codes)
    assert sol.lower_bound >= lower
    assert sol.proven_optimal or sol.stopped == "time"


@pytest.fixture
def pass_widths(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The widths of the beam passes the test runs, in their order."""
    from colorit.solvers import beam

    widths: list[int] = []
    real_pass = beam._pass

    def spy_pass(graph, control, width, best, space):  # type: ignore[no-untyped-def]
        widths.append(width)
        return real_pass(graph, control, width, best, space)

    monkeypatch.setattr(beam, "_pass", spy_pass)
    return widths


def test_auto_shortens_its_first_answer_with_one_narrow_beam_pass_early(pass_widths: list[int]) -> None:
    """auto's first helper turn comes milliseconds in and is one beam pass of the early
    width: lookahead's answer is often moves over the optimum, and A* stores every child
    that beats it. The later turns start one width up."""
    from colorit.solvers import auto
    from colorit.solvers.incumbent import first_answer

    widths = pass_widths
    board = random_board(19, 19, 6, seed=3, start=(9, 9))
    graph = RegionGraph.from_board(board)
    control = Control(Limits(time=60))
    first = first_answer(graph, control)
    helpers = auto._helpers(graph, control)
    times = [at - control.started for at, _ in helpers]
    assert times[:2] == pytest.approx([auto.EARLY_HELP_S, auto.HELP_FIRST_S])
    out = helpers[0][1](first)
    assert widths == [auto.EARLY_WIDTH]
    assert len(out.codes) < len(first)
    board.check_codes(np.array(out.codes, dtype=np.int64))
    helpers[1][1](list(out.codes))
    assert widths[1] == 2 * auto.EARLY_WIDTH


def turns_with_a_beam_finding_nothing(
    monkeypatch: pytest.MonkeyPatch, limit: float | None
) -> tuple[Control, list[Any], list[tuple[float, int]]]:
    """auto's turns on a 10x10 board under ``limit``, with a beam that finds nothing and
    records each call's time left and width."""
    from colorit.solvers import auto, beam
    from colorit.solvers.base import Outcome

    calls: list[tuple[float, int]] = []

    def fake_search(graph, control, best, max_width=0, widths=None, hand_back_at=0, known_bound=0):  # type: ignore[no-untyped-def]
        calls.append((control.deadline - time.monotonic(), max_width))
        return Outcome(list(best), False, 0, 0)

    monkeypatch.setattr(beam, "search", fake_search)
    graph = RegionGraph.from_board(random_board(10, 10, 6, seed=1))
    control = Control(Limits(time=limit))
    return control, auto._helpers(graph, control), calls


@pytest.mark.parametrize(("limit", "cut"), [(None, True), (600.0, True), (30.0, False)])
def test_beam_turns_shrink_after_finding_nothing_under_long_limits(
    monkeypatch: pytest.MonkeyPatch, limit: float | None, cut: bool
) -> None:
    """With a long limit (or none) the answer written is A*'s proven one: each turn that
    finds nothing shorter leaves the later turns ``UNIMPROVED_SCALE`` of their time.
    Under a shorter limit the beam's answer may be the one written, and every turn
    keeps its time."""
    from colorit.solvers import auto

    _, helpers, calls = turns_with_a_beam_finding_nothing(monkeypatch, limit)
    answer = [0] * 40
    for _, turn in helpers[1:4]:
        turn(answer)  # nothing shorter each time
    spans = [left for left, _ in calls]
    # the turns' caps: HELP_SHARE of 0.5 s, 2 s and 8 s (all below a quarter of the limit)
    planned = [auto.HELP_SHARE * at for at in (auto.HELP_FIRST_S, auto.HELP_FIRST_S * auto.HELP_GROWTH,
                                              auto.HELP_FIRST_S * auto.HELP_GROWTH**2)]
    scale = auto.UNIMPROVED_SCALE if cut else 1.0
    assert spans == pytest.approx([planned[0], planned[1] * scale, planned[2] * scale**2], abs=0.01)


@pytest.mark.parametrize(("limit", "gap", "runs"), [(600.0, 1, False), (None, 0, False), (600.0, 2, True), (30.0, 1, True)])
def test_beam_turns_under_long_limits_skip_an_answer_a_move_above_astars_level(
    monkeypatch: pytest.MonkeyPatch, limit: float | None, gap: int, runs: bool
) -> None:
    """Under a long limit (or none) a turn that comes while the answer is at most one
    move above A*'s level does not run the beam (A* ends at that level whatever it
    finds, unless it finds the optimum a move below a too-long answer); further off, or
    under a shorter limit, where the beam's answer may be the one written, it runs. The
    early turn always runs."""
    from colorit.solvers import auto

    control, helpers, calls = turns_with_a_beam_finding_nothing(monkeypatch, limit)
    answer = [0] * 40
    control.raise_bound(len(answer) - gap)
    out = helpers[1][1](answer)
    assert out.codes == answer
    assert bool(calls) == runs
    helpers[0][1](answer)
    assert calls[-1][1] == auto.EARLY_WIDTH


@pytest.mark.parametrize(("hand_back_at", "passes"), [(0, 3), (100, 2)])
def test_beam_hands_the_time_back_after_a_pass_that_finds_nothing_near_the_bound(
    pass_widths: list[int], hand_back_at: int, passes: int
) -> None:
    """Under a short limit auto's beam turn ends after a pass (past the first) that finds
    nothing shorter once the answer is within a move of A*'s bound: A*, near a proof,
    gets the time. Otherwise the passes widen while time and width are left."""
    from colorit.solvers import beam

    board = random_board(10, 10, 5, seed=2)
    graph = RegionGraph.from_board(board)
    optimal = solve(board, "astar").moves  # nothing shorter to find
    codes = [int(c) for c in board.codes_of(optimal)]
    out = beam.search(graph, Control(Limits()), codes, max_width=4 * beam.FIRST_WIDTH, hand_back_at=hand_back_at)
    assert pass_widths == [beam.FIRST_WIDTH * 2**k for k in range(passes)]
    assert out.codes == codes


@pytest.mark.parametrize("algo", ["astar", "dfs", "auto"])
def test_stop_request_from_another_thread(algo: str) -> None:
    board = random_board(24, 24, 6, seed=0)  # none of the searches proves it in seconds
    # kernels compiled (or loaded from numba's cache) first: a compile cannot be interrupted
    solve(board, algo, Limits(time=0.2))
    control = Control(Limits(time=30))
    result: dict[str, object] = {}
    reported: list[int] = []

    def run() -> None:
        try:
            result["sol"] = solve(board, algo, control=control, on_improve=lambda n, lb, t: reported.append(n))
        except BaseException as e:  # noqa: BLE001  (re-raised in the test thread)
            result["error"] = e

    thread = threading.Thread(target=run)
    thread.start()
    time.sleep(0.5)
    stop_at = time.monotonic()
    control.request_stop()
    thread.join(timeout=10)
    waited = time.monotonic() - stop_at
    assert not thread.is_alive(), f"{algo} did not stop"
    assert "error" not in result, result.get("error")
    assert waited < 1.0, f"{algo} took {waited:.2f} s to stop"
    sol = result["sol"]
    assert isinstance(sol, Solution)
    assert sol.stopped == "signal"
    assert not sol.proven_optimal
    assert_valid(board, sol)
    assert reported and len(sol.moves) == min(reported)  # the best answer found
    assert len(sol.moves) <= len(solve(board, "lookahead").moves)


# -- determinism ----------------------------------------------------------------------------


@pytest.mark.parametrize("algo", solver_names())
def test_same_board_same_answer(algo: str) -> None:
    for board in (
        random_board(10, 10, 6, seed=21),
        random_board(9, 13, 9, seed=22, start=(4, 6)),
        Board.from_rows([[2**62, -(2**62), 0] * 4] * 3, start=(1, 5)),
    ):
        first = solve(board, algo).moves
        again = solve(Board(board.cells.copy(), board.start), algo).moves
        assert first == again
        assert solve(board, algo).moves == first


def test_start_from_an_earlier_answer_and_its_lower_bound() -> None:
    board = random_board(14, 14, 6, seed=3)
    best = solve(board, "auto")
    assert best.proven_optimal and best.table_bytes > 0
    # a heuristic started from the optimum never answers worse; with the optimum's
    # length as a known lower bound, the answer is proven
    again = solve(board, "linear", start_from=best.moves)
    assert len(again) == len(best) and not again.proven_optimal
    proven = solve(board, "linear", start_from=best.moves, lower_bound=len(best))
    assert proven.proven_optimal and proven.lower_bound == len(best)
    # the exact search starts from it and still proves it
    exact = solve(board, "astar", start_from=best.moves)
    assert exact.proven_optimal and len(exact) == len(best)
    with pytest.raises(ColoritError, match="start_from: after 1 moves"):
        solve(board, "auto", start_from=best.moves[:1])
    with pytest.raises(ColoritError, match="lower bound must be a whole number"):
        solve(board, "auto", lower_bound=-1)


def test_past_64_colours_every_bitset_solver_calls_the_other_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past 64 colours the colours left no longer fit a word: A*, its deepening, the beam
    and lookahead call ``bound_bits_many_colours`` instead (each caller chooses). A*
    proves the depth-first search's optimum (adjacency lists, another bound kernel), also
    when its store is full and it goes on by deepening; the others answer validly."""
    from colorit.solvers import astar, deepening
    from colorit.solvers.astar_store import NodeStore
    from colorit.solvers.linear import linear_moves

    rng = np.random.default_rng(5)
    board = Board(rng.integers(0, 90, size=(12, 12)), (0, 0))
    graph = RegionGraph.from_board(board)
    assert graph.n_colours > 64 and graph.adjacency_bits_fit
    exact = solve(board, "astar")
    assert exact.proven_optimal
    assert len(exact.moves) == len(solve(board, "dfs").moves)
    slices: list[int] = []
    run = deepening.run

    def counted_run(*args: Any) -> Any:
        slices.append(1)
        return run(*args)

    monkeypatch.setattr(deepening, "run", counted_run)
    NodeStore._spare.clear()
    deep = astar.search(graph, Control(Limits(memory=1 << 20)), linear_moves(graph), store_share=0.02)
    NodeStore._spare.clear()
    assert slices  # the store filled: the rest was deepening's
    assert deep.proven_optimal and len(deep.codes) == len(exact.moves)
    for algo in ("lookahead", "beam"):
        sol = solve(board, algo, Limits(time=10))
        board.check(list(sol.moves))
        assert len(sol.moves) >= len(exact.moves)
