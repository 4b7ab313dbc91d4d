"""Reading benchmark sets: each format, start cells, bad input, the move alphabet."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from colorit import Board, BoardFormatError, ColoritError
from colorit.io.datasets import (
    ALPHABET,
    alphabet_fits,
    decode_moves,
    default_start,
    detect_format,
    encode_moves,
    known_lengths_path,
    lengths_are_proven,
    name_shape,
    read_board_set,
    read_boards,
    read_lengths,
    solutions_text,
)


def grid_text(grid: np.ndarray) -> str:
    return "".join(ALPHABET[v - 1] for v in grid.ravel())


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


# -- the formats -------------------------------------------------------------------------


def test_lines_format_reads_each_board_row_by_row(tmp_path: Path) -> None:
    rng = np.random.default_rng(1)
    grids = rng.integers(1, 5, size=(3, 3, 3))
    path = write(tmp_path / "b3c4n3.txt", "".join(grid_text(g) + "\n" for g in grids))
    bset = read_board_set(path)
    assert bset.format == "lines"
    assert len(bset) == 3
    for board, grid in zip(bset.boards, grids):
        assert board.start == (0, 0)
        assert np.array_equal(board.cells, grid)


def test_boards_read_together_equal_boards_made_one_by_one(tmp_path: Path) -> None:
    """A file's runs of boards get their palettes and codes at once: each board equals
    ``Board`` made from its cells alone (palette, codes, start), in either format and
    with sizes mixed, and its arrays are read-only."""
    rng = np.random.default_rng(5)
    small, big = rng.integers(1, 8, size=(4, 3, 3)), rng.integers(3, 12, size=(2, 4, 4))
    lines = write(tmp_path / "mixed_center.txt", "".join(grid_text(g) + "\n" for g in [*small, *big, *small[:1]]))
    blocks = write(tmp_path / "blocks.txt", "\n\n".join("\n".join(grid_text(g)[i : i + 4] for i in range(0, 16, 4)) for g in big))
    for path, grids in ((lines, [*small, *big, *small[:1]]), (blocks, list(big))):
        boards = read_boards(path)
        assert len(boards) == len(grids)
        for board, grid in zip(boards, grids):
            alone = Board(grid, board.start)
            assert board.cells.tolist() == grid.tolist() and board.cells.dtype == np.int64
            assert board.palette.tolist() == alone.palette.tolist() and board.codes.tolist() == alone.codes.tolist()
            assert board.codes.dtype == alone.codes.dtype == np.int32
            assert not (board.cells.flags.writeable or board.codes.flags.writeable or board.palette.flags.writeable)
    assert [b.start for b in read_boards(lines)] == [(1, 1)] * 4 + [(2, 2)] * 2 + [(1, 1)]


def test_lines_format_without_shape_in_name_and_with_crlf(tmp_path: Path) -> None:
    path = write(tmp_path / "boards.txt", "1234\r\n4321\r\n\r\n")
    boards = read_boards(path)
    assert [b.cells.tolist() for b in boards] == [[[1, 2], [3, 4]], [[4, 3], [2, 1]]]


def test_letters_are_colours_10_to_35(tmp_path: Path) -> None:
    path = write(tmp_path / "b2c35n1.txt", "9azz\n")
    (board,) = read_boards(path)
    assert board.cells.tolist() == [[9, 10], [35, 35]]


def test_blocks_format_with_centre_start_from_name(tmp_path: Path) -> None:
    text = "123\n456\n789\n\n111\n122\n123\n"
    path = write(tmp_path / "floodtest_b3c9n2_center.txt", text)
    bset = read_board_set(path)
    assert bset.format == "blocks"
    assert [b.cells.tolist() for b in bset.boards] == [[[1, 2, 3], [4, 5, 6], [7, 8, 9]], [[1, 1, 1], [1, 2, 2], [1, 2, 3]]]
    assert [b.start for b in bset.boards] == [(1, 1), (1, 1)]


def test_single_block_without_blank_lines(tmp_path: Path) -> None:
    path = write(tmp_path / "one.txt", "1212\n2121\n1212\n2121\n")
    assert detect_format(path) == "blocks"
    (board,) = read_boards(path)
    assert board.height == 4 and board.width == 4


def test_start_override(tmp_path: Path) -> None:
    text = "12345\n" * 5 + "\n" + "1234\n" * 4
    path = write(tmp_path / "mixed_center.txt", text)
    assert [b.start for b in read_boards(path)] == [(2, 2), (2, 2)]
    assert [b.start for b in read_boards(path, start="top-left")] == [(0, 0), (0, 0)]
    assert [b.start for b in read_boards(path, start="1,3")] == [(1, 3), (1, 3)]
    assert [b.start for b in read_boards(path, start=(3, 0))] == [(3, 0), (3, 0)]


def test_limit_takes_the_first_boards(tmp_path: Path) -> None:
    lines = path_lines = [f"{i % 9 + 1}{i % 9 + 1}11" for i in range(10)]
    path = write(tmp_path / "b2c9n10.txt", "\n".join(path_lines) + "\n")
    boards = read_boards(path, limit=3)
    assert [int(b.cells[0, 0]) for b in boards] == [int(line[0]) for line in lines[:3]]
    blocks = write(tmp_path / "blocks.txt", "12\n21\n\n11\n22\n\n21\n12\n")
    assert [b.cells.tolist() for b in read_boards(blocks, limit=2)] == [[[1, 2], [2, 1]], [[1, 1], [2, 2]]]
    assert read_boards(path, limit=0) == []


def test_csv_board(tmp_path: Path) -> None:
    path = write(tmp_path / "sample.csv", "1,2,0,0\n0,1,1,0\n2,2,0,1\n0,0,0,1\n")
    bset = read_board_set(path, start="center")
    assert bset.format == "csv"
    (board,) = bset.boards
    assert board.cells.tolist() == [[1, 2, 0, 0], [0, 1, 1, 0], [2, 2, 0, 1], [0, 0, 0, 1]]
    assert board.start == (2, 2)


def test_csv_detected_by_content(tmp_path: Path) -> None:
    path = write(tmp_path / "board.txt", "1,2\n3,4\n")
    assert detect_format(path) == "csv"
    assert read_boards(path)[0].cells.tolist() == [[1, 2], [3, 4]]


def test_lengths_files(tmp_path: Path) -> None:
    opt = write(tmp_path / "set.opt", "19\n23\n 22 \n")
    best = write(tmp_path / "set.best", "30\n")
    assert read_lengths(opt) == [19, 23, 22]
    assert lengths_are_proven(opt) and not lengths_are_proven(best)
    assert detect_format(opt) == "lengths"
    board_file = write(tmp_path / "set.txt", "1212\n")
    assert known_lengths_path(board_file) == opt
    opt.unlink()
    assert known_lengths_path(board_file) == best


def test_names() -> None:
    assert name_shape("pc19_b14c6n1000.txt") == (14, 6, 1000)
    assert name_shape("floodtest_b19c6n1000_center.txt") == (19, 6, 1000)
    assert name_shape("boards.txt") is None
    assert default_start("floodtest_b19c6n1000_center.txt") == "center"
    assert default_start("pc19_b14c6n1000.txt") == "top-left"


# -- bad input ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("b2c4n2.txt", "1234\n12#4\n", "b2c4n2.txt:2:3: '#' is not a colour"),
        ("b2c4n2.txt", "1234\n123\n", "b2c4n2.txt:2: line has 3 characters, expected 4"),
        ("b2c4n2.txt", "1234\n\n1234\n", "b2c4n2.txt:2: blank line, expected 4"),
        ("b2c4n2.txt", "12345\n", "b2c4n2.txt:1: line has 5 characters, expected 4"),
        ("b2c4n2.txt", "1234\n1254\n", "b2c4n2.txt:2:3: colour '5' is beyond the 4 colours"),
        ("boards.txt", "1230\n", "boards.txt:1:4: '0' is not a colour"),
        ("boards.txt", "1234\n123\n", "boards.txt:2: line has 3 characters, expected 4 or another square number"),
        ("b2c4n2.txt", "1234\n12\xe94\n", "b2c4n2.txt:2:3: byte 0xc3 is not a colour"),
        ("blocks.txt", "123\n456\n\n12\n345\n", "blocks.txt:5: row has 3 characters, expected 2"),
        ("x_b3c9n2_center.txt", "123\n456\n789\n\n12\n34\n", "x_b3c9n2_center.txt:5: board is 2x2, expected 3x3"),
        ("blocks.txt", "12\n2A\n\n12\n21\n", "blocks.txt:2:2: 'A' is not a colour"),
        ("empty.txt", "\n\n", "empty.txt: file is empty"),
        ("set.opt", "1212\n", "is a lengths file"),
    ],
)
def test_bad_board_files(tmp_path: Path, name: str, text: str, message: str) -> None:
    path = write(tmp_path / name, text)
    with pytest.raises(BoardFormatError) as info:
        read_boards(path)
    text_of_error = str(info.value)
    assert message in text_of_error
    assert "\n" not in text_of_error
    assert text_of_error.startswith(str(tmp_path))


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(BoardFormatError, match="no such file"):
        read_boards(tmp_path / "nope.txt")


@pytest.mark.parametrize(
    ("text", "message"), [("19\nx\n", ":2: 'x' is not a move count"), ("19\n\n20\n", ":2: blank line"), ("", "file is empty")]
)
def test_bad_lengths(tmp_path: Path, text: str, message: str) -> None:
    path = write(tmp_path / "set.opt", text)
    with pytest.raises(BoardFormatError, match=message):
        read_lengths(path)


# -- the alphabet ------------------------------------------------------------------------


def test_alphabet_round_trip() -> None:
    ids = list(range(1, 36))
    assert encode_moves(ids) == ALPHABET
    assert decode_moves(ALPHABET) == ids
    assert decode_moves(encode_moves([3, 10, 35, 1])) == [3, 10, 35, 1]
    assert encode_moves([]) == ""


def test_alphabet_rejects_ids_without_a_character() -> None:
    with pytest.raises(ColoritError, match="colour id 0 has no character"):
        encode_moves([1, 0])
    with pytest.raises(ColoritError, match="colour id 36"):
        encode_moves([36])
    with pytest.raises(BoardFormatError, match="'A' is not a colour"):
        decode_moves("1A")
    assert alphabet_fits([1, 35]) and not alphabet_fits([0, 1])


def test_solutions_text_falls_back_to_ids() -> None:
    assert solutions_text([[1, 10], [], [2]]) == "1a\n\n2\n"
    assert solutions_text([[0, 2], [1]]) == "0,2\n1\n"


def test_board_text_round_trip(tmp_path: Path) -> None:
    """A board read from the alphabet writes back to the same line."""
    line = "".join(ALPHABET[(i * 7) % 35] for i in range(36))
    path = write(tmp_path / "b6c35n1.txt", line + "\n")
    (board,) = read_boards(path)
    assert encode_moves(board.cells.ravel().tolist()) == line


# -- the real sets ----------------------------------------------------------------------


def test_real_line_set_first_boards(dataset_file: Callable[[str], Path]) -> None:
    path = dataset_file("pc19_b14c6n1000.txt")
    first_lines = path.read_text().splitlines()[:3]
    boards = read_boards(path, limit=3)
    assert len(boards) == 3
    for board, line in zip(boards, first_lines):
        assert board.height == board.width == 14
        assert board.start == (0, 0)
        assert encode_moves(board.cells.ravel().tolist()) == line
    assert len(read_lengths(dataset_file("pc19_b14c6n1000.opt"))) == 1000


def test_real_block_set_first_boards(dataset_file: Callable[[str], Path]) -> None:
    path = dataset_file("floodtest_b19c6n1000_center.txt")
    rows = path.read_text().splitlines()
    boards = read_boards(path, limit=2)
    assert [b.start for b in boards] == [(9, 9), (9, 9)]
    assert [encode_moves(r) for r in boards[0].cells.tolist()] == rows[:19]
    assert [encode_moves(r) for r in boards[1].cells.tolist()] == rows[20:39]


def test_real_set_reads(dataset_file: Callable[[str], Path]) -> None:
    """(How fast, under 0.5 s for 1000 boards: benchmarks/promises.py; a wall time here
    would break on a loaded CI machine.)"""
    path = dataset_file("pc19_b14c6n1000.txt")
    boards = read_boards(path)
    assert len(boards) == 1000 and all(isinstance(b, Board) for b in boards)
