"""``colorit.warmup``: loading the kernels before a clock runs, without the work of a solve."""

from __future__ import annotations

import tracemalloc

from colorit.warmup import warm_for


def test_the_warm_up_allocates_little() -> None:
    """One slice of each search needs no table of the size a real search would take (the
    depth-first search's memo is sized by the memory limit: 96 MB under the default)."""
    tracemalloc.start()
    try:
        warm_for("auto")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 32 << 20
