"""Numba settings in one place: every kernel is compiled with these options."""

from __future__ import annotations

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
