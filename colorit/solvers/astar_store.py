"""A*'s node store (``astar``): the node records, the seen-state table over them, the
open list's buckets and the small indexes beside them, grown by doubling.

Each node is one row of the ``nodes`` array: the flooded set (bitset words), then a link
word (parent, next in its bucket) and a meta word (moves so far, colour played, flags), so
taking a node from the open list touches one record, not six arrays. The open list is a
bucket queue of those records indexed by ``(f, g)``. The seen-state table (``seen``)
points into the records, and so does the superset index (``dominance``). The small
kernels below are the records' format: the expansion kernel (``astar_expand``) stores and
links nodes through them, and the iterative deepening that goes on from a full store
(``deepening``) walks the buckets and parents with them.
"""

from __future__ import annotations

from typing import ClassVar, NamedTuple

import numpy as np

from .._kernel import kernel
from ..game.bitset import hash_words
from . import dominance
from .seen import free_slot, home_slot, table_put

#: A meta word's flag: the node is neither open nor in the seen table (a goal, or a state
#: since reached with fewer moves by another node).
DEAD = np.uint64(1)
NONE = np.uint64(0xFFFFFFFF)  #: "no node" in a link word's halves
#: Records of a search's first store (fewer under a small memory cap, ``first_capacity``).
#: A store of this capacity is kept for the next search of its width (``NodeStore.take``).
FIRST_CAPACITY = 1 << 12
#: Graphs of at most this many colours keep their deferred children's levels
#: (``StoreArrays.child_f``, four bits a colour in a word; ``astar.search``'s
#: ``keep_child_f``).
CHILD_LEVEL_COLOURS = 16
#: A child's level is kept as its distance above its parent's (the level the parent
#: waits at in the open list), at most ``CHILD_LEVEL_MOST_ABOVE``: one farther is kept
#: as that far, a lower bound. The code 15 says the child needs no more work.
CHILD_LEVEL_MOST_ABOVE = 14
CHILD_DONE = 15
#: Seconds to grow a store array, per byte of the new array, and to re-insert a node into
#: a grown table (measured: 0.4 ns and 150 ns; doubled): a grow that would run past the
#: deadline is not started.
GROW_S_PER_BYTE = 1e-9
REBUILD_S_PER_NODE = 3e-7
#: Slots of the cache of recently expanded nodes' frontiers (a power of two). A node is
#: mostly expanded soon after its parent (deepest first), so its frontier starts from
#: the parent's instead of a walk of the parent's adjacency rows: 86% of pc19's
#: expansions hit with 64 slots, and A* runs 2-3% faster on pc19, b12c12, b14c8 and
#: floodtest; 16 and 256 slots are no better.
FRONT_CACHE_SLOTS = 64
#: Slots of the memo of the bound's tests (``bound_steps.memo_get``), a power of two:
#: the tests ask again about the same positions from many children. Under a small
#: memory cap, fewer: the memo takes no more than the superset index may.
TEST_MEMO_SLOTS = 1 << 14


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


# --- a node's deferred children (``StoreArrays.child_f``): four bits a colour, the
# child's level above its parent's, or CHILD_DONE


@kernel
def _child_level(known, c):  # type: ignore[no-untyped-def]
    return np.int64((known >> np.uint64(4 * c)) & np.uint64(15))


@kernel
def _with_child_level(known, c, above):  # type: ignore[no-untyped-def]
    """``known`` (all codes ``CHILD_DONE`` where nothing is written yet) with colour
    ``c``'s code set to ``above`` levels above the parent's (at most
    ``CHILD_LEVEL_MOST_ABOVE``: a lower bound past it)."""
    code = np.uint64(min(above, CHILD_LEVEL_MOST_ABOVE))
    return known & ~((np.uint64(CHILD_DONE) ^ code) << np.uint64(4 * c))


@kernel
def _lowered_child_levels(known, by):  # type: ignore[no-untyped-def]
    """``known`` with every code but ``CHILD_DONE`` lowered ``by`` levels (not below 0):
    the parent now waits ``by`` levels higher, and a code that was a lower bound (past
    ``CHILD_LEVEL_MOST_ABOVE``) stays one. (A loop of constant length: a branch-free
    version, the codes two at a time in bytes, made A*'s kernel 6% slower on b10c35,
    whose searches never call it, and 12% on b10c15.)"""
    out = known
    for c in range(CHILD_LEVEL_COLOURS):
        code = _child_level(known, c)
        if code != CHILD_DONE:
            out = (out & ~(np.uint64(15) << np.uint64(4 * c))) | (np.uint64(max(code - by, 0)) << np.uint64(4 * c))
    return out


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
    """The search's memory, as the kernel takes it (``NodeStore`` owns and grows it).

    Invariants between slices: rows ``0 .. ctr[N_NODES] - 1`` of ``nodes`` are records
    ``[set words..., parent << 32 | next, g << 32 | move << 8 | flags]``; every live
    (not DEAD) record is in ``table`` once and in the bucket list ``heads[f, g]`` of its
    ``f = g + bound``; ``hi[f]`` is at least the deepest non-empty bucket of ``f``;
    ``recent[g, :n_recent[g] % window]`` are the last sets stored with ``g`` moves on the
    level being expanded; ``supersets`` holds records of the store (``dominance``); row
    ``node % len(fronts)`` of ``fronts`` holds the frontier of ``node``'s set when its last
    word is ``node + 1`` (0: empty), so it stays right as long as records keep their rows.
    ``child_f[node]`` (when kept) is 0 until ``node`` is expanded, then holds four bits
    per colour: how many levels above the level ``node`` waits at in the open list its
    child was deferred to (a lower bound on the child's ``f``), or ``CHILD_DONE`` when
    the child needs no more work (stored, found, dominated, pruned, or unable to beat
    the answer). (All codes 0 reads as not expanded: the children are made again, and
    those done are found done.)"""

    nodes: np.ndarray  #: (capacity, words + 2) uint64
    table: np.ndarray  #: (2^k,) uint64, hash tag << 32 | node + 1
    heads: np.ndarray  #: (ub + 1, ub + 1) int64, first node of each (f, g) bucket
    hi: np.ndarray  #: (ub + 1,) int64
    recent: np.ndarray  #: (ub + 1, dominance.window_for(words), words) uint64
    n_recent: np.ndarray  #: (ub + 1,) int64
    supersets: dominance.Supersets
    fronts: np.ndarray  #: (FRONT_CACHE_SLOTS, words + 1) uint64
    child_f: np.ndarray  #: (capacity,) uint64 where kept (``search``'s ``keep_child_f``), else (0,)
    tests: np.ndarray  #: (slots + 1, words + 1) uint64, the bound's tests (``bound_steps.memo_get``)


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


class NodeStore:
    """The search's node records, seen-state table and buckets, grown by doubling.

    A store of the first capacity is kept for the next search of the same width
    (``take``/``release``): a bench solves thousands of small boards, and fresh arrays
    for each cost more than many of their searches. The records grow in place: at their
    first growth they move to a zeroed reservation as large as the memory cap allows
    (``reserve_bytes``), which the system maps only as rows are written, and every later
    growth is a longer view of it, not a copy (copying took 7% of a 16x16 board's
    search that stored 4.6 million records)."""

    _spare: ClassVar[dict[int, NodeStore]] = {}

    def __init__(self, words: int, ub: int, capacity: int, index_bytes: float, reserve_bytes: float = 0) -> None:
        self.words = words
        self.nodes = np.zeros((capacity, words + 2), dtype=np.uint64)
        self.child_f = np.zeros(0, dtype=np.uint64)
        self.reserve_bytes = reserve_bytes
        self._reserve: tuple[np.ndarray, np.ndarray] | None = None
        self.table = np.zeros(capacity * 2, dtype=np.uint64)
        self.index_bytes = index_bytes
        self.slots = dominance.SLOTS
        self.supersets = dominance.index_off(words)
        self.fronts = np.zeros((FRONT_CACHE_SLOTS, words + 1), dtype=np.uint64)
        slots = TEST_MEMO_SLOTS
        while slots > 1 and slots * (words + 1) * 8 > index_bytes:
            slots //= 2
        self.tests = np.zeros((slots + 1, words + 1), dtype=np.uint64)
        self.first = capacity
        self._reset(ub)

    def _reset(self, ub: int) -> None:
        self.heads = np.full((ub + 1, ub + 1), -1, dtype=np.int64)
        self.hi = np.full(ub + 1, -1, dtype=np.int64)
        self.recent = np.empty((ub + 1, dominance.window_for(self.words), self.words), dtype=np.uint64)
        self.n_recent = np.zeros(ub + 1, dtype=np.int64)
        self.fronts[:, self.words] = 0
        self.tests[0, 0] += np.uint64(1)  # a new search: what the memo holds is stale

    def _index_shape(self) -> tuple[int, int]:
        return dominance.index_shape(self.table.shape[0], self.index_bytes, self.slots)

    @classmethod
    def take(cls, words: int, ub: int, capacity: int, index_bytes: float, slots: int = dominance.SLOTS,
             child_f: bool = False, reserve_bytes: float = 0) -> NodeStore:
        """A store for a search (``index_bytes``: the most its superset index may take;
        ``slots``: the states a bucket of it keeps; ``child_f``: whether it keeps its
        nodes' deferred children's levels, ``StoreArrays.child_f``; ``reserve_bytes``:
        the most its records may take, reserved at their first growth)."""
        st = cls._spare.pop(words, None)
        if st is None or st.capacity != capacity or st.index_bytes != index_bytes:
            st = cls(words, ub, capacity, index_bytes)
        else:
            st.table.fill(0)
            st.supersets = dominance.index_off(words)
            st._reset(ub)
        st.slots = slots
        st.reserve_bytes = reserve_bytes
        st._reserve = None
        if bool(st.child_f.size) != child_f:
            st.child_f = np.zeros(st.capacity if child_f else 0, dtype=np.uint64)
        return st

    def plant_root(self, root: np.ndarray, f: int) -> None:
        """Store ``root`` as node 0, the one open node, in the bucket ``(f, 0)``."""
        _plant_root(self.nodes, self.table, root)
        if self.child_f.size:
            self.child_f[0] = 0
        self.heads[f, 0] = 0
        self.hi[f] = 0

    def release(self) -> None:
        if self.capacity == self.first == FIRST_CAPACITY:
            self._spare[self.words] = self

    @property
    def capacity(self) -> int:
        return int(self.nodes.shape[0])

    def arrays(self) -> StoreArrays:
        return StoreArrays(
            self.nodes, self.table, self.heads, self.hi, self.recent, self.n_recent, self.supersets, self.fronts,
            self.child_f, self.tests,
        )

    def nbytes(self) -> int:
        return (self.nodes.nbytes + self.table.nbytes + self.heads.nbytes + self.recent.nbytes
                + self.supersets.buckets.nbytes + self.child_f.nbytes + self.tests.nbytes)

    def grow_nodes(self, n_used: int) -> None:
        rows = self.capacity * 2
        if self._reserve is None or self._reserve[0].shape[0] < rows:
            self._reserve = _reservation(rows, self.words + 2, self.child_f.size > 0, self.reserve_bytes)
            self._reserve[0][:n_used] = self.nodes[:n_used]
            if self.child_f.size:
                self._reserve[1][:n_used] = self.child_f[:n_used]
        nodes, child_f = self._reserve
        self.nodes = nodes[:rows]
        if self.child_f.size:
            self.child_f = child_f[:rows]

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


def _reservation(rows: int, width: int, child_f: bool, most_bytes: float) -> tuple[np.ndarray, np.ndarray]:
    """Zeroed records of ``width`` words (and child levels, if ``child_f``) for at least
    ``rows`` rows: as many doublings of ``rows`` as ``most_bytes`` holds. The system maps
    a large zeroed array's pages when they are first written, so rows never used cost
    no memory; one that will not promise unmapped pages gets ``rows`` alone."""
    row_bytes = (width + (1 if child_f else 0)) * 8
    most = rows
    while most * 2 * row_bytes <= most_bytes:
        most *= 2
    try:
        return np.zeros((most, width), dtype=np.uint64), np.zeros(most if child_f else 0, dtype=np.uint64)
    except MemoryError:
        return np.zeros((rows, width), dtype=np.uint64), np.zeros(rows if child_f else 0, dtype=np.uint64)


def first_capacity(words: int, cap_bytes: float) -> int:
    """The records of a search's first store: ``FIRST_CAPACITY``, halved (down to 16)
    until the store fits ``cap_bytes``."""
    first = FIRST_CAPACITY
    while first > 16 and first * (words + 2 + 2) * 8 > cap_bytes:
        first //= 2
    return first
