"""Compile (or load from numba's on-disk cache) the kernels before a timed solve needs them.

A kernel compiles on its first call, for seconds; a time limit must not pay for that.
``python -m colorit.runtime.warmup`` runs every solver on boards that reach every kernel and
every compiled width, so that later runs only load them (milliseconds). The setup runs it
(``bin/colorit`` in the background after the first answer, ``bin/test`` and the Docker
build before anything else). ``--essential`` compiles only what a small board's solve
with the default algorithm needs, the first run's share.

A* and beam are compiled once per word-width tier (``bitset.WIDTH_TIERS``) and once with
run-time widths (graphs of 513 to 1024 regions), so the boards below are chosen to reach
each.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence

from .. import _aot
from ..game.bitset import RUNTIME_WIDTH, WIDTH_TIERS, compiled_width, n_words
from ..game.board import Board
from ..game.generate import random_board
from ..game.graph import BITSET_MAX_REGIONS, RegionGraph, count_regions, padded
from ..io.csvfile import COMPILED_TEXT_MOVES, moves_text
from ..solvers import Control, Limits, astar, astar_store, beam, dfs, dominance, solve, solver_names
from ..solvers.deadline import mark_warm
from ..solvers.greedy import greedy_rows
from ..solvers.linear import linear_moves
from ..solvers.lookahead import lookahead_moves

SMALL_ROWS = [[1, 2, 0, 0, 3], [0, 1, 1, 0, 3], [2, 2, 0, 1, 1], [0, 3, 0, 1, 2]]


#: The memory limit of a warm-up slice (``OneSlice``).
WARM_MEMORY = 16 << 20

#: The solvers whose kernels are compiled per width (and so are loaded at their boards'
#: widths): A* and beam, and lookahead, whose answer every search starts from.
PER_WIDTH_SOLVERS = ("astar", "auto", "beam", "dfs", "lookahead")


def width_key(graph: RegionGraph) -> int:
    """The compiled A* kernel ``graph`` runs: its width tier, or ``RUNTIME_WIDTH``."""
    return compiled_width(graph.n_words)


def astar_widths(boards: Sequence[Board]) -> frozenset[int]:
    """The A* kernels ``boards`` need (boards A* would not search need none): from
    their region counts alone, as ``width_key`` gives them for their graphs."""
    widths = set()
    for board in boards:
        n = count_regions(board)
        if 1 < n <= BITSET_MAX_REGIONS:
            widths.add(compiled_width(n_words(n)))
    return frozenset(widths)


def widths_for(algo: str, boards: Sequence[Board]) -> frozenset[int]:
    """``astar_widths`` of ``boards`` when ``algo`` (a canonical name) has kernels compiled
    per width (``PER_WIDTH_SOLVERS``), else none."""
    return astar_widths(boards) if algo in PER_WIDTH_SOLVERS else frozenset()


def boards_for_widths(widths: set[int], colours: int = 6) -> list[Board]:
    """Random boards whose region graphs run A* at each of ``widths`` (padded word counts;
    a width above the tiers stands for the run-time-width kernel): the biggest found of
    each, so that a search on it does not end before its kernels have run."""
    wanted = set(widths)
    found: dict[int, Board] = {}
    side = 4
    seed = 0
    while side <= 120 and wanted:
        board = random_board(side, side, colours, seed)
        graph = RegionGraph.from_board(board)
        if not graph.adjacency_bits_fit:
            break
        key = width_key(graph)
        if key > max(wanted):
            break  # the boards only grow from here
        if key in wanted:
            found[key] = board
        side += 1
        seed += 1
    return [found[key] for key in sorted(found)]


class OneSlice(Control):
    """Lets a search run one kernel slice (which compiles its kernels), then stops it:
    a time limit would stop it before the first slice when the compiling takes longer.
    Its memory limit is small (``WARM_MEMORY``) unless given: searches size tables by
    it, and one slice under the default (half the machine) would fault in pages of a
    table it never fills (the depth-first search's 96 MB memo: tens of ms of a start)."""

    def __init__(self, checks: int = 1, limits: Limits | None = None) -> None:
        super().__init__(limits or Limits(memory=WARM_MEMORY))
        self.checks = 0
        self.allowed = checks

    def should_stop(self) -> bool:
        self.checks += 1
        return self.checks > self.allowed


def warm_astar(widths: set[int], only_astar: bool = False, algo: str | None = None) -> None:
    """Greedy's game and one slice of A*, of its deepening and of a beam level, and a
    lookahead game, at each of ``widths`` (see ``boards_for_widths``), and A*'s store
    growing: the kernels compiled per width (``only_astar``: greedy's and A*'s). Given
    ``algo`` (a solver that runs them), its solves at those widths are recorded as
    loaded (``deadline.mark_warm``)."""
    loaded = set()
    for board in boards_for_widths(widths):
        # the linear AI's answer is never optimal on these boards, so the searches run
        graph = RegionGraph.from_board(board)
        loaded.add(width_key(graph))
        greedy_rows(padded(graph))  # auto's first answer
        astar.search(graph, OneSlice(), linear_moves(graph))
        if only_astar:
            continue
        lookahead_moves(graph)
        # a store full at once: A* goes on by deepening at once
        tight = OneSlice(checks=4, limits=Limits(memory=1 << 20))
        astar.search(graph, tight, linear_moves(graph), store_share=1e-6)
        beam.search(graph, OneSlice(checks=2), linear_moves(graph), max_width=beam.FIRST_WIDTH)
    if loaded and not only_astar:
        # A*'s store grows only past its first capacity (its kernels take any width)
        store = astar_store.NodeStore(WIDTH_TIERS[0], 4, 256, 1 << 20)
        store.grow_nodes(0)
        store.grow_table(0)
        # the index starts only on wider sets and bigger tables than this small grow's
        dominance.rebuild(store.supersets, store.nodes, 0, store.words)
        if algo is not None:
            mark_warm(algo, loaded)


def essential() -> float:
    """What a small board's default solve needs; return the seconds it took."""
    t0 = time.monotonic()
    small = Board.from_rows(SMALL_ROWS)
    for name in ("linear", "auto"):
        solve(small, name, Limits(time=60.0))
    warm_astar({WIDTH_TIERS[0]}, only_astar=True)
    return time.monotonic() - t0


def warmup() -> float:
    """Run every solver on boards that reach every kernel; return the seconds it took."""
    t0 = time.monotonic()
    essential()
    small = Board.from_rows(SMALL_ROWS)
    for name in solver_names():
        solve(small, name, Limits(time=60.0))
        solve(small.with_start((2, 2)), name, Limits(time=60.0))
    warm_astar(set(WIDTH_TIERS) | {RUNTIME_WIDTH})
    graph = RegionGraph.from_board(random_board(10, 10, 6, 1))
    # dfs's word loops have a run-time length: one slice compiles it for every width
    dfs.search(graph, OneSlice(), linear_moves(graph))
    # a path a small board never takes: beam passes run only when the first answer is
    # not known to be optimal (A*'s store growing is warmed with its widths above)
    beam.search(graph, Control(Limits(time=60.0)), linear_moves(graph), max_width=beam.FIRST_WIDTH)
    # graphs past bitset adjacency: lookahead and beam on the adjacency lists
    big = RegionGraph.from_board(random_board(60, 60, 6, 2))
    lookahead_moves(big, OneSlice())
    beam.search(big, OneSlice(checks=2), linear_moves(big), max_width=1)
    # a long answer's text (a board of a million regions writes a million lines)
    moves_text(range(COMPILED_TEXT_MOVES))
    # a bench's warm-up sizes its kernels by its boards' region counts
    astar_widths([small])
    return time.monotonic() - t0


def setup() -> str:
    """The setup's warm-up (``bin/colorit``, ``bin/test``, the Docker build): every
    kernel (``warmup``), then every signature loaded compiled ahead of time, for starts
    without numba (``aot_build``); return a line saying what was done. (A web worker
    runs ``warmup`` alone.)"""
    if _aot.serving():
        return "colorit kernels ready (compiled ahead of time)"
    seconds = warmup()
    from . import aot_build  # (only the setup builds; a bench's warm-up never does)

    return f"colorit kernels ready in {seconds:.1f} s; {aot_build.build()}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m colorit.runtime.warmup", description=__doc__.splitlines()[0])
    parser.add_argument("--essential", action="store_true", help="only what a small default solve needs")
    args = parser.parse_args(argv)
    print(f"colorit kernels ready in {essential():.1f} s" if args.essential else setup())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())


def warm_for(algo: str, boards: Sequence[Board] = ()) -> None:
    """Load or compile the kernels ``algo`` needs on ``boards``, before any clock runs:
    its own on a small board, and A*'s at each width those boards need; record them as
    loaded (``deadline.mark_warm``), so that solves with long limits skip the solver thread."""
    from ..solvers import get_solver

    name = get_solver(algo).name
    if _aot.serving():
        mark_warm(name)  # compiled ahead of time, at every width: nothing to load
        return
    small = Board.from_rows(SMALL_ROWS)
    for start in ((0, 0), (2, 2)):
        solve(small.with_start(start), name, Limits(time=60.0))
    widths = set(widths_for(name, boards))
    past = name in ("auto", "beam", "lookahead") and any(_past_bitsets(board) for board in boards)
    if name == "auto":
        # auto's helpers, which a small board never calls: the beam at the small board's
        # width (``warm_astar`` loads it at the others), and the depth-first search,
        # which auto runs only on graphs wider than A*'s compiled widths; with no boards
        # named, both
        narrow = not boards or WIDTH_TIERS[0] in widths
        wide = not boards or past or any(width > max(WIDTH_TIERS) for width in widths)
        if narrow or wide:
            graph = RegionGraph.from_board(random_board(10, 10, 6, 1))
            if narrow:
                beam.search(graph, OneSlice(checks=2), linear_moves(graph), max_width=beam.FIRST_WIDTH)
            if wide:
                dfs.search(graph, OneSlice(), linear_moves(graph))
    if past:
        # graphs past bitset adjacency: lookahead and beam on the adjacency lists
        big = RegionGraph.from_board(random_board(60, 60, 6, 2))
        lookahead_moves(big, OneSlice())
        beam.search(big, OneSlice(checks=2), linear_moves(big), max_width=1)
    if name in PER_WIDTH_SOLVERS:
        mark_warm(name, ())  # its own kernels; the searches' widths as they load
        warm_astar(widths, algo=name)
    else:
        mark_warm(name)  # kernels that take any width


def _past_bitsets(board: Board) -> bool:
    """Whether ``board`` may have more regions than bitset adjacency allows (a quick
    test on its cells, then its region count, as ``astar_widths`` takes it)."""
    return board.height * board.width > BITSET_MAX_REGIONS and count_regions(board) > BITSET_MAX_REGIONS


def warm_up(algo: str, boards: Sequence[Board] = ()) -> None:
    """Load (or compile) the kernels ``algo`` needs for ``boards`` before a clock runs;
    that ends the command's start (``settle_collection``)."""
    from .clock import settle_collection

    warm_for(algo, boards)
    settle_collection()
