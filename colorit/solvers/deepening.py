"""Iterative deepening from A*'s open nodes: how the exact search goes on when its memory
is full, without starting again.

When A*'s store reaches the memory cap it has expanded every node below the current
level ``f`` and stored the rest of the frontier as open nodes. From there each threshold
``F = f, f + 1, ...`` is searched depth-first from every open node whose ``f`` is at most
``F``: a state is skipped when its bound passes ``F``, when A*'s table already holds it
with as few moves (that node's own search, or A*'s expansion of it, covers it), or when
this threshold's memo has seen it with as few moves. A goal found under ``F`` is
optimal, since every smaller threshold was exhausted; when ``F`` reaches the best answer
it is proven. Memory stays what A* had plus a fixed memo (a cache: a state it forgot
is only searched again).

Why it is exact: every path to a goal of at most ``F`` moves passes through an open A*
node with ``f <= F`` or leaves A*'s expanded nodes through one (A* stored every child of
an expanded node that could beat its best answer, or put the node back as open with the
children it did not store), and a state skipped for being in A*'s table with fewer moves
is covered by that node. The moves are pruned by the same rules as A* (an eliminating
colour alone, a move that neither completes its colour nor widens the frontier never,
one order of an order-free pair).

The kernel keeps its path on an explicit stack and runs in slices, like the others.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._kernel import kernel, prefetch
from ..game.bitset import borrowed, ctz, hash_words, popcount
from ..game.play_bits import eliminating_colour
from .astar_store import DEAD, _next_of, _parent_of
from .bound import bound_bits, bound_bits_many_colours
from .memo import Memo, memo_seen, memo_ways
from .seen import home_slot, stored_moves
from .status import EXHAUSTED, IMPROVED, SLICE_DONE

# ctr fields
ROOT, DEPTH, THRESH, GOAL_LEN, STATES, G0, ROOT_MOVE, CUR_BF, CUR_BG, F_LO = range(10)
N_COUNTERS = 10


class DeepStack(NamedTuple):
    """The path of the depth-first search from one root (an open A* node).

    Invariants between slices: rows ``0..ctr[DEPTH]`` hold the path, row 0 the root's set;
    ``fr[d]`` is the frontier of ``fl[d]`` and ``zob[d]`` its 128-bit Zobrist key;
    ``next_colour[d]`` is the next colour to try from row ``d``, ``path[d]`` the move that
    made row ``d + 1``. ``root_pfront`` is the frontier of the root's parent (for the
    order-free pair rule at the root), ``found[:ctr[GOAL_LEN]]`` a goal path from the root."""

    fl: np.ndarray  #: (depth cap, words) uint64
    fr: np.ndarray  #: (depth cap, words) uint64
    zob: np.ndarray  #: (depth cap, 2) uint64
    next_colour: np.ndarray  #: (depth cap,) int64
    forced: np.ndarray  #: (depth cap,) int64, row d's eliminating colour (-1: none)
    path: np.ndarray  #: (depth cap,) int64
    root_pfront: np.ndarray  #: (words,) uint64
    found: np.ndarray  #: (depth cap,) int64


@kernel
def _next_root(heads, nodes, ctr, words):  # type: ignore[no-untyped-def]
    """The next live open node of A*'s buckets with ``ctr[F_LO] <= f <= ctr[THRESH]``
    after ``ctr[ROOT]`` (-1: from the first), level by level, deepest first; -1 when
    there is none left. The cursor is ``ctr[ROOT]`` in bucket ``(ctr[CUR_BF], ctr[CUR_BG])``."""
    f_hi = min(ctr[THRESH], heads.shape[0] - 1)
    x = ctr[ROOT]
    while True:
        if x >= 0:
            x = _next_of(nodes[x, words])
        else:
            if ctr[CUR_BF] < 0:
                ctr[CUR_BF] = ctr[F_LO]
                ctr[CUR_BG] = heads.shape[1] - 1
            else:
                ctr[CUR_BG] -= 1
                if ctr[CUR_BG] < 0:
                    ctr[CUR_BF] += 1
                    ctr[CUR_BG] = heads.shape[1] - 1
            if ctr[CUR_BF] > f_hi:
                return -1
            x = heads[ctr[CUR_BF], ctr[CUR_BG]]
        if x >= 0 and not (nodes[x, words + 1] & DEAD):
            return x


@kernel
def _start_root(node, nodes, colour_mask, adj_bits, zobrist, st, ctr, shape):  # type: ignore[no-untyped-def]
    """Put A* node ``node`` at row 0 of the stack."""
    words = len(shape)
    fl, fr, zob = st.fl, st.fr, st.zob
    k1 = np.uint64(0)
    k2 = np.uint64(0)
    for w in range(words):
        fl[0, w] = nodes[node, w]
        fr[0, w] = 0
        st.root_pfront[w] = 0
    for w in range(words):
        x = fl[0, w]
        while x != np.uint64(0):
            r = (w << 6) + np.int64(ctz(x))
            x &= x - np.uint64(1)
            k1 ^= zobrist[r, 0]
            k2 ^= zobrist[r, 1]
            for v in range(words):
                fr[0, v] |= adj_bits[r, v]
    for w in range(words):
        fr[0, w] &= ~fl[0, w]
    zob[0, 0] = k1
    zob[0, 1] = k2
    parent = _parent_of(nodes[node, words])
    ctr[ROOT_MOVE] = -1
    if parent >= 0:
        ctr[ROOT_MOVE] = np.int64((nodes[node, words + 1] >> np.uint64(8)) & np.uint64(0xFFFFFF))
        for w in range(words):
            x = nodes[parent, w]
            while x != np.uint64(0):
                r = (w << 6) + np.int64(ctz(x))
                x &= x - np.uint64(1)
                for v in range(words):
                    st.root_pfront[v] |= adj_bits[r, v]
        for w in range(words):
            st.root_pfront[w] &= ~fl[0, w]
    ctr[G0] = np.int64(nodes[node, words + 1] >> np.uint64(32))
    st.next_colour[0] = 0
    st.forced[0] = eliminating_colour(fl[0], fr[0], colour_mask, shape)
    ctr[DEPTH] = 0


@kernel
def _deepen_run(colour_mask, adj_bits, colour_adj, astar, zobrist, st, memo, ctr, budget, shape):  # type: ignore[no-untyped-def]
    """Search threshold ``ctr[THRESH]`` depth-first from A*'s open nodes (``astar``: its
    ``StoreArrays``, read only) for up to ``budget`` children. Returns ``IMPROVED`` when
    a goal of at most the threshold is found (its path from the A* node ``ctr[ROOT]`` in
    ``st.found[:ctr[GOAL_LEN]]``), ``EXHAUSTED`` when every root is done, ``SLICE_DONE``
    when the budget is spent. ``colour_mask``, ``adj_bits``, ``colour_adj`` and ``shape`` are
    the padded graph's, as A* has them."""
    astar_nodes, astar_table, heads = astar.nodes, astar.table, astar.heads
    words = len(shape)
    n_col = colour_mask.shape[0]
    n_regions = adj_bits.shape[0]
    fl, fr, zob, next_colour, path = st.fl, st.fr, st.zob, st.next_colour, st.path
    # what the bound is handed, without reference counts (``bitset.borrowed``)
    colour_mask, adj_bits, colour_adj = borrowed(colour_mask), borrowed(adj_bits), borrowed(colour_adj)
    fl, fr, tests = borrowed(fl), borrowed(fr), borrowed(astar.tests)
    thresh = ctr[THRESH]
    while budget > 0:
        d = ctr[DEPTH]
        if d < 0:
            x = _next_root(heads, astar_nodes, ctr, words)
            ctr[ROOT] = x
            if x < 0:
                return EXHAUSTED
            _start_root(x, astar_nodes, colour_mask, adj_bits, zobrist, st, ctr, shape)
            continue
        g = ctr[G0] + d
        c = next_colour[d]
        if c >= n_col:
            ctr[DEPTH] = d - 1
            continue
        next_colour[d] = c + 1
        # the rules A* prunes by, from row d: an eliminating colour alone, one order of an
        # order-free pair, no move that neither completes its colour nor widens the frontier
        forced = st.forced[d]
        if forced >= 0 and c != forced:
            continue
        absorbs = False
        for w in range(words):
            if fr[d, w] & colour_mask[c, w]:
                absorbs = True
                break
        if not absorbs:
            continue
        p = path[d - 1] if d > 0 else ctr[ROOT_MOVE]
        fresh = True
        if forced < 0 and p >= 0:
            open_p = False
            for w in range(words):
                if (colour_mask[p, w] & ~fl[d, w]) != np.uint64(0):
                    open_p = True
                    break
            if open_p:
                fresh = False
                for w in range(words):
                    pf = fr[d - 1, w] if d > 0 else st.root_pfront[w]
                    if (fr[d, w] & colour_mask[c, w] & ~pf) != np.uint64(0):
                        fresh = True
                        break
                if not fresh and c < p:
                    continue
        budget -= 1
        ctr[STATES] += 1
        e = d + 1
        k1 = zob[d, 0]
        k2 = zob[d, 1]
        size = 0
        for w in range(words):
            a = fr[d, w] & colour_mask[c, w]
            fl[e, w] = fl[d, w] | a
            fr[e, w] = fr[d, w] & ~a
            size += np.int64(popcount(fl[e, w]))
        path[d] = c
        if size == n_regions:
            if g + 1 <= thresh:
                for i in range(e):
                    st.found[i] = path[i]
                ctr[GOAL_LEN] = e
                return IMPROVED
            continue
        if g + 2 > thresh:
            continue
        for w in range(words):
            a = fr[d, w] & colour_mask[c, w]
            while a != np.uint64(0):
                r = (w << 6) + np.int64(ctz(a))
                a &= a - np.uint64(1)
                k1 ^= zobrist[r, 0]
                k2 ^= zobrist[r, 1]
                for v in range(words):
                    fr[e, v] |= adj_bits[r, v]
        useful = forced >= 0
        for w in range(words):
            fr[e, w] &= ~fl[e, w]
            if fr[e, w] & ~fr[d, w]:
                useful = True
        if not useful:
            continue
        if not fresh:
            swap_better = False
            for w in range(words):
                if fr[e, w] & colour_mask[p, w]:
                    swap_better = True
                    break
            if swap_better:
                continue
        # start loading the two table slots this child is looked up in, so the bound's
        # work hides the wait for memory
        h = hash_words(fl[e], shape)
        prefetch(astar_table, home_slot(astar_table, h))
        ways = memo_ways(memo, k1)
        prefetch(memo.vals, ways)
        prefetch(memo.keys[ways], 0)
        if n_col > 64:
            h_e = bound_bits_many_colours(fl[e], fr[e], colour_mask, adj_bits, shape, thresh - g - 1)
        else:
            h_e = bound_bits(fl[e], fr[e], colour_mask, colour_adj, adj_bits, shape, thresh - g - 1, tests)
        if g + 1 + h_e > thresh:
            continue
        from_astar = stored_moves(astar_table, astar_nodes, fl[e], h, shape)
        if from_astar <= g + 1:
            continue
        if memo_seen(memo, k1, k2, g + 1):
            continue
        zob[e, 0] = k1
        zob[e, 1] = k2
        next_colour[e] = 0
        st.forced[e] = eliminating_colour(fl[e], fr[e], colour_mask, shape)
        ctr[DEPTH] = e
    return SLICE_DONE


def new_stack(depth_cap: int, words: int) -> DeepStack:
    return DeepStack(
        fl=np.zeros((depth_cap, words), dtype=np.uint64),
        fr=np.zeros((depth_cap, words), dtype=np.uint64),
        zob=np.zeros((depth_cap, 2), dtype=np.uint64),
        next_colour=np.zeros(depth_cap, dtype=np.int64),
        forced=np.full(depth_cap, -1, dtype=np.int64),
        path=np.zeros(depth_cap, dtype=np.int64),
        root_pfront=np.zeros(words, dtype=np.uint64),
        found=np.zeros(depth_cap, dtype=np.int64),
    )


def start_threshold(ctr: np.ndarray, thresh: int, level: int) -> None:
    """Set ``ctr`` to search threshold ``thresh`` from the first open node of A*'s level
    ``level`` (the lowest with open nodes)."""
    ctr[:] = 0
    ctr[ROOT] = -1
    ctr[DEPTH] = -1
    ctr[THRESH] = thresh
    ctr[ROOT_MOVE] = -1
    ctr[CUR_BF] = -1
    ctr[CUR_BG] = -1
    ctr[F_LO] = level


def run(pg, astar, zobrist: np.ndarray, st: DeepStack, memo: Memo, ctr: np.ndarray, budget: int) -> int:  # type: ignore[no-untyped-def]
    """One slice of ``_deepen_run`` on the padded graph ``pg`` (``graph.PaddedGraph``)."""
    return int(_deepen_run(pg.arrays.colour_mask, pg.adj_bits, pg.colour_adj, astar, zobrist, st, memo, ctr, budget,
                           pg.shape))
