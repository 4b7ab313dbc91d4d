"""Random boards: shape, colours, and the same board for the same seed."""

from __future__ import annotations

import numpy as np
import pytest

from colorit import ColoritError
from colorit.game.generate import parse_board_size, random_board


def test_shape_and_colour_range() -> None:
    board = random_board(20, 12, 5, seed=1)
    assert (board.height, board.width) == (12, 20)
    assert board.cells.min() >= 0 and board.cells.max() <= 4
    assert board.n_colours == 5  # 240 cells: every colour shows up
    assert board.start == (0, 0)


def test_same_seed_same_board_other_seed_other_board() -> None:
    a = random_board(14, 14, 6, seed=42)
    b = random_board(14, 14, 6, seed=42)
    c = random_board(14, 14, 6, seed=43)
    assert np.array_equal(a.cells, b.cells)
    assert not np.array_equal(a.cells, c.cells)


def test_seed_is_pinned_to_numpy_default_rng() -> None:
    # the documented recipe: default_rng(seed).integers(0, colours, (height, width))
    expected = np.random.default_rng(7).integers(0, 3, size=(2, 5), dtype=np.int64)
    assert random_board(5, 2, 3, seed=7).cells.tolist() == expected.tolist()


def test_one_colour_board_is_solved() -> None:
    assert random_board(3, 3, 1, seed=0).is_solved()


def test_start_cell() -> None:
    assert random_board(5, 5, 3, seed=0, start=(2, 2)).start == (2, 2)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((0, 5, 3, 1), "width must be at least 1"),
        ((5, 0, 3, 1), "height must be at least 1"),
        ((5, 5, 0, 1), "colours must be at least 1"),
        ((5, 5, 3, -1), "seed must be at least 0"),
        ((100_000, 100_000, 3, 1), "more than"),
    ],
)
def test_bad_arguments(args: tuple[int, int, int, int], message: str) -> None:
    with pytest.raises(ColoritError, match=message):
        random_board(*args)


@pytest.mark.parametrize(
    ("spec", "expected"), [("14x14", (14, 14)), ("20x12", (20, 12)), ("7", (7, 7)), (" 3 X 4 ", (3, 4))]
)
def test_parse_size(spec: str, expected: tuple[int, int]) -> None:
    assert parse_board_size(spec) == expected


@pytest.mark.parametrize("spec", ["", "x", "3x", "3x4x5", "-3x4", "0x4", "3.5x4"])
def test_parse_size_rejects(spec: str) -> None:
    with pytest.raises(ColoritError):
        parse_board_size(spec)
