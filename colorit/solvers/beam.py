"""``beam``: level by level from the start, keeping only the ``width`` most promising
states of each move count.

States are ranked by the length of their greedy playout (``colorit.solvers.playout``: a quick real
game from the state, so an upper bound), then by the colour-elimination bound (a lower
bound), then by the regions left. The bound alone ties thousands of states; the playout
tells apart those from which even a plain greedy player finishes early, which makes a
narrow beam find near-optimal answers (on 19x19 boards with 6 colours, width 64 finds
answers as good as width 1024 ranked by the bound). Every playout is also a real answer:
one that beats the best so far becomes it at once, and tightens the pruning. On graphs
too big for bitset adjacency the playout is not available and the bound ranks alone.

A state that another of its level holds every region of (a superset reached in as many
moves) is not kept: it can reach nothing sooner, and its place goes to another.

It proves nothing (unless its answer meets a lower bound), but it finds answers close
to the optimum on boards the exact search cannot finish, in time that grows with the
width. Passes run while time is left, each only keeping states that can still beat the
best answer so far: an anytime answer that improves with time. With a deadline, a first
narrow pass is followed by passes as wide as fit in the time left, the playout's measure
alternating between them (passes ranked two ways miss different boards); without one,
widths double. ``auto`` uses it when A* has not finished after a share of the time
limit.
"""

from __future__ import annotations

import time
from typing import NamedTuple

import numpy as np

from .._kernel import kernel
from ..game.bitset import borrowed, hash_words, popcount
from ..game.graph import GraphArrays, RegionGraph, padded
from ..game.play_bits import eliminating_colour, play, play_rows, start_state
from .base import Control, Outcome, SliceBudget, register
from .bound import BoundScratch, bound_bits, bound_bits_many_colours, elimination_bound, elimination_bound_bits
from .incumbent import first_answer
from .playout import greedy_playout, size_bits
from .status import IMPROVED, PASS_DONE, SLICE_DONE

FIRST_WIDTH = 16
#: Parents the first kernel call of a pass expands; later calls are sized by
#: ``SliceBudget`` to take about ``SLICE_S`` (a call may run into the next level, whose
#: parents can cost more, and a level's selection is not sliced: so half A*'s slice,
#: which keeps a 0.3 s limit's answer within the guard's allowance on 24x24 boards).
FIRST_SLICE = 8
SLICE_S = 0.01
#: A candidate one of the level's ``DOMINANCE_WINDOW`` best states kept before it
#: dominates (holds every region of: the same move count, so it reaches whatever the
#: candidate reaches, as soon) is left out, and the width goes to others: on floodtest a
#: quarter of a 128-wide beam was dominated. Width for width, +69 over the optimum
#: against +78 at 16 on floodtest's first 300 boards, +15 against +19 at 128; b24c6's
#: first 100 at 64, 3,218 against 3,237 moves, about as many as 256 without (3,215). The
#: check costs less than the dominated states' children did (one pass 0.85-0.95 of the
#: time); past 256 states it finds little more (b24c6 at 256: 3,204 with 64).
DOMINANCE_WINDOW = 256
#: At most about this many checks a level (a level's selection is not sliced, so on the
#: widest beams, thousands of candidates, the window narrows to keep it to a millisecond).
DOMINANCE_CHECKS = 1 << 19
#: The first width on graphs too big for bitset rows (no playout: the bound ranks alone).
FIRST_WIDTH_LISTS = 64
#: Width of the last pass when there is no time limit.
MAX_WIDTH = 1 << 14
#: With a deadline, each pass after the first is as wide as fits in ``FIT_SHARE`` of the
#: time left (``FIT_SHARE_TINY`` under a whole limit of ``TINY_LIMIT_S`` or less), judged
#: by the pass before it: a pass's time grows as its width to the power
#: ``WIDTH_COST_POWER`` (from the first pass's answer, 4 and 16 times its width took 2.9
#: and 8.9 times its time on floodtest, 3.2 and 11 on b24c6, 2.8 and 8.2 on b12c12) and
#: at most ``MAX_GROWTH`` times wider than the last. A pass must end to be worth much:
#: its improvements come from its middle levels on (on floodtest a second pass cut by
#: the deadline found one in 7% of the boards, against 17% for one that ended), so the
#: share keeps a margin for the spread (a pass's time varies by a fifth from board to
#: board). Under a tiny limit the margin matters most: b24c6 at 0.1 s, 0.85 of the time
#: left had 38 of 100 second passes cut by the deadline (their gains: 15 moves, against
#: 563 for the passes that ended), 0.75 three (boards 0-400: 12,727 moves against
#: 12,776; 400-800: 12,745 against 12,785); floodtest at 0.01 s and 0.02 s, pc19 at
#: 0.01 s and b24c6 at 0.05 s the same totals. Passes go on while one of ``FIRST_WIDTH``
#: fits. (Only where playouts run; on the adjacency lists a pass's answer comes at its
#: end, and widths double.)
WIDTH_COST_POWER = 0.8
FIT_SHARE = 0.7
MAX_GROWTH = 64
TINY_LIMIT_S = 0.1
FIT_SHARE_TINY = 0.75
FOLLOW_UP_SHARE = 0.5
#: The playout's measure of a move, pass after pass: the cells of the regions it brings
#: to the border (``_Space.sizes``), or their count (``_Space.ones``). Neither ranks better (floodtest, 1000 boards: a pass
#: 128 wide after the first, +45 and +40 over the optimum), but they miss different
#: boards: two passes 128 wide, one of each, +25, against +31 for one pass 256 wide in
#: the same time; b24c6 (200 boards) 256 and 192: +13, against +12 for one 512 wide in
#: 1.1 times the time.
MEASURES = ("sizes", "ones")
#: A playout is followed until it is this many moves past the best answer's pace (the
#: states it ranks beyond that are seldom kept; past it the bound ranks them).
PLAYOUT_SLACK = 1

#: The first moves of a state's playout that are kept with it (7 bits each in an int64):
#: the child a parent's playout goes on to has that playout less its first move, so its
#: length is known without playing it again. Only on graphs of fewer than 128 colours.
KEPT_PLAYOUT_MOVES = 9

# pos fields: where a level stands between kernel calls, the best answer known, the
# dominance window (``DOMINANCE_WINDOW``, or 0: none)
NEXT_PARENT, N_CANDIDATES, GOAL_PARENT, GOAL_MOVE, BEST_LEN, FOUND_LEN, WIDTH, LEVEL, N_BEAM, KEPT, TABLE_MASK, DOMINANCE = range(12)


class BeamArrays(NamedTuple):
    """One pass's arrays: the beam, the candidates for the next level, the links back.

    Invariants between calls: ``fl[:n_beam]``/``fr[:n_beam]`` are the states of ``d``
    moves and their frontiers; ``parent[e, j]``/``move[e, j]`` say which state of level
    ``e`` and which colour made state ``j`` of level ``e + 1``; while a level is being
    built, ``cfl``/``cfr``/``key``/``c_parent``/``c_move`` ``[:pos[N_CANDIDATES]]`` hold
    the children of parents ``0 .. pos[NEXT_PARENT] - 1``, one copy of each (``table``
    holds their hashes). ``pos[BEST_LEN]`` is the best answer's length (the pass's bound);
    when a playout beats it, its moves are in ``found[:pos[FOUND_LEN]]``. ``rank[j]`` is
    the playout's length from state ``j`` if at most ``limit[j]`` (the limit it was
    played to), else where it stopped; ``ahead[j]`` is 0 or its first moves, each as
    colour + 1 in 7 bits from the lowest (``KEPT_PLAYOUT_MOVES`` at most). ``c_limit`` and
    ``c_ahead`` are the candidates' (their ranks are in ``key``)."""

    fl: np.ndarray  #: (width, words) uint64
    fr: np.ndarray  #: (width, words) uint64
    cfl: np.ndarray  #: (width * C, words) uint64
    cfr: np.ndarray  #: (width * C, words) uint64
    key: np.ndarray  #: (width * C,) int64, playout, bound, regions left: lowest kept
    c_parent: np.ndarray  #: (width * C,) int64
    c_move: np.ndarray  #: (width * C,) int64
    table: np.ndarray  #: (2^k >= 2 * width * C,) uint64, hashes of the candidates
    parent: np.ndarray  #: (best_len, width) int64
    move: np.ndarray  #: (best_len, width) int64
    rank: np.ndarray  #: (width,) int64, the states' playout lengths
    limit: np.ndarray  #: (width,) int64, the limits their playouts were played to
    ahead: np.ndarray  #: (width,) int64, their playouts' first moves, or 0 (the start's: made zero)
    c_limit: np.ndarray  #: (width * C,) int64, the candidates' playouts' limits
    c_ahead: np.ndarray  #: (width * C,) int64, the candidates' playouts' first moves, or 0
    nb: np.ndarray  #: (C, words) uint64, the playout's work array
    seq: np.ndarray  #: (KEPT_PLAYOUT_MOVES,) int64, a playout's first moves
    found: np.ndarray  #: (best_len,) int64, an answer a playout found
    pos: np.ndarray  #: (12,) int64, see NEXT_PARENT ...


@kernel
def _record_playout(d, i, c, child, child_front, g, adj_bits, sizes, shape, b):  # type: ignore[no-untyped-def]
    """Write into ``b.found`` the answer through beam state ``i`` of level ``d``, the move
    ``c`` (to ``child``) and the playout from there."""
    parent, move, found = b.parent, b.move, b.found
    j = i
    for e in range(d - 1, -1, -1):
        found[e] = move[e, j]
        j = parent[e, j]
    found[d] = c
    tail = found[d + 1 :]
    n = greedy_playout(child, child_front, g, adj_bits, sizes, shape, b.nb, tail.shape[0], tail)
    return d + 1 + n


@kernel
def _dominated(child, fl, kept, words):  # type: ignore[no-untyped-def]
    """Whether one of the beam's first ``kept`` states ``fl`` holds every region of
    ``child`` (then ``child`` need not be kept: floods are monotone, so whatever
    ``child`` can reach in some moves, that state reaches in as few)."""
    for k in range(kept):
        inside = True
        for w in range(words):
            if child[w] & ~fl[k, w]:
                inside = False
                break
        if inside:
            return True
    return False


@kernel
def _select(d, m, b):  # type: ignore[no-untyped-def]
    """Make the ``b.pos[WIDTH]`` best of the ``m`` candidates the beam of level ``d + 1``
    (lowest key first, ties in candidate order), leaving out each candidate that one
    of the first ``b.pos[DOMINANCE]`` states kept before it dominates (fewer where the
    candidates are so many that the checks would pass ``DOMINANCE_CHECKS``); returns
    their count."""
    order = np.argsort(b.key[:m], kind="mergesort")
    width = b.pos[WIDTH]
    window = min(b.pos[DOMINANCE], DOMINANCE_CHECKS // max(1, m))
    words = b.fl.shape[1]
    kept = 0
    for j in range(m):
        if kept >= width:
            break
        src = order[j]
        if _dominated(b.cfl[src], b.fl, min(kept, window), words):
            continue
        b.fl[kept] = b.cfl[src]
        b.fr[kept] = b.cfr[src]
        b.parent[d, kept] = b.c_parent[src]
        b.move[d, kept] = b.c_move[src]
        b.rank[kept] = b.key[src] >> 40
        b.limit[kept] = b.c_limit[src]
        b.ahead[kept] = b.c_ahead[src]
        kept += 1
    return kept


@kernel
def _beam_run(b, g, adj_bits, sizes, colour_adj, scratch, shape, budget):  # type: ignore[no-untyped-def]
    """Move the beam on from level ``b.pos[LEVEL]`` (its ``b.pos[N_BEAM]`` states),
    ``budget`` parents per call, across levels: each parent's children that can still
    beat ``b.pos[BEST_LEN]`` become candidates, one copy of each (``b.table``), and a
    level's ``b.pos[WIDTH]`` best candidates its successor (``_select``). Returns
    ``SLICE_DONE`` (the budget is spent: call again), ``PASS_DONE`` (no state left, or
    no level left that could beat the best answer) or ``IMPROVED`` (a child of level
    ``b.pos[LEVEL]`` is the goal: its parent and colour in ``b.pos[GOAL_PARENT]``,
    ``b.pos[GOAL_MOVE]``). A playout that beats the best answer becomes it at once
    (``b.found``, ``b.pos[FOUND_LEN]``).

    With bitset adjacency rows ``adj_bits`` (one per region; the sets padded to the
    width of ``shape``; ``sizes`` the regions' sizes as bit planes, ``colour_adj`` the
    colours' rows) the bound is the bitset one and states are ranked by their playout
    first; with none (zero rows) the bound walks the adjacency lists and ranks alone."""
    colour_mask, region_colour, _, adj_ptr, adj_idx = g
    (fl, fr, cfl, cfr, key, c_parent, c_move, table, parent, move,
     rank_of, limit_of, ahead, c_limit, c_ahead, nb, seq, found, pos) = b
    # what the bound is handed, without reference counts (``bitset.borrowed``)
    colour_mask, adj_bits, colour_adj = borrowed(colour_mask), borrowed(adj_bits), borrowed(colour_adj)
    cfl, cfr = borrowed(cfl), borrowed(cfr)
    n = region_colour.shape[0]
    n_col = colour_mask.shape[0]
    words = fl.shape[1]
    bits = adj_bits.shape[0] == n
    keep_ahead = bits and n_col < 128
    while True:
        d = pos[LEVEL]
        n_beam = pos[N_BEAM]
        if n_beam == 0 or d >= pos[BEST_LEN] - 1:
            return PASS_DONE
        if budget <= 0:
            return SLICE_DONE
        if pos[NEXT_PARENT] == 0:
            # the level's table: twice its most candidates, rounded up to a power of two
            t_size = 1
            while t_size < 2 * n_beam * n_col:
                t_size <<= 1
            pos[TABLE_MASK] = min(t_size, table.shape[0]) - 1
            table[: pos[TABLE_MASK] + 1] = 0
            pos[N_CANDIDATES] = 0
        t_mask = pos[TABLE_MASK]
        m = pos[N_CANDIDATES]
        first = pos[NEXT_PARENT]
        last = min(n_beam, first + budget)
        for i in range(first, last):
            # a colour whose last regions all border the flood is played alone (tested at
            # the row's run-time width)
            forced = eliminating_colour(fl[i], fr[i], colour_mask, fl[i])
            for c in range(n_col):
                if forced >= 0 and c != forced:
                    continue
                absorbs = False
                for w in range(words):
                    if fr[i, w] & colour_mask[c, w]:
                        absorbs = True
                        break
                if not absorbs:
                    continue
                if bits:
                    play_rows(fl[i], fr[i], colour_mask, adj_bits, c, cfl[m], cfr[m], shape)
                else:
                    cfl[m] = fl[i]
                    cfr[m] = fr[i]
                    play(cfl[m], cfr[m], colour_mask, c, adj_ptr, adj_idx)
                size = 0
                for w in range(words):
                    size += np.int64(popcount(cfl[m, w]))
                if size == n:
                    pos[GOAL_PARENT] = i
                    pos[GOAL_MOVE] = c
                    pos[NEXT_PARENT] = 0
                    return IMPROVED
                best_len = pos[BEST_LEN]
                # the rest needs at least the bound: keep only what can still win
                if not bits:
                    h = elimination_bound(cfl[m], cfr[m], g, scratch, best_len - d - 2)
                elif n_col > 64:
                    h = bound_bits_many_colours(cfl[m], cfr[m], colour_mask, adj_bits, shape, best_len - d - 2)
                else:
                    h = bound_bits(cfl[m], cfr[m], colour_mask, colour_adj, adj_bits, shape, best_len - d - 2)
                if d + 1 + h >= best_len:
                    continue
                # one copy of each state (by 64-bit hash: a collision only loses a candidate)
                hs = hash_words(cfl[m], shape) | np.uint64(1)  # 0 marks an empty slot
                slot = np.int64(hs & np.uint64(t_mask))
                dup = False
                while table[slot] != np.uint64(0):
                    if table[slot] == hs:
                        dup = True
                        break
                    slot = (slot + 1) & t_mask
                if dup:
                    continue
                table[slot] = hs
                rank = 0
                c_ahead[m] = 0
                if bits:
                    pace = best_len - d - 1
                    limit = pace + PLAYOUT_SLACK
                    c_limit[m] = limit
                    known = rank_of[i] - 1
                    was = limit_of[i] - 1
                    if keep_ahead and (ahead[i] & 127) == c + 1 and (
                            (known <= was and pace <= known <= limit) or (known > was and forced < 0 and limit == was)):
                        # the parent's playout went this way: this is the rest of the same
                        # game. Played out to the end (within its limit), it is one move
                        # shorter. Stopped at its limit, it stops one move sooner with one
                        # less to spare, if the parent's first step was one move (not a run
                        # of colours played alone, which the child would take as one step).
                        rank = known
                        c_ahead[m] = ahead[i] >> 7
                    elif keep_ahead:
                        seq[:] = -1
                        rank = greedy_playout(cfl[m], cfr[m], g, adj_bits, sizes, shape, nb, limit, seq)
                        packed = 0
                        for k in range(seq.shape[0] - 1, -1, -1):
                            packed = 0 if seq[k] < 0 else (packed << 7) | (seq[k] + 1)
                        c_ahead[m] = packed
                    else:
                        rank = greedy_playout(cfl[m], cfr[m], g, adj_bits, sizes, shape, nb, limit, found[:0])
                    if rank < pace:
                        # the playout is a real answer, shorter than the best: keep it
                        pos[BEST_LEN] = _record_playout(d, i, c, cfl[m], cfr[m], g, adj_bits, sizes, shape, b)
                        pos[FOUND_LEN] = pos[BEST_LEN]
                        c_ahead[m] = 0
                key[m] = (rank << 40) | (h << 20) | (n - size)
                c_parent[m] = i
                c_move[m] = c
                m += 1
        budget -= last - first
        pos[N_CANDIDATES] = m
        if last < n_beam:
            pos[NEXT_PARENT] = last
            return SLICE_DONE
        kept = _select(d, m, b)
        pos[NEXT_PARENT] = 0
        pos[N_BEAM] = kept
        pos[LEVEL] = d + 1
        pos[KEPT] += kept


class _Space(NamedTuple):
    """The graph as a pass takes it: padded with bitset rows, or plain with lists."""

    arrays: GraphArrays
    adj_bits: np.ndarray  #: (R, words) rows, or (0, 1) for the lists
    sizes: np.ndarray  #: (planes, words) the regions' sizes as bit planes (``size_bits``), or (0, 1)
    ones: np.ndarray  #: (1, words) every region as of size 1 (the playout's other measure), or (0, 1)
    colour_adj: np.ndarray  #: (C, words) the colours' rows, or (0, 1) for the lists
    start: np.ndarray
    front: np.ndarray
    shape: tuple[int, ...] | np.ndarray
    scratch: BoundScratch


def _space(graph: RegionGraph) -> _Space:
    """The graph as the passes take it, made once per graph (every turn of the beam on
    it shares it; nothing writes to it but the lists' bound scratch, made per search)."""
    kept: _Space | None = graph.__dict__.get("_beam_space")
    if kept is None:
        kept = graph.__dict__["_beam_space"] = _make_space(graph)
    return kept._replace(scratch=BoundScratch.for_graph(graph))


def _make_space(graph: RegionGraph) -> _Space:
    scratch = BoundScratch.for_graph(graph)
    if graph.adjacency_bits_fit:
        # bitset rows at a compile-time width (several times faster), and the playout
        pg = padded(graph)
        sizes = size_bits(graph.region_size, pg.root.shape[0])
        ones = np.full((1, pg.root.shape[0]), ~np.uint64(0), dtype=np.uint64)
        return _Space(pg.arrays, pg.adj_bits, sizes, ones, pg.colour_adj, pg.root, pg.root_front, pg.shape, scratch)
    start, front = start_state(graph)
    no_bits = np.zeros((0, 1), dtype=np.uint64)
    return _Space(graph.arrays(), no_bits, no_bits, no_bits, no_bits, start, front, np.zeros(graph.n_words), scratch)


def _root_bound(space: _Space, limit: int) -> int:
    """The colour-elimination bound of the start (past ``limit``: some value above it)."""
    if space.adj_bits.shape[0]:
        return elimination_bound_bits(space.start, space.front, space.arrays.colour_mask, space.adj_bits, limit,
                                      space.colour_adj, space.shape)
    return int(elimination_bound(space.start, space.front, space.arrays, space.scratch, limit))


def _new_beam(graph: RegionGraph, width: int, best_len: int, words: int) -> BeamArrays:
    cap = width * graph.n_colours
    return BeamArrays(
        fl=np.empty((width, words), dtype=np.uint64),
        fr=np.empty((width, words), dtype=np.uint64),
        cfl=np.empty((cap, words), dtype=np.uint64),
        cfr=np.empty((cap, words), dtype=np.uint64),
        key=np.empty(cap, dtype=np.int64),
        c_parent=np.empty(cap, dtype=np.int64),
        c_move=np.empty(cap, dtype=np.int64),
        table=np.zeros(1 << (2 * cap - 1).bit_length(), dtype=np.uint64),
        parent=np.empty((best_len, width), dtype=np.int64),
        move=np.empty((best_len, width), dtype=np.int64),
        rank=np.zeros(width, dtype=np.int64),
        limit=np.zeros(width, dtype=np.int64),
        ahead=np.zeros(width, dtype=np.int64),
        c_limit=np.zeros(cap, dtype=np.int64),
        c_ahead=np.zeros(cap, dtype=np.int64),
        nb=np.zeros((graph.n_colours, words), dtype=np.uint64),
        seq=np.zeros(KEPT_PLAYOUT_MOVES, dtype=np.int64),
        found=np.zeros(best_len, dtype=np.int64),
        pos=np.array([0, 0, 0, 0, best_len, best_len, width, 0, 1, 1, 0, DOMINANCE_WINDOW], dtype=np.int64),
    )


def bytes_per_width(graph: RegionGraph, best_len: int) -> int:
    """Memory one unit of beam width takes (the candidates dominate: C per state)."""
    return graph.n_colours * (graph.n_words * 16 + 56) + graph.n_words * 16 + 16 * best_len


def _goal_path(b: BeamArrays, d: int) -> list[int]:
    """The moves to the goal found from level ``d``."""
    i, c = int(b.pos[GOAL_PARENT]), int(b.pos[GOAL_MOVE])
    out = [c]
    for e in range(d - 1, -1, -1):
        out.append(int(b.move[e, i]))
        i = int(b.parent[e, i])
    return out[::-1]


def _pass(graph: RegionGraph, control: Control, width: int, best: list[int], space: _Space) -> tuple[list[int], int]:
    """One pass at ``width`` from the best answer ``best``: the best answer after it
    (``best`` itself if the pass found nothing shorter or was stopped), and the states it
    kept. Shorter answers are reported to ``control`` as they are found."""
    words = space.start.shape[0]
    b = _new_beam(graph, width, len(best), words)
    control.note_table_bytes(sum(a.nbytes for a in b))
    b.fl[0] = space.start
    b.fr[0] = space.front
    budget = SliceBudget(first=FIRST_SLICE, target=SLICE_S, most=1 << 20)
    while not control.should_stop():
        status = _beam_run(b, space.arrays, space.adj_bits, space.sizes, space.colour_adj, space.scratch, space.shape,
                           budget.start(control.remaining()))
        budget.done(status == SLICE_DONE)
        if b.pos[FOUND_LEN] < len(best):
            best = b.found[: b.pos[FOUND_LEN]].tolist()
            control.improved(best)
        if status == IMPROVED:
            found = _goal_path(b, int(b.pos[LEVEL]))
            if len(found) < len(best):
                best = found
                control.improved(best)
        if status != SLICE_DONE:
            break
    kept = int(b.pos[KEPT])
    return best, kept


def _fitted_width(width: int, spent: float, remaining: float, fit: float) -> int:
    """The width of a pass that takes ``fit`` of ``remaining`` seconds, judged by the
    last pass (``width`` wide, ``spent`` seconds; see ``WIDTH_COST_POWER``)."""
    if spent <= 0 or remaining <= 0:
        return 2 * width if spent <= 0 else 0
    return int(width * (fit * remaining / spent) ** (1 / WIDTH_COST_POWER))


def search(graph: RegionGraph, control: Control, incumbent: list[int], max_width: int = MAX_WIDTH,
           widths: dict[str, int] | None = None, hand_back_at: int = 0, known_bound: int = 0) -> Outcome:
    """Beam passes from ``incumbent`` while time is left, up to ``max_width`` wide (and
    what the memory cap allows): with a deadline, each as wide as fits in the time left
    (``FIT_SHARE``), the playout's measure alternating from pass to pass (``MEASURES``);
    without one, doubling widths. A stop is noticed within a slice. ``widths`` carries
    the width and the pass count from one call to the next (``"next"``, ``"passes"``),
    for a caller that gives the beam several turns. Once the answer is at most
    ``hand_back_at`` moves, a pass (past the first) that finds nothing shorter ends the
    passes: the caller's own search, near a proof, has a better use for the time.
    ``known_bound`` is a lower bound the caller has proven (A*'s level): an answer that
    meets it ends the passes, proven."""
    best = list(incumbent)
    space = _space(graph)
    bound = max(_root_bound(space, len(best)), known_bound)
    control.raise_bound(min(bound, len(best)))
    most = min(max_width, control.limits.memory_bytes() // bytes_per_width(graph, len(best)))
    playouts = space.adj_bits.shape[0] == graph.n_regions
    timed = playouts and control.deadline != float("inf")
    carried = widths if widths is not None else {}
    width = min(carried.get("next", FIRST_WIDTH if playouts else FIRST_WIDTH_LISTS), most)
    states = 0
    passes = 0
    fit = FIT_SHARE_TINY if control.limit_s <= TINY_LIMIT_S else FIT_SHARE
    widest = {measure: 0 for measure in MEASURES}  # each measure's widest pass in this call
    while len(best) > bound and 1 <= width <= most and not control.should_stop():
        t0 = time.monotonic()
        before = len(best)
        turn = carried.get("passes", 0)
        measure = MEASURES[turn % len(MEASURES)]
        best, kept = _pass(graph, control, width, best, space._replace(sizes=getattr(space, measure)))
        spent = time.monotonic() - t0
        states += kept
        passes += 1
        carried["passes"] = turn + 1
        widest[measure] = max(widest[measure], width)
        if len(best) == before and len(best) <= hand_back_at and passes > 1:
            break
        if width >= most:
            width *= 2  # (the widest: done)
        elif timed:
            width = min(_fitted_width(width, spent, control.remaining(), fit), width * MAX_GROWTH, most)
            if width < FIRST_WIDTH or width < max(widest.values()) * FOLLOW_UP_SHARE:
                break  # none fits that is wide enough to find what the passes before missed
        else:
            width = min(width * 2, most)
        carried["next"] = width
    return Outcome(best, len(best) <= bound, min(bound, len(best)), states, control.stop_reason)


@register("beam", "the most promising states of each move count, widths doubling while time is left", rank=3)
def solve_beam(graph: RegionGraph, control: Control) -> Outcome:
    incumbent = first_answer(graph, control)
    return search(graph, control, incumbent)
