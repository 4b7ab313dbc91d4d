"""The seen-state table (``colorit.solvers.seen``): every stored set is found again, with
the moves of its record; a set not stored is reported with the empty slot to put it at;
a repointed entry leads to its new record; colliding home slots probe on, and a rebuild's
free slot is the one a lookup would reach."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from colorit.game.bitset import hash_words
from colorit.solvers.seen import NOT_STORED, free_slot, home_slot, stored_moves, table_find, table_put, table_repoint

WORDS = 2
SHAPE = (0, 0)


def _hash(bits: np.ndarray) -> np.uint64:
    return np.uint64(hash_words(bits, SHAPE))


def _store(sets: list[tuple[int, int]], slots: int = 64) -> tuple[np.ndarray, np.ndarray]:
    """A table and node records holding ``sets`` (record ``j`` reached in ``j + 1`` moves)."""
    nodes = np.zeros((len(sets) * 2 + 1, WORDS + 2), dtype=np.uint64)
    table = np.zeros(slots, dtype=np.uint64)
    for j, words in enumerate(sets):
        bits = np.array(words, dtype=np.uint64)
        nodes[j, :WORDS] = bits
        nodes[j, WORDS + 1] = np.uint64(j + 1) << np.uint64(32)
        h = _hash(bits)
        found = table_find(table, nodes, bits, h, SHAPE)
        assert found < 0, "a set not stored yet was found"
        table_put(table, -1 - found, h, j)
    return table, nodes


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 2**64 - 1), st.integers(0, 2**64 - 1)), min_size=1, max_size=24, unique=True))
def test_every_stored_set_is_found_with_its_moves(sets: list[tuple[int, int]]) -> None:
    table, nodes = _store(sets)
    for j, words in enumerate(sets):
        bits = np.array(words, dtype=np.uint64)
        h = _hash(bits)
        assert table_find(table, nodes, bits, h, SHAPE) == j
        assert stored_moves(table, nodes, bits, h, SHAPE) == j + 1


def test_a_set_not_stored_gets_an_empty_slot_and_no_moves() -> None:
    table, nodes = _store([(1, 0), (2, 0), (3, 5)])
    bits = np.array([7, 7], dtype=np.uint64)
    h = _hash(bits)
    found = table_find(table, nodes, bits, h, SHAPE)
    assert found < 0 and table[-1 - found] == 0
    assert stored_moves(table, nodes, bits, h, SHAPE) == NOT_STORED


def test_home_slots_that_collide_probe_on() -> None:
    """In a table of 2 slots at most one of two sets sits at its home slot."""
    table, nodes = _store([(1, 0), (2, 0)], slots=2)
    assert sorted(int(e) & 0xFFFFFFFF for e in table) == [1, 2]
    for j, words in enumerate([(1, 0), (2, 0)]):
        bits = np.array(words, dtype=np.uint64)
        h = _hash(bits)
        assert 0 <= home_slot(table, h) < 2
        assert table_find(table, nodes, bits, h, SHAPE) == j


def test_a_repointed_entry_leads_to_the_new_record() -> None:
    table, nodes = _store([(1, 0), (2, 0)])
    bits = np.array([2, 0], dtype=np.uint64)
    h = _hash(bits)
    nodes[2, :WORDS] = bits
    nodes[2, WORDS + 1] = np.uint64(1) << np.uint64(32)  # the same set, in one move
    table_repoint(table, h, 1, 2)
    assert table_find(table, nodes, bits, h, SHAPE) == 2
    assert stored_moves(table, nodes, bits, h, SHAPE) == 1


def test_the_free_slot_is_where_a_lookup_of_a_new_set_ends() -> None:
    table, nodes = _store([(1, 0), (2, 0), (3, 5)], slots=4)
    for words in [(7, 7), (8, 0), (0, 9)]:
        bits = np.array(words, dtype=np.uint64)
        h = _hash(bits)
        slot = free_slot(table, h)
        assert table[slot] == 0
        assert table_find(table, nodes, bits, h, SHAPE) == -1 - slot
