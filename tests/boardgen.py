"""Hypothesis strategies for boards, shared by the graph, bound, playout and solver tests,
and the frontier of a position, which those tests build positions with, and the cells of
a set of regions, which they check positions by."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from colorit import Board, RegionGraph
from colorit.game.play_bits import frontier

INT64 = st.integers(-(2**63), 2**63 - 1)

#: Reproducible runs: the same examples every time, no database, no deadline (the first
#: call of a kernel loads it from numba's cache).
STABLE = settings(
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def bfs_cells(colours: int) -> int:
    """The most cells a board with ``colours`` colours may have for ``naive.optimal_length``
    (which searches whole grids) to answer in well under a second."""
    if colours <= 5:
        return 30
    if colours <= 6:
        return 24
    if colours <= 8:
        return 20
    return 16


def colour_ids(k: int, wide: bool = True) -> st.SearchStrategy[list[int]]:
    """``k`` distinct colour ids: small ones, and (``wide``) any 64-bit integers."""
    ids = st.one_of(st.integers(-3, 40), INT64) if wide else st.integers(0, 40)
    return st.lists(ids, min_size=k, max_size=k, unique=True)


@st.composite
def boards(
    draw: st.DrawFn,
    max_side: int = 8,
    min_colours: int = 1,
    max_colours: int = 10,
    for_bfs: bool = False,
    corner: bool = False,
    wide_ids: bool = True,
) -> Board:
    """A rectangular board of up to ``max_side`` x ``max_side`` cells with up to
    ``max_colours`` distinct colour ids (any 64-bit integers), started from any cell
    (the top-left one if ``corner``). ``for_bfs`` keeps it small enough for the naive
    exhaustive search (``bfs_cells``)."""
    k = draw(st.integers(min_colours, max_colours))
    cap = bfs_cells(k) if for_bfs else max_side * max_side
    shapes = sorted(
        ((h, w) for h in range(1, max_side + 1) for w in range(1, max_side + 1) if h * w <= cap),
        key=lambda s: (s[0] * s[1], s),
    )
    h, w = draw(st.sampled_from(shapes))  # shrinks towards small boards
    ids = draw(colour_ids(k, wide_ids))
    if draw(st.booleans()):
        # uniform colours from a drawn seed: boards that use most of their colours
        rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
        cells = [ids[i] for i in rng.integers(0, k, size=h * w)]
    else:
        # hypothesis' own choices: runs, repeats and the corner cases it likes
        cells = draw(st.lists(st.sampled_from(ids), min_size=h * w, max_size=h * w))
    start = (0, 0) if corner else (draw(st.integers(0, h - 1)), draw(st.integers(0, w - 1)))
    return Board(np.array(cells, dtype=np.int64).reshape(h, w), start)


def rows_of(board: Board) -> list[list[int]]:
    return board.cells.tolist()  # type: ignore[no-any-return]


def front_of(graph: RegionGraph, flooded: np.ndarray) -> np.ndarray:
    """The frontier of the flooded set ``flooded`` (the regions outside it that border it)."""
    front = np.zeros_like(flooded)
    frontier(flooded, graph.adj_ptr, graph.adj_idx, front)
    return front


def cells_of(graph: RegionGraph, regions: list[int]) -> set[tuple[int, int]]:
    """The cells of the board in the regions ``regions`` of its graph, as (row, column)."""
    mask = np.isin(graph.labels, regions)
    return {(int(r), int(c)) for r, c in zip(*np.nonzero(mask))}
