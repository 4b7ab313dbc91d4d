"""What a search may spend, checked once for the library and the command line alike.

``Limits(time=10, memory="2G")`` and ``colorit IN OUT --time-limit 10 --max-memory 2G``
go through the same checks and fail with the same one-line messages, so a script and a
person hear the same thing. Only the standard library is imported here: the command line
parses its options before numpy or numba are loaded.
"""

from __future__ import annotations

import math
import numbers
import os
import re
import time
from dataclasses import dataclass

from .errors import ColoritError

_SIZE = re.compile(r"\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?\s*", re.IGNORECASE)
_UNITS = "_kmgt"
#: Less than this cannot hold even the smallest search tables.
MIN_MEMORY = 1 << 20


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
        scale = 1024 ** (_UNITS.index(unit.lower()))
        if size >= scale:
            value = size / scale
            return f"{value:.1f}".rstrip("0").rstrip(".") + unit
    return f"{int(size)}"


def whole_number(value: object, what: str, minimum: int | None = None, maximum: int | None = None) -> int:
    """``value`` as an int in ``minimum .. maximum``, refusing what would have to be
    rounded (``1.5``, ``"3"``, ``True``) rather than truncating it in silence."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        else:
            raise ColoritError(f"{what} must be a whole number, got {value!r}")
    number = int(value)
    if minimum is not None and number < minimum:
        raise ColoritError(f"{what} must be at least {minimum}, got {number}")
    if maximum is not None and number > maximum:
        raise ColoritError(f"{what} must be at most {maximum}, got {number}")
    return number


def check_seconds(value: object, what: str = "time limit") -> float:
    """A positive, finite number of seconds."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ColoritError(f"{what} must be a positive number of seconds, got {value!r}")
    seconds = float(value)
    if not (math.isfinite(seconds) and seconds > 0):
        raise ColoritError(f"{what} must be a positive number of seconds, got {seconds:g}")
    return seconds


def parse_seconds(text: str, what: str = "time limit") -> float:
    """Seconds from the command line: ``10``, ``0.5``, ``2e3``."""
    try:
        value = float(text)
    except ValueError:
        raise ColoritError(f"{what} {text!r} is not a number of seconds") from None
    return check_seconds(value, what)


def parse_pause(text: str, what: str, maximum: float) -> float:
    """A pause from the command line: seconds from 0 (none) up to ``maximum``."""
    try:
        value = float(text)
    except ValueError:
        raise ColoritError(f"{what} {text!r} is not a number of seconds") from None
    if not (math.isfinite(value) and 0 <= value <= maximum):
        raise ColoritError(f"{what} must be between 0 and {maximum:g} seconds, got {value:g}")
    return value


def parse_size(text: str, what: str = "memory size") -> int:
    """Bytes from ``512M``, ``2G``, ``1.5GiB`` or a plain number of bytes (K, M, G and
    T are powers of 1024)."""
    m = _SIZE.fullmatch(text)
    if not m:
        raise ColoritError(f"{what} {text!r} is not a size such as 512M, 2G or a number of bytes")
    size = float(m.group(1)) * 1024 ** _UNITS.index(m.group(2).lower() or "_")
    if not size.is_integer():
        raise ColoritError(f"{what} {text!r} is not a whole number of bytes")
    return int(size)


def check_memory(value: object, what: str = "memory limit") -> int:
    """A memory cap in bytes (an int, or a size string such as ``"2G"``) that this
    machine can give: between 1M and its RAM (or its container's memory limit)."""
    if isinstance(value, str):
        size, shown = parse_size(value, "memory size" if what == "memory limit" else what), value.strip()
    else:
        size = whole_number(value, what)
        shown = str(size)
    if size < MIN_MEMORY:
        raise ColoritError(f"{what} {shown} is below 1M, too little to search in")
    total = machine_memory()
    if size > total:
        if total < physical_memory():
            raise ColoritError(f"{what} {shown} is more than the {format_size(total)} this container may use")
        raise ColoritError(f"{what} {shown} is more than this machine's {format_size(total)} of RAM")
    return size


@dataclass(frozen=True)
class Limits:
    """How long a solver may run (seconds, ``None`` for no limit) and how much memory its
    search tables may take (bytes or a size such as ``"2G"``; ``None`` for half the RAM).

    >>> Limits(time=10, memory="512M").memory
    536870912
    """

    time: float | None = None
    memory: int | str | None = None

    def __post_init__(self) -> None:
        if self.time is not None:
            object.__setattr__(self, "time", check_seconds(self.time))
        if self.memory is not None:
            object.__setattr__(self, "memory", check_memory(self.memory))

    def memory_bytes(self) -> int:
        return int(self.memory) if self.memory is not None else default_memory_bytes()
