"""The greedy playout: a quick, real game from a position, whose length ranks positions.

From the flooded set, the playout plays every colour whose remaining regions all border
the flood (each such colour is one move, and playing it now is never a mistake), and
otherwise the colour whose bordering regions open the most new cells (the cells of the
regions that would join the border). It is a real game, so its length is an upper bound
on the moves needed, and with the colour-elimination bound below it, it ranks the states
of a beam far better than the bound alone: the bound ties thousands of states, the
playout tells apart the ones from which a plain greedy player already finishes early.

The kernel keeps, for each colour, the neighbours of the border regions of that colour
(``nb[c]``), updated from the regions each move brings to the border, so a playout costs
about one pass over the adjacency rows of the regions left (like the bound), not one per
move. The cells a move opens are counted with the regions' sizes as bit planes
(``size_bits``): a few popcounts a colour rather than a load per region (a beam pass on
floodtest 0.63-0.65 of the time). It needs bitset adjacency rows (graphs up to
``BITSET_MAX_REGIONS`` regions).
"""

from __future__ import annotations

import numpy as np

from .._kernel import kernel
from ..game.bitset import ctz, local_words, popcount
from ..game.graph import adjacency_bits
from ..game.play_bits import start_state


@kernel
def greedy_playout(flooded, front, g, adj_bits, size_bits, shape, nb, limit, moves):  # type: ignore[no-untyped-def]
    """Length of the greedy playout from ``flooded`` (frontier ``front``) on the graph ``g``
    (``GraphArrays``, sets padded to the width; ``adj_bits`` its adjacency rows,
    ``size_bits`` its regions' sizes as bit planes, see ``size_bits``), or a value above
    ``limit`` as soon as it is known to pass it (moves so far plus one per colour still
    present). ``shape`` is a tuple of ``words`` zeros (a compile-time width) or an array;
    ``nb`` is a (C, words) uint64 work array; when ``moves`` is not empty the moves
    played are written to it (as many as fit).

    Invariants at each step: ``E`` is the area played so far and ``L`` its border (the
    regions outside ``E`` adjacent to it); ``nb[c]`` holds the neighbours of the regions
    of colour ``c`` in ``L``."""
    colour_mask, region_colour = g.colour_mask, g.region_colour
    words = len(shape)
    n_col = colour_mask.shape[0]
    record = moves.shape[0] > 0
    E = local_words(shape)
    L = local_words(shape)
    take = local_words(shape)
    grown = local_words(shape)
    for w in range(words):
        E[w] = flooded[w]
        L[w] = front[w]
    for c in range(n_col):
        for w in range(words):
            nb[c, w] = 0
        for w in range(words):
            x = L[w] & colour_mask[c, w]
            while x != np.uint64(0):
                r = (w << 6) + np.int64(ctz(x))
                x &= x - np.uint64(1)
                for v in range(words):
                    nb[c, v] |= adj_bits[r, v]
    played = 0
    while True:
        n_present = 0
        n_elim = 0
        for w in range(words):
            take[w] = 0
            grown[w] = 0
        for c in range(n_col):
            rem = np.uint64(0)
            out = np.uint64(0)
            for w in range(words):
                m = colour_mask[c, w] & ~E[w]
                rem |= m
                out |= m & ~L[w]
            if rem != np.uint64(0):
                n_present += 1
                if out == np.uint64(0):
                    # every region left of c borders the area: play it now
                    if record and played + n_elim < moves.shape[0]:
                        moves[played + n_elim] = c
                    n_elim += 1
                    for w in range(words):
                        take[w] |= colour_mask[c, w] & ~E[w]
                        grown[w] |= nb[c, w]
                        nb[c, w] = 0
        if n_present == 0:
            return played
        if played + n_present > limit:
            return played + n_present
        if n_elim > 0:
            played += n_elim
        else:
            best = -1
            best_gain = -1
            for c in range(n_col):
                has = False
                for w in range(words):
                    if L[w] & colour_mask[c, w]:
                        has = True
                        break
                if not has:
                    continue
                # the cells of the regions that would join the border
                gain = 0
                for k in range(size_bits.shape[0]):
                    n_k = 0
                    for w in range(words):
                        n_k += np.int64(popcount(nb[c, w] & ~E[w] & ~L[w] & size_bits[k, w]))
                    gain += n_k << k
                if gain > best_gain:
                    best_gain = gain
                    best = c
            if record and played < moves.shape[0]:
                moves[played] = best
            played += 1
            for w in range(words):
                take[w] = L[w] & colour_mask[best, w]
                grown[w] = nb[best, w]
                nb[best, w] = 0
        for w in range(words):
            E[w] |= take[w]
            L[w] &= ~take[w]
        # the regions that join the border, and their neighbours under their colour
        for w in range(words):
            x = grown[w] & ~E[w] & ~L[w]
            L[w] |= x
            while x != np.uint64(0):
                r = (w << 6) + np.int64(ctz(x))
                x &= x - np.uint64(1)
                c = region_colour[r]
                for v in range(words):
                    nb[c, v] |= adj_bits[r, v]


@kernel
def size_bits(region_size, words):  # type: ignore[no-untyped-def]
    """The regions' sizes as bit planes, (planes, words) uint64: region ``r``'s bit in
    plane ``k`` is bit ``k`` of its size, so the cells of a set of regions are
    ``sum(popcount(set & plane[k]) << k)``."""
    most = 1
    for r in range(region_size.shape[0]):
        most = max(most, region_size[r])
    planes = 0
    while most >> planes:
        planes += 1
    out = np.zeros((planes, words), dtype=np.uint64)
    for r in range(region_size.shape[0]):
        for k in range(planes):
            if (region_size[r] >> k) & 1:
                out[k, r >> 6] |= np.uint64(1) << np.uint64(r & 63)
    return out


def playout_moves(graph, flooded: np.ndarray | None = None) -> list[int]:  # type: ignore[no-untyped-def]
    """The greedy playout's moves from ``flooded`` (default: the start), for callers in
    Python (tests, the web page's hints)."""
    bits, front = start_state(graph, flooded)
    nb = np.zeros((graph.n_colours, graph.n_words), dtype=np.uint64)
    moves = np.zeros(graph.n_regions + graph.n_colours, dtype=np.int64)
    sizes = size_bits(graph.region_size, graph.n_words)
    n = greedy_playout(bits, front, graph.arrays(), adjacency_bits(graph), sizes, bits, nb, 1 << 62, moves)
    return moves[:n].tolist()  # type: ignore[no-any-return]
