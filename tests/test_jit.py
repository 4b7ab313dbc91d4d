"""``colorit._jit``: the kernel options and the ``prefetch`` hint."""

from __future__ import annotations

import numpy as np

from colorit._jit import kernel, prefetch


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
