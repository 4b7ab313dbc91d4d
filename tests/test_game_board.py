"""The board model: construction, colour codes, start cells and the cell-by-cell replay
that checks every answer, against examples worked out by hand and against flooding the
cells one by one (``naive``)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from colorit import Board, BoardFormatError, SolutionError
from colorit.game.board import INT64_MAX, INT64_MIN, fits_int64, parse_start

import naive
from boardgen import STABLE, boards
from conftest import HAND_ROWS

# Worked by hand from the top-left cell (colour 1):
#   0 absorbs (1,0);  2 absorbs (0,1), (2,0), (2,1);
#   0 absorbs the 0s: (0,2), (0,3), (1,3), (2,2), (3,0), (3,1), (3,2);  1 absorbs the rest.
SOLUTION = [0, 2, 0, 1]


def test_shape_palette_and_codes() -> None:
    board = Board.from_rows([[10, -3], [7, 10]])
    assert (board.height, board.width, board.n_colours) == (2, 2, 3)
    assert board.palette.tolist() == [-3, 7, 10]
    assert board.codes.tolist() == [[2, 0], [1, 2]]
    assert board.code_of(7) == 1
    assert board.ids_of([2, 0, 1]) == [10, -3, 7]


def test_board_owns_an_immutable_copy() -> None:
    cells = np.array(HAND_ROWS)
    board = Board(cells)
    cells[0, 0] = 99
    assert board.cells[0, 0] == 1
    with pytest.raises(ValueError):
        board.cells[0, 0] = 5


def test_replay_by_hand(hand_board: Board) -> None:
    board = hand_board
    assert board.replay([0]).tolist() == [[0, 2, 0, 0], [0, 1, 1, 0], [2, 2, 0, 1], [0, 0, 0, 1]]
    assert board.replay([0, 2]).tolist() == [[2, 2, 0, 0], [2, 1, 1, 0], [2, 2, 0, 1], [0, 0, 0, 1]]
    assert board.replay([0, 2, 0]).tolist() == [[0, 0, 0, 0], [0, 1, 1, 0], [0, 0, 0, 1], [0, 0, 0, 1]]
    assert board.replay(SOLUTION).tolist() == [[1] * 4] * 4


def test_replay_leaves_the_board_alone(hand_board: Board) -> None:
    board = hand_board
    board.replay(SOLUTION)
    assert board.cells.tolist() == HAND_ROWS


def test_check_accepts_the_hand_solution(hand_board: Board) -> None:
    hand_board.check(SOLUTION)


def test_check_accepts_a_wasted_move(hand_board: Board) -> None:
    # replaying the flood's own colour, or a colour not on its border, absorbs nothing
    hand_board.check([1, 0, 2, 0, 1])


def test_check_rejects_an_unfinished_answer(hand_board: Board) -> None:
    with pytest.raises(SolutionError, match="^after 3 moves the board still has 2 colours$"):
        hand_board.check([0, 2, 0])


def test_check_rejects_a_colour_not_on_the_board(hand_board: Board) -> None:
    with pytest.raises(SolutionError, match="^move 2: colour 9 does not occur on the board$"):
        hand_board.check([0, 9, 0, 1])


def test_check_rejects_a_move_that_is_not_an_id(hand_board: Board) -> None:
    with pytest.raises(SolutionError, match="move 1 is not a colour id"):
        hand_board.check(["0"])  # type: ignore[list-item]


def test_one_colour_board_needs_no_moves(hand_board: Board) -> None:
    board = Board.from_rows([[4, 4], [4, 4]])
    assert board.is_solved()
    board.check([])
    assert not hand_board.is_solved()
    with pytest.raises(SolutionError):
        hand_board.check([])


def test_replay_from_the_centre() -> None:
    # from (1,1) (colour 5): 3 absorbs the cross, then 4 takes the corners
    board = Board.from_rows([[4, 3, 4], [3, 5, 3], [4, 3, 4]], start=(1, 1))
    assert board.replay([3]).tolist() == [[4, 3, 4], [3, 3, 3], [4, 3, 4]]
    board.check([3, 4])
    with pytest.raises(SolutionError):
        board.with_start((0, 0)).check([3, 4])  # from a corner 3, 4 leaves 5 behind


def test_with_start_keeps_the_cells(hand_board: Board) -> None:
    board = hand_board.with_start((2, 3))
    assert board.start == (2, 3)
    assert board.cells.tolist() == HAND_ROWS


def test_repr_pastes_back_and_str_is_csv() -> None:
    board = Board.from_rows([[1, -2], [3, 4]], start=(1, 0))
    again = eval(repr(board), {"Board": Board})  # noqa: S307
    assert again.cells.tolist() == board.cells.tolist() and again.start == (1, 0)
    assert str(board) == "1,-2\n3,4"


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ([], "a board needs at least one row"),
        ([[1, 2], [3]], "row 2 has 1 value, expected 2"),
        ([[]], "row 1 is empty: a board needs at least one column"),
    ],
)
def test_bad_rows(rows: list[list[int]], message: str) -> None:
    with pytest.raises(BoardFormatError, match=message):
        Board.from_rows(rows)


def test_start_outside_the_board() -> None:
    with pytest.raises(BoardFormatError, match=r"start cell 2,0 is outside the 2x2 board"):
        Board.from_rows([[1, 2], [3, 4]], start=(2, 0))
    with pytest.raises(BoardFormatError):
        Board.from_rows([[1, 2], [3, 4]], start=(0, -1))


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("top-left", (0, 0)),
        ("", (0, 0)),
        ("corner", (0, 0)),
        ("center", (2, 3)),
        ("Centre", (2, 3)),
        (" middle ", (2, 3)),
        ("4,6", (4, 6)),
        (" 1 , 2 ", (1, 2)),
    ],
)
def test_parse_start(spec: str, expected: tuple[int, int]) -> None:
    assert parse_start(spec, 5, 7) == expected


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("5,0", "outside the 5x7 board"),
        ("0,7", "outside the 5x7 board"),
        ("-1,0", "outside the 5x7 board"),
        ("1", "is not ROW,COL"),
        ("a,b", "whole numbers"),
        ("bottom", "is not ROW,COL"),
    ],
)
def test_parse_start_rejects(spec: str, message: str) -> None:
    with pytest.raises(BoardFormatError, match=message):
        parse_start(spec, 5, 7)


@pytest.mark.parametrize(
    "cells",
    [
        np.random.default_rng(1).integers(-3, 9, size=(30, 40)),  # few ids, counted
        np.random.default_rng(2).permutation(2500).reshape(50, 50) * 7 - 900,  # all distinct, counted
        np.array([[-(2**63), 2**63 - 1], [0, 5]]),  # a span past the cell count: sorted
        np.random.default_rng(3).integers(-(2**62), 2**62, size=(20, 20)),
    ],
    ids=["few", "distinct", "extremes", "wide"],
)
def test_palette_and_codes_are_numpys_unique(cells: np.ndarray) -> None:
    """Counting (ids spanning a range no wider than the board) and sorting give the same
    palette and codes."""
    board = Board(cells)
    palette, codes = np.unique(cells, return_inverse=True)
    assert board.palette.tolist() == palette.tolist()
    assert board.codes.tolist() == codes.reshape(cells.shape).tolist()
    assert board.codes.dtype == np.int32


@STABLE
@given(st.integers(1, 6), st.integers(1, 5), st.integers(1, 5), st.integers(0, 40), st.integers(0, 2**32 - 1))
def test_palettes_and_codes_of_many_grids_are_each_grids_own(n: int, h: int, w: int, top: int, seed: int) -> None:
    """The whole-array palettes and codes of a stack of grids (the set readers') equal
    each grid's own, dtypes included, whatever ids each grid lacks."""
    from colorit.game.board import _palette_and_codes, palettes_and_codes

    grids = np.random.default_rng(seed).integers(0, top + 1, size=(n, h, w))
    palettes, codes = palettes_and_codes(grids)
    assert len(palettes) == n and codes.shape == grids.shape and codes.dtype == np.int32
    for grid, palette, code in zip(grids, palettes, codes):
        own_palette, own_codes = _palette_and_codes(grid)
        assert palette.tolist() == own_palette.tolist() and palette.dtype == own_palette.dtype
        assert code.tolist() == own_codes.tolist()


@STABLE
@given(boards(), st.lists(st.integers(-1, 10), max_size=12))
def test_checking_codes_agrees_with_flooding_the_cells(board: Board, codes: list[int]) -> None:
    """``check_codes`` (one kernel: the codes' range, the replay, the colours left) against
    the codes checked here and the board flooded cell by cell (``naive.play_all``)."""
    bad = next((i for i, k in enumerate(codes) if not 0 <= k < board.n_colours), None)
    if bad is not None:
        with pytest.raises(SolutionError, match=f"^move {bad + 1}: colour code {codes[bad]} is not one of the board's "):
            board.check_codes(np.array(codes, dtype=np.int32))
        return
    grid = naive.play_all(board.codes.tolist(), codes, board.start)
    left = len({k for row in grid for k in row})
    if left == 1:
        board.check_codes(np.array(codes, dtype=np.int32))
    else:
        with pytest.raises(SolutionError, match=f"^after {len(codes)} moves the board still has {left} colours$"):
            board.check_codes(np.array(codes, dtype=np.int32))


def test_fits_int64_is_the_colour_id_range() -> None:
    """One range for every reader of colour ids (boards, answers, files): the signed
    64-bit integers, both ends included."""
    assert (INT64_MIN, INT64_MAX) == (-(2**63), 2**63 - 1)
    assert fits_int64(INT64_MIN) and fits_int64(INT64_MAX) and fits_int64(0)
    assert not fits_int64(INT64_MAX + 1) and not fits_int64(INT64_MIN - 1)
    board = Board.from_rows([[INT64_MIN, INT64_MAX]])
    board.check([INT64_MAX])
    with pytest.raises(SolutionError, match="move 1: colour 9223372036854775808 does not occur"):
        board.codes_of([INT64_MAX + 1])
    with pytest.raises(BoardFormatError, match="beyond the signed 64-bit range"):
        Board.from_rows([[INT64_MIN - 1]])
