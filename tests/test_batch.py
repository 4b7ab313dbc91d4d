"""``colorit.batch``, the engine under ``colorit bench``: runners that give answers in input
order (in this process or a pool of processes), stop requests that end the running
search and skip the rest, each board's time limit kept, the summary, and the comparison
with known lengths. The command itself is tested in test_cli_bench.py."""

from __future__ import annotations

import ast
import contextlib
import io
import threading
import time
from pathlib import Path

import pytest

from colorit import Board, ColoritError, Control, Limits, RegionGraph, solve
from colorit.batch import local, report, solving
from colorit.batch.report import FileReport
from colorit.batch.solving import BoardResult, StopFlag
from colorit.game.generate import random_board
from colorit.runtime.warmup import astar_widths
from colorit.solvers import Outcome, get_solver

from cli_support import registered, write_lengths

ROOT = Path(__file__).resolve().parents[1]
BOARDS = [random_board(7, 7, 5, seed=k) for k in range(12)]


def result(
    n_moves: int, *, proven: bool = False, elapsed: float = 0.1, stopped: str = "", error: str = ""
) -> BoardResult:
    return BoardResult(tuple(range(n_moves)), proven, n_moves if proven else 0, elapsed, 1, stopped, error)


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

    def sleepy(graph: RegionGraph, control: Control) -> Outcome:
        outcome: Outcome = get_solver("greedy").fn(graph, control)
        while not control.should_stop():
            time.sleep(0.005)
        outcome.stopped = control.stop_reason
        return outcome

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


def _imports(path: Path) -> set[str]:
    """The colorit modules ``path`` imports, inside functions too, ``TYPE_CHECKING``
    blocks aside."""
    module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
    package = module.rsplit(".", 1)[0] if path.name != "__init__.py" else module.removesuffix(".__init__")
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
            target = ".".join(base + ([node.module] if node.module else []))
            found.update([target, *(f"{target}.{a.name}" for a in node.names)])
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        for sub in ast.iter_child_nodes(node):
            visit(sub)

    visit(ast.parse(path.read_text()))
    return {name for name in found if name.startswith("colorit")}


@pytest.mark.parametrize("layer", ["batch", "cli"])
def test_a_layer_imports_downward_without_circles(layer: str) -> None:
    """No module of ``colorit.batch`` imports ``render``, ``web`` or ``cli``, and no two
    modules of a layer import each other, directly or around a circle."""
    paths = sorted((ROOT / "colorit" / layer).glob("*.py"))
    names = {".".join(p.relative_to(ROOT).with_suffix("").parts): p for p in paths}
    graph = {name: {t for t in _imports(p) if t in names and t != name} for name, p in names.items()}
    if layer == "batch":
        upward = {name: sorted(t for t in _imports(p) if t.startswith(("colorit.render", "colorit.web", "colorit.cli")))
                  for name, p in names.items()}
        assert not any(upward.values()), upward
    for start in graph:  # every module reached from ``start`` never leads back to it
        seen, todo = set(), list(graph[start])
        while todo:
            name = todo.pop()
            assert name != start, f"{start} imports itself around a circle"
            if name not in seen:
                seen.add(name)
                todo.extend(graph[name])


def test_worker_died_is_a_failed_run() -> None:
    assert issubclass(local.WorkerDied, ColoritError) and local.WorkerDied.exit_code == 1


# --------------------------------------------------------------------------- summary and known lengths


def test_summarize_counts_only_the_boards_with_an_answer() -> None:
    results = [
        result(10, elapsed=0.2),
        None,
        result(12, proven=True, elapsed=0.4),
        result(0, error="boom"),
        result(8, elapsed=0.1),
    ]
    summary = report.summarize(results, wall=1.5)
    assert list(summary) == list(report.SUMMARY_KEYS)
    assert {k: summary[k] for k in ("boards", "total_moves", "proven", "proven_moves", "wall_s")} == {
        "boards": 3,
        "total_moves": 30,
        "proven": 1,
        "proven_moves": 12,
        "wall_s": 1.5,
    }
    assert (summary["median_ms"], summary["max_ms"]) == (200.0, 400.0)
    assert summary["peak_rss_mb"] > 10
    empty = report.summarize([None], wall=0.0)
    assert (empty["boards"], empty["median_ms"], empty["max_ms"]) == (0, 0.0, 0.0)


@pytest.mark.parametrize("proven", [True, False], ids=["opt", "best"])
def test_compare_known(proven: bool) -> None:
    rep = FileReport("set.txt", "lines", 0, 5, known=[10, 10, 10, 10, 10], known_proven=proven)
    report.compare_known(rep, [result(10), result(12, stopped="time"), result(9), result(0, error="E: x"), None])
    assert rep.longer == [(2, 12, 10)]
    assert (rep.bugs, rep.records) == (([(3, 9, 10)], []) if proven else ([], [(3, 9, 10)]))
    assert rep.errors == [(4, "E: x")]
    assert rep.stopped == {"time": 1}


def test_load_expect(tmp_path: Path) -> None:
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("")
    b.write_text("")
    assert report.load_expect(None, [str(a), str(b)]) == [None, None]
    write_lengths(tmp_path / "a.opt", [3, 4])
    write_lengths(tmp_path / "b.best", [5])
    assert report.load_expect(["auto"], [str(a), str(b)]) == [
        (str(tmp_path / "a.opt"), [3, 4]),
        (str(tmp_path / "b.best"), [5]),
    ]
    with pytest.raises(ColoritError, match="--expect given 2 times for 1 file;"):
        report.load_expect(["x", "y"], [str(a)])
    (tmp_path / "a.opt").unlink()
    with pytest.raises(ColoritError, match=r"a.txt: no .opt or .best file beside it"):
        report.load_expect(["auto"], [str(a)])


def test_print_report() -> None:
    rep = FileReport("/x/set.txt", "lines", 0, 25, known=[5] * 25)
    results = [result(6) for _ in range(23)] + [result(5, proven=True), None]
    report.compare_known(rep, results)
    out = io.StringIO()
    report.print_report(report.summarize(results, 1.0), [rep], results, out)
    text = out.getvalue()
    assert "longer than known: 23 boards" in text
    assert "  board 1: ours 6, known 5 (+1)" in text
    assert f"  ... and {23 - report.MAX_REPORTED} more" in text
    row = next(line for line in text.splitlines() if line.startswith("set.txt"))
    assert row.split() == ["set.txt", "24/25", str(23 * 6 + 5), "1", str(24 * 5), "+23", "-"]
    assert any(line.split() == ["total_moves", str(23 * 6 + 5)] for line in text.splitlines())
