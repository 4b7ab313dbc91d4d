"""One ``colorit bench`` run, from its parsed options to its written outputs.

``BenchRun`` reads the sets and what a resumed run kept (the journal ``OUT.journal`` of
``--solutions OUT``, or the records of ``--results FILE``), picks the runner (this
process, ``--workers`` processes, or a Dask cluster), solves in one pass at
``--time-limit`` or in the passes of a ``--budget``, and writes the answers, the journal,
the results, the JSON summary and the plot, each whole. ``colorit.cli.bench`` parses the
command line, runs it under the signal guard and prints what it returns.

Ctrl-C asks the running searches to stop and return what they have, skips the boards not
started, and still writes what was done.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..board import Board
from ..errors import ColoritError
from ..log import PROG
from .journal import JournalWriter, journal_path, read_journal, worth_keeping
from .planner import BudgetPlanner, Pass
from .report import (
    FileReport,
    board_records,
    compare_known,
    interval_pct,
    load_expect,
    print_report,
    summarize,
)
from .results import Campaign
from .solving import BoardResult, Seed, StopFlag, solve_boards


class BenchUsageError(ColoritError):
    """Options that do not go together (exit status 2, like every usage error)."""


@dataclass
class BenchOptions:
    """What ``colorit bench`` was asked (see its ``--help``)."""

    files: list[str]
    algo: str = "auto"
    time_limit: float = 60.0
    start: Any = None
    workers: int | None = None
    scheduler: str | None = None
    resume: bool = False
    solutions: str | None = None
    json: str | None = None
    plot: str | None = None
    expect: list[str] | None = None
    limit: int | None = None
    max_memory: int | None = None
    quiet: bool = False
    results: str | None = None
    budget: float | None = None
    import_journal: str | None = None
    time_limit_given: bool = True


@dataclass
class BenchOutcome:
    """What a run did, for the command to print and to turn into its exit status."""

    summary: dict[str, Any]
    reports: list[FileReport]
    results: list[BoardResult | None]
    interrupted: bool
    notes: list[str] = field(default_factory=list)  #: lines for standard error

    @property
    def bugs(self) -> int:
        return sum(len(r.bugs) for r in self.reports)

    @property
    def failed(self) -> bool:
        return bool(self.bugs or any(rep.longer or rep.errors for rep in self.reports))


def ranges(indices: Sequence[int], most: int = 8) -> str:
    """Board numbers (from 1) as ranges: ``3, 7-9, 12`` (the first ``most`` ranges)."""
    spans: list[list[int]] = []
    for i in indices:
        if spans and spans[-1][1] == i:
            spans[-1][1] = i + 1
        else:
            spans.append([i, i + 1])
    text = ", ".join(f"{a + 1}" if b == a + 1 else f"{a + 1}-{b}" for a, b in spans[:most])
    return text + (", ..." if len(spans) > most else "")


class BenchInputs:
    """What a run starts from: the options checked, the sets read, and what a resumed run
    kept (the journal's answers, or the campaign's records)."""

    def __init__(self, opts: BenchOptions) -> None:
        self.o = opts
        self.boards: list[Board] = []
        self.reports: list[FileReport] = []
        self.kept: dict[int, BoardResult] = {}
        self.foreign: list[str] = []
        self.campaign: Campaign | None = None
        self.journal = (
            os.fspath(journal_path(opts.solutions))
            if opts.solutions not in (None, "-") and opts.results is None and opts.budget is None
            else None
        )
        self.run_key = {"algo": opts.algo, "time_limit": opts.time_limit}

    # -- before any work

    def check(self) -> None:
        """Refuse options that do not go together, and outputs over inputs."""
        from ..cli import core

        o = self.o
        if o.scheduler is not None and o.workers is not None:
            raise BenchUsageError("--workers is for processes on this machine; with --scheduler the cluster's workers solve")
        if o.resume and o.results is None and self.journal is None:
            raise BenchUsageError("--resume needs --solutions FILE (it continues from FILE.journal) or --results FILE")
        if o.import_journal is not None and o.results is None:
            raise BenchUsageError("--import-journal needs --results FILE: the journal's answers go there")
        if o.budget is not None and o.resume and o.results is None:
            raise BenchUsageError("--budget resumes through --results FILE, which keeps each board's answer between runs")
        expects = load_expect(o.expect, o.files)
        core.check_files(
            [*o.files, *(e[0] for e in expects if e is not None), o.import_journal],
            [o.solutions, o.json, o.plot, self.journal, o.results],
        )
        if self.journal is not None and os.path.lexists(self.journal) and not o.resume:
            raise BenchUsageError(
                f"{self.journal}: holds the answers of a run that did not finish; pass --resume to continue it, or delete it to start over"
            )
        if o.results is not None and os.path.lexists(o.results) and not (o.resume or o.import_journal):
            raise BenchUsageError(f"{o.results}: holds a campaign's results; pass --resume to go on with it, or delete it to start over")
        self._expects = expects

    def load(self) -> None:
        """Read the sets, and what a resumed run kept."""
        from ..datasets import lengths_are_proven, read_board_set

        for f, known in zip(self.o.files, self._expects):
            try:
                bset = read_board_set(f, start=self.o.start, limit=self.o.limit)
            except ColoritError as e:
                if self.o.start is not None and str(e).startswith("start cell"):
                    raise BenchUsageError(f"{f}: --start{str(e)[len('start cell'):]}") from None
                raise
            rep = FileReport(f, bset.format, len(self.boards), len(bset))
            if known is not None:
                known_path, lengths = known
                if len(lengths) < len(bset):
                    raise BenchUsageError(f"{known_path}: has {len(lengths)} lengths but {f} has {len(bset)} boards")
                rep.known, rep.known_path, rep.known_proven = lengths[: len(bset)], known_path, lengths_are_proven(known_path)
            self.boards.extend(bset.boards)
            self.reports.append(rep)
        if self.o.results is not None or self.o.budget is not None:
            self.campaign = Campaign(self.o.results, self.boards)
            self.campaign.read()
        if self.o.resume and self.journal is not None:
            self._read_journal()

    def _read_journal(self) -> None:
        assert self.journal is not None
        if os.path.exists(self.journal):
            back = read_journal(self.journal, self.boards, self.run_key)
            self.kept, self.foreign = back.answers, back.foreign
            redone = f" ({back.describe_redone()} redone)" if back.redone else ""
            note = f"resumed {len(self.kept)} answers from {self.journal}, solving {len(self.boards) - len(self.kept)}{redone}"
            if self.foreign:
                note += f"; {len(self.foreign)} lines for other boards stay in the journal"
        else:
            note = f"no journal {self.journal} to resume: solving all {len(self.boards)} boards"
        print(f"{PROG} bench: {note}", file=sys.stderr)

    def import_journal(self) -> str:
        """``--import-journal``: the journal's answers into the results file (no solving)."""
        from .journal import parse_header

        assert self.campaign is not None and self.o.import_journal is not None
        path = self.o.import_journal
        with open(path, encoding="utf-8") as f:
            header = parse_header(f.readline())
        if header is None:
            raise ColoritError(f"{path}:1: not a colorit bench journal")
        back = read_journal(path, self.boards, header)
        n = self.campaign.import_journal(back.answers, float(header.get("time_limit") or 0.0))
        self.campaign.write()
        t = self.campaign.totals()
        return (f"{PROG} bench: imported {n} answers from {path} into {self.o.results}: {t['proven']} of {t['boards']} proven, "
                f"{t['total_moves']} moves, certified lower bound {t['certified_lower_bound']} ({t['interval_pct']:g}%)")


class BenchRun:
    """One run from its inputs (see the module's docstring): the runner, the passes, the
    outputs. ``check`` and ``load`` read the inputs, ``run`` does the rest."""

    def __init__(self, opts: BenchOptions, started: float) -> None:
        self.o = opts
        self.started = started
        self.inputs = BenchInputs(opts)
        self.notes: list[str] = []
        self.workers = 1
        self.passes: list[dict[str, Any]] = []

    def check(self) -> None:
        self.inputs.check()

    def load(self) -> None:
        self.inputs.load()

    def import_journal(self) -> str:
        return self.inputs.import_journal()

    @property
    def boards(self) -> list[Board]:
        return self.inputs.boards

    @property
    def campaign(self) -> Campaign | None:
        return self.inputs.campaign

    @property
    def journal(self) -> str | None:
        return self.inputs.journal

    @property
    def kept(self) -> dict[int, BoardResult]:
        return self.inputs.kept

    # -- solving

    def _runner(self, stack: contextlib.ExitStack, todo: Sequence[int]) -> tuple[Any, int | None]:
        """The runner and the per-search memory share."""
        from ..cli import core
        from ..limits import available_cpus, default_memory_bytes
        from ..warmup import widths_for
        from .local import InProcess, ProcessPool

        o = self.o
        if o.scheduler is not None:
            from .dask_client import DaskRunner

            runner = DaskRunner.start(o.scheduler)
            stack.callback(runner.close)
            self.workers = max(1, runner.threads)
            if not o.quiet:
                print(f"{PROG} bench: {runner.describe()}", file=sys.stderr)
            # --max-memory shared by the cluster's threads; without it each worker gives
            # its threads a share of its own memory limit
            memory = None if o.max_memory is None else max(1 << 20, o.max_memory // self.workers)
            runner.warm(o.algo, widths_for(o.algo, [self.boards[i] for i in todo]))  # before any board's clock
            return runner, memory
        workers = o.workers if o.workers is not None else 1
        self.workers = max(1, min(workers or available_cpus(), max(1, len(todo))))
        total_memory = o.max_memory if o.max_memory is not None else default_memory_bytes()
        memory = max(1 << 20, total_memory // self.workers)
        if self.workers == 1:
            core.warm_up(o.algo, [self.boards[i] for i in todo])  # compiled before any board's clock starts
            return InProcess(), memory
        core.warm_up(o.algo, [])  # each worker loads what its boards need
        pool = ProcessPool(self.workers, keep=self.o.budget is not None)
        stack.callback(pool.close)
        return pool, memory

    def run(self, guard: Any) -> BenchOutcome:
        """Solve and write everything; ``guard`` is the command's signal guard."""
        from ..cli import core
        from ..solvers import Limits

        todo = self._first_todo()
        with contextlib.ExitStack() as stack:
            runner: Any = None
            memory: int | None = None
            if todo:
                runner, memory = self._runner(stack, todo)
            stop = StopFlag()
            guard.on_stop(stop.set)
            if runner is not None and hasattr(runner, "terminate"):
                guard.on_abort(runner.terminate)
            writer = self._journal_writer(stack)
            # a budget's passes report their own progress
            progress = core.Progress(len(todo), "boards", label="bench", enabled=not self.o.quiet and self.o.budget is None)
            t_solve = time.monotonic()
            try:
                if self.o.budget is not None:
                    solved = self._budget_passes(runner, memory, stop)
                else:
                    limit = self.o.time_limit
                    solved = self._pass(runner, Limits(time=limit, memory=memory), todo, stop, progress, writer, limit)
            except ColoritError:
                if writer is not None:
                    writer.close()
                    print(f"{self.journal}: keeps the answers finished so far; run the same command with --resume "
                          "to solve the rest", file=sys.stderr)
                raise
            finally:
                progress.close()
                if self.campaign is not None and self.o.results is not None:
                    self.campaign.write()
            solve_s = time.monotonic() - t_solve
            results = self._final_results(solved)
            interrupted = guard.requested or any(r is None for r in results)
            outcome = self._outcome(results, interrupted, runner)
            self._write_outputs(outcome, guard, writer, solved, solve_s)
            if runner is not None and hasattr(runner, "close"):
                runner.close()  # under the guard: a late signal ends it the guard's way
        return outcome

    def _first_todo(self) -> list[int]:
        if self.campaign is not None:
            if self.o.budget is not None:
                return [i for i in range(len(self.boards)) if not self._proven(i)]
            return self.campaign.todo(self.o.time_limit)
        return [i for i in range(len(self.boards)) if i not in self.kept]

    def _promise(self, i: int) -> tuple[int, float]:
        """How near board ``i`` seems to a proof: the gap between its answer and its bound,
        then the time it has had (boards without an answer last)."""
        assert self.campaign is not None
        rec = self.campaign.records.get(i)
        if rec is None or not rec.moves:
            return (1 << 30, 0.0)
        return (len(rec.moves) - rec.lower_bound, rec.seconds)

    def _proven(self, i: int) -> bool:
        assert self.campaign is not None
        rec = self.campaign.records.get(i)
        return rec is not None and rec.proven

    def _journal_writer(self, stack: contextlib.ExitStack) -> JournalWriter | None:
        if self.journal is None:
            return None
        writer = JournalWriter(self.journal, self.boards, self.inputs.run_key, self.kept, self.inputs.foreign)
        stack.callback(writer.close)
        self._journaled = set(self.kept)
        return writer

    def _pass(self, runner: Any, limits: Any, todo: Sequence[int], stop: StopFlag, progress: Any,
              writer: JournalWriter | None, limit: float) -> list[BoardResult | None]:
        """One pass over ``todo`` (from the campaign's seeds, if any)."""
        seeds: dict[int, Seed] = self.campaign.seeds(todo) if self.campaign is not None else {}
        moves_so_far = [0]

        def on_results(first: int, chunk: list[Any]) -> None:
            got = [(first + k, r) for k, r in enumerate(chunk) if r is not None]
            if writer is not None:
                keep = [(i, r) for i, r in got if worth_keeping(r)]
                writer.append(keep)
                self._journaled.update(i for i, _ in keep)
            if self.campaign is not None:
                for i, r in got:
                    if worth_keeping(r):
                        self.campaign.merge(i, r, limit)
                self.campaign.write(force=False)
            moves_so_far[0] += sum(len(r.moves) for _, r in got)
            progress.update(len(got), note=f"{moves_so_far[0]} moves")

        if not todo:
            return [None] * len(self.boards)
        return solve_boards(self.boards, self.o.algo, limits, runner, todo=todo, on_results=on_results, stop=stop, seeds=seeds)

    def _budget_passes(self, runner: Any, memory: int | None, stop: StopFlag) -> list[BoardResult | None]:
        """Passes with growing limits until the budget is spent (``planner``)."""
        from ..cli import core
        from ..solvers import Limits

        assert self.campaign is not None and self.o.budget is not None
        planner = BudgetPlanner(self.o.budget, self.started, self.workers,
                                self.o.time_limit if self.o.time_limit_given else None)
        timer = threading.Timer(max(0.0, planner.deadline - time.monotonic()), stop.set)
        timer.daemon = True
        timer.start()
        try:
            while not stop.requested:
                unproven = sorted((i for i in range(len(self.boards)) if not self._proven(i)), key=self._promise)
                p: Pass | None = planner.next_pass(unproven, time.monotonic())
                if p is None:
                    break
                t0 = time.monotonic()
                progress = core.Progress(len(p.todo), "boards", label=f"bench pass {p.number}", enabled=not self.o.quiet)
                try:
                    self._pass(runner, Limits(time=p.limit, memory=memory), p.todo, stop, progress, None, p.limit)
                finally:
                    progress.close()
                self.passes.append({"pass": p.number, "limit_s": round(p.limit, 4), "boards": len(p.todo),
                                    "seconds": round(time.monotonic() - t0, 3)})
                if not self.o.quiet:
                    t = self.campaign.totals()
                    print(f"{PROG} bench: pass {p.number}: {len(p.todo)} boards at {p.limit:.3g} s; now {t['proven']} proven, "
                          f"{t['total_moves']} moves, lower bound {t['certified_lower_bound']}", file=sys.stderr)
        finally:
            timer.cancel()
        return [self.campaign.result(i) for i in range(len(self.boards))]

    def _final_results(self, solved: list[BoardResult | None]) -> list[BoardResult | None]:
        if self.campaign is not None:
            return [self.campaign.result(i) for i in range(len(self.boards))]
        return [self.kept.get(i, r) for i, r in enumerate(solved)]

    # -- outputs

    def _outcome(self, results: list[BoardResult | None], interrupted: bool, runner: Any) -> BenchOutcome:
        summary = summarize(results, time.monotonic() - self.started)
        if runner is not None and hasattr(runner, "peak_rss_mb"):  # the largest process, the workers' included
            summary["peak_rss_mb"] = max(summary["peak_rss_mb"], runner.peak_rss_mb())
        for rep in self.inputs.reports:
            compare_known(rep, results[rep.first : rep.first + rep.count])
        return BenchOutcome(summary, self.inputs.reports, results, interrupted, self.notes)

    def _write_outputs(self, out: BenchOutcome, guard: Any, writer: JournalWriter | None,
                       solved: list[BoardResult | None], solve_s: float) -> None:
        from ..cli import core
        from ..datasets import solutions_text

        o = self.o
        if o.solutions:
            # a line per board in input order; after an interrupt, the boards up to the first gap
            answers = []
            for r in out.results:
                if r is None or r.error:
                    break
                answers.append(r.moves)
            core.write_output(o.solutions, solutions_text(answers), guard)
            if len(answers) < len(out.results):
                self.notes.append(f"{o.solutions}: wrote the answers of the first {len(answers)} of {len(out.results)} boards")
        if writer is not None:
            self._close_journal(writer)
        if o.json:
            core.write_output(o.json, json.dumps(self._json_doc(out, solved, solve_s), indent=2) + "\n", guard)
        if o.plot:
            core.write_output(o.plot, self._plot(out), guard)

    def _close_journal(self, writer: JournalWriter) -> None:
        n = len(self.boards)
        if len(self._journaled) == n and not self.inputs.foreign:
            writer.remove()  # every answer is in the answers file now
        elif len(self._journaled) == n:
            writer.close()
            self.notes.append(f"{self.journal}: kept: it also holds {len(self.inputs.foreign)} answers for boards not in this run")
        else:
            writer.close()
            missing = [i for i in range(n) if i not in self._journaled]
            self.notes.append(
                f"{self.journal}: keeps {len(self._journaled)} of {n} answers; the same command with --resume "
                f"solves the other {len(missing)} (boards {ranges(missing)})"
            )

    def _json_doc(self, out: BenchOutcome, solved: list[BoardResult | None], solve_s: float) -> dict[str, Any]:
        from ..datasets import ALPHABET, alphabet_fits

        chars = all(r is None or alphabet_fits(r.moves) for r in out.results)

        def spell(moves: Sequence[int]) -> list[Any]:
            return [ALPHABET[m - 1] for m in moves] if chars else [int(m) for m in moves]

        doc = dict(out.summary)
        doc.update(
            interval_pct=round(interval_pct(out.summary), 3),
            algo=self.o.algo,
            workers=self.workers,
            scheduler=self.o.scheduler,
            time_limit_s=self.o.time_limit,
            budget_s=self.o.budget,
            passes=self.passes or None,
            interrupted=out.interrupted,
            resumed=len(self.kept),
            solved=sum(1 for r in solved if r is not None and not r.error),
            solve_s=round(solve_s, 3),
            errors=sum(len(r.errors) for r in out.reports),
            files=[
                {
                    "path": rep.path, "format": rep.format, "boards": rep.count, "expect": rep.known_path or None,
                    "longer": len(rep.longer), "shorter_than_proven": len(rep.bugs), "records": len(rep.records),
                    "stopped": rep.stopped,
                }
                for rep in out.reports
            ],
            board_results=board_records(out.results, out.reports, spell),
        )
        return doc

    def _plot(self, out: BenchOutcome) -> bytes:
        from ..render.charts import bench_chart

        done = [(k, r) for k, r in enumerate(out.results) if r is not None and not r.error]
        known_all: list[int] | None = None
        if all(rep.known is not None for rep in out.reports):
            known_all = [v for rep in out.reports for v in (rep.known or [])]
        per = f"{self.o.time_limit:g} s per board" if self.o.budget is None else f"budget {self.o.budget:g} s"
        return bench_chart(
            [len(r.moves) for _, r in done],
            [r.elapsed * 1000 for _, r in done],
            known=None if known_all is None else [known_all[k] for k, _ in done],
            title=f"{', '.join(os.path.basename(f) for f in self.o.files)}: {self.o.algo}, {per}",
        )

    def print(self, out: BenchOutcome, to: Any) -> None:
        """The report (tables and mismatches) to ``to``."""
        print_report(out.summary, out.reports, out.results, to)
        if self.campaign is not None and (self.o.results or self.o.budget):
            t = self.campaign.totals()
            print(f"\ncertified: {t['proven']} of {len(self.boards)} boards proven; the optimal total lies between "
                  f"{t['certified_lower_bound']} and {t['total_moves']} (an interval {t['interval_pct']:g}% wide)", file=to)
