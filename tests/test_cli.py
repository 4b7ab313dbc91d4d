"""The ``colorit`` command, end to end: exit codes, one-line errors, the files it writes
(and leaves alone), the time limit and the signals.

Most cases call ``main`` in this process (fast); the ones about the real process
(tracebacks, the clock from process start, signals) run ``python -m colorit``. Tests
about the CLI, not the solvers, use ``linear``/``greedy``; the signal tests use two
test-only solvers registered by a small runner script, so they do not depend on how
long a real search takes.
"""

from __future__ import annotations

import io
import os
import re
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

import csv
import pytest

from colorit import SolutionError, solver_names
from colorit.cli import main
from colorit.limits import check_memory as parse_memory
from colorit.csvio import read_board_csv, read_moves_csv, write_board_csv
from colorit.generate import random_board

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "demofiles" / "sample.csv"
STAMP = re.compile(r"^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}\] \S")
GRID = "1,2,0,0\n0,1,1,0\n2,2,0,1\n0,0,0,1\n"


def env() -> dict[str, str]:
    e = {k: v for k, v in os.environ.items() if k != "COLORIT_CLOCK_START"}
    e["PYTHONPATH"] = str(ROOT) + os.pathsep + e.get("PYTHONPATH", "")
    return e


def run(*args: object, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """``python -m colorit ARGS`` in a fresh process."""
    return subprocess.run(
        [sys.executable, "-m", "colorit", *map(str, args)], capture_output=True, text=True, timeout=timeout, env=env()
    )


def assert_one_line_error(stderr: str, fragment: str = "") -> None:
    assert "Traceback" not in stderr
    lines = stderr.splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith("colorit: error: ")
    assert fragment in lines[0]


def board_file(tmp_path: Path, text: str = GRID, name: str = "board.csv") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def check_answer(board_path: Path, answer_path: Path, start: str = "top-left") -> list[int]:
    """The answer's moves, after checking that they solve the board."""
    moves = read_moves_csv(answer_path)
    read_board_csv(board_path, start=start).check(moves)
    return moves


# --------------------------------------------------------------------------- solve, as a process


def test_solve_sample_end_to_end(tmp_path: Path) -> None:
    out = tmp_path / "out.csv"
    proc = run(SAMPLE, out, "--algo", "greedy")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    lines = proc.stdout.splitlines()
    assert lines and all(STAMP.match(line) for line in lines), proc.stdout
    moves = check_answer(SAMPLE, out)
    text = proc.stdout
    assert "board 4 rows x 4 columns, 4 colours" in text
    assert "solving with greedy, time limit 60 s" in text
    assert f"improved: {len(moves)} moves after" in text
    assert f"wrote {len(moves)} moves to {out}" in text
    assert lines[-1].endswith(" s") and "done in" in lines[-1]
    assert out.read_text() == "".join(f"{m}\n" for m in moves)


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["{bad}", "{out}"], "bad.csv:2:2: 'x' is not an integer"),
        (["{missing}", "{out}"], "missing.csv: no such board file"),
        (["{board}", "{out}", "--algo", "nosuch"], "unknown algorithm 'nosuch'; choose one of: linear, greedy"),
    ],
    ids=["bad-value", "missing-file", "unknown-algo"],
)
def test_process_errors_are_one_line_and_leave_output_alone(tmp_path: Path, args: list[str], fragment: str) -> None:
    out = tmp_path / "out.csv"
    out.write_text("precious\n")
    paths = {
        "bad": board_file(tmp_path, "1,2\n3,x\n", "bad.csv"),
        "missing": tmp_path / "missing.csv",
        "board": board_file(tmp_path),
        "out": out,
    }
    proc = run(*[a.format(**paths) for a in args])
    assert proc.returncode == 2
    assert_one_line_error(proc.stderr, fragment)
    assert out.read_text() == "precious\n"


def test_time_limit_is_held_on_a_big_board(tmp_path: Path) -> None:
    board = tmp_path / "big.csv"
    write_board_csv(board, random_board(100, 100, 20, seed=3))
    out = tmp_path / "out.csv"
    t0 = time.monotonic()
    proc = run(board, out, "--time-limit", "1", timeout=30)
    wall = time.monotonic() - t0
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    assert wall < 5.0
    assert len(check_answer(board, out)) > 0


# --------------------------------------------------------------------------- solve, in this process


def solve_in_process(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_solve_subcommand_and_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    board = board_file(tmp_path)
    out = tmp_path / "out.csv"
    code, stdout, stderr = solve_in_process(
        capsys, "solve", board, out, "--algo", "linear", "--start", "center", "--quiet"
    )
    assert code == 0 and stdout == "" and stderr == ""
    check_answer(board, out, start="center")
    with pytest.raises(SolutionError):  # the centre's answer does not solve from the corner
        check_answer(board, out)


@pytest.mark.parametrize("algo", ["linear", "basic", "GREEDY"])
def test_algorithm_names_and_aliases(tmp_path: Path, capsys: pytest.CaptureFixture[str], algo: str) -> None:
    board, out = board_file(tmp_path), tmp_path / "out.csv"
    code, stdout, _ = solve_in_process(capsys, board, out, "--algo", algo)
    assert code == 0
    assert f"solving with {algo.lower().replace('basic', 'linear')}" in stdout
    check_answer(board, out)


def test_one_colour_board_gives_an_empty_answer(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    board, out = board_file(tmp_path, "5,5\n5,5\n"), tmp_path / "out.csv"
    code, stdout, _ = solve_in_process(capsys, board, out, "--algo", "greedy")
    assert code == 0
    assert out.read_bytes() == b""
    assert "wrote 0 moves" in stdout


def test_default_algorithm_writes_a_valid_answer(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    board, out = board_file(tmp_path), tmp_path / "out.csv"
    code, stdout, _ = solve_in_process(capsys, board, out, "--time-limit", "5", "--max-memory", "64M")
    assert code == 0
    assert re.search(r"proven optimal: \d+ moves|best found, \d+ moves", stdout)
    check_answer(board, out)


@pytest.mark.parametrize(
    ("make_args", "fragment"),
    [
        (lambda b, o: [b, o, "--time-limit", "0"], "argument --time-limit: time limit must be a positive number of seconds, got 0"),
        (lambda b, o: [b, o, "--time-limit", "nan"], "time limit must be a positive number of seconds, got nan"),
        (lambda b, o: [b, o, "--time-limit", "soon"], "time limit 'soon' is not a number of seconds"),
        (lambda b, o: [b, o, "--max-memory", "lots"], "argument --max-memory: memory size 'lots' is not a size"),
        (lambda b, o: [b, o, "--max-memory", "10T"], "memory limit 10T is more than this machine's"),
        (lambda b, o: [b, o, "--start", "9,9"], "start 9,9 is outside the 4x4 board"),
        (lambda b, o: [b, o, "--algo", "nosuch"], "choose one of: " + ", ".join(solver_names())),
        (lambda b, o: [b, o.parent / "nodir" / "x.csv"], "does not exist"),
        (lambda b, o: [b, o.parent], "is a directory"),
        (lambda b, o: [b, b], "is an input; refusing to write over it"),
        (lambda b, o: [b], "the following arguments are required: OUT.csv"),
        (lambda b, o: [b, o, "--frobnicate"], "unrecognized arguments: --frobnicate"),
        (lambda b, o: [o.parent / "ragged.csv", o], "ragged.csv:3: row has 3 values, expected 2"),
        (lambda b, o: [o.parent / "empty.csv", o], "empty.csv: file is empty"),
    ],
)
def test_usage_and_input_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], make_args: Callable[[Path, Path], list[object]], fragment: str
) -> None:
    board = board_file(tmp_path)
    board_file(tmp_path, "1,2\n3,4\n5,6,7\n", "ragged.csv")
    board_file(tmp_path, "", "empty.csv")
    out = tmp_path / "out.csv"
    out.write_text("precious\n")
    code, _, stderr = solve_in_process(capsys, *make_args(board, out))
    assert code == 2
    assert_one_line_error(stderr, fragment)
    assert out.read_text() == "precious\n"
    assert board.read_text() == GRID


def test_quiet_still_reports_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, stdout, stderr = solve_in_process(capsys, tmp_path / "none.csv", tmp_path / "out.csv", "-q")
    assert code == 2 and stdout == ""
    assert_one_line_error(stderr, "no such board file")


def test_help_lists_the_commands(capsys: pytest.CaptureFixture[str]) -> None:
    code, stdout, _ = solve_in_process(capsys, "--help")
    assert code == 0
    for command in ("solve", "check", "compare", "generate"):
        assert command in stdout
    code, stdout, _ = solve_in_process(capsys, "solve", "--help")
    assert code == 0 and "--time-limit" in stdout and "--max-memory" in stdout


def test_no_arguments_prints_help_and_fails(capsys: pytest.CaptureFixture[str]) -> None:
    code, stdout, stderr = solve_in_process(capsys)
    assert code == 2 and "usage:" in stderr and stdout == ""


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    code, stdout, _ = solve_in_process(capsys, "--version")
    assert code == 0 and re.fullmatch(r"colorit \d+\.\d+\.\d+\n", stdout)


@pytest.mark.parametrize(
    ("spec", "size"),
    [
        ("512M", 512 << 20),
        ("2G", 2 << 30),
        ("1.5g", 3 << 29),
        ("2GiB", 2 << 30),
        ("64mb", 64 << 20),
        ("10000000", 10_000_000),
    ],
)
def test_parse_memory(spec: str, size: int) -> None:
    assert parse_memory(spec) == size


@pytest.mark.parametrize("spec", ["", "G", "-1G", "12Q", "1k"])
def test_parse_memory_rejects(spec: str) -> None:
    with pytest.raises(ValueError):
        parse_memory(spec)


# --------------------------------------------------------------------------- check


def test_check_valid_and_invalid_as_processes(tmp_path: Path) -> None:
    board = board_file(tmp_path)
    good = board_file(tmp_path, "0\n2\n0\n1\n", "good.csv")
    short = board_file(tmp_path, "0\n2\n0\n", "short.csv")
    proc = run("check", board, good)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "valid: 4 moves\n", "")
    proc = run("check", board, short)
    assert (proc.returncode, proc.stdout) == (1, "invalid: after 3 moves the board still has 2 colours\n")


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
    tmp_path: Path, capsys: pytest.CaptureFixture[str], answer: str, code: int, expected: str
) -> None:
    board, ans = board_file(tmp_path), board_file(tmp_path, answer, "answer.csv")
    got, stdout, stderr = solve_in_process(capsys, "check", board, ans)
    assert (got, stdout.strip(), stderr) == (code, expected, "")


def test_check_with_a_start_cell(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    board = board_file(tmp_path, "4,3,4\n3,5,3\n4,3,4\n")
    ans = board_file(tmp_path, "3\n4\n", "answer.csv")
    assert solve_in_process(capsys, "check", board, ans, "--start", "center")[:2] == (0, "valid: 2 moves\n")
    assert solve_in_process(capsys, "check", board, ans)[0] == 1


def test_check_bad_answer_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    board, ans = board_file(tmp_path), board_file(tmp_path, "0\nblue\n", "answer.csv")
    code, stdout, stderr = solve_in_process(capsys, "check", board, ans)
    assert code == 2 and stdout == ""
    assert_one_line_error(stderr, f"{ans}:2: 'blue' is not a colour id")


# --------------------------------------------------------------------------- compare


def test_compare_csv_as_a_process(tmp_path: Path) -> None:
    proc = run(
        "compare", ROOT / "demofiles" / "sample-long.csv", "--algos", "linear,greedy", "--csv", "--time-limit", "5"
    )
    assert proc.returncode == 0, proc.stderr
    rows = list(csv.DictReader(io.StringIO(proc.stdout)))
    assert list(rows[0]) == ["algorithm", "moves", "time_s", "proven", "saving_moves", "saving_pct"]
    assert [r["algorithm"] for r in rows] == ["linear", "greedy"]
    linear, greedy = (int(r["moves"]) for r in rows)
    assert [int(r["saving_moves"]) for r in rows] == [0, linear - greedy]
    assert float(rows[1]["saving_pct"]) == pytest.approx(round(100 * (linear - greedy) / linear, 1))


def test_compare_table_without_linear_still_measures_against_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    board = ROOT / "demofiles" / "sample.csv"
    code, stdout, _ = solve_in_process(capsys, "compare", board, "--algos", "greedy", "--time-limit", "5", "-q")
    assert code == 0
    header, row = stdout.strip().splitlines()
    assert header.split() == ["algorithm", "moves", "time_s", "proven", "saving_moves", "saving_pct"]
    fields = row.split()
    assert fields[0] == "greedy"
    from colorit import solve

    b = read_board_csv(board)
    assert int(fields[1]) == len(solve(b, "greedy").moves)
    assert int(fields[4]) == len(solve(b, "linear").moves) - len(solve(b, "greedy").moves)


def test_compare_rejects_an_unknown_algorithm(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, stdout, stderr = solve_in_process(capsys, "compare", board_file(tmp_path), "--algos", "greedy,nosuch")
    assert code == 2
    assert_one_line_error(stderr, "unknown algorithm 'nosuch'")


# --------------------------------------------------------------------------- generate


def test_generate_as_a_process_is_reproducible(tmp_path: Path) -> None:
    a, b = tmp_path / "a.csv", tmp_path / "b.csv"
    assert run("generate", "--size", "20x12", "--colours", "5", "--seed", "9", "-o", a, "-q").returncode == 0
    assert main(["generate", "--size", "20x12", "--colors", "5", "--seed", "9", "-o", str(b), "-q"]) == 0
    assert a.read_text() == b.read_text()
    board = read_board_csv(a)
    assert (board.height, board.width, board.n_colours) == (12, 20, 5)
    assert board.cells.tolist() == random_board(20, 12, 5, seed=9).cells.tolist()


def test_generate_to_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    code, stdout, _ = solve_in_process(capsys, "generate", "--size", "3x2", "--colours", "2", "--seed", "1")
    assert code == 0
    assert stdout == str(random_board(3, 2, 2, seed=1)) + "\n"


def test_generate_logs_a_new_seed_that_reproduces_the_board(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "b.csv"
    code, stdout, _ = solve_in_process(capsys, "generate", "--size", "6x5", "--colours", "3", "-o", out)
    assert code == 0
    seed = int(re.search(r"seed (\d+)", stdout).group(1))  # type: ignore[union-attr]
    assert read_board_csv(out).cells.tolist() == random_board(6, 5, 3, seed=seed).cells.tolist()


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--size", "0x3", "--colours", "2"], "size '0x3' needs a width and height of at least 1"),
        (["--size", "3x3", "--colours", "0"], "colours must be at least 1"),
        (["--size", "ten", "--colours", "2"], "size 'ten' is not WIDTHxHEIGHT"),
        (["--colours", "2"], "the following arguments are required: --size"),
    ],
)
def test_generate_errors(capsys: pytest.CaptureFixture[str], args: list[str], fragment: str) -> None:
    code, _, stderr = solve_in_process(capsys, "generate", *args)
    assert code == 2
    assert_one_line_error(stderr, fragment)


# --------------------------------------------------------------------------- signals


RUNNER = textwrap.dedent(
    """
    # Test-only solvers: "sleepy" answers at once, then waits for a stop request;
    # "stubborn" answers at once, then ignores every stop request.
    import sys, time
    from colorit.solvers import get_solver, register
    from colorit.cli import main

    @register("sleepy", "test: linear's answer, then wait for a stop")
    def sleepy(graph, control):
        outcome = get_solver("linear").fn(graph, control)
        while not control.should_stop():
            time.sleep(0.01)
        outcome.stopped = control.stop_reason
        return outcome

    @register("stubborn", "test: linear's answer, then never return")
    def stubborn(graph, control):
        get_solver("linear").fn(graph, control)
        while True:
            time.sleep(0.05)

    sys.exit(main())
    """
)


class Running:
    """A colorit process run by the test runner, its stdout in a file one can poll."""

    def __init__(self, tmp_path: Path, *args: object) -> None:
        runner = tmp_path / "runner.py"
        runner.write_text(RUNNER)
        self.stdout_path = tmp_path / "stdout.txt"
        self.stderr_path = tmp_path / "stderr.txt"
        with open(self.stdout_path, "w") as out, open(self.stderr_path, "w") as err:
            self.proc = subprocess.Popen(
                [sys.executable, str(runner), *map(str, args)], stdout=out, stderr=err, env=env()
            )

    def wait_for(self, text: str, timeout: float = 30) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if text in self.stdout_path.read_text():
                return
            if self.proc.poll() is not None:
                break
            time.sleep(0.02)
        self.proc.kill()
        raise AssertionError(f"never printed {text!r}: {self.stdout_path.read_text()} {self.stderr_path.read_text()}")

    def finish(self, timeout: float = 20) -> tuple[int, str, str]:
        try:
            code = self.proc.wait(timeout)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
        return code, self.stdout_path.read_text(), self.stderr_path.read_text()


@pytest.mark.parametrize(("sig", "code", "name"), [(signal.SIGTERM, 143, "SIGTERM"), (signal.SIGINT, 130, "SIGINT")])
def test_signal_writes_the_best_answer_and_exits_128_plus_signal(
    tmp_path: Path, sig: signal.Signals, code: int, name: str
) -> None:
    board, out = board_file(tmp_path, ROOT.joinpath("demofiles", "board-14x14.csv").read_text()), tmp_path / "out.csv"
    run_ = Running(tmp_path, board, out, "--algo", "sleepy", "--time-limit", "600")
    run_.wait_for("improved:")
    t0 = time.monotonic()
    run_.proc.send_signal(sig)
    got, stdout, stderr = run_.finish()
    assert time.monotonic() - t0 < 5
    assert got == code, stderr
    assert "Traceback" not in stderr
    assert f"interrupted by {name}: the answer is the best found so far" in stdout
    moves = check_answer(board, out)
    assert f"wrote {len(moves)} moves" in stdout


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_burst_of_signals_writes_the_best_answer_once(tmp_path: Path, sig: signal.Signals, code: int) -> None:
    board, out = board_file(tmp_path), tmp_path / "out.csv"
    out.write_text("precious\n")
    run_ = Running(tmp_path, board, out, "--algo", "stubborn", "--time-limit", "600")
    run_.wait_for("improved:")
    for _ in range(3):  # what timeout, a kill of a process group or a nervous Ctrl-C send
        run_.proc.send_signal(sig)
        time.sleep(0.005)
    got, stdout, stderr = run_.finish(timeout=5)
    assert got == code, stderr
    assert "Traceback" not in stderr and "again" not in stderr
    assert stdout.count("interrupted by") == 1
    moves = check_answer(board, out)
    assert stdout.count(f"wrote {len(moves)} moves") == 1
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".out")] == []


def test_a_solver_overrunning_its_deadline_is_cut_short(tmp_path: Path) -> None:
    board, out = board_file(tmp_path), tmp_path / "out.csv"
    run_ = Running(tmp_path, board, out, "--algo", "stubborn", "--time-limit", "3")
    t0 = time.monotonic()
    code, stdout, stderr = run_.finish(timeout=20)
    assert code == 0
    assert time.monotonic() - t0 < 3.5
    assert stderr == ""  # no warning: the guard answered on time, as promised
    assert "the search was stopped by the time limit" in stdout
    done = float(re.search(r"done in ([\d.]+) s", stdout).group(1))  # type: ignore[union-attr]
    assert done < 3.0  # written within the limit, counted from the process start
    check_answer(board, out)


def test_sigterm_stops_a_real_search_on_a_big_board(tmp_path: Path) -> None:
    board, out = tmp_path / "big.csv", tmp_path / "out.csv"
    write_board_csv(board, random_board(60, 60, 8, seed=5))
    run_ = Running(tmp_path, board, out, "--algo", "dfs", "--time-limit", "600")
    run_.wait_for("improved:")
    run_.proc.send_signal(signal.SIGTERM)
    code, stdout, stderr = run_.finish(timeout=15)
    assert code == 143, stderr
    assert "interrupted by SIGTERM" in stdout
    check_answer(board, out)
