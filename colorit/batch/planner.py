"""A whole-run budget (``colorit bench SET --budget 10m``): the total spent where it pays.

Boards differ wildly: most of a set proves in milliseconds, a few need minutes. So the run
goes in passes. The first gives every board a small share of the budget (a quarter of an
even share), which proves the easy ones and gives every board an answer; each later pass
gives the boards still unproven a limit ``GROWTH`` times the last (as much as the time
left allows for all of them), starting from their best answer and lower bound. When the
time left cannot give all of them ``MIN_GROWTH`` times the last limit, the last pass
gives it to as many as it can, the most promising first (the caller's order: the
smallest gap between answer and bound); then the run ends. The time the easy boards did
not use goes to the hard ones.

The budget is a promise like a time limit: it counts from the start of the command, no
pass is planned past its end, every board's limit fits in what is left, and a stop at
the end (less ``END_MARGIN_S`` for writing the outputs) ends whatever still runs, which
returns the best answer it has, so the whole run stays within 1% of the budget.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import ColoritError

#: Share of an even split of the budget that the first pass gives each board.
FIRST_SHARE = 0.25
#: Each later pass's limit is at most this many times the last one's.
GROWTH = 4.0
#: A later pass is run only if it can give the boards at least this many times the last limit.
MIN_GROWTH = 1.5
#: Of the time left, the share a pass plans on filling (boards finish unevenly across workers).
FILL = 0.85
#: Seconds kept at the end for the outputs; and at most this share of the budget.
END_MARGIN_S = 0.5
END_MARGIN_SHARE = 0.005
#: The shortest per-board limit worth a pass.
MIN_LIMIT_S = 0.005

_UNITS = {"": 1.0, "s": 1.0, "m": 60.0, "min": 60.0, "h": 3600.0}


def parse_duration(text: str) -> float:
    """Seconds from ``90``, ``90s``, ``10m``, ``1.5h``; one line saying what is wrong
    otherwise."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d*)?|\.\d+)\s*(s|m|min|h)?\s*", text.lower())
    if not m:
        raise ColoritError(f"budget {text!r} is not a duration such as 90s, 10m or 2h")
    seconds = float(m.group(1)) * _UNITS[m.group(2) or ""]
    if seconds <= 0:
        raise ColoritError(f"budget {text!r} must be more than 0 seconds")
    return seconds


@dataclass(frozen=True)
class Pass:
    """One pass: the per-board limit and the boards it solves."""

    number: int
    limit: float
    todo: tuple[int, ...]


class BudgetPlanner:
    """The passes of a run with ``budget`` seconds from ``started`` (a ``time.monotonic()``),
    ``workers`` solving at once, per-board limits of at most ``max_limit``."""

    def __init__(self, budget: float, started: float, workers: int, max_limit: float | None = None) -> None:
        self.budget = budget
        self.started = started
        self.workers = max(1, workers)
        self.max_limit = max_limit
        self.passes: list[Pass] = []
        self.finished = False  #: the last pass was a partial one

    @property
    def deadline(self) -> float:
        """When every search must have stopped: the budget's end less the outputs' margin."""
        return self.started + self.budget - min(END_MARGIN_S, self.budget * END_MARGIN_SHARE * 2)

    def _cap(self, limit: float) -> float:
        return limit if self.max_limit is None else min(limit, self.max_limit)

    def next_pass(self, unproven: list[int], now: float) -> Pass | None:
        """The next pass over ``unproven`` (most promising first) at time ``now``, or None
        when the budget cannot give any of them more than the last pass did."""
        if not unproven or self.finished:
            return None
        left = self.deadline - now
        fits = FILL * left * self.workers / len(unproven)  # every board its full limit, and still in time
        todo = sorted(unproven)
        if not self.passes:
            even = self.budget * self.workers / len(unproven)
            limit = self._cap(min(FIRST_SHARE * even, fits))
        else:
            last = self.passes[-1].limit
            limit = self._cap(min(GROWTH * last, fits))
            if limit < MIN_GROWTH * last:
                # not enough for all: the most promising get what all would have had
                limit = self._cap(GROWTH * last)
                k = int(FILL * left * self.workers / limit)
                if k < 1:
                    limit, k = self._cap(FILL * left * self.workers), 1
                if limit < MIN_GROWTH * last:
                    return None
                todo = sorted(unproven[:k])
                self.finished = True
        if limit < MIN_LIMIT_S:
            return None
        p = Pass(len(self.passes) + 1, limit, tuple(todo))
        self.passes.append(p)
        return p
