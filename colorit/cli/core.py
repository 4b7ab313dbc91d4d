"""What every command shares, defined once: exit codes, the default time limit, the
argument types and options, the clock, the signal guard, progress reports, file checks
and the solve step.

Only the standard library and colorit's light modules are imported here, so that
``colorit --help`` answers before numpy or numba load; each command imports what its
work needs.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import os
import re
import signal
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import FrameType
from typing import TYPE_CHECKING, Any, NoReturn, Self, TextIO

from ..errors import ColoritError
from ..limits import check_memory, parse_pause, parse_seconds, whole_number
from ..log import PROG, Log

if TYPE_CHECKING:
    from ..board import Board
    from ..gameid import GameId
    from ..solvers import Control, Solution

# --------------------------------------------------------------------------- exit codes

#: Done (``check``: the answer is valid).
EXIT_OK = 0
#: A result that is not what was asked: ``check``'s answer does not solve the board,
#: ``bench`` found an answer longer than known (or a failed board).
EXIT_FAILED = 1
#: Bad arguments or input; nothing was written.
EXIT_USAGE = 2
#: Interrupted by SIGINT / SIGTERM (128 + the signal); the best answer so far was written.
EXIT_SIGINT = 128 + int(signal.SIGINT)
EXIT_SIGTERM = 128 + int(signal.SIGTERM)
#: Standard output was closed early (``colorit generate ... | head -1``): ended quietly,
#: as the shell reports a program killed by SIGPIPE.
EXIT_PIPE = 128 + int(signal.SIGPIPE)
SIGNAL_EXIT: dict[int, int] = {int(signal.SIGINT): EXIT_SIGINT, int(signal.SIGTERM): EXIT_SIGTERM}

# --------------------------------------------------------------------------- the collector

#: The young generation's threshold while a command starts. Imports and loading the
#: kernels make a few hundred thousand objects that live as long as the process, and at
#: the default threshold (700) the cyclic collector walks them hundreds of times: 0.1 s
#: of a bench's start on the 2-core test machine.
START_GC_THRESHOLD = 200_000
_gc_thresholds: tuple[int, int, int] | None = None


def defer_collection() -> None:
    """Collect rarely until ``settle_collection``: a command's start allocates much and
    frees little."""
    global _gc_thresholds
    if _gc_thresholds is None:
        _gc_thresholds = gc.get_threshold()
        gc.set_threshold(START_GC_THRESHOLD, _gc_thresholds[1], _gc_thresholds[2])


def settle_collection() -> None:
    """End the start: what it made is set aside for good (``gc.freeze``: later
    collections do not walk it) and the collector's thresholds are restored."""
    global _gc_thresholds
    if _gc_thresholds is not None:
        gc.freeze()
        gc.set_threshold(*_gc_thresholds)
        _gc_thresholds = None


# --------------------------------------------------------------------------- the default limit

#: Seconds a solve (per board for ``bench``, per algorithm for ``compare``) may take
#: unless ``--time-limit`` says otherwise.
DEFAULT_TIME_LIMIT = 60.0
DEFAULT_TIME_LIMIT_WHY = (
    "default: 60 s, long enough to prove almost every board up to 24x24 optimal, short "
    "enough that one hard board cannot hold a run up"
)

#: ``bin/colorit`` sets this (epoch seconds) when its first-run setup ran in this
#: process before the CLI, so that the setup does not eat the time limit.
CLOCK_ENV = "COLORIT_CLOCK_START"

_IMPORTED_AT = time.monotonic()


# --------------------------------------------------------------------------- clock


def process_age() -> float | None:
    """Seconds since this process started (Linux ``/proc``), ``None`` where unknown."""
    try:
        with open("/proc/self/stat", encoding="ascii", errors="replace") as f:
            stat = f.read()
        with open("/proc/uptime", encoding="ascii") as f:
            uptime = float(f.read().split()[0])
        # the command name may hold spaces and parentheses: count fields after the last ')'
        start_ticks = int(stat[stat.rindex(")") + 2 :].split()[19])
        return uptime - start_ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def clock_start(from_process_start: bool = True) -> float:
    """The ``time.monotonic()`` value a time limit counts from.

    For a command-line run that is the process start, so interpreter and import time
    count; never later than this module's import, and never earlier than the moment
    ``bin/colorit`` finished its first-run setup (``COLORIT_CLOCK_START``).
    """
    now = time.monotonic()
    if not from_process_start:
        return now
    since_import = now - _IMPORTED_AT
    age = process_age()
    # /proc clocks tick in 1/100 s; anything shorter than the import is not believable
    if age is None or age < since_import - 0.05:
        age = since_import
    marker = os.environ.get(CLOCK_ENV)
    if marker:
        try:
            since_setup = time.time() - float(marker)
        except ValueError:
            since_setup = age
        if 0.0 <= since_setup < age:
            age = max(since_setup, since_import)
    return now - max(age, since_import)


# --------------------------------------------------------------------------- arguments


class UsageError(ColoritError):
    """A command line argparse rejects."""


def require_extra(extra: str, command: str, *modules: str) -> None:
    """Fail before any work, in one line, unless the optional ``modules`` a command needs
    can be imported (a ``pip install .`` without the ``extra``)."""
    import importlib.util

    for name in modules:
        if importlib.util.find_spec(name) is None:
            raise UsageError(
                f"colorit {command} needs the {extra} extra ({name} is missing): pip install 'colorit[{extra}]' "
                f"(or run bin/colorit {command}, which installs it)"
            )


_ARGUMENT = re.compile(r"^argument (?P<names>[^:]+): (?P<message>.*)$", re.DOTALL)


def name_option(option: str, message: str, noun: str = "") -> str:
    """``message`` as it names ``option``: as it is when it starts with the option,
    with a leading ``noun`` ("time limit", "start cell") replaced by the option, else
    ``OPTION: message``."""
    if message.startswith(option):
        return message
    if noun and message.startswith(noun):
        return option + message[len(noun) :]
    return f"{option}: {message}"


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are exceptions, so they end as one line, and
    whose messages start with the option they are about (``--delay must be ...``
    rather than argparse's ``argument --delay: ...``)."""

    def error(self, message: str) -> NoReturn:
        m = _ARGUMENT.match(message)
        if m:
            option = m.group("names").split("/")[0]
            message = name_option(option, m.group("message"))
        raise UsageError(f"{message} (see '{self.prog} --help')")


def arg_type(fn: Callable[[str], Any], option: str = "", noun: str = "") -> Callable[[str], Any]:
    """An argparse type from a library check: its message is the error, naming
    ``option`` (see ``name_option``) when one is given."""

    def parse(text: str) -> Any:
        try:
            return fn(text)
        except ColoritError as e:
            message = name_option(option, str(e), noun) if option else str(e)
            raise argparse.ArgumentTypeError(message) from None

    parse.__name__ = fn.__name__
    return parse


def seconds_arg(option: str = "--time-limit") -> Callable[[str], float]:
    """A positive number of seconds, for ``option``."""
    return arg_type(lambda text: parse_seconds(text, option))


def pause_arg(option: str, maximum: float) -> Callable[[str], float]:
    """A pause of 0 (none) up to ``maximum`` seconds, for ``option``."""
    return arg_type(lambda text: parse_pause(text, option, maximum))


def memory_arg(option: str = "--max-memory") -> Callable[[str], int]:
    """A memory cap (512M, 2G, bytes) this machine can give, for ``option``."""
    return arg_type(lambda text: check_memory(text, option))


def start_arg(option: str = "--start") -> Callable[[str], str]:
    """A start cell's spelling (top-left, center, ROW,COL): checked before any board is
    read; whether ROW,COL is on the board is checked when it is (``read_board``)."""

    def parse(text: str) -> str:
        spec = text.strip().lower()
        if spec in START_NAMES:
            return text
        parts = spec.split(",")
        if len(parts) != 2:
            raise argparse.ArgumentTypeError(f"{option} {text!r} is not ROW,COL, 'center' or 'top-left'")
        try:
            r, c = int(parts[0]), int(parts[1])
        except ValueError:
            raise argparse.ArgumentTypeError(f"{option} {text!r} is not ROW,COL with whole numbers") from None
        if r < 0 or c < 0:
            raise argparse.ArgumentTypeError(f"{option} {text!r}: rows and columns count from 0")
        return text

    return parse


#: The start cells ``colorit.board.parse_start`` knows by name.
START_NAMES = ("", "top-left", "topleft", "corner", "center", "centre", "middle")


def solver_name(name: str, option: str = "--algo") -> str:
    """The solver ``name`` stands for (``basic`` -> ``linear``); an unknown name is a
    ``UsageError`` naming ``option``."""
    from ..solvers import get_solver

    try:
        return get_solver(name).name
    except ColoritError as e:
        raise UsageError(name_option(option, str(e))) from None


def count_arg(minimum: int, what: str = "value", maximum: int | None = None) -> Callable[[str], int]:
    """Whole numbers of at least ``minimum`` (and at most ``maximum``); ``what`` is the
    option's name."""

    def parse(text: str) -> int:
        try:
            value = int(text.strip())
        except ValueError:
            raise ColoritError(f"{what} must be a whole number, got {text!r}") from None
        return whole_number(value, what, minimum, maximum)

    return arg_type(parse)


def add_time_limit(p: argparse.ArgumentParser, what: str, default: float | None = DEFAULT_TIME_LIMIT) -> None:
    """``--time-limit S``; ``default=None`` leaves it None when not given (the command
    then knows whether it was)."""
    p.add_argument(
        "--time-limit",
        type=seconds_arg("--time-limit"),
        default=default,
        metavar="S",
        help=f"{what} ({DEFAULT_TIME_LIMIT_WHY})",
    )


def add_memory(p: argparse.ArgumentParser, what: str = "cap for search tables") -> None:
    p.add_argument(
        "--max-memory",
        type=memory_arg("--max-memory"),
        default=None,
        metavar="SIZE",
        help=f"{what}, e.g. 512M, 2G, up to the machine's RAM or the container's memory limit (default: half of that)",
    )


def add_start(p: argparse.ArgumentParser, default: str | None = "top-left", note: str = "") -> None:
    p.add_argument(
        "--start",
        type=start_arg("--start"),
        default=default,
        metavar="S",
        help=f"start cell: top-left, center, or ROW,COL counted from 0 ({note or 'default: top-left'})",
    )


def add_algo(p: argparse.ArgumentParser, default: str = "auto") -> None:
    p.add_argument(
        "--algo",
        default=default,
        metavar="NAME",
        help=f"solver: auto, astar, dfs, beam, lookahead, greedy, linear (alias basic) (default: {default})",
    )


def add_quiet(p: argparse.ArgumentParser, what: str = "no progress lines") -> None:
    p.add_argument("-q", "--quiet", action="store_true", help=what)


def add_labels(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--labels",
        choices=("none", "numbers", "symbols"),
        default="none",
        help="draw a number (the colour's number: its rank from 1, as captions name it) or a symbol in every cell, for colour-blind eyes",
    )


# --------------------------------------------------------------------------- the run


@dataclass
class Context:
    """What a command gets besides its arguments."""

    started: float  #: ``time.monotonic()`` the time limit counts from
    log: Log = field(default_factory=Log)
    from_process_start: bool = True

    def since_start(self) -> float:
        return time.monotonic() - self.started


# --------------------------------------------------------------------------- signals


class SignalGuard:
    """SIGINT/SIGTERM for the span of a ``with`` block.

    The first signal asks every watched search to stop with its best answer (the command
    then writes it and exits 130/143). Signals within ``BURST_S`` of it are the same
    request (``timeout``, a ``kill`` of a process group or a nervous Ctrl-C send
    several). A signal later than that aborts at once without writing, unless a file is
    being written: that write ends whole first (``writing``)."""

    BURST_S = 1.0

    def __init__(self, log: Log | None = None) -> None:
        self.log = log or Log()
        self.signum: int | None = None
        self._first_at = 0.0
        self._on_stop: list[Callable[[], None]] = []
        self._on_abort: list[Callable[[], None]] = []
        self._writing = 0
        self._abort_pending: int | None = None
        self._previous: dict[int, Any] = {}

    @property
    def requested(self) -> bool:
        return self.signum is not None

    @property
    def exit_code(self) -> int:
        if self.signum is None:
            return EXIT_OK
        return SIGNAL_EXIT.get(self.signum, 128 + self.signum)

    @property
    def signal_name(self) -> str:
        return signal.Signals(self.signum).name if self.signum is not None else ""

    def on_stop(self, fn: Callable[[], None]) -> None:
        """Call ``fn`` on the first signal (at once if one came already)."""
        self._on_stop.append(fn)
        if self.signum is not None:
            fn()

    def on_abort(self, fn: Callable[[], None]) -> None:
        """Call ``fn`` before an abort ends the process (e.g. to end worker processes)."""
        self._on_abort.append(fn)

    def watch(self, control: Control) -> Control:
        """Stop ``control``'s search on the first signal."""
        self.on_stop(lambda: control.request_stop("signal"))
        return control

    @contextmanager
    def writing(self) -> Iterator[None]:
        """A write that a late signal must not cut: the abort waits until it is done."""
        self._writing += 1
        try:
            yield
        finally:
            self._writing -= 1
            if self._writing == 0 and self._abort_pending is not None:
                self._abort(self._abort_pending)

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        now = time.monotonic()
        if self.signum is None:
            self.signum, self._first_at = signum, now
            for fn in list(self._on_stop):
                fn()
            return
        if now - self._first_at < self.BURST_S:
            return  # the same request
        if self._writing:
            self._abort_pending = signum
            return
        self._abort(signum)

    def _abort(self, signum: int) -> NoReturn:
        os.write(2, f"{PROG}: error: {signal.Signals(signum).name} again: exiting without writing an answer\n".encode())
        for fn in self._on_abort:
            with contextlib.suppress(Exception):  # ending anyway
                fn()
        os._exit(SIGNAL_EXIT.get(signum, 128 + signum))

    def __enter__(self) -> Self:
        for sig in SIGNAL_EXIT:
            try:
                self._previous[sig] = signal.signal(sig, self._handle)
            except ValueError:  # not the main thread: leave signals alone
                break
        return self

    def __exit__(self, *exc: object) -> None:
        for sig, previous in self._previous.items():
            signal.signal(sig, previous)
        self._previous.clear()


# --------------------------------------------------------------------------- progress


class Progress:
    """How far a batch is, on stderr: a bar on a terminal; elsewhere (a CI log, nohup)
    a line each ``every_pct`` percent or ``every_s`` seconds, whichever comes first, and
    a last line at the end, never a line per item on a big batch."""

    def __init__(
        self,
        total: int,
        unit: str,
        *,
        label: str,
        enabled: bool = True,
        stream: TextIO | None = None,
        every_pct: float = 5.0,
        every_s: float = 10.0,
    ) -> None:
        self.total = total
        self.unit = unit
        self.label = label
        self.done = 0
        self.note = ""
        self.stream = stream or sys.stderr
        self.every_pct = every_pct
        self.every_s = every_s
        self._t0 = time.monotonic()
        self._last_t = self._t0
        self._last_done = 0
        self._bar: Any = None
        self.enabled = enabled and total > 0
        if self.enabled and self.stream.isatty():
            from tqdm import tqdm  # type: ignore[import-untyped,unused-ignore]

            self._bar = tqdm(total=total, unit=unit.rstrip("s"), file=self.stream, dynamic_ncols=True, smoothing=0.1)

    def update(self, n: int = 1, note: str = "") -> None:
        self.done += n
        if note:
            self.note = note
        if not self.enabled:
            return
        if self._bar is not None:
            if note:
                self._bar.set_postfix_str(note, refresh=False)
            self._bar.update(n)
            return
        now = time.monotonic()
        step = 100.0 * (self.done - self._last_done) / self.total
        if self.done >= self.total or step >= self.every_pct or (now - self._last_t >= self.every_s and self.done > self._last_done):
            self._line(now)

    def _line(self, now: float) -> None:
        elapsed = now - self._t0
        pct = 100.0 * self.done / self.total
        left = ""
        if 0 < self.done < self.total:
            left = f", about {elapsed * (self.total - self.done) / self.done:.0f} s left"
        note = f", {self.note}" if self.note else ""
        self.stream.write(f"{PROG} {self.label}: {self.done}/{self.total} {self.unit} ({pct:.0f}%){note}, {elapsed:.0f} s{left}\n")
        self.stream.flush()
        self._last_t, self._last_done = now, self.done

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None
        elif self.enabled and self.done > self._last_done:
            self._line(time.monotonic())


# --------------------------------------------------------------------------- files


def check_files(inputs: Sequence[str | None], outputs: Sequence[str | None]) -> None:
    """Before any work: no output may be an input (same path, symlink or hard link) or
    another output, each must be writable, and standard input can be read only once."""
    from ..csvio import STDIO, check_outputs

    if sum(1 for i in inputs if i == STDIO) > 1:
        raise ColoritError("only one input can be '-' (standard input)")
    if sum(1 for o in outputs if o == STDIO) > 1:
        raise ColoritError("only one output can be '-' (standard output)")
    check_outputs(inputs, outputs)


def write_output(path: str, data: str | bytes, guard: SignalGuard | None = None) -> None:
    """Write a whole output (``-``: standard output), never cut by a signal."""
    from ..csvio import write_atomic

    if guard is None:
        write_atomic(path, data)
        return
    with guard.writing():
        write_atomic(path, data)


def read_board(path: str, start: str | tuple[int, int] = "top-left") -> Board:
    """The board in a CSV or game ID file (``-``: standard input)."""
    return read_board_and_id(path, start)[0]


def read_board_and_id(path: str, start: str | tuple[int, int] = "top-left") -> tuple[Board, GameId | None]:
    """The board in a CSV or game ID file (``-``: standard input), and the game ID."""
    from ..csvio import read_board_file
    from ..errors import BoardFormatError

    try:
        return read_board_file(path, start=start)
    except BoardFormatError as e:
        if isinstance(start, str) and str(e).startswith("start cell"):
            raise UsageError(name_option("--start", str(e), "start cell")) from None
        raise


# --------------------------------------------------------------------------- solving


#: Kept back from a time limit counted from the process start, for checking and writing
#: the answer (a share of the limit up to a cap, plus a little per cell: a million-cell
#: board's answer may have a million lines, and its replay, conversion and text take
#: 0.4-0.5 s on the machine of docs/benchmarks.md) ...
WRITE_RESERVE_SHARE = 0.05
WRITE_RESERVE_CAP = 0.25
WRITE_RESERVE_PER_CELL = 4e-7
#: ... and for the search to notice its deadline and wind down before the guard stops
#: waiting for it.
WIND_DOWN_SHARE = 0.05
WIND_DOWN_CAP = 0.2


def solve_on_time(
    board: Board,
    algo: str,
    limit: float,
    memory: int | None,
    ctx: Context,
    guard: SignalGuard,
    on_improve: Callable[[int, int, float], None] | None = None,
) -> Solution:
    """Solve ``board`` so that the answer can be written within ``limit`` seconds of
    ``ctx.started`` (for a command line run, the process start): the deadline guard
    answers by the limit minus the write reserve whatever the search does, and the
    search gets what is left before that, minus time to wind down. A signal stops it
    with its best answer."""
    from ..solvers import Control, Limits, get_solver
    from ..solvers.guard import run_guarded

    spec = get_solver(algo)
    write = min(WRITE_RESERVE_CAP, WRITE_RESERVE_SHARE * limit) + WRITE_RESERVE_PER_CELL * board.cells.size
    wind_down = min(WIND_DOWN_CAP, WIND_DOWN_SHARE * limit)
    hard = ctx.started + limit - write
    budget = max(0.001, hard - wind_down - time.monotonic())
    control = Control(Limits(time=budget, memory=memory))
    if on_improve is not None:
        control.listen(lambda codes, lb: on_improve(len(codes), lb, ctx.since_start()))
    guard.watch(control)
    return run_guarded(board, spec, control, hard_deadline=max(hard, control.deadline))


def solve_within(board: Board, algo: str, limit: float, memory: int | None, guard: SignalGuard) -> Solution:
    """Solve ``board`` in ``limit`` seconds from now (within 5% + 20 ms, see
    ``colorit.solvers.guard``); a signal stops it with its best answer."""
    from ..solvers import Control, Limits, get_solver
    from ..solvers.guard import run_guarded

    control = guard.watch(Control(Limits(time=limit, memory=memory)))
    return run_guarded(board, get_solver(algo), control)


def warm_up(algo: str, boards: Sequence[Board] = ()) -> None:
    """Load (or compile) the kernels ``algo`` needs for ``boards`` before a clock runs;
    that ends the command's start (``settle_collection``)."""
    from ..warmup import warm_for

    warm_for(algo, boards)
    settle_collection()


def limit_beside_par(game_id: GameId, solution: Solution) -> str:
    """The game ID's move limit beside the answer: ``game ID: limit 18, par 17`` (par:
    the proven optimum), or the best found when it is not proven."""
    n = len(solution.moves)
    found = f"par {n}" if solution.proven_optimal else f"best found {n} (not proven optimal)"
    return f"game ID: {game_id.describe_limit()}, {found}"


def describe(solution: Solution) -> str:
    """``proven optimal: 12 moves`` or ``best found, 14 moves; lower bound 12 (gap 16.7%)``."""
    n = len(solution.moves)
    if solution.proven_optimal:
        return f"proven optimal: {n} moves"
    if solution.lower_bound > 0:
        return f"best found, {n} moves; lower bound {solution.lower_bound} (gap {100 * solution.gap:.1f}%)"
    return f"best found, {n} moves; no lower bound known"


