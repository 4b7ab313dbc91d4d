"""The ``colorit`` command: one module per command over a small runtime shared by all:
``options`` (the parser, the argument types, the options several commands take),
``context`` (what a command runs with, its board read) and ``solving`` (the solve step
and how an answer is described); exit codes and the signal guard are
``colorit.runtime.signals``'.

``COMMANDS`` is the registry: a command is a module with ``add_arguments(parser)`` and
``run(args, ctx) -> exit status``, imported only when it runs, so ``colorit --help`` and
``--version`` answer before numpy or numba load. ``colorit IN.csv OUT.csv`` is short for
``colorit solve IN.csv OUT.csv``; a first word that is neither a command nor a file gets
a suggestion. Every error a user can cause ends as one line on stderr and status 2.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from .. import __version__
from ..errors import ColoritError
from ..log import PROG, Log
from ..runtime.clock import clock_start, defer_collection
from ..runtime.signals import EXIT_OK, EXIT_PIPE, EXIT_SIGINT, EXIT_USAGE
from .context import Context
from .options import Parser, UsageError

#: name -> (module, one-line summary). Adding a command is a module and a line here.
COMMANDS: dict[str, tuple[str, str]] = {
    "solve": ("solve", "solve a board file and write the answer (the default command)"),
    "check": ("check", "replay an answer file on a board: valid or not"),
    "compare": ("compare", "run several algorithms on one board and tabulate their answers"),
    "generate": ("generate", "write a random board, reproducible from its seed"),
    "bench": ("bench", "solve benchmark sets of boards and report totals, times and memory"),
    "datasets": ("datasets", "list the community's benchmark sets, fetch them into the cache by name"),
    "show": ("show", "picture a solve: an animated GIF, a PNG of key frames, or a replay in the terminal"),
    "serve": ("serve", "a local web page to play, watch the solvers and compare them with the basic AI"),
}

USAGE = f"usage: {PROG} [--version] COMMAND [ARGS...]   or   {PROG} IN.csv OUT.csv [OPTIONS]"


def top_help() -> str:
    width = max(len(n) for n in COMMANDS)
    lines = [
        USAGE,
        "",
        "Solve Color-It (Flood-It) boards. 'colorit IN.csv OUT.csv' is short for 'colorit solve IN.csv OUT.csv'.",
        "",
        "commands:",
        *(f"  {name.ljust(width)}  {summary}" for name, (_, summary) in COMMANDS.items()),
        "",
        "options:",
        "  -h, --help  show this help and exit ('colorit COMMAND --help' for a command's options)",
        "  --version   show the version and exit",
        "",
        (
            "exit status: 0 done; 1 check: invalid answer, bench: worse than known; 2 bad arguments or input "
            "(nothing written); 130/143 interrupted (the best answer so far was written); 141 output pipe closed"
        ),
    ]
    return "\n".join(lines) + "\n"


def _looks_like_a_file(word: str) -> bool:
    return word == "-" or os.path.exists(word) or any(ch in word for ch in "./\\") or word.lower().endswith(".csv")


def _command_for(first: str) -> str:
    """The command ``first`` names; ``solve`` for a file; else a ``UsageError`` with a
    suggestion."""
    if first in COMMANDS:
        return first
    if _looks_like_a_file(first):
        return "solve"
    import difflib  # (only for a mistyped command)

    near = difflib.get_close_matches(first, list(COMMANDS), n=1, cutoff=0.5)
    hint = f"; did you mean '{near[0]}'?" if near else f"; commands: {', '.join(COMMANDS)}"
    raise UsageError(f"no such command or file: {first!r}{hint}")


def _run(argv: list[str], ctx: Context) -> int:
    """Parse ``argv`` and run the command; errors become one line and status 2."""
    log = ctx.log
    try:
        if not argv:
            sys.stderr.write(top_help())
            return EXIT_USAGE
        first = argv[0]
        if first in ("-h", "--help"):
            sys.stdout.write(top_help())
            return EXIT_OK
        if first == "--version":
            sys.stdout.write(f"{PROG} {__version__}\n")
            return EXIT_OK
        name = _command_for(first)
        rest = argv[1:] if first == name else argv
        module = importlib.import_module(f".{COMMANDS[name][0]}", __name__)
        parser = Parser(prog=f"{PROG} {name}", description=COMMANDS[name][1])
        module.add_arguments(parser)
        args = parser.parse_args(rest)
        log.quiet = bool(getattr(args, "quiet", False) or getattr(args, "csv", False))
        return int(module.run(args, ctx))
    except SystemExit as e:  # --help of a command
        return e.code if isinstance(e.code, int) else (EXIT_OK if e.code is None else EXIT_USAGE)
    except BrokenPipeError:
        return _pipe_closed()
    except ColoritError as e:
        log.error(str(e))
        return int(getattr(e, "exit_code", EXIT_USAGE))
    except OSError as e:
        where = f"{e.filename}: " if e.filename else ""
        log.error(f"{where}{(e.strerror or str(e)).lower()}")
        return EXIT_USAGE
    except MemoryError:
        log.error("out of memory; try a smaller --max-memory or a faster algorithm")
        return EXIT_USAGE
    except KeyboardInterrupt:
        log.error("interrupted")
        return EXIT_SIGINT


def _pipe_closed() -> int:
    """The reader of standard output went away (``| head``): end quietly, as Unix
    tools do, without Python's complaint about the flush at exit."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    return EXIT_PIPE


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status.

    With ``argv=None`` (a real command-line run) the time limit counts from the process
    start and the process ends as soon as the command is done (``quick_exit``); with an
    explicit ``argv`` (a call from Python) it counts from this call and returns.
    """
    real = argv is None
    if real:
        defer_collection()  # the process's own start; calls from Python keep theirs
    ctx = Context(started=clock_start(from_process_start=real), log=Log(), from_process_start=real)
    code = _run(list(sys.argv[1:] if argv is None else argv), ctx)
    if real:
        quick_exit(code)
    return code


def quick_exit(code: int) -> NoReturn:
    """End the process without the interpreter's teardown, which spends 0.3-0.5 s
    unloading numba and llvmlite: a third of a warm solve. Every file colorit writes is
    closed by now; only the standard streams need flushing. A solver thread that
    overran its deadline dies here too."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BrokenPipeError:
            _pipe_closed()
            code = code or EXIT_PIPE
        except (OSError, ValueError):
            pass
    os._exit(code)


__all__ = ["COMMANDS", "main"]
