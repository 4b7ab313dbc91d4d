"""The bitset primitives (``colorit.game.bitset``): popcount and count-trailing-zeros on
single words, a kernel's stack sets (``local_words``) at a compile-time and a run-time
width, the Python helpers between member lists and sets, the widths the searches are
compiled for, and the hash of a set's first words."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from colorit._jit import kernel
from colorit.game.bitset import (
    RUNTIME_WIDTH,
    WIDTH_TIERS,
    borrowed,
    bs_members,
    compiled_width,
    count,
    ctz,
    from_bits,
    hash_words,
    local_words,
    n_words,
    pad_words,
    padded_width,
    popcount,
    to_bits,
    width_shape,
)

from boardgen import STABLE

WORDS = st.integers(0, 2**64 - 1)


@kernel
def _popcounts(words, out):  # type: ignore[no-untyped-def]
    for i in range(words.shape[0]):
        out[i] = popcount(words[i])


@kernel
def _lowest_bits(words, out):  # type: ignore[no-untyped-def]
    for i in range(words.shape[0]):
        out[i] = ctz(words[i])


@kernel
def _through_local_words(bits, shape):  # type: ignore[no-untyped-def]
    """``bits`` copied into a set of ``local_words(shape)``, each word's bits reversed in
    order of the words, and back out: the set holds what was written to it."""
    n = len(shape)
    work = local_words(shape)
    for w in range(n):
        work[w] = bits[n - 1 - w]
    out = np.empty(n, dtype=np.uint64)
    for w in range(n):
        out[w] = work[w]
    return out


@intrinsic
def _counted(typingctx, arr):  # type: ignore[no-untyped-def]
    """Whether ``arr`` carries a reference count (a meminfo)."""

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        meminfo = context.make_array(arr)(context, builder, value=args[0]).meminfo
        return builder.not_(cgutils.is_null(builder, meminfo))

    return types.boolean(arr), codegen


@kernel
def _add_row(rows, i, out):  # type: ignore[no-untyped-def]
    for w in range(rows.shape[1]):
        out[w] += rows[i, w]
    return _counted(rows), _counted(rows[i])


@kernel
def _rows_through_borrowed(rows, out):  # type: ignore[no-untyped-def]
    """Every row of ``rows`` added into ``out`` by a kernel handed the borrowed arrays,
    with whether the arrays it saw were counted."""
    lent, lent_out = borrowed(rows), borrowed(out)
    counted = _counted(rows)
    seen = False
    for i in range(rows.shape[0]):
        whole, row = _add_row(lent, i, lent_out)
        seen = seen or whole or row
    return counted, seen


def test_borrowed_arrays_are_the_same_data_without_a_count() -> None:
    """A kernel handed borrowed arrays reads and writes the owner's data, and neither
    they nor the rows taken from them carry a reference count; the owner's does."""
    rows = np.arange(12, dtype=np.uint64).reshape(4, 3)
    out = np.zeros(3, dtype=np.uint64)
    counted, seen = _rows_through_borrowed(rows, out)
    assert out.tolist() == rows.sum(axis=0).tolist()
    assert counted and not seen


@STABLE
@given(st.lists(WORDS, min_size=1, max_size=20))
def test_popcount_and_ctz_match_python(values: list[int]) -> None:
    words = np.array(values, dtype=np.uint64)
    counts = np.empty(len(values), dtype=np.uint64)
    _popcounts(words, counts)
    assert counts.tolist() == [bin(v).count("1") for v in values]
    nonzero = np.array([v for v in values if v] or [1], dtype=np.uint64)
    lowest = np.empty(nonzero.shape[0], dtype=np.uint64)
    _lowest_bits(nonzero, lowest)
    assert lowest.tolist() == [(int(v) & -int(v)).bit_length() - 1 for v in nonzero.tolist()]


def test_ctz_of_the_edge_bits() -> None:
    words = np.array([1, 1 << 63, (1 << 63) | 1, 0xFFFFFFFFFFFFFFFF], dtype=np.uint64)
    out = np.empty(4, dtype=np.uint64)
    _lowest_bits(words, out)
    assert out.tolist() == [0, 63, 0, 0]
    _popcounts(words, out)
    assert out.tolist() == [1, 1, 2, 64]


@pytest.mark.parametrize("words", [2, 5, RUNTIME_WIDTH + 3])
def test_local_words_hold_what_is_written_at_both_widths(words: int) -> None:
    """A set on the kernel's stack (a tuple shape, a compiled width) or on the heap (an
    array shape, past the tiers) holds every word written to it."""
    bits = np.arange(1, words + 1, dtype=np.uint64) * np.uint64(0x0101010101010101)
    shape = width_shape(words)
    assert isinstance(shape, tuple) == (words in WIDTH_TIERS)
    assert _through_local_words(bits, shape).tolist() == bits[::-1].tolist()


def test_local_words_is_for_kernels_only() -> None:
    with pytest.raises(NotImplementedError):
        local_words((0, 0))


@STABLE
@given(st.integers(1, 300).flatmap(lambda n: st.tuples(st.just(n), st.sets(st.integers(0, n - 1)))))
def test_to_bits_and_from_bits_round_trip(case: tuple[int, set[int]]) -> None:
    n_bits, members = case
    bits = to_bits(sorted(members), n_bits)
    assert bits.dtype == np.uint64 and bits.shape == (n_words(n_bits),)
    assert from_bits(bits) == sorted(members)
    assert count(bits) == len(members)
    out = np.empty(bits.shape[0] * 64, dtype=np.int64)
    assert out[: bs_members(bits, out)].tolist() == sorted(members)
    # bit r of word r >> 6 stands for member r
    assert all(int(bits[m >> 6]) >> (m & 63) & 1 for m in members)


def test_n_words_and_padding() -> None:
    assert [n_words(n) for n in (0, 1, 64, 65, 128, 129)] == [1, 1, 1, 2, 2, 3]
    bits = np.array([[1, 2], [3, 4]], dtype=np.uint64)
    wide = pad_words(bits, 5)
    assert wide.shape == (2, 5) and wide[:, :2].tolist() == bits.tolist() and not wide[:, 2:].any()
    assert pad_words(bits, 2) is bits and pad_words(bits, 1) is bits


def test_padded_width_is_the_smallest_tier_that_holds_the_set() -> None:
    assert list(WIDTH_TIERS) == sorted(WIDTH_TIERS) and RUNTIME_WIDTH > max(WIDTH_TIERS)
    for words in range(1, max(WIDTH_TIERS) + 4):
        width = padded_width(words)
        assert width >= words
        if words <= max(WIDTH_TIERS):
            assert width in WIDTH_TIERS and all(t < words for t in WIDTH_TIERS if t < width)
            assert compiled_width(words) == width
        else:
            assert width == words and compiled_width(words) == RUNTIME_WIDTH
            shape = width_shape(words)
            assert isinstance(shape, np.ndarray) and shape.shape == (words,)
    assert width_shape(3) == (0, 0, 0)


@STABLE
@given(st.lists(WORDS, min_size=1, max_size=8), st.lists(WORDS, min_size=1, max_size=4))
def test_hash_words_reads_the_first_words_at_either_width(values: list[int], extra: list[int]) -> None:
    """The hash of a set is the same whether the width is a compile-time tuple or the set
    itself, and words past the width do not change it."""
    bits = np.array(values, dtype=np.uint64)
    longer = np.concatenate([bits, np.array(extra, dtype=np.uint64)])
    h = int(hash_words(bits, bits))
    assert int(hash_words(bits, (0,) * len(values))) == h
    assert int(hash_words(longer, (0,) * len(values))) == h
    assert int(hash_words(longer, bits)) == h


def test_hash_words_tells_sets_apart() -> None:
    """One bit more in any word changes the hash (for these sets: no collisions among the
    sets of one bit of three words, nor with the empty set)."""
    empty = np.zeros(3, dtype=np.uint64)
    hashes = {int(hash_words(empty, empty))}
    for r in range(3 * 64):
        hashes.add(int(hash_words(to_bits([r], 3 * 64), empty)))
    assert len(hashes) == 3 * 64 + 1
