"""Signals and exit codes: Ctrl-C or SIGTERM asks every running search for its best
answer, which is then written whole; a second signal later aborts without writing,
but never in the middle of a write.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import TYPE_CHECKING, Any, NoReturn, Self

from ..io.files import write_atomic
from ..log import PROG, Log

if TYPE_CHECKING:
    from ..solvers import Control


#: Done (``check``: the answer is valid).
EXIT_OK = 0
#: A result that is not what was asked: ``check``'s answer does not solve the board,
#: ``bench`` found an answer longer than known (or a failed board).
EXIT_FAILED = 1
#: Bad arguments or input; nothing was written.
EXIT_USAGE = 2
#: Interrupted by SIGINT / SIGTERM (128 + the signal); the best answer so far was written.
EXIT_SIGINT = 128 + int(signal.SIGINT)
EXIT_SIGTERM = 128 + int(signal.SIGTERM)
#: Standard output was closed early (``colorit generate ... | head -1``): ended quietly,
#: as the shell reports a program killed by SIGPIPE.
EXIT_PIPE = 128 + int(signal.SIGPIPE)
SIGNAL_EXIT: dict[int, int] = {int(signal.SIGINT): EXIT_SIGINT, int(signal.SIGTERM): EXIT_SIGTERM}



class SignalGuard:
    """SIGINT/SIGTERM for the span of a ``with`` block.

    The first signal asks every watched search to stop with its best answer (the command
    then writes it and exits 130/143). Signals within ``BURST_S`` of it are the same
    request (``timeout``, a ``kill`` of a process group or a nervous Ctrl-C send
    several). A signal later than that aborts at once without writing, unless a file is
    being written: that write ends whole first (``writing``)."""

    BURST_S = 1.0

    def __init__(self, log: Log | None = None) -> None:
        self.log = log or Log()
        self.signum: int | None = None
        self._first_at = 0.0
        self._on_stop: list[Callable[[], None]] = []
        self._on_abort: list[Callable[[], None]] = []
        self._writing = 0
        self._abort_pending: int | None = None
        self._previous: dict[int, Any] = {}

    @property
    def requested(self) -> bool:
        return self.signum is not None

    @property
    def exit_code(self) -> int:
        if self.signum is None:
            return EXIT_OK
        return SIGNAL_EXIT.get(self.signum, 128 + self.signum)

    @property
    def signal_name(self) -> str:
        return signal.Signals(self.signum).name if self.signum is not None else ""

    def on_stop(self, fn: Callable[[], None]) -> None:
        """Call ``fn`` on the first signal (at once if one came already)."""
        self._on_stop.append(fn)
        if self.signum is not None:
            fn()

    def on_abort(self, fn: Callable[[], None]) -> None:
        """Call ``fn`` before an abort ends the process (e.g. to end worker processes)."""
        self._on_abort.append(fn)

    def watch(self, control: Control) -> Control:
        """Stop ``control``'s search on the first signal."""
        self.on_stop(lambda: control.request_stop("signal"))
        return control

    @contextmanager
    def writing(self) -> Iterator[None]:
        """A write that a late signal must not cut: the abort waits until it is done."""
        self._writing += 1
        try:
            yield
        finally:
            self._writing -= 1
            if self._writing == 0 and self._abort_pending is not None:
                self._abort(self._abort_pending)

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        now = time.monotonic()
        if self.signum is None:
            self.signum, self._first_at = signum, now
            for fn in list(self._on_stop):
                fn()
            return
        if now - self._first_at < self.BURST_S:
            return  # the same request
        if self._writing:
            self._abort_pending = signum
            return
        self._abort(signum)

    def _abort(self, signum: int) -> NoReturn:
        os.write(2, f"{PROG}: error: {signal.Signals(signum).name} again: exiting without writing an answer\n".encode())
        for fn in self._on_abort:
            with contextlib.suppress(Exception):  # ending anyway
                fn()
        os._exit(SIGNAL_EXIT.get(signum, 128 + signum))

    def __enter__(self) -> Self:
        for sig in SIGNAL_EXIT:
            try:
                self._previous[sig] = signal.signal(sig, self._handle)
            except ValueError:  # not the main thread: leave signals alone
                break
        return self

    def __exit__(self, *exc: object) -> None:
        for sig, previous in self._previous.items():
            signal.signal(sig, previous)
        self._previous.clear()


def write_output(path: str, data: str | bytes, guard: SignalGuard | None = None) -> None:
    """Write a whole output (``-``: standard output), never cut by a signal."""
    if guard is None:
        write_atomic(path, data)
        return
    with guard.writing():
        write_atomic(path, data)
