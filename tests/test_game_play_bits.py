"""The game on bitset rows (``colorit.game.play_bits``): the flooded set and frontier the
kernels keep, checked against flooding the cells with ``naive.flood`` and by hand; the
same moves made from adjacency rows (``play_rows``); the eliminating colour at either
width, the cells a move absorbs, and the start state."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from colorit import Board, RegionGraph
from colorit.game.bitset import count, from_bits, to_bits
from colorit.game.graph import padded
from colorit.game.play_bits import absorbed_cells, eliminating_colour, frontier, play, play_rows, start_state

import naive
from boardgen import STABLE, boards, cells_of, front_of
from conftest import HAND_ROWS

# The hand board (conftest.HAND_ROWS). Regions in reading order of their first cell:
#   R0 (0,0)=1   R1 (0,1)=2   R2 (0,2),(0,3),(1,3)=0   R3 (1,0)=0   R4 (1,1),(1,2)=1
#   R5 (2,0),(2,1)=2   R6 (2,2),(3,2),(3,1),(3,0)=0   R7 (2,3),(3,3)=1


def flood_of(grid: naive.Grid, start: tuple[int, int]) -> set[tuple[int, int]]:
    """The cells of the start cell's region of ``grid``: after naive flooding, the flood."""
    return set(next(cells for cells in naive.regions(grid) if start in cells))


@STABLE
@given(boards(max_colours=6), st.lists(st.integers(0, 5), max_size=12))
def test_play_matches_naive_flooding(board: Board, moves: list[int]) -> None:
    g = RegionGraph.from_board(board)
    moves = [m % g.n_colours for m in moves]
    grid: naive.Grid = tuple(tuple(row) for row in board.codes.tolist())
    flooded = g.initial_state()
    front = np.zeros_like(flooded)
    frontier(flooded, g.adj_ptr, g.adj_idx, front)
    for m in moves:
        before = from_bits(flooded)
        absorbed = play(flooded, front, g.colour_mask, m, g.adj_ptr, g.adj_idx)
        grid = naive.flood(grid, board.start, m)
        members = from_bits(flooded)
        assert absorbed == len(members) - len(before)
        assert set(before) <= set(members)
        assert count(flooded) == len(members)
        # the flooded regions cover exactly the cells naive flooding reaches
        assert cells_of(g, members) == flood_of(grid, board.start)
        # the frontier kept up to date by ``play`` is the one ``frontier`` computes
        fresh = np.zeros_like(flooded)
        frontier(flooded, g.adj_ptr, g.adj_idx, fresh)
        assert front.tolist() == fresh.tolist()
        # ... and it is the regions outside the flood that touch a flooded cell
        touching = {
            int(g.labels[rr, cc])
            for r, c in cells_of(g, members)
            for rr, cc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1))
            if 0 <= rr < board.height and 0 <= cc < board.width
        } - set(members)
        assert from_bits(front) == sorted(touching)
    # the whole board is flooded exactly when naive flooding has one colour left
    assert (count(flooded) == g.n_regions) == naive.solved(grid)


@STABLE
@given(boards(max_colours=6), st.lists(st.integers(0, 5), max_size=12))
def test_play_rows_matches_play(board: Board, moves: list[int]) -> None:
    """``play_rows`` on the padded graph's rows reaches the flood and frontier ``play``
    reaches on the adjacency lists, and leaves its inputs as they were."""
    g = RegionGraph.from_board(board)
    pg = padded(g)
    words = len(pg.root)
    flooded, front = pg.root.copy(), pg.root_front.copy()
    child, child_front = np.zeros(words, np.uint64), np.zeros(words, np.uint64)
    for m in (m % g.n_colours for m in moves):
        was = (flooded.copy(), front.copy())
        play_rows(flooded, front, pg.arrays.colour_mask, pg.adj_bits, m, child, child_front, pg.shape)
        assert np.array_equal(flooded, was[0]) and np.array_equal(front, was[1])
        play(flooded, front, pg.arrays.colour_mask, m, g.adj_ptr, g.adj_idx)
        assert child.tolist() == flooded.tolist() and child_front.tolist() == front.tolist()


def test_play_by_hand() -> None:
    # the hand answer 0, 2, 0, 1 of test_game_board.py, region by region
    g = RegionGraph.from_board(Board.from_rows(HAND_ROWS))
    flooded = to_bits([0], g.n_regions)
    front = np.zeros_like(flooded)
    frontier(flooded, g.adj_ptr, g.adj_idx, front)
    assert from_bits(front) == [1, 3]
    steps = [
        (0, [0, 3], [1, 4, 5]),
        (2, [0, 1, 3, 5], [2, 4, 6]),
        (0, [0, 1, 2, 3, 5, 6], [4, 7]),
        (1, list(range(8)), []),
    ]
    for move, want_flooded, want_front in steps:
        before = count(flooded)
        absorbed = play(flooded, front, g.colour_mask, move, g.adj_ptr, g.adj_idx)
        assert from_bits(flooded) == want_flooded
        assert from_bits(front) == want_front
        assert absorbed == len(want_flooded) - before
    # a move that touches nothing absorbs nothing and changes nothing
    flooded = to_bits([0], g.n_regions)
    frontier(flooded, g.adj_ptr, g.adj_idx, front)
    assert play(flooded, front, g.colour_mask, 1, g.adj_ptr, g.adj_idx) == 0
    assert from_bits(flooded) == [0] and from_bits(front) == [1, 3]


@STABLE
@given(boards(max_colours=6), st.lists(st.integers(0, 5), max_size=12))
def test_eliminating_colour_is_one_whose_regions_all_border_the_flood(board: Board, moves: list[int]) -> None:
    """After any moves, the eliminating colour (at the set's own width and at the padded
    graph's compiled width alike) is the first colour whose regions outside the flood
    all lie in the frontier, and there is none when no colour is like that."""
    g = RegionGraph.from_board(board)
    pg = padded(g)
    flooded, front = start_state(g)
    for m in (m % g.n_colours for m in moves):
        play(flooded, front, g.colour_mask, m, g.adj_ptr, g.adj_idx)
    left = [set(from_bits(g.colour_mask[c])) - set(from_bits(flooded)) for c in range(g.n_colours)]
    near = set(from_bits(front))
    expected = next((c for c, regions in enumerate(left) if regions and regions <= near), -1)
    assert eliminating_colour(flooded, front, g.colour_mask, flooded) == expected
    wide, wide_front = np.zeros_like(pg.root), np.zeros_like(pg.root)
    wide[: g.n_words], wide_front[: g.n_words] = flooded, front
    assert eliminating_colour(wide, wide_front, pg.arrays.colour_mask, pg.shape) == expected


def test_eliminating_colour_by_hand() -> None:
    """On the hand board from the corner (frontier R1, R3) no colour is eliminating: each
    has a region further out. After 0 and 2 the frontier is R2, R4, R6, which holds both
    0s left: 0 is eliminating, and the 1s are not (R7 is further out)."""
    g = RegionGraph.from_board(Board.from_rows(HAND_ROWS))
    flooded, front = start_state(g)
    assert eliminating_colour(flooded, front, g.colour_mask, flooded) == -1
    for move in (0, 2):
        play(flooded, front, g.colour_mask, move, g.adj_ptr, g.adj_idx)
    assert from_bits(front) == [2, 4, 6]
    assert eliminating_colour(flooded, front, g.colour_mask, flooded) == 0


@STABLE
@given(boards(max_colours=6), st.lists(st.integers(0, 5), max_size=8))
def test_absorbed_cells_counts_the_frontier_by_colour(board: Board, moves: list[int]) -> None:
    g = RegionGraph.from_board(board)
    flooded, front = start_state(g)
    for m in (m % g.n_colours for m in moves):
        play(flooded, front, g.colour_mask, m, g.adj_ptr, g.adj_idx)
    gain = np.full(g.n_colours, -1, dtype=np.int64)
    absorbed_cells(front, g.region_colour, g.region_size, gain)
    for c in range(g.n_colours):
        assert gain[c] == len(cells_of(g, [r for r in from_bits(front) if g.region_colour[r] == c]))


def test_start_state_is_the_start_region_and_its_neighbours() -> None:
    board = Board.from_rows(HAND_ROWS, start=(2, 2))  # region 6
    g = RegionGraph.from_board(board)
    flooded, front = start_state(g)
    assert from_bits(flooded) == [6] and from_bits(front) == [4, 5, 7]
    assert np.array_equal(flooded, g.initial_state())
    given_set = to_bits([0, 3], g.n_regions)
    flooded, front = start_state(g, given_set)
    assert np.array_equal(flooded, given_set) and from_bits(front) == [1, 4, 5]
    assert np.array_equal(front, front_of(g, given_set))
