"""``colorit._jit``: the kernel options, the ``prefetch`` hint and the lean cache loader."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np

from colorit._jit import FULL_LOAD_ENV, kernel, load_from_cache_lean, prefetch


@kernel
def _sum_with_prefetch(values, order):  # type: ignore[no-untyped-def]
    total = np.uint64(0)
    for i in range(order.shape[0]):
        if i + 1 < order.shape[0]:
            prefetch(values, order[i + 1])
        total += values[order[i]]
    return total


@kernel
def _prefetch_row(table, row):  # type: ignore[no-untyped-def]
    prefetch(table[row], 0)
    return table[row, 1]


def test_prefetch_compiles_and_changes_no_result() -> None:
    rng = np.random.default_rng(7)
    values = rng.integers(0, 1 << 40, size=1 << 12).astype(np.uint64)
    order = rng.permutation(values.shape[0]).astype(np.int64)
    assert _sum_with_prefetch(values, order) == values.sum(dtype=np.uint64)


def test_prefetch_takes_a_row_of_a_2d_table() -> None:
    table = np.arange(40, dtype=np.int32).reshape(20, 2)
    assert _prefetch_row(table, 7) == 15


# --- cached kernels loaded without numba's compiler registries (``load_from_cache_lean``)

_REGISTRY_MODULE = "numba.np.linalg"  # imported by numba's first context refresh

_KERNEL_SOURCE = """
import numpy as np
from colorit._jit import kernel


@kernel
def weighted(values, weights):
    out = np.empty(values.shape[0], dtype=np.int64)  # allocates: needs numba's runtime
    for i in range(values.shape[0]):
        out[i] = values[i] * weights[i]
    return out
"""

_RUN = """
import sys
import numpy as np
import lean_probe
print(lean_probe.weighted(np.arange(5), np.arange(5) + 1).tolist())
print(sys.argv[1] in sys.modules)
"""


def _run_probe(tmp_path: Path, **env: str) -> tuple[str, str]:
    """(the kernel's result, whether numba's registries were imported) in a new process."""
    environ = {k: v for k, v in os.environ.items() if k != FULL_LOAD_ENV}
    environ.update(NUMBA_CACHE_DIR=str(tmp_path / "cache"), PYTHONPATH=str(tmp_path), **env)
    done = subprocess.run([sys.executable, "-c", _RUN, _REGISTRY_MODULE], capture_output=True, text=True,
                          env=environ, timeout=300)
    assert done.returncode == 0, done.stderr
    result, imported = done.stdout.splitlines()
    return result, imported


def test_a_cached_kernel_loads_without_the_compiler_and_a_new_one_compiles(tmp_path: Path) -> None:
    (tmp_path / "lean_probe.py").write_text(_KERNEL_SOURCE)
    expected = "[0, 2, 6, 12, 20]"
    # a miss: numba's own loader refreshes everything and compiles, then caches
    assert _run_probe(tmp_path) == (expected, "True")
    # a hit: the kernel (which allocates) loads and runs with no registry imported
    assert _run_probe(tmp_path) == (expected, "False")
    # switched off: numba imports its registries first, as it does by itself
    assert _run_probe(tmp_path, **{FULL_LOAD_ENV: "1"}) == (expected, "True")


def test_the_lean_loader_is_installed_once() -> None:
    from numba.core import caching

    assert load_from_cache_lean() is True
    loader = caching.Cache.load_overload
    assert load_from_cache_lean() is True
    assert caching.Cache.load_overload is loader
