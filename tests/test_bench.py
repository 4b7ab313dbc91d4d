"""``colorit bench``: answers in input order whatever the worker count, the summary, the
comparison with known lengths and its exit status, a clean stop on Ctrl-C."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from colorit import solve
from colorit.bench import SUMMARY_KEYS
from colorit.cli import main as cli_main
from colorit.limits import check_memory as parse_size


def main(argv: list[str]) -> int:
    return cli_main(["bench", *argv])
from colorit.datasets import ALPHABET, decode_moves, read_boards
from colorit.errors import ColoritError

REPO = Path(__file__).resolve().parents[1]


def make_set(folder: Path, n: int = 20, side: int = 7, colours: int = 5, seed: int = 7) -> Path:
    """``n`` random boards in the one-board-per-line format."""
    rng = np.random.default_rng(seed)
    grids = rng.integers(1, colours + 1, size=(n, side, side))
    path = folder / f"b{side}c{colours}n{n}.txt"
    path.write_text("".join("".join(ALPHABET[v - 1] for v in g.ravel()) + "\n" for g in grids))
    return path


def greedy_lengths(path: Path) -> list[int]:
    return [len(solve(b, "greedy").moves) for b in read_boards(path)]


def write_lengths(path: Path, lengths: list[int]) -> Path:
    path.write_text("".join(f"{n}\n" for n in lengths))
    return path


def test_solutions_in_input_order_and_the_same_with_two_workers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    boards_file = make_set(tmp_path)
    outs = []
    for workers in (1, 2):
        out = tmp_path / f"sol{workers}.txt"
        code = main([str(boards_file), "--algo", "greedy", "--workers", str(workers), "--solutions", str(out), "--quiet"])
        assert code == 0
        outs.append(out.read_text())
    assert outs[0] == outs[1]
    lines = outs[0].splitlines()
    boards = read_boards(boards_file)
    assert len(lines) == len(boards) == 20
    for board, line, expected in zip(boards, lines, greedy_lengths(boards_file)):
        moves = decode_moves(line)
        board.check(moves)  # the line solves its own board: the order is the input order
        assert len(moves) == expected
    assert "total_moves" in capsys.readouterr().out


def test_json_summary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    boards_file = make_set(tmp_path, n=6)
    summary = tmp_path / "summary.json"
    code = main([str(boards_file), "--algo", "greedy", "--json", str(summary), "--quiet"])
    assert code == 0
    doc = json.loads(summary.read_text())
    assert set(SUMMARY_KEYS) <= set(doc)
    assert doc["boards"] == 6
    assert doc["total_moves"] == sum(greedy_lengths(boards_file))
    assert doc["proven"] == 0 and doc["proven_moves"] == 0  # greedy proves nothing on random boards
    assert 0 < doc["median_ms"] <= doc["max_ms"]
    assert doc["peak_rss_mb"] > 10
    assert doc["wall_s"] > 0 and doc["interrupted"] is False
    printed = capsys.readouterr().out
    for key in SUMMARY_KEYS:
        assert key in printed
    assert any(line.split() == ["total_moves", str(doc["total_moves"])] for line in printed.splitlines())


def test_json_summary_counts_the_proven_moves(tmp_path: Path) -> None:
    boards_file = make_set(tmp_path, n=4)
    summary = tmp_path / "summary.json"
    assert main([str(boards_file), "--algo", "astar", "--json", str(summary), "--quiet"]) == 0
    doc = json.loads(summary.read_text())
    assert doc["proven"] == 4
    assert doc["proven_moves"] == doc["total_moves"] == sum(len(solve(b, "astar").moves) for b in read_boards(boards_file))


def test_limit_and_several_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    a = make_set(tmp_path / "a", n=5, seed=1)
    b = make_set(tmp_path / "b", n=5, seed=2)
    out = tmp_path / "sol.txt"
    assert main([str(a), str(b), "--algo", "greedy", "--limit", "3", "--solutions", str(out), "-q"]) == 0
    lines = out.read_text().splitlines()
    boards = read_boards(a, limit=3) + read_boards(b, limit=3)
    assert len(lines) == 6
    for board, line in zip(boards, lines):
        board.check(decode_moves(line))


def test_expect_exact_lengths_pass(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    boards_file = make_set(tmp_path, n=8)
    opt = write_lengths(boards_file.with_suffix(".opt"), greedy_lengths(boards_file))
    assert main([str(boards_file), "--algo", "greedy", "--expect", str(opt), "-q"]) == 0
    assert main([str(boards_file), "--algo", "greedy", "--expect", "auto", "-q"]) == 0
    assert "longer" not in capsys.readouterr().out


def test_expect_longer_than_known_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    boards_file = make_set(tmp_path, n=8)
    lengths = greedy_lengths(boards_file)
    opt = write_lengths(tmp_path / "small.opt", [n - 1 if i in (2, 5) else n for i, n in enumerate(lengths)])
    assert main([str(boards_file), "--algo", "greedy", "--expect", str(opt), "-q"]) == 1
    out = capsys.readouterr().out
    assert "longer than known: 2 boards" in out
    assert f"board 3: ours {lengths[2]}, known {lengths[2] - 1} (+1)" in out
    assert f"board 6: ours {lengths[5]}, known {lengths[5] - 1} (+1)" in out


def test_expect_shorter_than_proven_is_a_bug(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    boards_file = make_set(tmp_path, n=4)
    lengths = greedy_lengths(boards_file)
    opt = write_lengths(tmp_path / "big.opt", [n + (i == 1) for i, n in enumerate(lengths)])
    assert main([str(boards_file), "--algo", "greedy", "--expect", str(opt), "-q"]) == 1
    captured = capsys.readouterr()
    assert "BUG: shorter than the proven optimum: 1 board" in captured.out
    assert f"board 2: ours {lengths[1]}, known {lengths[1] + 1} (-1)" in captured.out
    assert "BUG" in captured.err


def test_expect_shorter_than_best_is_a_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    boards_file = make_set(tmp_path, n=4)
    lengths = greedy_lengths(boards_file)
    best = write_lengths(tmp_path / "set.best", [n + 2 for n in lengths])
    summary = tmp_path / "s.json"
    assert main([str(boards_file), "--algo", "greedy", "--expect", str(best), "--json", str(summary), "-q"]) == 0
    assert "new record: shorter than the best known: 4 boards" in capsys.readouterr().out
    assert json.loads(summary.read_text())["files"][0]["records"] == 4


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--expect", "missing.opt"], "no such file"),
        (["--expect", "a.opt", "--expect", "b.opt"], "--expect given 2 times for 1 files"),
        (["--algo", "nope"], "unknown algorithm 'nope'"),
        (["--start", "99,99"], "outside"),
    ],
)
def test_bad_arguments_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], message: str) -> None:
    boards_file = make_set(tmp_path, n=2)
    assert main([str(boards_file), "-q", *extra]) == 2
    err = capsys.readouterr().err
    assert message in err
    assert err.count("\n") == 1


def test_too_few_known_lengths(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    boards_file = make_set(tmp_path, n=3)
    opt = write_lengths(tmp_path / "short.opt", [5, 5])
    assert main([str(boards_file), "--algo", "greedy", "--expect", str(opt), "-q"]) == 2
    assert "has 2 lengths but" in capsys.readouterr().err


def test_centre_start_of_block_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rng = np.random.default_rng(3)
    grids = rng.integers(1, 5, size=(3, 5, 5))
    path = tmp_path / "floodtest_b5c4n3_center.txt"
    blocks = ["\n".join("".join(ALPHABET[v - 1] for v in row) for row in g) + "\n" for g in grids]
    path.write_text("\n".join(blocks))
    for spec, start in ((None, (2, 2)), ("top-left", (0, 0))):
        out = tmp_path / "sol.txt"
        args = [str(path), "--algo", "greedy", "--solutions", str(out), "-q"] + (["--start", spec] if spec else [])
        assert main(args) == 0
        for board, line in zip(read_boards(path, start=start), out.read_text().splitlines()):
            assert board.start == start
            board.check(decode_moves(line))


def test_parse_size() -> None:
    assert parse_size("512M") == 512 << 20
    assert parse_size("2G") == 2 << 30
    assert parse_size("1.5GiB") == 3 << 29
    assert parse_size("4194304") == 4 << 20
    with pytest.raises(ColoritError):
        parse_size("lots")
    with pytest.raises(ColoritError, match="below 1M"):
        parse_size("10K")


@pytest.mark.parametrize(
    ("workers", "signum"), [(1, signal.SIGINT), (2, signal.SIGINT), (2, signal.SIGTERM)], ids=["1-sigint", "2-sigint", "2-sigterm"]
)
def test_ctrl_c_stops_cleanly_with_a_summary(tmp_path: Path, workers: int, signum: int) -> None:
    """SIGINT (or SIGTERM) during long searches: the run ends soon, prints and writes
    what was done, and exits 128 + the signal number."""
    boards_file = make_set(tmp_path, n=6, side=40, colours=8, seed=workers)
    summary = tmp_path / "s.json"
    env = dict(os.environ, PYTHONPATH=str(REPO))
    cmd = [sys.executable, "-m", "colorit", "bench", str(boards_file), "--algo", "dfs", "--time-limit", "60",
           "--workers", str(workers), "--json", str(summary), "-q"]  # fmt: skip
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path)
    time.sleep(3.0)
    if proc.poll() is not None:
        pytest.skip("the solver finished six 40x40 boards before the interrupt")
    t0 = time.monotonic()
    proc.send_signal(signum)
    out, err = proc.communicate(timeout=30)
    assert time.monotonic() - t0 < 10
    assert proc.returncode == 128 + signum, err
    assert "interrupted" in err
    assert "total_moves" in out
    doc = json.loads(summary.read_text())
    assert doc["interrupted"] is True
    assert 0 <= doc["boards"] < 6


def test_run_datasets_script_table(tmp_path: Path) -> None:
    """The script finds the sets with an .opt file, runs each with 1 and 2 workers
    through ``colorit bench --expect`` and tabulates them."""
    sets = tmp_path / "sets"
    sets.mkdir()
    boards_file = make_set(sets, n=5)
    write_lengths(boards_file.with_suffix(".opt"), greedy_lengths(boards_file))
    make_set(sets, n=3, side=5)  # no lengths: not run
    out = tmp_path / "out"
    env = dict(os.environ, COLORIT_DATASETS=str(sets), PYTHONPATH=str(REPO))
    cmd = [sys.executable, str(REPO / "benchmarks" / "run_datasets.py"), "--algo", "greedy", "--out", str(out), "-q"]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    rows = [line for line in proc.stdout.splitlines() if line.startswith(f"| {boards_file.stem} ")]
    assert len(rows) == 2
    total = str(sum(greedy_lengths(boards_file)))
    for row, workers in zip(rows, ("1", "2")):
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert cells[1:4] == ["5", total, total]
        assert cells[8:] == [workers, "ok"]
    assert (out / f"{boards_file.stem}-w2.json").is_file()
