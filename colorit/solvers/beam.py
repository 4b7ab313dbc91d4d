"""``beam``: level by level from the start, keeping only the ``width`` most promising
states of each move count (lowest colour-elimination bound, then most regions flooded).

It proves nothing (unless its answer meets the lower bound), but it finds answers close to
the optimum on boards the exact search cannot finish, in time proportional to the
width. Passes run with doubling widths while time is left, each only keeping states
that can still beat the best answer so far: an anytime answer that improves with time.
``auto`` uses it when A* has not finished after a share of the time limit.
"""

from __future__ import annotations

import time
from typing import NamedTuple

import numpy as np

from .._jit import kernel
from ..bitset import hash_words, popcount
from ..bound import BoundScratch, bound_bits, elimination_bound, lower_bound
from ..flood import eliminating_colour, frontier, play
from ..graph import RegionGraph, adjacency_bits
from .base import Control, Outcome, SliceBudget, register
from .incumbent import first_answer
from .status import IMPROVED, LEVEL_DONE, SLICE_DONE

FIRST_WIDTH = 64
#: Width of the last pass when there is no time limit.
MAX_WIDTH = 1 << 14
#: A pass is started only if this many times the previous pass's time is left.
PASS_GROWTH = 2.5

# pos fields: where a level stands between kernel calls
NEXT_PARENT, N_CANDIDATES, GOAL_PARENT, GOAL_MOVE = 0, 1, 2, 3


class BeamArrays(NamedTuple):
    """One pass's arrays: the beam, the candidates for the next level, the links back.

    Invariants between calls: ``fl[:n_beam]``/``fr[:n_beam]`` are the states of ``d``
    moves and their frontiers; ``parent[e, j]``/``move[e, j]`` say which state of level
    ``e`` and which colour made state ``j`` of level ``e + 1``; while a level is being
    built, ``cfl``/``cfr``/``key``/``c_parent``/``c_move`` ``[:pos[N_CANDIDATES]]`` hold
    the children of parents ``0 .. pos[NEXT_PARENT] - 1``, one copy of each (``table``
    holds their hashes)."""

    fl: np.ndarray  #: (width, words) uint64
    fr: np.ndarray  #: (width, words) uint64
    cfl: np.ndarray  #: (width * C, words) uint64
    cfr: np.ndarray  #: (width * C, words) uint64
    key: np.ndarray  #: (width * C,) int64, bound then regions left: lowest kept
    c_parent: np.ndarray  #: (width * C,) int64
    c_move: np.ndarray  #: (width * C,) int64
    table: np.ndarray  #: (2^k >= 2 * width * C,) uint64, hashes of the candidates
    parent: np.ndarray  #: (best_len, width) int64
    move: np.ndarray  #: (best_len, width) int64
    pos: np.ndarray  #: (4,) int64, see NEXT_PARENT ...


@kernel
def _beam_level(d, n_beam, b, g, adj_bits, scratch, best_len, budget):  # type: ignore[no-untyped-def]
    """Move the beam (``n_beam`` states of ``d`` moves) one level on, ``budget`` parents
    per call: every child that can still beat ``best_len``, one copy of each, the
    ``width`` best kept. Returns ``SLICE_DONE`` (call again), ``LEVEL_DONE`` (the new
    beam size is ``b.pos[N_CANDIDATES]``) or ``IMPROVED`` (a child is the goal: parent
    and colour in ``b.pos[GOAL_PARENT]``, ``b.pos[GOAL_MOVE]``). The bound works on the
    bitset adjacency rows ``adj_bits`` when given (one row per region), on the
    adjacency lists otherwise."""
    colour_mask, region_colour, _, adj_ptr, adj_idx = g
    fl, fr, cfl, cfr, key, c_parent, c_move, table, parent, move, pos = b
    n = region_colour.shape[0]
    n_col = colour_mask.shape[0]
    words = fl.shape[1]
    width = fl.shape[0]
    if pos[NEXT_PARENT] == 0:
        table[:] = 0
        pos[N_CANDIDATES] = 0
    m = pos[N_CANDIDATES]
    t_mask = table.shape[0] - 1
    first = pos[NEXT_PARENT]
    last = min(n_beam, first + budget)
    for i in range(first, last):
        # a colour whose last regions all border the flood is played alone
        forced = eliminating_colour(fl[i], fr[i], colour_mask)
        for c in range(n_col):
            if forced >= 0 and c != forced:
                continue
            absorbs = False
            for w in range(words):
                if fr[i, w] & colour_mask[c, w]:
                    absorbs = True
                    break
            if not absorbs:
                continue
            cfl[m] = fl[i]
            cfr[m] = fr[i]
            play(cfl[m], cfr[m], colour_mask, c, adj_ptr, adj_idx)
            size = 0
            for w in range(words):
                size += np.int64(popcount(cfl[m, w]))
            if size == n:
                pos[GOAL_PARENT] = i
                pos[GOAL_MOVE] = c
                pos[NEXT_PARENT] = 0
                return IMPROVED
            # the rest needs at least the bound: keep only what can still win
            if adj_bits.shape[0] == n:
                h = bound_bits(cfl[m], cfr[m], colour_mask, adj_bits, cfl[m], best_len - d - 2)
            else:
                h = elimination_bound(cfl[m], cfr[m], g, scratch, best_len - d - 2)
            if d + 1 + h >= best_len:
                continue
            # one copy of each state (by 64-bit hash: a collision only loses a candidate)
            hs = hash_words(cfl[m], cfl[m]) | np.uint64(1)  # 0 marks an empty slot
            slot = np.int64(hs & np.uint64(t_mask))
            dup = False
            while table[slot] != np.uint64(0):
                if table[slot] == hs:
                    dup = True
                    break
                slot = (slot + 1) & t_mask
            if dup:
                continue
            table[slot] = hs
            key[m] = h * (n + 1) + (n - size)
            c_parent[m] = i
            c_move[m] = c
            m += 1
    pos[N_CANDIDATES] = m
    if last < n_beam:
        pos[NEXT_PARENT] = last
        return SLICE_DONE
    order = np.argsort(key[:m], kind="mergesort")
    kept = min(width, m)
    for j in range(kept):
        src = order[j]
        fl[j] = cfl[src]
        fr[j] = cfr[src]
        parent[d, j] = c_parent[src]
        move[d, j] = c_move[src]
    pos[NEXT_PARENT] = 0
    pos[N_CANDIDATES] = kept
    return LEVEL_DONE


def _new_beam(graph: RegionGraph, width: int, best_len: int) -> BeamArrays:
    cap = width * graph.n_colours
    words = graph.n_words
    return BeamArrays(
        fl=np.empty((width, words), dtype=np.uint64),
        fr=np.empty((width, words), dtype=np.uint64),
        cfl=np.empty((cap, words), dtype=np.uint64),
        cfr=np.empty((cap, words), dtype=np.uint64),
        key=np.empty(cap, dtype=np.int64),
        c_parent=np.empty(cap, dtype=np.int64),
        c_move=np.empty(cap, dtype=np.int64),
        table=np.zeros(1 << (2 * cap - 1).bit_length(), dtype=np.uint64),
        parent=np.empty((best_len, width), dtype=np.int64),
        move=np.empty((best_len, width), dtype=np.int64),
        pos=np.zeros(4, dtype=np.int64),
    )


def bytes_per_width(graph: RegionGraph, best_len: int) -> int:
    """Memory one unit of beam width takes (the candidates dominate: C per state)."""
    return graph.n_colours * (graph.n_words * 16 + 56) + graph.n_words * 16 + 16 * best_len


def _goal_path(b: BeamArrays, d: int) -> list[int]:
    """The moves to the goal found from level ``d``."""
    i, c = int(b.pos[GOAL_PARENT]), int(b.pos[GOAL_MOVE])
    out = [c]
    for e in range(d - 1, -1, -1):
        out.append(int(b.move[e, i]))
        i = int(b.parent[e, i])
    return out[::-1]


def _pass(graph: RegionGraph, control: Control, width: int, best_len: int, start: np.ndarray, front: np.ndarray,
          adj_bits: np.ndarray, scratch: BoundScratch) -> tuple[list[int] | None, int]:
    """One pass at ``width``: an answer shorter than ``best_len`` (None if it found none
    or was stopped), and the states it kept."""
    b = _new_beam(graph, width, best_len)
    control.note_table_bytes(sum(a.nbytes for a in b))
    b.fl[0] = start
    b.fr[0] = front
    g = graph.arrays()
    n_beam = 1
    kept = 1
    budget = SliceBudget(first=8, most=1 << 20)
    for d in range(best_len - 1):
        while True:
            if control.should_stop():
                return None, kept
            status = _beam_level(d, n_beam, b, g, adj_bits, scratch, best_len, budget.start(control.remaining()))
            budget.done(status == SLICE_DONE)
            if status != SLICE_DONE:
                break
        if status == IMPROVED:
            return _goal_path(b, d), kept
        n_beam = int(b.pos[N_CANDIDATES])
        if n_beam == 0:
            break
        kept += n_beam
    return None, kept


def search(graph: RegionGraph, control: Control, incumbent: list[int], max_width: int = MAX_WIDTH) -> Outcome:
    """Beam passes of doubling width from ``incumbent``, while time is left, up to
    ``max_width`` (and what the memory cap allows). A stop is noticed within a slice."""
    best = list(incumbent)
    bound = lower_bound(graph, limit=len(best))
    control.raise_bound(min(bound, len(best)))
    start = graph.initial_state()
    front = np.zeros_like(start)
    frontier(start, graph.adj_ptr, graph.adj_idx, front)
    scratch = BoundScratch.for_graph(graph)
    # bitset rows where R x R bits are affordable (about 3 times faster), lists otherwise
    adj_bits = adjacency_bits(graph) if graph.adjacency_bits_fit else np.zeros((0, 1), dtype=np.uint64)
    most = min(max_width, control.limits.memory_bytes() // bytes_per_width(graph, len(best)))
    width = min(FIRST_WIDTH, most)
    states = 0
    last = 0.0
    while len(best) > bound and 1 <= width <= most:
        if control.should_stop() or control.remaining() < last * PASS_GROWTH:
            break
        t0 = time.monotonic()
        found, kept = _pass(graph, control, width, len(best), start, front, adj_bits, scratch)
        last = time.monotonic() - t0
        states += kept
        if found is not None and len(found) < len(best):
            best = found
            control.improved(best, bound)
        width *= 2
    return Outcome(best, len(best) <= bound, min(bound, len(best)), states, control.stop_reason)


@register("beam", "the most promising states of each move count, widths doubling while time is left", rank=3)
def solve_beam(graph: RegionGraph, control: Control) -> Outcome:
    incumbent = first_answer(graph, control)
    return search(graph, control, incumbent)
