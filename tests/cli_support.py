"""What the CLI tests share: running ``colorit`` in this process or as a process, the
one-line error rule, small board and answer files and sets, and a runner script
that registers test-only solvers in a real ``colorit`` process (for the signal and
deadline tests, which must not depend on how long a real search takes)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from colorit.cli import main
from colorit.io.csvfile import read_board_csv, read_moves_csv
from colorit.io.datasets import ALPHABET

from conftest import HAND_CSV

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "demofiles" / "sample.csv"


def env() -> dict[str, str]:
    """The environment for a ``colorit`` process: this checkout first, and no clock
    marker from ``bin/colorit`` (the limit counts from the process start)."""
    e = {k: v for k, v in os.environ.items() if k != "COLORIT_CLOCK_START"}
    e["PYTHONPATH"] = str(ROOT) + os.pathsep + e.get("PYTHONPATH", "")
    return e


@contextmanager
def web_server(*args: str) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """``python -m colorit.web`` on 127.0.0.1 at a free port with ``args``: its URL and
    its process. Leaving stops it, and fails if it takes more than 15 s to go."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "colorit.web", "--host", "127.0.0.1", "--port", "0", *args],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:\d+", line)
        assert match, f"the server printed no URL: {line!r}"
        yield match.group(0), proc
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            raise AssertionError("the server did not stop within 15 s of SIGTERM") from None


def colorit_cmd(*args: object) -> list[str]:
    return [sys.executable, "-m", "colorit", *map(str, args)]


def run(
    *args: object, timeout: float = 60, cwd: Path | None = None, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    """``python -m colorit ARGS`` in a fresh process."""
    return subprocess.run(
        colorit_cmd(*args),
        check=False,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env(),
        cwd=cwd,
        input=stdin,
    )


def timed_run(*args: object, timeout: float = 60) -> tuple[subprocess.CompletedProcess[str], float]:
    """``run``, and the seconds the whole process took (start to exit)."""
    t0 = time.monotonic()
    proc = run(*args, timeout=timeout)
    return proc, time.monotonic() - t0


def in_process(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str, str]:
    """``colorit ARGS`` through ``colorit.cli.main`` in this process: status, stdout, stderr."""
    code = main([str(a) for a in args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def assert_one_line_error(stderr: str, fragment: str = "") -> str:
    """``stderr`` is exactly one ``colorit: error: ...`` line holding ``fragment``; the
    line is returned."""
    assert "Traceback" not in stderr
    lines = stderr.splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith("colorit: error: "), stderr
    assert fragment in lines[0], stderr
    return lines[0]


def board_file(folder: Path, text: str = HAND_CSV, name: str = "board.csv") -> Path:
    path = folder / name
    path.write_text(text)
    return path


def check_answer(board_path: Path, answer_path: Path, start: str = "top-left") -> list[int]:
    """The answer's moves, after checking that they solve the board."""
    moves = read_moves_csv(answer_path)
    read_board_csv(board_path, start=start).check(moves)
    return moves


def make_set(
    folder: Path, n: int = 20, side: int = 7, colours: int = 5, seed: int = 7, name: str | None = None
) -> Path:
    """``n`` random square boards in the one-board-per-line format of the community's sets."""
    rng = np.random.default_rng(seed)
    grids = rng.integers(1, colours + 1, size=(n, side, side))
    path = folder / (name or f"b{side}c{colours}n{n}.txt")
    path.write_text("".join("".join(ALPHABET[v - 1] for v in g.ravel()) + "\n" for g in grids))
    return path


def write_lengths(path: Path, lengths: list[int]) -> Path:
    path.write_text("".join(f"{n}\n" for n in lengths))
    return path


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
    """A ``colorit`` process (with the test-only solvers of ``RUNNER``) run in the
    background, its output in files one can poll."""

    def __init__(self, tmp_path: Path, *args: object) -> None:
        runner = tmp_path / "runner.py"
        runner.write_text(RUNNER)
        self.stdout_path = tmp_path / "stdout.txt"
        self.stderr_path = tmp_path / "stderr.txt"
        with open(self.stdout_path, "w") as out, open(self.stderr_path, "w") as err:
            self.proc = subprocess.Popen(
                [sys.executable, str(runner), *map(str, args)], stdout=out, stderr=err, env=env()
            )

    def wait_for(self, text: str, timeout: float = 120) -> None:
        # a margin, not a measure: a process starting on a loaded 2-core machine (kernels
        # loading beside other work) has taken over 30 s to print its first line
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


@contextmanager
def registered(name: str, fn: Callable[[Any, Any], Any], summary: str = "test-only solver") -> Iterator[Any]:
    """``fn`` registered as the solver ``name`` for the span of a ``with`` block (and
    gone after it, so ``solver_names()`` in other tests is the library's own)."""
    from colorit.solvers import base

    assert name not in base._REGISTRY
    base.register(name, summary, rank=1000)(fn)
    try:
        yield base.get_solver(name)
    finally:
        base._REGISTRY.pop(name, None)
        base._ALIASES.pop(name, None)


def waiting_solver(first: str = "greedy") -> Callable[[Any, Any], Any]:
    """A test-only solver: ``first``'s answer at once, then nothing until it is asked to
    stop (a search that never ends by itself), returning that answer, stopped."""
    from colorit.solvers import get_solver

    def wait(graph: Any, control: Any) -> Any:
        outcome = get_solver(first).fn(graph, control)
        while not control.should_stop():
            time.sleep(0.005)
        outcome.stopped = control.stop_reason
        return outcome

    return wait
