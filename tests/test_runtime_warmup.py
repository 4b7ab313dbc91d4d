"""``colorit.runtime.warmup``: loading the kernels before a clock runs, without the work of a solve."""

from __future__ import annotations

import tracemalloc

import pytest

from colorit.game.generate import random_board
from colorit.game.graph import RegionGraph
from colorit.runtime.warmup import warm_for, width_key
from colorit.solvers import beam, deadline, dfs


def test_the_warm_up_allocates_little() -> None:
    """One slice of each search needs no table of the size a real search would take (the
    depth-first search's memo is sized by the memory limit: 96 MB under the default)."""
    tracemalloc.start()
    try:
        warm_for("auto")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 32 << 20


def test_warm_for_records_the_solver_and_the_widths_it_loaded(monkeypatch: pytest.MonkeyPatch) -> None:
    """A bench's solves run on its own thread only where the warm-up loaded their
    kernels: A*'s family at the widths its boards need, the others at any width."""
    monkeypatch.setattr(deadline, "_warm", {})
    boards = [random_board(14, 14, 6, seed=1), random_board(20, 20, 6, seed=2)]
    warm_for("a*", boards)
    assert deadline._warm == {"astar": frozenset(width_key(RegionGraph.from_board(b)) for b in boards)}
    warmed = deadline._warm["astar"]
    assert warmed is not None and len(warmed) == 2
    warm_for("lookahead", boards)  # its bound runs at the padded graph's compiled width
    assert deadline._warm["lookahead"] == deadline._warm["astar"]
    warm_for("greedy")
    assert deadline._warm["greedy"] is None


def test_warm_for_auto_loads_its_helpers_only_where_its_boards_need_them(monkeypatch: pytest.MonkeyPatch) -> None:
    """auto's beam at the small board's width runs only when the boards need that
    width, its depth-first search only when a board is wider than A*'s compiled widths;
    with no boards named (a worker's start), both."""
    from colorit.game.bitset import WIDTH_TIERS

    calls: list[tuple[str, int]] = []

    def recorder(name: str, search):  # type: ignore[no-untyped-def]
        def run(graph: RegionGraph, *args, **kwargs):  # type: ignore[no-untyped-def]
            calls.append((name, width_key(graph)))
            return search(graph, *args, **kwargs)

        return run

    monkeypatch.setattr(beam, "search", recorder("beam", beam.search))
    monkeypatch.setattr(dfs, "search", recorder("dfs", dfs.search))
    monkeypatch.setattr(deadline, "_warm", {})

    def helpers(boards: list) -> set[tuple[str, int]]:  # type: ignore[type-arg]
        calls.clear()
        warm_for("auto", boards)
        return set(calls)

    wide = random_board(24, 24, 4, seed=1)  # five words
    assert width_key(RegionGraph.from_board(wide)) > WIDTH_TIERS[0]
    assert helpers([wide]) == {("beam", width_key(RegionGraph.from_board(wide)))}
    small = random_board(10, 10, 6, seed=1)
    assert width_key(RegionGraph.from_board(small)) == WIDTH_TIERS[0]
    assert helpers([small]) == {("beam", WIDTH_TIERS[0])}
    huge = random_board(40, 40, 6, seed=1)  # past the compiled widths
    assert width_key(RegionGraph.from_board(huge)) > max(WIDTH_TIERS)
    assert ("dfs", WIDTH_TIERS[0]) in helpers([huge])
    assert {("beam", WIDTH_TIERS[0]), ("dfs", WIDTH_TIERS[0])} <= helpers([])


def test_astar_widths_come_from_region_counts() -> None:
    """The widths a set needs, from its boards' region counts alone, are the kernels
    their graphs run (boards of one region, and past bitset adjacency, need none)."""
    from colorit.game.board import Board
    from colorit.runtime.warmup import astar_widths

    boards = [
        random_board(side, side, colours, seed=side) for side, colours in ((4, 3), (10, 6), (14, 6), (20, 6), (26, 6), (34, 6), (60, 6))
    ]
    boards.append(Board.from_rows([[2, 2], [2, 2]]))
    graphs = [RegionGraph.from_board(b) for b in boards]
    expected = frozenset(width_key(g) for g in graphs if g.adjacency_bits_fit and g.n_regions > 1)
    assert len(expected) >= 4
    assert astar_widths(boards) == expected


def test_boards_for_widths_reach_each_width_asked() -> None:
    """The warm-up's boards run A* at exactly the widths asked, the run-time width too."""
    from colorit.game.bitset import RUNTIME_WIDTH, WIDTH_TIERS
    from colorit.runtime.warmup import boards_for_widths

    for widths in ({WIDTH_TIERS[0], WIDTH_TIERS[1]}, {WIDTH_TIERS[3]}, {WIDTH_TIERS[0], RUNTIME_WIDTH}, set()):
        assert {width_key(RegionGraph.from_board(b)) for b in boards_for_widths(widths)} == widths
