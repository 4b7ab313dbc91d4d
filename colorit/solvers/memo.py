"""The memo of the depth-first searches (``dfs``, and ``deepening`` from A*'s store): the
states seen, each by a 128-bit Zobrist key, with the fewest moves that reached it.

A state's key is the XOR of its flooded regions' keys (``zobrist_keys``), so a move
updates it from the regions it takes. The memo is a set-associative cache: a key may sit
in ``MEMO_WAYS`` neighbouring slots, and when all are taken the one reached with the most
moves makes way. Forgetting a state costs only searching it again, so the memo is as big
as its memory allows and no bigger. A slot holds the key and the moves plus one (0:
empty), so a fresh memo is all zeros and costs no memory until it is used.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._kernel import kernel

#: Slots a key may sit in (neighbours, so one probe reads one or two cache lines).
MEMO_WAYS = 4
#: Bytes per slot: two key words and the moves.
MEMO_SLOT_BYTES = 20
#: The seed of the Zobrist keys: a fixed one, so runs repeat.
ZOBRIST_SEED = 0x5EED


class Memo(NamedTuple):
    """States seen: a 128-bit key and the fewest moves that reached it, plus one (0: an
    empty slot)."""

    keys: np.ndarray  #: (slots, 2) uint64
    vals: np.ndarray  #: (slots,) int32


def new_memo(nbytes: int, least: int = MEMO_WAYS) -> Memo:
    """A memo of the largest power-of-two number of slots that fits ``nbytes``, and at
    least ``least`` (a power of two, at least ``MEMO_WAYS``)."""
    slots = least
    while slots * 2 * MEMO_SLOT_BYTES <= nbytes:
        slots *= 2
    return Memo(np.zeros((slots, 2), dtype=np.uint64), np.zeros(slots, dtype=np.int32))


def zobrist_keys(n_regions: int) -> np.ndarray:
    """Two odd 64-bit random keys per region, (n_regions, 2) uint64 (the same for every
    search: ``ZOBRIST_SEED``)."""
    rng = np.random.default_rng(ZOBRIST_SEED)
    return rng.integers(0, 2**63, size=(n_regions, 2), dtype=np.uint64) * np.uint64(2) + np.uint64(1)


@kernel
def memo_ways(memo, k1):  # type: ignore[no-untyped-def]
    """The first of the ``MEMO_WAYS`` slots a state with key ``k1`` may sit in (a search
    prefetches it early)."""
    return np.int64(k1 & np.uint64(memo.vals.shape[0] - 1)) & ~np.int64(MEMO_WAYS - 1)


@kernel
def memo_seen(memo, k1, k2, g):  # type: ignore[no-untyped-def]
    """True if the state with key ``(k1, k2)`` was seen with at most ``g`` moves; else
    record ``g`` (over its own slot, else an empty one, else the one reached with the
    most moves)."""
    keys, vals = memo
    base = memo_ways(memo, k1)
    victim = base
    for i in range(MEMO_WAYS):
        j = base + i
        if vals[j] != 0 and keys[j, 0] == k1 and keys[j, 1] == k2:
            if vals[j] <= g + 1:
                return True
            vals[j] = g + 1
            return False
        if vals[victim] != 0 and (vals[j] == 0 or vals[j] > vals[victim]):
            victim = j
    keys[victim, 0] = k1
    keys[victim, 1] = k2
    vals[victim] = g + 1
    return False
