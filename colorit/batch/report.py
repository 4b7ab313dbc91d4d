"""What a batch reports: known lengths compared with the answers, the summary, each
board's record (``--json``) and the printed tables.

Known lengths (a set's ``.opt`` proven optima or ``.best`` best known) are compared with
``FileReport``: longer than known fails a run, shorter than a proven optimum is a solver
bug and fails it too, shorter than a best known length is a new record. The summary's
``certified_lower_bound`` is the sum of the boards' lower bounds: no set of answers can
total less, so with the total it brackets the set's optimal total.
"""

from __future__ import annotations

import os
import resource
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from ..errors import ColoritError
from ..io.datasets import known_lengths_path, read_lengths
from ..io.files import STDIO, read_bytes
from ..log import plural
from .solving import BoardResult

#: Most mismatches printed per kind; the counts are always complete.
MAX_REPORTED = 20

SUMMARY_KEYS = (
    "boards", "total_moves", "proven", "proven_moves", "certified_lower_bound", "wall_s", "median_ms", "max_ms",
    "peak_rss_mb",
)


# -- known lengths -----------------------------------------------------------------------


@dataclass
class FileReport:
    """One input file: where its boards sit in the run and how they compare to known."""

    path: str
    format: str
    first: int  #: index of its first board in the run
    count: int
    known: list[int] | None = None
    known_path: str = ""
    known_proven: bool = True
    longer: list[tuple[int, int, int]] = field(default_factory=list)  #: (board, ours, known)
    bugs: list[tuple[int, int, int]] = field(default_factory=list)  #: shorter than a proven optimum
    records: list[tuple[int, int, int]] = field(default_factory=list)  #: shorter than best known
    errors: list[tuple[int, str]] = field(default_factory=list)
    stopped: dict[str, int] = field(default_factory=dict)


def load_expect(specs: list[str] | None, files: list[str]) -> list[tuple[str, list[int]] | None]:
    """The known lengths paired with each file (None where there are none)."""
    if not specs:
        return [None] * len(files)
    if len(specs) == 1 and specs[0] == "auto":
        specs = ["auto"] * len(files)
    if len(specs) != len(files):
        raise ColoritError(
            f"--expect given {plural(len(specs), 'time')} for {plural(len(files), 'file')}; give it once per FILE, or once as 'auto'"
        )
    out: list[tuple[str, list[int]] | None] = []
    for spec, f in zip(specs, files):
        if spec == "auto":
            found = known_lengths_path(f)
            if found is None:
                if f != STDIO and not os.path.isfile(f):
                    read_bytes(f)  # a set that is missing (or a folder) is said so, as reading it says it
                raise ColoritError(f"{f}: no .opt or .best file beside it for --expect auto")
            spec = os.fspath(found)
        out.append((spec, read_lengths(spec)))
    return out


def compare_known(report: FileReport, results: Sequence[BoardResult | None]) -> None:
    for k, r in enumerate(results):
        if r is None:
            continue
        board_no = k + 1
        if r.error:
            report.errors.append((board_no, r.error))
            continue
        if r.stopped:
            report.stopped[r.stopped] = report.stopped.get(r.stopped, 0) + 1
        if report.known is None:
            continue
        ours, known = len(r.moves), report.known[k]
        if ours > known:
            report.longer.append((board_no, ours, known))
        elif ours < known:
            (report.bugs if report.known_proven else report.records).append((board_no, ours, known))


# -- summary -----------------------------------------------------------------------------


def peak_rss_mb() -> float:
    """The largest resident set of this process or any of its finished children, in MB."""
    scale = 1 / 1024 if sys.platform != "darwin" else 1 / (1024 * 1024)  # KB on Linux, bytes on macOS
    peak = max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
    return round(peak * scale, 1)


def summarize(results: Sequence[BoardResult | None], wall: float) -> dict[str, Any]:
    """The summary keys (``SUMMARY_KEYS``) over the boards that have an answer. ``wall``
    is the whole command (reading, warm-up, solving) without interpreter start-up; the
    per-board times are the solver's, graph building and replay included."""
    done = [r for r in results if r is not None and not r.error]
    ms = [r.elapsed * 1000 for r in done]
    return {
        "boards": len(done),
        "total_moves": sum(len(r.moves) for r in done),
        "proven": sum(r.proven for r in done),
        # the moves of the proven boards: on a set nobody has solved, the proven total
        "proven_moves": sum(len(r.moves) for r in done if r.proven),
        # no answers to these boards can total less
        "certified_lower_bound": sum(len(r.moves) if r.proven else r.lower_bound for r in done),
        "wall_s": round(wall, 3),
        "median_ms": round(_median(ms), 3) if ms else 0.0,
        "max_ms": round(max(ms), 3) if ms else 0.0,
        "peak_rss_mb": peak_rss_mb(),
    }


def _median(values: Sequence[float]) -> float:
    """The median (statistics' and numpy's cost 1-5 ms to import, a tenth of a small
    bench's start)."""
    ordered = sorted(values)
    mid = len(ordered) // 2
    return ordered[mid] if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2


def _table(rows: list[list[str]], out: TextIO) -> None:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for n, row in enumerate(rows):
        cells = [c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths))]
        print("  ".join(cells).rstrip(), file=out)
        if n == 0:
            print("  ".join("-" * w for w in widths), file=out)


def print_report(summary: dict[str, Any], reports: list[FileReport], results: Sequence[BoardResult | None], out: TextIO) -> None:
    multi = len(reports) > 1
    for rep in reports:
        where = f"{Path(rep.path).name} " if multi else ""
        for board_no, err in rep.errors:
            print(f"{where}board {board_no}: failed: {err}", file=out)
        for title, items, cap in (
            ("BUG: shorter than the proven optimum", rep.bugs, None),
            ("new record: shorter than the best known", rep.records, None),
            ("longer than known", rep.longer, MAX_REPORTED),
        ):
            if not items:
                continue
            print(f"{where}{title}: {plural(len(items), 'board')}", file=out)
            for board_no, ours, known in items[:cap]:
                print(f"  board {board_no}: ours {ours}, known {known} ({ours - known:+d})", file=out)
            if cap is not None and len(items) > cap:
                print(f"  ... and {len(items) - cap} more", file=out)
    rows = [["file", "boards", "moves", "proven", "known", "diff", "stopped"]]
    for rep in reports:
        part = [r for r in results[rep.first : rep.first + rep.count] if r is not None and not r.error]
        moves = sum(len(r.moves) for r in part)
        if rep.known is not None:
            mine = results[rep.first : rep.first + rep.count]
            known_total = sum(rep.known[k] for k, r in enumerate(mine) if r is not None and not r.error)
            known_cell, diff_cell = str(known_total), f"{moves - known_total:+d}"
        else:
            known_cell = diff_cell = "-"
        stopped = ", ".join(f"{n} {why}" for why, n in sorted(rep.stopped.items())) or "-"
        proven = str(sum(r.proven for r in part))
        rows.append([Path(rep.path).name, f"{len(part)}/{rep.count}", str(moves), proven, known_cell, diff_cell, stopped])
    print(file=out)
    _table(rows, out)
    print(file=out)
    _table(
        [["summary", "value"], *[[k, f"{summary[k]:g}" if isinstance(summary[k], float) else str(summary[k])] for k in SUMMARY_KEYS]], out
    )


def interval_pct(summary: dict[str, Any]) -> float:
    """How far the total may be above the optimal total, in % of the certified bound."""
    lower = summary["certified_lower_bound"]
    return 100.0 * (summary["total_moves"] - lower) / lower if lower else 0.0


def board_records(results: Sequence[BoardResult | None], reports: Sequence[FileReport], spell: Any) -> list[dict[str, Any]]:
    """Each answered board as ``--json`` lists it: its index in the run, the file and its
    place there, the moves (``spell(moves)``: the set's characters or ids), whether it is
    proven, its lower bound, seconds and the most its search's tables held."""
    out = []
    for rep in reports:
        for k in range(rep.count):
            r = results[rep.first + k]
            if r is None:
                continue
            record: dict[str, Any] = {"index": rep.first + k, "file": rep.path, "board": k}
            if r.error:
                record["error"] = r.error
            else:
                record.update(
                    moves=spell(r.moves), proven=r.proven, lower_bound=len(r.moves) if r.proven else r.lower_bound,
                    seconds=round(r.elapsed, 4), table_bytes=r.table_bytes, stopped=r.stopped or None,
                )
            out.append(record)
    return out
