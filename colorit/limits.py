"""What a search may spend, checked once for the library and the command line alike.

``Limits(time=10, memory="2G")`` and ``colorit IN OUT --time-limit 10 --max-memory 2G``
go through the same checks and fail with the same one-line messages, so a script and a
person hear the same thing. Only the standard library is imported here: the command line
parses its options before numpy or numba are loaded.
"""

from __future__ import annotations

import math
import numbers
import re
from dataclasses import dataclass

from .errors import ColoritError
from .machine import MIN_MEMORY, SIZE_UNITS, default_memory_bytes, format_size, machine_memory, physical_memory

_SIZE = re.compile(r"\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?\s*", re.IGNORECASE)


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


def parse_memory_size(text: str, what: str = "memory size") -> int:
    """Bytes from ``512M``, ``2G``, ``1.5GiB`` or a plain number of bytes (K, M, G and
    T are powers of 1024)."""
    m = _SIZE.fullmatch(text)
    if not m:
        raise ColoritError(f"{what} {text!r} is not a size such as 512M, 2G or a number of bytes")
    size = float(m.group(1)) * 1024 ** SIZE_UNITS.index(m.group(2).lower() or "_")
    if not size.is_integer():
        raise ColoritError(f"{what} {text!r} is not a whole number of bytes")
    return int(size)


def check_memory(value: object, what: str = "memory limit") -> int:
    """A memory cap in bytes (an int, or a size string such as ``"2G"``) that this
    machine can give: between 1M and its RAM (or its container's memory limit)."""
    if isinstance(value, str):
        size, shown = parse_memory_size(value, "memory size" if what == "memory limit" else what), value.strip()
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
