"""The positions of a replay, as every renderer draws them.

``Board.flood_steps`` describes a whole replay in one array: after move ``k`` the flood
is the cells with ``0 <= steps <= k``, all of the colour of move ``k`` (the start cell's
colour before the first move), and every other cell keeps its own. ``Replay`` holds that
array with the moves, and gives each position as the grid of colour codes to draw, the
flood and its colour, so that the pictures and the terminal show the same positions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from ..game.board import Board


class Position(NamedTuple):
    """The board after some moves: the grid of colour codes, the flood (a boolean grid),
    and the flood's colour as a code and as the board's id."""

    grid: np.ndarray
    flood: np.ndarray
    code: int
    ident: int


@dataclass(frozen=True, eq=False)
class Replay:
    """``moves`` (colour ids) played on ``board``: ``n + 1`` positions, the start first."""

    board: Board
    move_ids: tuple[int, ...]
    move_codes: tuple[int, ...]
    steps: np.ndarray  #: ``board.flood_steps(moves)``

    @classmethod
    def of(cls, board: Board, moves: Sequence[int]) -> Replay:
        """The replay of ``moves``; ``SolutionError`` for a move that is not one of the
        board's colour ids (moves that leave the board unsolved are fine)."""
        codes = board.codes_of(moves)  # checks every move before anything is played
        return cls(board, tuple(int(m) for m in moves), tuple(codes.tolist()), board.flood_steps(moves))

    @property
    def n(self) -> int:
        """The number of moves."""
        return len(self.move_ids)

    @property
    def solved(self) -> bool:
        """Whether the last position is one colour."""
        return self.board.n_colours == 1 or bool((self.steps >= 0).all())

    def colour(self, k: int) -> tuple[int, int]:
        """The flood's colour after ``k`` moves as ``(code, id)``."""
        if k == 0:
            start = self.board.start
            return int(self.board.codes[start]), int(self.board.cells[start])
        return self.move_codes[k - 1], self.move_ids[k - 1]

    def flood(self, k: int) -> np.ndarray:
        """The cells flooded after ``k`` moves."""
        return (self.steps >= 0) & (self.steps <= k)

    def flood_sizes(self) -> list[int]:
        """The number of flooded cells after each move, from the start (``n + 1`` counts)."""
        joined = self.steps[self.steps >= 0]
        return np.cumsum(np.bincount(joined, minlength=self.n + 1)).tolist()  # type: ignore[no-any-return]

    def position(self, k: int) -> Position:
        """The board after ``k`` moves (0: the start board, ``n``: the last position)."""
        if not 0 <= k <= self.n:
            raise IndexError(f"a replay of {self.n} moves has positions 0 to {self.n}, not {k}")
        flood = self.flood(k)
        code, ident = self.colour(k)
        codes = self.board.codes
        grid = codes if k == 0 else np.where(flood, code, codes)
        return Position(grid, flood, code, ident)
