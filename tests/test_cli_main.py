"""``colorit.cli`` (the package's ``__init__``): dispatch to the command modules, the
implicit ``solve``, help and version without numpy or numba, a suggestion for a
misspelt command, one-line errors, and a closed output pipe that ends quietly."""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
from pathlib import Path

import pytest

from colorit import __version__
from colorit.cli import COMMANDS
from colorit.cli.options import Parser
from colorit.runtime.signals import EXIT_PIPE

from cli_support import (
    assert_one_line_error,
    board_file,
    check_answer,
    colorit_cmd,
    env,
    in_process,
    run,
)
from conftest import HAND_CSV

#: The commands whose dispatch is tested here (``show`` and ``serve`` have their own tests).
CORE_COMMANDS = ("solve", "check", "compare", "generate", "bench")


# --------------------------------------------------------------------------- dispatch


@pytest.mark.parametrize("name", CORE_COMMANDS)
def test_each_command_is_a_module_with_arguments_and_run(name: str) -> None:
    module = importlib.import_module(f"colorit.cli.{COMMANDS[name][0]}")
    parser = Parser(prog=f"colorit {name}")
    module.add_arguments(parser)
    assert callable(module.run)
    assert parser.format_help().startswith(f"usage: colorit {name}")


def test_solve_is_implicit_for_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    board = board_file(tmp_path)
    for args in (["solve", board, tmp_path / "a.csv"], [board, tmp_path / "b.csv"]):
        code, stdout, stderr = in_process(capsys, *args, "--algo", "greedy")
        assert (code, stderr) == (0, "")
        assert "solving with greedy" in stdout
    assert (tmp_path / "a.csv").read_text() == (tmp_path / "b.csv").read_text()
    check_answer(board, tmp_path / "a.csv")


def test_an_existing_file_without_a_dot_is_a_board(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    board_file(tmp_path, name="sohw")  # a file, though it looks like a misspelt command
    code, _, stderr = in_process(capsys, "sohw", "out.csv", "--algo", "linear", "-q")
    assert (code, stderr) == (0, "")
    check_answer(tmp_path / "sohw", tmp_path / "out.csv")


def test_a_misspelt_command_gets_a_suggestion() -> None:
    proc = run("sohw", "a.csv")
    assert proc.returncode == 2 and proc.stdout == ""
    assert_one_line_error(proc.stderr, "no such command or file: 'sohw'; did you mean 'show'?")


def test_a_word_like_no_command_lists_the_commands(capsys: pytest.CaptureFixture[str]) -> None:
    code, stdout, stderr = in_process(capsys, "xyzzy")
    assert code == 2 and stdout == ""
    line = assert_one_line_error(stderr, "no such command or file: 'xyzzy'; commands: ")
    for name in COMMANDS:
        assert name in line


def test_a_command_error_is_one_line_naming_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, stderr = in_process(capsys, "generate", "--size", "3x3", "--colours", "2", "--frobnicate")
    assert code == 2
    assert_one_line_error(stderr, "unrecognized arguments: --frobnicate (see 'colorit generate --help')")


# --------------------------------------------------------------------------- help and version


def test_help_lists_the_commands_and_the_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    code, stdout, stderr = in_process(capsys, "--help")
    assert (code, stderr) == (0, "")
    assert stdout.startswith("usage: colorit")
    for name, (_, summary) in COMMANDS.items():
        assert re.search(rf"^  {name} +{re.escape(summary)}$", stdout, re.MULTILINE), name
    for status in ("0 done", "2 bad arguments", "130/143 interrupted", "141 output pipe closed"):
        assert status in stdout
    assert in_process(capsys, "-h")[1] == stdout


@pytest.mark.parametrize("name", CORE_COMMANDS)
def test_command_help(capsys: pytest.CaptureFixture[str], name: str) -> None:
    code, stdout, _ = in_process(capsys, name, "--help")
    assert code == 0
    assert stdout.startswith(f"usage: colorit {name}")


def test_no_arguments_prints_help_and_fails(capsys: pytest.CaptureFixture[str]) -> None:
    code, stdout, stderr = in_process(capsys)
    assert code == 2 and stdout == ""
    assert stderr.startswith("usage: colorit") and "commands:" in stderr


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    code, stdout, _ = in_process(capsys, "--version")
    assert code == 0
    assert stdout == f"colorit {__version__}\n"
    assert re.fullmatch(r"colorit \d+\.\d+\.\d+\n", stdout)


@pytest.mark.parametrize("flag", ["--help", "--version"])
def test_help_and_version_import_neither_numpy_nor_numba(flag: str) -> None:
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "colorit", flag],
        check=False,
        capture_output=True,
        text=True,
        timeout=30,
        env=env(),
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("colorit ") or proc.stdout.startswith("usage: colorit")
    imported = {line.rsplit("|", 1)[-1].strip() for line in proc.stderr.splitlines() if line.startswith("import time:")}
    assert "colorit.cli" in imported  # the report is really there
    heavy = sorted(m for m in imported if m.split(".")[0] in ("numpy", "numba", "llvmlite"))
    assert heavy == [], heavy


# --------------------------------------------------------------------------- process endings


def test_errors_in_a_real_process_have_no_traceback(tmp_path: Path) -> None:
    board = board_file(tmp_path, HAND_CSV.replace("2,2", "2,x"))
    out = tmp_path / "out.csv"
    proc = run(board, out)
    assert proc.returncode == 2
    assert_one_line_error(proc.stderr, "board.csv:3:2: 'x' is not an integer")
    assert not out.exists()


def test_a_closed_pipe_ends_quietly_with_141() -> None:
    """``colorit generate ... | head -1``: the board (180 KB) is more than the pipe holds,
    so head exits while colorit writes; colorit ends as Unix tools do (status 141, as
    if killed by SIGPIPE), saying nothing."""
    producer = subprocess.Popen(
        colorit_cmd("generate", "--size", "300x300", "--colours", "6"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env(),
    )
    head = subprocess.Popen(["head", "-1"], stdin=producer.stdout, stdout=subprocess.PIPE)
    assert producer.stdout is not None and producer.stderr is not None
    producer.stdout.close()  # head holds the only reading end
    first, _ = head.communicate(timeout=30)
    stderr = producer.stderr.read().decode()
    code = producer.wait(timeout=30)
    assert first.decode().count(",") == 299  # head got the first row
    assert (code, stderr) == (EXIT_PIPE, "")
