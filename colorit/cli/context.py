"""What a command runs with besides its arguments: its context (``Context``: when its
time limit started, where its messages go) and its board, read from a CSV or game ID
file."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..log import Log
from .options import UsageError, name_option

if TYPE_CHECKING:
    from ..game.board import Board
    from ..io.gameid import GameId


@dataclass
class Context:
    """What a command gets besides its arguments."""

    started: float  #: ``time.monotonic()`` the time limit counts from
    log: Log = field(default_factory=Log)
    from_process_start: bool = True

    def since_start(self) -> float:
        return time.monotonic() - self.started


def read_board(path: str, start: str | tuple[int, int] = "top-left") -> Board:
    """The board in a CSV or game ID file (``-``: standard input)."""
    return read_board_and_id(path, start)[0]


def read_board_and_id(path: str, start: str | tuple[int, int] = "top-left") -> tuple[Board, GameId | None]:
    """The board in a CSV or game ID file (``-``: standard input), and the game ID."""
    from ..errors import BoardFormatError
    from ..io.csvfile import read_board_file

    try:
        return read_board_file(path, start=start)
    except BoardFormatError as e:
        if isinstance(start, str) and str(e).startswith("start cell"):
            raise UsageError(name_option("--start", str(e), "start cell")) from None
        raise
