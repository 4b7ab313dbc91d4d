"""Bitset primitives for kernels: a set of regions is a ``uint64`` array, bit ``r`` of word
``r >> 6`` standing for region ``r``.

Popcount and count-trailing-zeros map onto single CPU instructions through LLVM
intrinsics, which is what makes walking a set's members cheap in the search loops.
``local_words`` gives a kernel scratch sets on its own stack: with a compile-time width
LLVM keeps them in registers, where array arguments (which might alias each other) would
be loaded and stored on every update.
"""

from __future__ import annotations

import numpy as np

from .. import _aot
from .._kernel import kernel


def local_words(shape):  # type: ignore[no-untyped-def]
    """An uninitialised set of ``len(shape)`` words for use inside a kernel: on the
    kernel's stack when ``shape`` is a tuple (a compile-time width), else on the heap."""
    raise NotImplementedError("local_words is for kernels only")


def _numba_primitives():  # type: ignore[no-untyped-def]
    """popcount, ctz and borrowed (LLVM intrinsics), with ``local_words``' compiled form
    registered: numba's, made when kernels compile with it (at import, or when it takes
    over from the modules compiled ahead of time: ``_aot``)."""
    from llvmlite import ir
    from numba import types
    from numba.core import cgutils
    from numba.extending import intrinsic, overload
    from numba.np.numpy_support import carray

    @intrinsic
    def popcount(typingctx, x):  # type: ignore[no-untyped-def]
        """Number of set bits of a ``uint64``."""
        sig = types.uint64(types.uint64)

        def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
            return builder.ctpop(args[0])

        return sig, codegen

    @intrinsic
    def ctz(typingctx, x):  # type: ignore[no-untyped-def]
        """Index of the lowest set bit of a non-zero ``uint64``."""
        sig = types.uint64(types.uint64)

        def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
            return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

        return sig, codegen

    @intrinsic
    def _stack_words(typingctx, shape):  # type: ignore[no-untyped-def]
        """Pointer to ``len(shape)`` uint64 words in the calling kernel's stack frame."""
        n = len(shape)
        sig = types.CPointer(types.uint64)(shape)

        def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
            return cgutils.alloca_once(builder, context.get_value_type(types.uint64), size=n)

        return sig, codegen

    @intrinsic
    def borrowed(typingctx, arr):  # type: ignore[no-untyped-def]
        """``arr`` without its reference count (a null meminfo), the same data, shape and
        strides. A kernel increments the count of every array it is passed, atomically, and
        decrements it on the way out, where numba's pruning of such pairs gives up on big
        kernels (the bound's, with its tests, takes up to a dozen a call): with the arrays
        the searches pass to the bound borrowed, whole processes took 0.94 of the time on
        pc19, 0.93 on b10c15 and 0.97 on b24c4. Only for arrays whose owner outlives every
        use of the borrowed one (a kernel's argument, passed down to the kernels it calls);
        never stored or returned to Python."""
        if not isinstance(arr, types.Array):
            return None
        sig = arr(arr)

        def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
            src = context.make_array(arr)(context, builder, value=args[0])
            out = context.make_array(arr)(context, builder)
            out.meminfo = cgutils.get_null_value(out.meminfo.type)
            out.parent = cgutils.get_null_value(out.parent.type)
            out.nitems = src.nitems
            out.itemsize = src.itemsize
            out.data = src.data
            out.shape = src.shape
            out.strides = src.strides
            return out._getvalue()

        return sig, codegen

    @overload(local_words)
    def _local_words(shape):  # type: ignore[no-untyped-def]
        if isinstance(shape, types.BaseTuple):
            n = len(shape)
            return lambda shape: carray(_stack_words(shape), n)
        return lambda shape: np.empty(shape.shape[0], dtype=np.uint64)

    return popcount, ctz, borrowed


if _aot.ACTIVE:
    popcount = _aot.Placeholder("popcount")
    ctz = _aot.Placeholder("ctz")
    borrowed = _aot.Placeholder("borrowed")

    def _real_primitives() -> None:
        popcount.real, ctz.real, borrowed.real = _numba_primitives()

    _aot.on_materialize(_real_primitives)
else:
    popcount, ctz, borrowed = _numba_primitives()


#: Word counts the searches are compiled for: sets are padded up to the next one, so word
#: loops have a compile-time length (wider sets run with run-time loops).
WIDTH_TIERS = (2, 3, 4, 5, 6, 7, 8)


def padded_width(words: int) -> int:
    """The word count a search runs at: the smallest tier that holds ``words`` (one
    compile per tier, not per width); wider sets run at their own width."""
    for tier in WIDTH_TIERS:
        if words <= tier:
            return tier
    return words


#: The compiled-width key of the run-time-width kernels (sets wider than every tier).
RUNTIME_WIDTH = max(WIDTH_TIERS) + 1


def compiled_width(words: int) -> int:
    """Which compiled search kernel sets of ``words`` words run: their tier, or
    ``RUNTIME_WIDTH`` past the tiers (one kernel for every wider width)."""
    width = padded_width(words)
    return width if width in WIDTH_TIERS else RUNTIME_WIDTH


def width_shape(words: int) -> tuple[int, ...] | np.ndarray:
    """The ``shape`` argument of the kernels for sets of ``words`` words: a tuple (a
    compile-time width) for a tier, an array (run-time loops) past them."""
    return (0,) * words if words in WIDTH_TIERS else np.zeros(words)


def pad_words(bits: np.ndarray, words: int) -> np.ndarray:
    """``bits`` (last axis: words) widened with zero words to ``words``."""
    extra = words - bits.shape[-1]
    if extra <= 0:
        return bits
    return np.concatenate([bits, np.zeros(bits.shape[:-1] + (extra,), dtype=bits.dtype)], axis=-1)


def n_words(n_bits: int) -> int:
    """Words needed for a set over ``n_bits`` elements (at least one)."""
    return max(1, (n_bits + 63) // 64)


@kernel
def hash_words(bits, shape):  # type: ignore[no-untyped-def]
    """A 64-bit hash of the first ``len(shape)`` words of ``bits`` (a tuple ``shape`` makes
    the width a compile-time constant), for the searches' tables of seen states."""
    h = np.uint64(0x9E3779B97F4A7C15)
    for w in range(len(shape)):
        h ^= bits[w]
        h *= np.uint64(0xBF58476D1CE4E5B9)
        h ^= h >> np.uint64(31)
    return h


@kernel
def count(bits):  # type: ignore[no-untyped-def]
    """Members of the set."""
    n = 0
    for w in range(bits.shape[0]):
        n += np.int64(popcount(bits[w]))
    return n


@kernel
def bs_members(bits, out):  # type: ignore[no-untyped-def]
    """Write the members of ``bits`` into ``out`` in increasing order; return how many."""
    n = 0
    for w in range(bits.shape[0]):
        x = bits[w]
        while x != np.uint64(0):
            out[n] = (w << 6) + np.int64(ctz(x))
            n += 1
            x &= x - np.uint64(1)
    return n


def to_bits(members: np.ndarray | list[int], n_bits: int) -> np.ndarray:
    """A bitset over ``n_bits`` elements holding ``members`` (Python-side helper)."""
    bits = np.zeros(n_words(n_bits), dtype=np.uint64)
    for m in members:
        bits[m >> 6] |= np.uint64(1) << np.uint64(m & 63)
    return bits


def from_bits(bits: np.ndarray) -> list[int]:
    """The members of a bitset, increasing (Python-side helper)."""
    out = np.empty(bits.shape[0] * 64, dtype=np.int64)
    members: list[int] = out[: bs_members(bits, out)].tolist()
    return members
