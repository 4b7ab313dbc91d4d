"""``colorit.cli.options`` and every command's options: a bad value ends as one line
naming the option, status 2, no traceback, and every option that takes a number or a
name has a case here; the one default time limit, the argument types (the library's own
checks), the parser's errors, a missing extra, and ``--algo``'s list of solvers."""

from __future__ import annotations

import argparse
import importlib
from pathlib import Path

import pytest

from colorit.cli import COMMANDS
from colorit.cli.options import (
    ALGORITHMS,
    DEFAULT_TIME_LIMIT,
    DEFAULT_TIME_LIMIT_WHY,
    SHOWN_ALIASES,
    Parser,
    UsageError,
    add_algo,
    add_time_limit,
    algorithm_list,
    count_arg,
    memory_arg,
    name_option,
    pause_arg,
    seconds_arg,
    solver_name,
)
from colorit.errors import ColoritError
from colorit.limits import parse_seconds
from colorit.machine import format_size, machine_memory
from colorit.runtime.signals import EXIT_USAGE

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
    assert code == EXIT_USAGE, err
    line = assert_one_line_error(err)
    message = line.removeprefix("colorit: error: ")
    # the option comes first (after the file a bench set names), or follows "FILE: "
    assert message.startswith(option) or f": {option}" in message, line
    assert not list(tmp_path.glob("out.csv*")), "nothing is written"


def _options_with_values(command: str) -> set[str]:
    """The options of ``command`` that take a number or a name (not files, not flags)."""
    parser = Parser(prog=f"colorit {command}")
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
    assert proc.returncode == EXIT_USAGE
    line = assert_one_line_error(proc.stderr)
    assert line.startswith("colorit: error: --delay must be between 0 and 10 seconds, got -0.5"), line


@pytest.mark.parametrize("name", ["solve", "compare", "bench"])
def test_one_default_time_limit_and_its_reason_in_help(name: str) -> None:
    import importlib

    module = importlib.import_module(f"colorit.cli.{COMMANDS[name][0]}")
    parser = Parser(prog=f"colorit {name}")
    module.add_arguments(parser)
    action = next(a for a in parser._actions if "--time-limit" in a.option_strings)
    # bench leaves it None when not given (with --budget it is then no cap) and takes the
    # same default itself
    assert action.default == (None if name == "bench" else DEFAULT_TIME_LIMIT)
    assert action.help is not None and DEFAULT_TIME_LIMIT_WHY in action.help
    assert f"default: {DEFAULT_TIME_LIMIT:g} s" in DEFAULT_TIME_LIMIT_WHY


@pytest.mark.parametrize(("text", "seconds"), [("10", 10.0), ("0.5", 0.5), ("2e3", 2000.0), (" 1 ", 1.0)])
def test_seconds_arg(text: str, seconds: float) -> None:
    assert seconds_arg()(text) == seconds


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("0", "must be a positive number of seconds, got 0"),
        ("-1", "must be a positive number of seconds, got -1"),
        ("nan", "must be a positive number of seconds, got nan"),
        ("inf", "must be a positive number of seconds, got inf"),
        ("soon", "'soon' is not a number of seconds"),
    ],
)
def test_seconds_arg_names_its_option_with_the_library_message(text: str, message: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError) as info:
        seconds_arg("--time-limit")(text)
    assert str(info.value) == f"--time-limit {message}"
    with pytest.raises(ColoritError) as lib:  # the library's check says the same of its value
        parse_seconds(text)
    assert str(lib.value) == f"time limit {message}"


def test_pause_arg_takes_zero_and_refuses_negatives() -> None:
    delay = pause_arg("--delay", 10.0)
    assert delay("0") == 0.0 and delay("0.25") == 0.25 and delay("10") == 10.0
    for bad, shown in (("-1", "-1"), ("11", "11"), ("nan", "nan")):
        with pytest.raises(argparse.ArgumentTypeError) as info:
            delay(bad)
        assert str(info.value) == f"--delay must be between 0 and 10 seconds, got {shown}"
    with pytest.raises(argparse.ArgumentTypeError, match=r"^--delay 'soon' is not a number of seconds$"):
        delay("soon")


def test_memory_arg() -> None:
    memory = memory_arg("--max-memory")
    assert memory("512M") == 512 << 20
    assert memory("1.5GiB") == 3 << 29
    with pytest.raises(argparse.ArgumentTypeError, match=r"^--max-memory 'lots' is not a size"):
        memory("lots")
    with pytest.raises(argparse.ArgumentTypeError) as info:
        memory("10T")
    assert str(info.value) == f"--max-memory 10T is more than this machine's {format_size(machine_memory())} of RAM"


@pytest.mark.parametrize(
    ("message", "noun", "named"),
    [
        ("--x must be 1", "", "--x must be 1"),
        ("size '0' is bad", "size", "--x '0' is bad"),
        ("unknown thing", "", "--x: unknown thing"),
    ],
)
def test_name_option(message: str, noun: str, named: str) -> None:
    assert name_option("--x", message, noun) == named


def test_count_arg() -> None:
    limit = count_arg(1, "--limit")
    assert limit("3") == 3 and limit(" 7 ") == 7
    with pytest.raises(argparse.ArgumentTypeError, match=r"^--limit must be at least 1, got 0$"):
        limit("0")
    with pytest.raises(argparse.ArgumentTypeError, match=r"^--limit must be a whole number, got '2.5'$"):
        limit("2.5")
    assert count_arg(0, "seed")("0") == 0


def test_parser_errors_are_usage_errors_naming_the_help() -> None:
    parser = Parser(prog="colorit thing")
    add_time_limit(parser, "seconds")
    with pytest.raises(UsageError) as info:
        parser.parse_args(["--time-limit", "-5"])
    message = str(info.value)
    assert message == "--time-limit must be a positive number of seconds, got -5 (see 'colorit thing --help')"
    assert "\n" not in message


@pytest.mark.parametrize(
    ("args", "missing", "fragment"),
    [
        (["show", "{board}", "-o", "{out}.gif"], "PIL", "colorit show needs the pictures extra (PIL is missing)"),
        (["serve", "--port", "0"], "fastapi", "colorit serve needs the web extra (fastapi is missing)"),
        (["bench", "{board}", "--plot", "{out}.png"], "matplotlib", "colorit bench --plot needs the pictures extra"),
        (["compare", "{board}", "--plot", "{out}.png"], "matplotlib", "colorit compare --plot needs the pictures extra"),
    ],
)
def test_a_missing_extra_is_one_line_before_any_work(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
    args: list[str], missing: str, fragment: str,
) -> None:
    """After a ``pip install .`` without an extra, the command that needs it says how to
    install it, in one line and exit 2, and writes nothing."""
    import importlib.util

    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == missing else real_find_spec(name, *a))
    board = board_file(tmp_path)
    code, out, err = in_process(capsys, *[a.format(board=board, out=tmp_path / "out") for a in args])
    assert code == 2
    line = assert_one_line_error(err, fragment)
    assert "pip install 'colorit[" in line
    assert out == ""
    assert sorted(p.name for p in tmp_path.iterdir()) == ["board.csv"]


def test_the_solvers_help_lists_are_the_registry_s() -> None:
    """``--algo``'s list (kept here so that ``--help`` loads no solver) names every
    registered solver, in the registry's order from the last, and real aliases."""
    from colorit.solvers import get_solver, solver_names

    assert list(ALGORITHMS) == solver_names()[::-1]
    for name, alias in SHOWN_ALIASES.items():
        assert get_solver(alias).name == name and alias in get_solver(name).aliases
    assert algorithm_list() == "auto, astar, dfs, beam, lookahead, greedy, linear (alias basic)"
    from colorit.solvers.base import solver_list

    assert solver_list() == algorithm_list()  # the library's error says it the same way


def test_an_unknown_algorithm_lists_the_solvers_as_help_does() -> None:
    parser = Parser(prog="colorit thing")
    add_algo(parser)
    (action,) = [a for a in parser._actions if "--algo" in a.option_strings]
    assert action.help is not None and algorithm_list() in action.help
    with pytest.raises(UsageError) as info:
        solver_name("bfs")
    assert str(info.value) == f"--algo: unknown algorithm 'bfs'; choose one of: {algorithm_list()}"
    with pytest.raises(UsageError, match=r"^--algos: unknown algorithm 'x'; choose one of: auto, "):
        solver_name("x", "--algos")
    assert solver_name("basic") == "linear" and solver_name(" A* ") == "astar"
