"""A*'s node store (``colorit.solvers.astar_store``): the record words pack and unpack
what they hold, the root is node 0 and the seen table finds it, moves come back along
parent links, a grown store keeps its records and finds them all in its rebuilt table,
its records grow within one reservation the memory cap sizes, its first capacity fits
the memory it is given, a store is taken again for the next search of its width, and
the frontier cache holds what its nodes' rows say."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from colorit import Control, Limits, RegionGraph
from colorit.game.bitset import hash_words, to_bits
from colorit.game.generate import random_board
from colorit.game.graph import padded
from colorit.solvers import astar
from colorit.solvers import astar_store as store
from colorit.solvers.linear import linear_moves
from colorit.solvers.seen import table_find

from boardgen import STABLE

WORDS = 2
SHAPE = (0, 0)


@pytest.fixture(autouse=True)
def no_spare_stores() -> Iterator[None]:
    """Each test starts and ends with no store kept for reuse."""
    store.NodeStore._spare.clear()
    yield
    store.NodeStore._spare.clear()


@STABLE
@given(st.integers(-1, 2**32 - 2), st.integers(-1, 2**32 - 2))
def test_a_link_word_holds_a_parent_and_a_next_node(parent: int, nxt: int) -> None:
    link = np.uint64(store._link(parent, nxt))
    assert store._parent_of(link) == parent and store._next_of(link) == nxt


def test_push_puts_a_node_first_in_its_bucket() -> None:
    st_ = store.NodeStore(WORDS, ub=6, capacity=16, index_bytes=1 << 16)
    for node, parent in ((3, -1), (5, 3), (7, 3)):
        store._push(st_.nodes, st_.heads, st_.hi, node, parent, 4, 2, WORDS)
    assert st_.heads[4, 2] == 7 and st_.hi[4] == 2
    chain, x = [], int(st_.heads[4, 2])
    while x >= 0:
        chain.append((x, int(store._parent_of(st_.nodes[x, WORDS]))))
        x = int(store._next_of(st_.nodes[x, WORDS]))
    assert chain == [(7, 3), (5, 3), (3, -1)]  # last in, first out
    store._push(st_.nodes, st_.heads, st_.hi, 9, 7, 4, 1, WORDS)
    assert st_.hi[4] == 2  # the deepest bucket of the level stays the mark


def test_a_meta_word_holds_moves_a_colour_and_flags() -> None:
    meta = int(store._meta(17, 300, store.DEAD))
    assert meta >> 32 == 17 and (meta >> 8) & 0xFFFFFF == 300 and meta & int(store.DEAD)
    assert not int(store._meta(3, 2, np.uint64(0))) & int(store.DEAD)


def test_child_levels_four_bits_a_colour() -> None:
    """A node's deferred children's levels: all done until written, each colour's code
    written alone; a level farther above than a code holds is kept as the farthest (a
    lower bound); lowered when the node waits higher, never below 0, done codes kept."""
    known = np.uint64(0xFFFFFFFFFFFFFFFF)
    for c, above in ((0, 4), (3, 14), (9, 0), (15, 2), (12, 40)):
        known = store._with_child_level(known, c, above)
    done = store.CHILD_DONE
    codes = [int(store._child_level(np.uint64(known), c)) for c in range(16)]
    assert codes == [4] + [done] * 2 + [14] + [done] * 5 + [0] + [done] * 2 + [14] + [done] * 2 + [2]
    lowered = store._lowered_child_levels(np.uint64(known), 3)
    codes = [int(store._child_level(np.uint64(lowered), c)) for c in range(16)]
    assert codes == [1] + [done] * 2 + [11] + [done] * 5 + [0] + [done] * 2 + [11] + [done] * 2 + [0]
    # every code against every step, one colour's code among done ones
    for code in range(done):
        word = np.uint64(store._with_child_level(np.uint64(0xFFFFFFFFFFFFFFFF), 5, code))
        for by in (1, 2, 7, 14, 15, 40):
            lowered = int(store._lowered_child_levels(word, by))
            assert (lowered >> 20) & 15 == max(code - by, 0)
            assert lowered | (15 << 20) == 0xFFFFFFFFFFFFFFFF  # the done codes kept


def test_astar_plants_the_root_as_node_zero() -> None:
    """The root is node 0, with no parent and no moves, the one open node, and the seen
    table finds it (under the hash the search's kernel gives the same set at its compiled
    width)."""
    pg = padded(RegionGraph.from_board(random_board(9, 9, 5, seed=2)))
    words = len(pg.root)
    st_ = store.NodeStore.take(words, ub=12, capacity=64, index_bytes=1 << 16, child_f=True)
    st_.plant_root(pg.root, 5)
    assert st_.nodes[0, :words].tolist() == pg.root.tolist()
    assert st_.path_to(0) == []
    assert st_.heads[5, 0] == 0 and st_.hi[5] == 0 and st_.child_f[0] == 0
    assert table_find(st_.table, st_.nodes, pg.root, np.uint64(hash_words(pg.root, pg.shape)), pg.shape) == 0
    other = pg.root.copy()
    other[0] ^= np.uint64(2)
    assert table_find(st_.table, st_.nodes, other, np.uint64(hash_words(other, pg.shape)), pg.shape) < 0


def _chain(st_: store.NodeStore, moves: list[int]) -> None:
    """Records 1.. of a game from the root: each the child of the one before, by a move,
    the last one store.DEAD (a goal)."""
    for i, move in enumerate(moves, start=1):
        st_.nodes[i, :WORDS] = to_bits([i, 64 + i], 128)
        st_.nodes[i, WORDS] = store._link(i - 1, -1)
        st_.nodes[i, WORDS + 1] = store._meta(i, move, store.DEAD if i == len(moves) else np.uint64(0))


def test_path_to_follows_parents_back_to_the_root() -> None:
    st_ = store.NodeStore(WORDS, ub=10, capacity=16, index_bytes=1 << 16)
    st_.plant_root(to_bits([0], 128), 3)
    _chain(st_, [4, 0, 2, 5])
    assert st_.path_to(4) == [4, 0, 2, 5]
    assert st_.path_to(2) == [4, 0]


def test_a_grown_store_keeps_its_records_and_finds_every_live_one() -> None:
    """Growing the records copies the used rows (and their deferred children's levels);
    growing the table re-enters every live record and no store.DEAD one."""
    st_ = store.NodeStore(WORDS, ub=10, capacity=8, index_bytes=1 << 16)
    st_.child_f = np.zeros(st_.capacity, dtype=np.uint64)
    st_.plant_root(to_bits([0], 128), 3)
    _chain(st_, [1, 2, 3])
    st_.child_f[:4] = [9, 8, 7, 6]
    records = st_.nodes[:4].copy()
    st_.grow_nodes(4)
    assert st_.capacity == 16 and st_.child_f.shape == (16,)
    assert np.array_equal(st_.nodes[:4], records) and st_.child_f[:4].tolist() == [9, 8, 7, 6]
    slots = st_.table.shape[0]
    assert st_.grow_table(4) == 3  # the root and two live records: the goal is store.DEAD
    assert st_.table.shape[0] == 2 * slots
    for node in range(4):
        bits = st_.nodes[node, :WORDS]
        found = table_find(st_.table, st_.nodes, bits, np.uint64(hash_words(bits, SHAPE)), SHAPE)
        assert found == node if node < 3 else found < 0
    assert st_.path_to(3) == [1, 2, 3]


def test_records_grow_within_one_reservation_the_cap_sizes() -> None:
    """The first growth reserves as many doublings as ``reserve_bytes`` holds (here
    64 rows of 4 words with their child levels) and copies the rows once; later
    growths are longer views of it, so a row written before one is still there after."""
    st_ = store.NodeStore(WORDS, ub=10, capacity=8, index_bytes=1 << 16, reserve_bytes=64 * (WORDS + 3) * 8)
    st_.child_f = np.zeros(st_.capacity, dtype=np.uint64)
    st_.plant_root(to_bits([0], 128), 3)
    st_.child_f[0] = 5
    st_.grow_nodes(1)
    base = st_.nodes.base
    assert base is not None and base.shape[0] == 64 and st_.capacity == 16
    st_.nodes[15, 0] = 77
    st_.child_f[15] = 6
    st_.grow_nodes(16)
    st_.grow_nodes(32)
    assert st_.capacity == 64 and st_.nodes.base is base and st_.child_f.shape == (64,)
    assert st_.nodes[15, 0] == 77 and st_.child_f[15] == 6 and st_.child_f[0] == 5
    assert st_.nodes[1:15].sum() == 0  # zeroed, not leftovers
    st_.grow_nodes(64)  # past the reservation: a new one, the rows copied again
    assert st_.capacity == 128 and st_.nodes.base is not base and st_.nodes[15, 0] == 77


def test_first_capacity_fits_the_memory() -> None:
    """``store.FIRST_CAPACITY`` records where they fit, else the largest half, quarter... of it
    that fits (a record of 4 words takes 8 words with its share of the table), at least 16."""
    record = (4 + 4) * 8
    assert store.first_capacity(4, 1 << 30) == store.FIRST_CAPACITY == 4096
    assert store.first_capacity(4, 1000 * record) == 512
    assert store.first_capacity(4, 512 * record) == 512
    assert store.first_capacity(4, 100) == 16


def test_a_store_of_the_first_capacity_is_taken_again() -> None:
    st_ = store.NodeStore.take(WORDS, ub=8, capacity=store.FIRST_CAPACITY, index_bytes=1 << 16)
    st_.plant_root(to_bits([0], 128), 2)
    st_.release()
    again = store.NodeStore.take(WORDS, ub=12, capacity=store.FIRST_CAPACITY, index_bytes=1 << 16)
    assert again is st_
    assert not again.table.any() and again.heads.shape == (13, 13) and (again.heads < 0).all()
    again.release()
    small = store.NodeStore.take(WORDS, ub=8, capacity=64, index_bytes=1 << 16)
    assert small is not st_ and small.capacity == 64  # another capacity: a store of its own
    small.release()
    assert WORDS not in store.NodeStore._spare  # ... not kept for the next search


def test_astar_keeps_expanded_nodes_frontiers() -> None:
    """Each filled slot of the frontier cache holds the frontier of its node's set (the
    search starts children from it), and a store taken again starts with it empty."""
    graph = RegionGraph.from_board(random_board(12, 12, 7, seed=4))
    pg = padded(graph)
    words = len(pg.root)
    out = astar.search(graph, Control(Limits()), linear_moves(graph))
    assert out.proven_optimal and out.states > store.FRONT_CACHE_SLOTS
    st_ = store.NodeStore._spare[words]
    filled = 0
    for slot, row in enumerate(st_.fronts):
        if row[words] == 0:
            continue
        node = int(row[words]) - 1
        assert node % store.FRONT_CACHE_SLOTS == slot
        flooded = st_.nodes[node, :words]
        near = np.zeros(words, dtype=np.uint64)
        for r in range(graph.n_regions):
            if int(flooded[r >> 6]) >> (r & 63) & 1:
                near |= pg.adj_bits[r]
        assert (near & ~flooded).tolist() == row[:words].tolist()
        filled += 1
    assert filled >= store.FRONT_CACHE_SLOTS // 2
    again = store.NodeStore.take(words, ub=20, capacity=st_.capacity, index_bytes=st_.index_bytes)
    assert again is st_ and not again.fronts[:, words].any()
