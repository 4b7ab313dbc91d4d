"""A campaign's record: each board's best answer and lower bound over passes with growing
limits (``colorit bench SET --results FILE.jsonl [--resume]``).

The file holds one JSON object a line and a board, in the set's order::

    {"board": 0, "moves": ["1", "4", "2", ...], "proven": true, "lower_bound": 31,
     "seconds": 4.2, "limit": 10.0, "digest": "2839e98e775c8416"}

``moves`` are the set's own colour characters (``1``-``9``, ``a``-``z``; ids as numbers
where a board has ids outside them), ``seconds`` the solving time the board has had over
every pass, ``limit`` the largest per-board limit it has had, ``digest`` the board's
(``journal.board_digest``: size, start cell and cells), so a record never lends an answer
to another board. A run with ``--resume`` keeps the proven boards and the boards that
already had this limit, and solves the others starting from their answer and lower bound
(the search starts from them); each answer merges into its record: the shorter answer,
the higher bound, the seconds added. Every answer read back is replayed on its board
first. The file is written whole (a temporary file renamed over it) every few seconds
while a run goes on and at its end, so a kill loses at most those seconds.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import ColoritError, SolutionError
from ..game.board import Board
from ..io.datasets import ALPHABET, alphabet_fits
from ..log import plural
from .journal import board_digest
from .solving import BoardResult, Seed

#: Seconds between rewrites of the file while a run goes on.
WRITE_EVERY_S = 5.0


class ResultsError(ColoritError):
    """A results file that cannot be used with these boards."""


@dataclass
class Record:
    """One board's best answer over the passes so far."""

    board: int
    moves: tuple[int, ...]  #: colour ids
    proven: bool
    lower_bound: int
    seconds: float
    limit: float
    digest: str
    table_bytes: int = 0  #: the most a search's tables held on this board (this run)

    def seed(self) -> Seed:
        return self.moves, self.lower_bound

    def merge(self, r: BoardResult, limit: float) -> None:
        """Take a new pass's answer: the shorter answer, the higher bound, the seconds
        added, the larger limit."""
        if r.error:
            return
        if not self.moves or len(r.moves) < len(self.moves):
            self.moves = tuple(r.moves)
        self.lower_bound = min(max(self.lower_bound, r.lower_bound), len(self.moves))
        self.proven = self.proven or r.proven or self.lower_bound >= len(self.moves)
        if self.proven:
            self.lower_bound = len(self.moves)
        self.seconds = round(self.seconds + r.elapsed, 3)
        self.limit = max(self.limit, limit)
        self.table_bytes = max(self.table_bytes, r.table_bytes)

    def to_json(self, spell_chars: bool) -> str:
        moves: list[Any] = [ALPHABET[m - 1] for m in self.moves] if spell_chars else [int(m) for m in self.moves]
        return json.dumps({
            "board": self.board, "moves": moves, "proven": self.proven, "lower_bound": self.lower_bound,
            "seconds": self.seconds, "limit": self.limit, "digest": self.digest,
        })


def parse_results_line(name: str, n: int, line: str, boards: Sequence[Board], digests: Sequence[str]) -> Record:
    """Line ``n`` of results file ``name`` as the record of one of ``boards`` (whose
    digests are ``digests``), its answer replayed; ``ResultsError`` names the line."""
    where = f"{name}:{n}"
    try:
        data = json.loads(line)
        i = int(data["board"])
        moves = tuple(_id_of(m) for m in data["moves"])
        rec = Record(i, moves, bool(data["proven"]), int(data["lower_bound"]), float(data.get("seconds", 0.0)),
                     float(data.get("limit", 0.0)), str(data.get("digest", "")))
    except (ValueError, KeyError, TypeError) as e:
        raise ResultsError(f"{where}: not a results line ({type(e).__name__}: {e})") from None
    if not 0 <= i < len(boards):
        raise ResultsError(f"{where}: board {i} is not in this run ({plural(len(boards), 'board')})")
    if rec.digest and rec.digest != digests[i]:
        raise ResultsError(f"{where}: board {i} is another board than this run's (digest {rec.digest}, "
                           f"this one {digests[i]}); these results are for other files or another --start")
    rec.digest = digests[i]
    try:
        boards[i].check(list(rec.moves))
    except (SolutionError, ColoritError) as e:
        raise ResultsError(f"{where}: board {i}'s answer does not solve it: {e}") from None
    if rec.lower_bound > len(rec.moves):
        raise ResultsError(f"{where}: board {i}'s lower bound {rec.lower_bound} is above its answer's {plural(len(rec.moves), 'move')}")
    return rec


class Campaign:
    """The records of one set's boards, read from and written to ``path`` (``None``: kept
    in memory, for the passes of a ``--budget`` run without ``--results``)."""

    def __init__(self, path: str | os.PathLike[str] | None, boards: Sequence[Board]) -> None:
        self.path = None if path is None else Path(path)
        self.boards = boards
        self.digests = [board_digest(b) for b in boards]
        self.records: dict[int, Record] = {}
        self._written = 0.0

    # -- reading

    def read(self) -> None:
        """Read the file (if any); every answer is replayed on its board. One line names
        the first line that does not fit these boards."""
        if self.path is None or not self.path.exists():
            return
        name = os.fspath(self.path)
        try:
            text = self.path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise ResultsError(f"{name}: cannot read the results: {getattr(e, 'strerror', None) or e}") from None
        for n, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            rec = parse_results_line(name, n, line, self.boards, self.digests)
            self.records[rec.board] = rec

    def import_journal(self, lines: dict[int, BoardResult], limit: float) -> int:
        """Take the answers of a bench journal (read and replayed by ``journal.read_journal``)
        as a pass with ``limit`` seconds a board; return how many."""
        for i, r in lines.items():
            self.merge(i, r, limit)
        return len(lines)

    # -- a run

    def todo(self, limit: float) -> list[int]:
        """The boards a pass with ``limit`` seconds a board solves: those without a record,
        and the unproven ones that have not had that limit."""
        return [i for i in range(len(self.boards))
                if i not in self.records or (not self.records[i].proven and self.records[i].limit < limit)]

    def seeds(self, todo: Sequence[int]) -> dict[int, Seed]:
        return {i: self.records[i].seed() for i in todo if i in self.records and self.records[i].moves}

    def merge(self, i: int, r: BoardResult, limit: float) -> None:
        rec = self.records.get(i)
        if rec is None:
            if r.error:
                return
            rec = Record(i, (), False, 0, 0.0, 0.0, self.digests[i])
            self.records[i] = rec
        rec.merge(r, limit)

    def result(self, i: int) -> BoardResult | None:
        """Board ``i``'s record as a bench result (for the summary and the answers file)."""
        rec = self.records.get(i)
        if rec is None:
            return None
        return BoardResult(rec.moves, rec.proven, rec.lower_bound, rec.seconds, 0, "" if rec.proven else "time", "",
                           rec.table_bytes)

    # -- writing

    def text(self) -> str:
        recs = [self.records[i] for i in sorted(self.records)]
        chars = all(alphabet_fits(r.moves) for r in recs)
        return "".join(r.to_json(chars) + "\n" for r in recs)

    def write(self, force: bool = True) -> None:
        """Write the file whole (temporary file, then renamed over it); without ``force``
        only when ``WRITE_EVERY_S`` have passed since the last write."""
        now = time.monotonic()
        if self.path is None or (not force and now - self._written < WRITE_EVERY_S):
            return
        tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(self.text())
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.path)
        self._written = now

    def totals(self) -> dict[str, Any]:
        """Boards recorded, proven, total moves, certified lower bound and the interval."""
        recs = list(self.records.values())
        total = sum(len(r.moves) for r in recs)
        lower = sum(r.lower_bound for r in recs)
        return {
            "boards": len(recs), "proven": sum(r.proven for r in recs), "total_moves": total,
            "certified_lower_bound": lower, "interval_pct": round(100.0 * (total - lower) / lower, 3) if lower else 0.0,
            "seconds": round(sum(r.seconds for r in recs), 1),
        }


def _id_of(m: Any) -> int:
    """A colour id from a results line: a set's character, or a number."""
    if isinstance(m, str) and len(m) == 1 and m in ALPHABET:
        return ALPHABET.index(m) + 1
    if isinstance(m, bool) or not isinstance(m, int):
        raise TypeError(f"{m!r} is not a colour")
    return m
