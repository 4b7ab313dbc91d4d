"""Board and answer files: every accepted variant, every rejected one with its one-line
message, and the atomic writer."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from colorit import Board, BoardFormatError, OutputError
from colorit.game.board import INT64_MAX, INT64_MIN
from colorit.io import csvfile as csvio
from colorit.io.csvfile import (
    moves_text,
    parse_board_cells,
    parse_board_lines,
    read_board_csv,
    read_moves_csv,
    write_board_csv,
    write_moves_csv,
)

from conftest import HAND_ROWS


def write(tmp_path: Path, data: bytes | str, name: str = "board.csv") -> Path:
    path = tmp_path / name
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    return path


# ----------------------------------------------------------------- accepted boards


@pytest.mark.parametrize(
    "text",
    [
        "1,2,0,0\n0,1,1,0\n2,2,0,1\n0,0,0,1\n",
        "1,2,0,0\n0,1,1,0\n2,2,0,1\n0,0,0,1",  # no final newline
        "1,2,0,0\r\n0,1,1,0\r\n2,2,0,1\r\n0,0,0,1\r\n",  # CRLF
        "1,2,0,0\r0,1,1,0\r2,2,0,1\r0,0,0,1\r",  # old Mac CR
        "\ufeff1,2,0,0\n0,1,1,0\n2,2,0,1\n0,0,0,1\n",  # UTF-8 BOM
        " 1 , 2,0 ,0\n0,\t1,1,0\n2,2,0,1  \n0,0,0,1\n",  # spaces and tabs around values
        "1,2,0,0\n0,1,1,0\n2,2,0,1\n0,0,0,1\n\n\n  \n",  # trailing blank lines
        "+1,2,0,0\n0,+1,1,0\n2,2,0,1\n0,0,0,1\n",  # explicit plus sign
    ],
    ids=["lf", "no-final-newline", "crlf", "cr", "bom", "spaces", "trailing-blank", "plus"],
)
def test_accepted_variants_give_the_same_board(tmp_path: Path, text: str) -> None:
    board = read_board_csv(write(tmp_path, text))
    assert board.cells.tolist() == HAND_ROWS
    assert board.start == (0, 0)


def test_negative_and_64_bit_extreme_ids(tmp_path: Path) -> None:
    text = f"-5,{INT64_MAX}\n{INT64_MIN},-5\n"
    board = read_board_csv(write(tmp_path, text))
    assert board.cells.tolist() == [[-5, INT64_MAX], [INT64_MIN, -5]]
    assert board.n_colours == 3


def test_single_cell_board(tmp_path: Path) -> None:
    board = read_board_csv(write(tmp_path, "7\n"))
    assert board.cells.tolist() == [[7]]
    assert board.is_solved()


def test_rectangular_board_and_start_specs(tmp_path: Path) -> None:
    path = write(tmp_path, "1,2,3\n4,5,6\n")
    assert read_board_csv(path).cells.shape == (2, 3)
    assert read_board_csv(path, start="center").start == (1, 1)
    assert read_board_csv(path, start="1,2").start == (1, 2)
    assert read_board_csv(path, start=(0, 2)).start == (0, 2)


def test_path_may_be_a_string(tmp_path: Path) -> None:
    path = write(tmp_path, "1,2\n2,1\n")
    assert read_board_csv(str(path)).cells.tolist() == [[1, 2], [2, 1]]


# ----------------------------------------------------------------- rejected boards


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("", "board.csv: file is empty, expected rows of comma-separated integers"),
        ("\n\n  \n", "board.csv: file is empty, expected rows of comma-separated integers"),
        ("1,2\n3,x\n", "board.csv:2:2: 'x' is not an integer"),
        ("1,2\n3,4,5\n", "board.csv:2: row has 3 values, expected 2"),
        ("1,2,3,4\n1,2,3,4\n1,2,3,4\n1,2,3,4,5\n", "board.csv:4: row has 5 values, expected 4"),
        ("1,2\n3\n", "board.csv:2: row has 1 value, expected 2"),
        ("1,2\n\n3,4\n", "board.csv:2: blank line inside the board"),
        ("\n1,2\n3,4\n", "board.csv:1: blank line before the board"),
        ("1,2\n3,1.5\n", "board.csv:2:2: '1.5' is not an integer"),
        ("1,2\n3,\n", "board.csv:2:2: empty value"),
        ("1;2\n3;4\n", "board.csv:1:1: '1;2' is not an integer"),
        ("1,1_000\n", "board.csv:1:2: '1_000' is not an integer"),
        ("1,\u0661\n", "board.csv:1:2: '\u0661' is not an integer"),  # non-ASCII digit
        ("1,2\n3,99999999999999999999\n", "board.csv:2:2: 99999999999999999999 is beyond the signed 64-bit range"),
        (f"1,{INT64_MAX + 1}\n", f"board.csv:1:2: {INT64_MAX + 1} is beyond the signed 64-bit range"),
        (f"{INT64_MIN - 1},1\n", f"board.csv:1:1: {INT64_MIN - 1} is beyond the signed 64-bit range"),
        (b"1,2\n3,\xff\n", "board.csv:2: not utf-8 text (byte 0xff)"),
    ],
)
def test_rejected_boards_name_file_line_and_column(tmp_path: Path, data: str | bytes, message: str) -> None:
    path = write(tmp_path, data)
    with pytest.raises(BoardFormatError) as info:
        read_board_csv(path)
    assert str(info.value) == message.replace("board.csv", str(path))
    assert "\n" not in str(info.value)
    assert isinstance(info.value, ValueError)


def test_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "nope.csv"
    with pytest.raises(BoardFormatError, match=r"nope\.csv: no such board file$"):
        read_board_csv(path)


def test_directory_instead_of_file(tmp_path: Path) -> None:
    with pytest.raises(BoardFormatError, match=r"is a directory, not a board file$"):
        read_board_csv(tmp_path)


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads every file")
def test_unreadable_file(tmp_path: Path) -> None:
    path = write(tmp_path, "1,2\n")
    path.chmod(0)
    with pytest.raises(BoardFormatError, match="permission denied"):
        read_board_csv(path)


def test_start_outside_the_board(tmp_path: Path) -> None:
    with pytest.raises(BoardFormatError, match="outside the 2x2 board"):
        read_board_csv(write(tmp_path, "1,2\n3,4\n"), start="2,0")


# ----------------------------------------------------------------- answers


def test_moves_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "out.csv"
    write_moves_csv(path, [3, -1, 0, INT64_MAX])
    assert path.read_text() == f"3\n-1\n0\n{INT64_MAX}\n"
    assert read_moves_csv(path) == [3, -1, 0, INT64_MAX]


def test_no_moves_is_an_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "out.csv"
    write_moves_csv(path, [])
    assert path.read_bytes() == b""
    assert read_moves_csv(path) == []


def test_moves_tolerate_crlf_bom_spaces_and_trailing_blanks(tmp_path: Path) -> None:
    path = write(tmp_path, "\ufeff 1 \r\n2\r\n\r\n", "out.csv")
    assert read_moves_csv(path) == [1, 2]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1\nx\n", "out.csv:2: 'x' is not a colour id (an integer)"),
        ("1\n\n2\n", "out.csv:2: blank line inside the answer"),
        ("1,2\n", "out.csv:1: expected one colour id per line, got '1,2'"),
        ("1\n2.0\n", "out.csv:2: '2.0' is not a colour id (an integer)"),
        (f"{INT64_MAX + 1}\n", f"out.csv:1: {INT64_MAX + 1} is beyond the signed 64-bit range"),
    ],
)
def test_rejected_answers(tmp_path: Path, text: str, message: str) -> None:
    path = write(tmp_path, text, "out.csv")
    with pytest.raises(BoardFormatError) as info:
        read_moves_csv(path)
    assert str(info.value) == message.replace("out.csv", str(path))


def test_missing_answer_file(tmp_path: Path) -> None:
    with pytest.raises(BoardFormatError, match="no such answer file"):
        read_moves_csv(tmp_path / "nope.csv")


# ----------------------------------------------------------------- writing


def test_write_replaces_an_existing_file_and_leaves_no_temporary(tmp_path: Path) -> None:
    path = write(tmp_path, "old content\n", "out.csv")
    write_moves_csv(path, [1, 2])
    assert path.read_text() == "1\n2\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.csv"]


def test_write_keeps_the_mode_of_an_existing_file(tmp_path: Path) -> None:
    path = write(tmp_path, "old\n", "out.csv")
    path.chmod(0o640)
    write_moves_csv(path, [1])
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


def test_new_file_follows_the_umask(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        write_moves_csv(tmp_path / "out.csv", [1])
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "out.csv").stat().st_mode) == 0o644


def test_missing_output_folder_is_an_output_error(tmp_path: Path) -> None:
    with pytest.raises(OutputError, match="folder .*missing.* does not exist"):
        write_moves_csv(tmp_path / "missing" / "out.csv", [1])


def test_output_that_is_a_directory(tmp_path: Path) -> None:
    with pytest.raises(OutputError, match="is a directory"):
        write_moves_csv(tmp_path, [1])


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes everywhere")
def test_read_only_folder(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        with pytest.raises(OutputError, match="not writable"):
            write_moves_csv(folder / "out.csv", [1])
    finally:
        folder.chmod(0o700)


def test_failed_write_leaves_the_target_untouched(tmp_path: Path) -> None:
    path = write(tmp_path, "precious\n", "out.csv")

    def moves():  # type: ignore[no-untyped-def]
        yield 1
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        write_moves_csv(path, moves())
    assert path.read_text() == "precious\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.csv"]


# ----------------------------------------------------------------- round trips


int64 = st.integers(min_value=INT64_MIN, max_value=INT64_MAX)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(min_value=1, max_value=6).flatmap(
        lambda w: st.lists(st.lists(int64, min_size=w, max_size=w), min_size=1, max_size=6)
    ),
    st.sampled_from(["\n", "\r\n"]),
    st.booleans(),
)
def test_written_grids_parse_back_to_the_same_board(
    tmp_path_factory: pytest.TempPathFactory, rows: list[list[int]], eol: str, spaces: bool
) -> None:
    sep = " , " if spaces else ","
    text = eol.join(sep.join(str(v) for v in row) for row in rows) + eol
    path = tmp_path_factory.mktemp("prop") / "board.csv"
    path.write_bytes(text.encode())
    assert read_board_csv(path).cells.tolist() == rows


def test_every_small_board_reads_back_as_written(tmp_path: Path, small_boards: list[Board]) -> None:
    for k, board in enumerate(small_boards):
        path = tmp_path / f"board{k}.csv"
        write_board_csv(path, board)
        again = read_board_csv(path, start=board.start)
        assert again.cells.tolist() == board.cells.tolist() and again.start == board.start


@settings(max_examples=30, deadline=None)
@given(st.lists(st.lists(st.integers(-3, 3), min_size=3, max_size=3), min_size=1, max_size=5))
def test_write_board_csv_round_trip(tmp_path_factory: pytest.TempPathFactory, rows: list[list[int]]) -> None:
    path = tmp_path_factory.mktemp("board") / "board.csv"
    board = Board(np.array(rows, dtype=np.int64))
    write_board_csv(path, board)
    assert np.array_equal(read_board_csv(path).cells, board.cells)


# ----------------------------------------------------------------- the quick ways


TOKENS = st.one_of(
    st.integers(-50, 50).map(str),
    int64.map(str),
    st.sampled_from(["+7", " 3", "4\t", "\t-2 ", "007", str(INT64_MAX), str(INT64_MIN), str(INT64_MAX + 1)]),
    st.sampled_from(["", "x", "1.5", "1 2", "--1", "+", "1_0", "\u0661"]),  # not values
)


@settings(max_examples=200, deadline=None, derandomize=True, database=None)
@given(st.integers(1, 4).flatmap(lambda w: st.lists(st.lists(TOKENS, min_size=w, max_size=w + 1), max_size=5)))
def test_the_quick_parse_reads_or_rejects_as_the_careful_one(rows: list[list[str]]) -> None:
    """``parse_board_cells`` (numpy reads every value at once) gives the careful parse's
    cells, or its exact error, on valid rows, ragged rows, bad values and values at or past
    the 64-bit edges (where numpy saturates)."""
    lines = [",".join(row) for row in rows]
    try:
        expected = np.array(parse_board_lines(lines, "b.csv"), dtype=np.int64)
    except BoardFormatError as careful:
        with pytest.raises(BoardFormatError) as quick:
            parse_board_cells(lines, "b.csv")
        assert str(quick.value) == str(careful)
        return
    cells = parse_board_cells(lines, "b.csv")
    assert cells.dtype == np.int64
    assert np.array_equal(cells, expected)


@settings(max_examples=100, deadline=None, derandomize=True, database=None)
@given(st.lists(st.one_of(int64, st.integers(-12, 12)), max_size=60))
def test_the_compiled_answer_text_is_what_str_writes(moves: list[int]) -> None:
    with pytest.MonkeyPatch.context() as m:
        m.setattr(csvio, "COMPILED_TEXT_MOVES", 0)
        compiled = moves_text(moves)
    assert compiled == "".join(f"{v}\n" for v in moves)
    assert moves_text(moves) == compiled  # the Python way below the threshold


def test_a_long_answer_is_written_by_the_compiled_loop(tmp_path: Path) -> None:
    moves = list(range(-5, csvio.COMPILED_TEXT_MOVES + 5))
    path = tmp_path / "out.csv"
    write_moves_csv(path, moves)
    assert read_moves_csv(path) == moves
