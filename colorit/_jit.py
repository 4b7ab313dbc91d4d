"""Numba settings in one place: every kernel is compiled with these options, and loaded
from numba's disk cache without numba's compiler registries (``load_from_cache_lean``)."""

from __future__ import annotations

import os

import numba

#: Options for every kernel (njit is nopython): cached on disk so later runs start at once.
JIT_OPTIONS = {"cache": True, "nogil": True}


def kernel(fn):  # type: ignore[no-untyped-def]
    """Compile ``fn`` (a plain function over arrays and scalars) with the project's options."""
    return numba.njit(**JIT_OPTIONS)(fn)


def _prefetch_intrinsic():  # type: ignore[no-untyped-def]
    from llvmlite import ir
    from numba.core import cgutils, types
    from numba.extending import intrinsic

    @intrinsic
    def prefetch(typingctx, arr, index):  # type: ignore[no-untyped-def]
        """Ask the CPU to fetch ``arr[index]`` into cache (a hint: no effect on results)."""

        def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
            arr_type = signature.args[0]
            array = context.make_array(arr_type)(context, builder, args[0])
            item = cgutils.get_item_pointer(context, builder, arr_type, array, [args[1]], wraparound=False)
            byte_ptr = builder.bitcast(item, ir.IntType(8).as_pointer())
            i32 = ir.IntType(32)
            opaque = getattr(byte_ptr.type, "is_opaque", False) or not hasattr(byte_ptr.type, "pointee")
            name = "llvm.prefetch.p0" if opaque else "llvm.prefetch.p0i8"
            fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(ir.VoidType(), [byte_ptr.type, i32, i32, i32]), name)
            # read, high locality, data cache
            builder.call(fn, [byte_ptr, i32(0), i32(3), i32(1)])
            return context.get_dummy_value()

        return types.void(arr, index), codegen

    return prefetch


#: ``prefetch(arr, index)`` inside a kernel: start loading ``arr[index]`` now, so a later
#: read of it (a hash-table probe, typically) finds it in cache.
prefetch = _prefetch_intrinsic()


#: Set (to anything) to load cached kernels the way numba does by itself.
FULL_LOAD_ENV = "COLORIT_NUMBA_FULL_LOAD"


def load_from_cache_lean() -> bool:
    """Let numba load a cached kernel without first loading its compiler's registries.

    numba's cache loader refreshes the target context before every load, and the first
    refresh in a process imports and registers every lowering numba has (linear algebra,
    random numbers, typed containers, ...): about 0.3 s of each command's start, of which
    a kernel compiled already needs nothing. What its object code does need is numba's
    runtime (``NRT_*``: array allocation), which is initialised here; its other symbols
    (the C API, numba's helpers, libm) are resolved at numba's import. On a cache miss
    the registries are loaded for the compile that follows; a load that fails is left to
    numba's own loader.
    Installed only where numba's loader has the shape this was written for, and not when
    ``COLORIT_NUMBA_FULL_LOAD`` is set; returns whether it is installed."""
    if os.environ.get(FULL_LOAD_ENV):
        return False
    try:
        from numba.core import caching
        from numba.core.runtime import rtsys
    except ImportError:  # pragma: no cover (another numba layout: keep its own loader)
        return False
    cache = getattr(caching, "Cache", None)
    needed = ("load_overload", "_load_overload", "_guard_against_spurious_io_errors")
    if cache is None or not all(hasattr(cache, name) for name in needed) or not hasattr(rtsys, "initialize"):
        return False  # pragma: no cover
    if getattr(cache.load_overload, "_colorit_lean", False):
        return True

    numba_load = cache.load_overload

    def load_overload(self, sig, target_context):  # type: ignore[no-untyped-def]
        rtsys.initialize(target_context)
        data = None
        try:
            with self._guard_against_spurious_io_errors():
                data = self._load_overload(sig, target_context)
        except Exception:  # noqa: BLE001 (a numba whose cached code needs more: its own way)
            return numba_load(self, sig, target_context)
        if data is None:
            target_context.refresh()  # a miss: a compile follows, which needs every registry
        return data

    load_overload._colorit_lean = True  # type: ignore[attr-defined]
    cache.load_overload = load_overload
    return True


load_from_cache_lean()
