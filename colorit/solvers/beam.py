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

import numpy as np

from .._jit import kernel
from ..bitset import hash_words, popcount
from ..bound import BoundScratch, bound_bits, elimination_bound, lower_bound
from ..flood import eliminating_colour, frontier, play
from ..graph import RegionGraph, adjacency_bits
from .base import Control, Outcome, register
from .lookahead import BITSET_MAX_REGIONS, first_answer

FIRST_WIDTH = 64
#: Width of the last pass when there is no time limit.
MAX_WIDTH = 1 << 14
#: A pass is started only if this many times the previous pass's time is left.
PASS_GROWTH = 2.5


@kernel
def _beam_level(  # type: ignore[no-untyped-def]
    d, n_beam, fl, fr, cfl, cfr, key, c_parent, c_move, table, parent, move, goal, best_len,
    colour_mask, region_colour, adj_ptr, adj_idx, adj_bits,
    expanded, layer, nxt, mark, stamp, cnt_rem, cnt_lay, elim,
):
    """Move the beam (``n_beam`` states of ``d`` moves in ``fl``/``fr``) one level on:
    every child that can still beat ``best_len``, one copy of each, the ``width`` best
    kept (``parent``/``move`` row ``d`` link them back). Returns the new beam size, or -1
    after a goal (``goal`` = beam index and colour of its last move). The bound works on
    the bitset adjacency rows ``adj_bits`` when given (one row per region), on the
    adjacency lists otherwise."""
    n = region_colour.shape[0]
    n_col = colour_mask.shape[0]
    words = fl.shape[1]
    width = fl.shape[0]
    m = 0
    table[:] = 0
    t_mask = table.shape[0] - 1
    for i in range(n_beam):
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
                goal[0] = i
                goal[1] = c
                return -1
            # the rest needs at least the bound: keep only what can still win
            if adj_bits.shape[0] == n:
                h = bound_bits(cfl[m], cfr[m], colour_mask, adj_bits, cfl[m], best_len - d - 2)
            else:
                h = elimination_bound(
                    cfl[m], cfr[m], colour_mask, region_colour, adj_ptr, adj_idx,
                    expanded, layer, nxt, mark, stamp, cnt_rem, cnt_lay, elim, best_len - d - 2,
                )
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
    order = np.argsort(key[:m], kind="mergesort")
    kept = min(width, m)
    for j in range(kept):
        src = order[j]
        fl[j] = cfl[src]
        fr[j] = cfr[src]
        parent[d, j] = c_parent[src]
        move[d, j] = c_move[src]
    return kept


class _Beam:
    """The arrays of one pass: the beam, its candidates, and the links back to the start."""

    def __init__(self, graph: RegionGraph, width: int, best_len: int) -> None:
        cap = width * graph.n_colours
        words = graph.n_words
        self.fl = np.empty((width, words), dtype=np.uint64)
        self.fr = np.empty((width, words), dtype=np.uint64)
        self.cfl = np.empty((cap, words), dtype=np.uint64)
        self.cfr = np.empty((cap, words), dtype=np.uint64)
        self.key = np.empty(cap, dtype=np.int64)
        self.c_parent = np.empty(cap, dtype=np.int64)
        self.c_move = np.empty(cap, dtype=np.int64)
        self.table = np.zeros(1 << (2 * cap - 1).bit_length(), dtype=np.uint64)
        self.parent = np.empty((best_len, width), dtype=np.int64)
        self.move = np.empty((best_len, width), dtype=np.int64)
        self.goal = np.zeros(2, dtype=np.int64)

    @staticmethod
    def bytes_per_width(graph: RegionGraph, best_len: int) -> int:
        return graph.n_colours * (graph.n_words * 16 + 56) + graph.n_words * 16 + 16 * best_len

    def path(self, d: int) -> list[int]:
        """The moves to the goal found at level ``d``."""
        i, c = int(self.goal[0]), int(self.goal[1])
        out = [c]
        for e in range(d - 1, -1, -1):
            out.append(int(self.move[e, i]))
            i = int(self.parent[e, i])
        return out[::-1]


def _pass(graph: RegionGraph, control: Control, width: int, best_len: int, start: np.ndarray, front: np.ndarray,
          adj_bits: np.ndarray, scratch: BoundScratch) -> tuple[list[int] | None, int]:
    """One pass at ``width``: an answer shorter than ``best_len`` (None if it found none
    or was stopped), and the states it kept."""
    b = _Beam(graph, width, best_len)
    b.fl[0] = start
    b.fr[0] = front
    n_beam = 1
    kept = 1
    for d in range(best_len - 1):
        if control.should_stop():
            return None, kept
        n_beam = _beam_level(d, n_beam, b.fl, b.fr, b.cfl, b.cfr, b.key, b.c_parent, b.c_move, b.table, b.parent,
                             b.move, b.goal, best_len, graph.colour_mask, graph.region_colour, graph.adj_ptr,
                             graph.adj_idx, adj_bits, *scratch.args())
        if n_beam < 0:
            return b.path(d), kept
        if n_beam == 0:
            break
        kept += n_beam
    return None, kept


def search(graph: RegionGraph, control: Control, incumbent: list[int], max_width: int = MAX_WIDTH) -> Outcome:
    """Beam passes of doubling width from ``incumbent``, while time is left, up to
    ``max_width``. Every pass is checked between levels, so a stop is noticed at once."""
    best = list(incumbent)
    bound = lower_bound(graph, limit=len(best))
    start = graph.initial_state()
    front = np.zeros_like(start)
    frontier(start, graph.adj_ptr, graph.adj_idx, front)
    scratch = BoundScratch.for_graph(graph)
    # bitset rows where R x R bits are affordable (about 3 times faster), lists otherwise
    adj_bits = adjacency_bits(graph) if graph.n_regions <= BITSET_MAX_REGIONS else np.zeros((0, 1), dtype=np.uint64)
    most = min(max_width, control.limits.memory_bytes() // _Beam.bytes_per_width(graph, len(best)))
    width = FIRST_WIDTH
    states = 0
    last = 0.0
    while len(best) > bound and width <= max(most, FIRST_WIDTH):
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


@register("beam", "the most promising states of each move count, widths doubling while time is left")
def solve_beam(graph: RegionGraph, control: Control) -> Outcome:
    incumbent = first_answer(graph)
    control.improved(incumbent)
    return search(graph, control, incumbent)
