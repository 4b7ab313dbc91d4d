"""``linear``: the original project's basic AI, kept as the baseline to compare with.

Scanning the board left to right and top to bottom, it plays the colour of the first
region it meets that borders the flood: the lowest-numbered frontier region, as regions
are numbered by their first cell in reading order. It runs on the frontier lists (``colorit.game.play_lists``), so it answers in
milliseconds on any board, which is why every solve holds its answer from the start.
"""

from __future__ import annotations

from ..game.graph import RegionGraph
from ..game.play_lists import linear_codes
from .base import Control, Outcome, one_game, register


def linear_moves(graph: RegionGraph) -> list[int]:
    """The basic AI's answer in colour codes."""
    return linear_codes(graph)


@register(
    "linear",
    "the original basic AI: the colour of the first region, scanning left to right and top to bottom, that borders the flood",
    aliases=("basic",),
    rank=0,
)
def solve_linear(graph: RegionGraph, control: Control) -> Outcome:
    return one_game(graph, control, linear_codes(graph), True)
