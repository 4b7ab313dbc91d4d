"""One ``colorit bench`` run, from its parsed options to its written outputs.

``BenchRun`` reads the sets and what a resumed run kept (the journal ``OUT.journal`` of
``--solutions OUT``, or the records of ``--results FILE``), picks the runner (this
process, ``--workers`` processes, or a Dask cluster), solves in one pass at
``--time-limit`` or in the passes of a ``--budget`` (``passes``), and writes the answers,
the journal, the results, the JSON summary and the plot, each whole (``outputs``).
``colorit.cli.bench`` parses the command line, runs it under the signal guard and prints
what it returns.

Ctrl-C asks the running searches to stop and return what they have, skips the boards not
started, and still writes what was done.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..game.board import Board
from ..errors import ColoritError
from ..log import PROG
from .journal import journal_path, read_journal
from .outputs import BenchOutcome, BenchOutputs
from .passes import Passes, first_todo
from .report import FileReport, load_expect
from .results import Campaign
from .solving import BoardResult, StopFlag


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
        from ..io.files import check_files

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
        check_files(
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
        from ..io.datasets import lengths_are_proven, read_board_set

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
    """One run from its inputs (see the module's docstring): ``check`` and ``load`` read
    the inputs, ``run`` picks the runner, solves (``passes``) and writes (``outputs``)."""

    def __init__(self, opts: BenchOptions, started: float) -> None:
        self.o = opts
        self.started = started
        self.inputs = BenchInputs(opts)
        self.workers = 1
        self.outputs: BenchOutputs | None = None

    def check(self) -> None:
        self.inputs.check()

    def load(self) -> None:
        self.inputs.load()

    def import_journal(self) -> str:
        return self.inputs.import_journal()

    def _runner(self, stack: contextlib.ExitStack, todo: Sequence[int]) -> tuple[Any, int | None]:
        """The runner and the per-search memory share."""
        from ..machine import available_cpus, default_memory_bytes
        from ..runtime.warmup import warm_up, widths_for
        from .local import InProcess, ProcessPool

        o, boards = self.o, self.inputs.boards
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
            runner.warm(o.algo, widths_for(o.algo, [boards[i] for i in todo]))  # before any board's clock
            return runner, memory
        workers = o.workers if o.workers is not None else 1
        self.workers = max(1, min(workers or available_cpus(), max(1, len(todo))))
        total_memory = o.max_memory if o.max_memory is not None else default_memory_bytes()
        memory = max(1 << 20, total_memory // self.workers)
        if self.workers == 1:
            warm_up(o.algo, [boards[i] for i in todo])  # compiled before any board's clock starts
            return InProcess(), memory
        warm_up(o.algo, [])  # each worker loads what its boards need
        pool = ProcessPool(self.workers, keep=o.budget is not None)
        stack.callback(pool.close)
        return pool, memory

    def run(self, guard: Any) -> BenchOutcome:
        """Solve and write everything; ``guard`` is the command's signal guard."""
        from ..log import Progress

        o, inputs = self.o, self.inputs
        todo = first_todo(inputs)
        with contextlib.ExitStack() as stack:
            runner: Any = None
            memory: int | None = None
            if todo:
                runner, memory = self._runner(stack, todo)
            stop = StopFlag()
            guard.on_stop(stop.set)
            if runner is not None and hasattr(runner, "terminate"):
                guard.on_abort(runner.terminate)
            passes = Passes(inputs, runner, memory, stop, self.started, self.workers)
            writer = passes.journal_writer(stack)
            # a budget's passes report their own progress
            progress = Progress(len(todo), "boards", label="bench", enabled=not o.quiet and o.budget is None)
            t_solve = time.monotonic()
            try:
                solved = passes.budget() if o.budget is not None else passes.one(o.time_limit, todo, progress, writer)
            except ColoritError:
                if writer is not None:
                    writer.close()
                    print(f"{inputs.journal}: keeps the answers finished so far; run the same command with --resume "
                          "to solve the rest", file=sys.stderr)
                raise
            finally:
                progress.close()
                if inputs.campaign is not None and o.results is not None:
                    inputs.campaign.write()
            solve_s = time.monotonic() - t_solve
            results = passes.final_results(solved)
            interrupted = guard.requested or any(r is None for r in results)
            self.outputs = BenchOutputs(passes)
            outcome = self.outputs.outcome(results, interrupted)
            self.outputs.write(outcome, guard, writer, solved, solve_s)
            if runner is not None and hasattr(runner, "close"):
                runner.close()  # under the guard: a late signal ends it the guard's way
        return outcome

    def print(self, out: BenchOutcome, to: Any) -> None:
        """The report (tables and mismatches) to ``to``."""
        assert self.outputs is not None, "run() first"
        self.outputs.print(out, to)
