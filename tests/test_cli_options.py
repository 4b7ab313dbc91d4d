"""Every command's options: a bad value ends as one line naming the option, status 2,
no traceback; and every option that takes a number or a name has a case here."""

from __future__ import annotations

import argparse
import importlib
from pathlib import Path

import pytest

from colorit.cli import COMMANDS, core
from cli_support import assert_one_line_error, board_file, in_process, run

#: command -> (arguments before the option, [(option, bad value), ...]). ``{board}``
#: is a small board file, ``{out}`` an output path in the test's folder.
CASES: dict[str, tuple[list[str], list[tuple[str, str]]]] = {
    "solve": (
        ["{board}", "{out}", "-q"],
        [
            ("--time-limit", "-1"), ("--time-limit", "0"), ("--time-limit", "soon"),
            ("--max-memory", "lots"), ("--max-memory", "1k"), ("--max-memory", "999T"),
            ("--algo", "nosuch"), ("--start", "xx"), ("--start", "9,9"), ("--start", "-1,0"),
        ],
    ),
    "check": (["{board}", "{board}"], [("--start", "xx"), ("--start", "1,9")]),
    "compare": (
        ["{board}", "-q"],
        [("--time-limit", "-1"), ("--max-memory", "lots"), ("--algos", "nosuch"), ("--algos", ","), ("--start", "a,b")],
    ),
    "generate": (
        ["--size", "3x3", "--colours", "2", "-q"],
        [
            ("--size", "axb"), ("--size", "0x3"), ("--size", "100000x100000"),
            ("--colours", "0"), ("--colours", "two"), ("--colours", str(2**64)), ("--seed", "-1"), ("--seed", "x"),
            ("--format", "png"), ("--extra", "-1"), ("--extra", "x"), ("--time-limit", "-1"),
        ],
    ),
    "bench": (
        ["{board}", "-q"],
        [
            ("--time-limit", "-1"), ("--budget", "soon"), ("--budget", "0s"), ("--workers", "-1"),
            ("--scheduler", "xx://"), ("--limit", "0"), ("--max-memory", "lots"), ("--algo", "nosuch"),
            ("--start", "xx"), ("--start", "9,9"),
        ],
    ),
    "datasets": ([], []),  # no option takes a value
    "show": (
        ["{board}", "-o", "{out}.gif", "-q"],
        [
            ("--time-limit", "-1"), ("--max-memory", "lots"), ("--algo", "nosuch"), ("--start", "xx"),
            ("--start", "9,9"), ("--labels", "letters"), ("--delay", "-1"), ("--delay", "11"), ("--delay", "nan"),
            ("--every", "0"), ("--cell", "0"), ("--cell", "x"),
        ],
    ),
    "serve": (
        [],
        [
            ("--port", "-1"), ("--port", "70000"), ("--workers", "0"), ("--max-cells", "0"),
            ("--max-time", "0"), ("--max-time", "-5"), ("--host", " "),
        ],
    ),
}


def _fill(words: list[str], folder: Path) -> list[str]:
    board = board_file(folder)
    return [w.format(board=board, out=folder / "out.csv") for w in words]


@pytest.mark.parametrize(
    ("command", "option", "value"),
    [(c, o, v) for c, (_, cases) in CASES.items() for o, v in cases],
)
def test_a_bad_value_is_one_line_naming_the_option(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, option: str, value: str
) -> None:
    before, _ = CASES[command]
    code, _, err = in_process(capsys, command, *_fill(before, tmp_path), f"{option}={value}")
    assert code == core.EXIT_USAGE, err
    line = assert_one_line_error(err)
    message = line.removeprefix("colorit: error: ")
    # the option comes first (after the file a bench set names), or follows "FILE: "
    assert message.startswith(option) or f": {option}" in message, line
    assert not list(tmp_path.glob("out.csv*")), "nothing is written"


def _options_with_values(command: str) -> set[str]:
    """The options of ``command`` that take a number or a name (not files, not flags)."""
    parser = core.Parser(prog=f"colorit {command}")
    importlib.import_module(f"colorit.cli.{COMMANDS[command][0]}").add_arguments(parser)
    free_text = {"--output", "--solutions", "--results", "--import-journal", "--json", "--plot", "--expect"}
    found = set()
    for action in parser._actions:
        long = [s for s in action.option_strings if s.startswith("--")]
        if not long or action.nargs == 0 or isinstance(action, argparse._HelpAction):
            continue
        if long[0] not in free_text:
            found.add(long[0])
    return found


@pytest.mark.parametrize("command", list(COMMANDS))
def test_every_option_with_a_value_has_a_case(command: str) -> None:
    assert command in CASES, f"add {command}'s options to CASES"
    covered = {o for o, _ in CASES[command][1]}
    assert _options_with_values(command) <= covered


def test_delay_zero_replays_at_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    board = board_file(tmp_path)
    answer = tmp_path / "answer.csv"
    assert in_process(capsys, "solve", board, answer, "-q")[0] == 0
    code, out, err = in_process(capsys, "show", board, answer, "--delay", "0")
    assert code == 0, err
    assert f"move {len(answer.read_text().split())}/" in out


def test_a_negative_delay_from_a_real_process_names_delay(tmp_path: Path) -> None:
    board = board_file(tmp_path)
    proc = run("show", board, "--delay", "-0.5")
    assert proc.returncode == core.EXIT_USAGE
    line = assert_one_line_error(proc.stderr)
    assert line.startswith("colorit: error: --delay must be between 0 and 10 seconds, got -0.5"), line
