"""The ``colorit`` command: solve a board file, check or compare answers, make boards.

``colorit IN.csv OUT.csv`` (or ``colorit solve ...``) is the original tool's use: CSV in,
CSV out, timestamped progress lines on stdout. The time limit is a promise about the
whole process, counted from its start, so the solver gets what is left after start-up
minus a small reserve for checking and writing the answer. The solver runs in a worker
thread (its kernels release the GIL) while the main thread keeps the clock and the
signals: the first SIGINT/SIGTERM asks the solver for its best answer, which is written
before exiting with 130/143; a second one exits at once without writing. If a solver
overruns its deadline, the main thread writes the best answer it reported so far.

Every error the user can cause is one line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import secrets
import signal
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType, ModuleType
from typing import Any, NoReturn

from . import __version__
from .board import Board
from .errors import ColoritError, SolutionError
from .log import PROG, Log
from .solvers import DEFAULT_ALGO, Control, Limits, Solution, get_solver, solve, solver_names

#: When this module was imported: the clock's start if the process start is unknown.
_IMPORTED_AT = time.monotonic()

DEFAULT_TIME_LIMIT = 120.0
DEFAULT_COMPARE_TIME_LIMIT = 10.0
BASELINE_ALGO = "linear"
EXIT_OK, EXIT_INVALID, EXIT_ERROR = 0, 1, 2
SIGNAL_EXIT: dict[int, int] = {int(signal.SIGINT): 130, int(signal.SIGTERM): 143}

#: Environment variable ``bin/colorit`` sets (epoch seconds) when its first-run setup
#: ran in this process before the CLI, so that setup does not eat the time limit.
CLOCK_ENV = "COLORIT_CLOCK_START"

COMMANDS = ("solve", "check", "compare", "generate", "bench")


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
    """The ``time.monotonic()`` value the time limit counts from.

    For a command-line run that is the process start, so interpreter and import time
    count; it is never later than this module's import and never earlier than the time
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


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are exceptions, so ``main`` prints them as one line."""

    def error(self, message: str) -> Any:  # argparse's signature says NoReturn
        raise UsageError(f"{message} (see '{self.prog} --help')")


_SIZE_UNITS = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}


def parse_memory(spec: str) -> int:
    """Bytes from ``512M``, ``2G``, ``1.5GiB``, ``100000`` (units are powers of 1024)."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?\s*", spec, re.IGNORECASE)
    if not m:
        raise ColoritError(f"--max-memory {spec!r} is not a size such as 512M, 2G or a number of bytes")
    size = int(float(m.group(1)) * _SIZE_UNITS[m.group(2).lower()])
    if size < 1 << 20:
        raise ColoritError(f"--max-memory {spec!r} is below 1M, too little to search in")
    return size


def _time_limit(value: float, flag: str = "--time-limit") -> float:
    if not (math.isfinite(value) and value > 0):
        raise ColoritError(f"{flag} must be a positive number of seconds, got {value:g}")
    return value


def _add_solve_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "input", metavar="IN.csv", help="the board: one row per line, integer colour ids separated by commas"
    )
    p.add_argument("output", metavar="OUT.csv", help="where to write the answer: one colour id per line")
    p.add_argument(
        "--algo",
        default=DEFAULT_ALGO,
        metavar="NAME",
        help=f"solver to use: {', '.join(solver_names())} (default: {DEFAULT_ALGO})",
    )
    p.add_argument(
        "--time-limit",
        type=float,
        default=DEFAULT_TIME_LIMIT,
        metavar="S",
        help=f"seconds from start to written answer (default: {DEFAULT_TIME_LIMIT:g})",
    )
    _add_common(p, quiet=True)


def _add_common(p: argparse.ArgumentParser, *, quiet: bool = False, memory: bool = True) -> None:
    p.add_argument(
        "--start",
        default="top-left",
        metavar="S",
        help="start cell: top-left (default), center, or ROW,COL counted from 0",
    )
    if memory:
        p.add_argument(
            "--max-memory",
            default=None,
            metavar="SIZE",
            help="cap for search tables, e.g. 512M, 2G (default: half the RAM)",
        )
    if quiet:
        p.add_argument("-q", "--quiet", action="store_true", help="no progress lines on stdout")


def build_parser(with_bench: bool = False) -> _Parser:
    """The argument parser; ``with_bench`` imports and lists the ``bench`` subcommand."""
    parser = _Parser(
        prog=PROG,
        description=(
            "Solve Color-It (Flood-It) boards. 'colorit IN.csv OUT.csv' is short for 'colorit solve IN.csv OUT.csv'."
        ),
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("solve", help="solve a board file and write the answer (the default command)")
    _add_solve_options(p)

    p = sub.add_parser("check", help="replay an answer file on a board: valid or not")
    p.add_argument("input", metavar="IN.csv", help="the board")
    p.add_argument("answer", metavar="OUT.csv", help="the answer: one colour id per line")
    _add_common(p, quiet=True, memory=False)

    p = sub.add_parser("compare", help="run several algorithms on one board and tabulate their answers")
    p.add_argument("input", metavar="IN.csv", help="the board")
    p.add_argument(
        "--time-limit",
        type=float,
        default=DEFAULT_COMPARE_TIME_LIMIT,
        metavar="S",
        help=f"seconds per algorithm (default: {DEFAULT_COMPARE_TIME_LIMIT:g})",
    )
    p.add_argument("--algos", default=None, metavar="A,B,...", help="algorithms to run (default: all)")
    p.add_argument("--csv", action="store_true", help="print CSV instead of a table (implies --quiet)")
    _add_common(p, quiet=True)

    p = sub.add_parser("generate", help="write a random board, reproducible from its seed")
    p.add_argument("--size", required=True, metavar="WxH", help="width x height, e.g. 14x14 or 20x12")
    p.add_argument("--colours", "--colors", type=int, required=True, metavar="C", help="number of colours")
    p.add_argument("--seed", type=int, default=None, metavar="S", help="random seed (default: a new one, logged)")
    p.add_argument("-o", "--output", default=None, metavar="FILE", help="board file to write (default: stdout)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress lines on stdout")

    if with_bench:
        bench = load_bench()
        if bench is not None:
            bench.add_parser(sub)
    return parser


def load_bench() -> ModuleType | None:
    """``colorit.bench`` if this installation has it, else ``None``; a bench module that
    exists but fails to import is a ``ColoritError`` naming the reason."""
    try:
        from . import bench
    except ModuleNotFoundError as e:
        if e.name == f"{__package__}.bench":
            return None
        raise ColoritError(f"the bench command cannot be loaded: {e}") from None
    except ImportError as e:
        raise ColoritError(f"the bench command cannot be loaded: {e}") from None
    return bench


def _normalise_argv(argv: list[str]) -> list[str]:
    """Put the implicit ``solve`` in front of ``colorit IN OUT [options]``."""
    if not argv or argv[0] in COMMANDS or argv[0] in ("-h", "--help", "--version"):
        return argv
    return ["solve", *argv]


# --------------------------------------------------------------------------- signals and the solver thread


class Stopper:
    """SIGINT/SIGTERM handlers for the duration of a ``with`` block: the first signal
    asks the running ``control`` to stop (or marks the run stopped if none runs yet);
    a second one ends the process at once."""

    def __init__(self, log: Log) -> None:
        self.log = log
        self.signum: int | None = None
        self.control: Control | None = None
        self._previous: dict[int, Any] = {}

    def watch(self, control: Control) -> Control:
        """Make ``control`` the one a signal stops; stop it now if a signal came already."""
        self.control = control
        if self.signum is not None:
            control.request_stop("signal")
        return control

    @property
    def exit_code(self) -> int:
        return SIGNAL_EXIT.get(self.signum, 128 + (self.signum or 0)) if self.signum is not None else EXIT_OK

    @property
    def signal_name(self) -> str:
        return signal.Signals(self.signum).name if self.signum is not None else ""

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        if self.signum is not None:
            os.write(
                2, f"{PROG}: error: {signal.Signals(signum).name} again: exiting without writing an answer\n".encode()
            )
            os._exit(SIGNAL_EXIT.get(signum, 128 + signum))
        self.signum = signum
        if self.control is not None:
            self.control.request_stop("signal")

    def __enter__(self) -> Stopper:
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


@dataclass
class _Best:
    """The best answer a running solver has reported, in colour codes."""

    codes: list[int] | None = None
    lower_bound: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)


def run_solver(
    board: Board,
    algo: str,
    limits: Limits,
    stopper: Stopper,
    *,
    on_improve: Callable[[int, int], None] | None = None,
    hard_deadline: float = math.inf,
) -> Solution:
    """``solve`` in a worker thread, the main thread waiting with signals live.

    If the solver has not returned by ``hard_deadline`` (``time.monotonic()``), the best
    answer it reported is checked and returned instead (``stopped="time"``).
    """
    best = _Best()

    def improved(codes: list[int], lower_bound: int) -> None:
        with best.lock:
            best.codes, best.lower_bound = list(codes), lower_bound
        if on_improve is not None:
            on_improve(len(codes), lower_bound)

    control = stopper.watch(Control(limits, on_improve=improved))
    result: list[Solution] = []
    failure: list[BaseException] = []

    def work() -> None:
        try:
            result.append(solve(board, algo, control=control))
        except BaseException as e:  # re-raised in the main thread
            failure.append(e)

    worker = threading.Thread(target=work, name=f"colorit-{algo}", daemon=True)
    worker.start()
    warned = False
    while worker.is_alive():
        wait = 0.2 if hard_deadline == math.inf else min(0.2, max(0.0, hard_deadline - time.monotonic()))
        worker.join(wait)
        if worker.is_alive() and time.monotonic() >= hard_deadline:
            control.request_stop("time")
            with best.lock:
                codes, lower = best.codes, best.lower_bound
            if codes is not None:
                moves = board.ids_of(codes)
                board.check(moves)
                stopper.log.warning(f"{algo} did not stop at its deadline; writing its best answer so far")
                return Solution(
                    moves=tuple(moves),
                    proven_optimal=False,
                    lower_bound=min(lower, len(moves)),
                    elapsed=control.elapsed(),
                    algo=algo,
                    stopped="time",
                )
            if not warned:
                stopper.log.warning(f"{algo} has no answer yet at the time limit; waiting for its first one")
                warned = True
            hard_deadline = math.inf
    if failure:
        raise failure[0]
    return result[0]


# --------------------------------------------------------------------------- commands


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return Path(a).resolve() == Path(b).resolve()


def cmd_solve(args: argparse.Namespace, log: Log, started: float) -> int:
    """Solve IN, write OUT; 0, or 130/143 when a signal cut the search short."""
    from .csvio import check_output_path, read_board_csv, write_moves_csv
    from .graph import RegionGraph

    def since_start() -> float:
        return time.monotonic() - started

    algo = get_solver(args.algo).name
    limit = _time_limit(args.time_limit)
    memory = parse_memory(args.max_memory) if args.max_memory is not None else None
    log.info(
        f"{PROG} {__version__}: solve {args.input} -> {args.output} "
        f"(algo {algo}, time limit {limit:g} s, start {args.start}"
        f"{'' if memory is None else f', max memory {args.max_memory}'})"
    )
    if _same_file(args.input, args.output):
        raise ColoritError(f"{args.output}: the output file would overwrite the input board")
    check_output_path(args.output)
    with Stopper(log) as stopper:
        log.info(f"reading board {args.input}")
        board = read_board_csv(args.input, start=args.start)
        regions = RegionGraph.from_board(board).n_regions
        log.info(
            f"board {board.height} rows x {board.width} columns, {board.n_colours} colours, "
            f"{regions} regions, start cell {board.start[0]},{board.start[1]}"
        )
        reserve = min(0.5, 0.1 * limit)
        budget = max(0.01, limit - since_start() - reserve)
        log.info(f"solving with {algo}, time limit {limit:g} s ({budget:.2f} s left for the search)")

        def improved(n_moves: int, lower_bound: int) -> None:
            bound = f" (lower bound {lower_bound})" if lower_bound > 0 else ""
            log.info(f"improved: {n_moves} moves after {since_start():.2f} s{bound}")

        solution = run_solver(
            board,
            algo,
            Limits(time=budget, memory=memory),
            stopper,
            on_improve=improved,
            hard_deadline=started + limit - reserve / 2,
        )
        n = len(solution.moves)
        if solution.proven_optimal:
            log.info(f"proven optimal: {n} moves")
        elif solution.lower_bound > 0:
            log.info(f"best found, {n} moves; lower bound {solution.lower_bound} (gap {100 * solution.gap:.1f}%)")
        else:
            log.info(f"best found, {n} moves; no lower bound known")
        if solution.stopped == "time":
            log.info("the search was stopped by the time limit")
        elif solution.stopped == "memory":
            log.info("the search was stopped by the memory limit (see --max-memory)")
        if stopper.signum is not None:
            log.info(f"interrupted by {stopper.signal_name}: the answer is the best found so far")
        write_moves_csv(args.output, solution.moves)
        log.info(f"wrote {n} moves to {args.output}")
        log.info(f"done in {since_start():.2f} s")
        return stopper.exit_code


def cmd_check(args: argparse.Namespace, log: Log) -> int:
    """Replay an answer file: ``valid: N moves`` (0) or ``invalid: why`` (1)."""
    from .csvio import read_board_csv, read_moves_csv

    board = read_board_csv(args.input, start=args.start)
    moves = read_moves_csv(args.answer)
    try:
        board.check(moves)
    except SolutionError as e:
        print(f"invalid: {e}", flush=True)
        return EXIT_INVALID
    print(f"valid: {len(moves)} moves", flush=True)
    return EXIT_OK


def cmd_compare(args: argparse.Namespace, log: Log) -> int:
    """Run each algorithm on one board; print a table (or CSV) of their answers."""
    import pandas as pd  # type: ignore[import-untyped,unused-ignore]

    from .csvio import read_board_csv

    limit = _time_limit(args.time_limit)
    memory = parse_memory(args.max_memory) if args.max_memory is not None else None
    names = [n.strip() for n in args.algos.split(",") if n.strip()] if args.algos else solver_names()
    if not names:
        raise ColoritError("--algos names no algorithm")
    algos = list(dict.fromkeys(get_solver(n).name for n in names))
    board = read_board_csv(args.input, start=args.start)
    log.info(f"comparing {', '.join(algos)} on {args.input} ({board.height}x{board.width}), {limit:g} s each")
    results: dict[str, Solution] = {}
    runs = ([BASELINE_ALGO] if BASELINE_ALGO not in algos else []) + algos
    # load every solver's kernels first, so time_s measures searching, not loading
    tiny = Board.from_rows([[0, 1], [1, 0]])
    for algo in runs:
        solve(tiny, algo, Limits(time=limit))
    with Stopper(log) as stopper:
        for algo in runs:
            if stopper.signum is not None:
                break
            sol = run_solver(
                board, algo, Limits(time=limit, memory=memory), stopper, hard_deadline=time.monotonic() + limit + 1.0
            )
            results[algo] = sol
            if algo in algos:
                state = "proven optimal" if sol.proven_optimal else "best found"
                log.info(f"{algo}: {len(sol.moves)} moves in {sol.elapsed:.2f} s ({state})")
    baseline = len(results[BASELINE_ALGO].moves) if BASELINE_ALGO in results else None
    rows = []
    for algo in algos:
        if algo not in results:
            continue
        sol = results[algo]
        saving = None if baseline is None else baseline - len(sol.moves)
        rows.append(
            {
                "algorithm": algo,
                "moves": len(sol.moves),
                "time_s": round(sol.elapsed, 3),
                "proven": bool(sol.proven_optimal),
                "saving_moves": saving,
                "saving_pct": None if saving is None else round(100.0 * saving / baseline, 1) if baseline else 0.0,
            }
        )
    table = pd.DataFrame(rows, columns=["algorithm", "moves", "time_s", "proven", "saving_moves", "saving_pct"])
    if args.csv:
        sys.stdout.write(table.to_csv(index=False))
    else:
        sys.stdout.write(table.to_string(index=False) + "\n")
    sys.stdout.flush()
    if stopper.signum is not None:
        log.info(f"interrupted by {stopper.signal_name}: the table holds the algorithms run so far")
    return stopper.exit_code


def cmd_generate(args: argparse.Namespace, log: Log) -> int:
    """Write a random board to a file (or stdout)."""
    from .csvio import write_board_csv
    from .generate import parse_size, random_board

    width, height = parse_size(args.size)
    seed = args.seed if args.seed is not None else secrets.randbits(32)
    if args.output is None:
        board = random_board(width, height, args.colours, seed)
        sys.stdout.write(str(board) + "\n")
        return EXIT_OK
    from .csvio import check_output_path

    check_output_path(args.output)
    board = random_board(width, height, args.colours, seed)
    write_board_csv(args.output, board)
    log.info(f"wrote a {width}x{height} board with {args.colours} colours (seed {seed}) to {args.output}")
    return EXIT_OK


# --------------------------------------------------------------------------- entry point


#: Commands after which a command-line run skips the interpreter's teardown.
QUICK_EXIT_COMMANDS = ("solve", "check", "compare", "generate")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status.

    With ``argv=None`` (a real command-line run) the time limit counts from the process
    start, and the process ends as soon as the command is done (see ``quick_exit``);
    with an explicit ``argv`` (a call from Python) it counts from this call and returns.
    """
    started = clock_start(from_process_start=argv is None)
    args_list = _normalise_argv(list(sys.argv[1:] if argv is None else argv))
    code = _run(args_list, started)
    if argv is None and args_list and args_list[0] in QUICK_EXIT_COMMANDS:
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
        except (OSError, ValueError):
            pass
    os._exit(code)


def _run(args_list: list[str], started: float) -> int:
    """Parse ``args_list`` and run the command; errors become one line and status 2."""
    log = Log()
    try:
        first = args_list[0] if args_list else ""
        if first == "bench" and load_bench() is None:
            raise ColoritError("the bench command is not part of this installation")
        parser = build_parser(with_bench=first == "bench" or (first in ("-h", "--help") and _bench_available()))
        if not args_list:
            parser.print_help(sys.stderr)
            return EXIT_ERROR
        args = parser.parse_args(args_list)
        log.quiet = bool(getattr(args, "quiet", False) or getattr(args, "csv", False))
        if args.command == "solve":
            return cmd_solve(args, log, started)
        if args.command == "check":
            return cmd_check(args, log)
        if args.command == "compare":
            return cmd_compare(args, log)
        if args.command == "generate":
            return cmd_generate(args, log)
        if args.command == "bench":
            bench = load_bench()
            assert bench is not None
            return int(bench.run(args))
        raise UsageError(f"unknown command {args.command!r}")  # pragma: no cover
    except SystemExit as e:  # --help, --version
        return e.code if isinstance(e.code, int) else (EXIT_OK if e.code is None else EXIT_ERROR)
    except ColoritError as e:
        log.error(str(e))
        return EXIT_ERROR
    except OSError as e:
        where = f"{e.filename}: " if e.filename else ""
        log.error(f"{where}{(e.strerror or str(e)).lower()}")
        return EXIT_ERROR
    except MemoryError:
        log.error("out of memory; try a smaller --max-memory or a faster algorithm")
        return EXIT_ERROR
    except KeyboardInterrupt:
        log.error("interrupted")
        return SIGNAL_EXIT[signal.SIGINT]


def _bench_available() -> bool:
    """Whether ``bench`` imports cleanly (only asked when listing commands in --help)."""
    try:
        return load_bench() is not None
    except ColoritError:
        return False
