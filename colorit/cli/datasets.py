"""``colorit datasets [list|fetch NAME...|all]``: the community's benchmark sets by name.

``list`` (the default) shows each set of the catalogue (``colorit.io.catalog``): its
shape, start cell, known total, where it comes from and whether it is in the cache;
``fetch`` downloads sets into the cache, checked against their pinned hashes. ``colorit
bench NAME`` fetches a set on first use by itself.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ..log import PROG
from ..runtime.signals import EXIT_OK
from .context import Context
from .options import UsageError, add_quiet

if TYPE_CHECKING:
    from ..io.catalog import DataSet


#: Where the sets go and come from, under ``--help``.
EPILOG = (
    "The cache is the platform's cache folder for colorit (~/.cache/colorit on Linux); COLORIT_DATA_DIR names "
    "another. Files come from raw.githubusercontent.com at pinned commits; COLORIT_DATASETS_URL names a mirror "
    "that keeps the same OWNER/REPO/COMMIT/PATH layout."
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.epilog = EPILOG
    p.add_argument(
        "action", nargs="?", default="list", choices=("list", "fetch"),
        help="list: the sets and whether they are cached (the default); fetch: download sets into the cache",
    )
    p.add_argument("names", nargs="*", metavar="NAME", help="set names or aliases, or 'all' (list: only these)")
    add_quiet(p, "fetch: no line before each download")


def _table(sets: list[DataSet], directory: Path) -> list[str]:
    from ..io.catalog import is_cached

    rows = [("name", "boards", "size", "colours", "start", "optimal", "optima by", "cached", "source")]
    for s in sets:
        side, colours, boards = s.shape
        total = f"{s.total}" if s.proven else f"{s.total}*"
        rows.append((
            s.name, str(boards), f"{side}x{side}", str(colours), "centre" if s.start == "center" else s.start, total,
            s.lengths_by, "yes" if is_cached(s, directory) else "no", s.boards_from.origin,
        ))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]) - 1)]
    right = {1, 3, 5}
    return [
        "  ".join(c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths))) + "  " + r[-1]
        for r in rows
    ]


def _wrapped(head: str, items: list[str], width: int = 100) -> list[str]:
    """``head`` and the comma-separated ``items`` in lines of at most ``width``
    characters, never breaking an item."""
    lines: list[str] = []
    line = head
    for i, item in enumerate(items):
        piece = item + ("," if i < len(items) - 1 else "")
        if len(line) + 1 + len(piece) > width and line.strip():
            lines.append(line)
            line = " "
        line += " " + piece
    return lines + [line] if items else []


def _list(names: list[str]) -> int:
    from ..io.catalog import DATA_DIR_VARIABLE, data_dir, known_sets, select

    sets = select(names) if names else known_sets()
    directory = data_dir()
    for line in _table(sets, directory):
        print(line)
    if not all(s.proven for s in sets):
        print("* best known total, not proven optimal")
    for line in _wrapped("aliases:", [f"{a} ({s.name})" for s in sets for a in s.aliases]):
        print(line)
    print(f"cache: {directory} (set {DATA_DIR_VARIABLE} to use another folder)")
    return EXIT_OK


def _fetch(names: list[str], quiet: bool) -> int:
    from ..io.catalog import cached_paths, data_dir, is_cached, select
    from ..io.fetch import fetch

    if not names:
        raise UsageError(f"fetch needs set names, or 'all' (see '{PROG} datasets' for the names)")
    directory = data_dir()
    for s in select(names):
        boards, lengths = cached_paths(s, directory)
        if is_cached(s, directory):
            print(f"{s.name}: already in the cache: {boards}", flush=True)
            continue
        if not quiet:
            print(f"{PROG} datasets: fetching {s.name} from {s.boards_from.repo}@{s.boards_from.commit[:7]}", file=sys.stderr, flush=True)
        fetch(s, directory, progress=not quiet and sys.stderr.isatty())
        print(f"{s.name}: fetched into {boards} (lengths: {lengths.name})", flush=True)
    return EXIT_OK


def run(args: argparse.Namespace, ctx: Context) -> int:
    if args.action == "fetch":
        return _fetch(args.names, args.quiet)
    return _list(args.names)
