"""``colorit bench --scheduler``: a real Dask LocalCluster (two worker processes on
127.0.0.1, started once for the module) gives the same answers file as a local run, a
worker killed mid-run loses no board, a stop request stops the workers' searches, a
resume on the cluster solves only what the journal lacks; an unreachable scheduler, one
without workers and a missing Dask are one-line errors."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("distributed")

from colorit.batch.dask_client import MAX_CHUNK, ChunkPlanner, DaskRunner
from colorit.batch.dask_connection import INSTALL_HINT, SchedulerUnreachable, parse_scheduler
from colorit.batch.journal import JournalWriter, journal_path
from colorit.batch.solving import BoardResult, StopFlag, solve_boards
from colorit.cli import main as cli_main
from colorit.errors import ColoritError
from colorit.game.generate import random_board
from colorit.io.datasets import ALPHABET, decode_moves, read_boards
from colorit.solvers import Limits

REPO = Path(__file__).resolve().parents[1]


def make_set(folder: Path, n: int, side: int, colours: int, seed: int) -> Path:
    rng = np.random.default_rng(seed)
    grids = rng.integers(1, colours + 1, size=(n, side, side))
    path = folder / f"b{side}c{colours}n{n}.txt"
    path.write_text("".join("".join(ALPHABET[v - 1] for v in g.ravel()) + "\n" for g in grids))
    return path


def env() -> dict[str, str]:
    e = {k: v for k, v in os.environ.items() if k != "COLORIT_CLOCK_START"}
    e["PYTHONPATH"] = str(REPO) + os.pathsep + e.get("PYTHONPATH", "")
    return e


@pytest.fixture(scope="module")
def cluster() -> Iterator[tuple[str, object]]:
    """A LocalCluster of two one-thread worker processes on 127.0.0.1: (address, client)."""
    from distributed import Client, LocalCluster

    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address="127.0.0.1:0", silence_logs=50
    ) as lc, Client(lc, set_as_default=False) as client:
        yield lc.scheduler_address, client


@pytest.fixture
def address(cluster: tuple[str, object]) -> str:
    """The cluster's address, with both workers up (a test may have killed one)."""
    addr, client = cluster
    client.wait_for_workers(2, timeout=60)  # type: ignore[attr-defined]
    return addr


def bench(*args: object) -> int:
    return cli_main(["bench", *map(str, args)])


@pytest.mark.parametrize("algo", ["greedy", "auto"])
def test_the_cluster_writes_the_same_answers_file_as_a_local_run(
    tmp_path: Path, address: str, algo: str, capsys: pytest.CaptureFixture[str]
) -> None:
    boards_file = make_set(tmp_path, n=50, side=7, colours=5, seed=11)
    local, remote, summary = tmp_path / "local.txt", tmp_path / "cluster.txt", tmp_path / "s.json"
    assert bench(boards_file, "--algo", algo, "--solutions", local, "-q") == 0
    assert bench(boards_file, "--algo", algo, "--solutions", remote, "--json", summary, "--scheduler", address) == 0
    assert remote.read_bytes() == local.read_bytes()
    assert len(local.read_text().splitlines()) == 50
    doc = json.loads(summary.read_text())
    assert doc["boards"] == 50 and doc["scheduler"] == address and doc["workers"] == 2
    assert not journal_path(remote).exists()  # the run is complete: the journal is gone
    err = capsys.readouterr().err
    assert f"Dask scheduler {address}: 2 workers, 2 threads" in err
    assert "bench: 50/50 boards (100%)" in err  # progress follows the chunks to the end


def test_a_worker_killed_mid_run_loses_no_board(tmp_path: Path, cluster: tuple[str, object], address: str) -> None:
    """Boards of 0.3 s each; at the first answers, the worker that is solving a chunk is
    killed with SIGKILL: the scheduler runs its chunk elsewhere, every board is answered."""
    _, client = cluster
    boards = read_boards(make_set(tmp_path, n=16, side=40, colours=8, seed=5))
    runner = DaskRunner(client, address)
    killed: list[int] = []

    def kill_a_busy_worker(first: int, chunk: list[BoardResult | None]) -> None:
        if killed:
            return
        busy = [w for w, keys in client.processing().items() if keys]  # type: ignore[attr-defined]
        assert busy, "no chunk pending when the first answers came"
        pid = client.run(os.getpid, workers=[busy[0]])[busy[0]]  # type: ignore[attr-defined]
        os.kill(pid, signal.SIGKILL)
        killed.append(pid)

    results = solve_boards(boards, "dfs", Limits(time=0.3), runner, on_results=kill_a_busy_worker)
    assert killed
    with pytest.raises(ProcessLookupError):
        os.kill(killed[0], 0)  # it really died
    assert runner.chunks_failed == 0
    for board, r in zip(boards, results):
        assert r is not None and not r.error
        board.check(r.moves)


def test_a_stop_request_stops_the_searches_on_the_workers(tmp_path: Path, cluster: tuple[str, object], address: str) -> None:
    """Searches of up to 60 s each, a stop request after 3 s: the run ends within
    seconds, the running boards come back with their best answers, the others unsolved."""
    _, client = cluster
    boards = read_boards(make_set(tmp_path, n=8, side=40, colours=8, seed=9))
    runner = DaskRunner(client, address)
    stop = StopFlag()
    timer = threading.Timer(3.0, stop.set)
    timer.start()
    t0 = time.monotonic()
    results = solve_boards(boards, "dfs", Limits(time=60), runner, stop=stop)
    took = time.monotonic() - t0
    timer.cancel()
    # the stop ended it, not the 60 s limit (wide margin for a loaded CI machine;
    # benchmarks/promises.py measures the promise)
    assert took < 40, took
    answered = [(board, r) for board, r in zip(boards, results) if r is not None]
    assert 1 <= len(answered) <= 2  # the two running searches, stopped with their answers
    for board, r in answered:
        assert r.stopped == "signal" and not r.error
        board.check(r.moves)


def test_ctrl_c_writes_what_the_cluster_answered_and_says_what_is_missing(tmp_path: Path, address: str) -> None:
    """SIGINT to a bench of 60 s searches on the cluster: it ends within seconds with
    130, the stopped searches' answers written, a note of the boards not solved, and
    the journal kept for --resume."""
    boards_file = make_set(tmp_path, n=8, side=40, colours=8, seed=21)
    out = tmp_path / "out.txt"
    cmd = [sys.executable, "-m", "colorit", "bench", str(boards_file), "--algo", "dfs", "--time-limit", "60",
           "--solutions", str(out), "--scheduler", address]  # fmt: skip
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env())
    assert proc.stderr is not None
    first = proc.stderr.readline()  # the cluster's description: connected, kernels warm
    assert f"Dask scheduler {address}" in first, first
    time.sleep(4.0)  # the kernels loaded on both workers, a search running on each
    t0 = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out_text, err = proc.communicate(timeout=60)
    # the interrupt ended it, not the 60 s limit (wide margin for a loaded CI machine; benchmarks/promises.py measures the promise)
    assert time.monotonic() - t0 < 40
    assert proc.returncode == 130, err
    stopped = re.search(r"interrupted: (\d) of 8 boards solved; not solved: boards \d", err)
    assert stopped is not None, err
    assert int(stopped.group(1)) in (1, 2)  # the running searches, stopped with their answers
    assert f"{stopped.group(1)} signal" in out_text
    assert f"{journal_path(out)}: keeps 0 of 8 answers; the same command with --resume solves the other 8" in err
    assert "Traceback" not in err
    boards = read_boards(boards_file)
    lines = out.read_text().splitlines()
    assert len(lines) <= 2  # the answers up to the first board not solved
    for board, line in zip(boards, lines):
        board.check(decode_moves(line))


def test_resume_on_the_cluster_solves_only_what_the_journal_lacks(
    tmp_path: Path, address: str, capsys: pytest.CaptureFixture[str]
) -> None:
    boards_file = make_set(tmp_path, n=30, side=7, colours=5, seed=2)
    whole, out, summary = tmp_path / "whole.txt", tmp_path / "out.txt", tmp_path / "s.json"
    assert bench(boards_file, "--algo", "greedy", "--solutions", whole, "-q", "--json", summary) == 0
    boards = read_boards(boards_file)
    results = solve_boards(boards, "greedy", Limits(time=60))
    kept = {i: r for i, r in enumerate(results) if r is not None and i % 3 != 1}  # 20 of 30
    JournalWriter(journal_path(out), boards, {"algo": "greedy", "time_limit": 60.0}, kept).close()
    capsys.readouterr()
    assert bench(boards_file, "--algo", "greedy", "--solutions", out, "--resume", "--scheduler", address, "--json", summary, "-q") == 0
    assert out.read_bytes() == whole.read_bytes()
    assert "resumed 20 answers from" in capsys.readouterr().err
    doc = json.loads(summary.read_text())
    assert (doc["boards"], doc["resumed"], doc["solved"]) == (30, 20, 10)
    assert not journal_path(out).exists()


def test_workers_get_glibc_allocator_defaults_back(cluster: tuple[str, object], address: str) -> None:
    """Dask's nanny sets MALLOC_TRIM_THRESHOLD_ in its workers, which slows searches;
    each worker raises the mmap threshold back (here, where it is not set: nothing)."""
    from colorit.batch import dask_worker as module

    _, client = cluster
    envs = client.run(lambda: "MALLOC_TRIM_THRESHOLD_" in os.environ)  # type: ignore[attr-defined]
    assert envs and all(envs.values())
    assert all(client.run(module._tune_malloc).values())  # type: ignore[attr-defined]
    if "MALLOC_TRIM_THRESHOLD_" not in os.environ:
        assert module._tune_malloc() is False


def test_a_worker_of_another_version_is_refused(address: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The workers run this checkout's colorit; a client that says it is another
    version is refused before any board is sent, in one line."""
    import colorit

    monkeypatch.setattr(colorit, "__version__", "0.0.0+other")
    with pytest.raises(SchedulerUnreachable) as info:
        DaskRunner.start(address)
    message = str(info.value)
    assert re.fullmatch(r"the Dask worker \S+ runs colorit \S+, this is 0\.0\.0\+other; install the same version everywhere", message)


def test_the_runner_warms_every_worker_at_the_widths_of_its_boards(cluster: tuple[str, object], address: str) -> None:
    from colorit.batch import dask_worker
    from colorit.runtime.warmup import widths_for

    _, client = cluster
    boards = [random_board(side, side, 6, seed=side) for side in (6, 20)]
    runner = DaskRunner(client, address)
    runner.warm("auto", boards)
    assert runner.widths["auto"] == sorted(widths_for("auto", boards)) and len(runner.widths["auto"]) == 2
    loaded = client.run(lambda: sorted(dask_worker._warmed_widths))  # type: ignore[attr-defined]
    assert loaded and all(set(runner.widths["auto"]) <= set(w) for w in loaded.values())
    runner.warm("greedy", boards)
    assert runner.widths["greedy"] == []  # no per-width kernels


def test_a_worker_thread_s_memory_is_its_share_of_half_the_worker_s(monkeypatch: pytest.MonkeyPatch) -> None:
    """``machine.memory_share`` of half the worker's memory limit over its threads, never
    more than the machine has nor than the run's own share."""
    from types import SimpleNamespace

    import distributed

    from colorit import machine
    from colorit.batch.dask_worker import worker_limits

    worker = SimpleNamespace(memory_manager=SimpleNamespace(memory_limit=2 << 30), state=SimpleNamespace(nthreads=4))
    monkeypatch.setattr(distributed, "get_worker", lambda: worker)
    assert worker_limits(Limits(time=1)) == Limits(time=1, memory=machine.memory_share(1 << 30, 4)) == Limits(time=1, memory=256 << 20)
    assert worker_limits(Limits(time=1, memory=100 << 20)).memory == 100 << 20  # the run's share is smaller
    monkeypatch.setattr(machine, "machine_memory", lambda: 200 << 20)
    assert worker_limits(Limits(time=1)).memory == 200 << 20  # the machine has less than the worker's limit says


def test_a_scheduler_without_workers_is_an_error_not_a_hang() -> None:
    from distributed import LocalCluster

    with LocalCluster(n_workers=0, processes=True, host="127.0.0.1", dashboard_address="127.0.0.1:0") as empty:
        t0 = time.monotonic()
        with pytest.raises(SchedulerUnreachable, match="has no workers") as e:
            DaskRunner.start(empty.scheduler_address, workers_wait=1.0)
        # an error, not a hang (wide margin for a loaded CI machine; benchmarks/promises.py measures
        # the promise)
        assert time.monotonic() - t0 < 30
        assert "dask worker" in str(e.value)


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_an_unreachable_scheduler_fails_within_seconds_with_one_line(tmp_path: Path) -> None:
    boards_file = make_set(tmp_path, n=3, side=5, colours=3, seed=1)
    out = tmp_path / "out.txt"
    address = f"tcp://127.0.0.1:{closed_port()}"
    t0 = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-m", "colorit", "bench", str(boards_file), "--solutions", str(out), "--scheduler", address],
        capture_output=True, text=True, env=env(), timeout=60, check=False,
    )  # fmt: skip
    took = time.monotonic() - t0
    assert proc.returncode == 2
    assert took < 45, took  # an error, not a wait for the 60 s timeout (wide margin for a loaded CI machine)
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith(f"colorit: error: cannot reach the Dask scheduler at {address}")
    assert not out.exists() and not journal_path(out).exists()


def test_without_dask_the_error_says_how_to_install_it(tmp_path: Path) -> None:
    """Dask hidden from the process: one line, exit 2, before any work (the board file
    does not even exist)."""
    out = tmp_path / "out.txt"
    hide = (
        "import sys; sys.modules['dask'] = sys.modules['distributed'] = None; "
        "sys.argv[0] = 'colorit'; from colorit.cli import main; main()"
    )
    proc = subprocess.run(
        [sys.executable, "-c", hide, "bench", str(tmp_path / "missing.txt"), "--solutions", str(out), "--scheduler", "local:2"],
        capture_output=True, text=True, env=env(), timeout=60, check=False,
    )  # fmt: skip
    assert proc.returncode == 2
    assert proc.stderr == f"colorit: error: {INSTALL_HINT}\n"
    assert "pip install 'colorit[cluster]'" in proc.stderr
    assert not out.exists()


@pytest.mark.parametrize(
    ("spec", "parsed"),
    [("local:3", "local:3"), (" local:02 ", "local:2"), ("tcp://10.0.0.5:8786", "tcp://10.0.0.5:8786"), ("tls://[::1]:8786", "tls://[::1]:8786")],
)
def test_parse_scheduler(spec: str, parsed: str) -> None:
    assert parse_scheduler(spec) == parsed
    assert parse_scheduler("local").startswith("local:")


@pytest.mark.parametrize(
    "spec", ["local:0", "local:x", "10.0.0.5:8786", "tcp://10.0.0.5", "tcp://:8786", "tcp://h:port", "tcp://h:99999", "inproc://h:1"]
)
def test_parse_scheduler_rejects(spec: str) -> None:
    with pytest.raises(ColoritError, match="scheduler '"):
        parse_scheduler(spec)


def test_bad_scheduler_and_workers_together_are_usage_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    boards_file = make_set(tmp_path, n=2, side=5, colours=3, seed=1)
    assert bench(boards_file, "--scheduler", "nowhere") == 2
    assert "scheduler 'nowhere' is not an address such as tcp://HOST:8786, nor local:N" in capsys.readouterr().err
    assert bench(boards_file, "--scheduler", "local:2", "--workers", "2") == 2
    assert "--workers is for processes on this machine" in capsys.readouterr().err


def test_chunk_sizes_follow_the_board_count_threads_and_time_per_board() -> None:
    planner = ChunkPlanner()
    assert planner.next_size(100_000, 20) == 1  # nothing measured yet: one board a chunk
    fast = BoardResult((1,), False, 0, 0.002, 0, "")
    planner.observe([fast] * 100)
    # 2 s of work at 2 ms a board is 1000 boards, capped by MAX_CHUNK
    assert planner.next_size(100_000, 20) == min(1000, MAX_CHUNK)
    # few boards left: every thread still gets four chunks
    assert planner.next_size(800, 20) == 10
    assert planner.next_size(3, 20) == 1
    slow = ChunkPlanner()
    slow.observe([BoardResult((1,), False, 0, 5.0, 0, "")])
    assert slow.next_size(100_000, 20) == 1  # a board of 5 s is a chunk of its own
