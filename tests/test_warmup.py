"""``colorit.warmup``: loading the kernels before a clock runs, without the work of a solve."""

from __future__ import annotations

import tracemalloc

import pytest

from colorit.generate import random_board
from colorit.graph import RegionGraph
from colorit.solvers import guard
from colorit.warmup import warm_for, width_key


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
    monkeypatch.setattr(guard, "_warm", {})
    boards = [random_board(14, 14, 6, seed=1), random_board(20, 20, 6, seed=2)]
    warm_for("a*", boards)
    assert guard._warm == {"astar": frozenset(width_key(RegionGraph.from_board(b)) for b in boards)}
    assert len(guard._warm["astar"]) == 2
    warm_for("greedy")
    assert guard._warm["greedy"] is None
