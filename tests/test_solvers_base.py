"""``SliceBudget`` (``colorit.solvers.base``): slices of about its target time whatever a
unit of work costs, and shorter ones near a deadline without losing that measure."""

from __future__ import annotations

import pytest

from colorit.solvers.base import SliceBudget


class Clock:
    """A clock that only moves when work is done: ``unit_s`` a unit."""

    def __init__(self, unit_s: float) -> None:
        self.now = 100.0
        self.unit_s = unit_s

    def __call__(self) -> float:
        return self.now

    def work(self, units: int) -> None:
        self.now += units * self.unit_s


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    fake = Clock(unit_s=1e-5)
    monkeypatch.setattr("colorit.solvers.base.time.monotonic", fake)
    return fake


def run(budget: SliceBudget, clock: Clock, slices: int, remaining: float = float("inf")) -> list[int]:
    sizes = []
    for _ in range(slices):
        n = budget.start(remaining)
        clock.work(n)
        budget.done()
        sizes.append(n)
    return sizes


def test_slices_grow_to_about_the_target_time(clock: Clock) -> None:
    budget = SliceBudget(first=1, target=0.02)
    sizes = run(budget, clock, 30)
    assert sizes[:3] == [1, 2, 4]
    assert 0.01 <= sizes[-1] * clock.unit_s <= 0.04  # 1,000-4,000 units of 10 µs


def test_slices_near_a_deadline_are_shorter_and_keep_the_budget(clock: Clock) -> None:
    """Each slice shortened for a deadline 2 ms away takes its share of the budget's time
    (2 ms) and is judged by that share: the budget stays calibrated, where judged
    against the whole target it would double slice after slice."""
    budget = SliceBudget(first=1, target=0.02)
    run(budget, clock, 30)
    calibrated = budget.budget
    sizes = run(budget, clock, 20, remaining=0.002)
    assert budget.budget == calibrated
    assert all(n * clock.unit_s <= 0.004 for n in sizes)
