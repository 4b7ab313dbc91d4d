"""``colorit.batch.passes``: which boards a bench run starts with, and the order a
budget's pass takes its unproven boards in (nearest a proof first)."""

from __future__ import annotations

from colorit.batch.inputs import BenchInputs, BenchOptions
from colorit.batch.passes import first_todo, is_proven, promise
from colorit.batch.results import Campaign, Record
from colorit.batch.solving import BoardResult
from colorit.game.generate import random_board

BOARDS = [random_board(5, 5, 3, seed=s) for s in range(5)]


def inputs_for(opts: BenchOptions, campaign: Campaign | None = None) -> BenchInputs:
    inputs = BenchInputs(opts)
    inputs.boards = list(BOARDS)
    inputs.campaign = campaign
    return inputs


def record(i: int, moves: int, lower: int, seconds: float = 1.0, limit: float = 1.0) -> Record:
    return Record(i, tuple([1] * moves), lower >= moves, lower, seconds, limit, "")


def test_a_resumed_run_solves_the_boards_it_has_no_answer_for() -> None:
    inputs = inputs_for(BenchOptions(files=["x"]))
    inputs.kept = {0: BoardResult((1, 2), True, 2, 0.1, 0, ""), 3: BoardResult((2,), True, 1, 0.1, 0, "")}
    assert first_todo(inputs) == [1, 2, 4]


def test_a_budget_starts_with_every_unproven_board() -> None:
    campaign = Campaign(None, BOARDS)
    campaign.records = {0: record(0, 5, 5), 1: record(1, 6, 4), 3: record(3, 7, 7)}
    inputs = inputs_for(BenchOptions(files=["x"], budget=60.0), campaign)
    assert [i for i in range(5) if is_proven(campaign, i)] == [0, 3]
    assert first_todo(inputs) == [1, 2, 4]


def test_a_campaign_pass_takes_the_boards_its_limit_is_new_to() -> None:
    campaign = Campaign(None, BOARDS)
    campaign.records = {0: record(0, 5, 5), 1: record(1, 6, 4, limit=10.0), 2: record(2, 6, 4, limit=2.0)}
    inputs = inputs_for(BenchOptions(files=["x"], time_limit=5.0), campaign)
    assert first_todo(inputs) == [2, 3, 4]


def test_boards_nearest_a_proof_come_first_then_those_that_had_least_time() -> None:
    campaign = Campaign(None, BOARDS)
    campaign.records = {
        0: record(0, 9, 6, seconds=1.0),  # three moves from its bound
        1: record(1, 8, 7, seconds=5.0),  # one move, long searched
        2: record(2, 8, 7, seconds=2.0),  # one move, searched less
        4: record(4, 0, 0),  # no answer yet
    }
    order = sorted([0, 1, 2, 3, 4], key=lambda i: promise(campaign, i))
    assert order[:3] == [2, 1, 0]
    assert set(order[3:]) == {3, 4}
