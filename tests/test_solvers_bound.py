"""The colour-elimination lower bound (``colorit.solvers.bound``): the list kernel
(``lower_bound``/``elimination_bound``) counts the moves, the bitset kernel
(``elimination_bound_bits``) counts the same and adds one when the count's last
colour-blind step, or the one before it, cannot be a real move (``bound_steps``, whose
hand cases are in ``test_solvers_bound_steps``); neither exceeds the true optimum found by the
naive exhaustive search, from the start and from positions reached by random moves, and
at a limit each returns its bound or, past it, a value above the limit and not above the
bound."""

from __future__ import annotations

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from colorit import Board, RegionGraph
from colorit.game.bitset import count, from_bits, pad_words, to_bits
from colorit.game.graph import adjacency_bits, padded
from colorit.game.play_bits import play
from colorit.solvers.bound import bound_bits, elimination_bound_bits, lower_bound

import naive
from boardgen import STABLE, boards, front_of, rows_of
from conftest import HAND_ROWS


def bits_bound(graph: RegionGraph, flooded: np.ndarray, pad: int = 0, limit: int = 1 << 62) -> int:
    """``elimination_bound_bits`` on the bitset adjacency, with ``pad`` extra zero words
    on every set (the searches pad sets to a fixed width)."""
    adj = adjacency_bits(graph)
    masks = graph.colour_mask
    fl, fr = flooded, front_of(graph, flooded)
    if pad:
        fl = np.concatenate([fl, np.zeros(pad, np.uint64)])
        fr = np.concatenate([fr, np.zeros(pad, np.uint64)])
        adj = np.concatenate([adj, np.zeros((adj.shape[0], pad), np.uint64)], axis=1)
        masks = np.concatenate([masks, np.zeros((masks.shape[0], pad), np.uint64)], axis=1)
    return int(elimination_bound_bits(fl, fr, masks, adj, limit))


def refines(listed: int, bits: int) -> bool:
    """The bitset kernel's value against the list kernel's: the same, or one more where
    a step's test adds a move."""
    return listed <= bits <= listed + 1


def at_limit(bound: int, got: int, limit: int) -> bool:
    """A kernel's answer at ``limit``: its ``bound`` when within the limit, else a value
    above the limit and not above the bound."""
    return got == bound if bound <= limit else limit < got <= bound


def colours_left(graph: RegionGraph, flooded: np.ndarray) -> int:
    """Colours with a region outside the flood: each needs at least one more move."""
    inside = set(from_bits(flooded))
    return len({int(graph.region_colour[r]) for r in range(graph.n_regions) if r not in inside})


def states_along(graph: RegionGraph, moves: list[int]) -> list[np.ndarray]:
    """The flooded sets after each prefix of ``moves`` (codes), the start included."""
    flooded = graph.initial_state()
    front = front_of(graph, flooded)
    out = [flooded.copy()]
    for m in moves:
        play(flooded, front, graph.colour_mask, m, graph.adj_ptr, graph.adj_idx)
        out.append(flooded.copy())
    return out


# -- by hand ------------------------------------------------------------------------


def test_hand_board() -> None:
    g = RegionGraph.from_board(Board.from_rows(HAND_ROWS))
    # from region 0 (colour 1): layer {1 (2), 3 (0)}: no colour complete, blind step (1);
    # layer {2, 4, 5}: colour 2 complete (R1, R5 taken) (2); layer {2, 4, 6}: colour 0
    # complete (3); layer {4, 7}: colour 1 complete (4)
    assert lower_bound(g) == 4 == naive.optimal_length(HAND_ROWS)
    assert bits_bound(g, g.initial_state()) == 4
    # after 0, 2 (regions 0, 1, 3, 5 flooded) two moves remain: 0 then 1
    flooded = to_bits([0, 1, 3, 5], g.n_regions)
    assert lower_bound(g, flooded) == 2 == bits_bound(g, flooded)
    everything = to_bits(list(range(8)), g.n_regions)
    assert lower_bound(g, everything) == 0 == bits_bound(g, everything)


def test_one_colour_and_one_cell() -> None:
    for rows in ([[3]], [[7, 7], [7, 7]]):
        g = RegionGraph.from_board(Board.from_rows(rows))
        assert lower_bound(g) == 0 == bits_bound(g, g.initial_state())


def test_two_colours() -> None:
    # from the middle column one move takes both side columns
    g = RegionGraph.from_board(Board.from_rows([[2, 1, 2], [2, 1, 2]], start=(1, 1)))
    assert lower_bound(g) == 1 == bits_bound(g, g.initial_state())
    # from the middle of 1,2,1,2,1: play 2 (both 2s), then 1 (both ends)
    g = RegionGraph.from_board(Board.from_rows([[1, 2, 1, 2, 1]], start=(0, 2)))
    assert lower_bound(g) == 2 == bits_bound(g, g.initial_state())


def test_strip_needs_one_move_per_region_beyond_the_start() -> None:
    # all colours distinct along a strip: every region costs a move
    rows = [list(range(9))]
    for start in ((0, 0), (0, 4), (0, 8)):
        g = RegionGraph.from_board(Board.from_rows(rows, start=start))
        assert lower_bound(g) == 8 == naive.optimal_length(rows, start)


# -- random boards ------------------------------------------------------------------


@settings(STABLE, max_examples=250)
@given(boards(min_colours=2, max_colours=8, for_bfs=True, wide_ids=False))
def test_bound_never_exceeds_optimum(board: Board) -> None:
    rows = rows_of(board)
    g = RegionGraph.from_board(board)
    bound = lower_bound(g)
    bits = bits_bound(g, g.initial_state())
    assert refines(bound, bits)
    assert bits <= naive.optimal_length(rows, board.start)
    assert bound >= colours_left(g, g.initial_state())
    assert (bits == 0) == (bound == 0) == (g.n_regions == 1)


@settings(STABLE, max_examples=150)
@given(
    boards(min_colours=2, max_colours=8, for_bfs=True, wide_ids=False),
    st.lists(st.integers(0, 7), min_size=1, max_size=6),
)
def test_bound_along_a_game(board: Board, picks: list[int]) -> None:
    """From each position random moves reach, the bound is admissible for what remains,
    and is 0 exactly when everything is flooded."""
    rows = rows_of(board)
    g = RegionGraph.from_board(board)
    moves = [p % g.n_colours for p in picks]
    for i, flooded in enumerate(states_along(g, moves)):
        bound = lower_bound(g, flooded)
        bits = bits_bound(g, flooded)
        assert refines(bound, bits)
        # four words and more: the step before the last is tested too
        wide = bits_bound(g, flooded, pad=3)
        assert bits <= wide and refines(bound, wide)
        done = count(flooded) == g.n_regions
        assert (bound == 0) == (bits == 0) == (wide == 0) == done
        assert bound >= colours_left(g, flooded)
        if not done:
            grid = naive.play_all(board.codes.tolist(), moves[:i], board.start)
            assert wide <= naive.optimal_length([list(r) for r in grid], board.start)
    assert rows == rows_of(board)


@settings(STABLE, max_examples=100)
@given(boards(max_side=16, min_colours=2, max_colours=20, wide_ids=False), st.lists(st.integers(0, 19), max_size=30))
def test_kernels_agree_on_bigger_boards(board: Board, picks: list[int]) -> None:
    """Boards past one 64-bit word of regions: the bitset kernel's value is the list
    kernel's or one more."""
    g = RegionGraph.from_board(board)
    moves = [p % g.n_colours for p in picks]
    for flooded in states_along(g, moves):
        bound = lower_bound(g, flooded)
        assert refines(bound, bits_bound(g, flooded))
        assert bound >= colours_left(g, flooded)
        assert (bound == 0) == (count(flooded) == g.n_regions)


@settings(STABLE, max_examples=100)
@given(boards(max_side=12, min_colours=2, max_colours=10, wide_ids=False), st.lists(st.integers(0, 9), max_size=12))
def test_limit_stops_early_with_a_lower_value_past_it(board: Board, picks: list[int]) -> None:
    """Given a limit, each kernel returns its bound when it is within the limit, and
    otherwise a value above the limit and not above the bound (what a search needs to
    reject a node, found without the rest of the work)."""
    g = RegionGraph.from_board(board)
    moves = [p % g.n_colours for p in picks]
    for flooded in states_along(g, moves):
        bound = lower_bound(g, flooded)
        bits = bits_bound(g, flooded)
        wide = bits_bound(g, flooded, pad=2)
        for limit in range(wide + 2):
            assert at_limit(bound, lower_bound(g, flooded, limit), limit)
            assert at_limit(bits, bits_bound(g, flooded, limit=limit), limit)
            assert at_limit(wide, bits_bound(g, flooded, pad=2, limit=limit), limit)


@settings(STABLE, max_examples=30)
@given(st.integers(0, 2**32 - 1), st.integers(60, 100), st.lists(st.integers(0, 99), max_size=25))
def test_kernels_agree_past_64_colours(seed: int, colours: int, picks: list[int]) -> None:
    """The bitset kernel keeps the colours present in one word up to 64 colours and tests
    every mask past that (``bound_bits_many_colours``, the plain count): each agrees
    with the list kernel, the first within one, at every limit, on either side of 64
    colours."""
    rng = np.random.default_rng(seed)
    board = Board(rng.integers(0, colours, size=(12, 12)), (int(rng.integers(12)), int(rng.integers(12))))
    g = RegionGraph.from_board(board)
    assert (g.n_colours > 64) == (len(np.unique(board.cells)) > 64)
    moves = [p % g.n_colours for p in picks]
    many = g.n_colours > 64
    for flooded in states_along(g, moves):
        bound = lower_bound(g, flooded)
        bits = bits_bound(g, flooded)
        assert bits == bound if many else refines(bound, bits)
        assert bits == bits_bound(g, flooded, pad=1) if many else refines(bound, bits_bound(g, flooded, pad=1))
        for limit in (bound - 2, bound - 1, bound):
            assert at_limit(bits, bits_bound(g, flooded, limit=limit), limit)


@settings(STABLE, max_examples=60)
@given(boards(max_side=14, min_colours=2, max_colours=12, wide_ids=False), st.lists(st.integers(0, 11), max_size=20))
def test_search_width_kernel_agrees(board: Board, picks: list[int]) -> None:
    """At the searches' compile-time widths (the padded graph, with its colours' rows,
    as A*, beam and the deepening search call it), the bitset kernel gives the value it
    gives at the sets' own width, within one of the list kernel's, at every limit."""
    g = RegionGraph.from_board(board)
    pg = padded(g)
    words = len(pg.root)
    assert isinstance(pg.shape, tuple)
    moves = [p % g.n_colours for p in picks]
    for flooded in states_along(g, moves):
        fl, fr = pad_words(flooded, words), pad_words(front_of(g, flooded), words)
        bits = bits_bound(g, flooded)
        assert refines(lower_bound(g, flooded), bits)
        for limit in range(bits + 2):
            got = bound_bits(fl, fr, pg.arrays.colour_mask, pg.colour_adj, pg.adj_bits, pg.shape, limit)
            assert got == bits_bound(g, flooded, limit=limit)


@settings(STABLE, max_examples=25)
@given(st.sampled_from([(17, 8), (20, 6), (22, 8), (24, 8), (25, 9)]), st.integers(1, 10_000),
       st.lists(st.integers(0, 8), min_size=1, max_size=30))
def test_the_vectorised_widths_agree_with_the_list_kernel(size_colours: tuple[int, int], seed: int,
                                                          picks: list[int]) -> None:
    """At 4 to 8 words, the widths ``bound_bits`` is compiled for with LLVM's SLP
    vectorizer on (``SUPERWORD_MIN_WORDS``), it gives what its run-time-width compile
    gives (no vectorizing) at every limit, within one of the list kernel's (no bitsets),
    along random games."""
    from colorit.game.generate import random_board
    from colorit.solvers.bound import SUPERWORD_MIN_WORDS

    side, colours = size_colours
    g = RegionGraph.from_board(random_board(side, side, colours, seed=seed))
    pg = padded(g)
    words = len(pg.root)
    assume(SUPERWORD_MIN_WORDS <= words <= 8)  # (a few 25x25 boards pass 512 regions)
    assert isinstance(pg.shape, tuple)
    moves = [p % g.n_colours for p in picks]
    for flooded in states_along(g, moves):
        fl, fr = pad_words(flooded, words), pad_words(front_of(g, flooded), words)
        bits = bits_bound(g, flooded)
        assert refines(lower_bound(g, flooded), bits)
        for limit in (0, bits // 2, bits - 1, bits, bits + 3):
            got = bound_bits(fl, fr, pg.arrays.colour_mask, pg.colour_adj, pg.adj_bits, pg.shape, limit)
            assert got == bound_bits(fl, fr, pg.arrays.colour_mask, pg.colour_adj, pg.adj_bits, fl, limit)


def test_the_sizes_of_the_vectorised_test_cover_every_vectorised_width() -> None:
    """The boards the test above draws from land at every width from 4 to 8 words."""
    from colorit.game.generate import random_board

    widths = {len(padded(RegionGraph.from_board(random_board(s, s, c, seed=1))).root)
              for s, c in [(17, 8), (20, 6), (22, 8), (24, 8), (25, 9)]}
    assert widths == {4, 5, 6, 7, 8}
