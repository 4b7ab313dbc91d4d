"""The quick answer every search starts from, and the rule that picks it.

The exact and improving searches (``astar``, ``dfs``, ``beam``, ``auto``) never store a
state that cannot beat their incumbent, so a good first answer saves them work:
``lookahead`` where a game of it takes milliseconds (bitset adjacency fits), ``greedy``
on bigger graphs, where a lookahead game would eat the time limit (both stop at the
deadline and are finished quickly if they must be). An answer the caller already had
(``Control.seed``: a resumed run's) is used instead when it is shorter.
"""

from __future__ import annotations

from ..game.graph import RegionGraph
from .base import Control
from .greedy import greedy_moves
from .lookahead import lookahead_moves


def first_answer(graph: RegionGraph, control: Control | None = None) -> list[int]:
    """The incumbent for a search on ``graph``, in colour codes; reported to ``control``."""
    if graph.adjacency_bits_fit:
        codes, _ = lookahead_moves(graph, control)
    else:
        codes, _ = greedy_moves(graph, control)
    if control is not None and control.seed is not None and len(control.seed) < len(codes):
        codes = list(control.seed)
    if control is not None:
        control.improved(codes)
    return codes
