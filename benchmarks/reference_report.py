"""What ``benchmarks/reference.py`` reads and prints: the answers in ColorFill's benchmark
output and in ``colorit bench --json``, their checks against the known lengths, and the
table with its header. No processes are run here (the tests feed it canned output).
"""

from __future__ import annotations

import re
import statistics
from dataclasses import dataclass, field
from typing import Any


# --------------------------------------------------------------------------- the answers


class OutputError(Exception):
    """A run's output that does not read as expected."""


@dataclass(frozen=True)
class Measured:
    """One whole process."""

    seconds: float  #: wall time of the whole process
    peak_mb: float  #: its peak resident memory (MiB)
    exit: int


@dataclass(frozen=True)
class Answers:
    """One run's answers."""

    lengths: list[int]  #: each answered board's moves, in board order
    proven: int | None = None  #: how many are proven optimal (None: the program does not say)
    moves: list[str] | None = None  #: the answers in the set's characters
    failed: int = 0  #: boards without an answer


_COLORFILL_BOARD = re.compile(r"^(\d+)\s+([^\s_]*)_{12}(\d+)\s*milliSeconds=(\d+)\s*$")
_COLORFILL_TOTAL = re.compile(r"^(\w+)\s+(\d+) solutions with\s+(\d+) steps\s*$")


def parse_colorfill(text: str) -> Answers:
    """The answers in what ``Starter -benchmark`` prints: a line per board (its number,
    its moves, twelve underscores, their count, its milliseconds), then
    ``STRATEGY  N solutions with  T steps`` and the time line."""
    moves: list[str] = []
    summary: tuple[int, int] | None = None
    for line in text.splitlines():
        if m := _COLORFILL_BOARD.match(line):
            if int(m[1]) != len(moves) + 1 or len(m[2]) != int(m[3]):
                raise OutputError(f"ColorFill's line {line.strip()!r} is out of order or miscounts its moves")
            moves.append(m[2])
        elif m := _COLORFILL_TOTAL.match(line):
            summary = int(m[2]), int(m[3])
    if summary is None:
        raise OutputError("ColorFill printed no summary ('... solutions with ... steps'): the run did not finish")
    if summary != (len(moves), sum(map(len, moves))):
        raise OutputError(f"ColorFill's summary {summary} disagrees with its {len(moves)} board lines")
    return Answers([len(m) for m in moves], moves=moves)


def parse_colorit(doc: dict[str, Any]) -> Answers:
    """The answers in ``colorit bench --json``'s document (its ``board_results``)."""
    records = doc.get("board_results")
    if not isinstance(records, list):
        raise OutputError("colorit's --json document has no board_results")
    done = [r for r in sorted(records, key=lambda r: r["index"]) if "error" not in r]
    return Answers([len(r["moves"]) for r in done], sum(bool(r["proven"]) for r in done), failed=len(records) - len(done))


def check_answers(side: str, got: Answers, boards: int, known: list[int] | None, proven: bool, exact: bool) -> list[str]:
    """What is wrong with one run's answers to ``boards`` boards of known lengths
    (``proven``: optimal): none shorter than an optimum, and in exact runs each the
    optimum and proven so."""
    problems = [f"{side}: {got.failed} boards failed"] if got.failed else []
    if len(got.lengths) != boards:
        return [*problems, f"{side}: {len(got.lengths)} answers for {boards} boards"]
    if known is not None and proven:
        shorter = [i for i, (a, k) in enumerate(zip(got.lengths, known), 1) if a < k]
        longer = [i for i, (a, k) in enumerate(zip(got.lengths, known), 1) if a > k]
        if shorter:
            problems.append(f"{side}: {len(shorter)} answers shorter than the proven optimum (board {shorter[0]} first)")
        if exact and longer:
            problems.append(f"{side}: {len(longer)} answers longer than the optimum (board {longer[0]} first), "
                            f"total {sum(got.lengths):,} against {sum(known):,}")
    if exact and got.proven is not None and got.proven < boards:
        problems.append(f"{side}: {boards - got.proven} boards not proven optimal")
    return problems


# --------------------------------------------------------------------------- the table


@dataclass
class Side:
    """One program's runs on one set, a value per round."""

    seconds: list[float] = field(default_factory=list)
    peak_mb: list[float] = field(default_factory=list)
    totals: list[int] = field(default_factory=list)

    def add(self, ran: Measured, answers: Answers) -> None:
        self.seconds.append(ran.seconds)
        self.peak_mb.append(ran.peak_mb)
        self.totals.append(sum(answers.lengths))


@dataclass
class Row:
    """One set: both programs' runs, what failed, the commands."""

    set: str
    boards: int
    known_total: int | None
    known_proven: bool
    colorfill: Side = field(default_factory=Side)
    colorit: Side = field(default_factory=Side)
    problems: list[str] = field(default_factory=list)
    commands: dict[str, str] = field(default_factory=dict)


def ratio(row: Row) -> tuple[float | None, list[float]]:
    """colorit's time over ColorFill's: of the medians, and each round's own."""
    cf, ci = row.colorfill.seconds, row.colorit.seconds
    rounds = [c / f for c, f in zip(ci, cf)]
    return (statistics.median(ci) / statistics.median(cf) if rounds else None), rounds


def spread(values: list[float], digits: int) -> str:
    """The median, and the range when there are several values."""
    if not values:
        return "-"
    mid = f"{statistics.median(values):.{digits}f}"
    return mid if len(values) == 1 else f"{mid} ({min(values):.{digits}f}-{max(values):.{digits}f})"


def totals(values: list[int]) -> str:
    """One total, or the range when the rounds differ (time-limited runs)."""
    return "-" if not values else f"{min(values):,}" + (f"-{max(values):,}" if max(values) != min(values) else "")


def format_table(rows: list[Row]) -> str:
    """One markdown row a set: totals, times (median and range over the rounds), colorit's
    time over ColorFill's (``ratio``), peak memory, the checks."""
    head = ["set", "boards", "known total", "ColorFill total", "colorit total", "ColorFill s", "colorit s",
            "colorit / ColorFill", "ColorFill peak MB", "colorit peak MB", "check"]
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    for r in rows:
        cf, ci = r.colorfill, r.colorit
        of_medians, rounds = ratio(r)
        times = "-" if of_medians is None else f"{of_medians:.3f}"
        times += f" ({min(rounds):.3f}-{max(rounds):.3f})" if len(rounds) > 1 else ""
        known = "-" if r.known_total is None else f"{r.known_total:,}" + ("" if r.known_proven else " (best known)")
        cells = [r.set, str(r.boards), known, totals(cf.totals), totals(ci.totals), spread(cf.seconds, 2),
                 spread(ci.seconds, 2), times, max(cf.peak_mb, default="-"), max(ci.peak_mb, default="-"),
                 "; ".join(r.problems) or "ok"]
        lines.append("| " + " | ".join(str(c) for c in cells) + " |")
    return "\n".join(lines)


def format_header(meta: dict[str, Any]) -> str:
    """Where, when, what and how: the lines above the table."""
    m = meta["machine"]
    lines = [
        f"colorit against ColorFill, {meta['mode']}: {meta['rounds']} round(s), ColorFill then colorit in each, "
        f"{meta['pinned']}, whole processes (start included), peak resident memory of each",
        f"machine: {m['cpu']}, {m['cores']} cores, {m['ram_gib']} GiB RAM; date: {meta['date']}",
        f"colorit: {meta['colorit_commit']}; Python {meta['python']}",
        f"ColorFill: {meta['colorfill_commit']} ({meta['colorfill_dir']}); {meta['java']}",
        f"ColorFill's build: {meta['build']}",
        "commands:",
    ]
    for row in meta["rows"]:
        lines += [f"  {row['set']}, {side}: {cmd}" for side, cmd in row["commands"].items()]
    return "\n".join(lines)
