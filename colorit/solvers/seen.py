"""The seen-state table: which stored node holds a flooded set, for A* (``astar``) and
for the iterative deepening that goes on from A*'s store (``deepening``).

The table is an open-addressing array of ``2^k`` words over the node records of A*'s
store (``astar_store``: ``nodes[j]`` = the set's words, a link word, then a meta word
whose high 32 bits are the moves that reached it). An entry is ``hash tag << 32 | node + 1`` (0: empty),
so probing past other states rarely leaves the table's cache line, and a node's words
are read only when the tags agree. It lives in one module so that both searches probe
it the same way: deepening reads A*'s table, and a change to the entry format or the
probe order must reach both.
"""

from __future__ import annotations

import numpy as np

from .._kernel import kernel

#: What ``stored_moves`` answers for a set that is not stored: more than any game.
NOT_STORED = np.int64(1) << 40


@kernel
def home_slot(table, h):  # type: ignore[no-untyped-def]
    """Where the probe for hash ``h`` starts (a search prefetches it early)."""
    return np.int64(h & np.uint64(table.shape[0] - 1))


@kernel
def table_find(table, nodes, bits, h, shape):  # type: ignore[no-untyped-def]
    """The node holding ``bits`` (``len(shape)`` words, hash ``h``), or ``-1 - slot``
    with the empty slot to insert it at."""
    mask = table.shape[0] - 1
    i = home_slot(table, h)
    tag = h >> np.uint64(32)
    words = len(shape)
    while True:
        e = table[i]
        if e == np.uint64(0):
            return -1 - i
        if (e >> np.uint64(32)) == tag:
            j = np.int64(e & np.uint64(0xFFFFFFFF)) - 1
            same = True
            for w in range(words):
                if nodes[j, w] != bits[w]:
                    same = False
                    break
            if same:
                return j
        i = (i + 1) & mask


@kernel
def stored_moves(table, nodes, bits, h, shape):  # type: ignore[no-untyped-def]
    """The moves of the stored node holding ``bits``, or ``NOT_STORED``."""
    j = table_find(table, nodes, bits, h, shape)
    if j < 0:
        return NOT_STORED
    return np.int64(nodes[j, len(shape) + 1] >> np.uint64(32))


@kernel
def free_slot(table, h):  # type: ignore[no-untyped-def]
    """The first empty slot of the probe for hash ``h`` (for a set known not to be
    stored: rebuilding a grown table)."""
    mask = table.shape[0] - 1
    i = home_slot(table, h)
    while table[i] != np.uint64(0):
        i = (i + 1) & mask
    return i


@kernel
def table_put(table, slot, h, node):  # type: ignore[no-untyped-def]
    table[slot] = ((h >> np.uint64(32)) << np.uint64(32)) | np.uint64(node + 1)


@kernel
def table_repoint(table, h, old, new):  # type: ignore[no-untyped-def]
    """Point the entry of node ``old`` (hash ``h``) at node ``new``, which holds the same
    set reached in fewer moves."""
    mask = table.shape[0] - 1
    i = home_slot(table, h)
    while np.int64(table[i] & np.uint64(0xFFFFFFFF)) != old + 1:
        i = (i + 1) & mask
    table_put(table, i, h, new)
