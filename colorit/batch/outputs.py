"""What one ``colorit bench`` run writes and prints: the answers file, the journal's end
(removed when every answer is in the answers file), the JSON summary with its per-board
records and the report. Each file is written whole (``runtime.signals.write_output``).
The plot's data is here too (``BenchChart``); drawing it is the command line's
(``render`` sits above the batch layer)."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..log import plural
from .report import FileReport, board_records, compare_known, interval_pct, print_report, summarize
from .solving import BoardResult

if TYPE_CHECKING:
    from .journal import JournalWriter
    from .passes import Passes


@dataclass(frozen=True)
class BenchChart:
    """What ``--plot`` draws, as ``render.charts.bench_chart`` takes it: each answered
    board's length and time, the known lengths (when every set has them) and a title."""

    lengths: list[int]
    times_ms: list[float]
    known: list[int] | None
    title: str


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


class BenchOutputs:
    """The outputs of a run solved by ``passes`` (over its inputs); ``notes`` are lines
    for standard error (kept files, partial answers)."""

    def __init__(self, passes: Passes) -> None:
        self.o = passes.o
        self.inputs = passes.inputs
        self.passes = passes
        self.notes: list[str] = []

    def outcome(self, results: list[BoardResult | None], interrupted: bool) -> BenchOutcome:
        """The summary and each file's comparison with its known lengths."""
        summary = summarize(results, time.monotonic() - self.passes.started)
        runner = self.passes.runner
        if runner is not None and hasattr(runner, "peak_rss_mb"):  # the largest process, the workers' included
            summary["peak_rss_mb"] = max(summary["peak_rss_mb"], runner.peak_rss_mb())
        for rep in self.inputs.reports:
            compare_known(rep, results[rep.first : rep.first + rep.count])
        return BenchOutcome(summary, self.inputs.reports, results, interrupted, self.notes)

    def write(self, out: BenchOutcome, guard: Any, writer: JournalWriter | None,
              solved: list[BoardResult | None], solve_s: float) -> None:
        """Every file asked for, each whole, under the command's signal ``guard``."""
        from ..io.datasets import solutions_text
        from ..runtime.signals import write_output

        o = self.o
        if o.solutions:
            # a line per board in input order; after an interrupt, the boards up to the first gap
            answers = []
            for r in out.results:
                if r is None or r.error:
                    break
                answers.append(r.moves)
            write_output(o.solutions, solutions_text(answers), guard)
            if len(answers) < len(out.results):
                self.notes.append(f"{o.solutions}: wrote the answers of the first {len(answers)} of {plural(len(out.results), 'board')}")
        if writer is not None:
            self._close_journal(writer)
        if o.json:
            write_output(o.json, json_text(json_document(out, self.passes, solved, solve_s)), guard)

    def _close_journal(self, writer: JournalWriter) -> None:
        n = len(self.inputs.boards)
        journaled, journal = self.passes.journaled, self.inputs.journal
        if len(journaled) == n and not self.inputs.foreign:
            writer.remove()  # every answer is in the answers file now
        elif len(journaled) == n:
            writer.close()
            self.notes.append(f"{journal}: kept: it also holds {plural(len(self.inputs.foreign), 'answer')} for boards not in this run")
        else:
            writer.close()
            missing = [i for i in range(n) if i not in journaled]
            self.notes.append(
                f"{journal}: keeps {len(journaled)} of {plural(n, 'answer')}; the same command with --resume "
                f"solves the other {len(missing)} (boards {ranges(missing)})"
            )

    def chart(self, out: BenchOutcome) -> BenchChart:
        """The data of the ``--plot`` chart: the boards answered without an error."""
        done = [(k, r) for k, r in enumerate(out.results) if r is not None and not r.error]
        known_all: list[int] | None = None
        if all(rep.known is not None for rep in out.reports):
            known_all = [v for rep in out.reports for v in (rep.known or [])]
        per = f"{self.o.time_limit:g} s per board" if self.o.budget is None else f"budget {self.o.budget:g} s"
        return BenchChart(
            lengths=[len(r.moves) for _, r in done],
            times_ms=[r.elapsed * 1000 for _, r in done],
            known=None if known_all is None else [known_all[k] for k, _ in done],
            title=f"{', '.join(os.path.basename(f) for f in self.o.files)}: {self.o.algo}, {per}",
        )

    def print(self, out: BenchOutcome, to: Any) -> None:
        """The report (tables and mismatches) to ``to``, and a campaign's certified interval."""
        print_report(out.summary, out.reports, out.results, to)
        campaign = self.inputs.campaign
        if campaign is not None and (self.o.results or self.o.budget):
            t = campaign.totals()
            print(f"\ncertified: {t['proven']} of {plural(len(self.inputs.boards), 'board')} proven; the optimal total lies between "
                  f"{t['certified_lower_bound']} and {t['total_moves']} (an interval {t['interval_pct']:g}% wide)", file=to)


def json_text(doc: dict[str, Any]) -> str:
    """``doc`` as ``json.dumps(doc, indent=2)`` lays it out, but each board's record on
    one line: an indent takes Python's pure-Python encoder, 8-9 ms for a thousand boards'
    records, where the compiled one writes them compact in 3."""
    rows = doc.get("board_results")
    if not rows:
        return json.dumps(doc, indent=2) + "\n"
    head = json.dumps({k: v for k, v in doc.items() if k != "board_results"}, indent=2)
    lines = ",\n".join("    " + json.dumps(row) for row in rows)
    return f'{head[:-2]},\n  "board_results": [\n{lines}\n  ]\n}}\n'


def json_document(out: BenchOutcome, passes: Passes, solved: list[BoardResult | None], solve_s: float) -> dict[str, Any]:
    """The ``--json`` summary: the totals, how the run went, each file's comparison and
    every board's record (moves spelled in the set's digits where they fit)."""
    opts, inputs = passes.o, passes.inputs
    from ..io.datasets import ALPHABET, alphabet_fits

    chars = all(r is None or alphabet_fits(r.moves) for r in out.results)

    def spell(moves: Sequence[int]) -> list[Any]:
        return [ALPHABET[m - 1] for m in moves] if chars else [int(m) for m in moves]

    doc = dict(out.summary)
    doc.update(
        interval_pct=round(interval_pct(out.summary), 3),
        algo=opts.algo,
        workers=passes.workers,
        scheduler=opts.scheduler,
        time_limit_s=opts.time_limit,
        budget_s=opts.budget,
        passes=passes.records or None,
        interrupted=out.interrupted,
        resumed=len(inputs.kept),
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
