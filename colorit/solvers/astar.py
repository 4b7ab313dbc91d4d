"""``astar``: the exact engine. Best-first search on the region graph that proves its
answer optimal.

The open list is a bucket queue indexed by ``(f, g)``: lowest ``f = g + bound`` first,
ties to the deepest node, last in first out within a bucket. The search keeps an
incumbent answer (the quick first answer, then every goal it generates): nodes that
cannot beat it are never stored, and when no open node can, the incumbent is proven
optimal. Its nodes are records in a store (``astar_store``); a kernel expands them
(``astar_expand``: the rules that prune moves, the seen-state table, dominance). This
module runs that kernel in slices and decides what it may not: how much to defer, when
to dive, when to grow the store and when to stop.

Past ``DEFER_AFTER_NODES`` stored nodes the expansion is partial: children above the
current level are neither looked up nor stored, and their parent goes back to the open
list at the lowest of their levels, to make them again only if the search gets there (it
usually ends a level below). That keeps memory close to the number of nodes expanded,
and spares the lookups of children that are mostly never made again. On graphs of up
to 16 colours (every community set but b10c35) the whole search is expanded that way,
and a node keeps the level each deferred child was put off to, so when it is expanded
again only the children due then are made, without their bounds worked out again. On
small graphs (colours x regions up to ``SMALL_GRAPH_SIZE``) of any number of colours
the whole search is expanded that way too: it is young to the end.

When the search reaches a level two or more below its answer, it first dives: it expands
the deepest open nodes of the answer's last level for a share of the work done so far.
With the answer a move too long, a dive that finds the optimum spares storing every
child on the optimum's level while the level below is proven.

The kernel runs in slices and returns when it needs bigger arrays; Python grows them
within the memory cap, or stops with the best answer and the lower bound it has. At the
memory cap the search goes on by iterative deepening from the open nodes (``deepening``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

import numpy as np

from ..game.bitset import WIDTH_TIERS
from ..game.graph import PaddedGraph, RegionGraph, padded
from . import deepening, dfs, dominance
from .astar_expand import CUR_F, EXPANDED, GOAL, N_NODES, TABLE_USED, UB, expand, new_counters
from .astar_store import CHILD_LEVEL_COLOURS, GROW_S_PER_BYTE, REBUILD_S_PER_NODE, NodeStore, first_capacity
from .base import Control, Outcome, SliceBudget, register
from .bound import elimination_bound_bits
from .incumbent import first_answer
from .memo import new_memo, zobrist_keys
from .status import EXHAUSTED, IMPROVED, NEED_NODES, NEED_TABLE, SLICE_DONE

#: Stored nodes after which children above the current level are made again when needed
#: rather than stored (a little more time, a fraction of the memory).
DEFER_AFTER_NODES = 1 << 20
#: Graphs of at most this many colours x regions are small: A* proves them in a few
#: milliseconds (pc19's 14x14 boards of 6 colours lie at 690-942, every other community
#: set above 1000). Their searches end within a level or two of where they start, so
#: children above the current level are deferred from the first node (most are never
#: expanded): pc19 1.064-1.079 times faster, random boards of 10x10 to 15x15 with 6 to
#: 10 colours 1.05-1.07, tiny searches the same. Past it, searches grow long and every
#: level's children are needed: deferring them all made b14c8, b12c12 and floodtest
#: 0.86-0.90 times as fast while a node back for a deferred child worked out every
#: child's bound again, and any threshold on the search's own size lost too (graphs of
#: up to ``CHILD_LEVEL_COLOURS`` colours now defer throughout, with their children's
#: levels kept: below). A small graph's search also starts with a slice of
#: ``SMALL_FIRST_SLICE`` nodes.
SMALL_GRAPH_SIZE = 1000
#: A small graph's first kernel slice, in nodes (64 elsewhere, where the cost of a node
#: is not known yet): most of its searches end within it, and each slice is a kernel
#: call of about 10 µs.
SMALL_FIRST_SLICE = 2048
#: Graphs of at most ``CHILD_LEVEL_COLOURS`` colours (four bits a colour in a word)
#: keep, per node, the levels its deferred children were put off to
#: (``StoreArrays.child_f``) and defer every child above the level from the first node:
#: a node back for one child makes only the children due at that level, and works out
#: none of their bounds again (``astar_expand``). Against storing them until
#: ``DEFER_AFTER_NODES`` (whole processes in turns on one core, 1000 boards): b14c8 0.83
#: of the time, b18c6 0.78, floodtest 0.92, b12c12 0.82, b10c15 0.84, b24c4 the same.
#: Deferring without the levels lost (b12c12 1.12 times as long), and a young search's
#: deferral alone gained 2-10% on these sets and lost 2.5% on b10c35 (35 colours, many
#: children to make again), which keeps neither.
#: Graphs of at most ``FEW_COLOURS`` colours (at a compiled width) start with a slice of
#: ``SMALL_FIRST_SLICE``: a node there has at most three children, and is cheap. And
#: there a child is compared with the window of recent sets (``dominance.in_window``)
#: before its bound, not after: a tenth of the children bounded on b24c4 were dominated
#: by one, and b24c4 takes 0.963-0.968 of the time (floodtest, the same for every graph:
#: 1.49).
FEW_COLOURS = 4
#: A dive for a shorter answer: when the search reaches a level two or more below its
#: answer, it expands the deepest open nodes of the answer's last level (``UB - 1``) for
#: up to ``DIVE_SHARE`` of the nodes expanded so far (at least ``DIVE_LEAST``), once per
#: level and answer, after ``DIVE_AFTER`` nodes expanded.
DIVE_SHARE = 1 / 16
DIVE_LEAST = 256
DIVE_AFTER = 2048

#: A helper the search calls once, when ``time.monotonic()`` passes the time it comes
#: with: given the best answer so far, it may return a shorter one (``Outcome``).
Helper = tuple[float, Callable[[list[int]], Outcome]]

#: Share of the memory cap A*'s store may take when the search may go on by iterative
#: deepening (``deepening``): the rest is its memo.
STORE_SHARE = 7 / 8
#: Share of the store's memory the superset index (``dominance``) may take at most.
INDEX_SHARE = 1 / 16


class _Helpers:
    """The helpers not run yet, in the order of their times."""

    def __init__(self, helpers: Sequence[Helper], control: Control) -> None:
        self.waiting = sorted(helpers, key=lambda helper: helper[0])
        self.control = control

    def run_due(self, best: list[int], lower: int) -> tuple[list[int], bool]:
        """Run the helpers whose time has come: the best answer after them, and whether it
        is proven optimal (by a helper, or by meeting ``lower``)."""
        proven = False
        while self.waiting and time.monotonic() >= self.waiting[0][0]:
            self.control.raise_bound(lower)  # what the helpers may judge the answer by
            better = self.waiting.pop(0)[1](best)
            if len(better.codes) < len(best):
                best = list(better.codes)
                self.control.improved(best, lower)
            proven = proven or (better.proven_optimal and len(better.codes) <= len(best))
        return best, proven or len(best) <= lower


def is_small(graph: RegionGraph) -> bool:
    """Whether A* proves ``graph`` in milliseconds (``SMALL_GRAPH_SIZE``)."""
    return graph.n_colours * graph.n_regions <= SMALL_GRAPH_SIZE


def search(
    graph: RegionGraph,
    control: Control,
    incumbent: list[int],
    helpers: Sequence[Helper] = (),
    defer_after: int | None = None,
    defer_below: int = 0,
    deepen: bool = True,
    keep_child_f: bool | None = None,
    window_first: bool | None = None,
    store_share: float = STORE_SHARE,
) -> Outcome:
    """A* from the start position, proving ``incumbent`` optimal or finding better.

    A* improves its answer only when it reaches the optimum, so a caller with a time
    limit passes ``helpers``: quicker searches that run (once each, between slices) when
    their time comes. A shorter answer one returns becomes the search's bound; if it is
    proven optimal, the search ends. When the store reaches the memory cap, the search
    goes on by iterative deepening from the open nodes (``deepening``), in the memory it
    has; with ``deepen=False`` it stops there instead (``stopped == "memory"``).
    ``defer_after`` and ``defer_below`` (stored nodes; ``defer_after`` by default from
    the graph's size and ``keep_child_f``, ``_deferral``), ``keep_child_f`` (by default on
    graphs of up to ``CHILD_LEVEL_COLOURS`` colours), ``window_first`` (by default on graphs of
    ``FEW_COLOURS``) and ``store_share`` (of the cap, for the store) are for tests and
    the warm-up."""
    best = list(incumbent)
    pg = padded(graph)
    words, root = len(pg.root), pg.root
    root_bound = elimination_bound_bits(
        root, pg.root_front, pg.arrays.colour_mask, pg.adj_bits, len(best), pg.colour_adj, pg.shape)
    if graph.n_regions == 1 or root_bound >= len(best):
        return Outcome(best, True, len(best), 1)
    control.raise_bound(root_bound)
    ub = len(best)
    cap_bytes = control.limits.memory_bytes()
    store_cap = cap_bytes * store_share if deepen else cap_bytes
    few = graph.n_colours <= FEW_COLOURS
    small = is_small(graph)
    if keep_child_f is None:
        keep_child_f = graph.n_colours <= CHILD_LEVEL_COLOURS
    st = NodeStore.take(words, ub, first_capacity(words, store_cap), store_cap * INDEX_SHARE,
                        dominance.slots_for(graph.n_colours), child_f=keep_child_f, reserve_bytes=store_cap)
    due = _Helpers(helpers, control)
    try:
        st.plant_root(root, root_bound)
        if defer_after is None:
            defer_after = _deferral(graph, keep_child_f)
        ctr = new_counters(root_bound, ub, defer_after, defer_below, few if window_first is None else window_first)
        absorbs = np.zeros(graph.n_colours, np.bool_)
        stopped = ""
        # (a node of the run-time width costs several times one of a compiled width)
        cheap_nodes = small or (few and words <= max(WIDTH_TIERS))
        budget = SliceBudget(first=SMALL_FIRST_SLICE) if cheap_nodes else SliceBudget()
        dived = (-1, -1)
        while True:
            if control.should_stop():
                stopped = control.stop_reason
                break
            n = budget.start(control.remaining())
            status = _run_slice(pg, st, ctr, absorbs, n)
            budget.done(status == SLICE_DONE)
            if status == EXHAUSTED:
                break
            if status == IMPROVED:
                best = st.path_to(int(ctr[GOAL]))
                control.improved(best, int(ctr[CUR_F]))
            elif status in (NEED_NODES, NEED_TABLE):
                stopped = _grow(st, status, ctr, control, store_cap)
                if stopped:
                    break
            level = (int(ctr[CUR_F]), int(ctr[UB]))
            if DIVE_SHARE > 0 and level != dived and level[0] <= level[1] - 2 and ctr[EXPANDED] >= DIVE_AFTER:
                dived = level
                # within one slice's work, so the deadline is still noticed in time
                n = min(max(DIVE_LEAST, int(ctr[EXPANDED] * DIVE_SHARE)), budget.start(control.remaining()))
                goal = _dive(pg, st, ctr, absorbs, n)
                if goal >= 0:
                    best = st.path_to(goal)
                    control.improved(best, int(ctr[CUR_F]))
            best, proven = due.run_due(best, int(ctr[CUR_F]))
            if proven:
                return Outcome(best, True, len(best), int(ctr[EXPANDED]))
            ctr[UB] = len(best)
        control.note_table_bytes(st.nbytes())
        if stopped == "memory" and deepen:
            return _deepen(pg, st, ctr, control, best, due, cap_bytes)
    finally:
        control.note_table_bytes(st.nbytes())
        st.release()
    states = int(ctr[EXPANDED])
    if stopped:
        return Outcome(best, False, min(int(ctr[CUR_F]), len(best)), states, stopped)
    return Outcome(best, True, len(best), states)


def _deferral(graph: RegionGraph, keep_child_f: bool) -> int:
    """The stored nodes past which children above the level being expanded are deferred:
    from the first node on small graphs and wherever the store keeps its deferred
    children's levels (``keep_child_f``), else past ``DEFER_AFTER_NODES``."""
    return 0 if is_small(graph) or keep_child_f else DEFER_AFTER_NODES


def _grow(st: NodeStore, status: int, ctr: np.ndarray, control: Control, store_cap: float) -> str:
    """Grow the store as the kernel asks (``NEED_NODES``: the records, ``NEED_TABLE``: the
    seen table): "" when it is grown, else why the search stops instead ("memory": past
    ``store_cap``, "time": the copy would run past the deadline)."""
    n_used = int(ctr[N_NODES])
    if status == NEED_NODES:
        if st.nbytes() + st.nodes.nbytes + st.table.nbytes > store_cap:
            return "memory"
        if control.remaining() < 2 * st.nodes.nbytes * GROW_S_PER_BYTE:
            return "time"
        st.grow_nodes(n_used)
        return ""
    if st.nbytes() + st.table.nbytes * 2 > store_cap:
        return "memory"
    if control.remaining() < 2 * st.table.nbytes * GROW_S_PER_BYTE + n_used * REBUILD_S_PER_NODE:
        return "time"
    ctr[TABLE_USED] = st.grow_table(n_used)
    return ""


def _run_slice(pg: PaddedGraph, st: NodeStore, ctr: np.ndarray, absorbs: np.ndarray, budget: int) -> int:
    """One call of A*'s kernel on the padded graph and the store as they are now."""
    return int(expand(pg.arrays, pg.adj_bits, pg.colour_adj, st.arrays(), ctr, absorbs, budget, pg.shape))


def _dive(pg: PaddedGraph, st: NodeStore, ctr: np.ndarray, absorbs: np.ndarray, budget: int) -> int:
    """Expand up to ``budget`` open nodes of the answer's last level, deepest first (a
    dive: their children on that level are the deepest next), ahead of the level being
    proven: the goal node of a shorter answer found, or -1.

    Any order of expansion keeps A* exact (the table keeps each state's fewest moves, and
    the search ends only when no open node can beat the answer); this one only spares
    work: with the answer a move shorter, the levels below it store no children on its
    last level. The dive's children go on that level or above (a child below it would be
    expanded next, as A* itself would); an empty level ends the dive (the kernel's
    "exhausted" there means only that), as does a store that must grow."""
    level = int(ctr[CUR_F])
    ctr[CUR_F] = ctr[UB] - 1
    status = _run_slice(pg, st, ctr, absorbs, budget)
    ctr[CUR_F] = min(level, int(ctr[CUR_F]))
    return int(ctr[GOAL]) if status == IMPROVED else -1


def _deepen(pg: PaddedGraph, st: NodeStore, ctr: np.ndarray, control: Control, best: list[int], due: _Helpers,
            cap_bytes: int) -> Outcome:
    """Go on from A*'s full store by iterative deepening (``deepening``), threshold by
    threshold from the level A* was on, with a memo in the memory the store left."""
    level = int(ctr[CUR_F])
    memo = new_memo(max(cap_bytes - st.nbytes(), 1 << 16))
    control.note_table_bytes(st.nbytes() + memo.keys.nbytes + memo.vals.nbytes)
    stack = deepening.new_stack(len(best) + 2, st.words)
    zobrist = zobrist_keys(pg.adj_bits.shape[0])
    dctr = np.zeros(deepening.N_COUNTERS, dtype=np.int64)
    states = int(ctr[EXPANDED])
    budget = SliceBudget()
    thresh = level
    while thresh < len(best):
        memo.vals.fill(0)
        deepening.start_threshold(dctr, thresh, level)
        while True:
            if control.should_stop():
                return Outcome(best, False, thresh, states + int(dctr[deepening.STATES]), control.stop_reason)
            status = deepening.run(pg, st.arrays(), zobrist, stack, memo, dctr, budget.start(control.remaining()))
            budget.done(status == SLICE_DONE)
            if status == IMPROVED:
                # every threshold below this one is exhausted: the answer is optimal
                found = st.path_to(int(dctr[deepening.ROOT])) + stack.found[: dctr[deepening.GOAL_LEN]].tolist()
                control.improved(found, len(found))
                return Outcome(found, True, len(found), states + int(dctr[deepening.STATES]))
            if status == EXHAUSTED:
                break
            best, proven = due.run_due(best, thresh)
            if proven:
                return Outcome(best, True, len(best), states + int(dctr[deepening.STATES]))
        states += int(dctr[deepening.STATES])
        thresh += 1
        control.raise_bound(min(thresh, len(best)))
    return Outcome(best, True, len(best), states)


@register("astar", "exact A* on the region graph with the colour-elimination bound", exact=True, aliases=("a*", "exact"), rank=5)
def solve_astar(graph: RegionGraph, control: Control) -> Outcome:
    incumbent = first_answer(graph, control)
    if not graph.adjacency_bits_fit:
        # R x R adjacency bits would not fit; the depth-first search is exact too
        return dfs.search(graph, control, incumbent)
    return search(graph, control, incumbent)
