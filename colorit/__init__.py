"""colorit: solve the Color-It (Flood-It) puzzle.

>>> from colorit import Board, solve
>>> board = Board.from_rows([[1, 2, 0, 0], [0, 1, 1, 0], [2, 2, 0, 1], [0, 0, 0, 1]])
>>> answer = solve(board, "astar")
>>> len(answer.moves), answer.proven_optimal
(4, True)

The names below are loaded on first use, so ``colorit --help`` and other light commands
start without numpy or numba.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .errors import BoardFormatError, ColoritError, OutputError, SolutionError

__version__ = "1.0.0"

#: Public name -> the module that defines it.
_LAZY = {
    "Board": ".game.board",
    "RegionGraph": ".game.graph",
    "Limits": ".limits",
    "DEFAULT_ALGO": ".solvers",
    "Control": ".solvers",
    "Solution": ".solvers",
    "get_solver": ".solvers",
    "solve": ".solvers",
    "solver_names": ".solvers",
}

__all__ = [
    "DEFAULT_ALGO",
    "Board",
    "BoardFormatError",
    "ColoritError",
    "Control",
    "Limits",
    "OutputError",
    "RegionGraph",
    "Solution",
    "SolutionError",
    "get_solver",
    "solve",
    "solver_names",
]

if TYPE_CHECKING:
    from .game.board import Board
    from .game.graph import RegionGraph
    from .limits import Limits
    from .solvers import (
        DEFAULT_ALGO,
        Control,
        Solution,
        get_solver,
        solve,
        solver_names,
    )


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name], __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'colorit' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
