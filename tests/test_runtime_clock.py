"""``colorit.runtime.clock``: a command line's time limit counts from the process start
(or from ``bin/colorit``'s setup), a call's from the call; the collector waits for the
start and then sets what it made aside."""

from __future__ import annotations

import gc
import subprocess
import sys
import time

import pytest

import colorit.runtime.clock as clock_module
from colorit.runtime.clock import clock_start, defer_collection, settle_collection

from cli_support import env


def test_clock_from_a_call_is_now() -> None:
    before = time.monotonic()
    assert before <= clock_start(from_process_start=False) <= time.monotonic()


def test_clock_counts_from_the_process_start() -> None:
    """Interpreter start and imports count against a command line's time limit."""
    script = "import time; time.sleep(0.6); from colorit.runtime.clock import clock_start; print(time.monotonic() - clock_start())"
    proc = subprocess.run(
        [sys.executable, "-c", script], check=False, capture_output=True, text=True, env=env(), timeout=30
    )
    assert proc.returncode == 0, proc.stderr
    age = float(proc.stdout)
    assert 0.6 <= age < 10


def test_clock_starts_after_bin_colorit_setup(monkeypatch: pytest.MonkeyPatch) -> None:
    """``COLORIT_CLOCK_START`` (epoch seconds, set by ``bin/colorit`` after a first-run
    setup) moves the start later than the process start, never before the import."""
    monkeypatch.setattr(clock_module, "_IMPORTED_AT", time.monotonic() - 0.1)
    monkeypatch.setenv(clock_module.CLOCK_ENV, repr(time.time() - 0.5))
    age = time.monotonic() - clock_module.clock_start()
    assert 0.45 <= age < 0.6
    monkeypatch.setenv(clock_module.CLOCK_ENV, "not a time")
    assert time.monotonic() - clock_module.clock_start() >= 0.1


def test_the_collector_waits_for_the_start_and_then_sets_it_aside() -> None:
    """While a command starts the young generation's threshold is high (its imports and
    kernels allocate much and free little); ``settle_collection`` freezes what the start
    made and restores the thresholds; without a deferred start it changes nothing."""
    before = gc.get_threshold()
    frozen = gc.get_freeze_count()
    try:
        settle_collection()
        assert gc.get_threshold() == before and gc.get_freeze_count() == frozen
        defer_collection()
        defer_collection()  # twice: the thresholds to restore are still the first
        assert gc.get_threshold() == (clock_module.START_GC_THRESHOLD, before[1], before[2])
        kept = [object() for _ in range(10)]
        settle_collection()
        assert gc.get_threshold() == before
        assert gc.get_freeze_count() > frozen + len(kept) - 1
    finally:
        gc.set_threshold(*before)
        gc.unfreeze()
