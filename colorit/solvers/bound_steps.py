"""The tests that lift the colour-elimination count (``bound.bound_bits``) by a move.

The count (``bound``'s docstring) ends with colour-blind steps and removals. Its last
colour-blind step is tested: after it the count only removes colours, one move each. If
no real move from where that step starts leaves a position that such removals alone
finish, the step costs a move more. Proof: there no colour can be removed (else the
count would have removed it), so a real move there removes none, and the K colours
present all remain; finishing in K more moves means playing each once, so each play
takes every region left of its colour, which is a run of removals from that position,
and the test found none. The count up to that step stays admissible (an elimination is
played first without loss, and a larger flooded set never needs more moves), so the
bound never exceeds the optimum. The test lifts the root's bound on 40% of floodtest's
boards and 30% of pc19's, and halves the nodes A* expands on pc19, b24c4 and b10c15.

When it adds nothing, the colour-blind step before the last is tested the same way, by
the count itself: if every real move from where it starts leaves a position whose count
(``count_from``, with its last-step test) is no smaller than the count there after the
step, the step costs a move more (the same argument: the first move from there is a
real one, and what follows it needs at least its position's count). On the 16x16
boards with 10 colours it makes A* 0.88-0.92 of the time, and it is made only on sets
of ``bound.SECOND_TEST_MIN_WORDS`` words or more: on narrower ones it cost more than it
saved (b10c15 1.5 times as long). In A*'s searches (whose memo keeps the tests'
answers), from ``bound.THIRD_TEST_MIN_WORDS`` words, when both add nothing, the step
before those two is tested the same way (the argument holds at any colour-blind step of
the count); on b24c4 it lifts 28% of the nodes below the optimum that the first two
leave.

Every set here has ``len(shape)`` words, as in ``bound_bits``.
"""

from __future__ import annotations

import numpy as np

from .._kernel import kernel
from ..game.bitset import ctz, hash_words, local_words
from ..game.graph import BITSET_MAX_REGIONS

#: Bits of a memo slot's test tag (``memo_get``): 0 for the last step's test, 1 + the
#: moves after the step for the test of the step before it (a count takes at most one
#: move per region, and these graphs have at most ``BITSET_MAX_REGIONS``).
TAG_BITS = (BITSET_MAX_REGIONS + 1).bit_length()


@kernel
def one_move_then_eliminations(before, layer, c, colour_mask, colour_adj, adj_bits, shape):  # type: ignore[no-untyped-def]
    """Whether, from the expanded set ``before`` (whose frontier is ``layer``), playing
    colour ``c`` and then only moves that each remove a colour can take every region:
    the eliminations are made in rounds, every colour whose regions left all border the
    set at once (a colour that can be removed stays removable, so the order is free)."""
    n_col = colour_mask.shape[0]
    words = len(shape)
    expanded = local_words(shape)
    lay = local_words(shape)
    take = local_words(shape)
    grow = local_words(shape)
    for w in range(words):
        a = layer[w] & colour_mask[c, w]
        expanded[w] = before[w] | a
        lay[w] = layer[w] & ~a
    for w in range(words):
        x = layer[w] & colour_mask[c, w]
        while x != np.uint64(0):
            r = (w << 6) + np.int64(ctz(x))
            x &= x - np.uint64(1)
            for v in range(words):
                lay[v] |= adj_bits[r, v]
    for w in range(words):
        lay[w] &= ~expanded[w]
    while True:
        present = False
        n_elim = 0
        for w in range(words):
            take[w] = 0
            grow[w] = 0
        for k in range(n_col):
            rem = np.uint64(0)
            out = np.uint64(0)
            for w in range(words):
                m = colour_mask[k, w] & ~expanded[w]
                rem |= m
                out |= m & ~lay[w]
            if rem != np.uint64(0):
                present = True
                if out == np.uint64(0):
                    n_elim += 1
                    for w in range(words):
                        take[w] |= colour_mask[k, w] & lay[w]
                        grow[w] |= colour_adj[k, w]
        if not present:
            return True
        if n_elim == 0:
            return False
        for w in range(words):
            expanded[w] |= take[w]
            lay[w] = (lay[w] | grow[w]) & ~expanded[w]


@kernel
def last_step_costs_more(before, layer, colour_mask, colour_adj, adj_bits, shape):  # type: ignore[no-untyped-def]
    """Whether the count's last colour-blind step, from ``before`` with frontier
    ``layer`` (no colour removable there), costs a move more: no real move from there
    leaves a position that removals alone finish."""
    n_col = colour_mask.shape[0]
    words = len(shape)
    for c in range(n_col):
        meets = False
        for w in range(words):
            if layer[w] & colour_mask[c, w]:
                meets = True
                break
        if meets and one_move_then_eliminations(before, layer, c, colour_mask, colour_adj, adj_bits, shape):
            return False
    return True


@kernel
def memo_get(memo, key, tag, shape):  # type: ignore[no-untyped-def]
    """A test's answer kept in ``memo`` for the set ``key`` and the test ``tag``: 1 or 0,
    or -1 if not kept (or ``memo`` is None: no memo).

    A slot is ``[key words..., epoch << (TAG_BITS + 1) | tag << 1 | answer]``, one per hash; row 0
    holds the epoch (``NodeStore`` raises it for each search, so a slot of an earlier
    search, on another graph, never matches). An answer depends only on the graph and
    the slot's key and tag (the frontier of a set is the set's), so a later one
    overwriting a slot loses nothing but time."""
    if memo is None:
        return -1
    words = len(shape)
    slot, stamp = _memo_slot(memo, key, tag, shape)
    if (memo[slot, words] & ~np.uint64(1)) != stamp:
        return -1
    for w in range(words):
        if memo[slot, w] != key[w]:
            return -1
    return np.int64(memo[slot, words] & np.uint64(1))


@kernel
def memo_put(memo, key, tag, answer, shape):  # type: ignore[no-untyped-def]
    """Keep ``answer`` of the test ``tag`` on ``key`` in its slot (``memo_get``)."""
    if memo is None:
        return
    words = len(shape)
    slot, stamp = _memo_slot(memo, key, tag, shape)
    for w in range(words):
        memo[slot, w] = key[w]
    memo[slot, words] = stamp | np.uint64(1 if answer else 0)


@kernel
def _memo_slot(memo, key, tag, shape):  # type: ignore[no-untyped-def]
    """The slot of ``key``'s answer to the test ``tag``, and the stamp that slot holds
    then, less the answer's bit (``memo_get``)."""
    slot = 1 + np.int64((hash_words(key, shape) ^ tag) & np.uint64(memo.shape[0] - 2))
    return slot, (memo[0, 0] << np.uint64(TAG_BITS + 1)) | (tag << np.uint64(1))


@kernel
def last_step_memo(before, layer, colour_mask, colour_adj, adj_bits, shape, memo):  # type: ignore[no-untyped-def]
    """``last_step_costs_more`` through ``memo`` (tag 0)."""
    got = memo_get(memo, before, np.uint64(0), shape)
    if got >= 0:
        return got == 1
    answer = last_step_costs_more(before, layer, colour_mask, colour_adj, adj_bits, shape)
    memo_put(memo, before, np.uint64(0), answer, shape)
    return answer


@kernel
def step_memo(before, layer, rest, colour_mask, colour_adj, adj_bits, shape, memo):  # type: ignore[no-untyped-def]
    """``step_costs_more`` through ``memo`` (tag 1 + ``rest``)."""
    tag = np.uint64(1 + rest)
    got = memo_get(memo, before, tag, shape)
    if got >= 0:
        return got == 1
    answer = step_costs_more(before, layer, rest, colour_mask, colour_adj, adj_bits, shape)
    memo_put(memo, before, tag, answer, shape)
    return answer


@kernel
def count_from(start, frontier, colour_mask, colour_adj, adj_bits, shape, limit):  # type: ignore[no-untyped-def]
    """The count with its last-step test from ``start`` (the flood or a set grown from
    it) whose frontier is ``frontier``; past ``limit``, some value above it. (The
    second-to-last step's test asks it once per move it tries.)"""
    n_col = colour_mask.shape[0]
    words = len(shape)
    expanded = local_words(shape)
    layer = local_words(shape)
    take = local_words(shape)
    grow = local_words(shape)
    last_before = local_words(shape)
    last_layer = local_words(shape)
    alive = np.uint64(0)
    n_present = 0
    for w in range(words):
        expanded[w] = start[w]
        layer[w] = frontier[w]
    for c in range(n_col):
        rem = np.uint64(0)
        for w in range(words):
            rem |= colour_mask[c, w] & ~expanded[w]
        if rem != np.uint64(0):
            alive |= np.uint64(1) << np.uint64(c)
            n_present += 1
    h = 0
    blind = False
    while True:
        if n_present == 0:
            if blind and last_step_costs_more(last_before, last_layer, colour_mask, colour_adj, adj_bits, shape):
                return h + 1
            return h
        if h + n_present > limit:
            return h + n_present
        n_elim = 0
        for w in range(words):
            take[w] = 0
            grow[w] = 0
        for c in range(n_col):
            if not (alive >> np.uint64(c)) & np.uint64(1):
                continue
            out = np.uint64(0)
            for w in range(words):
                out |= colour_mask[c, w] & ~(expanded[w] | layer[w])
            if out == np.uint64(0):
                n_elim += 1
                alive &= ~(np.uint64(1) << np.uint64(c))
                for w in range(words):
                    take[w] |= colour_mask[c, w] & layer[w]
                    grow[w] |= colour_adj[c, w]
        if n_elim > 0:
            h += n_elim
            n_present -= n_elim
            for w in range(words):
                expanded[w] |= take[w]
                layer[w] = (layer[w] | grow[w]) & ~expanded[w]
            continue
        h += 1
        if h + n_present > limit:
            return h + n_present
        blind = True
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


@kernel
def step_costs_more(before, layer, rest, colour_mask, colour_adj, adj_bits, shape):  # type: ignore[no-untyped-def]
    """Whether a colour-blind step from ``before`` (frontier ``layer``, no colour
    removable there), after which the count takes ``rest`` moves in all, costs a move
    more: every real move from there leaves a position whose count (with its last-step
    test) is ``rest`` or more."""
    n_col = colour_mask.shape[0]
    words = len(shape)
    start = local_words(shape)
    front = local_words(shape)
    for c in range(n_col):
        meets = False
        for w in range(words):
            if layer[w] & colour_mask[c, w]:
                meets = True
                break
        if not meets:
            continue
        for w in range(words):
            a = layer[w] & colour_mask[c, w]
            start[w] = before[w] | a
            front[w] = layer[w] & ~a
        for w in range(words):
            x = layer[w] & colour_mask[c, w]
            while x != np.uint64(0):
                r = (w << 6) + np.int64(ctz(x))
                x &= x - np.uint64(1)
                for v in range(words):
                    front[v] |= adj_bits[r, v]
        for w in range(words):
            front[w] &= ~start[w]
        if count_from(start, front, colour_mask, colour_adj, adj_bits, shape, rest - 1) <= rest - 1:
            return False
    return True
