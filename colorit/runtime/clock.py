"""The clock a time limit counts from (the process start, so interpreter and imports
count), and the garbage collector held back while a command starts.
"""

from __future__ import annotations

import gc
import os
import time

#: The young generation's threshold while a command starts. Imports and loading the
#: kernels make a few hundred thousand objects that live as long as the process, and at
#: the default threshold (700) the cyclic collector walks them hundreds of times: 0.1 s
#: of a bench's start on the 2-core test machine.
START_GC_THRESHOLD = 200_000
_gc_thresholds: tuple[int, int, int] | None = None


def defer_collection() -> None:
    """Collect rarely until ``settle_collection``: a command's start allocates much and
    frees little."""
    global _gc_thresholds
    if _gc_thresholds is None:
        _gc_thresholds = gc.get_threshold()
        gc.set_threshold(START_GC_THRESHOLD, _gc_thresholds[1], _gc_thresholds[2])


def settle_collection() -> None:
    """End the start: what it made is set aside for good (``gc.freeze``: later
    collections do not walk it) and the collector's thresholds are restored."""
    global _gc_thresholds
    if _gc_thresholds is not None:
        gc.freeze()
        gc.set_threshold(*_gc_thresholds)
        _gc_thresholds = None


#: ``bin/colorit`` sets this (epoch seconds) when its first-run setup ran in this
#: process before the CLI, so that the setup does not eat the time limit.
CLOCK_ENV = "COLORIT_CLOCK_START"

_IMPORTED_AT = time.monotonic()



def process_age() -> float | None:
    """Seconds since this process started (Linux ``/proc``), ``None`` where unknown."""
    try:
        with open("/proc/self/stat", encoding="ascii", errors="replace") as f:
            stat = f.read()
        with open("/proc/uptime", encoding="ascii") as f:
            uptime = float(f.read().split()[0])
        # the command name may hold spaces and parentheses: count fields after the last ')'
        start_ticks = int(stat[stat.rindex(")") + 2 :].split()[19])
        return uptime - start_ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def clock_start(from_process_start: bool = True) -> float:
    """The ``time.monotonic()`` value a time limit counts from.

    For a command-line run that is the process start, so interpreter and import time
    count; never later than this module's import, and never earlier than the moment
    ``bin/colorit`` finished its first-run setup (``COLORIT_CLOCK_START``).
    """
    now = time.monotonic()
    if not from_process_start:
        return now
    since_import = now - _IMPORTED_AT
    age = process_age()
    # /proc clocks tick in 1/100 s; anything shorter than the import is not believable
    if age is None or age < since_import - 0.05:
        age = since_import
    marker = os.environ.get(CLOCK_ENV)
    if marker:
        try:
            since_setup = time.time() - float(marker)
        except ValueError:
            since_setup = age
        if 0.0 <= since_setup < age:
            age = max(since_setup, since_import)
    return now - max(age, since_import)
