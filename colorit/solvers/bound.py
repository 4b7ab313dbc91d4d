"""The colour-elimination lower bound: the admissible estimate that prunes every search.

From the flooded set, grow an "expanded" area outward over the region graph, one layer
(the regions bordering it) at a time. If some colours have all their remaining regions
in the layer, each costs one move and only their regions join; otherwise one
"colour-blind" move takes the whole layer. The moves counted never exceed the true
optimum: a colour whose last regions border the flood can always be played first without
loss, and a colour-blind step covers everything any single real move could reach.

The searches' kernel, ``bound_bits`` (word-parallel on bitset adjacency rows, for graphs
small enough to keep R x R bits), then tests the count's last colour-blind step, and if
that adds nothing the one before it (in A*'s searches on wider sets, then the one before
that), and may add a move (``bound_steps``, where the tests and their proof live).

``elimination_bound`` counts the moves without that test, walking the remaining regions
once on the adjacency lists (lists and stamps, not bitsets), so one evaluation costs
O(regions + edges outside the flood + layers * colours) on any graph: it is for graphs
too big for bitsets, and its value is the bitset kernel's or one less (as is
``bound_bits_many_colours``', for graphs of more than 64 colours).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._kernel import kernel, superword_kernel
from ..game.bitset import ctz, local_words, popcount
from ..game.graph import RegionGraph, colour_rows
from ..game.play_bits import start_state
from .bound_steps import last_step_memo, step_memo

#: Widths (words a set) from which ``bound_bits`` is compiled with LLVM's SLP vectorizer
#: (``_jit.superword_kernel``): on A*'s own calls (``benchmarks/bound_kernel.py``), the
#: time per evaluation against the plain compile was 0.79-0.89 at 5 and 6 words (b24c4,
#: b24c6), 0.84-1.03 at 4 (floodtest, b18c6), 0.98-1.00 at 3 and 1.12-1.13 at 2
#: (b12c12, b10c15).
SUPERWORD_MIN_WORDS = 4
#: Widths (words a set) from which ``bound_bits`` tests the colour-blind step before the
#: last (``bound_steps.step_costs_more``): in one process, with it against without,
#: b10c15 (2 words) 1.95 s against 1.33, pc19 (2) 0.78 against 0.69; from 4 words, in
#: turns: floodtest 0.88 of the time, the 16x16 boards with 10 colours 0.92, b18c6
#: 0.84, b24c4 0.97. It pays where searches are long. Where the tests' answers are
#: memoised (``memo``: A* and its deepening pass ``StoreArrays.tests``) it is made from
#: 3 words: in one process pc19 (3 words) 0.63 s against 0.69 with the last step's
#: test alone, memoised; b10c15 (2) 1.38 against 1.25, so not there.
SECOND_TEST_MIN_WORDS = 4
MEMO_SECOND_TEST_MIN_WORDS = 3
#: Widths from which, when neither of those tests adds a move, the colour-blind step two
#: before the last is tested the same way (``step_costs_more``; on b24c4 it lifts 28% of
#: the nodes below the optimum that the first two leave, 18% of them all), where
#: the tests are memoised (A*'s searches): in turns against without it, the 20 16x16
#: boards with 10 colours 0.94 of the time, b18c6 0.92, b24c4 and floodtest 0.99; on
#: 3 words, in one process, pc19 1.11 (its nodes 0.91). Unmemoised too (lookahead and
#: beam under short limits) it cost floodtest's answers at 0.01 s a board 3 moves.
THIRD_TEST_MIN_WORDS = 4


class BoundScratch(NamedTuple):
    """Work arrays for ``elimination_bound``, allocated once per search (a bound is
    evaluated millions of times)."""

    expanded: np.ndarray  #: (words,) uint64, the flood grown so far
    layer: np.ndarray  #: (R,) int32, the regions bordering ``expanded``
    nxt: np.ndarray  #: (R,) int32, the next layer being built
    mark: np.ndarray  #: (R,) int64, ``stamp`` when a region is in a layer
    stamp: np.ndarray  #: (1,) int64, bumped per evaluation, so ``mark`` needs no clearing
    cnt_rem: np.ndarray  #: (C,) int64, regions of each colour not yet expanded
    cnt_lay: np.ndarray  #: (C,) int64, regions of each colour in the layer
    elim: np.ndarray  #: (C,) bool, the colours eliminated at this step

    @classmethod
    def for_graph(cls, graph: RegionGraph) -> BoundScratch:
        n = graph.n_regions
        return cls(
            expanded=np.zeros(graph.n_words, dtype=np.uint64),
            layer=np.empty(n, dtype=np.int32),
            nxt=np.empty(n, dtype=np.int32),
            mark=np.zeros(n, dtype=np.int64),
            stamp=np.zeros(1, dtype=np.int64),
            cnt_rem=np.zeros(graph.n_colours, dtype=np.int64),
            cnt_lay=np.zeros(graph.n_colours, dtype=np.int64),
            elim=np.zeros(graph.n_colours, dtype=np.bool_),
        )


@kernel
def elimination_bound(flooded, front, g, s, limit):  # type: ignore[no-untyped-def]
    """Lower bound on the moves still needed from ``flooded`` (whose frontier is ``front``)
    on the graph ``g`` (``GraphArrays``), with scratch ``s`` (``BoundScratch``).

    Once the bound is known to exceed ``limit``, a lower value above it is returned at
    once (moves counted plus one per colour present: a colour-blind step never removes a
    colour, an elimination counts one move per colour it removes). Invariant at each
    step: ``cnt_rem[c]`` counts the colour's regions outside ``expanded``, ``cnt_lay[c]``
    those in the layer, and every layer region carries this evaluation's stamp.
    """
    colour_mask, region_colour, adj_ptr, adj_idx = g.colour_mask, g.region_colour, g.adj_ptr, g.adj_idx
    expanded, layer, nxt, mark, stamp = s.expanded, s.layer, s.nxt, s.mark, s.stamp
    cnt_rem, cnt_lay, elim = s.cnt_rem, s.cnt_lay, s.elim
    words = flooded.shape[0]
    n_col = colour_mask.shape[0]
    remaining = 0
    for c in range(n_col):
        k = 0
        for w in range(words):
            k += np.int64(popcount(colour_mask[c, w] & ~flooded[w]))
        cnt_rem[c] = k
        cnt_lay[c] = 0
        remaining += k
    if remaining == 0:
        return 0
    stamp[0] += 1
    s = stamp[0]
    for w in range(words):
        expanded[w] = flooded[w]
    n_layer = 0
    for w in range(words):
        x = front[w]
        while x != np.uint64(0):
            r = (w << 6) + np.int64(ctz(x))
            x &= x - np.uint64(1)
            layer[n_layer] = r
            n_layer += 1
            mark[r] = s
            cnt_lay[region_colour[r]] += 1
    h = 0
    while True:
        n_elim = 0
        n_present = 0
        for c in range(n_col):
            e = cnt_rem[c] > 0 and cnt_lay[c] == cnt_rem[c]
            elim[c] = e
            if e:
                n_elim += 1
            if cnt_rem[c] > 0:
                n_present += 1
        if h + n_present > limit:
            return h + n_present
        if n_elim == 0 and h + 1 + n_present > limit:
            return h + 1 + n_present
        # split the layer: regions taken now go to the front of ``layer``, the rest to ``nxt``
        n_take = 0
        n_next = 0
        if n_elim > 0:
            h += n_elim
            for i in range(n_layer):
                r = layer[i]
                if elim[region_colour[r]]:
                    layer[n_take] = r
                    n_take += 1
                else:
                    nxt[n_next] = r
                    n_next += 1
        else:
            h += 1
            n_take = n_layer
        for i in range(n_take):
            r = layer[i]
            expanded[r >> 6] |= np.uint64(1) << np.uint64(r & 63)
            c = region_colour[r]
            cnt_rem[c] -= 1
            cnt_lay[c] -= 1
        remaining -= n_take
        if remaining == 0:
            return h
        for i in range(n_take):
            r = layer[i]
            for k in range(adj_ptr[r], adj_ptr[r + 1]):
                nb = adj_idx[k]
                if mark[nb] == s or (expanded[nb >> 6] >> np.uint64(nb & 63)) & np.uint64(1):
                    continue
                mark[nb] = s
                nxt[n_next] = nb
                n_next += 1
                cnt_lay[region_colour[nb]] += 1
        layer, nxt = nxt, layer
        n_layer = n_next


def lower_bound(graph: RegionGraph, flooded: np.ndarray | None = None, limit: int = 1 << 62) -> int:
    """The colour-elimination bound for ``flooded`` (default: the start position); past
    ``limit``, some value above ``limit`` and not above the bound."""
    bits, front = start_state(graph, flooded)
    return int(elimination_bound(bits, front, graph.arrays(), BoundScratch.for_graph(graph), limit))


@kernel
def bound_bits_many_colours(flooded, front, colour_mask, adj_bits, shape, limit):  # type: ignore[no-untyped-def]
    """``bound_bits`` for graphs of more than 64 colours: every step tests every colour's
    mask for what is left of it and what lies beyond the layer. Callers choose between
    the two (see ``bound_bits``)."""
    words = len(shape)
    n_col = colour_mask.shape[0]
    expanded = local_words(shape)
    layer = local_words(shape)
    take = local_words(shape)
    for w in range(words):
        expanded[w] = flooded[w]
        layer[w] = front[w]
    h = 0
    while True:
        n_elim = 0
        n_present = 0
        for w in range(words):
            take[w] = 0
        for c in range(n_col):
            # branch-free over the words: is c still present, and are all its
            # remaining regions in the layer?
            rem = np.uint64(0)
            out = np.uint64(0)
            for w in range(words):
                m = colour_mask[c, w] & ~expanded[w]
                rem |= m
                out |= m & ~layer[w]
            if rem != np.uint64(0):
                n_present += 1
                if out == np.uint64(0):
                    n_elim += 1
                    for w in range(words):
                        take[w] |= colour_mask[c, w] & ~expanded[w]
        if n_present == 0:
            return h
        if h + n_present > limit:
            return h + n_present
        if n_elim > 0:
            h += n_elim
        else:
            # a colour-blind step never removes a colour (one whose regions all lie in
            # the layer would have been eliminated instead): if it takes the count past
            # the limit, the layer it would reach need not be worked out
            h += 1
            if h + n_present > limit:
                return h + n_present
            for w in range(words):
                take[w] = layer[w]
        for w in range(words):
            expanded[w] |= take[w]
            layer[w] &= ~take[w]
        for w in range(words):
            x = take[w]
            while x != np.uint64(0):
                r = (w << 6) + np.int64(ctz(x))
                x &= x - np.uint64(1)
                for v in range(words):
                    layer[v] |= adj_bits[r, v]
        for w in range(words):
            layer[w] &= ~expanded[w]


@superword_kernel(min_words=SUPERWORD_MIN_WORDS)
def bound_bits(flooded, front, colour_mask, colour_adj, adj_bits, shape, limit, memo=None):  # type: ignore[no-untyped-def]
    """``elimination_bound`` on bitset adjacency rows (``adj_bits[r]`` = neighbours of r,
    ``colour_adj[c]`` = neighbours of colour c's regions, ``graph.colour_rows``): the same
    value, word-parallel, for graphs small enough to keep R x R bits. ``front`` must be
    exactly the frontier of ``flooded``.

    The sets have ``len(shape)`` words: given a tuple, the width is a compile-time constant,
    every word loop unrolls and the work sets live in registers (together about 3x
    faster); given an array, it is not. The colours not yet eliminated are one word of
    bits, so it takes up to 64 colours; past that the caller calls
    ``bound_bits_many_colours``. That test stays in the callers: in here, it made every
    evaluation slower (A* 6% slower on b12c12). A colour leaves only when it is
    eliminated, so after the first step a step tests a colour's mask against the regions
    beyond the layer alone.

    The layer is always the whole frontier of the expanded set (the neighbours of the
    expanded regions not in it). So when a step eliminates colours, every region of
    theirs is expanded afterwards, and the new layer is the old one with their colour
    rows added, less the expanded set: one row per colour instead of one per region
    taken. Only a colour-blind step walks its regions' rows.

    Once the bound is known to exceed ``limit`` (moves counted plus one per colour still
    present), that lower value is returned at once: a search that only needs to know
    whether a node can beat its best answer is spared the rest. With a ``memo`` (A*'s
    searches, which ask only whether a node lies above ``limit``), a count below
    ``limit`` is returned untested: a move more would not take it past.

    When the count is done, its last colour-blind step is tested
    (``bound_steps.last_step_costs_more``), and if that adds nothing the one before it
    (``bound_steps.step_costs_more``, which counts again from each real move with
    ``count_from``, the same loop without the first step's fusion), and with a ``memo``
    on wider sets the one before that; any may add one: the value is not consistent (a
    child's can be two below its parent's), so A* keeps a child no lower than its
    parent's level. Given a ``memo`` (``bound_steps.memo_get``), the tests' answers are
    kept there: the children of a search ask about the same positions again (about 60%
    of the tests on pc19, b10c15 and b24c4 are answered from it).

    From ``SUPERWORD_MIN_WORDS`` words it is compiled with LLVM's SLP vectorizer, which
    does the word loops' bitwise steps several words at a time."""
    n_col = colour_mask.shape[0]
    words = len(shape)
    expanded = local_words(shape)
    layer = local_words(shape)
    take = local_words(shape)
    grow = local_words(shape)
    beyond = local_words(shape)
    last_before = local_words(shape)
    last_layer = local_words(shape)
    prev_before = local_words(shape)
    prev_layer = local_words(shape)
    third_before = local_words(shape)
    third_layer = local_words(shape)
    blind_steps = 0  # the colour-blind steps so far: the last three are kept for the tests
    last_h = 0
    prev_h = 0
    third_h = 0
    # the first step's test goes with the presence test, in one pass over the masks;
    # ``alive`` holds the colours present and not yet eliminated, ``take`` the regions
    # the eliminations take and ``grow`` their colours' rows
    alive = np.uint64(0)
    n_present = 0
    n_elim = 0
    for w in range(words):
        expanded[w] = flooded[w]
        layer[w] = front[w]
        beyond[w] = ~(flooded[w] | front[w])
        take[w] = 0
        grow[w] = 0
    for c in range(n_col):
        rem = np.uint64(0)
        out = np.uint64(0)
        for w in range(words):
            rem |= colour_mask[c, w] & ~flooded[w]
            out |= colour_mask[c, w] & beyond[w]
        if rem != np.uint64(0):
            n_present += 1
            if out == np.uint64(0):
                n_elim += 1
                for w in range(words):
                    take[w] |= colour_mask[c, w] & layer[w]
                    grow[w] |= colour_adj[c, w]
            else:
                alive |= np.uint64(1) << np.uint64(c)
    if n_present == 0:
        return 0
    if n_present > limit:
        return n_present
    h = 0
    while True:
        if n_elim > 0:
            h += n_elim
            n_present -= n_elim
            for w in range(words):
                expanded[w] |= take[w]
                layer[w] = (layer[w] | grow[w]) & ~expanded[w]
        else:
            # a colour-blind step never removes a colour (one whose regions all lie in
            # the layer would have been eliminated instead): if it takes the count past
            # the limit, the layer it would reach need not be worked out
            h += 1
            if h + n_present > limit:
                return h + n_present
            if blind_steps >= 2:
                third_h = prev_h
                for w in range(words):
                    third_before[w] = prev_before[w]
                    third_layer[w] = prev_layer[w]
            if blind_steps >= 1:
                prev_h = last_h
                for w in range(words):
                    prev_before[w] = last_before[w]
                    prev_layer[w] = last_layer[w]
            blind_steps += 1
            last_h = h - 1
            for w in range(words):
                last_before[w] = expanded[w]
                last_layer[w] = layer[w]
                take[w] = layer[w]
                expanded[w] |= take[w]
                layer[w] = 0
            for w in range(words):
                x = take[w]
                while x != np.uint64(0):
                    r = (w << 6) + np.int64(ctz(x))
                    x &= x - np.uint64(1)
                    for v in range(words):
                        layer[v] |= adj_bits[r, v]
            for w in range(words):
                layer[w] &= ~expanded[w]
        for w in range(words):
            beyond[w] = ~(expanded[w] | layer[w])
            take[w] = 0
            grow[w] = 0
        if n_present == 0:
            if memo is not None and h < limit:
                return h
            if blind_steps >= 1 and last_step_memo(last_before, last_layer, colour_mask, colour_adj, adj_bits, shape, memo):
                return h + 1
            if blind_steps >= 2 and words >= (SECOND_TEST_MIN_WORDS if memo is None else MEMO_SECOND_TEST_MIN_WORDS):
                if step_memo(prev_before, prev_layer, h - prev_h, colour_mask, colour_adj, adj_bits, shape, memo):
                    return h + 1
                if (blind_steps >= 3 and memo is not None and words >= THIRD_TEST_MIN_WORDS
                        and step_memo(third_before, third_layer, h - third_h, colour_mask, colour_adj, adj_bits, shape, memo)):
                    return h + 1
            return h
        if h + n_present > limit:
            return h + n_present
        # the colours left with no region beyond the layer are eliminated next
        n_elim = 0
        for c in range(n_col):
            out = np.uint64(0)
            for w in range(words):
                out |= colour_mask[c, w] & beyond[w]
            if out == np.uint64(0) and (alive >> np.uint64(c)) & np.uint64(1):
                n_elim += 1
                alive &= ~(np.uint64(1) << np.uint64(c))
                for w in range(words):
                    take[w] |= colour_mask[c, w] & layer[w]
                    grow[w] |= colour_adj[c, w]


def elimination_bound_bits(
    flooded: np.ndarray,
    front: np.ndarray,
    colour_mask: np.ndarray,
    adj_bits: np.ndarray,
    limit: int = 1 << 62,
    colour_adj: np.ndarray | None = None,
    shape: tuple[int, ...] | np.ndarray | None = None,
) -> int:
    """``bound_bits`` (or ``bound_bits_many_colours``) for Python callers: at the sets'
    own width (run-time word loops) unless given the kernels' ``shape``, with the
    colours' rows worked out unless given."""
    width = flooded if shape is None else shape
    if colour_mask.shape[0] > 64:
        return int(bound_bits_many_colours(flooded, front, colour_mask, adj_bits, width, limit))
    if colour_adj is None:
        colour_adj = colour_rows(colour_mask, adj_bits)
    return int(bound_bits(flooded, front, colour_mask, colour_adj, adj_bits, width, limit))
