"""What one ``colorit bench`` run starts from: its options (``BenchOptions``, as the
command line parsed them), checked together before any work, and its inputs
(``BenchInputs``): the sets read, their known lengths, and what a resumed run kept (the
journal ``OUT.journal`` of ``--solutions OUT``, or the records of ``--results FILE``).
``--import-journal`` ends here: the journal's answers go into the results file, nothing
is solved."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from typing import Any

from ..errors import ColoritError
from ..game.board import Board
from ..log import PROG, plural
from .journal import journal_path, read_journal
from .report import FileReport, load_expect
from .results import Campaign
from .solving import BoardResult


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
                    raise BenchUsageError(f"{known_path}: has {plural(len(lengths), 'length')} but {f} has {plural(len(bset), 'board')}")
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
            note = f"resumed {plural(len(self.kept), 'answer')} from {self.journal}, solving {len(self.boards) - len(self.kept)}{redone}"
            if self.foreign:
                note += f"; {plural(len(self.foreign), 'line')} for other boards stay in the journal"
        else:
            note = f"no journal {self.journal} to resume: solving all {plural(len(self.boards), 'board')}"
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
        return (f"{PROG} bench: imported {plural(n, 'answer')} from {path} into {self.o.results}: {t['proven']} of {t['boards']} proven, "
                f"{plural(t['total_moves'], 'move')}, certified lower bound {t['certified_lower_bound']} ({t['interval_pct']:g}%)")
