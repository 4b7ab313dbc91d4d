"""colorit: solve the Color-It (Flood-It) puzzle.

>>> from colorit import Board, solve
>>> board = Board.from_rows([[1, 2, 0, 0], [0, 1, 1, 0], [2, 2, 0, 1], [0, 0, 0, 1]])
>>> answer = solve(board, "astar")
>>> len(answer.moves), answer.proven_optimal
(4, True)
"""

from __future__ import annotations

from .board import Board
from .errors import BoardFormatError, ColoritError, OutputError, SolutionError
from .graph import RegionGraph
from .solvers import DEFAULT_ALGO, Control, Limits, Solution, get_solver, solve, solver_names

__version__ = "0.1.0"

__all__ = [
    "Board",
    "BoardFormatError",
    "ColoritError",
    "Control",
    "DEFAULT_ALGO",
    "Limits",
    "OutputError",
    "RegionGraph",
    "Solution",
    "SolutionError",
    "get_solver",
    "solve",
    "solver_names",
]
