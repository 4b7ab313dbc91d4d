"""``auto`` (the default): an answer at once, then the exact search until it is proven or
a limit is reached.

The first answer comes from ``lookahead`` (``greedy`` on graphs too big for bitset
adjacency); it also bounds what A* stores, which is why it is worked out before A*
starts rather than on demand. A* then either proves it optimal or finds better. A*
improves its answer only when it reaches the optimum, so while it runs, beam passes of
growing width (``beam``, ranked by greedy playouts) take turns to improve the answer,
and A* goes on with the better bound (an answer that meets A*'s lower bound ends the
search: it is proven). With a short limit the beam gets most of the time left, since
its answer is usually the one written, unless A*'s level comes within a move of it and
a pass finds nothing shorter. Otherwise one narrow pass comes a few
milliseconds in (the first answer is often moves too long, and A* stores every child
that beats it), then turns of a quarter of the time spent, at half a second, 2 s, 8 s
and so on (see ``_helpers``), halved after each turn that finds nothing shorter when
the limit is a minute or more. At its memory cap A* goes on within it (``deepening``).
On graphs wider than A*'s compiled widths (over 512 regions, where A* would not
finish), beam passes improve the answer for half the time left and the depth-first
search (bounded memory) carries on from it. Either way the answer is the
best found, with the best lower bound known.
"""

from __future__ import annotations

from collections.abc import Callable

from ..game.bitset import WIDTH_TIERS
from ..game.graph import RegionGraph
from . import astar, beam, dfs
from .base import Control, Outcome, register
from .incumbent import first_answer

#: When beam passes help A*. With a short limit (at most ``SHORT_LIMIT_S``: milliseconds
#: a board) most boards are not proven in time and the beam's answer is the one written,
#: so one turn after ``IMPROVE_AFTER`` of the limit gets ``IMPROVE_SHARE`` of the time left
#: (all of it unless handed back, below: floodtest at 0.01 s, CPU-time budgets, 19,899
#: against 19,929 with 0.8, 29 boards shorter and none longer; the same totals at 0.2 s
#: and on b24c6 at 1 s). A graph A* does not prove in milliseconds (not
#: ``astar.is_small``) gets its turn sooner under a limit of ``beam.TINY_LIMIT_S`` or less,
#: after ``IMPROVE_AFTER_TINY``: A* proves few of them in time (floodtest at 0.01 s:
#: 19,888 against 19,898 moves, at 0.02 s and 0.05 s the same totals).
#: With a longer one (or none) A* keeps most of the time: turns at ``HELP_FIRST_S`` and
#: then ``HELP_GROWTH`` times later each, each for ``HELP_SHARE`` of the time spent so far,
#: the beam widening from turn to turn; its answers tighten what A* stores and, when they
#: meet A*'s bound, end the search. A board A* proves in half a second never pays for it.
SHORT_LIMIT_S = 2.0
IMPROVE_AFTER = 0.1
IMPROVE_AFTER_TINY = 0.04
IMPROVE_SHARE = 1.0
#: That turn gives the rest back to A* once the answer is within ``HAND_BACK_GAP`` moves
#: of A*'s level and a pass (past the first) finds nothing shorter: A* is then near a
#: proof, or the answer is optimal already. (floodtest at 0.2 s: the same total, 0.85 of
#: the time, more boards proven in it; b24c6 at 1 s, where A*'s level stays moves below,
#: the same total. Handing back after any unimproved pass lost 7 moves in 200 b24c6
#: boards.)
HAND_BACK_GAP = 1
HELP_FIRST_S = 0.5
#: Before those, one narrow beam pass (``EARLY_WIDTH``) once A* has run ``EARLY_HELP_S``
#: unproven: lookahead's answer is often several moves long (floodtest: 3.2 a board over
#: the optimum), and A* stores every child that beats its answer, so until the answer
#: is near the optimum most of what it stores is never expanded. The pass costs a few
#: milliseconds; boards A* proves sooner never pay for it.
EARLY_HELP_S = 0.02
EARLY_WIDTH = 16
EARLY_MOST_S = 0.1
HELP_GROWTH = 4.0
HELP_SHARE = 0.25
#: With a limit of ``PROVE_LIMIT_S`` or more (or none) the answer written is nearly always
#: the one A* proves, and a turn that finds nothing shorter says the answer is likely
#: optimal already: the later turns get ``UNIMPROVED_SCALE`` of their time, after each
#: such turn. Under shorter limits the beam's answer is often the one written, and keeps
#: its time (b24c6 at 5 s lost a move in 12 boards without this exception). Under such
#: limits, too, a turn (past the early one) that comes while the answer is within
#: ``HAND_BACK_GAP`` moves of A*'s level is skipped: A* ends at that level whatever the
#: beam finds, unless the answer is a move too long and a pass finds the optimum, so the
#: pass seldom pays for its time (in turns, whole runs: the 20 deep 16x16 boards 0.91 of
#: the time, floodtest, b12c12 and b18c6 0.98-0.99, the others the same; with no turns
#: at all the deep boards took 0.89, but boards A* cannot prove would lose their answers).
PROVE_LIMIT_S = 60.0
UNIMPROVED_SCALE = 0.5
#: The last helper turn without a time limit.
HELP_LAST_S = 4096.0
#: Widest beam pass before the depth-first search when there is no time limit.
FALLBACK_BEAM_WIDTH = 1024


def _proving(control: Control) -> bool:
    """Whether the answer written under ``control`` is nearly always A*'s proven one (a
    limit of ``PROVE_LIMIT_S`` or more, or none)."""
    return control.limit_s >= PROVE_LIMIT_S


def _helpers(graph: RegionGraph, control: Control) -> list[astar.Helper]:
    """The beam's turns while A* runs (see ``SHORT_LIMIT_S``)."""
    widths: dict[str, int] = {}
    limit = control.limit_s
    scale = 1.0  # of the turns still to come
    proving = _proving(control)
    cut = UNIMPROVED_SCALE if proving else 1.0

    def turn(share: float, most_s: float, max_width: int = beam.MAX_WIDTH,
             early: bool = False) -> Callable[[list[int]], Outcome]:
        def improve(current: list[int]) -> Outcome:
            nonlocal scale
            if proving and not early and len(current) <= control.lower_bound + HAND_BACK_GAP:
                return Outcome(list(current), False, control.lower_bound)  # A* near a proof
            sub = control.sub(time_share=share, most_s=most_s * scale)
            hand_back = control.lower_bound + HAND_BACK_GAP if limit <= SHORT_LIMIT_S else 0
            out = beam.search(graph, sub, current, max_width=max_width, widths=widths, hand_back_at=hand_back,
                              known_bound=control.lower_bound)
            if len(out.codes) >= len(current):
                scale *= cut
            return out

        return improve

    if limit <= SHORT_LIMIT_S:
        after = IMPROVE_AFTER_TINY if limit <= beam.TINY_LIMIT_S and not astar.is_small(graph) else IMPROVE_AFTER
        return [(control.started + after * limit, turn(IMPROVE_SHARE, float("inf")))]
    helpers: list[astar.Helper] = [(control.started + EARLY_HELP_S, turn(1.0, EARLY_MOST_S, EARLY_WIDTH, early=True))]
    at = HELP_FIRST_S
    while at < min(limit, HELP_LAST_S):
        helpers.append((control.started + at, turn(1.0, HELP_SHARE * at)))
        at *= HELP_GROWTH
    return helpers


@register("auto", "an answer at once, then A* until proven optimal or out of time or memory", exact=True, aliases=("default",), rank=6)
def solve_auto(graph: RegionGraph, control: Control) -> Outcome:
    exact = graph.n_words <= max(WIDTH_TIERS)
    # under a long limit A* nearly always proves the optimum: the cheaper first answer
    best = first_answer(graph, control, cheap=exact and _proving(control))
    lower = 0
    states = 0
    if exact:

        out = astar.search(graph, control, best, _helpers(graph, control))
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
