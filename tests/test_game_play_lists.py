"""``colorit.game.play_lists``: the basic AI and greedy played on per-colour frontier lists give
exactly the moves of a naive reference on cells (``naive.linear_moves``,
``naive.greedy_moves``), whole or in slices or (greedy) in one call, on any board including one of many colours;
``finish`` completes any prefix to a valid answer."""

from __future__ import annotations

import heapq

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from colorit import Board, RegionGraph
from colorit.game import play_lists

import naive
from boardgen import STABLE, boards, rows_of


def graph_of(board: Board) -> RegionGraph:
    return RegionGraph.from_board(board)


def play(board: Board, run: str, budget: int = 1 << 62) -> list[int]:
    """The moves (colour ids) of ``play_lists.linear_run`` or ``greedy_run``, ``budget``
    moves per call, to the end."""
    graph = graph_of(board)
    g, s = play_lists.graph_lists(graph), play_lists.new_state(graph)
    step = getattr(play_lists, run)
    calls = 0
    while not step(g, s, budget):
        calls += 1
        assert calls <= graph.n_regions, "no progress"
    assert play_lists.is_done(s)
    return board.ids_of(play_lists.moves_of(s))


def after(rows: list[list[int]], start: tuple[int, int], moves: list[int]) -> list[list[int]]:
    return [list(r) for r in naive.play_all(rows, moves, start)]


# --------------------------------------------------------------------------- against the cells


@STABLE
@given(boards(max_side=9, max_colours=10))
def test_linear_and_greedy_match_the_cell_reference(board: Board) -> None:
    rows = rows_of(board)
    linear = naive.linear_moves(rows, board.start)
    assert board.ids_of(play_lists.linear_codes(graph_of(board))) == linear
    assert play(board, "linear_run") == linear
    greedy = naive.greedy_moves(rows, board.start)
    assert play(board, "greedy_run") == greedy
    assert board.ids_of(play_lists.greedy_codes(graph_of(board))) == greedy


@STABLE
@given(boards(max_side=8, max_colours=8), st.integers(1, 4))
def test_slices_play_the_same_game(board: Board, budget: int) -> None:
    """The solvers run these kernels a few moves at a time (to notice deadlines): the
    game must not depend on where the slices end."""
    for run in ("linear_run", "greedy_run"):
        assert play(board, run, budget) == play(board, run)


@pytest.mark.parametrize(
    ("height", "width", "colours", "seed"),
    [(24, 24, 576, 1), (20, 30, 150, 2), (1, 300, 300, 3)],
    ids=["all-distinct-24x24", "150-colours", "one-row-300-colours"],
)
def test_many_colours(height: int, width: int, colours: int, seed: int) -> None:
    """Where the bitset kernels would need a colours x regions table: the lists cost
    the same per move whatever the colour count."""
    rng = np.random.default_rng(seed)
    ids = rng.choice(np.arange(-(2**40), 2**40, 2**30 + 7), size=colours, replace=False)
    if colours == height * width:
        cells = rng.permutation(ids).reshape(height, width)
    else:
        cells = ids[rng.integers(0, colours, size=(height, width))]
    board = Board(cells, start=(height // 2, width // 2))
    rows = rows_of(board)
    linear = play(board, "linear_run")
    assert linear == naive.linear_moves(rows, board.start)
    greedy = naive.greedy_moves(rows, board.start)
    assert play(board, "greedy_run") == greedy
    assert board.ids_of(play_lists.greedy_codes(graph_of(board))) == greedy
    board.check(linear)
    if colours == height * width:  # every cell its own region: one move per other cell
        assert len(linear) == height * width - 1


def test_linear_takes_the_lowest_numbered_region_not_the_first_touching_cell() -> None:
    """From the middle, the region with the lowest number (its first cell in reading
    order) may touch the flood only late in reading order: it still goes first."""
    rows = [
        [1, 2, 2],
        [1, 3, 4],  # the flood is the 4 at (1, 2)
        [1, 1, 1],
    ]
    board = Board.from_rows(rows, start=(1, 2))
    # region 0 is the 1s (first cell (0, 0)), touching the flood at (2, 2); the first
    # cell in reading order that touches the flood is the 2 at (0, 2)
    assert board.ids_of(play_lists.linear_codes(graph_of(board)))[0] == 1
    assert naive.linear_moves(rows, (1, 2))[0] == 1


def test_one_region_needs_no_move() -> None:
    board = Board.from_rows([[7, 7], [7, 7]])
    assert play_lists.linear_codes(graph_of(board)) == []
    assert play(board, "greedy_run") == []
    assert play_lists.finish(graph_of(board), []) == []


# --------------------------------------------------------------------------- finish


@STABLE
@given(st.data())
def test_finish_completes_any_prefix(data: st.DataObject) -> None:
    """Any prefix of colour codes (moves that absorb nothing and the flood's own colour
    included) comes back as the start of a whole answer: greedy's play after it on a
    small board."""
    board = data.draw(boards(max_side=8, min_colours=2, max_colours=8))
    graph = graph_of(board)
    prefix = data.draw(st.lists(st.integers(0, graph.n_colours - 1), max_size=12))
    answer = play_lists.finish(graph, prefix)
    assert answer[: len(prefix)] == prefix
    ids = board.ids_of(answer)
    board.check(ids)
    rows = rows_of(board)
    prefix_ids = board.ids_of(prefix)
    assert ids[len(prefix) :] == naive.greedy_moves(after(rows, board.start, prefix_ids), board.start)


def test_finish_with_the_basic_ai_where_greedy_costs_too_much(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(play_lists, "GREEDY_FINISH_WORK", 0)
    board = Board(np.random.default_rng(5).integers(0, 6, size=(12, 12)), start=(3, 4))
    graph, rows = graph_of(board), rows_of(board)
    for prefix in ([], [0], [2, 2, 5, 1]):
        answer = play_lists.finish(graph, prefix)
        assert answer[: len(prefix)] == prefix
        rest = board.ids_of(answer[len(prefix) :])
        assert rest == naive.linear_moves(after(rows, board.start, board.ids_of(prefix)), board.start)


def test_finish_of_a_whole_answer_adds_nothing() -> None:
    board = Board(np.random.default_rng(6).integers(0, 5, size=(10, 10)))
    graph = graph_of(board)
    whole = play_lists.linear_codes(graph)
    assert play_lists.finish(graph, whole) == whole


def test_new_state_after_a_prefix() -> None:
    board = Board.from_rows([[1, 2, 3], [2, 2, 3], [3, 3, 1]])
    graph = graph_of(board)
    s = play_lists.new_state(graph, board.codes_of([2]).tolist())
    assert play_lists.moves_of(s) == board.codes_of([2])
    assert not play_lists.is_done(s)
    assert int(s.counts[play_lists.N_FLOODED]) == 2  # the start's region and the 2s
    assert int(s.gain[board.codes_of([3])[0]]) == 4  # the 3s around it


# --------------------------------------------------------------------------- the waiting tree


@STABLE
@given(st.integers(1, 300_000), st.lists(st.tuples(st.booleans(), st.integers(0, 1 << 30)), min_size=1, max_size=80))
def test_the_waiting_tree_finds_the_lowest_member(n: int, ops: list[tuple[bool, int]]) -> None:
    """Adding and removing members in any order, on trees of one to four levels
    (262,145 or more regions need four), the lowest member is the set's minimum."""
    levels = play_lists._tree_levels(n)
    tree = np.zeros(levels[-1], dtype=np.uint64)
    members: set[int] = set()
    for add, raw in ops:
        if add and raw % n not in members:
            play_lists._tree_add(tree, levels, raw % n)
            members.add(raw % n)
        elif not add and members:
            r = sorted(members)[raw % len(members)]
            play_lists._tree_remove(tree, levels, r)
            members.remove(r)
        if members:
            assert play_lists._tree_lowest(tree, levels) == min(members)
        else:
            assert not tree.any()


def test_linear_on_a_graph_of_three_tree_levels() -> None:
    """4,900 regions, every cell its own, from the middle: the basic AI's moves are
    those of a plain heap over the region graph."""
    side = 70
    board = Board(np.random.default_rng(8).permutation(side * side).reshape(side, side), start=(side // 2, side // 2))
    graph = graph_of(board)
    assert len(play_lists._tree_levels(graph.n_regions)) - 1 == 3
    start = graph.start_region
    flooded = {start}
    waiting = graph.adj_idx[graph.adj_ptr[start] : graph.adj_ptr[start + 1]].tolist()
    heapq.heapify(waiting)
    expected = []
    while waiting:
        r = heapq.heappop(waiting)
        if r in flooded:
            continue
        expected.append(int(graph.region_colour[r]))
        flooded.add(r)  # every region its own colour: a move takes that one region
        for nb in graph.adj_idx[graph.adj_ptr[r] : graph.adj_ptr[r + 1]].tolist():
            if nb not in flooded:
                heapq.heappush(waiting, nb)
    assert play_lists.linear_codes(graph) == expected
    assert len(expected) == side * side - 1
