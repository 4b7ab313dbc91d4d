"""The region graph (``colorit.game.graph``): regions, colours, sizes and adjacency of
boards worked out by hand, checked against a naive cell-by-cell labelling on random
boards, and its bitset tables and padded sets. The game on it is ``test_game_play_bits.py``'s."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from colorit import Board, RegionGraph
from colorit.game.bitset import from_bits, padded_width
from colorit.game.generate import random_board
from colorit.game.graph import adjacency_bits, colour_rows, count_regions, padded
from colorit.game.play_bits import frontier
from colorit.solvers.lookahead import lookahead_moves

from boardgen import STABLE, cells_of
from conftest import HAND_ROWS

# The hand board (conftest.HAND_ROWS). Regions in reading order of their first cell:
#   R0 (0,0)=1   R1 (0,1)=2   R2 (0,2),(0,3),(1,3)=0   R3 (1,0)=0   R4 (1,1),(1,2)=1
#   R5 (2,0),(2,1)=2   R6 (2,2),(3,2),(3,1),(3,0)=0   R7 (2,3),(3,3)=1
LABELS = [[0, 1, 2, 2], [3, 4, 4, 2], [5, 5, 6, 7], [6, 6, 6, 7]]
COLOURS = [1, 2, 0, 0, 1, 2, 0, 1]
SIZES = [1, 1, 3, 1, 2, 2, 4, 2]
NEIGHBOURS = [[1, 3], [0, 2, 4], [1, 4, 7], [0, 4, 5], [1, 2, 3, 5, 6], [3, 4, 6], [4, 5, 7], [2, 6]]


def neighbour_lists(graph: RegionGraph) -> list[list[int]]:
    """Each region's neighbours, sorted (the CSR order is not part of the contract)."""
    return [sorted(graph.neighbours(r).tolist()) for r in range(graph.n_regions)]


def naive_regions(rows: list[list[int]]) -> list[list[tuple[int, int]]]:
    """Same-coloured 4-connected components, in reading order of their first cell."""
    h, w = len(rows), len(rows[0])
    seen: set[tuple[int, int]] = set()
    regions = []
    for r0 in range(h):
        for c0 in range(w):
            if (r0, c0) in seen:
                continue
            todo, cells = [(r0, c0)], []
            seen.add((r0, c0))
            while todo:
                r, c = todo.pop()
                cells.append((r, c))
                for rr, cc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                    if 0 <= rr < h and 0 <= cc < w and (rr, cc) not in seen and rows[rr][cc] == rows[r0][c0]:
                        seen.add((rr, cc))
                        todo.append((rr, cc))
            regions.append(sorted(cells))
    return regions


@st.composite
def boards(draw: st.DrawFn, max_side: int = 8, max_colours: int = 6) -> Board:
    h = draw(st.integers(1, max_side))
    w = draw(st.integers(1, max_side))
    k = draw(st.integers(1, max_colours))
    cells = draw(st.lists(st.integers(0, k - 1), min_size=h * w, max_size=h * w))
    start = (draw(st.integers(0, h - 1)), draw(st.integers(0, w - 1)))
    return Board(np.array(cells, dtype=np.int64).reshape(h, w), start)


# -- boards worked out by hand ---------------------------------------------------------


def test_hand_board_regions() -> None:
    g = RegionGraph.from_board(Board.from_rows(HAND_ROWS))
    assert g.n_regions == 8
    assert g.n_colours == 3
    assert g.labels.tolist() == LABELS
    assert g.region_colour.tolist() == COLOURS
    assert g.region_size.tolist() == SIZES
    assert neighbour_lists(g) == NEIGHBOURS
    assert g.start_region == 0
    assert from_bits(g.initial_state()) == [0]


def test_hand_board_colour_masks() -> None:
    g = RegionGraph.from_board(Board.from_rows(HAND_ROWS))
    assert g.colour_mask.shape[0] == 3
    for c in range(3):
        assert from_bits(g.colour_mask[c]) == [r for r, col in enumerate(COLOURS) if col == c]


def test_colours_are_codes_of_the_palette() -> None:
    # ids -7 < 0 < 2**40 get codes 0, 1, 2 whatever the order they appear in
    big = 2**40
    g = RegionGraph.from_board(Board.from_rows([[big, -7], [0, big]]))
    assert g.n_regions == 4  # the two big cells touch only diagonally
    assert g.region_colour.tolist() == [2, 0, 1, 2]
    assert neighbour_lists(g) == [[1, 2], [0, 3], [0, 3], [1, 2]]


def test_off_corner_starts() -> None:
    board = Board.from_rows(HAND_ROWS)
    for r in range(4):
        for c in range(4):
            g = RegionGraph.from_board(board.with_start((r, c)))
            assert g.start_region == LABELS[r][c]
            assert from_bits(g.initial_state()) == [LABELS[r][c]]
            # the graph itself does not depend on the start
            assert g.labels.tolist() == LABELS
            assert neighbour_lists(g) == NEIGHBOURS


def test_one_cell_board() -> None:
    g = RegionGraph.from_board(Board.from_rows([[42]]))
    assert (g.n_regions, g.n_colours, g.start_region) == (1, 1, 0)
    assert g.region_size.tolist() == [1]
    assert g.adj_ptr.tolist() == [0, 0]
    assert g.adj_idx.size == 0
    assert g.neighbours(0).tolist() == []
    front = np.zeros_like(g.initial_state())
    frontier(g.initial_state(), g.adj_ptr, g.adj_idx, front)
    assert not front.any()


def test_one_colour_board_is_one_region() -> None:
    g = RegionGraph.from_board(Board.from_rows([[5] * 7] * 3, start=(2, 6)))
    assert (g.n_regions, g.start_region) == (1, 0)
    assert g.region_size.tolist() == [21]
    assert g.adj_idx.size == 0


def test_strip_of_300() -> None:
    rng = np.random.default_rng(7)
    colours = rng.integers(0, 4, size=300)
    runs = 1 + int(np.count_nonzero(colours[1:] != colours[:-1]))
    for cells, start in ((colours.reshape(300, 1), (150, 0)), (colours.reshape(1, 300), (0, 299))):
        g = RegionGraph.from_board(Board(cells, start))
        assert g.n_regions == runs
        assert g.region_size.sum() == 300
        # a path: each run touches the runs before and after it
        expected = [[i for i in (k - 1, k + 1) if 0 <= i < runs] for k in range(runs)]
        assert neighbour_lists(g) == expected
        assert g.start_region == int(g.labels.ravel()[150 if cells.shape[0] == 300 else 299])
        assert g.n_words >= (runs + 63) // 64


def test_300x300_board_builds() -> None:
    """(How fast: benchmarks/promises.py; a wall time here would break on a loaded CI machine.)"""
    board = random_board(300, 300, 6, seed=3)
    g = RegionGraph.from_board(board)
    assert g.region_size.sum() == 90_000
    assert g.n_regions == len(naive_regions(board.cells.tolist()))
    # neighbouring cells share a label exactly when they share a colour
    codes, labels = board.codes, g.labels
    assert np.array_equal(labels[:, 1:] == labels[:, :-1], codes[:, 1:] == codes[:, :-1])
    assert np.array_equal(labels[1:, :] == labels[:-1, :], codes[1:, :] == codes[:-1, :])
    assert np.array_equal(g.region_colour[labels], codes)
    degrees = np.diff(g.adj_ptr)
    assert degrees.sum() == g.adj_idx.size and (degrees > 0).all()


# -- random boards against naive labelling --------------------------------------------


@STABLE
@given(boards())
def test_regions_match_naive_labelling(board: Board) -> None:
    rows = board.codes.tolist()
    g = RegionGraph.from_board(board)
    regions = naive_regions(rows)
    assert g.n_regions == len(regions) == count_regions(board)
    assert g.n_colours == board.n_colours
    for k, cells in enumerate(regions):
        assert sorted(cells_of(g, [k])) == cells
        assert g.region_colour[k] == rows[cells[0][0]][cells[0][1]]
        assert g.region_size[k] == len(cells)
    assert g.start_region == g.labels[board.start]
    # colour masks partition the regions by colour
    for c in range(g.n_colours):
        assert from_bits(g.colour_mask[c]) == [r for r in range(g.n_regions) if g.region_colour[r] == c]


@STABLE
@given(boards())
def test_adjacency_matches_cells(board: Board) -> None:
    g = RegionGraph.from_board(board)
    h, w = board.height, board.width
    expected: list[set[int]] = [set() for _ in range(g.n_regions)]
    for r in range(h):
        for c in range(w):
            for rr, cc in ((r + 1, c), (r, c + 1)):
                if rr < h and cc < w:
                    a, b = int(g.labels[r, c]), int(g.labels[rr, cc])
                    if a != b:
                        expected[a].add(b)
                        expected[b].add(a)
    lists = neighbour_lists(g)
    assert lists == [sorted(s) for s in expected]
    for r, nbs in enumerate(lists):
        assert r not in nbs  # no self-loops
        assert len(g.neighbours(r)) == len(nbs) == len(set(nbs))  # no duplicates
        for nb in nbs:
            assert r in lists[nb]  # symmetric
            assert g.region_colour[nb] != g.region_colour[r]  # same colours never touch
    bits = adjacency_bits(g)
    assert [from_bits(bits[r]) for r in range(g.n_regions)] == lists
    # a colour's row: every neighbour of any region of that colour
    rows = colour_rows(g.colour_mask, bits)
    for c in range(g.n_colours):
        touching = {nb for r in range(g.n_regions) if g.region_colour[r] == c for nb in lists[r]}
        assert from_bits(rows[c]) == sorted(touching)
    pg = padded(g)
    assert pg.colour_adj.shape == pg.arrays.colour_mask.shape
    assert [from_bits(row) for row in pg.colour_adj] == [from_bits(row) for row in rows]
    # the padded sets are the graph's own, widened with zero words to the search width
    words = padded_width(g.n_words)
    for own, wide in ((g.colour_mask, pg.arrays.colour_mask), (bits, pg.adj_bits), (rows, pg.colour_adj)):
        assert wide.shape == (own.shape[0], words) and wide.dtype == np.uint64
        assert np.array_equal(wide[:, : own.shape[1]], own) and not wide[:, own.shape[1] :].any()
    assert pg.root.shape == pg.root_front.shape == (words,)
    assert from_bits(pg.root) == [g.start_region]
    assert from_bits(pg.root_front) == lists[g.start_region]
    # made once per graph and shared (lookahead and A* use it): no one writes to it
    assert padded(g) is pg
    root, root_front = pg.root.copy(), pg.root_front.copy()
    lookahead_moves(g)
    assert np.array_equal(pg.root, root) and np.array_equal(pg.root_front, root_front)


def test_padded_sets_at_every_width() -> None:
    """The padded sets of graphs of one word to past the compiled tiers, against the
    graph's own sets widened with zeros."""
    for side, seed in ((5, 1), (12, 2), (20, 3), (28, 4), (45, 5)):
        g = RegionGraph.from_board(random_board(side, side, 6, seed))
        pg = padded(g)
        words = padded_width(g.n_words)
        bits = adjacency_bits(g)
        for own, wide in ((g.colour_mask, pg.arrays.colour_mask), (bits, pg.adj_bits),
                          (colour_rows(g.colour_mask, bits), pg.colour_adj)):
            assert wide.shape == (own.shape[0], words)
            assert np.array_equal(wide[:, : own.shape[1]], own) and not wide[:, own.shape[1] :].any()
        front = np.zeros_like(g.initial_state())
        frontier(g.initial_state(), g.adj_ptr, g.adj_idx, front)
        assert np.array_equal(pg.root[: g.n_words], g.initial_state()) and not pg.root[g.n_words :].any()
        assert np.array_equal(pg.root_front[: g.n_words], front) and not pg.root_front[g.n_words :].any()
