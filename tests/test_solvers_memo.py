"""The memo of the depth-first searches (``colorit.solvers.memo``): a state is seen again
only with at least the moves it was recorded with, a full set of ways gives up the state
reached with the most moves, a memo is as big as its memory allows, and the Zobrist keys
are the same for every search."""

from __future__ import annotations

import numpy as np

from colorit.solvers.memo import MEMO_SLOT_BYTES, MEMO_WAYS, memo_seen, memo_ways, new_memo, zobrist_keys


def key(k1: int, k2: int = 7) -> tuple[np.uint64, np.uint64]:
    return np.uint64(k1), np.uint64(k2)


def test_memo_keeps_the_fewest_moves() -> None:
    memo = new_memo(1 << 12)
    assert not memo_seen(memo, np.uint64(5), np.uint64(7), 4)
    assert memo_seen(memo, np.uint64(5), np.uint64(7), 4)
    assert memo_seen(memo, np.uint64(5), np.uint64(7), 6)
    assert not memo_seen(memo, np.uint64(5), np.uint64(7), 3)  # fewer moves: again
    assert memo_seen(memo, np.uint64(5), np.uint64(7), 3)
    assert not memo_seen(memo, np.uint64(5), np.uint64(8), 9)  # another key


def test_a_full_set_of_ways_gives_up_the_state_with_the_most_moves() -> None:
    """Keys that share their ways (equal low bits) fill them; one more takes the way of
    the state reached with the most moves, and every other is still remembered."""
    memo = new_memo(1 << 12)
    slots = memo.vals.shape[0]
    same_ways = [3 + i * slots for i in range(MEMO_WAYS + 1)]
    assert len({int(memo_ways(memo, np.uint64(k))) for k in same_ways}) == 1
    moves = [2, 9, 4, 5]
    for k, g in zip(same_ways, moves):
        assert not memo_seen(memo, *key(k), g)
    assert not memo_seen(memo, *key(same_ways[-1]), 6)  # the fifth: replaces the 9
    assert not memo_seen(memo, *key(same_ways[1]), 9)  # forgotten: searched again
    for k, g in ((same_ways[0], 2), (same_ways[3], 5)):
        assert memo_seen(memo, *key(k), g)


def test_memo_ways_lie_within_the_memo() -> None:
    memo = new_memo(1 << 10)
    slots = memo.vals.shape[0]
    for k in (0, 1, 5, slots - 1, slots, 2**64 - 1):
        first = int(memo_ways(memo, np.uint64(k)))
        assert first % MEMO_WAYS == 0 and 0 <= first <= slots - MEMO_WAYS


def test_a_memo_is_as_big_as_its_memory_allows() -> None:
    for nbytes in (0, 100, 1 << 12, 1 << 20, 3 << 20):
        memo = new_memo(nbytes)
        slots = memo.vals.shape[0]
        assert slots & (slots - 1) == 0 and slots >= MEMO_WAYS
        assert slots == MEMO_WAYS or slots * MEMO_SLOT_BYTES <= nbytes < 2 * slots * MEMO_SLOT_BYTES
        assert memo.keys.shape == (slots, 2) and not memo.keys.any() and not memo.vals.any()
    assert new_memo(100, least=1024).vals.shape[0] == 1024
    assert new_memo(1 << 20, least=1024).vals.shape[0] == 1 << 15


def test_zobrist_keys_are_odd_distinct_and_the_same_every_time() -> None:
    keys = zobrist_keys(300)
    assert keys.shape == (300, 2) and keys.dtype == np.uint64
    assert (keys & np.uint64(1)).all()
    assert len({tuple(row) for row in keys.tolist()}) == 300
    assert np.array_equal(zobrist_keys(300), keys)
