"""The settings of one ``colorit serve``: where it listens and what it lets a request ask.

A frozen dataclass checked when it is made, so the command line, the tests and the app
share one set of defaults and one set of error messages. Settings left as ``None`` are
worked out from the others (the worker count from the machine, the body cap from the
board cap, each solve's memory from the machine's RAM shared among the workers).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..errors import ColoritError

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
DEFAULT_MAX_CELLS = 300 * 300
DEFAULT_MAX_TIME = 30.0
DEFAULT_TIME = 5.0
#: waiting solves allowed per worker before the server answers 503
DEFAULT_QUEUE_PER_WORKER = 4
#: the most colours a generated board may have (and the palette endpoint serves)
MAX_COLOURS = 1024
#: a board row in JSON costs at most this many bytes per cell ("-9223372036854775808," )
_BYTES_PER_CELL = 21
_BODY_SLACK = 64 * 1024
#: A body over the limit is still read (and dropped) up to this many bytes in all, for
#: at most this many seconds, before the 413 goes out: a client that sends the whole
#: body before it reads an answer (urllib, many scripts) then reads the 413 instead of
#: a reset connection. Beyond either bound the server answers and closes.
DRAIN_MAX_BYTES = 64 << 20
DRAIN_SECONDS = 30.0


def default_workers() -> int:
    """One solver process per core this process may run on, no more than its cgroup's
    (container's) CPU quota."""
    from ..machine import available_cpus

    return available_cpus()


def default_memory_per_solve(workers: int) -> int:
    """Each worker's share (``colorit.machine.memory_share``) of what the library gives
    one search by default: half the machine's RAM, or of its container's memory limit.
    All the workers at once then stay within that half."""
    from ..machine import default_memory_bytes, memory_share

    return memory_share(default_memory_bytes(), workers)


@dataclass(frozen=True)
class ServerConfig:
    """Everything ``serve`` and ``create_app`` need; ``ColoritError`` for a bad value.

    ``memory_per_solve`` caps one solve's search tables; by default half the machine's
    RAM shared among the workers, so all of them at once stay within that half.
    """

    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    workers: int | None = None
    max_cells: int = DEFAULT_MAX_CELLS
    max_time: float = DEFAULT_MAX_TIME
    default_time: float = DEFAULT_TIME
    queue_per_worker: int = DEFAULT_QUEUE_PER_WORKER
    max_body_bytes: int | None = None
    memory_per_solve: int | None = None

    def __post_init__(self) -> None:
        workers = default_workers() if self.workers is None else self.workers
        _whole("--workers", workers, 1, 256)
        _whole("--port", self.port, 0, 65535)
        _whole("--max-cells", self.max_cells, 1, 50_000_000)
        _whole("queue_per_worker", self.queue_per_worker, 0, 10_000)
        _seconds("--max-time", self.max_time)
        _seconds("default_time", self.default_time)
        if self.default_time > self.max_time:
            object.__setattr__(self, "default_time", float(self.max_time))
        if not isinstance(self.host, str) or not self.host.strip():
            raise ColoritError(f"--host must be a host name or address, got {self.host!r}")
        body = self.max_body_bytes
        if body is None:
            body = self.max_cells * _BYTES_PER_CELL + _BODY_SLACK
        _whole("max_body_bytes", body, 1024, 1 << 34)
        memory = self.memory_per_solve
        if memory is None:
            memory = default_memory_per_solve(workers)
        _whole("memory_per_solve", memory, 1 << 20, 1 << 50)
        object.__setattr__(self, "workers", workers)
        object.__setattr__(self, "max_body_bytes", body)
        object.__setattr__(self, "memory_per_solve", memory)
        object.__setattr__(self, "max_time", float(self.max_time))
        object.__setattr__(self, "default_time", float(self.default_time))

    @property
    def queue_size(self) -> int:
        """Solves that may wait for a worker; one more is answered 503."""
        return self.queue_per_worker * int(self.workers or 1)


def _whole(name: str, value: object, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ColoritError(f"{name} must be a whole number, got {value!r}")
    if not low <= value <= high:
        raise ColoritError(f"{name} must be between {low:,} and {high:,}, got {value:,}")


def _seconds(name: str, value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not (math.isfinite(value) and value > 0):
        raise ColoritError(f"{name} must be a positive number of seconds, got {value!r}")
