"""Dominance (``colorit.solvers.dominance``): a state is reported held only when a kept
state reached in as few moves holds every one of its regions (the window's filled rows,
the index's records); the index finds a superset that differs only outside one of its
projections, keeps a bucket's latest states, survives a rebuild, fits the memory it is
given; and A* with it (or a longer window where it is off) expands fewer states and
stays exact."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from colorit import Board, Control, Limits, RegionGraph
from colorit.game.generate import random_board
from colorit.solvers import astar, astar_store, dominance
from colorit.solvers.linear import linear_moves

import naive
from boardgen import STABLE, boards, rows_of

WORDS = 2
SHAPE = (0, 0)


def test_window_needs_every_region_held() -> None:
    """Only a kept set that holds all of the child's regions counts, and only the rows
    actually kept (the first ``n_recent``)."""
    child = np.array([0b1011, 1 << 63], dtype=np.uint64)
    superset = np.array([[0b1111, (1 << 63) | 1]], dtype=np.uint64)
    assert dominance.in_window(child, superset, 1, SHAPE)
    assert not dominance.in_window(child, superset, 0, SHAPE)
    missing_one = np.array([[0b1111, 1], [0b0011, 1 << 63], [0b1011, 1 << 63]], dtype=np.uint64)
    assert not dominance.in_window(child, missing_one, 2, SHAPE)
    assert dominance.in_window(child, missing_one, 3, SHAPE)


def _records(sets: list[tuple[np.ndarray, int]]) -> np.ndarray:
    """A* records (set words, link, meta with the moves in its high half)."""
    nodes = np.zeros((max(len(sets), 1), WORDS + 2), dtype=np.uint64)
    for j, (bits, g) in enumerate(sets):
        nodes[j, :WORDS] = bits
        nodes[j, WORDS + 1] = np.uint64(g) << np.uint64(32)
    return nodes


def _index_with(sets: list[tuple[np.ndarray, int]], bits: int = 4) -> tuple[dominance.Supersets, np.ndarray]:
    index = dominance.new_supersets(WORDS, (bits, dominance.SLOTS))
    nodes = _records(sets)
    for j, (state, g) in enumerate(sets):
        sig = dominance.keys_of(state, g, index, SHAPE)
        dominance.add(j, sig, index)
    return index, nodes


def _held(index: dominance.Supersets, nodes: np.ndarray, child: np.ndarray, g: int) -> bool:
    sig = dominance.keys_of(child, g, index, SHAPE)
    return bool(dominance.held(child, g, sig, index, nodes, SHAPE))


def _outside_projection(index: dominance.Supersets, table: int) -> np.ndarray:
    """Regions in none of table ``table``'s projection bits (as words)."""
    outside: np.ndarray = ~index.proj[table] & np.uint64(0xFFFFFFFFFFFFFFFF)
    return outside


words_st = st.tuples(st.integers(0, 2**64 - 1), st.integers(0, 2**64 - 1)).map(lambda t: np.array(t, dtype=np.uint64))


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(words_st, st.integers(0, 6)), min_size=1, max_size=20), words_st, st.integers(0, 6))
def test_held_only_for_a_stored_superset_with_as_few_moves(sets: list[tuple[np.ndarray, int]], child: np.ndarray,
                                                            g: int) -> None:
    """Sound: whatever the index returns, a stored record reached in at most ``g`` moves
    holds every region of the child (a miss is allowed, a false hit never)."""
    index, nodes = _index_with(sets)
    if _held(index, nodes, child, g):
        assert any(gy <= g and not np.any(child & ~y) for y, gy in sets)


@settings(max_examples=60, deadline=None)
@given(words_st, words_st, st.integers(0, 5), st.integers(0, dominance.TABLES - 1))
def test_a_superset_differing_outside_a_projection_is_found(base: np.ndarray, extra: np.ndarray, g: int,
                                                            table: int) -> None:
    """Complete where it promises: a stored state that holds the child, was reached in as
    many moves and differs from it only in regions outside one table's projection shares
    the child's bucket there, so it is found; for a child of fewer moves it is not."""
    index = dominance.new_supersets(WORDS, (4, dominance.SLOTS))
    extra = extra & _outside_projection(index, table) & ~base
    superset = base | extra
    index, nodes = _index_with([(superset, g)])
    assert _held(index, nodes, base, g)
    if g > 0:
        assert not _held(index, nodes, base, g - 1)


def test_a_bucket_keeps_its_latest_states() -> None:
    """Past ``SLOTS`` states in one bucket, the oldest is forgotten (a miss, not an error)."""
    first = np.array([0b111, 0], dtype=np.uint64)
    others = [(np.array([1 << (10 + k), 1], dtype=np.uint64), 3) for k in range(dominance.SLOTS)]
    index, nodes = _index_with([(first, 3)] + others, bits=0)  # one bucket a table: all share it
    child = np.array([0b011, 0], dtype=np.uint64)
    assert not _held(index, nodes, child, 3)
    index, nodes = _index_with(others[1:] + [(first, 3)], bits=0)
    assert _held(index, nodes, child, 3)


def test_rebuild_finds_what_was_added() -> None:
    """A grown index rebuilt from the records finds the same supersets."""
    rng = np.random.default_rng(1)
    sets = [(rng.integers(0, 2**63, size=WORDS, dtype=np.uint64), int(rng.integers(0, 5))) for _ in range(40)]
    _, nodes = _index_with(sets)
    grown = dominance.new_supersets(WORDS, (8, 2 * dominance.SLOTS))
    dominance.rebuild(grown, nodes, len(sets), WORDS)
    for state, g in sets:
        assert _held(grown, nodes, state, g)


def _index_bytes(shape: tuple[int, int]) -> int:
    bits, slots = shape
    return dominance.TABLES * slots * 8 << bits


def test_index_grows_with_the_table_within_the_memory_it_may_take() -> None:
    """More buckets as the table grows, within the bounds, and never past its share."""
    plenty = 1 << 40
    assert dominance.index_shape(1 << 12, plenty) == (dominance.MIN_BUCKET_BITS, dominance.SLOTS)
    assert dominance.index_shape(1 << 17, plenty) == (14, dominance.SLOTS)  # an eighth of the slots
    # rounded up to the step: the index grows 4x at every other growth of the table
    assert dominance.index_shape(1 << 16, plenty) == (14, dominance.SLOTS)
    assert dominance.index_shape(1 << 18, plenty) == (16, dominance.SLOTS)
    assert dominance.index_shape(1 << 30, plenty) == (dominance.MAX_BUCKET_BITS, dominance.SLOTS)
    for table_slots in (1 << 12, 1 << 21, 1 << 30):
        for most in (100_000, 3_000_000, 20_000_000):
            assert _index_bytes(dominance.index_shape(table_slots, most)) <= most


def test_longer_buckets_on_graphs_of_many_colours() -> None:
    """Graphs of many colours get longer buckets, still within the memory the index may
    take; graphs of fewer colours keep ``SLOTS``."""
    plenty = 1 << 40
    wide = dominance.slots_for(dominance.WIDE_COLOURS)
    assert wide == dominance.WIDE_SLOTS > dominance.SLOTS
    assert dominance.slots_for(dominance.WIDE_COLOURS - 1) == dominance.SLOTS
    assert dominance.index_shape(1 << 17, plenty, wide) == (14, wide)
    assert dominance.index_shape(1 << 30, plenty, wide) == (dominance.MAX_BUCKET_BITS, wide)
    for table_slots in (1 << 12, 1 << 21, 1 << 30):
        for most in (100_000, 3_000_000, 20_000_000):
            assert _index_bytes(dominance.index_shape(table_slots, most, wide)) <= most


@pytest.mark.parametrize(("keep_child_f", "at_most"), [(None, 0.95), (False, 0.9)])
def test_astar_expands_fewer_states_with_the_index(
    monkeypatch: pytest.MonkeyPatch, keep_child_f: bool | None, at_most: float
) -> None:
    """On a board with ten colours (deep optima, many move orders) the index drops states
    the window misses: the same optimum, proven, with fewer states expanded; with the
    deferred children's levels kept (the default) and without (a node back for one makes
    all its children again, so more states are made to drop)."""
    board = random_board(12, 12, 10, 3)
    graph = RegionGraph.from_board(board)
    monkeypatch.setattr(astar_store, "FIRST_CAPACITY", 256)  # the index starts when the store grows
    monkeypatch.setattr(dominance, "START_TABLE_SLOTS", 0)
    monkeypatch.setattr(dominance, "MIN_WORDS", 0)
    astar_store.NodeStore._spare.clear()
    with_index = astar.search(graph, Control(Limits()), linear_moves(graph), keep_child_f=keep_child_f)
    monkeypatch.setattr(dominance, "TABLES", 0)
    astar_store.NodeStore._spare.clear()
    without = astar.search(graph, Control(Limits()), linear_moves(graph), keep_child_f=keep_child_f)
    astar_store.NodeStore._spare.clear()
    assert with_index.proven_optimal and without.proven_optimal
    assert len(with_index.codes) == len(without.codes)
    assert with_index.states < at_most * without.states, (with_index.states, without.states)


def test_the_index_stays_off_on_narrow_sets(monkeypatch: pytest.MonkeyPatch) -> None:
    """Below ``MIN_WORDS`` the store grows without an index (a lookup would cost more
    than the states it drops); from there it gets one once its table is big enough."""
    monkeypatch.setattr(dominance, "START_TABLE_SLOTS", 0)
    for words, indexed in ((dominance.MIN_WORDS - 1, False), (dominance.MIN_WORDS, True)):
        store = astar_store.NodeStore(words, 10, 64, 1 << 20)
        store.grow_nodes(1)
        store.grow_table(1)
        assert (store.supersets is not dominance.index_off(words)) == indexed
        assert (store.supersets.buckets.shape[0] == dominance.TABLES) == indexed


def test_a_longer_window_where_it_is_the_only_lookup(monkeypatch: pytest.MonkeyPatch) -> None:
    """Below ``MIN_WORDS`` (no index) the window holds ``NARROW_WINDOW`` sets per move
    count, and finds states the default window misses: the same optimum, proven, with
    fewer states expanded. Wider sets keep ``WINDOW``."""
    assert dominance.window_for(dominance.MIN_WORDS - 1) == dominance.NARROW_WINDOW > dominance.WINDOW
    assert dominance.window_for(dominance.MIN_WORDS) == dominance.WINDOW
    assert astar_store.NodeStore(dominance.MIN_WORDS - 1, 10, 64, 1 << 20).recent.shape[1] == dominance.NARROW_WINDOW
    assert astar_store.NodeStore(dominance.MIN_WORDS, 10, 64, 1 << 20).recent.shape[1] == dominance.WINDOW
    graph = RegionGraph.from_board(random_board(11, 11, 10, 3))
    assert graph.n_words < dominance.MIN_WORDS
    runs = []
    for window in (dominance.NARROW_WINDOW, dominance.WINDOW):
        monkeypatch.setattr(dominance, "NARROW_WINDOW", window)
        astar_store.NodeStore._spare.clear()
        runs.append(astar.search(graph, Control(Limits()), linear_moves(graph)))
    astar_store.NodeStore._spare.clear()
    longer, default = runs
    assert longer.proven_optimal and default.proven_optimal
    assert len(longer.codes) == len(default.codes)
    assert longer.states < default.states


@settings(STABLE, max_examples=100)
@given(boards(min_colours=3, max_colours=8, for_bfs=True))
def test_astar_with_a_tiny_growing_index_stays_exact(board: Board) -> None:
    """From a store of 16 records and an index of a few buckets (every state competes for
    their slots), rebuilt bigger each time the store's table grows, A* still proves the
    naive search's optimum."""
    optimum = naive.optimal_length(rows_of(board), board.start)
    graph = RegionGraph.from_board(board)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(astar_store, "FIRST_CAPACITY", 16)
        mp.setattr(dominance, "MIN_BUCKET_BITS", 0)
        mp.setattr(dominance, "START_TABLE_SLOTS", 0)
        mp.setattr(dominance, "MIN_WORDS", 0)
        astar_store.NodeStore._spare.clear()
        out = astar.search(graph, Control(Limits()), linear_moves(graph))
        astar_store.NodeStore._spare.clear()
    assert len(out.codes) == optimum and out.proven_optimal
    assert naive.solved(naive.play_all(rows_of(board), board.ids_of(out.codes), board.start))
