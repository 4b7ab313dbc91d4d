"""TEMPORARY placeholder while the real dfs solver is written: answers with greedy."""
from __future__ import annotations
from ..graph import RegionGraph
from .base import Control, Outcome, register
from .greedy import greedy_moves

@register("dfs", "placeholder")
def solve_dfs(graph: RegionGraph, control: Control) -> Outcome:
    codes = greedy_moves(graph)
    control.improved(codes)
    return Outcome(codes, proven_optimal=False, lower_bound=0)
