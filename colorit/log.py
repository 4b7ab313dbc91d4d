"""Progress lines and error lines, as the original tool printed them.

Progress goes to stdout as ``[YYYY-MM-DD HH:MM:SS.ffffff] message`` so a run can be
followed and timed; ``quiet`` silences it. Errors go to stderr as a single line
``colorit: error: ...`` whatever ``quiet`` says, so scripts can show them as they are.
"""

from __future__ import annotations

import sys
import time
from datetime import datetime
from typing import Any, TextIO

PROG = "colorit"


def plural(n: int, noun: str, many: str = "") -> str:
    """``1 board``, ``3 boards``, ``0 boards``: a count and its noun, singular for one
    (``many``: a plural other than the noun and an "s")."""
    return f"{n} {noun if n == 1 else (many or noun + 's')}"


def timestamp(now: datetime | None = None) -> str:
    """``now`` (default: the local time) as the original's ``YYYY-MM-DD HH:MM:SS.ffffff``."""
    return (now or datetime.now()).strftime("%Y-%m-%d %H:%M:%S.%f")


class Log:
    """Where the CLI's messages go. Streams are looked up at each call so tests that
    swap ``sys.stdout`` (capsys) see the output."""

    def __init__(self, quiet: bool = False, out: TextIO | None = None, err: TextIO | None = None) -> None:
        self.quiet = quiet
        self._out = out
        self._err = err

    def info(self, message: str) -> None:
        """A timestamped progress line on stdout, unless quiet."""
        if self.quiet:
            return
        out = self._out or sys.stdout
        out.write(f"[{timestamp()}] {message}\n")
        out.flush()

    def error(self, message: str) -> None:
        """One line ``colorit: error: message`` on stderr (never silenced)."""
        err = self._err or sys.stderr
        one_line = " ".join(str(message).split())
        err.write(f"{PROG}: error: {one_line}\n")
        err.flush()

    def warning(self, message: str) -> None:
        """One line ``colorit: warning: message`` on stderr (never silenced)."""
        err = self._err or sys.stderr
        err.write(f"{PROG}: warning: {' '.join(str(message).split())}\n")
        err.flush()


class Progress:
    """How far a batch is, on stderr: a bar on a terminal; elsewhere (a CI log, nohup)
    a line each ``every_pct`` percent or ``every_s`` seconds, whichever comes first, and
    a last line at the end, never a line per item on a big batch. ``unit`` names what
    is counted, in the singular (``board``)."""

    def __init__(
        self,
        total: int,
        unit: str,
        *,
        label: str,
        enabled: bool = True,
        stream: TextIO | None = None,
        every_pct: float = 5.0,
        every_s: float = 10.0,
    ) -> None:
        self.total = total
        self.unit = unit
        self.label = label
        self.done = 0
        self.note = ""
        self.stream = stream or sys.stderr
        self.every_pct = every_pct
        self.every_s = every_s
        self._t0 = time.monotonic()
        self._last_t = self._t0
        self._last_done = 0
        self._bar: Any = None
        self.enabled = enabled and total > 0
        if self.enabled and self.stream.isatty():
            from tqdm import tqdm  # type: ignore[import-untyped,unused-ignore]

            self._bar = tqdm(total=total, unit=unit, file=self.stream, dynamic_ncols=True, smoothing=0.1)

    def update(self, n: int = 1, note: str = "") -> None:
        self.done += n
        if note:
            self.note = note
        if not self.enabled:
            return
        if self._bar is not None:
            if note:
                self._bar.set_postfix_str(note, refresh=False)
            self._bar.update(n)
            return
        now = time.monotonic()
        step = 100.0 * (self.done - self._last_done) / self.total
        if self.done >= self.total or step >= self.every_pct or (now - self._last_t >= self.every_s and self.done > self._last_done):
            self._line(now)

    def _line(self, now: float) -> None:
        elapsed = now - self._t0
        pct = 100.0 * self.done / self.total
        left = ""
        if 0 < self.done < self.total:
            left = f", about {elapsed * (self.total - self.done) / self.done:.0f} s left"
        note = f", {self.note}" if self.note else ""
        self.stream.write(f"{PROG} {self.label}: {self.done}/{plural(self.total, self.unit)} ({pct:.0f}%){note}, {elapsed:.0f} s{left}\n")
        self.stream.flush()
        self._last_t, self._last_done = now, self.done

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None
        elif self.enabled and self.done > self._last_done:
            self._line(time.monotonic())
