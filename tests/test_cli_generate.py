"""``colorit generate`` (``colorit/cli/generate.py``): the library's board for a seed,
size and colour count; the seed always told (on standard error when the board goes to
standard output); outputs checked before any work."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from colorit.cli import main
from colorit.game.generate import random_board
from colorit.io.csvfile import read_board_csv

from cli_support import assert_one_line_error, in_process, run

SEED_LINE = re.compile(r"^colorit generate: seed (\d+)$")


def test_generate_as_a_process_is_reproducible(tmp_path: Path) -> None:
    a, b = tmp_path / "a.csv", tmp_path / "b.csv"
    assert run("generate", "--size", "20x12", "--colours", "5", "--seed", "9", "-o", a, "-q").returncode == 0
    assert main(["generate", "--size", "20x12", "--colors", "5", "--seed", "9", "-o", str(b), "-q"]) == 0
    assert a.read_text() == b.read_text()
    board = read_board_csv(a)
    assert (board.height, board.width, board.n_colours) == (12, 20, 5)
    assert board.cells.tolist() == random_board(20, 12, 5, seed=9).cells.tolist()


def test_generate_to_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    code, stdout, _ = in_process(capsys, "generate", "--size", "3x2", "--colours", "2", "--seed", "1")
    assert code == 0
    assert stdout == str(random_board(3, 2, 2, seed=1)) + "\n"
    assert in_process(capsys, "generate", "--size", "3x2", "--colours", "2", "--seed", "1", "-o", "-")[1] == stdout


def test_generate_logs_a_new_seed_that_reproduces_the_board(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "b.csv"
    code, stdout, stderr = in_process(capsys, "generate", "--size", "6x5", "--colours", "3", "-o", out)
    assert code == 0 and stderr == ""
    seed = int(re.search(r"\(seed (\d+)\) to ", stdout).group(1))  # type: ignore[union-attr]
    assert read_board_csv(out).cells.tolist() == random_board(6, 5, 3, seed=seed).cells.tolist()


def test_a_board_on_standard_output_reports_its_seed_on_standard_error() -> None:
    """Issue 9: ``generate`` to stdout never told the seed it chose."""
    proc = run("generate", "--size", "7x4", "--colours", "3")
    assert proc.returncode == 0
    m = SEED_LINE.match(proc.stderr.rstrip("\n"))
    assert m and proc.stderr.count("\n") == 1, proc.stderr
    assert proc.stdout == str(random_board(7, 4, 3, seed=int(m.group(1)))) + "\n"
    again = run("generate", "--size", "7x4", "--colours", "3", "--seed", m.group(1), "-q")
    assert (again.stdout, again.stderr) == (proc.stdout, "")


def test_quiet_still_reports_a_chosen_seed(capsys: pytest.CaptureFixture[str]) -> None:
    code, stdout, stderr = in_process(capsys, "generate", "--size", "4x4", "--colours", "3", "-q")
    assert code == 0
    seed = int(SEED_LINE.match(stderr.strip()).group(1))  # type: ignore[union-attr]
    assert stdout == str(random_board(4, 4, 3, seed=seed)) + "\n"


def test_two_runs_without_a_seed_differ(capsys: pytest.CaptureFixture[str]) -> None:
    seeds = set()
    for _ in range(3):
        seeds.add(in_process(capsys, "generate", "--size", "2x2", "--colours", "2")[2])
    assert len(seeds) > 1


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--size", "0x3", "--colours", "2"], "size '0x3' needs a width and height of at least 1"),
        (["--size", "3x3", "--colours", "0"], "--colours must be at least 1"),
        (["--size", "ten", "--colours", "2"], "size 'ten' is not WIDTHxHEIGHT"),
        (["--size", "3.7x2", "--colours", "2"], "size '3.7x2' is not WIDTHxHEIGHT"),
        (["--size", "3x3", "--colours", "2", "--seed", "-1"], "--seed must be at least 0, got -1"),
        (["--colours", "2"], "the following arguments are required: --size"),
        (["--size", "10000x10000", "--colours", "2"], "--size '10000x10000' makes a board of more than 50,000,000 cells"),
    ],
)
def test_generate_errors(capsys: pytest.CaptureFixture[str], args: list[str], fragment: str) -> None:
    code, stdout, stderr = in_process(capsys, "generate", *args)
    assert code == 2 and stdout == ""
    assert_one_line_error(stderr, fragment)


@pytest.mark.parametrize("where", ["directory", "missing-folder"])
def test_an_output_that_cannot_be_written_fails_cleanly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str
) -> None:
    out = tmp_path if where == "directory" else tmp_path / "nodir" / "b.csv"
    code, stdout, stderr = in_process(capsys, "generate", "--size", "3x3", "--colours", "2", "-o", out)
    assert code == 2 and stdout == ""
    assert_one_line_error(stderr, "is a directory" if where == "directory" else "folder")
    assert list(tmp_path.iterdir()) == []


def test_an_existing_file_is_replaced_whole(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "b.csv"
    out.write_text("old\n")
    assert in_process(capsys, "generate", "--size", "5x3", "--colours", "2", "--seed", "4", "-o", out, "-q")[0] == 0
    assert out.read_text() == str(random_board(5, 3, 2, seed=4)) + "\n"
    assert [p.name for p in tmp_path.iterdir()] == ["b.csv"]
