"""How kernels are made in this process: numba's JIT (``_jit``), or the modules compiled
ahead of time when they are built for it (``_aot``). Kernel modules take ``kernel``,
``superword_kernel`` and ``prefetch`` from here."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import _aot

if _aot.ACTIVE:

    def _jit_kernel(fn: Callable[..., Any]) -> Any:
        from . import _jit

        return _jit.kernel(fn)

    def kernel(fn: Callable[..., Any]) -> Any:
        """A kernel (see ``_jit.kernel``): the modules' export, or numba's once it took over."""
        if _aot.materialized:
            return _jit_kernel(fn)
        return _aot.Proxy(fn, _jit_kernel)

    def superword_kernel(min_words: int) -> Callable[[Callable[..., Any]], Any]:
        """``_jit.superword_kernel``, served like ``kernel``."""

        def make(fn: Callable[..., Any]) -> Any:
            from . import _jit

            return _jit.superword_kernel(min_words)(fn)

        def decorate(fn: Callable[..., Any]) -> Any:
            if _aot.materialized:
                return make(fn)
            return _aot.Proxy(fn, make)

        return decorate

    prefetch: Any = _aot.Placeholder("prefetch")

    def _real_prefetch() -> None:
        from . import _jit

        prefetch.real = _jit.prefetch

    _aot.on_materialize(_real_prefetch)
else:
    from ._jit import kernel, prefetch, superword_kernel  # noqa: F401
