"""Error types.

Every error a user can cause is a ``ColoritError`` (a ``ValueError``) whose message is one
lowercase line naming the file, line, column and value where they apply, so the CLI can
print it as it is and exit with status 2, without a traceback.
"""

from __future__ import annotations


class ColoritError(ValueError):
    """Base class of every error caused by the user's input or arguments."""


class BoardFormatError(ColoritError):
    """A board file (or board data) that is not a valid rectangular grid of integers."""


class SolutionError(ColoritError):
    """A move list that does not solve the board it is replayed on."""


class OutputError(ColoritError):
    """An output file that cannot be written (missing folder, permissions)."""
