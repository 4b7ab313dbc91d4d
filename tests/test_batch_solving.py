"""``colorit.batch``'s runners, the engine under ``colorit bench`` (``solving.py``, and
``local.py``'s pool of processes): answers in input order, stop requests that end the
running search and skip the rest, each board's time limit kept, the warm-up each runner
does. The summary and the comparison with known lengths are test_batch_report.py's; the
command itself is test_cli_bench.py's."""

from __future__ import annotations

import contextlib
import threading
import time
from pathlib import Path

import pytest

from colorit import Board, ColoritError, Control, Limits, RegionGraph, solve
from colorit.batch import local, solving
from colorit.batch.solving import StopFlag
from colorit.game.generate import random_board
from colorit.runtime.warmup import astar_widths
from colorit.solvers import Outcome, get_solver

from cli_support import registered, waiting_solver

BOARDS = [random_board(7, 7, 5, seed=k) for k in range(12)]


# --------------------------------------------------------------------------- runners


def test_in_process_answers_in_input_order() -> None:
    seen: list[int] = []
    results = solving.solve_boards(BOARDS, "greedy", Limits(time=5), on_results=lambda first, chunk: seen.append(first))
    assert seen == list(range(len(BOARDS)))
    for board, r in zip(BOARDS, results):
        assert r is not None and not r.error
        assert r.moves == solve(board, "greedy").moves
        board.check(list(r.moves))


def test_a_pool_of_processes_gives_the_same_answers() -> None:
    # A worker process loads numba and the kernels within its first board's limit; on a
    # loaded 2-core machine that took over 5 s, and the guard's basic-AI answer was
    # returned instead of greedy's. The limit only has to be one greedy always meets.
    limits = Limits(time=120)
    alone = solving.solve_boards(BOARDS, "greedy", limits)
    chunks: list[tuple[int, int]] = []
    pooled = solving.solve_boards(
        BOARDS, "greedy", limits, local.ProcessPool(2), on_results=lambda f, c: chunks.append((f, len(c)))
    )
    assert all(r is not None and not r.error for r in pooled)
    assert [r.moves for r in pooled if r] == [r.moves for r in alone if r]
    assert sorted(chunks) == [(k, 1) for k in range(12)]  # chunk_size(12, 2) is 1: hard boards spread out


def test_only_the_boards_asked_for() -> None:
    results = solving.solve_boards(BOARDS, "linear", Limits(time=5), todo=[7, 2, 3])
    assert [k for k, r in enumerate(results) if r is not None] == [2, 3, 7]
    pooled = solving.solve_boards(BOARDS, "linear", Limits(time=5), local.ProcessPool(2), todo=[7, 2, 3])
    assert [r.moves if r else None for r in pooled] == [r.moves if r else None for r in results]


@pytest.mark.parametrize("runner", [solving.InProcess, lambda: local.ProcessPool(2)], ids=["in-process", "pool"])
def test_a_stop_before_the_start_solves_nothing(runner) -> None:  # type: ignore[no-untyped-def]
    stop = StopFlag()
    stop.set()
    assert solving.solve_boards(BOARDS, "greedy", Limits(time=5), runner(), stop=stop) == [None] * len(BOARDS)


def test_a_stop_ends_the_running_search_and_skips_the_rest() -> None:
    """The board being solved returns its best answer (stopped "signal"); the boards
    after it are not started."""

    sleepy = waiting_solver("greedy")

    stop = StopFlag()
    stopper = threading.Timer(0.3, stop.set)
    with registered("sleepy-bench", sleepy):
        stopper.start()
        t0 = time.monotonic()
        results = solving.solve_boards(BOARDS[:4], "sleepy-bench", Limits(time=30), stop=stop)
    # the stop ended it, not the 30 s limit (wide margin for a loaded CI machine; benchmarks/promises.py measures the promise)
    assert time.monotonic() - t0 < 15
    first = results[0]
    assert first is not None and first.stopped == "signal" and not first.error
    BOARDS[0].check(list(first.moves))
    assert results[1:] == [None, None, None]


def test_stop_flag() -> None:
    stop = StopFlag()
    calls: list[str] = []
    stop.on_stop(lambda: calls.append("a"))
    assert not stop.requested
    stop.set()
    stop.set()  # once is enough
    assert stop.requested and calls == ["a"]
    stop.on_stop(lambda: calls.append("b"))  # after the request: at once
    assert calls == ["a", "b"]


def test_each_board_keeps_its_time_limit() -> None:
    """A solver that never returns still gives every board its answer within its limit
    (the deadline guard), one board after another."""
    release = threading.Event()

    def stubborn(graph: RegionGraph, control: Control) -> Outcome:
        control.improved(get_solver("linear").fn(graph, Control()).codes)
        release.wait(30)
        return Outcome([], False, 0)

    try:
        with registered("stubborn-bench", stubborn):
            results = solving.solve_boards(BOARDS[:3], "stubborn-bench", Limits(time=0.15))
    finally:
        release.set()
    for board, r in zip(BOARDS, results):
        assert r is not None and r.stopped == "time"
        # answered by the deadline guard, not after the 30 s the solver holds on (wide margin
        # for a loaded CI machine; benchmarks/promises.py measures the promise)
        assert 0.15 <= r.elapsed < 10
        board.check(list(r.moves))


def test_a_failing_board_is_a_result_not_the_end_of_the_run() -> None:
    def broken(graph: RegionGraph, control: Control) -> Outcome:
        if graph.n_regions % 2:
            raise RuntimeError("odd")
        return get_solver("greedy").fn(graph, control)

    with registered("broken-bench", broken):
        results = solving.solve_boards(BOARDS[:6], "broken-bench", Limits(time=5))
    assert all(r is not None for r in results)
    errors = [r.error for r in results if r and r.error]
    assert errors and all(e == "RuntimeError: odd" for e in errors)
    assert len(errors) < 6


def test_chunks_and_runs() -> None:
    assert solving.chunk_size(12, 2) == 1
    assert solving.chunk_size(1000, 2) == 8
    assert solving.chunk_size(100, 1) == 6
    assert solving.runs_of([]) == []
    assert solving.runs_of([0, 1, 2, 5, 6, 9]) == [(0, 3), (5, 7), (9, 10)]


def test_astar_widths() -> None:
    assert astar_widths([Board.from_rows([[1, 1], [1, 1]])]) == frozenset()
    widths = astar_widths(BOARDS + [random_board(20, 20, 6, seed=1)])
    assert len(widths) >= 2 and all(w > 0 for w in widths)


def test_each_runner_warms_itself_from_the_one_widths_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    """``InProcess.warm`` loads the kernels here and settles the collector (its start is
    over); ``ProcessPool.warm`` loads them here and keeps the A* widths of the boards it
    was warmed for, which its workers load as they start."""
    from colorit.runtime import clock, warmup

    calls: list[str] = []
    monkeypatch.setattr(warmup, "warm_for", lambda algo, boards=(): calls.append(f"warm {algo} {len(boards)}"))
    monkeypatch.setattr(clock, "settle_collection", lambda: calls.append("settle"))
    wide = BOARDS + [random_board(20, 20, 6, seed=1)]
    solving.InProcess().warm("auto", wide)
    assert calls == [f"warm auto {len(wide)}", "settle"]
    pool = local.ProcessPool(2)
    pool.warm("auto", wide)
    assert pool.warmed == ("auto", astar_widths(wide)) and len(astar_widths(wide)) == 2
    pool.warm("greedy", wide)
    assert pool.warmed == ("greedy", frozenset())  # greedy has no per-width kernels
    assert calls[2:] == ["warm auto 0", "settle", "warm greedy 0", "settle"]  # the workers load the widths


def test_a_run_warms_its_runner_and_shares_its_memory_by_the_one_rule(tmp_path: Path) -> None:
    from colorit.batch.inputs import BenchOptions
    from colorit.batch.session import BenchRun, pick_runner
    from colorit.machine import memory_share

    boards_file = tmp_path / "set.txt"
    boards_file.write_text("".join("".join(str(v + 1) for v in b.cells.ravel()) + "\n" for b in BOARDS[:3]))
    for workers, kind in ((1, solving.InProcess), (2, local.ProcessPool)):
        opts = BenchOptions(files=[str(boards_file)], algo="auto", workers=workers, max_memory=48 << 20)
        run = BenchRun(opts, time.monotonic())
        run.check()
        run.load()
        with contextlib.ExitStack() as stack:
            runner, memory, searches = pick_runner(opts, run.inputs.boards, stack)
            assert isinstance(runner, kind) and searches == workers
            assert memory == memory_share(48 << 20, workers) == (48 << 20) // workers
            if workers > 1:
                assert isinstance(runner, local.ProcessPool)
                assert runner.warmed == ("auto", astar_widths(run.inputs.boards))


def test_worker_died_is_a_failed_run() -> None:
    assert issubclass(local.WorkerDied, ColoritError) and local.WorkerDied.exit_code == 1
