"""``greedy``: the colour that floods the most cells now (ties: the lowest colour code).

It runs on the frontier lists (``colorit.game.play_lists``) in slices of moves, so it notices its
deadline; a greedy game cut short is finished by the basic AI, which is quick on any
board.
"""

from __future__ import annotations

from ..game import play_lists
from ..game.graph import RegionGraph
from .base import Control, Outcome, SliceBudget, one_game, register


def greedy_moves(graph: RegionGraph, control: Control | None = None) -> tuple[list[int], bool]:
    """Greedy's answer in colour codes, and whether it is greedy's own to the end (False
    when ``control`` stopped it and the basic AI finished it). A graph small enough for
    bitset adjacency plays in one call: its game takes microseconds."""
    if graph.adjacency_bits_fit:
        return play_lists.greedy_codes(graph), True
    g = play_lists.graph_lists(graph)
    state = play_lists.new_state(graph)
    done = SliceBudget(first=256, most=1 << 30).run(lambda budget: play_lists.greedy_run(g, state, budget), control)
    if not done:
        play_lists.linear_run(g, state, 1 << 62)
    return play_lists.moves_of(state), done


@register("greedy", "the colour that floods the most cells now (ties: smallest id)", rank=1)
def solve_greedy(graph: RegionGraph, control: Control) -> Outcome:
    return one_game(graph, control, *greedy_moves(graph, control))
