#!/usr/bin/env python3
"""One beam pass at each given width from lookahead's answer: total moves and solving time
a board, for the value of width and for timing the beam's kernels.

A pass at a fixed width is deterministic, so two versions of the beam give the same total
and differ only in time. To compare versions, run this script with each version's tree
first on ``PYTHONPATH`` (a ``git worktree`` of the older commit), in turns on one core:
two versions' kernels in one process disturb each other's timing (the second one loaded
ran several times slower there), so ``paired.py`` does not suit the beam.

    python benchmarks/beam_width.py ../shared/datasets/floodtest_b19c6n1000_center.txt \\
        --limit 100 --widths 256 --rounds 3
    PYTHONPATH=/tmp/old python benchmarks/beam_width.py ...   # the same with another tree
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("dataset")
    p.add_argument("--limit", type=int, default=200, help="first N boards")
    p.add_argument("--widths", default="16,64,256,1024", help="comma-separated widths, one pass each")
    p.add_argument("--rounds", type=int, default=1, help="passes over the boards per width; the fastest counts")
    args = p.parse_args()
    if str(REPO) not in sys.path:
        sys.path.append(str(REPO))  # after PYTHONPATH: another tree given there comes first
    import colorit
    from colorit.io import datasets
    from colorit.game.graph import RegionGraph
    from colorit.solvers import Control, Limits, beam
    from colorit.solvers.lookahead import lookahead_moves

    boards = datasets.read_boards(args.dataset, limit=args.limit)
    graphs = [RegionGraph.from_board(board) for board in boards]
    firsts = [lookahead_moves(graph)[0] for graph in graphs]
    for graph, first in zip(graphs, firsts):  # load every width's kernels before timing
        beam.search(graph, Control(Limits()), first, max_width=beam.FIRST_WIDTH)
    print(f"{Path(args.dataset).name}, {len(graphs)} boards, colorit from {Path(colorit.__file__).parent.parent}")
    print("| width | total moves | solving ms a board |")
    print("|---|---|---|")
    for width in (int(w) for w in args.widths.split(",")):
        fastest = float("inf")
        for _ in range(args.rounds):
            total = 0
            started = time.thread_time()
            for graph, first in zip(graphs, firsts):
                out = beam.search(graph, Control(Limits()), first, max_width=width, widths={"next": width})
                total += len(out.codes)
            fastest = min(fastest, time.thread_time() - started)
        print(f"| {width} | {total} | {1000 * fastest / len(graphs):.1f} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
