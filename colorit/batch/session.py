"""One ``colorit bench`` run, from its parsed options to its written outputs.

``BenchRun`` reads the sets and what a resumed run kept (the journal ``OUT.journal`` of
``--solutions OUT``, or the records of ``--results FILE``), picks the runner (this
process, ``--workers`` processes, or a Dask cluster), solves in one pass at
``--time-limit`` or in the passes of a ``--budget`` (``passes``), and writes the answers,
the journal, the results and the JSON summary, each whole (``outputs``).
``colorit.cli.bench`` parses the command line, runs it under the signal guard, draws the
plot from ``chart`` and prints what it returns.

Ctrl-C asks the running searches to stop and return what they have, skips the boards not
started, and still writes what was done.
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Sequence
from typing import Any

from ..errors import ColoritError
from ..game.board import Board
from ..log import PROG
from .inputs import BenchInputs, BenchOptions
from .outputs import BenchChart, BenchOutcome, BenchOutputs
from .passes import Passes, first_todo
from .solving import StopFlag


def pick_runner(o: BenchOptions, boards: Sequence[Board], stack: contextlib.ExitStack) -> tuple[Any, int | None, int]:
    """The runner for ``boards`` (those left to solve), warm for them before any board's
    clock starts (closed with ``stack``), each search's share of the memory
    (``machine.memory_share``; ``None``: each Dask worker's own) and how many searches
    run at once."""
    from ..machine import available_cpus, default_memory_bytes, memory_share
    from .solving import InProcess

    runner: Any
    if o.scheduler is not None:
        from .dask_client import DaskRunner

        runner = DaskRunner.start(o.scheduler)
        stack.callback(runner.close)
        workers = max(1, runner.threads)
        if not o.quiet:
            print(f"{PROG} bench: {runner.describe()}", file=sys.stderr)
        # --max-memory shared by the cluster's threads; without it each worker gives
        # its threads a share of its own memory limit (``dask_worker.worker_limits``)
        total = o.max_memory
    else:
        workers = max(1, min((o.workers if o.workers is not None else 1) or available_cpus(), len(boards)))
        total = o.max_memory if o.max_memory is not None else default_memory_bytes()
        if workers == 1:
            runner = InProcess()
        else:
            from .local import ProcessPool  # (multiprocessing's pool: ~10 ms of a start)

            runner = ProcessPool(workers, keep=o.budget is not None)
            stack.callback(runner.close)
    runner.warm(o.algo, boards)
    return runner, None if total is None else memory_share(total, workers), workers


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

    def run(self, guard: Any) -> BenchOutcome:
        """Solve and write everything; ``guard`` is the command's signal guard."""
        from ..log import Progress

        o, inputs = self.o, self.inputs
        todo = first_todo(inputs)
        with contextlib.ExitStack() as stack:
            runner: Any = None
            memory: int | None = None
            if todo:
                runner, memory, self.workers = pick_runner(o, [inputs.boards[i] for i in todo], stack)
            stop = StopFlag()
            guard.on_stop(stop.set)
            if runner is not None and hasattr(runner, "terminate"):
                guard.on_abort(runner.terminate)
            passes = Passes(inputs, runner, memory, stop, self.started, self.workers)
            writer = passes.journal_writer(stack)
            # a budget's passes report their own progress
            progress = Progress(len(todo), "board", label="bench", enabled=not o.quiet and o.budget is None)
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

    def chart(self, out: BenchOutcome) -> BenchChart:
        """The data of the ``--plot`` chart (``outputs.BenchChart``)."""
        assert self.outputs is not None, "run() first"
        return self.outputs.chart(out)

    def print(self, out: BenchOutcome, to: Any) -> None:
        """The report (tables and mismatches) to ``to``."""
        assert self.outputs is not None, "run() first"
        self.outputs.print(out, to)
