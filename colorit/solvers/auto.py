"""``auto`` (the default): an answer at once, then the exact search until it is proven or
a limit is reached.

The first answer comes from ``lookahead`` (``greedy`` on graphs too big for bitset
adjacency); it also bounds what A* stores, which is why it is worked out before A*
starts rather than on demand. A* then either proves it optimal or finds better. A*
improves its answer only when it reaches the optimum, so when it is still running after
a quarter of the time limit, the depth-first search (which improves step by step) gets a
third of the time left to improve the answer, and A* goes on with the better bound. If
A* stops on its memory cap with time left, the depth-first search (bounded memory)
carries on from the best answer. On graphs wider than A*'s compiled widths (over 512
regions) A* would not finish, so the depth-first search runs instead. Either way the
answer is the best found, with the best lower bound known.
"""

from __future__ import annotations

from ..graph import RegionGraph
from . import astar, dfs
from .base import Control, Outcome, register
from .lookahead import first_answer

#: Share of the time limit after which the depth-first search helps A*.
IMPROVE_AFTER = 0.25


@register("auto", "an answer at once, then A* until proven optimal or out of time or memory", exact=True, aliases=("default",))
def solve_auto(graph: RegionGraph, control: Control) -> Outcome:
    best = first_answer(graph)
    control.improved(best)
    lower = 0
    states = 0
    if graph.n_words <= max(astar.WIDTH_TIERS):

        def improve(current: list[int]) -> Outcome:
            # A* is taking long: let the depth-first search improve the answer for a
            # third of the time left, then A* goes on with the better bound
            return dfs.search(graph, control.sub(time_share=1 / 3), current)

        helpers: list[astar.Helper] = []
        if control.deadline != float("inf"):
            helpers.append((control.started + IMPROVE_AFTER * (control.deadline - control.started), improve))
        out = astar.search(graph, control, best, helpers)
        if out.proven_optimal or out.stopped != "memory":
            return out
        best, lower, states = out.codes, out.lower_bound, out.states
    out = dfs.search(graph, control, best)
    out.lower_bound = max(out.lower_bound, lower)
    out.states += states
    if out.lower_bound >= len(out.codes):
        out.proven_optimal = True
    return out
