"""``colorit.batch.planner``: a whole-run budget spent in passes of growing limits."""

from __future__ import annotations

import pytest

from colorit import ColoritError
from colorit.batch.planner import (
    END_MARGIN_S,
    FILL,
    GROWTH,
    BudgetPlanner,
    parse_duration,
)


def test_durations() -> None:
    assert parse_duration("90") == 90.0
    assert parse_duration("90s") == 90.0
    assert parse_duration("10m") == 600.0
    assert parse_duration("1.5h") == 5400.0
    assert parse_duration(" 2 min ") == 120.0
    for bad in ("", "ten", "-5s", "0", "5 days", "1e3"):
        with pytest.raises(ColoritError, match="budget"):
            parse_duration(bad)


def test_passes_grow_and_each_fits_in_the_time_left() -> None:
    """The first pass gives every board a quarter of an even share; each later one GROWTH
    times the last while all the unproven boards fit in the time left (every board
    taking its full limit); a pass never plans past the deadline."""
    planner = BudgetPlanner(budget=100.0, started=0.0, workers=2)
    first = planner.next_pass(list(range(1000)), now=1.0)
    assert first is not None and first.number == 1 and len(first.todo) == 1000
    assert first.limit == pytest.approx(0.25 * 100.0 * 2 / 1000)
    now = 1.0 + len(first.todo) * first.limit / 2  # every board took its full limit
    second = planner.next_pass(list(range(400)), now)
    assert second is not None and second.limit == pytest.approx(GROWTH * first.limit)
    assert len(second.todo) * second.limit / 2 <= FILL * (planner.deadline - now) + 1e-9
    assert planner.deadline == pytest.approx(100.0 - END_MARGIN_S)


def test_when_not_all_fit_the_most_promising_get_the_rest() -> None:
    planner = BudgetPlanner(budget=10.0, started=0.0, workers=1)
    first = planner.next_pass(list(range(100)), now=0.0)
    assert first is not None
    # 8 s gone: little is left for 50 boards; the first ones given (the most promising) get it
    promising_first = [7, 3, 42] + [i for i in range(50) if i not in (7, 3, 42)]
    last = planner.next_pass(promising_first, now=8.0)
    assert last is not None and last.limit >= 1.5 * first.limit
    assert set(last.todo) <= set(promising_first[: len(last.todo)]) and last.todo == tuple(sorted(last.todo))
    assert len(last.todo) * last.limit <= FILL * (planner.deadline - 8.0) + 1e-9
    assert planner.next_pass(promising_first, now=8.5) is None  # that was the last one


def test_no_pass_when_nothing_is_left_or_the_time_is_up() -> None:
    planner = BudgetPlanner(budget=10.0, started=0.0, workers=1)
    assert planner.next_pass([], now=0.0) is None
    assert planner.next_pass([1, 2, 3], now=10.0) is None
    capped = BudgetPlanner(budget=1000.0, started=0.0, workers=1, max_limit=0.5)
    p = capped.next_pass([1, 2], now=0.0)
    assert p is not None and p.limit == 0.5
