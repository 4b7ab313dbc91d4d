"""The bench journal: each board's answer on disk the moment it is known, so that a long
run killed, crashed or interrupted loses nothing it had finished.

``colorit bench --solutions OUT`` appends a line per finished board to ``OUT.journal``
while it runs, in the order the answers come in, and writes ``OUT`` itself whole, in
input order, at the end; then the journal is removed (unless it holds answers for boards
not in the run, see below). ``--resume`` reads the journal back: every answer is checked
before it is trusted, and only the boards without a good answer are solved again. Every
answer is journaled except a failed board's and one cut short by Ctrl-C (it did not get
its time: a resume solves it again, ``worth_keeping``). A journal left over is never
written over without ``--resume``.

The file is text, one line per board after a header::

    colorit-bench-journal 1 {"algo": "auto", "time_limit": 60.0}
    <index> <board digest> <moves> <proven> <lower bound> <elapsed s> <states> <stopped> <crc>

``index`` counts boards from 0 in the run's input order; the board digest
(``board_digest``: size, start cell and cells) ties the line to its board, so a journal
resumed against other files or options cannot lend an answer to the wrong board;
``moves`` are colour ids separated by commas (``-`` for none; ids may be any 64-bit
integer); ``stopped`` is why the search stopped (``-`` when it finished); ``crc`` is the
CRC-32 of everything before it on the line, so a line cut short by a kill or damaged on
disk is told apart from a good one. Resuming replays each answer on its board
(``Board.check``): a line whose answer does not solve its board, or that is torn or
damaged, is counted and its board solved again; a good line whose digest names another
board (the journal of other files, ``--limit`` or ``--start``) is kept in the journal
but not used, and a journal with no line for the run's boards is refused.

Lines reach the operating system as each chunk of answers comes in (a SIGKILL of the
process loses none of them) and are fsynced in batches, after ``SYNC_EVERY_LINES`` lines
or ``SYNC_EVERY_S`` seconds at the latest, so a power cut loses at most the last half
second of answers.
"""

from __future__ import annotations

import json
import math
import os
import threading
import time
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Self

from ..errors import ColoritError, SolutionError
from ..game.board import Board
from ..log import plural
from .solving import BoardResult

MAGIC = "colorit-bench-journal"
VERSION = 1
SUFFIX = ".journal"
SYNC_EVERY_S = 0.5
SYNC_EVERY_LINES = 100
#: The header fields a resumed run must share with the run that wrote the journal.
RUN_KEYS = ("algo", "time_limit")


class JournalError(ColoritError):
    """A journal that cannot be used as it is (left over, from other options, unreadable)."""


def journal_path(solutions: str | os.PathLike[str]) -> Path:
    """Where the journal of a run writing ``solutions`` lives: beside it."""
    return Path(os.fspath(solutions) + SUFFIX)


def board_digest(board: Board) -> str:
    """16 hex digits naming a board: its size, start cell and cells."""
    import hashlib  # (only runs that keep records: its 2 ms at every bench's start otherwise)

    h = hashlib.blake2b(digest_size=8)
    h.update(f"{board.height}x{board.width}@{board.start[0]},{board.start[1]}:".encode())
    h.update(board.cells.astype("<i8", copy=False).tobytes())
    return h.hexdigest()


def _crc(text: str) -> str:
    return f"{zlib.crc32(text.encode()):08x}"


def format_line(index: int, digest: str, r: BoardResult) -> str:
    """One journal line (with its newline) for a board's answer."""
    moves = ",".join(str(int(m)) for m in r.moves) or "-"
    body = f"{index} {digest} {moves} {int(r.proven)} {r.lower_bound} {r.elapsed!r} {r.states} {r.stopped or '-'}"
    return f"{body} {_crc(body)}\n"


def parse_journal_line(line: str) -> tuple[int, str, BoardResult] | None:
    """(index, digest, result) from a whole line (newline stripped); None when the line
    is damaged: wrong field count, bad number, or a CRC that does not match."""
    body, _, crc = line.rpartition(" ")
    if not body or crc != _crc(body):
        return None
    parts = body.split(" ")
    if len(parts) != 8:
        return None
    index, digest, moves, proven, lower, elapsed, states, stopped = parts
    try:
        result = BoardResult(
            moves=() if moves == "-" else tuple(int(m) for m in moves.split(",")),
            proven=proven == "1",
            lower_bound=int(lower),
            elapsed=float(elapsed),
            states=int(states),
            stopped="" if stopped == "-" else stopped,
        )
        at = int(index)
    except ValueError:
        return None
    if at < 0 or proven not in ("0", "1") or not math.isfinite(result.elapsed):
        return None
    return at, digest, result


def worth_keeping(r: BoardResult | None) -> bool:
    """Whether an answer belongs in the journal: a board stopped by a signal did not get
    its time (a resume solves it again), and a failed board has no answer."""
    return r is not None and not r.error and r.stopped != "signal"


def header_line(run: dict[str, Any]) -> str:
    return f"{MAGIC} {VERSION} {json.dumps({k: run.get(k) for k in RUN_KEYS}, sort_keys=True)}\n"


def parse_header(line: str) -> dict[str, Any] | None:
    magic, _, rest = line.partition(" ")
    version, _, doc = rest.partition(" ")
    if magic != MAGIC or version != str(VERSION):
        return None
    try:
        run = json.loads(doc)
    except ValueError:
        return None
    return run if isinstance(run, dict) else None


def describe_run(run: dict[str, Any]) -> str:
    limit = run.get("time_limit")
    return f"--algo {run.get('algo')} --time-limit {limit:g}" if isinstance(limit, (int, float)) else f"--algo {run.get('algo')}"


# -- reading back -------------------------------------------------------------------------


@dataclass
class Resumed:
    """What a journal gave back: the checked answers by board index, and the count of
    each kind of line that was not trusted (those boards are solved again)."""

    answers: dict[int, BoardResult] = field(default_factory=dict)
    #: good lines for boards that are not this run's (other files, --limit or --start):
    #: not used, but kept in the journal, which is then not removed at the end
    foreign: list[str] = field(default_factory=list)
    torn: int = 0  #: a last line cut short (no newline): a kill while it was written
    damaged: int = 0  #: a line that does not parse or fails its CRC
    other_board: int = 0  #: a line for a board that is not the run's board there
    wrong_answer: int = 0  #: an answer that does not solve its board

    @property
    def redone(self) -> int:
        """Lines not trusted: their boards are solved again."""
        return self.torn + self.damaged + self.wrong_answer

    def describe_redone(self) -> str:
        """``1 torn line, 2 wrong answers`` (empty when every line was good)."""
        kinds = ((self.torn, "torn line"), (self.damaged, "damaged line"), (self.wrong_answer, "wrong answer"))
        return ", ".join(plural(n, what) for n, what in kinds if n)


def read_journal(path: str | os.PathLike[str], boards: Sequence[Board], run: dict[str, Any]) -> Resumed:
    """The answers in the journal at ``path`` that solve the run's ``boards``.

    ``run`` holds this run's ``RUN_KEYS``; a journal written with other ones is refused
    (its answers were found under other limits), as is a file that is not a journal."""
    name = os.fspath(path)
    try:
        data = Path(path).read_bytes()
    except OSError as e:
        raise JournalError(f"{name}: cannot read the journal: {(e.strerror or str(e)).lower()}") from None
    text = data.decode("utf-8", errors="replace")
    lines = text.split("\n")
    # text.split leaves "" after a final newline; anything else there is a torn line
    tail = lines.pop()
    if not lines:
        raise JournalError(f"{name}: not a colorit bench journal (no header line); delete it to start over")
    header = parse_header(lines[0])
    if header is None:
        raise JournalError(f"{name}: not a colorit bench journal; delete it to start over")
    mine = {k: run.get(k) for k in RUN_KEYS}
    theirs = {k: header.get(k) for k in RUN_KEYS}
    if mine != theirs:
        raise JournalError(
            f"{name}: written by a run with {describe_run(theirs)}, not {describe_run(mine)}; "
            "resume with its options, or delete the journal to start over"
        )
    out = Resumed(torn=1 if tail else 0)
    digests: dict[int, str] = {}
    for line in lines[1:]:
        parsed = parse_journal_line(line)
        if parsed is None:
            out.damaged += 1
            continue
        index, digest, result = parsed
        if index < len(boards) and index not in digests:
            digests[index] = board_digest(boards[index])
        if index >= len(boards) or digest != digests[index]:
            out.other_board += 1
            out.foreign.append(line + "\n")
            continue
        try:
            boards[index].check(result.moves)
        except SolutionError:
            out.wrong_answer += 1
            continue
        out.answers[index] = result  # a later good line for a board wins
    if out.foreign and not out.answers:
        raise JournalError(
            f"{name}: its {plural(len(out.foreign), 'answer')} {'is' if len(out.foreign) == 1 else 'are all'} for other boards "
            "(other files, --limit or --start?); "
            "resume with the run's files and options, or delete the journal to start over"
        )
    return out


# -- writing ------------------------------------------------------------------------------


class JournalWriter:
    """Appends answers to a journal: lines go to the OS at once, fsyncs come in
    batches (at an append when one is due, else from a timer, so that no line waits
    longer than ``SYNC_EVERY_S`` for its fsync)."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        boards: Sequence[Board],
        run: dict[str, Any],
        kept: dict[int, BoardResult],
        foreign: Sequence[str] = (),
    ) -> None:
        """Start the journal at ``path`` afresh: the header, the ``foreign`` lines and
        the ``kept`` answers (what a resume read back, ``Resumed``), written whole
        before anything is appended, so that a torn, damaged or wrong line of the old
        journal is gone for good and a good one is never lost."""
        from ..io.files import write_atomic

        self.path = Path(path)
        self.boards = boards
        self._digests: dict[int, str] = {}
        self.lines = len(kept)  #: answers for this run's boards in the journal
        self.foreign = len(foreign)  #: lines for other boards
        body = "".join(foreign) + "".join(format_line(i, self.digest(i), r) for i, r in sorted(kept.items()))
        write_atomic(self.path, header_line(run) + body)
        self._fd: int | None = os.open(self.path, os.O_WRONLY | os.O_APPEND)
        self._lock = threading.Lock()
        self._timer: threading.Timer | None = None
        self._unsynced = 0
        self._synced_at = time.monotonic()
        _sync_folder(self.path.parent)

    def digest(self, index: int) -> str:
        if index not in self._digests:
            self._digests[index] = board_digest(self.boards[index])
        return self._digests[index]

    def append(self, items: Iterable[tuple[int, BoardResult]]) -> None:
        """Journal these answers (index, result) in one write."""
        text = "".join(format_line(i, self.digest(i), r) for i, r in items)
        if not text:
            return
        data = text.encode()
        with self._lock:
            if self._fd is None:
                raise ValueError("journal is closed")
            while data:
                written = os.write(self._fd, data)
                data = data[written:]
            n = text.count("\n")
            self.lines += n
            self._unsynced += n
            if self._unsynced >= SYNC_EVERY_LINES or time.monotonic() - self._synced_at >= SYNC_EVERY_S:
                self._sync()
            elif self._timer is None:
                self._timer = threading.Timer(max(0.0, self._synced_at + SYNC_EVERY_S - time.monotonic()), self._sync_later)
                self._timer.daemon = True
                self._timer.start()

    def _sync_later(self) -> None:
        with self._lock:
            self._timer = None
            self._sync()

    def _sync(self) -> None:
        if self._fd is not None and self._unsynced:
            os.fsync(self._fd)
        self._unsynced = 0
        self._synced_at = time.monotonic()

    def sync(self) -> None:
        """fsync now what is not yet."""
        with self._lock:
            self._sync()

    def close(self) -> None:
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            if self._fd is not None:
                self._sync()
                os.close(self._fd)
                self._fd = None

    def remove(self) -> None:
        """The run is complete and its answers file written: the journal has done its job."""
        self.close()
        self.path.unlink(missing_ok=True)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _sync_folder(folder: Path) -> None:
    """Make a new file's name durable too (where the system allows it)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


__all__ = [
    "SUFFIX",
    "JournalError",
    "JournalWriter",
    "Resumed",
    "board_digest",
    "format_line",
    "journal_path",
    "parse_journal_line",
    "read_journal",
    "worth_keeping",
]
