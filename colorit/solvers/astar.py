"""``astar``: the exact engine. Best-first search on the region graph that proves its
answer optimal.

Each node is one row of the ``nodes`` array: the flooded set (bitset words), then a link
word (parent, next in its bucket) and a meta word (moves so far, colour played, flags), so
taking a node from the open list touches one record, not six arrays. The open list is a
bucket queue indexed by ``(f, g)``: lowest ``f = g + bound`` first, ties to the deepest
node, last in first out within a bucket. The search keeps an incumbent answer (the quick
first answer, then every goal it generates): nodes that cannot beat it are never stored,
and when no open node can, the incumbent is proven optimal. A node's frontier is worked
out when it is expanded, from its parent's: the frontiers of the last nodes expanded are
kept in a small cache (``fronts``), and only on a miss are the parent's rows walked.

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

Past ``DEFER_AFTER_NODES`` stored nodes the expansion is partial: children above the
current level are neither looked up nor stored, and their parent goes back to the open
list at the lowest of their levels, to make them again only if the search gets there (it
usually ends a level below). That keeps memory close to the number of nodes expanded,
and spares the lookups of children that are mostly never made again. On graphs of few
colours (and on small graphs) a node also keeps the level each deferred child was put
off to, so when it is expanded again only the children due then are made. A search's first
``DEFER_BELOW_NODES`` stored nodes are expanded that way too (on graphs of up to 16
colours): its answer is then still loose (lookahead's is a few moves long), and what it
would store a level up is mostly never expanded. On small graphs (colours x regions up
to ``SMALL_GRAPH_SIZE``) the whole search is expanded that way: it is young to the end.

When the search reaches a level two or more below its answer, it first dives: it expands
the deepest open nodes of the answer's last level for a share of the work done so far.
With the answer a move too long, a dive that finds the optimum spares storing every
child on the optimum's level while the level below is proven.

The kernel runs in slices and returns when it needs bigger arrays; Python grows them
within the memory cap, or stops with the best answer and the lower bound it has. Its word
loops have a compile-time length (sets are padded to the next of ``WIDTH_TIERS``) and its
work sets live on its stack, in registers.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import ClassVar, NamedTuple

import numpy as np

from .._jit import kernel, prefetch
from ..game.bitset import WIDTH_TIERS, ctz, hash_words, local_words, padded_width, popcount  # noqa: F401 (re-exported)
from .bound import bound_bits, bound_bits_many_colours, elimination_bound_bits
from ..game.graph import PaddedGraph, RegionGraph, padded
from . import deepening, dfs, dominance
from .base import Control, Outcome, SliceBudget, register
from .incumbent import first_answer
from .seen import free_slot, home_slot, table_find, table_put, table_repoint
from .status import EXHAUSTED, IMPROVED, NEED_NODES, NEED_TABLE, SLICE_DONE

(N_NODES, CUR_F, UB, GOAL, EXPANDED, GENERATED, TABLE_USED, BOUNDS, DEFER_AFTER, DOMINATED, DEFER_BELOW,
 WINDOW_FIRST) = range(12)
DEAD = np.uint64(1)
NONE = np.uint64(0xFFFFFFFF)  #: "no node" in a link word's halves
FIRST_CAPACITY = 1 << 12
#: Stored nodes after which children above the current level are made again when needed
#: rather than stored (a little more time, a fraction of the memory).
DEFER_AFTER_NODES = 1 << 20
#: Stored nodes before which children above the current level are deferred as well, on
#: graphs of at most ``DEFER_BELOW_COLOURS`` colours: a young search's children a level
#: up are mostly never expanded. Measured in one process against no such start (CPU
#: time): b12c12 and b14c8 10% faster, pc19 3%, b10c15 2%, floodtest and b18c6 the same;
#: b10c35 2.5% slower (a node of many colours has many children to make again, hence the
#: colour limit). At 1,024 pc19 gained 6% but b18c6 lost 2-3% (docs/benchmarks.md).
DEFER_BELOW_NODES = 512
DEFER_BELOW_COLOURS = 16
#: Graphs of at most this many colours x regions are small: A* proves them in a few
#: milliseconds (pc19's 14x14 boards of 6 colours lie at 690-942, every other community
#: set above 1000). Their searches end within a level or two of where they start, so
#: children above the current level are deferred from the first node (most are never
#: expanded): pc19 1.064-1.079 times faster, random boards of 10x10 to 15x15 with 6 to
#: 10 colours 1.05-1.07, tiny searches the same. Past it, searches grow long and every
#: level's children are needed: deferring them all made b14c8, b12c12 and floodtest
#: 0.86-0.90 times as fast, and any threshold on the search's own size lost too. A
#: small graph's search also starts with a slice of ``SMALL_FIRST_SLICE`` nodes
#: (docs/benchmarks.md).
SMALL_GRAPH_SIZE = 1000
#: A small graph's first kernel slice, in nodes (64 elsewhere, where the cost of a node
#: is not known yet): most of its searches end within it, and each slice is a kernel
#: call of about 10 µs.
SMALL_FIRST_SLICE = 2048
#: Graphs of at most this many colours defer a young search's children for its first
#: ``FEW_COLOURS_DEFER_BELOW_NODES`` stored nodes, and (at a compiled width) start with
#: a slice of ``SMALL_FIRST_SLICE``: a node there has at most three children, so making
#: a deferred parent's children again costs little, and a node is cheap. b24c4 (24x24
#: boards of 4 colours, colours x regions 1100-1400) takes 0.92 of the time, random
#: 28x28 boards of 4 colours 0.90, 32x32 ones and 36x36 of 3 colours 0.98; at 5 colours
#: the same rule took 1.05 times as long, and b14c8 (8 colours) deferring whole
#: searches 1.12 (docs/benchmarks.md). Their stores also keep, per node, the levels its
#: deferred children were put off to (``StoreArrays.child_f``): a node back for one
#: child makes only the children due at that level, and none of the others' bounds
#: again (b24c4 0.955-0.964 of the time, 5% fewer bounds; on floodtest, past
#: ``DEFER_AFTER_NODES``, no gain, so other graphs keep no such byte a node). And there a
#: child is compared with the window of recent sets (``dominance.in_window``) before its
#: bound, not after: a tenth of the children bounded on b24c4 were dominated by one, and
#: b24c4 takes 0.963-0.968 of the time (floodtest, the same for every graph: 1.49).
FEW_COLOURS = 4
FEW_COLOURS_DEFER_BELOW_NODES = 1 << 16
#: Small graphs (``SMALL_GRAPH_SIZE``) of at most this many colours keep their deferred
#: children's levels too (``StoreArrays.child_f``, a byte per colour in a word): their
#: whole search defers, and a seventh of pc19's expansions are of nodes back for a
#: deferred child. pc19 0.966 of the time (4% fewer bounds), random small boards of 7
#: and 8 colours 0.93-0.94, of 5 and 6 colours 0.98-1.0 (docs/benchmarks.md).
CHILD_LEVEL_COLOURS = 8
#: Seconds to grow a store array, per byte of the new array, and to re-insert a node into
#: a grown table (measured: 0.4 ns and 150 ns; doubled): a grow that would run past the
#: deadline is not started.
GROW_S_PER_BYTE = 1e-9
REBUILD_S_PER_NODE = 3e-7
#: A dive for a shorter answer: when the search reaches a level two or more below its
#: answer, it expands the deepest open nodes of the answer's last level (``UB - 1``) for
#: up to ``DIVE_SHARE`` of the nodes expanded so far (at least ``DIVE_LEAST``), once per
#: level and answer, after ``DIVE_AFTER`` nodes expanded.
DIVE_SHARE = 1 / 16
DIVE_LEAST = 256
DIVE_AFTER = 2048
#: Slots of the cache of recently expanded nodes' frontiers (a power of two). A node is
#: mostly expanded soon after its parent (deepest first), so its frontier starts from
#: the parent's instead of a walk of the parent's adjacency rows: 86% of pc19's
#: expansions hit with 64 slots, and A* runs 2-3% faster on pc19, b12c12, b14c8 and
#: floodtest; 16 and 256 slots are no better (docs/benchmarks.md).
FRONT_CACHE_SLOTS = 64


# --- node records: [set words..., link = parent << 32 | next, meta = g << 32 | move << 8 | flags]


@kernel
def _link(parent, nxt):  # type: ignore[no-untyped-def]
    p = NONE if parent < 0 else np.uint64(parent)
    q = NONE if nxt < 0 else np.uint64(nxt)
    return (p << np.uint64(32)) | q


@kernel
def _push(nodes, heads, hi, node, parent, f, g, words):  # type: ignore[no-untyped-def]
    """Put ``node`` (child of ``parent``) first in the open bucket ``(f, g)``."""
    nodes[node, words] = _link(parent, heads[f, g])
    heads[f, g] = node
    hi[f] = max(hi[f], g)


@kernel
def _parent_of(link):  # type: ignore[no-untyped-def]
    p = link >> np.uint64(32)
    return np.int64(-1) if p == NONE else np.int64(p)


@kernel
def _next_of(link):  # type: ignore[no-untyped-def]
    q = link & NONE
    return np.int64(-1) if q == NONE else np.int64(q)


@kernel
def _meta(g, move, flags):  # type: ignore[no-untyped-def]
    return (np.uint64(g) << np.uint64(32)) | (np.uint64(move & 0xFFFFFF) << np.uint64(8)) | flags


# --- a node's deferred children (``StoreArrays.child_f``): a byte per colour, 255 = done


@kernel
def _child_level(known, c):  # type: ignore[no-untyped-def]
    return np.int64((known >> np.uint64(8 * c)) & np.uint64(255))


@kernel
def _with_child_level(known, c, level):  # type: ignore[no-untyped-def]
    """``known`` (all bytes 255 where nothing is written yet) with colour ``c``'s byte
    set to ``level`` (at most 254)."""
    return known & ~(np.uint64(255 - level) << np.uint64(8 * c))


@kernel
def _table_rebuild(table, nodes, n_nodes, words):  # type: ignore[no-untyped-def]
    table[:] = 0
    used = 0
    for j in range(n_nodes):
        if nodes[j, words + 1] & DEAD:
            continue
        h = hash_words(nodes[j, :words], nodes[j, :words])
        table_put(table, free_slot(table, h), h, j)
        used += 1
    return used


class StoreArrays(NamedTuple):
    """The search's memory, as the kernel takes it (``_Store`` owns and grows it).

    Invariants between slices: rows ``0 .. ctr[N_NODES] - 1`` of ``nodes`` are records
    ``[set words..., parent << 32 | next, g << 32 | move << 8 | flags]``; every live
    (not DEAD) record is in ``table`` once and in the bucket list ``heads[f, g]`` of its
    ``f = g + bound``; ``hi[f]`` is at least the deepest non-empty bucket of ``f``;
    ``recent[g, :n_recent[g] % window]`` are the last sets stored with ``g`` moves on the
    level being expanded; ``supersets`` holds records of the store (``dominance``); row
    ``node % len(fronts)`` of ``fronts`` holds the frontier of ``node``'s set when its last
    word is ``node + 1`` (0: empty), so it stays right as long as records keep their rows.
    ``child_f[node]`` (when kept) is 0 until ``node`` is expanded, then holds a byte per
    colour: the ``f`` its child was deferred at (a lower bound on the child's), or 255
    when the child needs no more work (stored, found, dominated, pruned, or unable to
    beat the answer)."""

    nodes: np.ndarray  #: (capacity, words + 2) uint64
    table: np.ndarray  #: (2^k,) uint64, hash tag << 32 | node + 1
    heads: np.ndarray  #: (ub + 1, ub + 1) int64, first node of each (f, g) bucket
    hi: np.ndarray  #: (ub + 1,) int64
    recent: np.ndarray  #: (ub + 1, dominance.window_for(words), words) uint64
    n_recent: np.ndarray  #: (ub + 1,) int64
    supersets: dominance.Supersets
    fronts: np.ndarray  #: (FRONT_CACHE_SLOTS, words + 1) uint64
    child_f: np.ndarray  #: (capacity,) uint64 where kept (``search``'s ``keep_child_f``), else (0,)


@kernel
def _astar_run(graph, adj_bits, colour_adj, store, ctr, absorbs, budget, shape):  # type: ignore[no-untyped-def]
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
    nodes, table, heads, hi, recent, n_recent, supersets, fronts, child_f = store
    n_fronts = fronts.shape[0]
    n_regions = region_colour.shape[0]
    words = len(shape)
    n_col = colour_mask.shape[0]
    keeps = child_f.shape[0] > 0 and n_col <= CHILD_LEVEL_COLOURS  # a byte per colour
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
                    if v == 255:
                        continue
                    if v <= f:
                        work = True
                    elif v < low:
                        low = v
                if not work:
                    if low < ctr[UB]:
                        _push(nodes, heads, hi, node, parent, low, g, words)
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
        now_known = np.uint64(0xFFFFFFFFFFFFFFFF)
        for c in range(n_col):
            if not absorbs[c]:
                continue
            if known != np.uint64(0):
                v = _child_level(known, c)
                if v == 255:
                    continue
                if v > f:
                    # still above this level: deferred again, its bound not worked out
                    if v < ctr[UB]:
                        deferred = min(deferred, v)
                        now_known = _with_child_level(now_known, c, v)
                    continue
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
            ctr[BOUNDS] += 1
            if n_col > 64:
                f2 = g2 + bound_bits_many_colours(child, child_front, colour_mask, adj_bits, shape, f - g2)
            else:
                f2 = g2 + bound_bits(child, child_front, colour_mask, colour_adj, adj_bits, shape, f - g2)
            if f2 >= ctr[UB]:
                continue
            # deferred before the lookups: if the search gets to f2 it makes the child
            # again and looks it up then (on 16x16 boards with 10 colours and an answer a
            # move or two long, the lookups of deferred children took a fifth of the time)
            if defer and f2 > f:
                deferred = min(deferred, f2)
                if keeps:
                    now_known = _with_child_level(now_known, c, min(f2, 254))
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
        if keeps:
            child_f[node] = now_known
        if deferred < ctr[UB]:
            _push(nodes, heads, hi, node, parent, deferred, g, words)
        if improved:
            return IMPROVED


@kernel
def _plant_root(nodes, table, root):  # type: ignore[no-untyped-def]
    """Store ``root`` as node 0 (no parent, no moves yet) and enter it in the seen
    table: one kernel call, where five small ones each cost a call and a load."""
    words = root.shape[0]
    for w in range(words):
        nodes[0, w] = root[w]
    nodes[0, words] = _link(-1, -1)
    nodes[0, words + 1] = _meta(0, 0, np.uint64(0))
    h = hash_words(root, root)
    table_put(table, home_slot(table, h), h, 0)


@kernel
def _path_to(nodes, words, node):  # type: ignore[no-untyped-def]
    """The moves from the root to ``node``, following parent links."""
    depth = 0
    x = node
    while _parent_of(nodes[x, words]) >= 0:
        depth += 1
        x = _parent_of(nodes[x, words])
    moves = np.empty(depth, dtype=np.int64)
    x = node
    for i in range(depth - 1, -1, -1):
        moves[i] = np.int64((nodes[x, words + 1] >> np.uint64(8)) & np.uint64(0xFFFFFF))
        x = _parent_of(nodes[x, words])
    return moves


class _Store:
    """The search's node records, seen-state table and buckets, grown by doubling.

    A store of the first capacity is kept for the next search of the same width
    (``take``/``release``): a bench solves thousands of small boards, and fresh arrays
    for each cost more than many of their searches."""

    _spare: ClassVar[dict[int, _Store]] = {}

    def __init__(self, words: int, ub: int, capacity: int, index_bytes: float) -> None:
        self.words = words
        self.nodes = np.zeros((capacity, words + 2), dtype=np.uint64)
        self.child_f = np.zeros(0, dtype=np.uint64)
        self.table = np.zeros(capacity * 2, dtype=np.uint64)
        self.index_bytes = index_bytes
        self.slots = dominance.SLOTS
        self.supersets = dominance.index_off(words)
        self.fronts = np.zeros((FRONT_CACHE_SLOTS, words + 1), dtype=np.uint64)
        self.first = capacity
        self._reset(ub)

    def _reset(self, ub: int) -> None:
        self.heads = np.full((ub + 1, ub + 1), -1, dtype=np.int64)
        self.hi = np.full(ub + 1, -1, dtype=np.int64)
        self.recent = np.empty((ub + 1, dominance.window_for(self.words), self.words), dtype=np.uint64)
        self.n_recent = np.zeros(ub + 1, dtype=np.int64)
        self.fronts[:, self.words] = 0

    def _index_shape(self) -> tuple[int, int]:
        return dominance.index_shape(self.table.shape[0], self.index_bytes, self.slots)

    @classmethod
    def take(cls, words: int, ub: int, capacity: int, index_bytes: float, slots: int = dominance.SLOTS,
             child_f: bool = False) -> _Store:
        """A store for a search (``index_bytes``: the most its superset index may take;
        ``slots``: the states a bucket of it keeps; ``child_f``: whether it keeps its
        nodes' deferred children's levels, ``StoreArrays.child_f``)."""
        st = cls._spare.pop(words, None)
        if st is None or st.capacity != capacity or st.index_bytes != index_bytes:
            st = cls(words, ub, capacity, index_bytes)
        else:
            st.table.fill(0)
            st.supersets = dominance.index_off(words)
            st._reset(ub)
        st.slots = slots
        if bool(st.child_f.size) != child_f:
            st.child_f = np.zeros(st.capacity if child_f else 0, dtype=np.uint64)
        return st

    def release(self) -> None:
        if self.capacity == self.first == FIRST_CAPACITY:
            self._spare[self.words] = self

    @property
    def capacity(self) -> int:
        return int(self.nodes.shape[0])

    def arrays(self) -> StoreArrays:
        return StoreArrays(
            self.nodes, self.table, self.heads, self.hi, self.recent, self.n_recent, self.supersets, self.fronts,
            self.child_f,
        )

    def nbytes(self) -> int:
        return (self.nodes.nbytes + self.table.nbytes + self.heads.nbytes + self.recent.nbytes
                + self.supersets.buckets.nbytes + self.child_f.nbytes)

    def grow_nodes(self, n_used: int) -> None:
        new = np.empty((self.capacity * 2, self.words + 2), dtype=np.uint64)
        new[:n_used] = self.nodes[:n_used]
        self.nodes = new
        if self.child_f.size:
            child_f = np.zeros(self.capacity, dtype=np.uint64)
            child_f[:n_used] = self.child_f[:n_used]
            self.child_f = child_f

    def grow_table(self, n_used: int) -> int:
        self.table = np.empty(self.table.shape[0] * 2, dtype=np.uint64)
        if self.table.shape[0] >= dominance.START_TABLE_SLOTS and dominance.indexed(self.words):
            bits, slots = self._index_shape()
            if self.supersets is dominance.index_off(self.words) or self.supersets.buckets.shape[1:] != (1 << bits, slots):
                self.supersets = dominance.new_supersets(self.words, (bits, slots))
                dominance.rebuild(self.supersets, self.nodes, n_used, self.words)
        return int(_table_rebuild(self.table, self.nodes, n_used, self.words))

    def path_to(self, node: int) -> list[int]:
        return _path_to(self.nodes, self.words, node).tolist()  # type: ignore[no-any-return]


#: A helper the search calls once, when ``time.monotonic()`` passes the time it comes
#: with: given the best answer so far, it may return a shorter one (``Outcome``).
Helper = tuple[float, Callable[[list[int]], Outcome]]

#: Share of the memory cap A*'s store may take when the search may go on by iterative
#: deepening (``deepening``): the rest is its memo.
STORE_SHARE = 7 / 8
#: Share of the store's memory the superset index (``dominance``) may take at most.
INDEX_SHARE = 1 / 16


class _Helpers:
    """The helpers not run yet, in the order of their times."""

    def __init__(self, helpers: Sequence[Helper], control: Control) -> None:
        self.waiting = sorted(helpers, key=lambda helper: helper[0])
        self.control = control

    def run_due(self, best: list[int], lower: int) -> tuple[list[int], bool]:
        """Run the helpers whose time has come: the best answer after them, and whether it
        is proven optimal (by a helper, or by meeting ``lower``)."""
        proven = False
        while self.waiting and time.monotonic() >= self.waiting[0][0]:
            self.control.raise_bound(lower)  # what the helpers may judge the answer by
            better = self.waiting.pop(0)[1](best)
            if len(better.codes) < len(best):
                best = list(better.codes)
                self.control.improved(best, lower)
            proven = proven or (better.proven_optimal and len(better.codes) <= len(best))
        return best, proven or len(best) <= lower


def is_small(graph: RegionGraph) -> bool:
    """Whether A* proves ``graph`` in milliseconds (``SMALL_GRAPH_SIZE``)."""
    return graph.n_colours * graph.n_regions <= SMALL_GRAPH_SIZE


def search(
    graph: RegionGraph,
    control: Control,
    incumbent: list[int],
    helpers: Sequence[Helper] = (),
    defer_after: int | None = None,
    defer_below: int | None = None,
    deepen: bool = True,
    keep_child_f: bool | None = None,
    window_first: bool | None = None,
    store_share: float = STORE_SHARE,
) -> Outcome:
    """A* from the start position, proving ``incumbent`` optimal or finding better.

    A* improves its answer only when it reaches the optimum, so a caller with a time
    limit passes ``helpers``: quicker searches that run (once each, between slices) when
    their time comes. A shorter answer one returns becomes the search's bound; if it is
    proven optimal, the search ends. When the store reaches the memory cap, the search
    goes on by iterative deepening from the open nodes (``deepening``), in the memory it
    has; with ``deepen=False`` it stops there instead (``stopped == "memory"``).
    ``defer_after`` and ``defer_below`` (stored nodes; by default from the graph's size,
    ``is_small``), ``keep_child_f`` (by default on graphs of ``FEW_COLOURS`` and small
    ones of up to ``CHILD_LEVEL_COLOURS``), ``window_first`` (by default on graphs of
    ``FEW_COLOURS``) and ``store_share`` (of the cap, for the store) are for tests and
    the warm-up."""
    best = list(incumbent)
    pg = padded(graph)
    words, shape, adj_bits, root = len(pg.root), pg.shape, pg.adj_bits, pg.root
    colour_mask = pg.arrays.colour_mask
    root_front = pg.root_front
    root_bound = elimination_bound_bits(root, root_front, colour_mask, adj_bits, len(best), pg.colour_adj, shape)
    if graph.n_regions == 1 or root_bound >= len(best):
        return Outcome(best, True, len(best), 1)
    control.raise_bound(root_bound)
    ub = len(best)
    cap_bytes = control.limits.memory_bytes()
    store_cap = cap_bytes * store_share if deepen else cap_bytes
    first = FIRST_CAPACITY
    while first > 16 and first * (words + 2 + 2) * 8 > store_cap:
        first //= 2
    few = graph.n_colours <= FEW_COLOURS
    small = is_small(graph)
    if keep_child_f is None:
        keep_child_f = few or (small and graph.n_colours <= CHILD_LEVEL_COLOURS)
    st = _Store.take(words, ub, first, store_cap * INDEX_SHARE, dominance.slots_for(graph.n_colours),
                     child_f=keep_child_f)
    due = _Helpers(helpers, control)
    try:
        _plant_root(st.nodes, st.table, root)
        if st.child_f.size:
            st.child_f[0] = 0
        st.heads[root_bound, 0] = 0
        st.hi[root_bound] = 0
        if defer_after is None:
            defer_after = 0 if small else DEFER_AFTER_NODES
        if defer_below is None:
            if few:
                defer_below = FEW_COLOURS_DEFER_BELOW_NODES
            else:
                defer_below = DEFER_BELOW_NODES if graph.n_colours <= DEFER_BELOW_COLOURS else 0
        if window_first is None:
            window_first = few
        ctr = np.array([1, root_bound, ub, -1, 0, 0, 1, 0, defer_after, 0, defer_below, window_first], dtype=np.int64)
        absorbs = np.zeros(graph.n_colours, np.bool_)
        stopped = ""
        # (a node of the run-time width costs several times one of a compiled width)
        cheap_nodes = small or (few and words <= max(WIDTH_TIERS))
        budget = SliceBudget(first=SMALL_FIRST_SLICE) if cheap_nodes else SliceBudget()
        dived = (-1, -1)
        while True:
            if control.should_stop():
                stopped = control.stop_reason
                break
            n = budget.start(control.remaining())
            status = _run_slice(pg, st, ctr, absorbs, n)
            budget.done(status == SLICE_DONE)
            if status == EXHAUSTED:
                break
            if status == IMPROVED:
                best = st.path_to(int(ctr[GOAL]))
                control.improved(best, int(ctr[CUR_F]))
            elif status == NEED_NODES:
                if st.nbytes() + st.nodes.nbytes + st.table.nbytes > store_cap:
                    stopped = "memory"
                    break
                if control.remaining() < 2 * st.nodes.nbytes * GROW_S_PER_BYTE:
                    stopped = "time"  # the copy would run past the deadline
                    break
                st.grow_nodes(int(ctr[N_NODES]))
            elif status == NEED_TABLE:
                if st.nbytes() + st.table.nbytes * 2 > store_cap:
                    stopped = "memory"
                    break
                if control.remaining() < 2 * st.table.nbytes * GROW_S_PER_BYTE + int(ctr[N_NODES]) * REBUILD_S_PER_NODE:
                    stopped = "time"
                    break
                ctr[TABLE_USED] = st.grow_table(int(ctr[N_NODES]))
            level = (int(ctr[CUR_F]), int(ctr[UB]))
            if DIVE_SHARE > 0 and level != dived and level[0] <= level[1] - 2 and ctr[EXPANDED] >= DIVE_AFTER:
                dived = level
                # within one slice's work, so the deadline is still noticed in time
                n = min(max(DIVE_LEAST, int(ctr[EXPANDED] * DIVE_SHARE)), budget.start(control.remaining()))
                goal = _dive(pg, st, ctr, absorbs, n)
                if goal >= 0:
                    best = st.path_to(goal)
                    control.improved(best, int(ctr[CUR_F]))
            best, proven = due.run_due(best, int(ctr[CUR_F]))
            if proven:
                return Outcome(best, True, len(best), int(ctr[EXPANDED]))
            ctr[UB] = len(best)
        control.note_table_bytes(st.nbytes())
        if stopped == "memory" and deepen:
            return _deepen(pg, st, ctr, control, best, due, cap_bytes)
    finally:
        control.note_table_bytes(st.nbytes())
        st.release()
    states = int(ctr[EXPANDED])
    if stopped:
        return Outcome(best, False, min(int(ctr[CUR_F]), len(best)), states, stopped)
    return Outcome(best, True, len(best), states)


def _run_slice(pg: PaddedGraph, st: _Store, ctr: np.ndarray, absorbs: np.ndarray, budget: int) -> int:
    """One call of A*'s kernel on the padded graph and the store as they are now."""
    return int(_astar_run(pg.arrays, pg.adj_bits, pg.colour_adj, st.arrays(), ctr, absorbs, budget, pg.shape))


def _dive(pg: PaddedGraph, st: _Store, ctr: np.ndarray, absorbs: np.ndarray, budget: int) -> int:
    """Expand up to ``budget`` open nodes of the answer's last level, deepest first (a
    dive: their children on that level are the deepest next), ahead of the level being
    proven: the goal node of a shorter answer found, or -1.

    Any order of expansion keeps A* exact (the table keeps each state's fewest moves, and
    the search ends only when no open node can beat the answer); this one only spares
    work: with the answer a move shorter, the levels below it store no children on its
    last level. The dive's children go on that level or above (a child below it would be
    expanded next, as A* itself would); an empty level ends the dive (the kernel's
    "exhausted" there means only that), as does a store that must grow."""
    level = int(ctr[CUR_F])
    ctr[CUR_F] = ctr[UB] - 1
    status = _run_slice(pg, st, ctr, absorbs, budget)
    ctr[CUR_F] = min(level, int(ctr[CUR_F]))
    return int(ctr[GOAL]) if status == IMPROVED else -1


def _deepen(pg: PaddedGraph, st: _Store, ctr: np.ndarray, control: Control, best: list[int], due: _Helpers,
            cap_bytes: int) -> Outcome:
    """Go on from A*'s full store by iterative deepening (``deepening``), threshold by
    threshold from the level A* was on, with a memo in the memory the store left."""
    level = int(ctr[CUR_F])
    memo = deepening.new_memo(max(cap_bytes - st.nbytes(), 1 << 16))
    control.note_table_bytes(st.nbytes() + memo.keys.nbytes + memo.vals.nbytes)
    stack = deepening.new_stack(len(best) + 2, st.words)
    zobrist = deepening.zobrist_keys(pg.adj_bits.shape[0])
    dctr = np.zeros(deepening.N_COUNTERS, dtype=np.int64)
    states = int(ctr[EXPANDED])
    budget = SliceBudget()
    thresh = level
    while thresh < len(best):
        memo.vals.fill(0)
        deepening.start_threshold(dctr, thresh, level)
        while True:
            if control.should_stop():
                return Outcome(best, False, thresh, states + int(dctr[deepening.STATES]), control.stop_reason)
            status = deepening.run(pg, st.arrays(), zobrist, stack, memo, dctr, budget.start(control.remaining()))
            budget.done(status == SLICE_DONE)
            if status == IMPROVED:
                # every threshold below this one is exhausted: the answer is optimal
                found = st.path_to(int(dctr[deepening.ROOT])) + stack.found[: dctr[deepening.GOAL_LEN]].tolist()
                control.improved(found, len(found))
                return Outcome(found, True, len(found), states + int(dctr[deepening.STATES]))
            if status == EXHAUSTED:
                break
            best, proven = due.run_due(best, thresh)
            if proven:
                return Outcome(best, True, len(best), states + int(dctr[deepening.STATES]))
        states += int(dctr[deepening.STATES])
        thresh += 1
        control.raise_bound(min(thresh, len(best)))
    return Outcome(best, True, len(best), states)


@register("astar", "exact A* on the region graph with the colour-elimination bound", exact=True, aliases=("a*", "exact"), rank=5)
def solve_astar(graph: RegionGraph, control: Control) -> Outcome:
    incumbent = first_answer(graph, control)
    if not graph.adjacency_bits_fit:
        # R x R adjacency bits would not fit; the depth-first search is exact too
        return dfs.search(graph, control, incumbent)
    return search(graph, control, incumbent)
