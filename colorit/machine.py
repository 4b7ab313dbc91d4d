"""What this machine gives a process: its memory (RAM, or its container's limit), its
cores (affinity and cgroup quota), and the share of memory each of several workers may
take. Read from the operating system, never guessed: a container's limits win over the
host's.

Only the standard library is imported here, so the command line can ask before numpy or
numba load.
"""

from __future__ import annotations

import math
import os
import time

#: The size units a size is written in (``512M``, ``2G``), each 1024 times the last.
SIZE_UNITS = "_kmgt"


#: Where the cgroup file system is; the variable lets a test (or an odd mount) point
#: elsewhere.
CGROUP_ROOT_ENV = "COLORIT_CGROUP_ROOT"
CGROUP_ROOT = "/sys/fs/cgroup"
#: cgroup v1 writes "no limit" as a huge number (the largest page-aligned int64).
_V1_UNLIMITED = 1 << 60


def physical_memory() -> int:
    """The machine's RAM in bytes (8 GiB where the system does not say)."""
    try:
        return int(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"))
    except (ValueError, OSError, AttributeError):
        return 8 << 30


def _read(path: str) -> str | None:
    try:
        with open(path, encoding="ascii") as f:
            return f.read().strip()
    except (OSError, UnicodeDecodeError):
        return None


def _cgroup_dirs(controller: str) -> list[str]:
    """The folders that may hold this process's cgroup files for ``controller`` (``""``
    for cgroup v2's unified tree): this process's own group (``/proc/self/cgroup``) and
    each group above it, up to the root as the container sees it; a limit anywhere on
    that path holds. With ``COLORIT_CGROUP_ROOT`` set, only that root."""
    override = os.environ.get(CGROUP_ROOT_ENV)
    root = override or CGROUP_ROOT
    base = os.path.join(root, controller) if controller else root
    if override:
        return [base]
    own = ""
    for line in (_read("/proc/self/cgroup") or "").splitlines():
        parts = line.split(":", 2)
        if len(parts) == 3 and ((not controller and parts[1] == "") or (controller and controller in parts[1].split(","))):
            own = parts[2].strip("/")
            break
    dirs = []
    steps = own.split("/") if own else []
    for depth in range(len(steps), 0, -1):
        folder = os.path.join(base, *steps[:depth])
        if os.path.isdir(folder):
            dirs.append(folder)
    dirs.append(base)
    return dirs


def _lowest(values: list[float]) -> float | None:
    return min(values) if values else None


def cgroup_memory_limit() -> int | None:
    """The memory limit of this process's cgroup in bytes (v2 ``memory.max``, v1
    ``memory/memory.limit_in_bytes``), the lowest on its path; ``None`` when there is
    none ("max", v1's huge number) or no cgroup files."""
    found: list[float] = []
    for folder in _cgroup_dirs(""):
        text = _read(os.path.join(folder, "memory.max"))
        if text is not None and text.isdigit() and int(text) > 0:
            found.append(int(text))
    if not found:
        for folder in _cgroup_dirs("memory"):
            text = _read(os.path.join(folder, "memory.limit_in_bytes"))
            if text is not None and text.isdigit() and 0 < int(text) < _V1_UNLIMITED:
                found.append(int(text))
    low = _lowest(found)
    return None if low is None else int(low)


def _quota(quota_text: str | None, period_text: str | None) -> float | None:
    try:
        quota = int(quota_text or "")
        period = int(period_text or "100000")
    except ValueError:
        return None
    return quota / period if quota > 0 and period > 0 else None


def cgroup_cpu_limit() -> float | None:
    """The CPU quota of this process's cgroup in cores (v2 ``cpu.max``: "quota period";
    v1 ``cpu/cpu.cfs_quota_us`` over ``cpu.cfs_period_us``), the lowest on its path;
    ``None`` when there is none ("max", -1) or no cgroup files."""
    found: list[float] = []
    for folder in _cgroup_dirs(""):
        text = _read(os.path.join(folder, "cpu.max"))
        if text:
            parts = text.split()
            quota = _quota(parts[0] if parts[0] != "max" else None, parts[1] if len(parts) > 1 else None)
            if quota is not None:
                found.append(quota)
    if not found:
        for controller in ("cpu", "cpu,cpuacct"):
            for folder in _cgroup_dirs(controller):
                quota = _quota(_read(os.path.join(folder, "cpu.cfs_quota_us")), _read(os.path.join(folder, "cpu.cfs_period_us")))
                if quota is not None:
                    found.append(quota)
    return _lowest(found)


#: Seconds ``machine_memory`` keeps what it read: a bench checks each board's limits,
#: and reading the cgroup files each time took a tenth of a set of small boards' time.
MACHINE_MEMORY_TTL = 1.0
_machine_memory_read: dict[str | None, tuple[float, int]] = {}


def machine_memory() -> int:
    """The memory this process may use in bytes: the machine's RAM, or its cgroup's
    (container's) memory limit when that is lower (read again after
    ``MACHINE_MEMORY_TTL`` seconds, or when ``COLORIT_CGROUP_ROOT`` changes)."""
    key = os.environ.get(CGROUP_ROOT_ENV)
    now = time.monotonic()
    kept = _machine_memory_read.get(key)
    if kept is not None and now - kept[0] < MACHINE_MEMORY_TTL:
        return kept[1]
    ram = physical_memory()
    limit = cgroup_memory_limit()
    total = min(ram, limit) if limit is not None and limit > 0 else ram
    _machine_memory_read[key] = (now, total)
    return total


def available_cpus() -> int:
    """How many cores this process may keep busy: the cores it may run on, no more than
    its cgroup's CPU quota (rounded up), at least 1."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    quota = cgroup_cpu_limit()
    if quota is not None:
        cores = min(cores, math.ceil(quota))
    return max(1, cores)


def default_memory_bytes() -> int:
    """Half of the memory this process may use (the machine's RAM, or its container's
    limit): the default cap for search tables."""
    return machine_memory() // 2


def default_memory_text() -> str:
    """The default cap as the command line shows it: ``512M (half of the container's
    1G)`` or ``12G (half of this machine's 24G of RAM)``."""
    total = machine_memory()
    whose = f"the container's {format_size(total)}" if total < physical_memory() else f"this machine's {format_size(total)} of RAM"
    return f"{format_size(total // 2)} (half of {whose})"


def format_size(size: float) -> str:
    """``25769803776`` as ``24G``, ``1610612736`` as ``1.5G``: the way sizes are given."""
    for unit in "TGMK":
        scale = 1024 ** (SIZE_UNITS.index(unit.lower()))
        if size >= scale:
            value = size / scale
            return f"{value:.1f}".rstrip("0").rstrip(".") + unit
    return f"{int(size)}"


#: Less than this cannot hold even the smallest search tables.
MIN_MEMORY = 1 << 20


def memory_share(total: int, workers: int) -> int:
    """Each of ``workers`` workers' share of ``total`` bytes for search tables: an equal
    part, never below ``MIN_MEMORY``. Every place that splits memory among workers (the
    web server's solver processes, a bench's processes, a Dask worker's threads) uses
    this one rule."""
    return max(MIN_MEMORY, total // max(1, workers))
