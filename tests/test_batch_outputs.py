"""``colorit.batch.outputs``: the ``--json`` document of a bench run (moves spelled in
the set's characters where every answer fits them, numbers otherwise; a line a board) and the certified
interval a campaign's report ends with."""

from __future__ import annotations

import io
import json

from colorit.batch.inputs import BenchInputs, BenchOptions
from colorit.batch.outputs import BenchOutcome, BenchOutputs, json_document, json_text
from colorit.batch.passes import Passes
from colorit.batch.report import FileReport, summarize
from colorit.batch.results import Campaign, Record
from colorit.batch.solving import BoardResult, StopFlag
from colorit.game.generate import random_board
from colorit.io.datasets import ALPHABET


def run_over(results: list[BoardResult | None], opts: BenchOptions) -> tuple[BenchInputs, Passes, BenchOutcome]:
    inputs = BenchInputs(opts)
    inputs.boards = [random_board(4, 4, 3, seed=s) for s in range(len(results))]
    inputs.reports = [FileReport("set.txt", "lines", 0, len(results))]
    passes = Passes(inputs, None, None, StopFlag(), 0.0, 1)
    out = BenchOutcome(summarize(results, 1.0), inputs.reports, results, False)
    return inputs, passes, out


def test_moves_are_spelled_in_the_sets_characters_where_they_fit() -> None:
    results: list[BoardResult | None] = [BoardResult((1, 3, 2), True, 3, 0.01, 5, ""), None, BoardResult((2, 1), False, 1, 0.5, 9, "time")]
    opts = BenchOptions(files=["set.txt"], algo="auto", time_limit=0.5)
    inputs, passes, out = run_over(results, opts)
    doc = json_document(out, passes, results, 0.6)
    rows = doc["board_results"]
    assert [r["index"] for r in rows] == [0, 2]  # the board without an answer is left out
    assert rows[0]["moves"] == [ALPHABET[0], ALPHABET[2], ALPHABET[1]] and rows[0]["proven"]
    assert rows[1]["moves"] == [ALPHABET[1], ALPHABET[0]] and rows[1]["lower_bound"] == 1
    assert rows[1]["stopped"] == "time"
    assert doc["algo"] == "auto" and doc["time_limit_s"] == 0.5 and doc["solved"] == 2 and doc["passes"] is None


def test_the_json_text_is_the_document_with_a_line_per_board() -> None:
    results: list[BoardResult | None] = [BoardResult((1, 3, 2), True, 3, 0.01, 5, ""), None, BoardResult((2, 1), False, 1, 0.5, 9, "time")]
    inputs, passes, out = run_over(results, BenchOptions(files=["set.txt"], algo="auto", time_limit=0.5))
    doc = json_document(out, passes, results, 0.6)
    text = json_text(doc)
    assert json.loads(text) == doc and text.endswith("}\n")
    lines = text.splitlines()
    rows = [line for line in lines if line.lstrip().startswith('{"index"')]
    assert [json.loads(line.rstrip(",")) for line in rows] == doc["board_results"]
    # everything above the records as indent=2 lays it out
    head = {k: v for k, v in doc.items() if k != "board_results"}
    assert text.startswith(json.dumps(head, indent=2)[:-2] + ",\n")
    empty = dict(doc, board_results=[])
    assert json.loads(json_text(empty)) == empty


def test_moves_beyond_the_sets_characters_are_numbers() -> None:
    wide = len(ALPHABET) + 4
    results: list[BoardResult | None] = [BoardResult((1, wide), True, 2, 0.01, 5, ""), BoardResult((2,), True, 1, 0.01, 1, "")]
    opts = BenchOptions(files=["set.txt"])
    inputs, passes, out = run_over(results, opts)
    rows = json_document(out, passes, results, 0.1)["board_results"]
    assert rows[0]["moves"] == [1, wide] and rows[1]["moves"] == [2]  # one spelling for the whole run


def test_a_campaigns_report_ends_with_its_certified_interval() -> None:
    results: list[BoardResult | None] = [BoardResult((1, 2, 3), True, 3, 0.01, 5, ""), BoardResult((1, 2, 1, 3), False, 3, 0.5, 9, "time")]
    opts = BenchOptions(files=["set.txt"], results="r.jsonl")
    inputs, passes, out = run_over(results, opts)
    inputs.campaign = Campaign(None, inputs.boards)
    inputs.campaign.records = {0: Record(0, (1, 2, 3), True, 3, 0.01, 1.0, ""), 1: Record(1, (1, 2, 1, 3), False, 3, 0.5, 1.0, "")}
    text = io.StringIO()
    BenchOutputs(passes).print(out, text)
    assert text.getvalue().rstrip().endswith("lies between 6 and 7 (an interval 16.667% wide)")
    assert "1 of 2 boards proven" in text.getvalue()
