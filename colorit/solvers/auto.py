"""TEMPORARY placeholder while the real auto solver is written: answers with greedy."""
from __future__ import annotations
from ..graph import RegionGraph
from .base import Control, Outcome, register
from .greedy import greedy_moves

@register("auto", "placeholder")
def solve_auto(graph: RegionGraph, control: Control) -> Outcome:
    codes = greedy_moves(graph)
    control.improved(codes)
    return Outcome(codes, proven_optimal=False, lower_bound=0)
