"""``colorit.batch.report``: the summary of a run (boards with an answer only), the
comparison with known lengths (longer answers, shorter ones: a bug against proven
optima, a record otherwise), ``--expect`` files, and the printed report."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from colorit import ColoritError
from colorit.batch import report
from colorit.batch.report import FileReport
from colorit.batch.solving import BoardResult

from cli_support import write_lengths


def result(
    n_moves: int, *, proven: bool = False, elapsed: float = 0.1, stopped: str = "", error: str = ""
) -> BoardResult:
    return BoardResult(tuple(range(n_moves)), proven, n_moves if proven else 0, elapsed, 1, stopped, error)


def test_summarize_counts_only_the_boards_with_an_answer() -> None:
    results = [
        result(10, elapsed=0.2),
        None,
        result(12, proven=True, elapsed=0.4),
        result(0, error="boom"),
        result(8, elapsed=0.1),
    ]
    summary = report.summarize(results, wall=1.5)
    assert list(summary) == list(report.SUMMARY_KEYS)
    assert {k: summary[k] for k in ("boards", "total_moves", "proven", "proven_moves", "wall_s")} == {
        "boards": 3,
        "total_moves": 30,
        "proven": 1,
        "proven_moves": 12,
        "wall_s": 1.5,
    }
    assert (summary["median_ms"], summary["max_ms"]) == (200.0, 400.0)
    assert summary["peak_rss_mb"] > 10
    empty = report.summarize([None], wall=0.0)
    assert (empty["boards"], empty["median_ms"], empty["max_ms"]) == (0, 0.0, 0.0)
    even = report.summarize([result(1, elapsed=t) for t in (0.4, 0.1, 0.2, 0.3)], wall=1.0)
    assert even["median_ms"] == 250.0  # the mean of the middle two


@pytest.mark.parametrize("proven", [True, False], ids=["opt", "best"])
def test_compare_known(proven: bool) -> None:
    rep = FileReport("set.txt", "lines", 0, 5, known=[10, 10, 10, 10, 10], known_proven=proven)
    report.compare_known(rep, [result(10), result(12, stopped="time"), result(9), result(0, error="E: x"), None])
    assert rep.longer == [(2, 12, 10)]
    assert (rep.bugs, rep.records) == (([(3, 9, 10)], []) if proven else ([], [(3, 9, 10)]))
    assert rep.errors == [(4, "E: x")]
    assert rep.stopped == {"time": 1}


def test_load_expect(tmp_path: Path) -> None:
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("")
    b.write_text("")
    assert report.load_expect(None, [str(a), str(b)]) == [None, None]
    write_lengths(tmp_path / "a.opt", [3, 4])
    write_lengths(tmp_path / "b.best", [5])
    assert report.load_expect(["auto"], [str(a), str(b)]) == [
        (str(tmp_path / "a.opt"), [3, 4]),
        (str(tmp_path / "b.best"), [5]),
    ]
    with pytest.raises(ColoritError, match="--expect given 2 times for 1 file;"):
        report.load_expect(["x", "y"], [str(a)])
    (tmp_path / "a.opt").unlink()
    with pytest.raises(ColoritError, match=r"a.txt: no .opt or .best file beside it"):
        report.load_expect(["auto"], [str(a)])


def test_print_report() -> None:
    rep = FileReport("/x/set.txt", "lines", 0, 25, known=[5] * 25)
    results = [result(6) for _ in range(23)] + [result(5, proven=True), None]
    report.compare_known(rep, results)
    out = io.StringIO()
    report.print_report(report.summarize(results, 1.0), [rep], results, out)
    text = out.getvalue()
    assert "longer than known: 23 boards" in text
    assert "  board 1: ours 6, known 5 (+1)" in text
    assert f"  ... and {23 - report.MAX_REPORTED} more" in text
    row = next(line for line in text.splitlines() if line.startswith("set.txt"))
    assert row.split() == ["set.txt", "24/25", str(23 * 6 + 5), "1", str(24 * 5), "+23", "-"]
    assert any(line.split() == ["total_moves", str(23 * 6 + 5)] for line in text.splitlines())
