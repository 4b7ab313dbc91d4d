"""``colorit.cli.core``, what every command shares: the exit codes and the one default
time limit, the argument types (the library's own checks), the clock, the signal guard,
progress lines off a terminal, the file checks and the solve step.

The signal guard is tested in real processes (a small script that enters the guard and
sleeps or writes), as signals are about processes; the rest in this one.
"""

from __future__ import annotations

import argparse
import gc
import io
import os
import re
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import colorit.log as log_module
import colorit.runtime.clock as clock_module
from cli_support import assert_one_line_error, board_file, env, in_process, registered

from colorit import ColoritError, Control, Limits, solve
from colorit.cli import COMMANDS, core
from colorit.errors import OutputError
from colorit.game.generate import random_board
from colorit.machine import format_size, machine_memory
from colorit.solvers import Outcome, Solution, get_solver

# --------------------------------------------------------------------------- exit codes, default


def test_exit_codes() -> None:
    assert (core.EXIT_OK, core.EXIT_FAILED, core.EXIT_USAGE) == (0, 1, 2)
    assert (core.EXIT_SIGINT, core.EXIT_SIGTERM, core.EXIT_PIPE) == (130, 143, 141)
    assert core.SIGNAL_EXIT == {int(signal.SIGINT): 130, int(signal.SIGTERM): 143}


@pytest.mark.parametrize("name", ["solve", "compare", "bench"])
def test_one_default_time_limit_and_its_reason_in_help(name: str) -> None:
    import importlib

    module = importlib.import_module(f"colorit.cli.{COMMANDS[name][0]}")
    parser = core.Parser(prog=f"colorit {name}")
    module.add_arguments(parser)
    action = next(a for a in parser._actions if "--time-limit" in a.option_strings)
    # bench leaves it None when not given (with --budget it is then no cap) and takes the
    # same default itself
    assert action.default == (None if name == "bench" else core.DEFAULT_TIME_LIMIT)
    assert action.help is not None and core.DEFAULT_TIME_LIMIT_WHY in action.help
    assert f"default: {core.DEFAULT_TIME_LIMIT:g} s" in core.DEFAULT_TIME_LIMIT_WHY


# --------------------------------------------------------------------------- argument types


@pytest.mark.parametrize(("text", "seconds"), [("10", 10.0), ("0.5", 0.5), ("2e3", 2000.0), (" 1 ", 1.0)])
def test_seconds_arg(text: str, seconds: float) -> None:
    assert core.seconds_arg()(text) == seconds


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
        core.seconds_arg("--time-limit")(text)
    assert str(info.value) == f"--time-limit {message}"
    with pytest.raises(ColoritError) as lib:  # the library's check says the same of its value
        core.parse_seconds(text)
    assert str(lib.value) == f"time limit {message}"


def test_pause_arg_takes_zero_and_refuses_negatives() -> None:
    delay = core.pause_arg("--delay", 10.0)
    assert delay("0") == 0.0 and delay("0.25") == 0.25 and delay("10") == 10.0
    for bad, shown in (("-1", "-1"), ("11", "11"), ("nan", "nan")):
        with pytest.raises(argparse.ArgumentTypeError) as info:
            delay(bad)
        assert str(info.value) == f"--delay must be between 0 and 10 seconds, got {shown}"
    with pytest.raises(argparse.ArgumentTypeError, match=r"^--delay 'soon' is not a number of seconds$"):
        delay("soon")


def test_memory_arg() -> None:
    memory = core.memory_arg("--max-memory")
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
    assert core.name_option("--x", message, noun) == named


def test_count_arg() -> None:
    limit = core.count_arg(1, "--limit")
    assert limit("3") == 3 and limit(" 7 ") == 7
    with pytest.raises(argparse.ArgumentTypeError, match=r"^--limit must be at least 1, got 0$"):
        limit("0")
    with pytest.raises(argparse.ArgumentTypeError, match=r"^--limit must be a whole number, got '2.5'$"):
        limit("2.5")
    assert core.count_arg(0, "seed")("0") == 0


def test_parser_errors_are_usage_errors_naming_the_help() -> None:
    parser = core.Parser(prog="colorit thing")
    core.add_time_limit(parser, "seconds")
    with pytest.raises(core.UsageError) as info:
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
    assert f"pip install 'colorit[" in line
    assert out == ""
    assert sorted(p.name for p in tmp_path.iterdir()) == ["board.csv"]


# --------------------------------------------------------------------------- the clock


def test_clock_from_a_call_is_now() -> None:
    before = time.monotonic()
    assert before <= core.clock_start(from_process_start=False) <= time.monotonic()


def test_clock_counts_from_the_process_start() -> None:
    """Interpreter start and imports count against a command line's time limit."""
    script = "import time; time.sleep(0.6); from colorit.cli import core; print(time.monotonic() - core.clock_start())"
    proc = subprocess.run(
        [sys.executable, "-c", script], check=False, capture_output=True, text=True, env=env(), timeout=30
    )
    assert proc.returncode == 0, proc.stderr
    age = float(proc.stdout)
    assert 0.6 <= age < 10


def test_clock_starts_after_bin_colorit_setup(monkeypatch: pytest.MonkeyPatch) -> None:
    """``COLORIT_CLOCK_START`` (epoch seconds, set by ``bin/colorit`` after a first-run
    setup) moves the start later than the process start, never before the import."""
    monkeypatch.setattr(clock_module, "_IMPORTED_AT", time.monotonic() - 0.1)
    monkeypatch.setenv(clock_module.CLOCK_ENV, repr(time.time() - 0.5))
    age = time.monotonic() - clock_module.clock_start()
    assert 0.45 <= age < 0.6
    monkeypatch.setenv(clock_module.CLOCK_ENV, "not a time")
    assert time.monotonic() - clock_module.clock_start() >= 0.1


# --------------------------------------------------------------------------- signal guard, in process


def test_guard_first_signal_stops_a_burst_is_one_request() -> None:
    stops: list[int] = []
    guard = core.SignalGuard()
    guard.on_stop(lambda: stops.append(1))
    control = guard.watch(Control(Limits(time=60)))
    assert not guard.requested and guard.exit_code == 0 and guard.signal_name == ""
    guard._handle(int(signal.SIGTERM), None)
    guard._handle(int(signal.SIGINT), None)  # within BURST_S: the same request
    assert stops == [1]
    assert control.stop_reason == "signal"
    assert guard.requested and guard.exit_code == 143 and guard.signal_name == "SIGTERM"
    late: list[int] = []
    guard.on_stop(lambda: late.append(1))  # added after the signal: called at once
    assert late == [1]


def test_guard_installs_and_restores_the_handlers() -> None:
    before = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    with core.SignalGuard() as guard:
        for sig in before:
            assert signal.getsignal(sig) == guard._handle
    assert {sig: signal.getsignal(sig) for sig in before} == before


GUARD_SCRIPT = textwrap.dedent(
    """
    import sys, time
    from colorit.cli.core import SignalGuard

    mode = sys.argv[1]
    stops = 0

    def stop():
        global stops
        stops += 1
        print(f"stop {stops}", flush=True)

    with SignalGuard() as guard:
        guard.on_stop(stop)
        print("ready", flush=True)
        if mode == "sleep":
            end = time.monotonic() + float(sys.argv[2])
            while time.monotonic() < end:
                time.sleep(0.01)
        else:  # write: after the first signal and past the burst window, a slow write
            while not guard.requested:
                time.sleep(0.01)
            time.sleep(1.3)
            with guard.writing():
                print("writing", flush=True)
                with open(sys.argv[2], "w") as f:
                    for i in range(20):
                        f.write(f"line {i}\\n")
                        f.flush()
                        time.sleep(0.05)
                print("written", flush=True)
            print("after the write", flush=True)
    print(f"exit {guard.exit_code} after {stops} stop", flush=True)
    sys.exit(guard.exit_code)
    """
)


class GuardProcess:
    def __init__(self, tmp_path: Path, *args: object) -> None:
        script = tmp_path / "guard.py"
        script.write_text(GUARD_SCRIPT)
        self.proc = subprocess.Popen(
            [sys.executable, str(script), *map(str, args)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env(),
        )
        self.lines: list[str] = []

    def wait_for(self, text: str) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:  # blocks until the line comes (or the process ends)
            self.lines.append(line.rstrip("\n"))
            if line.startswith(text):
                return
        raise AssertionError(f"never printed {text!r}: {self.lines}")

    def signal(self, sig: int) -> None:
        self.proc.send_signal(sig)

    def finish(self, timeout: float = 15) -> tuple[int, list[str], str]:
        try:
            out, err = self.proc.communicate(timeout=timeout)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
        return self.proc.returncode, self.lines + out.splitlines(), err


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGTERM, 143)])
def test_one_signal_calls_the_stop_hooks_once(tmp_path: Path, sig: int, code: int) -> None:
    p = GuardProcess(tmp_path, "sleep", 1.0)
    p.wait_for("ready")
    p.signal(sig)
    got, lines, err = p.finish()
    assert (got, err) == (code, "")
    assert lines == ["ready", "stop 1", f"exit {code} after 1 stop"]


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_burst_of_three_within_a_second_is_one_request(tmp_path: Path, sig: int, code: int) -> None:
    p = GuardProcess(tmp_path, "sleep", 1.5)
    p.wait_for("ready")
    for k in range(3):  # 0, 0.35 and 0.7 s after the first
        if k:
            time.sleep(0.35)
        p.signal(sig)
    got, lines, err = p.finish()
    assert (got, err) == (code, "")
    assert lines == ["ready", "stop 1", f"exit {code} after 1 stop"]


@pytest.mark.parametrize(("sig", "code", "name"), [(signal.SIGTERM, 143, "SIGTERM"), (signal.SIGINT, 130, "SIGINT")])
def test_a_second_signal_after_a_second_aborts(tmp_path: Path, sig: int, code: int, name: str) -> None:
    p = GuardProcess(tmp_path, "sleep", 30)
    p.wait_for("ready")
    p.signal(sig)
    p.wait_for("stop 1")
    time.sleep(core.SignalGuard.BURST_S + 0.2)
    t0 = time.monotonic()
    p.signal(sig)
    got, lines, err = p.finish()
    assert time.monotonic() - t0 < 15  # at once, not after the 30 s sleep (wide margin for a loaded CI machine; benchmarks/promises.py measures the promise)
    assert got == code
    assert lines == ["ready", "stop 1"]  # nothing after the abort
    assert err == f"colorit: error: {name} again: exiting without writing an answer\n"


def test_a_late_signal_never_cuts_a_write(tmp_path: Path) -> None:
    out = tmp_path / "answer.txt"
    p = GuardProcess(tmp_path, "write", out)
    p.wait_for("ready")
    p.signal(signal.SIGTERM)
    p.wait_for("writing")
    p.signal(signal.SIGTERM)  # 1.3 s after the first: an abort, but a write is under way
    got, lines, err = p.finish()
    assert got == 143
    assert out.read_text() == "".join(f"line {i}\n" for i in range(20))  # whole
    assert lines == ["ready", "stop 1", "writing", "written"]  # then the abort
    assert err == "colorit: error: SIGTERM again: exiting without writing an answer\n"


# --------------------------------------------------------------------------- progress

PLAIN = re.compile(r"^colorit bench: (\d+)/(\d+) boards \((\d+)%\)(, [^,]+ moves)?, \d+ s(, about \d+ s left)?$")


class FakeTime:
    """Stands in for the ``time`` module in ``core``: a clock the test moves."""

    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


class TTY(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_off_a_terminal_is_a_line_per_few_percent() -> None:
    stream = io.StringIO()
    progress = core.Progress(1000, "boards", label="bench", stream=stream)
    for k in range(1000):
        progress.update(1, note=f"{k} moves")
    progress.close()
    lines = stream.getvalue().splitlines()
    assert 10 <= len(lines) <= 22, lines
    counts = []
    for line in lines:
        m = PLAIN.match(line)
        assert m, line
        counts.append(int(m.group(1)))
        assert int(m.group(2)) == 1000 and int(m.group(3)) == round(counts[-1] / 10)
    assert counts == sorted(set(counts))
    assert counts[-1] == 1000 and lines[-1].startswith("colorit bench: 1000/1000 boards (100%), 999 moves")


def test_progress_a_line_every_ten_seconds(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = FakeTime()
    monkeypatch.setattr(log_module, "time", clock)
    stream = io.StringIO()
    progress = core.Progress(10_000, "boards", label="bench", stream=stream)  # 1 board is 0.01%
    clock.now += 9.0
    progress.update(1)
    assert stream.getvalue() == ""  # 9 s and 0.01%: no line yet
    clock.now += 1.5
    progress.update(1)
    assert stream.getvalue().splitlines() == ["colorit bench: 2/10000 boards (0%), 10 s, about 52490 s left"]
    clock.now += 5.0
    progress.update(1)
    assert len(stream.getvalue().splitlines()) == 1  # 5 s since the last line
    clock.now += 5.0
    progress.update(1)
    assert stream.getvalue().splitlines()[-1].startswith("colorit bench: 4/10000 boards (0%), 20 s")
    clock.now += 30.0
    progress.update(0)  # no new board: no line, however long it has been
    assert len(stream.getvalue().splitlines()) == 2


def test_progress_last_line_at_close() -> None:
    stream = io.StringIO()
    progress = core.Progress(10, "algorithms", label="compare", stream=stream, every_pct=50)
    progress.update(3, note="greedy: 12 moves")
    assert stream.getvalue() == ""
    progress.close()
    assert stream.getvalue() == "colorit compare: 3/10 algorithms (30%), greedy: 12 moves, 0 s, about 0 s left\n"
    progress.close()  # nothing new: no second line
    assert stream.getvalue().count("\n") == 1


def test_progress_on_a_terminal_is_a_bar_not_lines() -> None:
    stream = TTY()
    progress = core.Progress(200, "boards", label="bench", stream=stream)
    for _ in range(200):
        progress.update(1, note="3 moves")
    progress.close()
    text = stream.getvalue()
    assert "200/200" in text and "\r" in text  # the bar was drawn
    assert not any(PLAIN.match(line) for line in re.split(r"[\r\n]", text))


@pytest.mark.parametrize("stream", [io.StringIO(), TTY()], ids=["pipe", "tty"])
def test_progress_disabled_or_empty_says_nothing(stream: io.StringIO) -> None:
    for progress in (
        core.Progress(50, "boards", label="bench", stream=stream, enabled=False),
        core.Progress(0, "boards", label="bench", stream=stream),
    ):
        for _ in range(50):
            progress.update(1)
        progress.close()
    assert stream.getvalue() == ""


# --------------------------------------------------------------------------- file checks


def refused(inputs: list[object], outputs: list[object], fragment: str) -> None:
    with pytest.raises(ColoritError) as info:
        core.check_files(
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
    core.check_files(["-"], ["-"])  # standard input to standard output is fine
    core.check_files(["-", str(board_file(tmp_path))], ["-", None, str(tmp_path / "out.csv")])


def test_check_files_refuses_unwritable_outputs(tmp_path: Path) -> None:
    with pytest.raises(OutputError, match="is a directory"):
        core.check_files([], [str(tmp_path)])
    with pytest.raises(OutputError, match="folder .* does not exist"):
        core.check_files([], [str(tmp_path / "nodir" / "out.csv")])


def test_write_output_whole_file_and_standard_output(
    tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    out = tmp_path / "out.csv"
    out.write_text("old\n")
    with core.SignalGuard() as guard:
        core.write_output(str(out), "1\n2\n", guard)
    assert out.read_text() == "1\n2\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.csv"]  # no temporary left
    core.write_output("-", b"\x89PNG")
    assert capsysbinary.readouterr().out == b"\x89PNG"


def test_read_board_from_standard_input(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"1,2\n3,1\n")))
    board = core.read_board("-", start="1,1")
    assert board.cells.tolist() == [[1, 2], [3, 1]] and board.start == (1, 1)


# --------------------------------------------------------------------------- the solve step


def test_describe() -> None:
    assert core.describe(Solution((1, 2), True, 2, 0.1)) == "proven optimal: 2 moves"
    assert core.describe(Solution((1, 2, 3, 4), False, 3, 0.1)) == "best found, 4 moves; lower bound 3 (gap 33.3%)"
    assert core.describe(Solution((1, 2, 3), False, 0, 0.1)) == "best found, 3 moves; no lower bound known"


def sleepy(graph, control):  # type: ignore[no-untyped-def]
    """A test solver: the basic AI's answer at once, then wait for a stop."""
    outcome: Outcome = get_solver("linear").fn(graph, control)
    while not control.should_stop():
        time.sleep(0.005)
    outcome.stopped = control.stop_reason
    return outcome


def test_solve_on_time_answers_by_the_limit_counted_from_the_start() -> None:
    board = random_board(30, 30, 6, seed=4)
    solve(board, "linear")  # the kernels the held answer needs, loaded before the clock
    with registered("sleepy-core", sleepy):
        started = time.monotonic() - 0.3  # as if the process had started 0.3 s ago
        ctx = core.Context(started=started, from_process_start=True)
        improved: list[tuple[int, float]] = []
        sol = core.solve_on_time(
            board,
            "sleepy-core",
            0.6,
            None,
            ctx,
            core.SignalGuard(),
            on_improve=lambda n, lb, t: improved.append((n, t)),
        )
        done = time.monotonic() - started
    # by the limit, not by the solver (wide margin for a loaded CI machine; benchmarks/promises.py measures the promise)
    assert 0.5 <= done < 5
    assert sol.stopped == "time" and sol.algo == "sleepy-core"
    board.check(list(sol.moves))
    assert improved and improved[0][0] == len(sol.moves)
    assert improved[0][1] >= 0.3  # elapsed is counted from the start, not from the call


def test_solve_within_stops_on_a_signal() -> None:
    board = random_board(30, 30, 6, seed=4)
    guard = core.SignalGuard()
    with registered("sleepy-core", sleepy):
        guard._handle(int(signal.SIGINT), None)  # the signal came before the solve
        t0 = time.monotonic()
        sol = core.solve_within(board, "sleepy-core", 30.0, None, guard)
    assert time.monotonic() - t0 < 10  # at once, not after the 30 s limit (wide margin for a loaded CI machine; benchmarks/promises.py measures the promise)
    assert sol.stopped == "signal"
    board.check(list(sol.moves))


def test_the_collector_waits_for_the_start_and_then_sets_it_aside() -> None:
    """While a command starts the young generation's threshold is high (its imports and
    kernels allocate much and free little); ``settle_collection`` freezes what the start
    made and restores the thresholds; without a deferred start it changes nothing."""
    before = gc.get_threshold()
    frozen = gc.get_freeze_count()
    try:
        core.settle_collection()
        assert gc.get_threshold() == before and gc.get_freeze_count() == frozen
        core.defer_collection()
        core.defer_collection()  # twice: the thresholds to restore are still the first
        assert gc.get_threshold() == (clock_module.START_GC_THRESHOLD, before[1], before[2])
        kept = [object() for _ in range(10)]
        core.settle_collection()
        assert gc.get_threshold() == before
        assert gc.get_freeze_count() > frozen + len(kept) - 1
    finally:
        gc.set_threshold(*before)
        gc.unfreeze()
