"""Dominance: a state need not be searched when a state reached in as few moves holds
all of its regions.

Floods are monotone (a superset stays a superset after any move), so the larger state
reaches the goal at least as soon, and every answer through the smaller one has one as
short through the larger. On the sets measured, a third to a half of the states A*
would store are dominated by a state it stored before them, most by a distant cousin
(the last common ancestor 6 to 9 moves back), so no rule about move order finds them.

Two lookups find dominating states among those stored, both lossy (a state they miss is
searched: only time is lost):

- the window (``in_window``): the last sets stored with each move count on the level
  being expanded; in cache, and it finds the near cousins;
- the projection index (``Supersets``): ``TABLES`` hash tables, each keyed by the moves
  made and the state's regions within its own random projection (a ``DENSITY`` share of
  the regions), a bucket holding the ``SLOTS`` latest states put in it. A superset
  reached in as many moves that differs from the state only in regions outside some
  table's projection shares its bucket there; such pairs are mostly a few regions
  apart, so four sparse projections find most of them. A bucket entry carries a 32-bit
  signature of the state (its regions in one more projection, folded by OR), so most
  candidates that are not supersets are told apart without reading their record.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import numpy as np

from .._kernel import kernel, prefetch

#: Sets compared per move count in the window: ``WINDOW`` on sets of ``MIN_WORDS`` words
#: or more, where the projection index finds the distant cousins, and ``NARROW_WINDOW``
#: below, where the window is the only lookup (``auto`` with 256 against 64, in one
#: process: b14c8 and b12c12 0.90 of the time, pc19 0.955, b10c15 0.97; 512 was no
#: better, 128 worse; on 4 words and more, floodtest 0.99, b18c6 1.00, 16x16 boards
#: with 10 colours 1.08).
WINDOW = 64
NARROW_WINDOW = 256
#: Projection tables, states a bucket keeps, share of the regions in a projection.
#: (Measured on floodtest and on 16x16 boards with 10 colours: 2 or 3 tables, or 4
#: slots, find 4-20% fewer; projections of 0.05 or 0.3 fewer. Longer buckets find more
#: on the big searches and cost more on the small ones: 24 slots expand a third fewer
#: states on the 16x16 boards, 0.92 of the time, and take 1.06 of it on floodtest.
#: A* with projections of 0.14 against 0.1, in one process: floodtest 0.97, b18c6 0.98,
#: the 16x16 boards 0.92; 0.07 took 1.02 on floodtest, 0.18 and 0.22 0.99.)
TABLES = 4
SLOTS = 8
DENSITY = 0.14
#: The index grows with the store's table of seen states (``index_shape``): 2^bits
#: buckets a table, an eighth of the table's slots within these bounds (16 MiB at most
#: with ``SLOTS``), rounded up to ``BITS_STEP`` past the least. Every growth of the index
#: rebuilds it from all the records; growing it 4x at every other growth of the table,
#: rather than 2x at each, rebuilds less (in one process, A* under ``auto``: floodtest
#: 0.97, b18c6 0.965 of the time; the 16x16 boards with 10 colours about the same).
MIN_BUCKET_BITS = 10
MAX_BUCKET_BITS = 16
BITS_STEP = 2
#: On graphs of ``WIDE_COLOURS`` colours or more a bucket keeps ``WIDE_SLOTS`` states
#: (the index takes up to 48 MiB): their searches find many more dominating states in
#: longer buckets. In one process, the 16x16 boards with 10 colours (seeds 1-20) took
#: 0.77 of the time with 24 slots against 8, and 32 slots were no better. On floodtest
#: (6 colours) 24 slots took 1.04-1.06 of the time, so graphs of fewer colours keep
#: ``SLOTS`` (8 lies between the two measured).
WIDE_SLOTS = 24
WIDE_COLOURS = 8
#: The index is for sets of at least ``MIN_WORDS`` words (over 192 regions): on smaller
#: graphs a state costs less to search than to look up, and the index finds fewer (A*'s
#: time with the index against without, in one process: b12c12 (2 words) 1.18, b14c8
#: (3 words) 1.06, and b10c15 1.08 when it started at the first growth). There it
#: starts at the store's first growth, when its table reaches ``START_TABLE_SLOTS``
#: (starting at 64k slots instead took 1.05 of the time on floodtest and 1.08 on b18c6;
#: floodtest with the index against without: about 0.88; 16x16 boards with 10 colours
#: about 0.55).
START_TABLE_SLOTS = 1 << 14
MIN_WORDS = 4
#: The seed of the projections: the same on every run, so searches are repeatable.
SEED = 20261126

_SIG_MASK = np.uint64(0xFFFFFFFF)


@kernel
def in_window(child, recent, n_recent, shape):  # type: ignore[no-untyped-def]
    """Whether one of the ``recent`` sets (stored with as few moves as ``child``; only the
    first ``n_recent`` rows are filled) holds all of ``child``. An equal set would have
    been found in the table of seen states."""
    for k in range(min(n_recent, recent.shape[0])):
        extra = np.uint64(0)
        for w in range(len(shape)):
            extra |= child[w] & ~recent[k, w]
        if extra == np.uint64(0):
            return True
    return False


def indexed(words: int) -> bool:
    """Whether a store of sets of ``words`` words keeps the projection index."""
    return words >= MIN_WORDS


def window_for(words: int) -> int:
    """The window's length for sets of ``words`` words: longer where it is the only lookup."""
    return WINDOW if indexed(words) else NARROW_WINDOW


class Supersets(NamedTuple):
    """The projection index, as the kernels take it.

    Invariants: ``proj[t]`` (t < TABLES) is table t's projection and ``proj[TABLES]`` the
    signature's; ``buckets[t, b]`` lists entries ``(node + 1) << 32 | signature``, the
    latest first, 0 after the last; an entry names a record of the store whose set and
    move count were those it was put in with (records are never moved or rewritten, only
    marked dead, and a dead record's set was still reached in its moves). ``flat`` is
    ``buckets`` as one row (for prefetching), ``keys`` the buckets of the state last
    looked up (``keys_of``)."""

    proj: np.ndarray  #: (TABLES + 1, words) uint64
    buckets: np.ndarray  #: (TABLES, 2^bits, slots) uint64
    flat: np.ndarray  #: buckets.reshape(-1)
    keys: np.ndarray  #: (TABLES,) int64


def new_supersets(words: int, shape: tuple[int, int], tables: int | None = None) -> Supersets:
    """An empty index for sets of ``words`` words, ``shape = (bits, slots)``: ``2^bits``
    buckets a table of ``slots`` states each. With ``tables=0`` it is off: it finds
    nothing and keeps nothing, at no cost."""
    bits, slots = shape
    tables = TABLES if tables is None else tables
    if tables:
        rng = np.random.default_rng(SEED)
        chosen = rng.random((tables + 1, words * 64)) < DENSITY
        proj = np.packbits(chosen, axis=1, bitorder="little").view(np.uint64).copy()
    else:  # (nothing is kept to sign: no projection, nor numpy.random's 4 ms import)
        proj = np.zeros((1, words), dtype=np.uint64)
    buckets = np.zeros((tables, 1 << bits, slots), dtype=np.uint64)
    return Supersets(proj, buckets, buckets.reshape(-1), np.zeros(tables, dtype=np.int64))


@functools.cache
def index_off(words: int) -> Supersets:
    """The index that is off, for sets of ``words`` words: it holds nothing, so one per
    width serves every search."""
    return new_supersets(words, (0, SLOTS), tables=0)


def index_shape(table_slots: int, most_bytes: float, slots: int = SLOTS) -> tuple[int, int]:
    """``(bits, slots)`` of the index for a store whose table of seen states has
    ``table_slots`` slots (about twice its records), ``slots`` states a bucket
    (``slots_for``): buckets an eighth of the table's slots, within the bounds and
    rounded up to a step, and fewer if the index would take more than ``most_bytes``."""
    bits = max(MIN_BUCKET_BITS, min(MAX_BUCKET_BITS, table_slots.bit_length() - 4))
    bits = min(MAX_BUCKET_BITS, bits + (bits - MIN_BUCKET_BITS) % BITS_STEP)
    while bits > 0 and (TABLES * slots * 8) << bits > most_bytes:
        bits -= 1
    return bits, slots


def slots_for(n_colours: int) -> int:
    """States a bucket keeps on a graph of ``n_colours`` colours (see ``WIDE_SLOTS``)."""
    return WIDE_SLOTS if n_colours >= WIDE_COLOURS else SLOTS


@kernel
def _entry(node, sig):  # type: ignore[no-untyped-def]
    """A bucket entry: record ``node`` (0 stays free for "no entry") and its signature."""
    return (np.uint64(node + 1) << np.uint64(32)) | sig


@kernel
def keys_of(child, g, index, shape):  # type: ignore[no-untyped-def]
    """Put ``child``'s bucket in each table (for ``g`` moves) into ``index.keys``, start
    loading those buckets, and return its signature."""
    proj, buckets, keys = index.proj, index.buckets, index.keys
    n_tables = buckets.shape[0]
    n_buckets = buckets.shape[1]
    for t in range(n_tables):
        h = np.uint64(g + 1) * np.uint64(0x9E3779B97F4A7C15)
        for w in range(len(shape)):
            h ^= child[w] & proj[t, w]
            h *= np.uint64(0xBF58476D1CE4E5B9)
            h ^= h >> np.uint64(29)
        keys[t] = np.int64(h >> np.uint64(32)) & (n_buckets - 1)
        prefetch(index.flat, (t * n_buckets + keys[t]) * buckets.shape[2])
    sig = np.uint64(0)
    for w in range(len(shape)):
        x = child[w] & proj[n_tables, w]
        sig |= (x << np.uint64((16 * w) & 63)) | (x >> np.uint64((64 - 16 * w) & 63))
    return (sig | (sig >> np.uint64(32))) & _SIG_MASK


@kernel
def held(child, g, sig, index, nodes, shape):  # type: ignore[no-untyped-def]
    """Whether a record in ``child``'s buckets (``keys_of`` first) holds all of ``child``
    and was reached in at most ``g`` moves. ``nodes`` are A*'s records (set words, link,
    meta with the moves in its high half)."""
    buckets, keys = index.buckets, index.keys
    words = len(shape)
    for t in range(buckets.shape[0]):
        b = keys[t]
        for k in range(buckets.shape[2]):
            e = buckets[t, b, k]
            if e == np.uint64(0):
                break
            if (sig & ~e) & _SIG_MASK:
                continue  # a region of the signature's is missing
            y = np.int64(e >> np.uint64(32)) - 1
            if np.int64(nodes[y, words + 1] >> np.uint64(32)) > g:
                continue
            extra = np.uint64(0)
            for w in range(words):
                extra |= child[w] & ~nodes[y, w]
            if extra == np.uint64(0):
                return True
    return False


@kernel
def add(node, sig, index):  # type: ignore[no-untyped-def]
    """Put record ``node`` (the state ``keys_of`` was last called with) first in its buckets."""
    buckets, keys = index.buckets, index.keys
    e = _entry(node, sig)
    for t in range(buckets.shape[0]):
        b = keys[t]
        for k in range(buckets.shape[2] - 1, 0, -1):
            buckets[t, b, k] = buckets[t, b, k - 1]
        buckets[t, b, 0] = e


@kernel
def rebuild(index, nodes, n_nodes, words):  # type: ignore[no-untyped-def]
    """Fill an emptied (grown) index from records ``0 .. n_nodes - 1``: newest first,
    each bucket taking states until it is full, so it holds its latest, as ``add`` keeps
    them (without moving an entry per state)."""
    buckets = index.buckets
    buckets[:] = 0
    filled = np.zeros((buckets.shape[0], buckets.shape[1]), dtype=np.int32)
    for j in range(n_nodes - 1, -1, -1):
        g = np.int64(nodes[j, words + 1] >> np.uint64(32))
        sig = keys_of(nodes[j, :words], g, index, nodes[j, :words])
        e = _entry(j, sig)
        for t in range(buckets.shape[0]):
            b = index.keys[t]
            k = filled[t, b]
            if k < buckets.shape[2]:
                buckets[t, b, k] = e
                filled[t, b] = k + 1
