"""The command line's options, defined once for every command: the default time limit,
the parser whose errors are one line naming the option, the argument types (built from
the library's own checks, so both say the same thing) and the options several commands
share (``add_*``), among them ``--algo`` and its list of solvers.

Only the standard library and colorit's light modules are imported here, so that
``colorit --help`` answers before numpy or numba load.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from typing import Any, NoReturn

from ..errors import ColoritError
from ..limits import check_memory, parse_pause, parse_seconds, whole_number

#: Seconds a solve (per board for ``bench``, per algorithm for ``compare``) may take
#: unless ``--time-limit`` says otherwise.
DEFAULT_TIME_LIMIT = 60.0
DEFAULT_TIME_LIMIT_WHY = (
    "default: 60 s, long enough to prove almost every board up to 24x24 optimal, short "
    "enough that one hard board cannot hold a run up"
)


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


#: The solvers ``--algo`` takes, as its help and an unknown name list them: the default,
#: the exact searches, the heuristics, the original basic AI (the registry's
#: ``solver_names`` from the last; a test holds the two together, since reading the
#: registry would load the solvers for ``--help``) ...
ALGORITHMS = ("auto", "astar", "dfs", "beam", "lookahead", "greedy", "linear")
#: ... and the aliases shown beside them (the original tool's name).
SHOWN_ALIASES = {"linear": "basic"}


def algorithm_list() -> str:
    """``auto, astar, ..., linear (alias basic)``: the solvers as ``--algo`` names them."""
    return ", ".join(f"{name} (alias {SHOWN_ALIASES[name]})" if name in SHOWN_ALIASES else name for name in ALGORITHMS)


def solver_name(name: str, option: str = "--algo") -> str:
    """The solver ``name`` stands for (``basic`` -> ``linear``); an unknown name is a
    ``UsageError`` naming ``option`` and listing the solvers as ``--help`` does."""
    from ..solvers import get_solver

    try:
        return get_solver(name).name
    except ColoritError:
        raise UsageError(f"{option}: unknown algorithm {name!r}; choose one of: {algorithm_list()}") from None


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


def add_value(p: argparse.ArgumentParser, option: str, parse: Callable[[str], Any], default: Any, metavar: str,
              help: str) -> None:
    """``OPTION VALUE``, the value read by ``parse`` (one of the argument types here: the
    library's own check, its message naming the option)."""
    p.add_argument(option, type=parse, default=default, metavar=metavar, help=help)


def add_time_limit(p: argparse.ArgumentParser, what: str, default: float | None = DEFAULT_TIME_LIMIT) -> None:
    """``--time-limit S``; ``default=None`` leaves it None when not given (the command
    then knows whether it was)."""
    add_value(p, "--time-limit", seconds_arg("--time-limit"), default, "S", f"{what} ({DEFAULT_TIME_LIMIT_WHY})")


def add_memory(p: argparse.ArgumentParser, what: str = "cap for search tables") -> None:
    add_value(p, "--max-memory", memory_arg("--max-memory"), None, "SIZE",
              f"{what}, e.g. 512M, 2G, up to the machine's RAM or the container's memory limit (default: half of that)")


def add_start(p: argparse.ArgumentParser, default: str | None = "top-left", note: str = "") -> None:
    add_value(p, "--start", start_arg("--start"), default, "S",
              f"start cell: top-left, center, or ROW,COL counted from 0 ({note or 'default: top-left'})")


def add_algo(p: argparse.ArgumentParser, default: str = "auto") -> None:
    p.add_argument(
        "--algo",
        default=default,
        metavar="NAME",
        help=f"solver: {algorithm_list()} (default: {default})",
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
