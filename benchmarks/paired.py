#!/usr/bin/env python3
"""Time two versions of the solver on the same boards, in one process, alternating.

A shared machine drifts by ±15% over minutes, more when other jobs start; running both
versions in turns, a chunk of boards each, puts both under the same load, so their
ratio holds where two separate runs would not. The old version is taken from git
(``--ref``) into a temporary folder as the package ``colorit_old``; both solve every
board with ``--algo``; CPU time (all threads) per version is summed over the chunks.

    python benchmarks/paired.py ../shared/datasets/pc19_b14c6n1000.txt --ref 9122fb0
"""

from __future__ import annotations

import argparse
import importlib
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]


def load_old(ref: str, folder: Path) -> object:
    """The package as it was at ``ref``, importable as ``colorit_old``."""
    archive = subprocess.run(["git", "-C", str(REPO), "archive", ref, "colorit"], capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    (folder / "colorit").rename(folder / "colorit_old")
    sys.path.insert(0, str(folder))
    return importlib.import_module("colorit_old")


#: Where a module lives in this layout, and where it lived before the layout's move
#: (colorit/game, io, runtime; A*'s store in a module of its own): an older commit loaded
#: as ``colorit_old`` has the old.
MOVED = {
    "io.datasets": "datasets",
    "io.csvfile": "csvio",
    "game.graph": "graph",
    "game.bitset": "bitset",
    "game.play_bits": "flood",
    "solvers.bound": "bound",
    "solvers.astar_store": "solvers.astar",
    "runtime.warmup": "warmup",
}


def module(pkg: str, name: str) -> object:
    """``pkg``'s module ``name`` (as this layout names it), in either layout."""
    try:
        return importlib.import_module(f"{pkg}.{name}")
    except ModuleNotFoundError:
        return importlib.import_module(f"{pkg}.{MOVED.get(name, name)}")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("dataset")
    p.add_argument("--ref", required=True, help="git ref of the old version")
    p.add_argument("--algo", default="auto")
    p.add_argument("--limit", type=int, default=None, help="first N boards")
    p.add_argument("--chunk", type=int, default=20)
    args = p.parse_args()
    sys.path.insert(0, str(REPO))
    import colorit
    from colorit.io.datasets import read_boards

    with tempfile.TemporaryDirectory() as tmp:
        old = load_old(args.ref, Path(tmp))
        old_datasets: Any = module("colorit_old", "io.datasets")
        new_boards = read_boards(args.dataset, limit=args.limit)
        old_boards = old_datasets.read_boards(args.dataset, limit=args.limit)
        # compile both versions' kernels (every width) before timing, then load them
        module("colorit_old", "runtime.warmup").warmup()  # type: ignore[attr-defined]
        importlib.import_module("colorit.runtime.warmup").warmup()
        for b_old, b_new in zip(old_boards, new_boards):
            old.solve(b_old, args.algo)  # type: ignore[attr-defined]
            colorit.solve(b_new, args.algo)
        cpu = {"old": 0.0, "new": 0.0}
        moves = {"old": 0, "new": 0}
        for start in range(0, len(new_boards), args.chunk):
            order = (("old", old, old_boards), ("new", colorit, new_boards))
            if (start // args.chunk) % 2:
                order = order[::-1]
            for name, pkg, boards in order:
                t0 = time.process_time()
                for board in boards[start : start + args.chunk]:
                    moves[name] += len(pkg.solve(board, args.algo).moves)  # type: ignore[attr-defined]
                cpu[name] += time.process_time() - t0
    ratio = cpu["new"] / cpu["old"] if cpu["old"] else float("nan")
    print(
        f"{Path(args.dataset).name}: {len(new_boards)} boards, algo {args.algo}; CPU old ({args.ref}) {cpu['old']:.2f} s, "
        f"new {cpu['new']:.2f} s, new/old {ratio:.3f}; moves old {moves['old']}, new {moves['new']}"
    )
    return 0 if moves["old"] == moves["new"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
