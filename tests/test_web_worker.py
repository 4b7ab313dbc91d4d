"""The solver process's own logic, run in this process: one job's events and answer,
its failures as messages, the listener that passes cancels on, and the board and graph
each built once.

The process itself (spawned, signals, the pipe to the server) is exercised through the
pool in test_web_pool.py.
"""

from __future__ import annotations

import multiprocessing
import pickle
import threading
from typing import Any

import pytest

from colorit import Board
from colorit.game.generate import random_board
from colorit.game.graph import RegionGraph
from colorit.solvers import Control, Limits, Solution
from colorit.web import worker
from colorit.web.jobs import FAIL_KINDS, SolveTask

SAMPLE = Board.from_rows([[1, 2, 0, 0], [0, 1, 1, 0], [2, 2, 0, 1], [0, 0, 0, 1]])


def run(task: SolveTask, time_limit: float = 5.0) -> list[tuple[Any, ...]]:
    """The messages one job sends, in order."""
    sent: list[tuple[Any, ...]] = []
    worker.run_job(7, task, Control(Limits(time=time_limit)), sent.append)
    return sent


def test_a_job_sends_started_progress_and_its_checked_answer() -> None:
    board = random_board(12, 12, 5, 3)
    sent = run(SolveTask(board, "auto", 5.0))
    kinds = [m[0] for m in sent]
    assert kinds[0] == "started" and kinds[-1] == "result" and set(kinds[1:-1]) <= {"progress"}
    assert all(m[1] == 7 for m in sent)
    started, answer = sent[0][2], sent[-1][2]
    assert started["algo"] == "auto" and started["regions"] == RegionGraph.from_board(board).n_regions
    board.check(answer["moves"])
    assert answer["proven"] and answer["lower_bound"] == len(answer["moves"]) and answer["gap"] == 0.0
    assert answer["lower_bound"] >= started["lower_bound"]


def test_the_region_graph_is_built_once_per_job(monkeypatch: pytest.MonkeyPatch) -> None:
    """The start position's bound and the solve share one graph."""
    board = random_board(10, 10, 4, 8)
    built: list[Board] = []
    real = RegionGraph.from_board.__func__  # type: ignore[attr-defined]

    def counting(cls: type[RegionGraph], b: Board) -> RegionGraph:
        built.append(b)
        return real(cls, b)  # type: ignore[no-any-return]

    monkeypatch.setattr(RegionGraph, "from_board", classmethod(counting))
    for algo in ("auto", "greedy", "astar"):
        built.clear()
        sent = run(SolveTask(board, algo, 5.0))
        assert sent[-1][0] == "result", sent[-1]
        assert sum(b is board for b in built) == 1, algo


def test_the_task_carries_the_board_as_built(monkeypatch: pytest.MonkeyPatch) -> None:
    """Down the pipe the board keeps its palette and codes: the worker does not work
    them out again."""
    board = Board.from_rows([[-5, 2**62], [7, -5]]).with_start((1, 1))
    sent = pickle.dumps(SolveTask(board, "astar", 1.0))

    def again(cells: Any) -> Any:
        raise AssertionError("the palette and codes were worked out again")

    with monkeypatch.context() as patch:
        patch.setattr("colorit.game.board._palette_and_codes", again)
        task = pickle.loads(sent)
    copy = task.board
    assert copy.start == (1, 1) and copy.cells.tolist() == board.cells.tolist()
    assert copy.palette.tolist() == board.palette.tolist() and copy.codes.tolist() == board.codes.tolist()
    assert not any(a.flags.writeable for a in (copy.cells, copy.palette, copy.codes))  # read-only, as built
    answer = run(task)[-1][2]
    board.check(answer["moves"])


@pytest.mark.parametrize(
    ("algo", "raised", "kind", "words"),
    [
        ("no-such-solver", None, "input", "unknown algorithm 'no-such-solver'"),
        ("greedy", MemoryError(), "memory", "ran out of memory"),
        ("greedy", RuntimeError("a bug"), "internal", "failed unexpectedly"),
    ],
)
def test_a_failed_job_is_one_message(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], algo: str, raised: Any, kind: str, words: str
) -> None:
    if raised is not None:

        def fail(*args: Any, **kwargs: Any) -> None:
            raise raised

        monkeypatch.setattr("colorit.solvers.solve", fail)
    sent = run(SolveTask(SAMPLE, algo, 1.0))
    assert sent[-1][:3] == ("failed", 7, kind) and words in sent[-1][3] and kind in FAIL_KINDS
    assert [m[0] for m in sent].count("failed") == 1
    if kind == "internal":  # the traceback goes to the server's log, not to the client
        assert "RuntimeError: a bug" in capsys.readouterr().err and "Traceback" not in sent[-1][3]


def test_progress_raises_the_bound_to_the_start_position_s() -> None:
    assert worker.progress_of(12, 0, 10, 0.123456) == {
        "moves": 12, "lower_bound": 10, "gap": 0.2, "proven": False, "elapsed_s": 0.1235,
    }  # fmt: skip
    assert worker.progress_of(10, 10, 8, 1.0)["proven"] is True
    assert worker.progress_of(5, 0, 0, 1.0)["gap"] == 0.0  # no bound known: no gap shown


def test_the_answer_s_bound_is_never_past_its_length() -> None:
    heuristic = Solution(moves=(1, 2, 3), proven_optimal=False, lower_bound=0, elapsed=0.5, algo="greedy")
    answer = worker.answer_of(heuristic, 3)
    assert answer["lower_bound"] == 3 and answer["proven"] and answer["gap"] == 0.0
    unproven = Solution(moves=(1, 2, 3, 4), proven_optimal=False, lower_bound=2, elapsed=0.5, algo="beam")
    answer = worker.answer_of(unproven, 3)
    assert answer["lower_bound"] == 3 and not answer["proven"] and answer["gap"] == pytest.approx(1 / 3, abs=1e-6)
    assert answer["moves"] == [1, 2, 3, 4] and answer["algo"] == "beam"


def test_the_listener_passes_solves_on_in_order_and_cancels_at_once() -> None:
    parent, child = multiprocessing.Pipe(duplex=True)
    inbox = worker._Inbox(child, memory_per_solve=1 << 20)
    listener = threading.Thread(target=inbox.listen, daemon=True)
    listener.start()
    parent.send(("solve", 1, SolveTask(SAMPLE, "auto", 9.0)))
    parent.send(("solve", 2, SolveTask(SAMPLE, "greedy", 3.0)))
    first, second = inbox.next(), inbox.next()
    assert first is not None and second is not None
    assert (first[0], second[0]) == (1, 2)
    assert first[2].limits == Limits(time=9.0, memory=1 << 20)
    parent.send(("cancel", 2, "cancelled"))
    parent.send(("cancel", 99, "cancelled"))  # a job already done: nothing to stop
    parent.send(None)
    assert inbox.next() is None  # the end comes after the cancel, in order
    assert second[2].stop_reason == "cancelled"
    # the end stops what still runs (as the server's shutdown)
    assert first[2].stop_reason == "shutdown"
    listener.join(5)
    assert not listener.is_alive()
