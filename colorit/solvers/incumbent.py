"""The quick answer every search starts from, and the rule that picks it.

The exact and improving searches (``astar``, ``dfs``, ``beam``, ``auto``) never store a
state that cannot beat their incumbent, so a good first answer saves them work:
``lookahead`` where a game of it takes milliseconds (bitset adjacency fits), ``greedy``
on bigger graphs, where a lookahead game would eat the time limit (both stop at the
deadline and are finished quickly if they must be). A search that will most likely prove the optimum
takes greedy's anyway (``cheap``): A* exhausts every level below the optimum whatever its
answer, and on pc19, b12c12 and floodtest it expanded within 0.1% as many nodes from
greedy's answer as from lookahead's, while lookahead's games took 0.07-0.1 s a thousand
boards against 0.02-0.04. An answer the caller already had
(``Control.seed``: a resumed run's) is used instead when it is shorter.
"""

from __future__ import annotations

from ..game.graph import RegionGraph, padded
from .base import Control
from .greedy import greedy_moves, greedy_rows
from .lookahead import lookahead_moves


def first_answer(graph: RegionGraph, control: Control | None = None, cheap: bool = False) -> list[int]:
    """The incumbent for a search on ``graph``, in colour codes; reported to ``control``
    (``cheap``: greedy's answer where lookahead's would fit)."""
    if graph.adjacency_bits_fit and not cheap:
        codes, _ = lookahead_moves(graph, control)
    elif graph.adjacency_bits_fit:  # (on the padded graph the search that follows takes)
        codes = greedy_rows(padded(graph))
    else:
        codes, _ = greedy_moves(graph, control)
    if control is not None and control.seed is not None and len(control.seed) < len(codes):
        codes = list(control.seed)
    if control is not None:
        control.improved(codes)
    return codes
