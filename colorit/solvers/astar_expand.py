"""A*'s expansion kernel (``astar``): the search itself, a slice of it per call, on the
node store (``astar_store``).

A node's frontier is worked out when it is expanded, from its parent's: the frontiers of
the last nodes expanded are kept in a small cache (``StoreArrays.fronts``), and only on a
miss are the parent's rows walked.

Moves are pruned by rules that never lose an optimal answer: an eliminating colour (its
last regions all border the flood) is played alone; a move that neither completes its
colour nor widens the frontier is skipped (the colour's later play absorbs the same
regions); of two moves whose order does not matter only one order is kept, and a move
that would have reached more if played one move earlier is skipped. A hash table of seen
states (``seen``) keeps the fewest moves that reached each; a state reached again with
fewer moves replaces the old node. The table is looked up only for a child whose bound
lets it beat the answer, its slot prefetched while the bound is worked out: a probe of a
table bigger than the cache waits on memory, and at the last level most children fail
the bound. A child is dropped when a state stored with as few moves holds all its
regions (``dominance``: floods are monotone, so the larger state reaches the goal at
least as soon): for a child about to join the level being expanded (on graphs of few
colours, for every child, before its bound), the last such states per move count are
compared, and for every child, the states a projection index of supersets offers.

Past ``ctr[DEFER_AFTER]`` stored nodes, and before ``ctr[DEFER_BELOW]``, the expansion is
partial: children above the current level are neither looked up nor stored, and their
parent goes back to the open list at the lowest of their levels, to make them again only
if the search gets there (``astar`` sets both thresholds and says why). A store that keeps
its nodes' deferred children's levels (``StoreArrays.child_f``) has a node expanded again
make only the children due at its level.

The kernel's word loops have a compile-time length (sets are padded to the next of
``bitset.WIDTH_TIERS``) and its work sets live on its stack, in registers. From
``SUPERWORD_MIN_WORDS`` words it is compiled with LLVM's SLP vectorizer, as the bound is
(``_jit.superword_kernel``).
"""

from __future__ import annotations

import numpy as np

from .._kernel import prefetch, superword_kernel
from ..game.bitset import borrowed, ctz, hash_words, local_words, popcount
from . import dominance
from .astar_store import (
    CHILD_DONE,
    CHILD_LEVEL_COLOURS,
    DEAD,
    _child_level,
    _link,
    _lowered_child_levels,
    _meta,
    _next_of,
    _parent_of,
    _push,
    _with_child_level,
)
from .bound import bound_bits, bound_bits_many_colours
from .seen import home_slot, table_find, table_put, table_repoint
from .status import EXHAUSTED, IMPROVED, NEED_NODES, NEED_TABLE, SLICE_DONE

#: The kernel's counters (``ctr``), kept between slices: the records stored, the level
#: being expanded, the answer's length, its goal node, the nodes expanded and children
#: generated, the table's entries, the bounds worked out, the two deferral thresholds,
#: the children dropped as dominated, and whether the window is compared before the bound.
(N_NODES, CUR_F, UB, GOAL, EXPANDED, GENERATED, TABLE_USED, BOUNDS, DEFER_AFTER, DOMINATED, DEFER_BELOW,
 WINDOW_FIRST) = range(12)


def new_counters(root_bound: int, ub: int, defer_after: int, defer_below: int, window_first: bool) -> np.ndarray:
    """The counters of a search whose store holds only its root (``NodeStore.plant_root``),
    open at level ``root_bound``, with an answer of ``ub`` moves."""
    ctr = np.zeros(WINDOW_FIRST + 1, dtype=np.int64)
    ctr[N_NODES] = 1
    ctr[CUR_F] = root_bound
    ctr[UB] = ub
    ctr[GOAL] = -1
    ctr[TABLE_USED] = 1
    ctr[DEFER_AFTER] = defer_after
    ctr[DEFER_BELOW] = defer_below
    ctr[WINDOW_FIRST] = window_first
    return ctr


#: Widths (words a set) from which ``expand`` is compiled with LLVM's SLP vectorizer: in
#: turns against the plain compile, whole processes, the 20 16x16 boards with 10 colours
#: 0.92 of the time, b18c6 0.91, floodtest 0.96, b24c4 (5 and 6 words) the same; at 3
#: words pc19 0.97 and b14c8's first 200 boards 0.98; at 2 words, in one process, b10c15
#: the same and b12c12 1.01-1.02, so not there.
SUPERWORD_MIN_WORDS = 3


@superword_kernel(min_words=SUPERWORD_MIN_WORDS)
def expand(graph, adj_bits, colour_adj, store, ctr, absorbs, budget, shape):  # type: ignore[no-untyped-def]
    """Expand up to ``budget`` nodes, lowest ``f`` first (deepest first within it).

    ``graph`` is the graph (``GraphArrays``, sets padded to the width), ``adj_bits`` its
    adjacency rows, ``colour_adj`` its colours' rows (``graph.colour_rows``), ``store`` the
    nodes and their indexes (``StoreArrays``), ``ctr`` the counters (``N_NODES`` ...),
    ``absorbs`` a per-colour work array, ``shape`` a tuple of ``words`` zeros (a
    compile-time width) or an array (a run-time one). Returns ``IMPROVED`` after a
    shorter answer (node ``ctr[GOAL]``), ``EXHAUSTED`` when no open node can beat
    ``ctr[UB]`` (that answer is optimal), ``NEED_NODES``/``NEED_TABLE`` when the store
    must grow before the next node, ``SLICE_DONE`` when the budget is spent."""
    colour_mask, region_colour = graph.colour_mask, graph.region_colour
    nodes, table, heads, hi, recent, n_recent, supersets, fronts, child_f, tests = store
    # what the bound is handed, without reference counts (``bitset.borrowed``)
    colour_mask, colour_adj, adj_bits, tests = borrowed(colour_mask), borrowed(colour_adj), borrowed(adj_bits), borrowed(tests)
    n_fronts = fronts.shape[0]
    n_regions = region_colour.shape[0]
    words = len(shape)
    n_col = colour_mask.shape[0]
    keeps = child_f.shape[0] > 0 and n_col <= CHILD_LEVEL_COLOURS  # four bits a colour
    window_first = ctr[WINDOW_FIRST] != 0
    flooded = local_words(shape)
    front = local_words(shape)
    front_p = local_words(shape)
    child = local_words(shape)
    child_front = local_words(shape)
    while True:
        # the open node with the lowest f, deepest first
        ub = ctr[UB]
        f = ctr[CUR_F]
        g = -1
        while f < ub:
            g = hi[f]
            while g >= 0 and heads[f, g] < 0:
                g -= 1
            hi[f] = g
            if g >= 0:
                break
            f += 1
        ctr[CUR_F] = f
        if f >= ub:
            return EXHAUSTED
        if budget <= 0:
            return SLICE_DONE
        if ctr[N_NODES] + n_col + 1 > nodes.shape[0]:
            return NEED_NODES
        if (ctr[TABLE_USED] + n_col + 1) * 2 > table.shape[0]:
            return NEED_TABLE
        node = heads[f, g]
        heads[f, g] = _next_of(nodes[node, words])
        meta = nodes[node, words + 1]
        if meta & DEAD:
            continue
        budget -= 1
        ctr[EXPANDED] += 1
        parent = _parent_of(nodes[node, words])
        known = np.uint64(0)
        if keeps:
            known = child_f[node]
            if known != np.uint64(0):
                # expanded before, and back for a deferred child: only the children
                # deferred to this level need work; if none is, the node goes back to
                # the lowest level of the others without its frontier worked out
                low = ctr[UB]
                work = False
                for c in range(n_col):
                    v = _child_level(known, c)
                    if v == CHILD_DONE:
                        continue
                    if v == 0:
                        work = True
                    elif f + v < low:
                        low = f + v
                if not work:
                    if low < ctr[UB]:
                        _push(nodes, heads, hi, node, parent, low, g, words)
                        child_f[node] = _lowered_child_levels(known, low - f)
                    continue

        # the node's frontier, and (for order-free pairs) the part of it its parent had
        p = np.int64((meta >> np.uint64(8)) & np.uint64(0xFFFFFF))
        for w in range(words):
            flooded[w] = nodes[node, w]
            front[w] = 0
            front_p[w] = 0
        pairs = False
        if parent >= 0:
            for w in range(words):
                if (colour_mask[p, w] & ~flooded[w]) != np.uint64(0):
                    pairs = True
                    break
            slot = parent & (n_fronts - 1)
            if fronts[slot, words] == np.uint64(parent + 1):
                # the parent's frontier, kept when it was expanded
                for w in range(words):
                    front_p[w] = fronts[slot, w]
            else:
                # the parent's regions' rows
                for w in range(words):
                    x = nodes[parent, w]
                    while x != np.uint64(0):
                        r = (w << 6) + np.int64(ctz(x))
                        x &= x - np.uint64(1)
                        for v in range(words):
                            front_p[v] |= adj_bits[r, v]
            # then the rows of the regions the last move took
            for w in range(words):
                front[w] = front_p[w]
                front_p[w] &= ~flooded[w]
            for w in range(words):
                x = flooded[w] & ~nodes[parent, w]
                while x != np.uint64(0):
                    r = (w << 6) + np.int64(ctz(x))
                    x &= x - np.uint64(1)
                    for v in range(words):
                        front[v] |= adj_bits[r, v]
        else:
            for w in range(words):
                x = flooded[w]
                while x != np.uint64(0):
                    r = (w << 6) + np.int64(ctz(x))
                    x &= x - np.uint64(1)
                    for v in range(words):
                        front[v] |= adj_bits[r, v]
        for w in range(words):
            front[w] &= ~flooded[w]
        slot = node & (n_fronts - 1)
        for w in range(words):
            fronts[slot, w] = front[w]
        fronts[slot, words] = np.uint64(node + 1)
        forced = -1
        for c in range(n_col):
            any_a = False
            complete = True
            for w in range(words):
                a = front[w] & colour_mask[c, w]
                if a != np.uint64(0):
                    any_a = True
                if (colour_mask[c, w] & ~flooded[w]) != a:
                    complete = False
            absorbs[c] = any_a
            if any_a and complete and forced < 0:
                forced = c

        improved = False
        g2 = g + 1
        # past DEFER_AFTER stored nodes, and before DEFER_BELOW, children above this
        # level are not stored: the node goes back to the open list at the lowest of
        # their levels, and makes them again if the search gets there
        defer = ctr[N_NODES] > ctr[DEFER_AFTER] or ctr[N_NODES] < ctr[DEFER_BELOW]
        deferred = ctr[UB]
        # the children deferred now, by their levels above f until the node's own next
        # level is known (then above that)
        now_known = np.uint64(0xFFFFFFFFFFFFFFFF)
        for c in range(n_col):
            if not absorbs[c]:
                continue
            # a child deferred to this level: its bound is not worked out again. f is a
            # lower bound on its level (the bound is consistent: no child of a node at
            # level f lies below f), and the one its bound gave when it was deferred
            # (worked out again, the same level for every such child of pc19's boards)
            due = False
            if known != np.uint64(0):
                v = _child_level(known, c)
                if v == CHILD_DONE:
                    continue
                if v > 0:
                    # still above this level: deferred again, its bound not worked out
                    if f + v < ctr[UB]:
                        deferred = min(deferred, f + v)
                        now_known = _with_child_level(now_known, c, v)
                    continue
                due = True
            fresh = True
            if forced >= 0:
                if c != forced:
                    continue
            elif pairs:
                fresh = False
                for w in range(words):
                    if (front[w] & colour_mask[c, w] & ~front_p[w]) != np.uint64(0):
                        fresh = True
                        break
                if not fresh and c < p:
                    continue
            size = 0
            for w in range(words):
                a = front[w] & colour_mask[c, w]
                child[w] = flooded[w] | a
                child_front[w] = front[w] & ~a
                size += np.int64(popcount(child[w]))
            ctr[GENERATED] += 1
            if size == n_regions:
                if g2 < ctr[UB]:
                    n = ctr[N_NODES]
                    ctr[N_NODES] = n + 1
                    for w in range(words):
                        nodes[n, w] = child[w]
                    nodes[n, words] = _link(node, -1)
                    nodes[n, words + 1] = _meta(g2, c, DEAD)
                    ctr[UB] = g2
                    ctr[GOAL] = n
                    improved = True
                continue
            if g2 + 1 >= ctr[UB]:
                continue
            # the table is probed after the bound, and only for a child that can beat the
            # answer (at the last level, few can); its slot starts loading now, so the
            # bound's work hides the wait for memory
            h = hash_words(child, shape)
            prefetch(table, home_slot(table, h))
            for w in range(words):
                a = front[w] & colour_mask[c, w]
                while a != np.uint64(0):
                    r = (w << 6) + np.int64(ctz(a))
                    a &= a - np.uint64(1)
                    for v in range(words):
                        child_front[v] |= adj_bits[r, v]
            useful = forced >= 0
            for w in range(words):
                child_front[w] &= ~child[w]
                if child_front[w] & ~front[w]:
                    useful = True
            # a move that neither completes its colour nor widens the frontier can be
            # dropped: the colour's later play absorbs the same regions
            if not useful:
                continue
            if not fresh:
                # (p, c) with no c-region new since p: (c, p) reaches a superset when a
                # c-region it takes borders a p-region still outside
                swap_better = False
                for w in range(words):
                    if child_front[w] & colour_mask[p, w]:
                        swap_better = True
                        break
                if swap_better:
                    continue
            # (few colours: a tenth of the children bounded are dominated by a set in the
            # window, and the bound is most of a node's work)
            if window_first and dominance.in_window(child, recent[g2], n_recent[g2], shape):
                ctr[DOMINATED] += 1
                continue
            if due:
                f2 = f
            elif n_col > 64:
                ctr[BOUNDS] += 1
                f2 = g2 + bound_bits_many_colours(child, child_front, colour_mask, adj_bits, shape, f - g2)
            else:
                ctr[BOUNDS] += 1
                # the node's level bounds its children's too: the bound's last-step test
                # can lift a node a move where it does not lift its child
                f2 = max(f, g2 + bound_bits(child, child_front, colour_mask, colour_adj, adj_bits, shape, f - g2, tests))
            if f2 >= ctr[UB]:
                continue
            # deferred before the lookups: if the search gets to f2 it makes the child
            # again and looks it up then (on 16x16 boards with 10 colours and an answer a
            # move or two long, the lookups of deferred children took a fifth of the time)
            if defer and f2 > f:
                deferred = min(deferred, f2)
                if keeps:
                    now_known = _with_child_level(now_known, c, f2 - f)
                continue
            # the index's buckets start loading with the table's slot
            sig = dominance.keys_of(child, g2, supersets, shape)
            found = table_find(table, nodes, child, h, shape)
            if found >= 0 and np.int64(nodes[found, words + 1] >> np.uint64(32)) <= g2:
                continue
            if f2 <= f and not window_first and dominance.in_window(child, recent[g2], n_recent[g2], shape):
                ctr[DOMINATED] += 1
                continue
            if dominance.held(child, g2, sig, supersets, nodes, shape):
                ctr[DOMINATED] += 1
                continue
            n = ctr[N_NODES]
            ctr[N_NODES] = n + 1
            for w in range(words):
                nodes[n, w] = child[w]
            _push(nodes, heads, hi, n, node, f2, g2, words)
            nodes[n, words + 1] = _meta(g2, c, np.uint64(0))
            if keeps:
                child_f[n] = 0
            if found >= 0:
                nodes[found, words + 1] |= DEAD
                table_repoint(table, h, found, n)
            else:
                table_put(table, -1 - found, h, n)
                ctr[TABLE_USED] += 1
            dominance.add(n, sig, supersets)
            if f2 <= f:
                slot = n_recent[g2] % recent.shape[1]
                for w in range(words):
                    recent[g2, slot, w] = child[w]
                n_recent[g2] += 1
            ctr[CUR_F] = min(ctr[CUR_F], f2)
        if deferred < ctr[UB]:
            _push(nodes, heads, hi, node, parent, deferred, g, words)
            if keeps:
                now_known = _lowered_child_levels(now_known, deferred - f)
        if keeps:
            child_f[node] = now_known
        if improved:
            return IMPROVED
