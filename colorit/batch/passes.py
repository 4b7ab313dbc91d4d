"""The solving of one ``colorit bench`` run: one pass over the boards at ``--time-limit``,
or the passes of a ``--budget`` with growing limits (``planner``), each result going to
the journal and the campaign's records as its chunk finishes, so an interrupted run keeps
what it did."""

from __future__ import annotations

import contextlib
import sys
import threading
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..log import PROG, plural
from .journal import JournalWriter, worth_keeping
from .planner import BudgetPlanner, Pass
from .solving import BoardResult, Seed, StopFlag, solve_boards

if TYPE_CHECKING:
    from .inputs import BenchInputs
    from .results import Campaign


def first_todo(inputs: BenchInputs) -> list[int]:
    """The boards a run starts with: those a resumed run has no answer for, the
    campaign's boards due at this limit, or a budget's unproven boards."""
    opts, n = inputs.o, len(inputs.boards)
    if inputs.campaign is not None:
        if opts.budget is not None:
            return [i for i in range(n) if not is_proven(inputs.campaign, i)]
        return inputs.campaign.todo(opts.time_limit)
    return [i for i in range(n) if i not in inputs.kept]


def is_proven(campaign: Campaign, i: int) -> bool:
    rec = campaign.records.get(i)
    return rec is not None and rec.proven


def promise(campaign: Campaign, i: int) -> tuple[int, float]:
    """How near board ``i`` seems to a proof: the gap between its answer and its bound,
    then the time it has had (boards without an answer last)."""
    rec = campaign.records.get(i)
    if rec is None or not rec.moves:
        return (1 << 30, 0.0)
    return (len(rec.moves) - rec.lower_bound, rec.seconds)


class Passes:
    """The passes of one run over ``inputs``' boards with ``runner`` (``None`` when no
    board is left to solve); ``journaled`` (boards whose answer is in the journal) and
    ``records`` (one entry a budget's pass) are read by the outputs."""

    def __init__(self, inputs: BenchInputs, runner: Any, memory: int | None, stop: StopFlag, started: float,
                 workers: int) -> None:
        self.o = inputs.o
        self.inputs = inputs
        self.runner = runner
        self.memory = memory
        self.stop = stop
        self.started = started
        self.workers = workers
        self.journaled: set[int] = set(inputs.kept)
        self.records: list[dict[str, Any]] = []

    @property
    def campaign(self) -> Campaign | None:
        return self.inputs.campaign

    def journal_writer(self, stack: contextlib.ExitStack) -> JournalWriter | None:
        """The journal of ``--solutions OUT`` (closed with ``stack``), if it keeps one."""
        inputs = self.inputs
        if inputs.journal is None:
            return None
        writer = JournalWriter(inputs.journal, inputs.boards, inputs.run_key, inputs.kept, inputs.foreign)
        stack.callback(writer.close)
        return writer

    def one(self, limit: float, todo: Sequence[int], progress: Any, writer: JournalWriter | None) -> list[BoardResult | None]:
        """One pass over ``todo`` at ``limit`` s a board (from the campaign's seeds, if any)."""
        from ..solvers import Limits

        boards = self.inputs.boards
        campaign = self.campaign
        seeds: dict[int, Seed] = campaign.seeds(todo) if campaign is not None else {}
        moves_so_far = [0]

        def on_results(first: int, chunk: list[Any]) -> None:
            got = [(first + k, r) for k, r in enumerate(chunk) if r is not None]
            if writer is not None:
                keep = [(i, r) for i, r in got if worth_keeping(r)]
                writer.append(keep)
                self.journaled.update(i for i, _ in keep)
            if campaign is not None:
                for i, r in got:
                    if worth_keeping(r):
                        campaign.merge(i, r, limit)
                campaign.write(force=False)
            moves_so_far[0] += sum(len(r.moves) for _, r in got)
            progress.update(len(got), note=plural(moves_so_far[0], "move"))

        if not todo:
            return [None] * len(boards)
        limits = Limits(time=limit, memory=self.memory)
        return solve_boards(boards, self.o.algo, limits, self.runner, todo=todo, on_results=on_results,
                            stop=self.stop, seeds=seeds)

    def budget(self) -> list[BoardResult | None]:
        """Passes with growing limits until the budget is spent (``planner``)."""
        from ..log import Progress

        campaign, o = self.campaign, self.o
        assert campaign is not None and o.budget is not None
        planner = BudgetPlanner(o.budget, self.started, self.workers, o.time_limit if o.time_limit_given else None)
        timer = threading.Timer(max(0.0, planner.deadline - time.monotonic()), self.stop.set)
        timer.daemon = True
        timer.start()
        n = len(self.inputs.boards)
        try:
            while not self.stop.requested:
                unproven = sorted((i for i in range(n) if not is_proven(campaign, i)), key=lambda i: promise(campaign, i))
                p: Pass | None = planner.next_pass(unproven, time.monotonic())
                if p is None:
                    break
                t0 = time.monotonic()
                progress = Progress(len(p.todo), "board", label=f"bench pass {p.number}", enabled=not o.quiet)
                try:
                    self.one(p.limit, p.todo, progress, None)
                finally:
                    progress.close()
                self.records.append({"pass": p.number, "limit_s": round(p.limit, 4), "boards": len(p.todo),
                                     "seconds": round(time.monotonic() - t0, 3)})
                if not o.quiet:
                    t = campaign.totals()
                    print(f"{PROG} bench: pass {p.number}: {plural(len(p.todo), 'board')} at {p.limit:.3g} s; now {t['proven']} proven, "
                          f"{plural(t['total_moves'], 'move')}, lower bound {t['certified_lower_bound']}", file=sys.stderr)
        finally:
            timer.cancel()
        return [campaign.result(i) for i in range(n)]

    def final_results(self, solved: list[BoardResult | None]) -> list[BoardResult | None]:
        """Each board's answer: the campaign's record, or what was kept or solved now."""
        if self.campaign is not None:
            return [self.campaign.result(i) for i in range(len(self.inputs.boards))]
        return [self.inputs.kept.get(i, r) for i, r in enumerate(solved)]
