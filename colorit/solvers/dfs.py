"""``dfs``: the original project's search, done well.

Depth-first branch and bound against the best answer so far, starting from a quick
answer (``lookahead``, or ``greedy`` on huge boards), so there is an answer at once. Per node it keeps the flooded set and its frontier
(the border), so a move only looks at the border. Colours are tried by the cells they
absorb, most first; a colour whose last regions all border the flood is played alone
(it is always optimal to play it now); a pair of moves whose order does not matter is
tried in one order only. A memo maps a 128-bit Zobrist hash of the flooded set to the
fewest moves that reached it, and the colour-elimination bound cuts every branch that
cannot beat the best answer. When the tree is exhausted the answer is proven optimal.

The search is a kernel over an explicit stack that runs for a bounded number of nodes
and returns; the Python loop around it checks the deadline and stop requests between
slices and resumes where it stopped.
"""

from __future__ import annotations

import numpy as np

from .._jit import kernel
from ..bitset import ctz, popcount as popcount_word
from ..bound import BoundScratch, elimination_bound
from ..flood import eliminating_colour, frontier
from ..graph import RegionGraph
from .base import Control, Outcome, SliceBudget, register
from .lookahead import first_answer

EXHAUSTED, SLICE_DONE, IMPROVED = 0, 1, 2
MEMO_WAYS = 4
MEMO_MAX_BYTES = 96 << 20  #: the memo is a cache: bigger buys little

# ctr fields
DEPTH, BEST_LEN, STATES = 0, 1, 2


@kernel
def _prepare_children(  # type: ignore[no-untyped-def]
    d, fl, fr, colour_mask, region_size, region_colour, adj_ptr, adj_idx, order, n_child, next_child, path,
    gain, widens, beside_p,
):
    """Order the moves at depth ``d`` into ``order[d]``.

    An eliminating colour is played alone. Otherwise a colour is tried only if it widens
    the frontier (a move that neither completes its colour nor widens it is never
    optimal: the colour's later play absorbs the same regions); of two moves whose order
    does not matter, one order only. The rest go most cells first."""
    n_col = colour_mask.shape[0]
    words = fl.shape[1]
    forced = eliminating_colour(fl[d], fr[d], colour_mask)
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
def _memo_visit(keys, vals, h1, h2, g):  # type: ignore[no-untyped-def]
    """True if the state was already reached with at most ``g`` moves; else record ``g``.

    ``vals`` holds moves + 1 (0: empty), so a fresh table is all zeros and costs no
    memory until it is used."""
    mask = keys.shape[0] - 1
    base = np.int64(h1 & np.uint64(mask)) & ~np.int64(MEMO_WAYS - 1)
    victim = base
    for i in range(MEMO_WAYS):
        j = base + i
        if vals[j] != 0 and keys[j, 0] == h1 and keys[j, 1] == h2:
            if vals[j] <= g + 1:
                return True
            vals[j] = g + 1
            return False
        if vals[victim] != 0 and (vals[j] == 0 or vals[j] > vals[victim]):
            victim = j
    # not found: take an empty way, else the one reached with the most moves
    keys[victim, 0] = h1
    keys[victim, 1] = h2
    vals[victim] = g + 1
    return False


@kernel
def _dfs_run(  # type: ignore[no-untyped-def]
    colour_mask, region_colour, region_size, adj_ptr, adj_idx, zobrist,
    fl, fr, hashes, order, n_child, next_child, path, best, ctr, keys, vals, gain, widens, beside_p,
    expanded, layer, nxt, mark, stamp, cnt_rem, cnt_lay, elim, budget,
):
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
        g = d + 1
        # child = parent + colour c, frontier and hash updated from the absorbed regions
        h1 = hashes[d, 0]
        h2 = hashes[d, 1]
        size = 0
        for w in range(words):
            fl[g, w] = fl[d, w]
            fr[g, w] = fr[d, w]
        for w in range(words):
            a = fr[d, w] & colour_mask[c, w]
            if a == np.uint64(0):
                continue
            fl[g, w] |= a
            x = a
            while x != np.uint64(0):
                r = (w << 6) + np.int64(ctz(x))
                x &= x - np.uint64(1)
                h1 ^= zobrist[r, 0]
                h2 ^= zobrist[r, 1]
                for k in range(adj_ptr[r], adj_ptr[r + 1]):
                    nb = adj_idx[k]
                    fr[g, nb >> 6] |= np.uint64(1) << np.uint64(nb & 63)
        for w in range(words):
            fr[g, w] &= ~fl[g, w]
            size += np.int64(popcount_word(fl[g, w]))
        path[d] = c
        if size == n_regions:
            if g < ctr[BEST_LEN]:
                ctr[BEST_LEN] = g
                for i in range(g):
                    best[i] = path[i]
                return IMPROVED
            continue
        if g + 1 >= ctr[BEST_LEN]:
            continue
        if _memo_visit(keys, vals, h1, h2, g):
            continue
        h = elimination_bound(
            fl[g], fr[g], colour_mask, region_colour, adj_ptr, adj_idx,
            expanded, layer, nxt, mark, stamp, cnt_rem, cnt_lay, elim, ctr[BEST_LEN] - g - 1,
        )
        if g + h >= ctr[BEST_LEN]:
            continue
        hashes[g, 0] = h1
        hashes[g, 1] = h2
        _prepare_children(
            g, fl, fr, colour_mask, region_size, region_colour, adj_ptr, adj_idx, order, n_child, next_child, path,
            gain, widens, beside_p,
        )
        ctr[DEPTH] = g
    return SLICE_DONE




def search(graph: RegionGraph, control: Control, incumbent: list[int]) -> Outcome:
    """Branch and bound from ``incumbent`` until exhausted (proven) or stopped."""
    n_col, words = graph.n_colours, graph.n_words
    best_codes = list(incumbent)
    scratch = BoundScratch.for_graph(graph)
    root = graph.initial_state()
    root_front = np.zeros_like(root)
    frontier(root, graph.adj_ptr, graph.adj_idx, root_front)
    args = (graph.colour_mask, graph.region_colour, graph.adj_ptr, graph.adj_idx)
    root_bound = int(elimination_bound(root, root_front, *args, *scratch.args(), 1 << 62))
    if graph.n_regions == 1 or root_bound >= len(best_codes):
        return Outcome(best_codes, True, len(best_codes), 1)
    depth_cap = len(best_codes) + 1
    fl = np.zeros((depth_cap, words), dtype=np.uint64)
    fr = np.zeros((depth_cap, words), dtype=np.uint64)
    fl[0], fr[0] = root, root_front
    hashes = np.zeros((depth_cap, 2), dtype=np.uint64)
    rng = np.random.default_rng(0x5EED)
    zobrist = rng.integers(0, 2**63, size=(graph.n_regions, 2), dtype=np.uint64) * np.uint64(2) + np.uint64(1)
    order = np.zeros((depth_cap, n_col), dtype=np.int32)
    n_child = np.zeros(depth_cap, dtype=np.int32)
    next_child = np.zeros(depth_cap, dtype=np.int32)
    path = np.zeros(depth_cap, dtype=np.int32)
    best = np.array(best_codes + [0], dtype=np.int32)
    ctr = np.array([0, len(best_codes), 0], dtype=np.int64)
    memo_bytes = min(control.limits.memory_bytes() // 2, MEMO_MAX_BYTES)
    slots = 1 << max(10, int(np.log2(max(1024, memo_bytes // 20))))
    keys = np.zeros((slots, 2), dtype=np.uint64)
    vals = np.zeros(slots, dtype=np.int32)
    gain = np.zeros(n_col, dtype=np.int64)
    widens = np.zeros(n_col, dtype=np.bool_)
    beside_p = np.zeros(n_col, dtype=np.bool_)
    _prepare_children(
        0, fl, fr, graph.colour_mask, graph.region_size, graph.region_colour, graph.adj_ptr, graph.adj_idx,
        order, n_child, next_child, path, gain, widens, beside_p,
    )
    status = SLICE_DONE
    budget = SliceBudget()
    while not control.should_stop():
        n = budget.start()
        status = _dfs_run(
            graph.colour_mask, graph.region_colour, graph.region_size, graph.adj_ptr, graph.adj_idx, zobrist,
            fl, fr, hashes, order, n_child, next_child, path, best, ctr, keys, vals, gain, widens, beside_p,
            *scratch.args(), n,
        )
        budget.done()
        if status == IMPROVED:
            best_codes = best[: ctr[BEST_LEN]].tolist()
            control.improved(best_codes, root_bound)
        elif status == EXHAUSTED:
            break
    proven = status == EXHAUSTED
    lower = len(best_codes) if proven else root_bound
    return Outcome(best_codes, proven, lower, int(ctr[STATES]), "" if proven else control.stop_reason)


@register("dfs", "depth-first branch and bound with a memo, ordered moves and the elimination bound", exact=True)
def solve_dfs(graph: RegionGraph, control: Control) -> Outcome:
    incumbent = first_answer(graph)
    control.improved(incumbent)
    return search(graph, control, incumbent)
