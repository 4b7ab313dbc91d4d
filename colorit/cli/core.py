"""What every command shares, defined once: the default time limit, the argument types
and options, the command's context, reading its board and the solve step.

Only the standard library and colorit's light modules are imported here, so that
``colorit --help`` answers before numpy or numba load; each command imports what its
work needs.
"""

from __future__ import annotations

import argparse
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NoReturn

from ..errors import ColoritError
from ..io.files import check_files  # noqa: F401  (re-exported for the commands)
from ..limits import check_memory, parse_pause, parse_seconds, whole_number
from ..log import PROG, Log, Progress  # noqa: F401  (re-exported for the commands)
from ..runtime.clock import clock_start, defer_collection, settle_collection  # noqa: F401  (re-exported)
from ..runtime.signals import (  # noqa: F401  (re-exported for the commands)
    EXIT_FAILED,
    EXIT_OK,
    EXIT_PIPE,
    EXIT_SIGINT,
    EXIT_SIGTERM,
    EXIT_USAGE,
    SIGNAL_EXIT,
    SignalGuard,
    write_output,
)

if TYPE_CHECKING:
    from ..game.board import Board
    from ..io.gameid import GameId
    from ..solvers import Solution

# --------------------------------------------------------------------------- the default limit

#: Seconds a solve (per board for ``bench``, per algorithm for ``compare``) may take
#: unless ``--time-limit`` says otherwise.
DEFAULT_TIME_LIMIT = 60.0
DEFAULT_TIME_LIMIT_WHY = (
    "default: 60 s, long enough to prove almost every board up to 24x24 optimal, short "
    "enough that one hard board cannot hold a run up"
)



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


#: The start cells ``colorit.game.board.parse_start`` knows by name.
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


def read_board(path: str, start: str | tuple[int, int] = "top-left") -> Board:
    """The board in a CSV or game ID file (``-``: standard input)."""
    return read_board_and_id(path, start)[0]


def read_board_and_id(path: str, start: str | tuple[int, int] = "top-left") -> tuple[Board, GameId | None]:
    """The board in a CSV or game ID file (``-``: standard input), and the game ID."""
    from ..io.csvfile import read_board_file
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
    from ..solvers import Control, Limits, solve

    write = min(WRITE_RESERVE_CAP, WRITE_RESERVE_SHARE * limit) + WRITE_RESERVE_PER_CELL * board.cells.size
    wind_down = min(WIND_DOWN_CAP, WIND_DOWN_SHARE * limit)
    hard = ctx.started + limit - write
    budget = max(0.001, hard - wind_down - time.monotonic())
    control = Control(Limits(time=budget, memory=memory))
    if on_improve is not None:
        control.listen(lambda codes, lb: on_improve(len(codes), lb, ctx.since_start()))
    guard.watch(control)
    return solve(board, algo, control=control, hard_deadline=max(hard, control.deadline))


def solve_within(board: Board, algo: str, limit: float, memory: int | None, guard: SignalGuard) -> Solution:
    """Solve ``board`` in ``limit`` seconds from now (within 5% + 20 ms, see
    ``colorit.solvers.deadline``); a signal stops it with its best answer."""
    from ..solvers import Control, Limits, solve

    control = guard.watch(Control(Limits(time=limit, memory=memory)))
    return solve(board, algo, control=control)


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


