"""The game on adjacency lists, with the frontier kept in one list per colour.

The game on bitset rows (``play_bits``, what the searches play with) costs O(words) per
move and needs a colours x words table: fine for the searches on small boards, hopeless
on a 1000x1000 board with a thousand colours (346,000 moves of 15,600 words each) or a
million (a 125 TB table). Here a move takes its colour's list whole, so a whole game
costs O(regions + edges) steps whatever the colour count. ``linear`` plays on it (and is
the answer every solve holds from the start, see ``colorit.solvers.deadline``);
``greedy`` too, one slice of moves at a time; and any search that is stopped half-way
finishes its answer here (``finish``).

The state is a ``FrontierState`` of arrays, changed in place by the kernels. Invariants
between calls: ``flooded[r]`` marks the flood; ``waiting_tree`` marks the frontier
(outside the flood, beside it) as a bitset with summaries above it (see ``_tree_levels``),
so the basic AI finds the lowest-numbered frontier region in a few steps; each frontier
region is in exactly one list, its colour's (``head[c]``, then ``link``), and
``gain[c]`` is the cells of the regions in that list.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from .._kernel import kernel
from .bitset import ctz, n_words
from .graph import RegionGraph

# counts fields
N_FLOODED, N_MOVES = 0, 1


class GraphLists(NamedTuple):
    """The region graph's list form, as the kernels take it."""

    region_colour: np.ndarray
    region_size: np.ndarray
    adj_ptr: np.ndarray
    adj_idx: np.ndarray


class FrontierState(NamedTuple):
    flooded: np.ndarray  #: (R,) bool
    head: np.ndarray  #: (C,) int64, first frontier region of each colour, -1: none
    link: np.ndarray  #: (R,) int64, next region in the same colour's list
    gain: np.ndarray  #: (C,) int64, cells the move of each colour would take
    waiting_tree: np.ndarray  #: uint64, the frontier as a bitset (level 0) and its summaries
    tree_levels: np.ndarray  #: int64, where each level of ``waiting_tree`` starts, and its end
    counts: np.ndarray  #: [regions flooded, moves played]
    moves: np.ndarray  #: (R,) int32, the moves played


def _tree_levels(n_regions: int) -> np.ndarray:
    """Where each level of a waiting tree starts in its array, and the array's length.

    Level 0 is a bitset of the regions; bit i of level k + 1 says whether word i of
    level k is non-zero; the top level is one word. Finding the lowest member then takes
    one count-trailing-zeros per level (four for a million regions), where a binary heap
    took twenty sift steps, each a likely cache miss."""
    starts = [0]
    words = n_words(n_regions)
    while True:
        starts.append(starts[-1] + words)
        if words == 1:
            return np.array(starts, dtype=np.int64)
        words = (words + 63) >> 6


@kernel
def _tree_add(tree, levels, r):  # type: ignore[no-untyped-def]
    """Put ``r`` in the tree: its bit, and each summary bit above that was clear."""
    i = r
    for level in range(levels.shape[0] - 1):
        w = levels[level] + (i >> 6)
        was = tree[w]
        tree[w] = was | (np.uint64(1) << np.uint64(i & 63))
        if was != 0:
            return
        i >>= 6


@kernel
def _tree_has(tree, r):  # type: ignore[no-untyped-def]
    """Whether ``r`` is in the tree (its bit in level 0, which starts the array)."""
    return (tree[r >> 6] >> np.uint64(r & 63)) & np.uint64(1) != 0


@kernel
def _tree_remove(tree, levels, r):  # type: ignore[no-untyped-def]
    """Take ``r`` out: its bit, and each summary bit above whose word became empty."""
    i = r
    for level in range(levels.shape[0] - 1):
        w = levels[level] + (i >> 6)
        tree[w] &= ~(np.uint64(1) << np.uint64(i & 63))
        if tree[w] != 0:
            return
        i >>= 6


@kernel
def _tree_lowest(tree, levels):  # type: ignore[no-untyped-def]
    """The lowest member of a non-empty tree."""
    i = 0
    for level in range(levels.shape[0] - 2, -1, -1):
        i = (i << 6) + np.int64(ctz(tree[levels[level] + i]))
    return i


@kernel
def _join_frontier(g, s, r):  # type: ignore[no-untyped-def]
    """The unflooded neighbours of ``r`` (just flooded) that were not waiting join their lists."""
    for k in range(g.adj_ptr[r], g.adj_ptr[r + 1]):
        nb = g.adj_idx[k]
        if s.flooded[nb] or _tree_has(s.waiting_tree, nb):
            continue
        c = g.region_colour[nb]
        s.link[nb] = s.head[c]
        s.head[c] = nb
        s.gain[c] += g.region_size[nb]
        _tree_add(s.waiting_tree, s.tree_levels, nb)


@kernel
def play_lists(g, s, c):  # type: ignore[no-untyped-def]
    """Play colour ``c``: its whole list joins the flood (two regions of one colour never
    touch, so no region of ``c`` joins the frontier meanwhile). Returns regions taken."""
    r = s.head[c]
    s.head[c] = -1
    s.gain[c] = 0
    taken = 0
    while r >= 0:
        nxt = s.link[r]
        s.flooded[r] = True
        _tree_remove(s.waiting_tree, s.tree_levels, r)
        taken += 1
        _join_frontier(g, s, r)
        r = nxt
    s.counts[N_FLOODED] += taken
    s.moves[s.counts[N_MOVES]] = c
    s.counts[N_MOVES] += 1
    return taken


@kernel
def _start(g, s, start_region):  # type: ignore[no-untyped-def]
    s.flooded[start_region] = True
    s.counts[N_FLOODED] = 1
    _join_frontier(g, s, start_region)


@kernel
def linear_run(g, s, budget):  # type: ignore[no-untyped-def]
    """Up to ``budget`` moves of the original basic AI: the colour of the lowest-numbered
    frontier region (regions are numbered by their first cell in reading order).
    Returns True when the board is flooded."""
    n = g.region_colour.shape[0]
    while s.counts[N_FLOODED] < n and budget > 0:
        play_lists(g, s, g.region_colour[_tree_lowest(s.waiting_tree, s.tree_levels)])
        budget -= 1
    return s.counts[N_FLOODED] >= n


@kernel
def greedy_choice(gain):  # type: ignore[no-untyped-def]
    """Greedy's move, from ``gain[c]`` (the cells colour ``c`` would absorb now): the
    most cells, ties to the lowest colour code; on the lists here and on the bitset rows
    (``solvers.greedy``) alike."""
    best = 0
    for c in range(1, gain.shape[0]):
        if gain[c] > gain[best]:
            best = c
    return best


@kernel
def greedy_run(g, s, budget):  # type: ignore[no-untyped-def]
    """Up to ``budget`` moves of the colour that floods the most cells now
    (``greedy_choice``). Each costs O(colours) on top of the play. True when flooded."""
    n = g.region_colour.shape[0]
    while s.counts[N_FLOODED] < n and budget > 0:
        play_lists(g, s, greedy_choice(s.gain))
        budget -= 1
    return s.counts[N_FLOODED] >= n


@kernel
def _fresh_state(g, start_region, n_col, levels, spare_moves):  # type: ignore[no-untyped-def]
    """The state at the start (``levels``: its tree's ``_tree_levels``), with room for a
    move per region and ``spare_moves`` more (moves that take nothing)."""
    n = g.region_colour.shape[0]
    s = FrontierState(
        np.zeros(n, dtype=np.bool_), np.full(n_col, -1, dtype=np.int64), np.empty(n, dtype=np.int64),
        np.zeros(n_col, dtype=np.int64), np.zeros(levels[-1], dtype=np.uint64), levels,
        np.zeros(2, dtype=np.int64), np.empty(n + spare_moves, dtype=np.int32),
    )
    _start(g, s, start_region)
    return s


@kernel
def greedy_game(g, start_region, n_col, levels):  # type: ignore[no-untyped-def]
    """Greedy's whole game from the start (``greedy_run`` on a state made here, ``levels``
    its tree's ``_tree_levels``): the moves. One call where ``new_state`` and the slices
    cost more than the game itself on a small graph (a thousand 14x14 boards' games:
    9-11 ms this way, 16-20 ms through ``new_state`` and slices)."""
    s = _fresh_state(g, start_region, n_col, levels, 0)
    greedy_run(g, s, 1 << 62)
    return s.moves[: s.counts[N_MOVES]]


def graph_lists(graph: RegionGraph) -> GraphLists:
    return GraphLists(graph.region_colour, graph.region_size, graph.adj_ptr, graph.adj_idx)


def new_state(graph: RegionGraph, prefix: Sequence[int] = ()) -> FrontierState:
    """The state at the start, after the moves ``prefix`` (colour codes)."""
    g = graph_lists(graph)
    s: FrontierState = _fresh_state(g, graph.start_region, graph.n_colours, _tree_levels(graph.n_regions), len(prefix))
    for c in prefix:
        play_lists(g, s, int(c))
    return s


def greedy_codes(graph: RegionGraph) -> list[int]:
    """Greedy's whole answer in colour codes, in one kernel call (no deadline between
    moves: for graphs whose game takes microseconds)."""
    moves = greedy_game(graph_lists(graph), graph.start_region, graph.n_colours, _tree_levels(graph.n_regions))
    return moves.tolist()  # type: ignore[no-any-return]


def moves_of(state: FrontierState) -> list[int]:
    return state.moves[: state.counts[N_MOVES]].tolist()  # type: ignore[no-any-return]


def is_done(state: FrontierState) -> bool:
    return bool(state.counts[N_FLOODED] >= state.flooded.shape[0])


def linear_codes(graph: RegionGraph) -> list[int]:
    """The basic AI's whole answer, in colour codes (milliseconds on a 1000x1000 board)."""
    s = new_state(graph)
    linear_run(graph_lists(graph), s, 1 << 62)
    return moves_of(s)


#: ``finish`` uses greedy while regions left x colours stays below this (O(colours) a
#: move), the basic AI past it.
GREEDY_FINISH_WORK = 50_000_000


def greedy_is_quick(graph: RegionGraph, left: int | None = None) -> bool:
    """Whether greedy may play out ``left`` regions (default: all but the start's) at
    O(colours) a move; where not, ``finish`` plays the basic AI."""
    left = graph.n_regions - 1 if left is None else left
    return left * graph.n_colours <= GREEDY_FINISH_WORK


def finish(graph: RegionGraph, prefix: Sequence[int]) -> list[int]:
    """A whole answer that starts with ``prefix``: the rest played by greedy where that is
    quick, by the basic AI otherwise. What a search stopped half-way answers."""
    s = new_state(graph, prefix)
    g = graph_lists(graph)
    if greedy_is_quick(graph, graph.n_regions - int(s.counts[N_FLOODED])):
        greedy_run(g, s, 1 << 62)
    else:
        linear_run(g, s, 1 << 62)
    return moves_of(s)
