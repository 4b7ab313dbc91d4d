"""Replay positions: each one is the board after that many moves, cell by cell, with the
flood and its colour; the start and the solved end; bad moves refused before playing."""

from __future__ import annotations

import numpy as np
import pytest

from colorit import Board, SolutionError, solve
from colorit.game.generate import random_board
from colorit.render.replay import Replay


def test_every_position_is_the_board_after_its_moves() -> None:
    board = random_board(7, 9, 5, seed=4)
    moves = solve(board, "greedy").moves
    replay = Replay.of(board, moves)
    assert replay.n == len(moves) and replay.solved
    for k in range(replay.n + 1):
        grid, flood, code, ident = replay.position(k)
        assert np.array_equal(board.palette[grid], board.replay(moves[:k]))
        assert int(board.palette[code]) == ident
        assert (grid[flood] == code).all()
        if k:
            assert ident == moves[k - 1]
        # the flood is the start cell's region of one colour, and nothing beside it has it
        assert flood[board.start]
    start = replay.position(0)
    assert start.grid is board.codes and start.code == int(board.codes[board.start])
    assert start.ident == int(board.cells[board.start])
    assert replay.position(replay.n).flood.all()
    assert replay.flood_sizes() == [int(replay.flood(k).sum()) for k in range(replay.n + 1)]


def test_a_partial_replay_is_not_solved() -> None:
    board = Board.from_rows([[3, 7], [7, 9]])
    replay = Replay.of(board, [7])
    assert not replay.solved
    assert replay.position(1).flood.tolist() == [[True, True], [True, False]]
    assert replay.colour(1) == (1, 7) and replay.colour(0) == (0, 3)
    assert Replay.of(Board.from_rows([[4, 4]]), []).solved  # one colour from the start
    with pytest.raises(IndexError, match="positions 0 to 1, not 2"):
        replay.position(2)


@pytest.mark.parametrize(("moves", "message"), [([7, 8], "move 2: colour 8 does not occur"), ([True], "move 1 is not a colour id")])
def test_moves_the_board_lacks_are_refused(moves: list[int], message: str) -> None:
    with pytest.raises(SolutionError, match=message):
        Replay.of(Board.from_rows([[3, 7], [7, 9]]), moves)
