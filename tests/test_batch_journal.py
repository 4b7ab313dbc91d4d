"""The bench journal (``colorit.batch.journal``) and ``colorit bench --resume``: lines that
round-trip and catch damage; a resume keeps only answers that solve their own boards;
a bench killed with SIGKILL and resumed writes the same answers file as an
uninterrupted run and solves only the boards it lacked (in this process and with
``--workers``); a left-over journal is never overwritten without ``--resume``."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from colorit.batch.journal import (
    JournalError,
    JournalWriter,
    board_digest,
    format_line,
    journal_path,
    parse_journal_line,
    read_journal,
    worth_keeping,
)
from colorit.batch.solving import BoardResult, solve_boards
from colorit.cli import main as cli_main
from colorit.game.board import Board
from colorit.io.datasets import ALPHABET, read_boards
from colorit.solvers import Limits

REPO = Path(__file__).resolve().parents[1]
RUN = {"algo": "greedy", "time_limit": 60.0}


def make_set(folder: Path, n: int = 40, side: int = 7, colours: int = 5, seed: int = 4) -> Path:
    rng = np.random.default_rng(seed)
    grids = rng.integers(1, colours + 1, size=(n, side, side))
    path = folder / f"b{side}c{colours}n{n}.txt"
    path.write_text("".join("".join(ALPHABET[v - 1] for v in g.ravel()) + "\n" for g in grids))
    return path


def bench(*args: object) -> int:
    return cli_main(["bench", *map(str, args)])


def greedy_results(boards_file: Path) -> tuple[list[Board], list[BoardResult]]:
    boards = read_boards(boards_file)
    results = solve_boards(boards, "greedy", Limits(time=60))
    assert all(r is not None for r in results)
    return boards, results  # type: ignore[return-value]


def uninterrupted(tmp_path: Path, boards_file: Path) -> bytes:
    whole = tmp_path / "whole.txt"
    assert bench(boards_file, "--algo", "greedy", "--solutions", whole, "-q") == 0
    return whole.read_bytes()


# -- lines -------------------------------------------------------------------------------

results_st = st.builds(
    BoardResult,
    moves=st.lists(st.integers(-(2**63), 2**63 - 1), max_size=30).map(tuple),
    proven=st.booleans(),
    lower_bound=st.integers(0, 10_000),
    elapsed=st.floats(0, 1e6, allow_nan=False),
    states=st.integers(0, 2**62),
    stopped=st.sampled_from(["", "time", "memory"]),
)


@given(index=st.integers(0, 10**7), result=results_st)
def test_a_line_reads_back_as_written(index: int, result: BoardResult) -> None:
    line = format_line(index, "0123456789abcdef", result)
    assert line.endswith("\n") and line.count("\n") == 1
    assert parse_journal_line(line[:-1]) == (index, "0123456789abcdef", result)


@given(result=results_st, data=st.data())
def test_a_cut_or_changed_line_is_caught(result: BoardResult, data: st.DataObject) -> None:
    line = format_line(7, "0123456789abcdef", result)[:-1]
    cut = data.draw(st.integers(0, len(line) - 1))
    assert parse_journal_line(line[:cut]) is None
    at = data.draw(st.integers(0, len(line) - 1))
    other = data.draw(st.sampled_from("0123456789abcdef-, x"))
    changed = line[:at] + other + line[at + 1 :]
    if changed != line:
        assert parse_journal_line(changed) is None


def test_the_digest_names_the_cells_and_the_start(tmp_path: Path) -> None:
    boards = read_boards(make_set(tmp_path, n=3))
    assert len({board_digest(b) for b in boards}) == 3
    assert board_digest(boards[0]) == board_digest(read_boards(tmp_path / "b7c5n3.txt")[0])
    assert board_digest(boards[0]) != board_digest(boards[0].with_start((3, 3)))


def test_what_is_worth_keeping() -> None:
    ok = BoardResult((1, 2), False, 0, 0.1, 5, "time")
    assert worth_keeping(ok)
    assert not worth_keeping(None)
    assert not worth_keeping(BoardResult((1, 2), False, 0, 0.1, 5, "signal"))  # did not get its time
    assert not worth_keeping(BoardResult((), False, 0, 0.1, 0, "", "MemoryError: boom"))


# -- reading back --------------------------------------------------------------------------


def test_read_back_keeps_good_answers_and_counts_the_rest(tmp_path: Path) -> None:
    boards, results = greedy_results(make_set(tmp_path, n=6))
    path = tmp_path / "j.journal"
    JournalWriter(path, boards, RUN, {i: r for i, r in enumerate(results) if i < 3}).close()
    with path.open("a") as f:
        f.write(format_line(3, board_digest(boards[3]), results[4]))  # board 5's answer on board 4
        f.write(format_line(4, board_digest(boards[5]), results[4]))  # another board's digest
        f.write("5 not a line\n")
        f.write(format_line(5, board_digest(boards[5]), results[5])[:-9])  # torn: a kill mid-write
    back = read_journal(path, boards, RUN)
    assert back.answers == {0: results[0], 1: results[1], 2: results[2]}
    assert (back.torn, back.damaged, back.other_board, back.wrong_answer) == (1, 1, 1, 1)
    assert back.describe_redone() == "1 torn line, 1 damaged line, 1 wrong answer"
    assert back.foreign == [format_line(4, board_digest(boards[5]), results[4])]  # kept, not used


def test_a_journal_of_other_options_or_no_journal_is_refused(tmp_path: Path) -> None:
    boards, results = greedy_results(make_set(tmp_path, n=2))
    path = tmp_path / "j.journal"
    JournalWriter(path, boards, RUN, dict(enumerate(results))).close()
    with pytest.raises(JournalError, match="written by a run with --algo greedy --time-limit 60, not --algo auto --time-limit 60"):
        read_journal(path, boards, {"algo": "auto", "time_limit": 60.0})
    path.write_text("hello\n")
    with pytest.raises(JournalError, match="not a colorit bench journal"):
        read_journal(path, boards, RUN)


def test_a_journal_of_other_boards_is_refused_and_its_lines_never_dropped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A journal of 10 boards resumed with --limit 6: the answers of boards 7-10 are
    not used, stay in the journal, and the journal stays after the run; resumed
    against other boards altogether, it is refused."""
    boards_file = make_set(tmp_path, n=10)
    boards, results = greedy_results(boards_file)
    out = tmp_path / "out.txt"
    path = journal_path(out)
    JournalWriter(path, boards, RUN, dict(enumerate(results))).close()
    assert bench(boards_file, "--algo", "greedy", "--solutions", out, "--resume", "--limit", "6", "-q") == 0
    err = capsys.readouterr().err
    assert "resumed 6 answers from" in err and "solving 0; 4 lines for other boards stay in the journal" in err
    assert f"{path}: kept: it also holds 4 answers for boards not in this run" in err
    assert len(out.read_text().splitlines()) == 6
    assert read_journal(path, boards, RUN).answers == dict(enumerate(results))  # all ten still there
    (tmp_path / "other").mkdir()
    other = make_set(tmp_path / "other", n=10, seed=99)
    before = path.read_bytes()
    assert bench(other, "--algo", "greedy", "--solutions", out, "--resume", "-q") == 2
    assert "its 10 answers are all for other boards" in capsys.readouterr().err
    assert path.read_bytes() == before


def test_the_writer_appends_whole_lines_and_removes_the_journal_when_done(tmp_path: Path) -> None:
    boards, results = greedy_results(make_set(tmp_path, n=5))
    path = tmp_path / "j.journal"
    writer = JournalWriter(path, boards, RUN, {0: results[0]})
    writer.append([(3, results[3]), (1, results[1])])
    assert path.read_text().endswith("\n")  # on disk before close: a kill loses nothing
    assert read_journal(path, boards, RUN).answers == {0: results[0], 3: results[3], 1: results[1]}
    writer.remove()
    assert not path.exists()


def test_fsyncs_come_in_batches_and_none_waits_long(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from colorit.batch import journal

    boards, results = greedy_results(make_set(tmp_path, n=3))
    monkeypatch.setattr(journal, "SYNC_EVERY_S", 1.0)
    synced: list[float] = []
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        synced.append(time.monotonic())
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)  # the journal's os
    writer = JournalWriter(tmp_path / "j.journal", boards, RUN, {})
    synced.clear()  # the new file's own
    t0 = time.monotonic()
    writer.append([(0, results[0])])
    writer.append([(1, results[1])])
    assert synced == []  # not yet: a batch
    time.sleep(1.6)
    assert len(synced) == 1 and 0.9 <= synced[0] - t0 <= 1.6  # the timer's, for both lines
    writer.append([(2, results[2])] * journal.SYNC_EVERY_LINES)  # a full batch: at once
    assert len(synced) == 2
    writer.close()


# -- the command -----------------------------------------------------------------------------


def test_a_complete_run_leaves_no_journal(tmp_path: Path) -> None:
    boards_file = make_set(tmp_path, n=5)
    out = tmp_path / "out.txt"
    assert bench(boards_file, "--algo", "greedy", "--solutions", out, "-q") == 0
    assert len(out.read_text().splitlines()) == 5
    assert not journal_path(out).exists()


@pytest.mark.parametrize("workers", ["1", "2"])
def test_resume_solves_only_the_missing_boards(tmp_path: Path, workers: str, capsys: pytest.CaptureFixture[str]) -> None:
    boards_file = make_set(tmp_path, n=30)
    whole = uninterrupted(tmp_path, boards_file)
    boards, results = greedy_results(boards_file)
    out, summary = tmp_path / "out.txt", tmp_path / "s.json"
    JournalWriter(journal_path(out), boards, RUN, {i: r for i, r in enumerate(results) if i % 4 != 2}).close()
    capsys.readouterr()
    code = bench(boards_file, "--algo", "greedy", "--solutions", out, "--resume", "--workers", workers, "--json", summary, "-q")
    assert code == 0
    assert out.read_bytes() == whole
    assert "colorit bench: resumed 23 answers from" in capsys.readouterr().err
    doc = json.loads(summary.read_text())
    assert (doc["boards"], doc["resumed"], doc["solved"]) == (30, 23, 7)  # the summary covers the whole set
    assert doc["total_moves"] == sum(len(r.moves) for r in results)
    assert not journal_path(out).exists()


@pytest.mark.parametrize("damage", ["torn", "wrong answer"])
def test_a_torn_or_wrong_journal_line_is_redone(tmp_path: Path, damage: str, capsys: pytest.CaptureFixture[str]) -> None:
    boards_file = make_set(tmp_path, n=12)
    whole = uninterrupted(tmp_path, boards_file)
    boards, results = greedy_results(boards_file)
    out, summary = tmp_path / "out.txt", tmp_path / "s.json"
    path = journal_path(out)
    if damage == "torn":
        JournalWriter(path, boards, RUN, {i: r for i, r in enumerate(results) if i < 8}).close()
        path.write_bytes(path.read_bytes()[:-12])  # the last line (board 8) cut short by a kill
    else:
        JournalWriter(path, boards, RUN, {i: r for i, r in enumerate(results) if i < 8 and i != 2}).close()
        # a well-formed line whose answer is one move short: it does not solve board 3
        short = BoardResult(results[2].moves[:-1], False, 0, 0.001, 1, "")
        with path.open("a") as f:
            f.write(format_line(2, board_digest(boards[2]), short))
    capsys.readouterr()
    assert bench(boards_file, "--algo", "greedy", "--solutions", out, "--resume", "--json", summary, "-q") == 0
    assert out.read_bytes() == whole
    err = capsys.readouterr().err
    assert f"resumed 7 answers from {path}, solving 5 (1 {damage}" in err
    assert json.loads(summary.read_text())["solved"] == 5


def test_a_left_over_journal_is_refused_without_resume(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    boards_file = make_set(tmp_path, n=4)
    out = tmp_path / "out.txt"
    out.write_text("what the user had\n")
    path = journal_path(out)
    path.write_text("the answers of an earlier run\n")
    assert bench(boards_file, "--algo", "greedy", "--solutions", out, "-q") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert f"{path}: holds the answers of a run that did not finish; pass --resume to continue it, or delete it" in err
    assert path.read_text() == "the answers of an earlier run\n"  # nothing a user had is lost
    assert out.read_text() == "what the user had\n"


@pytest.mark.parametrize("solutions", [[], ["--solutions", "-"]])
def test_resume_needs_a_solutions_file(tmp_path: Path, solutions: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert bench(make_set(tmp_path, n=2), "--resume", *solutions) == 2
    assert "--resume needs --solutions FILE" in capsys.readouterr().err


def test_the_journal_is_an_output_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    boards_file = make_set(tmp_path, n=2)
    out = tmp_path / "out.txt"
    assert bench(boards_file, "--solutions", out, "--json", journal_path(out)) == 2
    assert "given as two outputs" in capsys.readouterr().err
    # an input named like the journal is never written over
    renamed = boards_file.rename(tmp_path / "sol.txt.journal")
    assert bench(renamed, "--solutions", tmp_path / "sol.txt") == 2
    assert "refusing to write over it" in capsys.readouterr().err
    assert renamed.read_text().count("\n") == 2


def test_resume_with_other_options_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    boards_file = make_set(tmp_path, n=3)
    boards, results = greedy_results(boards_file)
    out = tmp_path / "out.txt"
    JournalWriter(journal_path(out), boards, RUN, {0: results[0]}).close()
    assert bench(boards_file, "--algo", "greedy", "--time-limit", "5", "--solutions", out, "--resume", "-q") == 2
    assert "resume with its options, or delete the journal" in capsys.readouterr().err
    assert journal_path(out).exists()


SLOW_SITE = textwrap.dedent(
    """
    # test only: every board takes COLORIT_TEST_DELAY s more, and each solve is counted
    import os, time
    if os.environ.get("COLORIT_TEST_DELAY"):
        import colorit.batch.local as local
        import colorit.batch.solving as solving

        real = solving.solve_one

        def slow_solve_one(board, algo, limits, control=None, seed=None):
            time.sleep(float(os.environ["COLORIT_TEST_DELAY"]))
            with open(os.environ["COLORIT_TEST_COUNT"], "a") as f:
                f.write("solved\\n")
            return real(board, algo, limits, control, seed)

        solving.solve_one = local.solve_one = slow_solve_one  # this process's, and a pool's
    """
)


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_bench_killed_with_sigkill_resumes_where_it_stopped(tmp_path: Path, workers: str) -> None:
    """A real process, slowed to 40 ms a board and killed with SIGKILL once 15 answers
    are in the journal; ``--resume`` then writes the same answers file as an
    uninterrupted run, and solves only the boards the journal lacked."""
    n = 60
    boards_file = make_set(tmp_path, n=n)
    whole = uninterrupted(tmp_path, boards_file)
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(SLOW_SITE)
    count = tmp_path / "count"
    env = dict(os.environ, PYTHONPATH=f"{site}{os.pathsep}{REPO}", COLORIT_TEST_DELAY="0.04", COLORIT_TEST_COUNT=str(count))
    env.pop("COLORIT_CLOCK_START", None)
    out = tmp_path / "out.txt"
    path = journal_path(out)
    cmd = [sys.executable, "-m", "colorit", "bench", str(boards_file), "--algo", "greedy", "--solutions", str(out),
           "--workers", workers, "-q"]  # fmt: skip
    # a session of its own, so that the kill takes the worker processes too
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env, start_new_session=True)
    deadline = time.monotonic() + 60
    seen = 0
    while time.monotonic() < deadline and proc.poll() is None:
        seen = path.read_text().count("\n") - 1 if path.exists() else 0
        if seen >= 15:
            break
        time.sleep(0.01)
    if proc.poll() is not None:
        pytest.fail(f"the bench ended before it could be killed: {proc.stderr.read() if proc.stderr else ''}")
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    assert not out.exists()  # killed: the answers file was never written
    count.unlink()

    summary = tmp_path / "s.json"
    resumed = subprocess.run([*cmd, "--resume", "--json", str(summary)], capture_output=True, text=True, env=env, timeout=120, check=False)
    assert resumed.returncode == 0, resumed.stderr
    assert out.read_bytes() == whole
    line = next(x for x in resumed.stderr.splitlines() if "resumed" in x)
    kept, solving = int(line.split("resumed ")[1].split()[0]), int(line.split("solving ")[1].split()[0])
    assert kept >= seen and kept + solving == n and solving < n - 14
    assert count.read_text().count("solved") == solving  # only the missing boards were solved
    doc = json.loads(summary.read_text())
    assert (doc["boards"], doc["resumed"], doc["solved"]) == (n, kept, solving)
    assert not path.exists()
