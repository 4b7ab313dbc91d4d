"""``dfs``: the original project's search, done well.

Depth-first branch and bound against the best answer so far, starting from a quick
answer (``lookahead``, or ``greedy`` on huge boards), so there is an answer at once. Per
node it keeps the flooded set and its frontier (the border), so a move only looks at the
border. Colours are tried by the cells they absorb, most first; a colour whose last
regions all border the flood is played alone (it is always optimal to play it now); a
pair of moves whose order does not matter is tried in one order only. A memo (``memo``)
maps a 128-bit Zobrist key of the flooded set to the fewest moves that reached it, and
the colour-elimination bound cuts every branch that cannot beat the best answer. When
the tree is exhausted the answer is proven optimal.

The search is a kernel over an explicit stack that runs for a bounded number of nodes
and returns; the Python loop around it checks the deadline and stop requests between
slices and resumes where it stopped.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._kernel import kernel
from ..game.bitset import ctz
from ..game.bitset import popcount as popcount_word
from ..game.graph import RegionGraph
from ..game.play_bits import eliminating_colour, start_state
from .base import Control, Outcome, SliceBudget, register
from .bound import BoundScratch, elimination_bound
from .incumbent import first_answer
from .memo import memo_seen, new_memo, zobrist_keys
from .status import EXHAUSTED, IMPROVED, SLICE_DONE

MEMO_MAX_BYTES = 96 << 20  #: the memo is a cache: bigger buys little
#: The fewest slots of the memo, whatever the memory limit.
MEMO_LEAST_SLOTS = 1 << 10

# ctr fields
DEPTH, BEST_LEN, STATES = 0, 1, 2


class Stack(NamedTuple):
    """The search path, one row per depth ``d`` (the state after ``d`` moves).

    Invariants between slices: rows ``0..ctr[DEPTH]`` hold the current path; ``fr[d]`` is
    the frontier of ``fl[d]`` and ``hashes[d]`` its Zobrist hash; ``order[d, :n_child[d]]``
    are the moves to try from it and ``next_child[d]`` the next one; ``path[d]`` is the
    move that made row ``d + 1``."""

    fl: np.ndarray  #: (depth cap, words) uint64, flooded sets
    fr: np.ndarray  #: (depth cap, words) uint64, their frontiers
    hashes: np.ndarray  #: (depth cap, 2) uint64
    order: np.ndarray  #: (depth cap, C) int32
    n_child: np.ndarray  #: (depth cap,) int32
    next_child: np.ndarray  #: (depth cap,) int32
    path: np.ndarray  #: (depth cap,) int32


class ChildScratch(NamedTuple):
    """Per-colour work arrays of ``_prepare_children``."""

    gain: np.ndarray  #: (C,) int64, cells each move absorbs
    widens: np.ndarray  #: (C,) bool, the move adds to the frontier
    beside_p: np.ndarray  #: (C,) bool, the move takes a region beside one of the last move's colour


@kernel
def _prepare_children(d, g, st, cs):  # type: ignore[no-untyped-def]
    """Order the moves at depth ``d`` into ``st.order[d]``.

    An eliminating colour is played alone. Otherwise a colour is tried only if it widens
    the frontier (a move that neither completes its colour nor widens it is never
    optimal: the colour's later play absorbs the same regions); of two moves whose order
    does not matter, one order only. The rest go most cells first."""
    colour_mask, region_colour, region_size, adj_ptr, adj_idx = g
    fl, fr, order, n_child, next_child, path = st.fl, st.fr, st.order, st.n_child, st.next_child, st.path
    gain, widens, beside_p = cs
    n_col = colour_mask.shape[0]
    words = fl.shape[1]
    forced = eliminating_colour(fl[d], fr[d], colour_mask, fl[d])
    if forced >= 0:
        order[d, 0] = forced
        n_child[d] = 1
        next_child[d] = 0
        return
    p = -1
    p_open = False
    if d > 0:
        p = path[d - 1]
        for w in range(words):
            if (colour_mask[p, w] & ~fl[d, w]) != np.uint64(0):
                p_open = True
    for c in range(n_col):
        gain[c] = 0
        widens[c] = False
        beside_p[c] = False
    for w in range(words):
        x = fr[d, w]
        while x != np.uint64(0):
            r = (w << 6) + np.int64(ctz(x))
            x &= x - np.uint64(1)
            c = region_colour[r]
            gain[c] += region_size[r]
            for k in range(adj_ptr[r], adj_ptr[r + 1]):
                nb = adj_idx[k]
                bit = np.uint64(1) << np.uint64(nb & 63)
                if fl[d, nb >> 6] & bit:
                    continue
                if not (fr[d, nb >> 6] & bit):
                    widens[c] = True
                if region_colour[nb] == p:
                    beside_p[c] = True
    n = 0
    for c in range(n_col):
        if gain[c] == 0 or not widens[c]:
            continue
        if p_open:
            fresh = False
            for w in range(words):
                if (fr[d, w] & colour_mask[c, w] & ~fr[d - 1, w]) != np.uint64(0):
                    fresh = True
                    break
            # the last move p brought no new c-region: (c, p) reaches as much as (p, c),
            # more when a c-region borders a p-region still outside
            if not fresh and (c < p or beside_p[c]):
                continue
        # insertion by gain, most first (ties: smaller colour first)
        i = n
        while i > 0 and gain[order[d, i - 1]] < gain[c]:
            order[d, i] = order[d, i - 1]
            i -= 1
        order[d, i] = c
        n += 1
    n_child[d] = n
    next_child[d] = 0


@kernel
def _dfs_run(g, zobrist, st, memo, cs, scratch, best, ctr, budget):  # type: ignore[no-untyped-def]
    """Go on with the depth-first search for up to ``budget`` children.

    ``g`` is the graph (``GraphArrays``), ``st`` the path (``Stack``), ``memo`` the seen
    states, ``cs`` and ``scratch`` work arrays, ``best`` the best answer's moves and
    ``ctr`` the counters (``DEPTH``, ``BEST_LEN``, ``STATES``). Returns ``IMPROVED`` after
    a shorter answer (then in ``best[:ctr[BEST_LEN]]``), ``EXHAUSTED`` when no branch is
    left (that answer is optimal), ``SLICE_DONE`` when the budget is spent."""
    colour_mask, region_colour, _, adj_ptr, adj_idx = g
    fl, fr, hashes, order, n_child, next_child, path = st
    n_regions = region_colour.shape[0]
    words = fl.shape[1]
    while budget > 0:
        d = ctr[DEPTH]
        if d < 0:
            return EXHAUSTED
        if next_child[d] >= n_child[d]:
            ctr[DEPTH] = d - 1
            continue
        c = order[d, next_child[d]]
        next_child[d] += 1
        budget -= 1
        ctr[STATES] += 1
        e = d + 1
        # child = parent + colour c, frontier and hash updated from the absorbed regions
        h1 = hashes[d, 0]
        h2 = hashes[d, 1]
        size = 0
        for w in range(words):
            fl[e, w] = fl[d, w]
            fr[e, w] = fr[d, w]
        for w in range(words):
            a = fr[d, w] & colour_mask[c, w]
            if a == np.uint64(0):
                continue
            fl[e, w] |= a
            x = a
            while x != np.uint64(0):
                r = (w << 6) + np.int64(ctz(x))
                x &= x - np.uint64(1)
                h1 ^= zobrist[r, 0]
                h2 ^= zobrist[r, 1]
                for k in range(adj_ptr[r], adj_ptr[r + 1]):
                    nb = adj_idx[k]
                    fr[e, nb >> 6] |= np.uint64(1) << np.uint64(nb & 63)
        for w in range(words):
            fr[e, w] &= ~fl[e, w]
            size += np.int64(popcount_word(fl[e, w]))
        path[d] = c
        if size == n_regions:
            if e < ctr[BEST_LEN]:
                ctr[BEST_LEN] = e
                for i in range(e):
                    best[i] = path[i]
                return IMPROVED
            continue
        if e + 1 >= ctr[BEST_LEN]:
            continue
        if memo_seen(memo, h1, h2, e):
            continue
        h = elimination_bound(fl[e], fr[e], g, scratch, ctr[BEST_LEN] - e - 1)
        if e + h >= ctr[BEST_LEN]:
            continue
        hashes[e, 0] = h1
        hashes[e, 1] = h2
        _prepare_children(e, g, st, cs)
        ctr[DEPTH] = e
    return SLICE_DONE


def search(graph: RegionGraph, control: Control, incumbent: list[int]) -> Outcome:
    """Branch and bound from ``incumbent`` until exhausted (proven) or stopped."""
    n_col, words = graph.n_colours, graph.n_words
    best_codes = list(incumbent)
    g = graph.arrays()
    scratch = BoundScratch.for_graph(graph)
    root, root_front = start_state(graph)
    root_bound = int(elimination_bound(root, root_front, g, scratch, 1 << 62))
    if graph.n_regions == 1 or root_bound >= len(best_codes):
        return Outcome(best_codes, True, len(best_codes), 1)
    control.raise_bound(root_bound)
    depth_cap = len(best_codes) + 1
    st = Stack(
        fl=np.zeros((depth_cap, words), dtype=np.uint64),
        fr=np.zeros((depth_cap, words), dtype=np.uint64),
        hashes=np.zeros((depth_cap, 2), dtype=np.uint64),
        order=np.zeros((depth_cap, n_col), dtype=np.int32),
        n_child=np.zeros(depth_cap, dtype=np.int32),
        next_child=np.zeros(depth_cap, dtype=np.int32),
        path=np.zeros(depth_cap, dtype=np.int32),
    )
    st.fl[0], st.fr[0] = root, root_front
    zobrist = zobrist_keys(graph.n_regions)
    best = np.array(best_codes + [0], dtype=np.int32)
    ctr = np.array([0, len(best_codes), 0], dtype=np.int64)
    memo_bytes = min(control.limits.memory_bytes() // 2, MEMO_MAX_BYTES)
    memo = new_memo(memo_bytes, least=MEMO_LEAST_SLOTS)
    control.note_table_bytes(memo.keys.nbytes + memo.vals.nbytes)
    cs = ChildScratch(np.zeros(n_col, dtype=np.int64), np.zeros(n_col, dtype=np.bool_), np.zeros(n_col, dtype=np.bool_))
    _prepare_children(0, g, st, cs)
    status = SLICE_DONE
    budget = SliceBudget()
    while not control.should_stop():
        status = _dfs_run(g, zobrist, st, memo, cs, scratch, best, ctr, budget.start(control.remaining()))
        budget.done(status == SLICE_DONE)
        if status == IMPROVED:
            best_codes = best[: ctr[BEST_LEN]].tolist()
            control.improved(best_codes, root_bound)
        elif status == EXHAUSTED:
            break
    proven = status == EXHAUSTED
    lower = len(best_codes) if proven else root_bound
    return Outcome(best_codes, proven, lower, int(ctr[STATES]), "" if proven else control.stop_reason)


@register("dfs", "depth-first branch and bound with a memo, ordered moves and the elimination bound", exact=True, rank=4)
def solve_dfs(graph: RegionGraph, control: Control) -> Outcome:
    incumbent = first_answer(graph, control)
    return search(graph, control, incumbent)
