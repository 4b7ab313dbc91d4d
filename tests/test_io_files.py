"""``colorit.io.files.check_files``: before any work, no output over an input or over
another output, each output writable, standard input read once."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from colorit.errors import ColoritError, OutputError
from colorit.io.files import check_files

from cli_support import board_file


def refused(inputs: list[object], outputs: list[object], fragment: str) -> None:
    with pytest.raises(ColoritError) as info:
        check_files(
            [None if p is None else str(p) for p in inputs], [None if p is None else str(p) for p in outputs]
        )
    assert fragment in str(info.value)
    assert "\n" not in str(info.value)


def test_check_files_refuses_an_output_that_is_an_input(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    board = board_file(tmp_path)
    (tmp_path / "link.csv").symlink_to(board)
    os.link(board, tmp_path / "hard.csv")
    refused([board], [board], f"{board}: is an input; refusing to write over it")
    monkeypatch.chdir(tmp_path)
    refused(["board.csv"], [f"./../{tmp_path.name}/board.csv"], "is the same file as the input 'board.csv'")
    refused(
        ["board.csv"], ["link.csv"], "link.csv: is the same file as the input 'board.csv'; refusing to write over it"
    )
    refused(
        ["board.csv"], ["hard.csv"], "hard.csv: is the same file as the input 'board.csv'; refusing to write over it"
    )
    refused(["link.csv"], ["board.csv"], "board.csv: is the same file as the input 'link.csv'")
    refused([None, "other.csv", "board.csv"], [None, "out.csv", "hard.csv"], "hard.csv: is the same file")
    assert board.read_text().startswith("1,2,0,0")


def test_check_files_refuses_two_outputs_that_are_one_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    refused([], ["x.json", "x.json"], "x.json: given as two outputs; each output needs its own file")
    refused([], ["x.json", "./x.json"], "given as two outputs")  # neither exists yet
    (tmp_path / "y.txt").write_text("")
    (tmp_path / "y-link.txt").symlink_to(tmp_path / "y.txt")
    refused([], ["y.txt", "y-link.txt"], "y-link.txt: given as two outputs")
    assert not (tmp_path / "x.json").exists()


def test_check_files_standard_streams(tmp_path: Path) -> None:
    refused(["-", "-"], [], "only one input can be '-' (standard input)")
    refused([], ["-", "-"], "only one output can be '-' (standard output)")
    check_files(["-"], ["-"])  # standard input to standard output is fine
    check_files(["-", str(board_file(tmp_path))], ["-", None, str(tmp_path / "out.csv")])


def test_check_files_refuses_unwritable_outputs(tmp_path: Path) -> None:
    with pytest.raises(OutputError, match="is a directory"):
        check_files([], [str(tmp_path)])
    with pytest.raises(OutputError, match="folder .* does not exist"):
        check_files([], [str(tmp_path / "nodir" / "out.csv")])
