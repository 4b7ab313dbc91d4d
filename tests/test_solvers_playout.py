"""The greedy playout (``colorit.solvers.playout``): a real game, and the same game from each of
its positions. The beam relies on the second: the child a parent's playout goes on to
is ranked by the parent's playout less one move, without playing it again."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from colorit import Board, RegionGraph
from colorit.game.graph import adjacency_bits
from colorit.game.play_bits import eliminating_colour, play
from colorit.solvers.playout import greedy_playout, playout_moves, size_bits

from boardgen import STABLE, boards, front_of

NO_LIMIT = 1 << 62


def playout(graph: RegionGraph, flooded: np.ndarray, limit: int = NO_LIMIT) -> tuple[int, list[int]]:
    """The playout's value under ``limit`` from ``flooded``, and the moves it played."""
    nb = np.zeros((graph.n_colours, graph.n_words), dtype=np.uint64)
    moves = np.full(graph.n_regions + graph.n_colours, -1, dtype=np.int64)
    sizes = size_bits(graph.region_size, graph.n_words)
    n = greedy_playout(flooded, front_of(graph, flooded), graph.arrays(), adjacency_bits(graph), sizes, flooded, nb,
                       limit, moves)
    return int(n), [int(c) for c in moves if c >= 0]


def after(graph: RegionGraph, flooded: np.ndarray, colour: int) -> np.ndarray:
    child = flooded.copy()
    play(child, front_of(graph, flooded), graph.colour_mask, colour, graph.adj_ptr, graph.adj_idx)
    return child


@STABLE
@given(boards(max_side=9, min_colours=2, max_colours=7))
def test_playout_is_a_real_game(board: Board) -> None:
    graph = RegionGraph.from_board(board)
    moves = playout_moves(graph)
    assert len(moves) == playout(graph, graph.initial_state())[0]
    board.check_codes(np.array(moves))  # raises unless the board ends in one colour


@STABLE
@given(boards(max_side=9, min_colours=2, max_colours=7))
def test_each_move_of_the_playout_leaves_the_same_game_one_move_shorter(board: Board) -> None:
    graph = RegionGraph.from_board(board)
    state = graph.initial_state()
    length, moves = playout(graph, state)
    for k, colour in enumerate(moves):
        state = after(graph, state, colour)
        assert playout(graph, state)[0] == length - k - 1


@STABLE
@given(boards(max_side=9, min_colours=2, max_colours=7), st.integers(0, 12))
def test_a_playout_stopped_at_its_limit_stops_one_move_sooner_after_its_first_move(board: Board, limit: int) -> None:
    graph = RegionGraph.from_board(board)
    state = graph.initial_state()
    value, moves = playout(graph, state, limit)
    front = front_of(graph, state)
    if value <= limit or not moves or eliminating_colour(state, front, graph.colour_mask, state) >= 0:
        return  # finished within the limit, stopped at once, or began with colours played alone
    assert playout(graph, after(graph, state, moves[0]), limit - 1)[0] == value - 1


@STABLE
@given(st.lists(st.integers(1, 1000), min_size=1, max_size=200), st.data())
def test_size_bits_count_the_cells_of_any_set_of_regions(sizes: list[int], data: st.DataObject) -> None:
    words = (len(sizes) + 63) // 64
    planes = size_bits(np.array(sizes, dtype=np.int64), words)
    chosen = data.draw(st.sets(st.integers(0, len(sizes) - 1)))
    bits = np.zeros(words, dtype=np.uint64)
    for r in chosen:
        bits[r >> 6] |= np.uint64(1) << np.uint64(r & 63)
    cells = sum(bin(int(bits[w] & planes[k, w])).count("1") << k for k in range(planes.shape[0]) for w in range(words))
    assert cells == sum(sizes[r] for r in chosen)
