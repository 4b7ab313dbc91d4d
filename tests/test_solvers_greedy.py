"""``colorit.solvers.greedy``: greedy played on the padded graph's bitset rows
(``greedy_rows``, the exact searches' first answer) gives exactly the moves of the naive
reference on cells and of the game on the frontier lists, at compiled widths and at
run-time widths; ``first_answer`` takes it where it is cheap."""

from __future__ import annotations

import pytest
from hypothesis import given

from colorit import Board, RegionGraph
from colorit.game import play_lists
from colorit.game.bitset import WIDTH_TIERS
from colorit.game.generate import random_board
from colorit.game.graph import padded
from colorit.solvers.greedy import greedy_rows
from colorit.solvers.incumbent import first_answer

import naive
from boardgen import STABLE, boards, rows_of


@STABLE
@given(boards(max_side=9, max_colours=10))
def test_greedy_on_rows_matches_the_cell_reference(board: Board) -> None:
    graph = RegionGraph.from_board(board)
    moves = greedy_rows(padded(graph))
    assert board.ids_of(moves) == naive.greedy_moves(rows_of(board), board.start)
    assert first_answer(graph, cheap=True) == moves


@pytest.mark.parametrize(("side", "colours", "seed"), [(24, 4, 1), (19, 6, 2), (16, 10, 3)])
def test_greedy_on_rows_matches_the_lists_on_big_boards(side: int, colours: int, seed: int) -> None:
    graph = RegionGraph.from_board(random_board(side, side, colours, seed))
    moves = greedy_rows(padded(graph))
    assert moves == play_lists.greedy_codes(graph)
    assert len(moves) > 10


def test_a_run_time_width_plays_the_same_game() -> None:
    graph = RegionGraph.from_board(random_board(30, 30, 10, 3))
    assert graph.n_words > max(WIDTH_TIERS) and graph.adjacency_bits_fit  # (the kernel's sets on the heap, its loops at run time)
    assert greedy_rows(padded(graph)) == play_lists.greedy_codes(graph)
