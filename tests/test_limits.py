"""``colorit.limits``: sizes and seconds as people write them, ``Limits`` refusing what
it cannot keep, and the library validating exactly as the command line does (the CLI
prints the library's own message for the same value)."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from colorit import Board, ColoritError, Control, Limits, solve
from colorit.game.generate import random_board
from colorit.limits import check_memory, check_seconds, parse_memory_size, parse_seconds, whole_number
from colorit.machine import MIN_MEMORY, default_memory_bytes, format_size, machine_memory

from cli_support import assert_one_line_error, board_file, in_process

RAM = format_size(machine_memory())


# --------------------------------------------------------------------------- sizes


@pytest.mark.parametrize(
    ("spec", "size"),
    [
        ("512M", 512 << 20),
        ("2G", 2 << 30),
        ("1.5g", 3 << 29),
        ("2GiB", 2 << 30),
        ("64mb", 64 << 20),
        ("1.5GiB", 3 << 29),
        (" 4194304 ", 4 << 20),
        ("10000000", 10_000_000),
        ("1T", 1 << 40),
    ],
)
def test_parse_size(spec: str, size: int) -> None:
    assert parse_memory_size(spec) == size


@pytest.mark.parametrize("spec", ["", "G", "-1G", "12Q", "lots", "1,5G", "0x10"])
def test_parse_size_rejects(spec: str) -> None:
    with pytest.raises(ColoritError, match=r"^memory size .* is not a size such as 512M, 2G or a number of bytes$"):
        parse_memory_size(spec)


def test_check_memory() -> None:
    assert check_memory("64M") == 64 << 20
    assert check_memory(MIN_MEMORY) == MIN_MEMORY
    assert check_memory(np.int64(2 << 20)) == 2 << 20
    with pytest.raises(ColoritError, match=r"^memory limit 1k is below 1M, too little to search in$"):
        check_memory("1k")
    with pytest.raises(ColoritError, match="below 1M"):
        check_memory("10K")
    with pytest.raises(ColoritError, match=r"^memory limit 0 is below 1M"):
        check_memory(0)
    with pytest.raises(ColoritError) as info:
        check_memory("10T")
    assert str(info.value) == f"memory limit 10T is more than this machine's {RAM} of RAM"
    with pytest.raises(ColoritError, match="more than this machine's"):
        check_memory(machine_memory() + 1)
    assert check_memory(machine_memory()) == machine_memory()


def test_default_memory_is_half_the_ram() -> None:
    assert machine_memory() > 1 << 28
    assert default_memory_bytes() == machine_memory() // 2
    assert Limits().memory_bytes() == default_memory_bytes()
    assert Limits(memory="64M").memory_bytes() == 64 << 20


# --------------------------------------------------------------------------- numbers


def test_whole_number() -> None:
    assert whole_number(3, "x") == 3
    assert whole_number(4.0, "x") == 4  # a float that is whole is fine
    assert whole_number(np.int32(5), "x", 1) == 5
    for value, message in [
        (2.5, "x must be a whole number, got 2.5"),
        ("3", "x must be a whole number, got '3'"),
        (True, "x must be a whole number, got True"),
        (math.nan, "x must be a whole number, got nan"),
        (0, "x must be at least 1, got 0"),
    ]:
        with pytest.raises(ColoritError) as info:
            whole_number(value, "x", 1)
        assert str(info.value) == message


def test_seconds() -> None:
    assert check_seconds(2) == 2.0 and isinstance(check_seconds(2), float)
    assert check_seconds(np.float32(0.5)) == 0.5
    assert parse_seconds("1e-3") == 0.001
    for value in (0, -1, math.nan, math.inf, -math.inf):
        with pytest.raises(ColoritError, match="time limit must be a positive number of seconds"):
            check_seconds(value)
    for wrong in ("1", None, True, [1]):
        with pytest.raises(ColoritError, match="time limit must be a positive number of seconds, got"):
            check_seconds(wrong)
    with pytest.raises(ColoritError, match=r"^time limit 'soon' is not a number of seconds$"):
        parse_seconds("soon")


def test_limits() -> None:
    limits = Limits(time=10, memory="512M")
    assert (limits.time, limits.memory) == (10.0, 512 << 20)
    assert Limits(memory="2G") == Limits(memory=2 << 30)
    assert Limits() == Limits(time=None, memory=None)
    with pytest.raises(AttributeError):
        limits.time = 5  # type: ignore[misc]


# --------------------------------------------------------------------------- library = command line


def cli_error(capsys: pytest.CaptureFixture[str], tmp_path: Path, *args: str) -> str:
    """The one error line ``colorit solve BOARD OUT ARGS`` prints (status 2)."""
    board = board_file(tmp_path)
    code, _, stderr = in_process(capsys, board, tmp_path / "out.csv", *args)
    assert code == 2
    assert not (tmp_path / "out.csv").exists()
    return assert_one_line_error(stderr)


@pytest.mark.parametrize(
    ("make", "cli_args"),
    [
        (lambda: Limits(time=-1), ["--time-limit", "-1"]),
        (lambda: Limits(time=0), ["--time-limit", "0"]),
        (lambda: Limits(time=float("nan")), ["--time-limit", "nan"]),
        (lambda: Limits(time=float("inf")), ["--time-limit", "inf"]),
        (lambda: Limits(memory="10T"), ["--max-memory", "10T"]),
        (lambda: Limits(memory="lots"), ["--max-memory", "lots"]),
        (lambda: Limits(memory="1.5"), ["--max-memory", "1.5"]),
        (lambda: Limits(memory="512K"), ["--max-memory", "512K"]),
        (lambda: Limits(memory=0), ["--max-memory", "0"]),
    ],
    ids=[
        "time-negative",
        "time-zero",
        "time-nan",
        "time-inf",
        "memory-10T",
        "memory-words",
        "memory-1.5",
        "memory-512K",
        "memory-0",
    ],
)
def test_limits_refuse_what_the_cli_refuses_with_its_message(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, make: Callable[[], object], cli_args: list[str]
) -> None:
    with pytest.raises(ColoritError) as info:
        make()
    message = str(info.value)
    assert message and "\n" not in message and message[0].islower()
    line = cli_error(capsys, tmp_path, *cli_args)
    # the same words, with the option in place of the library's noun
    named = re.sub(r"^(time limit|memory limit|memory size)", cli_args[0], message)
    assert named.startswith(cli_args[0])
    assert line == f"colorit: error: {named} (see 'colorit solve --help')"


def test_ten_terabytes_is_refused_naming_the_ram() -> None:
    with pytest.raises(ColoritError) as info:
        Limits(memory="10T")
    assert str(info.value) == f"memory limit 10T is more than this machine's {RAM} of RAM"


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: Limits(memory=1.5), "memory limit must be a whole number, got 1.5"),  # type: ignore[arg-type]
        (lambda: Limits(memory=True), "memory limit must be a whole number, got True"),
        (lambda: Limits(time="1"), "time limit must be a positive number of seconds, got '1'"),  # type: ignore[arg-type]
        (lambda: Limits(time=True), "time limit must be a positive number of seconds, got True"),
        (lambda: random_board(3.7, 2, 2), "width must be a whole number, got 3.7"),  # type: ignore[arg-type]
        (lambda: random_board(2, 2.5, 2), "height must be a whole number, got 2.5"),  # type: ignore[arg-type]
        (lambda: random_board(2, 2, 2, seed=1.5), "seed must be a whole number, got 1.5"),  # type: ignore[arg-type]
        (lambda: Board.from_rows([[1, 2.5]]), "row 1, column 2: 2.5 is not an integer colour id"),  # type: ignore[list-item]
        (lambda: Board(np.array([[1.5]])), "row 1, column 1: 1.5 is not an integer colour id"),
        (lambda: Board([[1]], start=(0.5, 0)), "start row must be a whole number, got 0.5"),  # type: ignore[arg-type]
        (lambda: solve(Board.from_rows([[1, 2]]), 3), "algorithm must be a name, one of: auto, astar, dfs"),  # type: ignore[arg-type]
        (lambda: solve(Board.from_rows([[1, 2]]), "greedy", 5), "limits must be a colorit.Limits, got int"),  # type: ignore[arg-type]
        (lambda: solve([[1, 2]]), "board must be a colorit.Board, got list"),  # type: ignore[arg-type]
        (
            lambda: solve(Board.from_rows([[1, 2]]), "greedy", Limits(time=1), control=Control(Limits(time=2))),
            "give the limits to the Control, or pass limits without a control, not both",
        ),
    ],
)
def test_the_library_never_truncates_or_guesses(make: Callable[[], object], message: str) -> None:
    with pytest.raises(ColoritError) as info:
        make()
    assert str(info.value).startswith(message)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(
    ("make", "cli_args"),
    [
        (lambda: random_board(2, 2, 0), ["--size", "2x2", "--colours", "0"]),
        (lambda: random_board(2, 2, 2, seed=-1), ["--size", "2x2", "--colours", "2", "--seed", "-1"]),
    ],
    ids=["colours-0", "seed-negative"],
)
def test_random_board_refuses_as_generate_does(
    capsys: pytest.CaptureFixture[str], make: Callable[[], object], cli_args: list[str]
) -> None:
    with pytest.raises(ColoritError) as info:
        make()
    code, _, stderr = in_process(capsys, "generate", *cli_args)
    assert code == 2
    line = assert_one_line_error(stderr)
    # the library's words, naming the option: "colours must ..." as "--colours must ..."
    assert line == f"colorit: error: --{info.value} (see 'colorit generate --help')"


def test_a_start_outside_the_board_is_refused_in_the_same_words(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    with pytest.raises(ColoritError) as info:
        Board(np.zeros((4, 4), dtype=np.int64), start=(9, 9))
    assert str(info.value).startswith("start cell ")
    named = str(info.value).replace("start cell", "--start", 1)
    assert cli_error(capsys, tmp_path, "--start", "9,9") == f"colorit: error: {named}"
