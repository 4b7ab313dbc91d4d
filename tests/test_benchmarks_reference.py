"""benchmarks/reference.py: reading ColorFill's benchmark output and colorit's JSON, the
checks, the table; and, where a JDK and a ColorFill source folder
(``COLORIT_COLORFILL_DIR``) are at hand, a real run on a tiny set."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cli_support import make_set, write_lengths

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import reference  # noqa: E402
from reference_report import (  # noqa: E402
    Answers,
    Measured,
    OutputError,
    Row,
    check_answers,
    format_table,
    parse_colorfill,
    parse_colorit,
    ratio,
)

# What ``Starter -benchmark FILE AStarPuchertStrategy`` prints, cut to three boards: the
# second's line outgrows its padding (no space before milliSeconds), the third is solved
# already (no moves).
COLORFILL_OUTPUT = """\
ColorFill 1.3.3 (2023-08-25)
Copyright (C) 2023 Michael Henke <smack42@gmail.com>
running benchmark of solver strategy AStarPuchertStrategy
reading  input file: /tmp/x/pc19_b14c6n1000.txt
writing output file: /tmp/x/pc19_b14c6n1000.txt_solution_AStarPuchertStrategy.txt
1      6252542516312524613____________19               milliSeconds=37
2      4642532163416423564123541234512345____________34milliSeconds=1410
3      ____________0                                   milliSeconds=0
AStarPuchertStrategy  3 solutions with  53 steps
milliSeconds_min/median/average/max=0/37/482/1410  total=1447
"""


def test_colorfill_output_gives_each_boards_answer() -> None:
    got = parse_colorfill(COLORFILL_OUTPUT)
    assert got.lengths == [19, 34, 0]
    assert got.moves == ["6252542516312524613", "4642532163416423564123541234512345", ""]
    assert got.proven is None


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        (COLORFILL_OUTPUT.replace("AStarPuchertStrategy  3 solutions", "AStarPuchertStrategy  4 solutions"), "disagrees"),
        ("\n".join(COLORFILL_OUTPUT.splitlines()[:7]), "did not finish"),  # killed after board 2
        (COLORFILL_OUTPUT.replace("____________19", "____________18"), "miscounts"),
        (COLORFILL_OUTPUT.replace("\n2      ", "\n5      "), "out of order"),
    ],
)
def test_colorfill_output_that_does_not_add_up_is_refused(text: str, fragment: str) -> None:
    with pytest.raises(OutputError, match=fragment):
        parse_colorfill(text)


def test_colorit_json_gives_lengths_in_board_order_and_the_proven_count() -> None:
    doc = {
        "boards": 3,
        "board_results": [
            {"index": 2, "board": 2, "moves": list("123"), "proven": False},
            {"index": 0, "board": 0, "moves": list("12345"), "proven": True},
            {"index": 1, "board": 1, "error": "out of memory"},
            {"index": 3, "board": 3, "moves": [], "proven": True},
        ],
    }
    got = parse_colorit(doc)
    assert got.lengths == [5, 3, 0]
    assert (got.proven, got.failed) == (2, 1)
    with pytest.raises(OutputError):
        parse_colorit({"boards": 3})


def test_exact_answers_must_be_the_optima_and_proven() -> None:
    known = [5, 6, 7]
    assert check_answers("colorit", Answers([5, 6, 7], proven=3), 3, known, True, exact=True) == []
    assert check_answers("ColorFill", Answers([5, 6, 7]), 3, known, True, exact=True) == []
    longer = check_answers("ColorFill", Answers([5, 7, 8]), 3, known, True, exact=True)
    assert longer == ["ColorFill: 2 answers longer than the optimum (board 2 first), total 20 against 18"]
    unproven = check_answers("colorit", Answers([5, 6, 7], proven=2), 3, known, True, exact=True)
    assert unproven == ["colorit: 1 boards not proven optimal"]
    assert "2 answers for 3 boards" in check_answers("colorit", Answers([5, 6], proven=2), 3, known, True, True)[-1]


def test_fast_answers_may_be_longer_never_shorter_than_an_optimum() -> None:
    known = [5, 6, 7]
    assert check_answers("colorit", Answers([6, 6, 9], proven=1), 3, known, True, exact=False) == []
    shorter = check_answers("colorit", Answers([6, 5, 7], proven=1), 3, known, True, exact=False)
    assert shorter == ["colorit: 1 answers shorter than the proven optimum (board 2 first)"]
    # best known lengths (.best) are no bound: a shorter answer is a record, not an error
    assert check_answers("colorit", Answers([4, 5, 6]), 3, known, False, exact=False) == []


def test_the_table_row_holds_totals_times_ratio_memory_and_checks() -> None:
    row = Row("pc19_b14c6n1000", 1000, 20086, True)
    for cf_s, ci_s, peak in ((9.0, 1.8, 180.5), (10.0, 2.2, 181.0), (8.0, 1.7, 179.0)):
        row.colorfill.add(Measured(cf_s, peak, 0), Answers([20086]))
        row.colorit.add(Measured(ci_s, peak - 70, 0), Answers([20086]))
    failed = Row("b24c4n1000", 1000, 21952, True, problems=["ColorFill exited 1: java.lang.OutOfMemoryError"])
    lines = format_table([row, failed]).splitlines()
    assert lines[0].startswith("| set | boards | known total | ColorFill total | colorit total | ColorFill s | colorit s |")
    cells = [c.strip() for c in lines[2].strip("|").split("|")]
    assert cells == ["pc19_b14c6n1000", "1000", "20,086", "20,086", "20,086", "9.00 (8.00-10.00)", "1.80 (1.70-2.20)",
                     "0.200 (0.200-0.220)", "181.0", "111.0", "ok"]
    assert ratio(row)[0] == pytest.approx(0.2)
    failed_cells = [c.strip() for c in lines[3].strip("|").split("|")]
    assert failed_cells[3:8] == ["-"] * 5
    assert failed_cells[-1] == "ColorFill exited 1: java.lang.OutOfMemoryError"


def test_a_limit_keeps_the_first_boards_in_the_sets_format(tmp_path: Path) -> None:
    lines = make_set(tmp_path, n=5, side=4, colours=3)
    assert reference.first_boards(lines, 2, tmp_path / "two.txt") == 2
    assert (tmp_path / "two.txt").read_text().splitlines() == lines.read_text().splitlines()[:2]
    blocks = tmp_path / "floodtest_b19c6n3_center.txt"
    grids = ["\n".join(str(1 + (r + k) % 6) * 19 for r in range(19)) for k in range(3)]
    blocks.write_text("\n\n".join(grids) + "\n")
    assert reference.first_boards(blocks, 2, tmp_path / "cut.txt") == 2
    cut = reference.split_boards(tmp_path / "cut.txt")
    assert cut == (grids[:2], "\n\n")
    assert reference.colorfill_start(cut[0]) == "center"


def test_sets_colorfill_cannot_run_are_named_with_the_reason(tmp_path: Path) -> None:
    many = make_set(tmp_path, n=2, side=6, colours=20)
    write_lengths(many.with_suffix(".opt"), [30, 30])
    assert "at most 16 colours" in str(reference.why_not(reference.SetFiles("b6c20n2", many, many.with_suffix(".opt")), True))
    best = make_set(tmp_path, n=2, side=6, colours=4)
    write_lengths(best.with_suffix(".best"), [9, 9])
    s = reference.SetFiles("b6c4n2", best, best.with_suffix(".best"))
    assert "no proven optima" in str(reference.why_not(s, exact=True))
    assert reference.why_not(s, exact=False) is None
    centre = make_set(tmp_path, n=2, side=6, colours=4, name="b6c4n2_center.txt")
    assert "from the top-left" in str(reference.why_not(reference.SetFiles("c", centre, None), exact=False))


def test_bad_arguments_exit_2_with_one_line(tmp_path: Path) -> None:
    make_set(tmp_path, n=2, side=6, colours=4)
    cmd = [sys.executable, str(ROOT / "benchmarks" / "reference.py"), "--colorfill", str(tmp_path), "--sets", str(tmp_path)]
    for extra in (["nosuchset"], ["b6c4n2"]):  # no such file; no .opt (or no java, or no ColorFill there)
        done = subprocess.run(cmd + extra, capture_output=True, text=True, timeout=60, check=False)
        assert done.returncode == 2, done.stderr
        assert done.stderr.startswith("reference: ") and len(done.stderr.strip().splitlines()) == 1


COLORFILL_DIR = os.environ.get("COLORIT_COLORFILL_DIR")


@pytest.mark.skipif(not (COLORFILL_DIR and shutil.which("javac") and shutil.which("java")),
                    reason="needs a JDK and a ColorFill source folder in COLORIT_COLORFILL_DIR")
def test_a_real_run_on_a_tiny_set(tmp_path: Path) -> None:
    from colorit import solve
    from colorit.io.datasets import read_boards

    boards = make_set(tmp_path, n=4, side=6, colours=4)
    optima = [len(solve(b, "astar").moves) for b in read_boards(boards)]
    write_lengths(boards.with_suffix(".opt"), optima)
    out = tmp_path / "out.json"
    cmd = [sys.executable, str(ROOT / "benchmarks" / "reference.py"), "--colorfill", str(COLORFILL_DIR),
           "--sets", str(tmp_path), boards.stem, "--rounds", "1", "--json", str(out)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    row = next(line for line in done.stdout.splitlines() if line.startswith(f"| {boards.stem} "))
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[1:5] == ["4", str(sum(optima)), str(sum(optima)), str(sum(optima))]
    assert cells[-1] == "ok"
    doc = json.loads(out.read_text())
    assert doc["rows"][0]["ratio"] > 0 and "AStarPuchertStrategy" in doc["rows"][0]["commands"]["ColorFill"]
