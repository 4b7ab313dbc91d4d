"""``colorit.runtime.signals``: the exit codes, the signal guard and whole-file writes.

The signal guard is tested in real processes as well (a small script that enters the
guard and sleeps or writes), as signals are about processes.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from colorit import Control, Limits
from colorit.runtime.signals import (
    EXIT_FAILED,
    EXIT_OK,
    EXIT_PIPE,
    EXIT_SIGINT,
    EXIT_SIGTERM,
    EXIT_USAGE,
    SIGNAL_EXIT,
    SignalGuard,
    write_output,
)

from cli_support import env


def test_exit_codes() -> None:
    assert (EXIT_OK, EXIT_FAILED, EXIT_USAGE) == (0, 1, 2)
    assert (EXIT_SIGINT, EXIT_SIGTERM, EXIT_PIPE) == (130, 143, 141)
    assert SIGNAL_EXIT == {int(signal.SIGINT): 130, int(signal.SIGTERM): 143}


def test_guard_first_signal_stops_a_burst_is_one_request() -> None:
    stops: list[int] = []
    guard = SignalGuard()
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
    with SignalGuard() as guard:
        for sig in before:
            assert signal.getsignal(sig) == guard._handle
    assert {sig: signal.getsignal(sig) for sig in before} == before


GUARD_SCRIPT = textwrap.dedent(
    """
    import sys, time
    from colorit.runtime.signals import SignalGuard

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
    time.sleep(SignalGuard.BURST_S + 0.2)
    t0 = time.monotonic()
    p.signal(sig)
    got, lines, err = p.finish()
    # at once, not after the 30 s sleep (wide margin for a loaded CI machine;
    # benchmarks/promises.py measures the promise)
    assert time.monotonic() - t0 < 15
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


def test_write_output_whole_file_and_standard_output(
    tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    out = tmp_path / "out.csv"
    out.write_text("old\n")
    with SignalGuard() as guard:
        write_output(str(out), "1\n2\n", guard)
    assert out.read_text() == "1\n2\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.csv"]  # no temporary left
    write_output("-", b"\x89PNG")
    assert capsysbinary.readouterr().out == b"\x89PNG"
