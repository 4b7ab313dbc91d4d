"""``colorit check`` (``colorit/cli/check.py``): replays an answer cell by cell and says
``valid: N moves`` (0) or ``invalid: why`` (1); bad files are one-line errors (2); the
board or the answer may come from standard input, not both."""

from __future__ import annotations

import io
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from cli_support import assert_one_line_error, board_file, run


def test_check_valid_and_invalid_as_processes(tmp_path: Path, hand_csv: Path) -> None:
    board = hand_csv
    good = board_file(tmp_path, "0\n2\n0\n1\n", "good.csv")
    short = board_file(tmp_path, "0\n2\n0\n", "short.csv")
    proc = run("check", board, good)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "valid: 4 moves\n", "")
    proc = run("check", board, short)
    assert (proc.returncode, proc.stdout, proc.stderr) == (
        1,
        "invalid: after 3 moves the board still has 2 colours\n",
        "",
    )


@pytest.mark.parametrize(
    ("answer", "code", "expected"),
    [
        ("0\r\n2\r\n0\r\n1\r\n", 0, "valid: 4 moves"),
        ("1\n0\n2\n0\n1\n", 0, "valid: 5 moves"),
        ("0\n7\n", 1, "invalid: move 2: colour 7 does not occur on the board"),
        ("", 1, "invalid: after 0 moves the board still has 3 colours"),
    ],
)
def test_check_results(
    tmp_path: Path, hand_csv: Path, cli: Callable[..., tuple[int, str, str]], answer: str, code: int, expected: str
) -> None:
    board, ans = hand_csv, board_file(tmp_path, answer, "answer.csv")
    got, stdout, stderr = cli("check", board, ans)
    assert (got, stdout.strip(), stderr) == (code, expected, "")


def test_check_with_a_start_cell(tmp_path: Path, cli: Callable[..., tuple[int, str, str]]) -> None:
    board = board_file(tmp_path, "4,3,4\n3,5,3\n4,3,4\n")
    ans = board_file(tmp_path, "3\n4\n", "answer.csv")
    assert cli("check", board, ans, "--start", "center")[:2] == (0, "valid: 2 moves\n")
    assert cli("check", board, ans)[0] == 1


def test_check_bad_answer_file(tmp_path: Path, hand_csv: Path, cli: Callable[..., tuple[int, str, str]]) -> None:
    board, ans = hand_csv, board_file(tmp_path, "0\nblue\n", "answer.csv")
    code, stdout, stderr = cli("check", board, ans)
    assert code == 2 and stdout == ""
    assert_one_line_error(stderr, f"{ans}:2: 'blue' is not a colour id")


@pytest.mark.parametrize("which", ["answer", "board"])
def test_either_file_from_standard_input(
    tmp_path: Path, hand_csv: Path, cli: Callable[..., tuple[int, str, str]], monkeypatch: pytest.MonkeyPatch, which: str
) -> None:
    board, ans = hand_csv, board_file(tmp_path, "0\n2\n0\n1\n", "answer.csv")
    source = ans if which == "answer" else board
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(source.read_bytes())))
    args = (board, "-") if which == "answer" else ("-", ans)
    assert cli("check", *args) == (0, "valid: 4 moves\n", "")


def test_not_both_from_standard_input(cli: Callable[..., tuple[int, str, str]]) -> None:
    code, stdout, stderr = cli("check", "-", "-")
    assert code == 2 and stdout == ""
    assert_one_line_error(stderr, "only one input can be '-' (standard input)")


def test_check_writes_nothing(tmp_path: Path, hand_csv: Path, cli: Callable[..., tuple[int, str, str]]) -> None:
    board, ans = hand_csv, board_file(tmp_path, "0\n2\n0\n1\n", "answer.csv")
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    assert cli("check", board, ans, "-q")[0] == 0
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before
