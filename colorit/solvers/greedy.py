"""``greedy``: the colour that floods the most cells now (ties: the lowest colour code).

It runs on the frontier lists (``colorit.game.play_lists``) in slices of moves, so it notices its
deadline; a greedy game cut short is finished by the basic AI, which is quick on any
board.
"""

from __future__ import annotations

from ..game import play_lists as frontier
from ..game.graph import RegionGraph
from .base import Control, Outcome, SliceBudget, register


def greedy_moves(graph: RegionGraph, control: Control | None = None) -> tuple[list[int], bool]:
    """Greedy's answer in colour codes, and whether it is greedy's own to the end (False
    when ``control`` stopped it and the basic AI finished it)."""
    g = frontier.graph_lists(graph)
    state = frontier.new_state(graph)
    budget = SliceBudget(first=256, most=1 << 30)
    done = False
    while not done:
        if control is not None and control.should_stop():
            break
        done = bool(frontier.greedy_run(g, state, budget.start(control.remaining() if control is not None else float("inf"))))
        budget.done()
    if not done:
        frontier.linear_run(g, state, 1 << 62)
    return frontier.moves_of(state), done


@register("greedy", "the colour that floods the most cells now (ties: smallest id)", rank=1)
def solve_greedy(graph: RegionGraph, control: Control) -> Outcome:
    codes, whole = greedy_moves(graph, control)
    control.improved(codes)
    return Outcome(codes, proven_optimal=graph.n_regions == 1, lower_bound=0, states=len(codes),
                   stopped="" if whole else control.stop_reason)
