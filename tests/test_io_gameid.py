"""Game IDs of Simon Tatham's Flood (``colorit/io/gameid.py``): round trips, one-line
errors naming the column, board files holding an ID for every command, and
``colorit generate --format tatham`` whose limit is the optimum plus the extra moves."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from colorit import Board
from colorit.errors import BoardFormatError, ColoritError
from colorit.game.generate import random_board
from colorit.io.csvfile import read_board_csv, read_board_file
from colorit.io.datasets import read_board_set
from colorit.io.gameid import DIGITS, format_game_id, parse_game_id

from cli_support import assert_one_line_error, in_process, run
from conftest import BAD_GAME_IDS, HAND_CSV
from naive import optimal_length

#: conftest.HAND_CSV (optimum 4 from the corner) as a game ID, with 2 extra moves.
GRID_ID = "4x4c3m2:1200011022010001,6"


@pytest.mark.parametrize(
    ("width", "height", "colours"),
    [(1, 1, 1), (2, 2, 3), (12, 12, 6), (5, 3, 4), (3, 7, 10), (20, 2, 12), (9, 11, 36), (30, 30, 8)],
)
def test_round_trip_on_boards_of_several_sizes(width: int, height: int, colours: int) -> None:
    board = random_board(width, height, colours, seed=width * 100 + height)
    text = format_game_id(board, limit=17, extra=3, colours=colours)
    assert text.startswith(f"{width}x{height}c{colours}m3:") and text.endswith(",17")
    game = parse_game_id(text)
    assert game.cells.tolist() == board.cells.tolist()
    assert (game.width, game.height, game.colours, game.extra, game.limit) == (width, height, colours, 3, 17)
    assert game.board().start == (0, 0)
    assert format_game_id(game.board(), game.limit, game.extra or 0, game.colours) == text


def test_letters_stand_for_ten_and_up() -> None:
    game = parse_game_id("3x2c36m0:09AZJ1,4")
    assert game.cells.tolist() == [[0, 9, 10], [35, 19, 1]]
    assert DIGITS.index("Z") == 35


def test_the_short_form_has_no_extra_moves_and_counts_colours_from_the_highest() -> None:
    game = parse_game_id("  3x2:021120,5\t")
    assert (game.colours, game.extra, game.limit) == (3, None, 5)
    assert game.cells.tolist() == [[0, 2, 1], [1, 2, 0]]
    assert game.describe_limit() == "limit 5"
    assert parse_game_id("3x2c4m2:021120,7").describe_limit() == "limit 7 (5 + 2 extra)"


@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 12),
    st.integers(1, 12),
    st.integers(1, 36),
    st.integers(0, 10**9),
    st.integers(0, 10**9),
    st.randoms(use_true_random=False),
)
def test_format_then_parse_gives_the_board_back(width: int, height: int, colours: int, limit: int, extra: int, rnd: object) -> None:
    cells = np.array([[rnd.randrange(colours) for _ in range(width)] for _ in range(height)], dtype=np.int64)  # type: ignore[attr-defined]
    board = Board(cells)
    text = format_game_id(board, limit, extra, colours)
    game = parse_game_id(text)
    assert game.cells.tolist() == cells.tolist()
    assert (game.colours, game.extra, game.limit) == (colours, extra, limit)
    assert format_game_id(game.board(), limit, extra, colours) == text


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.integers(-(2**63), 2**63 - 1), min_size=1, max_size=36, unique=True), st.integers(1, 8), st.randoms(use_true_random=False)
)
def test_other_ids_are_written_by_their_rank(ids: list[int], width: int, rnd: object) -> None:
    """Ids outside 0..35 become codes: colour number minus 1, the guide's one numbering."""
    height = 3
    cells = np.array([[rnd.choice(ids) for _ in range(width)] for _ in range(height)], dtype=np.int64)  # type: ignore[attr-defined]
    board = Board(cells)
    game = parse_game_id(format_game_id(board, 5))
    small = all(0 <= i < 36 for i in np.unique(cells).tolist())
    assert game.cells.tolist() == (cells if small else board.codes).tolist()
    assert Board(game.cells).codes.tolist() == board.codes.tolist()


def test_boards_of_more_than_36_colours_have_no_id() -> None:
    board = Board(np.arange(37, dtype=np.int64).reshape(1, 37))
    with pytest.raises(ColoritError, match="at most 36 colours"):
        format_game_id(board, 10)
    with pytest.raises(ColoritError, match="colours must be 3 to 36"):
        format_game_id(Board.from_rows([[0, 1, 2]]), 2, colours=2)
    with pytest.raises(ColoritError, match="limit must be"):
        format_game_id(Board.from_rows([[0, 1, 2]]), -1)




@pytest.mark.parametrize(("text", "column", "fragment"), BAD_GAME_IDS)
def test_a_bad_id_is_one_line_naming_its_column(text: str, column: int, fragment: str) -> None:
    with pytest.raises(BoardFormatError) as info:
        parse_game_id(text)
    message = str(info.value)
    assert message.startswith(f"game ID: column {column}: "), message
    assert fragment in message and "\n" not in message


def test_a_bad_id_in_a_file_names_file_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "board.txt"
    path.write_text("4x4c3m0:12000110220100X1,4\n")
    with pytest.raises(BoardFormatError, match=r"board\.txt:1:23: 'X' is colour 33, but the parameters give 3 colours"):
        read_board_csv(path)
    path.write_text(GRID_ID + "\n1,2\n")
    with pytest.raises(BoardFormatError, match=r"board\.txt:2: a game ID file holds one line"):
        read_board_csv(path)


def test_board_files_holding_an_id_read_as_the_board(tmp_path: Path) -> None:
    path = tmp_path / "board.txt"
    path.write_bytes(b"\xef\xbb\xbf" + GRID_ID.encode() + b"\r\n\r\n")
    csv_path = tmp_path / "g.csv"
    csv_path.write_text(HAND_CSV)
    board, game = read_board_file(path)
    assert game is not None and (game.limit, game.extra) == (6, 2)
    assert board.start == (0, 0)
    assert read_board_csv(path, start="center").start == (2, 2)
    csv_board, none = read_board_file(csv_path)
    assert none is None and csv_board.cells.tolist() == board.cells.tolist()
    assert read_board_set(path).boards[0].cells.tolist() == board.cells.tolist()


def test_solve_and_check_read_an_id_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "flood.txt"
    path.write_text(GRID_ID + "\n")
    answer = tmp_path / "answer.csv"
    code, out, err = in_process(capsys, "solve", path, answer, "--time-limit", "30")
    assert code == 0, err
    lines = [line for line in out.splitlines() if "game ID" in line]
    assert len(lines) == 1 and lines[0].endswith("game ID: limit 6 (4 + 2 extra), par 4"), out
    code, out, _ = in_process(capsys, "check", path, answer)
    assert (code, out) == (0, "valid: 4 moves\n")


def test_an_id_on_standard_input() -> None:
    assert optimal_length([[0, 1, 2], [2, 0, 1]]) == 4
    proc = run("solve", "-", "-", "--time-limit", "30", stdin="3x2:012201,5\n")
    assert proc.returncode == 0, proc.stderr
    assert "game ID: limit 5, par 4\n" in proc.stderr
    assert len(proc.stdout.split()) == 4
    bad = run("check", "-", __file__, stdin="3x2:0122,3\n")
    assert bad.returncode == 2
    assert_one_line_error(bad.stderr, "<stdin>:1:9: the description has 4 cells, a 3x2 board needs 6")


@pytest.mark.parametrize(("size", "colours", "seed", "extra"), [("4x3", 3, 1, 0), ("3x4", 4, 2, 5), ("5x2", 3, 3, 1), ("3x3", 5, 4, 0)])
def test_generate_tatham_limit_is_the_optimum_plus_the_extra(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], size: str, colours: int, seed: int, extra: int
) -> None:
    out = tmp_path / "id.txt"
    code, stdout, err = in_process(
        capsys, "generate", "--size", size, "--colours", colours, "--seed", seed, "--format", "tatham", "--extra", extra, "-o", out
    )
    assert code == 0 and err == ""
    text = out.read_text()
    assert text.endswith("\n") and text.count("\n") == 1
    game = parse_game_id(text.strip())
    width, height = map(int, size.split("x"))
    board = random_board(width, height, colours, seed=seed)
    assert game.cells.tolist() == board.cells.tolist()
    assert (game.colours, game.extra) == (int(board.cells.max()) + 1, extra)
    assert game.limit - extra == optimal_length(board.cells.tolist())
    assert f"optimum {game.limit - extra} moves (proven), limit {game.limit}" in stdout


def test_generate_tatham_to_standard_output_and_its_refusals(capsys: pytest.CaptureFixture[str]) -> None:
    code, stdout, stderr = in_process(capsys, "generate", "--size", "3x3", "--colours", "3", "--seed", "8", "--format", "tatham")
    assert code == 0
    assert stdout.startswith("3x3c3m0:") and stdout.count("\n") == 1
    assert stderr.startswith("colorit generate: seed 8; game ID optimum ") and stderr.count("\n") == 1
    code, _, stderr = in_process(capsys, "generate", "--size", "3x3", "--colours", "37", "--format", "tatham")
    assert code == 2
    assert_one_line_error(stderr, "--colours: a game ID names at most 36 colours")
    code, _, stderr = in_process(capsys, "generate", "--size", "3x3", "--colours", "3", "--extra", "2")
    assert code == 2
    assert_one_line_error(stderr, "--extra goes with --format tatham")
    code, _, stderr = in_process(capsys, "generate", "--size", "3x3", "--colours", "3", "--format", "sgf")
    assert code == 2
    assert_one_line_error(stderr, "--format")


def test_generate_tatham_says_when_the_optimum_is_not_proven(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A board too big to prove in the time given: the best answer found, and a warning."""
    out = tmp_path / "big.txt"
    args = ["generate", "--size", "60x60", "--colours", "9", "--seed", "5", "--format", "tatham", "--extra", "1"]
    code, stdout, stderr = in_process(capsys, *args, "--time-limit", "0.1", "-q", "-o", out)
    assert code == 0
    assert stderr.startswith("colorit: warning: the optimum was not proven within 0.1 s") and stderr.count("\n") == 1
    game = parse_game_id(out.read_text().strip())
    assert game.cells.tolist() == random_board(60, 60, 9, seed=5).cells.tolist()
    found = int(stderr.split("best answer found, ")[1].split(" ")[0])
    assert game.limit == found + 1 and game.extra == 1


def test_solve_marks_a_best_answer_that_is_not_proven(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "big.txt"
    path.write_text(format_game_id(random_board(60, 60, 9, seed=6), limit=99) + "\n")
    code, out, _ = in_process(capsys, "solve", path, tmp_path / "answer.csv", "--time-limit", "0.3")
    assert code == 0
    (line,) = [line for line in out.splitlines() if "game ID" in line]
    assert line.split("] ", 1)[1].startswith("game ID: limit 99, best found ")
    assert line.endswith(" (not proven optimal)")
