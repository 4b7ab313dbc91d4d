"""The exact search's memory-bound continuation (``colorit.solvers.deepening``): iterative
deepening from A*'s open nodes, with A*'s table as a read-only record of what it covered."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from colorit import Board, Control, Limits, RegionGraph
from colorit.game.generate import random_board
from colorit.solvers import astar
from colorit.solvers.linear import linear_moves

import naive
from boardgen import STABLE, boards, rows_of


def _full_at_once(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Make A*'s store full at its first node (its share of a 1 MB cap: a few bytes), so
    every search goes on by deepening; count the searches that did."""
    defaults = astar.search.__defaults__
    assert defaults is not None
    monkeypatch.setattr(astar.search, "__defaults__", defaults[:-1] + (1e-4,))
    calls = {"deepened": 0}
    real = astar._deepen

    def counting(*args, **options):  # type: ignore[no-untyped-def]
        calls["deepened"] += 1
        return real(*args, **options)

    monkeypatch.setattr(astar, "_deepen", counting)
    return calls


@settings(STABLE, max_examples=200)
@given(boards(min_colours=2, max_colours=10, for_bfs=True))
def test_deepening_from_the_first_node_finds_and_proves_the_optimum(board: Board) -> None:
    """With A*'s store full from the start, the search is all deepening: from the linear
    AI's answer it still finds the optimum the exhaustive BFS finds, and proves it."""
    with pytest.MonkeyPatch.context() as mp:
        calls = _full_at_once(mp)
        optimum = naive.optimal_length(rows_of(board), board.start)
        graph = RegionGraph.from_board(board)
        out = astar.search(graph, Control(Limits(memory=1 << 20)), linear_moves(graph))
    assert len(out.codes) == optimum and out.proven_optimal and out.lower_bound == optimum
    assert naive.solved(naive.play_all(rows_of(board), board.ids_of(out.codes), board.start))
    assert calls["deepened"] <= 1


def test_a_full_store_goes_on_by_deepening(monkeypatch: pytest.MonkeyPatch) -> None:
    """On boards A* needs thousands of nodes for, a store full at once still ends proven
    and optimal (the same length as with memory to spare), deepening every time."""
    boards_, graphs, optima = [], [], []
    for seed in range(12):
        board = random_board(14, 14, 6, seed)
        graph = RegionGraph.from_board(board)
        ref = astar.search(graph, Control(Limits()), linear_moves(graph))
        if ref.states > 200:  # stores more nodes than the smallest store holds
            boards_.append(board)
            graphs.append(graph)
            optima.append(len(ref.codes))
    assert len(boards_) >= 4
    calls = _full_at_once(monkeypatch)
    for board, graph, optimum in zip(boards_, graphs, optima):
        out = astar.search(graph, Control(Limits(memory=1 << 20)), linear_moves(graph))
        assert out.proven_optimal and len(out.codes) == optimum
        board.check(board.ids_of(out.codes))
    assert calls["deepened"] == len(boards_)


def test_without_deepening_a_full_store_stops_on_memory() -> None:
    board = random_board(24, 24, 6, 1)  # A* needs far more than 1 MB here
    graph = RegionGraph.from_board(board)
    out = astar.search(graph, Control(Limits(memory=1 << 20)), linear_moves(graph), deepen=False)
    assert out.stopped == "memory" and not out.proven_optimal


def test_deepening_keeps_the_time_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """A search that is all deepening on a board it cannot finish still stops at its
    deadline with a lower bound."""
    _full_at_once(monkeypatch)
    graph = RegionGraph.from_board(random_board(24, 24, 6, 3))
    control = Control(Limits(time=0.5, memory=1 << 20))
    out = astar.search(graph, control, linear_moves(graph))
    assert out.stopped == "time" and 0 < out.lower_bound < len(out.codes)
