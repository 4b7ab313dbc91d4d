"""``auto`` (the default): an answer at once, then the exact search until it is proven or
a limit is reached.

The first answer comes from ``lookahead`` (``greedy`` on graphs too big for bitset
adjacency); it also bounds what A* stores, which is why it is worked out before A*
starts rather than on demand. A* then either proves it optimal or finds better. A*
improves its answer only when it reaches the optimum, so when it is still running after
a tenth of the time limit (half a second at most), beam passes of growing width
(``beam``, ranked by greedy playouts) improve the answer, and A* goes on with the better
bound (an answer that meets A*'s lower bound ends the search: it is proven). With a
short limit the beam gets most of the time left, since its answer is usually the one
written; with a long one a few seconds. If A* stops on
its memory cap with time left, or the graph is wider than A*'s compiled widths (over 512
regions, where A* would not finish), beam passes improve the answer for half the time
left and the depth-first search (bounded memory) carries on from it. Either way the
answer is the best found, with the best lower bound known.
"""

from __future__ import annotations

from ..graph import RegionGraph
from . import astar, beam, dfs
from .base import Control, Outcome, register
from .incumbent import first_answer

#: When beam passes help A*: after this share of the time limit (at most
#: ``IMPROVE_AFTER_MOST_S``), for this share of the time left, at most
#: ``IMPROVE_MOST_S`` plus ``IMPROVE_MOST_SHARE`` of the limit. With a short limit
#: (milliseconds a board) most boards are not proven in time and the beam's answer is the
#: one written, so it gets most of the time; with a long one A* keeps most of it, and the
#: beam's answer mainly tightens what A* stores.
IMPROVE_AFTER = 0.1
IMPROVE_AFTER_MOST_S = 0.5
IMPROVE_SHARE = 0.8
IMPROVE_MOST_S = 2.0
IMPROVE_MOST_SHARE = 0.05
#: Widest beam pass before the depth-first search when there is no time limit.
FALLBACK_BEAM_WIDTH = 1024


@register("auto", "an answer at once, then A* until proven optimal or out of time or memory", exact=True, aliases=("default",), rank=6)
def solve_auto(graph: RegionGraph, control: Control) -> Outcome:
    best = first_answer(graph, control)
    lower = 0
    states = 0
    if graph.n_words <= max(astar.WIDTH_TIERS):

        def improve(current: list[int]) -> Outcome:
            # A* is taking long: let beam passes improve the answer for a third of the
            # time left, then A* goes on with the better bound
            limit = control.deadline - control.started
            most = IMPROVE_MOST_S + IMPROVE_MOST_SHARE * limit
            return beam.search(graph, control.sub(time_share=IMPROVE_SHARE, most_s=most), current)

        helpers: list[astar.Helper] = []
        if control.deadline != float("inf"):
            limit = control.deadline - control.started
            helpers.append((control.started + min(IMPROVE_AFTER * limit, IMPROVE_AFTER_MOST_S), improve))
        out = astar.search(graph, control, best, helpers)
        if out.proven_optimal or out.stopped != "memory":
            return out
        best, lower, states = out.codes, out.lower_bound, out.states
    if not control.should_stop():
        # no proof in reach: beam passes improve the answer fast (half the time left, or
        # up to a moderate width without a limit), the depth-first search goes on from it
        timed = control.deadline != float("inf")
        quick = beam.search(graph, control.sub(time_share=0.5), best, beam.MAX_WIDTH if timed else FALLBACK_BEAM_WIDTH)
        best, lower, states = quick.codes, max(lower, quick.lower_bound), states + quick.states
        if quick.proven_optimal:
            return Outcome(best, True, len(best), states)
    out = dfs.search(graph, control, best)
    out.lower_bound = max(out.lower_bound, lower)
    out.states += states
    if out.lower_bound >= len(out.codes):
        out.proven_optimal = True
    return out
