"""What every solver shares: the limits it runs under, the control that tells it when to
stop, the result it returns, and the registry that finds a solver by name.

Solvers are plain functions ``(graph, control) -> Outcome`` working in colour codes on the
region graph. ``colorit.solve`` wraps them: it builds the graph once, translates codes
back into the user's colour ids, and replays every answer on the cells before returning.
Long searches run as kernel slices of bounded work, and the Python loop between slices
checks the deadline and the stop flag that SIGINT/SIGTERM set, so an interrupted or
timed-out search always returns the best answer it has.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ..errors import ColoritError
from ..game.graph import RegionGraph
from ..limits import Limits
from ..machine import default_memory_bytes  # noqa: F401  (re-exported: the solvers' limits)


@dataclass(frozen=True)
class Solution:
    """A solver's answer.

    ``moves`` are colour ids as the board gives them. ``proven_optimal`` says no shorter
    answer exists; ``lower_bound`` is the length no answer can beat (equal to
    ``len(moves)`` when proven). ``states`` counts the search states explored.
    """

    moves: tuple[int, ...]
    proven_optimal: bool
    lower_bound: int
    elapsed: float
    states: int = 0
    algo: str = ""
    stopped: str = ""  #: why the search ended early: "time", "memory", "signal" or ""
    table_bytes: int = 0  #: the most memory the search's tables held at once

    def __len__(self) -> int:
        return len(self.moves)

    @property
    def gap(self) -> float:
        """How far the answer may be from optimal, as a fraction of the lower bound."""
        if self.proven_optimal or self.lower_bound <= 0:
            return 0.0
        return (len(self.moves) - self.lower_bound) / self.lower_bound


@dataclass
class Outcome:
    """A solver's raw result, in colour codes; ``colorit.solve`` turns it into a Solution."""

    codes: list[int]
    proven_optimal: bool
    lower_bound: int
    states: int = 0
    stopped: str = ""


class Control:
    """Deadline, stop request and progress reporting shared by a running solver and its
    caller.

    Each strictly shorter answer a solver reports (``improved``) is kept as ``best``
    (codes and the lower bound known then), so whoever holds the control can write it
    even if the solver never returns; listeners (``on_improve(codes, lower_bound)``, and
    any added with ``listen``) are called from the solver's thread."""

    def __init__(
        self,
        limits: Limits | None = None,
        on_improve: Callable[[list[int], int], None] | None = None,
        started: float | None = None,
    ) -> None:
        if limits is not None and not isinstance(limits, Limits):
            raise ColoritError(f"limits must be a colorit.Limits, got {type(limits).__name__}")
        self.limits = limits or Limits()
        self.started = time.monotonic() if started is None else started
        self.deadline = float("inf") if self.limits.time is None else self.started + self.limits.time
        self.stop_reason = ""
        self._listeners: list[Callable[[list[int], int], None]] = [] if on_improve is None else [on_improve]
        self.best_len = -1
        #: the shortest answer reported so far and the lower bound known with it
        self.best: tuple[list[int], int] | None = None
        #: the best lower bound a solver has established (``raise_bound``)
        self.lower_bound = 0
        #: an answer known before the search (colour codes), e.g. from an earlier, shorter
        #: run: the searches start from it when it beats their own first answer
        self.seed: list[int] | None = None
        #: the most bytes a solver's tables held at once (``note_table_bytes``)
        self.table_bytes = 0

    def note_table_bytes(self, nbytes: int) -> None:
        """Record the size of a solver's tables (the largest is reported)."""
        self.table_bytes = max(self.table_bytes, int(nbytes))

    def listen(self, on_improve: Callable[[list[int], int], None]) -> None:
        """Call ``on_improve(codes, lower_bound)`` too for each better answer (the
        listeners already there stay)."""
        self._listeners.append(on_improve)

    def raise_bound(self, lower_bound: int) -> None:
        """Record a lower bound as soon as it is known, so an answer written without the
        solver (at the hard deadline) still says how far from optimal it may be."""
        self.lower_bound = max(self.lower_bound, lower_bound)

    def request_stop(self, reason: str = "signal") -> None:
        """Ask the solver to stop at its next check and return what it has (signal-safe)."""
        if not self.stop_reason:
            self.stop_reason = reason

    def should_stop(self) -> bool:
        if self.stop_reason:
            return True
        if time.monotonic() >= self.deadline:
            self.stop_reason = "time"
            return True
        return False

    def remaining(self) -> float:
        return self.deadline - time.monotonic()

    @property
    def limit_s(self) -> float:
        """The time this control was given, from its start to its deadline (inf: none)."""
        return self.deadline - self.started

    def elapsed(self) -> float:
        return time.monotonic() - self.started

    def improved(self, codes: list[int], lower_bound: int = 0) -> None:
        """Report an answer; only strictly shorter ones are kept and reach the listeners."""
        self.raise_bound(lower_bound)
        if self.best_len < 0 or len(codes) < self.best_len:
            self.best_len = len(codes)
            kept = list(codes)
            self.best = (kept, lower_bound)
            for listener in self._listeners:
                listener(list(kept), lower_bound)

    def sub(self, time_share: float | None = None, most_s: float = float("inf")) -> Control:
        """A control for a sub-search that ends at ``time_share`` of the remaining time,
        after ``most_s`` seconds at most (or at this deadline), and follows this
        control's stop requests."""
        child = _SubControl(self)
        if time_share is not None and (self.deadline != float("inf") or most_s != float("inf")):
            span = min(max(0.0, self.remaining()) * time_share, most_s)
            child.deadline = min(self.deadline, time.monotonic() + span)
        return child


class _SubControl(Control):
    def __init__(self, parent: Control) -> None:
        super().__init__(parent.limits, None, parent.started)
        self.parent = parent
        self.deadline = parent.deadline
        self.seed = parent.seed

    def should_stop(self) -> bool:
        if self.parent.stop_reason:
            self.stop_reason = self.parent.stop_reason
            return True
        return super().should_stop()

    def improved(self, codes: list[int], lower_bound: int = 0) -> None:
        self.parent.improved(codes, lower_bound)

    def raise_bound(self, lower_bound: int) -> None:
        self.parent.raise_bound(lower_bound)

    def note_table_bytes(self, nbytes: int) -> None:
        self.parent.note_table_bytes(nbytes)


class SliceBudget:
    """How much work the next kernel slice may do, adapted so that a slice takes about
    ``target`` seconds whatever one unit costs on this graph: the deadline and stop
    requests are then noticed within that time, on a 4x4 board or a 300x300 one."""

    def __init__(self, first: int = 64, target: float = 0.02, most: int = 1 << 22) -> None:
        self.budget = first
        self.target = target
        self.most = most
        self._t = 0.0
        self._scale = 1.0

    def start(self, remaining: float = float("inf")) -> int:
        """The next slice's budget; with ``remaining`` seconds to a deadline shorter than
        a slice, only that share of it, so the last slice ends near the deadline."""
        self._t = time.monotonic()
        self._scale = 1.0
        if remaining < self.target:
            self._scale = max(0.0, remaining) / self.target
            return max(1, int(self.budget * self._scale))
        return self.budget

    def done(self, spent_budget: bool = True) -> None:
        """Adapt the budget to the slice just run, judged against the time its share of
        the budget was meant to take (a slice shortened for a near deadline is meant to
        be short: counted as a full one, it would double the budget call after call). A
        slice that ended before its budget was spent (an answer found, a store to grow,
        a level complete) says nothing about the cost of the work: only a slice that
        spent it is counted, or a run of such early returns would double the budget into
        slices of seconds."""
        spent = time.monotonic() - self._t
        meant = self.target * max(self._scale, 1 / max(1, self.budget))
        if not spent_budget:
            if spent > meant * 2:
                self.budget = max(1, self.budget // 2)
            return
        if spent < meant / 2:
            self.budget = min(self.most, self.budget * 2)
        elif spent > meant * 2:
            self.budget = max(1, self.budget // 2)

    def run(self, step: Callable[[int], object], control: Control | None) -> bool:
        """Call ``step`` with slice after slice's budget until it returns true (done: True)
        or ``control`` asks to stop first (False)."""
        while control is None or not control.should_stop():
            done = step(self.start(control.remaining() if control is not None else float("inf")))
            self.done()
            if done:
                return True
        return False


def one_game(graph: RegionGraph, control: Control, codes: list[int], whole: bool) -> Outcome:
    """The outcome of a heuristic that plays one game (``linear``, ``greedy``,
    ``lookahead``): its answer ``codes``, reported; proven only on a board of one region;
    stopped when the deadline cut the game and another player finished it (``whole``
    false)."""
    control.improved(codes)
    return Outcome(codes, proven_optimal=graph.n_regions == 1, lower_bound=0, states=len(codes),
                   stopped="" if whole else control.stop_reason)


SolverFn = Callable[[RegionGraph, Control], Outcome]


@dataclass(frozen=True)
class SolverSpec:
    name: str
    fn: SolverFn
    summary: str
    exact: bool = False  #: can prove optimality
    aliases: tuple[str, ...] = field(default_factory=tuple)
    rank: int = 100


_REGISTRY: dict[str, SolverSpec] = {}
_ALIASES: dict[str, str] = {}


def register(
    name: str, summary: str, *, exact: bool = False, aliases: tuple[str, ...] = (), rank: int = 100
) -> Callable[[SolverFn], SolverFn]:
    """Register a solver function under ``name`` (and ``aliases``); ``solver_names``
    lists solvers by ``rank`` (quickest and simplest first), whatever the import order."""

    def wrap(fn: SolverFn) -> SolverFn:
        _REGISTRY[name] = SolverSpec(name, fn, summary, exact, aliases, rank)
        _ALIASES[name] = name
        for a in aliases:
            _ALIASES[a] = name
        return fn

    return wrap


def get_solver(name: str) -> SolverSpec:
    """The solver registered as ``name`` or one of its aliases."""
    if not isinstance(name, str):
        raise ColoritError(f"algorithm must be a name, one of: {solver_list()}; got {name!r}")
    key = name.strip().lower()
    if key not in _ALIASES:
        raise ColoritError(f"unknown algorithm {name!r}; choose one of: {solver_list()}")
    return _REGISTRY[_ALIASES[key]]


def solver_list() -> str:
    """``auto, astar, ..., linear (alias basic)``: the solvers as an error and the
    command line's ``--algo`` list them, the default first and the original tool's basic
    AI last under both its names."""
    shown = []
    for name in reversed(solver_names()):
        spec = _REGISTRY[name]
        shown.append(f"{name} (alias {spec.aliases[0]})" if spec.rank == 0 and spec.aliases else name)
    return ", ".join(shown)


def solver_names() -> list[str]:
    """Every solver's name, simplest first: the baseline, the heuristics, the searches."""
    return [spec.name for spec in sorted(_REGISTRY.values(), key=lambda spec: spec.rank)]
