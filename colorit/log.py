"""Progress lines and error lines, as the original tool printed them.

Progress goes to stdout as ``[YYYY-MM-DD HH:MM:SS.ffffff] message`` so a run can be
followed and timed; ``quiet`` silences it. Errors go to stderr as a single line
``colorit: error: ...`` whatever ``quiet`` says, so scripts can show them as they are.
"""

from __future__ import annotations

import sys
from datetime import datetime
from typing import TextIO

PROG = "colorit"


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
