#!/usr/bin/env python3
"""colorit against ColorFill (Java), the fastest public exact Flood-It solver, side by side.

    python benchmarks/reference.py --colorfill DIR [SET ...] [--sets FOLDER] [--rounds N]
    python benchmarks/reference.py --colorfill DIR --fast floodtest --limit 100

DIR is a ColorFill source folder (a clone of github.com/smack42/ColorFill: its ``src/``
and ``lib/``; it is GPLv3 and not part of this repository). The script compiles it with
``javac`` into ``~/.cache/colorit/colorfill-<commit>-<sources digest>/classes`` (again
only when the sources or the compiler change) and runs ColorFill's own benchmark mode,
``java -cp ... colorfill.ui.Starter -benchmark FILE STRATEGY``: ``AStarPuchertStrategy``
(its exact A*), or with ``--fast`` ``AStarFlolleStrategy`` (its fast inexact A*). Against
it, ``colorit bench SET --workers 1 --max-memory 1G --expect auto --json ...`` (the
default solver and per-board limit, with which every board of every set with an ``.opt``
is proven; with ``--fast``, ``--time-limit T`` a board). Each round runs ColorFill, then
colorit, each pinned to one core (``taskset -c CPU``), as whole processes (the JVM's or
Python's start included), each one's peak resident memory taken from ``os.wait4``.

SET is a set name: pc19, floodtest, b10c15n1000, b12c12n1000, b14c8n1000, b18c6n1000,
b24c4n1000, b24c6n1000 (``--fast`` only: its optima are not known), b10c35n1000 (ColorFill
refuses boards of more than 16 colours), or the stem of any file in ``--sets``. Without
SET: every set both can run. Sets are read from ``--sets FOLDER`` or ``$COLORIT_DATASETS``
(the files as the community publishes them, e.g. ``pc19_b14c6n1000.txt`` with its
``.opt`` beside it), else through ``colorit.io.catalog`` (``colorit datasets``) when it is
there, else from ``../shared/datasets`` beside the repository.

Checked, every round: both exit cleanly, answer every board, and no answer is shorter
than a proven optimum; in exact runs every answer's length is the optimum (so both
totals equal the known total) and colorit proves every board. ColorFill's answers of the
last round are replayed on the boards (colorit's own bench replays its answers). A
failed check ends that set's rounds, is shown in the table and makes the exit status 1.

What ColorFill's benchmark mode lacks, and how this script works around it (ColorFill is
run unchanged): it writes its answers beside its input (``FILE_solution_STRATEGY.txt``),
so it reads a link to the set from a temporary folder; it has no board limit, so
``--limit N`` gives it a temporary file of the set's first N boards (colorit reads the set
itself with ``--limit N``); it does not compare with known optima (this script does); it
takes the start cell from the board's size alone (the centre of 19 x 19 boards, the
floodtest set's; the top-left corner otherwise), so a set whose own start
differs is refused; its per-board times include reading the board, and the times here
are whole processes anyway.

Exit status: 0 when every row checks out, 1 when a check failed, 2 for bad arguments.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import os
import platform
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from reference_report import (  # this folder is the script's first import path
    Answers,
    Measured,
    OutputError,
    Row,
    check_answers,
    format_header,
    format_table,
    parse_colorfill,
    parse_colorit,
    ratio,
)

from colorit.io.datasets import (
    default_start,
    detect_format,
    known_lengths_path,
    lengths_are_proven,
    name_shape,
    read_lengths,
)

REPO = Path(__file__).resolve().parents[1]
SHARED_SETS = REPO.parent / "shared" / "datasets"
JAVA_OPTS = "-XX:+UseSerialGC -Xmx12g"
EXACT_STRATEGY, FAST_STRATEGY = "AStarPuchertStrategy", "AStarFlolleStrategy"
DEFAULT_FAST_LIMIT = 0.05
#: Set names and their files' stems (``STEM.txt``, with ``STEM.opt`` or ``STEM.best``).
SETS = {
    "pc19": "pc19_b14c6n1000",
    "floodtest": "floodtest_b19c6n1000_center",
    **{name: name for name in ("b10c15n1000", "b12c12n1000", "b14c8n1000", "b18c6n1000", "b24c4n1000", "b24c6n1000",
                               "b10c35n1000")},
}
COLORFILL_MAX_COLOURS = 16  # its Board.MAX_NUMBER_OF_COLORS
#: It reads boards of 19 lines of 19 cells (any other size: one board a line) and starts
#: boards of 19 x 19 cells from the centre, the others from the top-left corner.
COLORFILL_CENTRE_SIDE = 19


class SetupError(Exception):
    """Bad arguments or a missing tool or set: one line, exit status 2."""


# --------------------------------------------------------------------------- the sets


@dataclass(frozen=True)
class SetFiles:
    name: str
    boards: Path
    lengths: Path | None  #: the .opt (proven optima) or .best (best known) beside the boards

    @property
    def proven(self) -> bool:
        return self.lengths is not None and lengths_are_proven(self.lengths)


def locate_set(name: str, folder: Path | None) -> SetFiles:
    """A set by name, from ``folder``, else through ``colorit.io.catalog``."""
    stem = SETS.get(name, name)
    if folder is not None:
        boards = folder / f"{stem}.txt"
    else:
        from colorit.io.catalog import DataSetError
        from colorit.io.fetch import resolve_paths

        try:  # the set's boards file, fetched into the cache when missing
            (found,) = resolve_paths([name], lambda line: print(f"reference: {line}", file=sys.stderr, flush=True))
        except DataSetError as e:
            raise SetupError(str(e)) from None
        boards = Path(found)
    if not boards.is_file():
        raise SetupError(f"{name}: no {boards}")
    return SetFiles(name, boards, known_lengths_path(boards))


def sets_folder(arg: str | None) -> Path | None:
    """``--sets``, else ``$COLORIT_DATASETS``; else None when ``colorit.io.catalog`` is
    there to fetch sets by name; else ``../shared/datasets`` beside the repository."""
    if arg or os.environ.get("COLORIT_DATASETS"):
        return Path(arg or os.environ["COLORIT_DATASETS"])
    if importlib.util.find_spec("colorit.io.catalog") is not None:
        return None
    if SHARED_SETS.is_dir():
        return SHARED_SETS
    raise SetupError("where are the sets? give --sets FOLDER (or set COLORIT_DATASETS)")


def split_boards(path: Path) -> tuple[list[str], str]:
    """The boards of a text set, each as written, and what separates them."""
    text = path.read_text(encoding="utf-8")
    fmt = detect_format(path)
    if fmt == "blocks":
        return [b.strip("\n") for b in re.split(r"\n[ \t\r]*\n", text.strip()) if b.strip()], "\n\n"
    if fmt == "lines":
        return [line.strip() for line in text.splitlines() if line.strip()], "\n"
    raise SetupError(f"{path}: a {fmt} file, not a set of boards ColorFill reads")


def first_boards(src: Path, n: int, dest: Path) -> int:
    """Write the first ``n`` boards of ``src`` to ``dest`` in its format; how many there are."""
    boards, sep = split_boards(src)
    dest.write_text(sep.join(boards[:n]) + "\n", encoding="utf-8")
    return len(boards[:n])


def colorfill_start(boards: list[str]) -> str:
    """The start ColorFill's benchmark mode gives a set's boards (by their size alone)."""
    cells = len(boards[0].replace("\n", "")) if boards else 0
    return "center" if cells == COLORFILL_CENTRE_SIDE**2 else "top-left"


def why_not(s: SetFiles, exact: bool) -> str | None:
    """Why ColorFill and colorit cannot both run a set (None: they can)."""
    shape = name_shape(s.boards)
    if shape is not None and shape[1] > COLORFILL_MAX_COLOURS:
        return f"ColorFill takes at most {COLORFILL_MAX_COLOURS} colours, {s.boards.name} has {shape[1]}"
    if exact and not s.proven:
        return f"no proven optima (.opt) beside {s.boards.name} to check an exact run against (try --fast)"
    boards, sep = split_boards(s.boards)
    if sep == "\n\n" and boards and len(boards[0].splitlines()[0]) != COLORFILL_CENTRE_SIDE:
        return f"ColorFill reads boards written over several lines only at {COLORFILL_CENTRE_SIDE} x {COLORFILL_CENTRE_SIDE}"
    theirs, ours = colorfill_start(boards), default_start(s.boards)
    if theirs != ours:
        return f"ColorFill would start {s.boards.name}'s boards from the {theirs}, the set starts from the {ours}"
    return None


def select_sets(names: list[str], folder: Path | None, exact: bool) -> list[SetFiles]:
    """The sets named (each must run), or every known set that both can run."""
    if names:
        chosen = [locate_set(name, folder) for name in names]
        for s in chosen:
            if (reason := why_not(s, exact)) is not None:
                raise SetupError(f"{s.name}: {reason}")
        return chosen
    chosen = []
    for name in SETS:
        try:
            s = locate_set(name, folder)
        except SetupError as e:
            print(f"reference: skipped {e}", file=sys.stderr)
            continue
        if (reason := why_not(s, exact)) is not None:
            print(f"reference: skipped {name}: {reason}", file=sys.stderr)
            continue
        chosen.append(s)
    if not chosen:
        raise SetupError(f"no set to run in {folder or 'the catalog'}")
    return chosen


# --------------------------------------------------------------------------- ColorFill's build and provenance


@dataclass(frozen=True)
class Build:
    """ColorFill compiled: the classpath to run it with, its classes' folder, and the
    javac command that built them (None when the cached build was still good)."""

    classpath: str
    classes: Path
    command: str | None


def first_line(cmd: list[str]) -> str:
    """The first line ``cmd`` prints (java and javac say their version on stderr)."""
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    return first_line_of(done.stdout + done.stderr)


def first_line_of(text: str) -> str:
    return next(iter(text.strip().splitlines()), "unknown")


def git_commit(folder: Path, short: bool = False, paths: tuple[str, ...] = ()) -> tuple[str | None, bool]:
    """``folder``'s commit and whether its tracked files (under ``paths``, default all)
    differ from it, when ``folder`` is a git checkout's top (None otherwise)."""

    def git(*a: str) -> str | None:
        done = subprocess.run(["git", "-C", str(folder), *a], capture_output=True, text=True, check=False)
        return done.stdout.strip() if done.returncode == 0 else None

    top = git("rev-parse", "--show-toplevel") if shutil.which("git") else None
    if top is None or Path(top).resolve() != folder.resolve():
        return None, False
    return git("rev-parse", *(["--short"] if short else []), "HEAD"), bool(git("status", "--porcelain", "--untracked-files=no", "--", *paths))


def build_colorfill(source: Path, cache_root: Path) -> Build:
    """ColorFill's classes, compiled from ``source`` into the cache unless there already."""
    javac = shutil.which("javac")
    if javac is None:
        raise SetupError("javac not found: a Java JDK (17 or later) builds ColorFill")
    sources = sorted((source / "src").rglob("*.java"))
    if not (source / "src" / "colorfill" / "ui" / "Starter.java").is_file():
        raise SetupError(f"{source}: not a ColorFill source folder (no src/colorfill/ui/Starter.java)")
    digest = hashlib.sha256(first_line([javac, "-version"]).encode())
    for f in sorted(p for p in [*(source / "src").rglob("*"), *(source / "lib").glob("*.jar")] if p.is_file()):
        digest.update(f.relative_to(source).as_posix().encode() + b"\0" + f.read_bytes() + b"\0")
    commit, _ = git_commit(source)
    folder = cache_root / f"colorfill-{commit[:12] if commit else 'unknown'}-{digest.hexdigest()[:12]}"
    libs = str(source / "lib" / "*")
    classpath = os.pathsep.join([str(folder / "classes"), libs])
    if (folder / "classes" / "colorfill" / "ui" / "Starter.class").is_file():
        return Build(classpath, folder / "classes", None)
    cache_root.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".colorfill-", dir=cache_root))
    cmd = [javac, "-nowarn", "-encoding", "UTF-8", "-d", str(staging / "classes"), "-cp", libs, *map(str, sources)]
    print(f"reference: compiling ColorFill ({len(sources)} files) into {folder}", file=sys.stderr)
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        shutil.rmtree(staging, ignore_errors=True)
        raise SetupError(f"javac failed on {source}: {first_line_of(done.stderr)}")
    for f in (source / "src").rglob("*"):  # its resources, as in its jar
        if f.is_file() and f.suffix != ".java":
            (staging / "classes" / f.relative_to(source / "src")).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(f, staging / "classes" / f.relative_to(source / "src"))
    shutil.rmtree(folder, ignore_errors=True)
    os.replace(staging, folder)
    shown = shlex.join(cmd[:-len(sources)] + [f"{source}/src/**/*.java"]).replace(str(staging), str(folder))
    return Build(classpath, folder / "classes", f"{shown} ({len(sources)} files)")


def machine() -> dict[str, Any]:
    """The CPU model, the cores and the memory of this machine."""
    info: dict[str, Any] = {"cpu": platform.processor() or platform.machine(), "cores": os.cpu_count(), "ram_gib": None}
    try:
        cpuinfo = Path("/proc/cpuinfo").read_text().splitlines()
        info["cpu"] = next(line.split(":", 1)[1].strip() for line in cpuinfo if line.startswith("model name"))
        meminfo = Path("/proc/meminfo").read_text().split()
        info["ram_gib"] = round(int(meminfo[meminfo.index("MemTotal:") + 1]) / 2**20, 1)
    except (OSError, StopIteration, ValueError):
        pass
    return info


# --------------------------------------------------------------------------- runs and their answers


def timed_run(cmd: list[str], cwd: Path, out: Path, env: dict[str, str] | None = None) -> Measured:
    """Run ``cmd`` (standard output to ``out``, errors beside it), timing the whole process."""
    with open(out, "wb") as stdout, open(out.with_suffix(".err"), "wb") as stderr:
        started = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=cwd, stdout=stdout, stderr=stderr, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        took = time.perf_counter() - started
    proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
    return Measured(took, round(usage.ru_maxrss / 1024, 1), proc.returncode)


def replay_problems(boards_file: Path, moves: list[str], start: str) -> list[str]:
    """ColorFill's answers played on the boards (colorit's replay)."""
    from colorit.errors import ColoritError
    from colorit.io.datasets import decode_moves, read_boards

    problems = []
    for i, (board, answer) in enumerate(zip(read_boards(boards_file, start=start, limit=len(moves)), moves), 1):
        try:
            board.check(decode_moves(answer))
        except ColoritError as e:
            problems.append(f"ColorFill: board {i}'s answer does not solve it ({e})")
    return problems[:3]


# --------------------------------------------------------------------------- the rounds


def side_commands(s: SetFiles, boards_file: Path, json_file: Path, build: Build, args: argparse.Namespace) -> dict[str, list[str]]:
    """ColorFill's and colorit's command lines for one set."""
    pin = ["taskset", "-c", args.cpu] if shutil.which("taskset") else []
    strategy = FAST_STRATEGY if args.fast else EXACT_STRATEGY
    colorfill = [*pin, "java", *shlex.split(args.java_opts), "-cp", build.classpath, "colorfill.ui.Starter",
                 "-benchmark", str(boards_file), strategy]
    colorit = [*pin, sys.executable, "-m", "colorit", "bench", str(s.boards), "--workers", "1", "--algo", args.algo,
               "--expect", "auto", "--json", str(json_file), "-q"]
    if args.max_memory:
        colorit += ["--max-memory", args.max_memory]
    if args.fast or args.time_limit is not None:
        colorit += ["--time-limit", f"{args.time_limit if args.time_limit is not None else DEFAULT_FAST_LIMIT:g}"]
    if args.limit is not None:
        colorit += ["--limit", str(args.limit)]
    return {"ColorFill": colorfill, "colorit": colorit}


def error_tail(out: Path) -> str:
    lines = out.with_suffix(".err").read_text(errors="replace").strip().splitlines()
    return f": {lines[-1]}" if lines else ""


def one_round(row: Row, cmds: dict[str, list[str]], folder: Path, s: SetFiles, args: argparse.Namespace,
              known: list[int] | None) -> Answers | None:
    """ColorFill then colorit on one set; ColorFill's answers, None after a failed check."""
    exact = not args.fast
    out = folder / "colorfill.out"
    ran = timed_run(cmds["ColorFill"], folder, out)
    try:
        cf = parse_colorfill(out.read_text(errors="replace"))
        row.problems += check_answers("ColorFill", cf, row.boards, known, s.proven, exact)
    except OutputError as e:
        row.problems.append(f"{e} (exit {ran.exit}{error_tail(out)})")
    if ran.exit != 0 and not row.problems:
        row.problems.append(f"ColorFill exited {ran.exit}{error_tail(out)}")
    if row.problems:
        return None
    row.colorfill.add(ran, cf)
    json_file, out = folder / "colorit.json", folder / "colorit.out"
    json_file.unlink(missing_ok=True)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH")) if p))
    ran = timed_run(cmds["colorit"], REPO, out, env)
    if ran.exit not in ((0, 1) if args.fast else (0,)) or not json_file.is_file():  # fast: 1 says some are longer
        row.problems.append(f"colorit exited {ran.exit}{error_tail(out)}")
        return None
    ci = parse_colorit(json.loads(json_file.read_text()))
    row.problems += check_answers("colorit", ci, row.boards, known, s.proven, exact)
    row.colorit.add(ran, ci)
    return None if row.problems else cf


def run_set(s: SetFiles, build: Build, args: argparse.Namespace, work: Path) -> Row:
    """Both programs on one set, in turns for ``--rounds``, checked every round."""
    folder = work / s.name
    folder.mkdir()
    boards_file = folder / s.boards.name  # ColorFill writes its answers beside what it reads
    if args.limit is not None:
        boards = first_boards(s.boards, args.limit, boards_file)
    else:
        boards_file.symlink_to(s.boards.resolve())
        boards = len(split_boards(s.boards)[0])
    known = read_lengths(s.lengths)[:boards] if s.lengths is not None else None
    if known is not None and len(known) < boards:
        raise SetupError(f"{s.lengths}: {len(known)} lengths for {boards} boards")
    row = Row(s.boards.stem, boards, sum(known) if known else None, s.proven)
    cmds = side_commands(s, boards_file, folder / "colorit.json", build, args)
    row.commands = {side: shlex.join(cmd) for side, cmd in cmds.items()}
    answers = None
    for r in range(1, args.rounds + 1):
        answers = one_round(row, cmds, folder, s, args, known)
        if answers is None:
            break
        print(f"{row.set} round {r}: ColorFill {row.colorfill.seconds[-1]:.2f} s, {row.colorfill.peak_mb[-1]:.0f} MB; "
              f"colorit {row.colorit.seconds[-1]:.2f} s, {row.colorit.peak_mb[-1]:.0f} MB", file=sys.stderr, flush=True)
    if answers is not None and answers.moves is not None:
        row.problems += replay_problems(s.boards, answers.moves, default_start(s.boards))
    return row


# --------------------------------------------------------------------------- the command


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0], epilog="exit status: 0 when every row checks out, "
                                "1 when a check failed, 2 for bad arguments, a missing tool or set")
    p.add_argument("sets", nargs="*", metavar="SET", help=f"set names ({', '.join(SETS)}, or a file's stem in --sets; "
                   "default: every set both can run)")
    p.add_argument("--colorfill", required=True, metavar="DIR", help="a ColorFill source folder (its src/ and lib/)")
    p.add_argument("--sets", dest="folder", metavar="FOLDER", help="the folder of the set files (default: "
                   "$COLORIT_DATASETS, else colorit.io.catalog where there, else ../shared/datasets)")
    p.add_argument("--rounds", type=int, default=3, help="rounds of both programs in turns (default: 3)")
    p.add_argument("--fast", action="store_true", help=f"the fast answers: ColorFill's {FAST_STRATEGY} against "
                   f"colorit's --time-limit a board (default {DEFAULT_FAST_LIMIT:g} s)")
    p.add_argument("--time-limit", type=float, help="colorit's seconds a board (exact runs: bench's default)")
    p.add_argument("--algo", default="auto", help="colorit's solver (default: auto)")
    p.add_argument("--max-memory", default="1G", help="colorit's memory cap ('' for bench's default; default: 1G)")
    p.add_argument("--limit", type=int, metavar="N", help="only the first N boards of each set")
    p.add_argument("--cpu", default="0", help="the core both run on (taskset -c; default: 0)")
    p.add_argument("--java-opts", default=JAVA_OPTS, help=f"the JVM's options (default: {JAVA_OPTS!r})")
    p.add_argument("--cache", default=str(Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "colorit"),
                   help="where ColorFill's classes are built (default: %(default)s)")
    p.add_argument("--json", metavar="FILE", help="also write the header and the rows as JSON")
    args = p.parse_args(argv)
    if args.rounds < 1 or (args.limit is not None and args.limit < 1):
        p.error("--rounds and --limit take a positive number")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    source = Path(args.colorfill).resolve()
    started = datetime.now().astimezone().isoformat(sep=" ", timespec="seconds")
    try:
        if shutil.which("java") is None:
            raise SetupError("java not found: a Java runtime (17 or later) runs ColorFill")
        chosen = select_sets(args.sets, sets_folder(args.folder), exact=not args.fast)
        build = build_colorfill(source, Path(args.cache))
        with tempfile.TemporaryDirectory(prefix="colorit-reference-") as work:
            rows = [run_set(s, build, args, Path(work)) for s in chosen]
    except SetupError as e:
        print(f"reference: {e}", file=sys.stderr)
        return 2
    commit, dirty = git_commit(REPO, short=True)
    cf_commit, cf_dirty = git_commit(source, paths=("src", "lib"))  # what is built
    strategy = FAST_STRATEGY if args.fast else EXACT_STRATEGY
    mode = f"{'fast' if args.fast else 'exact'} (ColorFill {strategy}, colorit bench --algo {args.algo})"
    meta = {
        "mode": mode, "rounds": args.rounds, "machine": machine(),
        "pinned": f"each pinned to core {args.cpu}" if shutil.which("taskset") else "not pinned (no taskset)",
        "date": started,
        "colorit_commit": f"{commit or 'unknown'}{' (dirty)' if dirty else ''}",
        "python": platform.python_version(),
        "colorfill_commit": f"{cf_commit or 'unknown'}{' (modified)' if cf_dirty else ''}",
        "colorfill_dir": str(source), "java": first_line(["java", "-version"]),
        "build": build.command or f"cached in {build.classes}",
        "rows": [{**asdict(r), "ratio": ratio(r)[0], "round_ratios": ratio(r)[1]} for r in rows],
    }  # fmt: skip
    print(format_header(meta))
    print(format_table(rows))
    if args.json:
        tmp = Path(f"{args.json}.tmp")
        tmp.write_text(json.dumps(meta, indent=1) + "\n")
        os.replace(tmp, args.json)
    return 0 if all(not r.problems for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
