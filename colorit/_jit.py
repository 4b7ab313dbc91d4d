"""Numba settings in one place: every kernel is compiled with these options."""

from __future__ import annotations

import numba

#: Options for every kernel (njit is nopython): cached on disk so later runs start at once.
JIT_OPTIONS = {"cache": True, "nogil": True}


def kernel(fn):  # type: ignore[no-untyped-def]
    """Compile ``fn`` (a plain function over arrays and scalars) with the project's options."""
    return numba.njit(**JIT_OPTIONS)(fn)
