"""``colorit datasets`` and ``colorit bench NAME`` (``colorit/cli/datasets.py``): the
listing, fetching by name and all at once from a local mirror (COLORIT_DATASETS_URL)
into COLORIT_DATA_DIR, one line and status 2 for every failure, and bench fetching a set
on first use and finding its optima with ``--expect auto``."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from colorit.io import catalog
from colorit.io.catalog import DataSet
from colorit.io.datasets import read_lengths

from cli_support import ROOT, assert_one_line_error, env, in_process
from datasets_support import Server, blocks_set, cache_files, closed_port, lines_set, put, serve


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv(catalog.DATA_DIR_VARIABLE, str(folder))
    return folder


@pytest.fixture
def small(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, list[DataSet]]:
    """A mirror holding two small sets, and the catalogue naming them."""
    mirror = tmp_path / "mirror"
    sets = [lines_set(mirror, tmp_path / "scratch"), blocks_set(mirror, tmp_path / "scratch")]
    monkeypatch.setattr(catalog, "REGISTRY", catalog.registry(sets))
    return mirror, sets


@pytest.fixture
def served(small: tuple[Path, list[DataSet]], monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Server, list[DataSet]]]:
    """The small sets' mirror served on 127.0.0.1, named by COLORIT_DATASETS_URL."""
    mirror, sets = small
    with serve(mirror) as server:
        monkeypatch.setenv(catalog.URL_VARIABLE, server.base)
        yield server, sets


def test_the_listing_names_every_set_with_its_shape_total_source_and_cache_state(
    capsys: pytest.CaptureFixture[str], cache: Path
) -> None:
    code, out, err = in_process(capsys, "datasets")
    assert code == 0 and err == ""
    rows = {line.split()[0]: line.split() for line in out.splitlines()[1:] if line.split()[0] in catalog.known_names()}
    assert list(rows) == catalog.known_names()
    assert rows["pc19"][:6] == ["pc19", "1000", "14x14", "6", "top-left", "20086"]
    assert rows["floodtest"][:6] == ["floodtest", "1000", "19x19", "6", "centre", "19845"]
    assert rows["floodtest100k"][1] == "100000" and "1985078" in rows["floodtest100k"]
    assert "smack42/ColorFill@682869c benchmark/pc19 tiles.txt" in out
    assert "Flolle/terminal-flood@a7ea646 benchmark/dataset floodtest_simplified.7z" in out
    assert all(r[7] == "no" for r in rows.values())
    assert "pc19_b14c6n1000 (pc19)" in out and f"cache: {cache} " in out


def test_fetch_by_name_then_the_listing_says_cached(
    capsys: pytest.CaptureFixture[str], cache: Path, served: tuple[Server, list[DataSet]]
) -> None:
    _, (tiny, blocky) = served
    code, out, err = in_process(capsys, "datasets", "fetch", "tiny_b4c3n6")
    assert code == 0
    assert out == f"tiny: fetched into {cache / tiny.file} (lengths: tiny_b4c3n6.opt)\n"
    assert err == "colorit datasets: fetching tiny from test-owner/test-sets@0123456\n"
    code, out, _ = in_process(capsys, "datasets")
    rows = [line.split() for line in out.splitlines()[1:3]]
    assert rows[0][:8] == ["tiny", "6", "4x4", "3", "top-left", str(tiny.total), "test", "yes"]
    assert rows[1][:8] == ["blocky", "3", "5x5", "4", "centre", f"{blocky.total}*", "test", "no"]
    assert "* best known total, not proven optimal" in out


def test_fetch_all_fetches_every_set_and_a_second_time_nothing(
    capsys: pytest.CaptureFixture[str], cache: Path, served: tuple[Server, list[DataSet]]
) -> None:
    server, sets = served
    code, out, _ = in_process(capsys, "datasets", "fetch", "all", "-q")
    assert code == 0 and len(server.requests) == 4
    code, again, err = in_process(capsys, "datasets", "fetch", "all")
    assert code == 0 and len(server.requests) == 4 and err == ""
    assert cache_files(cache) == sorted(["tiny_b4c3n6.txt", "tiny_b4c3n6.opt", "blocky_b5c4n3_center.txt",
                                         "blocky_b5c4n3_center.best"])
    assert again.splitlines() == [f"{s.name}: already in the cache: {cache / s.file}" for s in sets]
    assert sum(read_lengths(cache / "blocky_b5c4n3_center.best")) == sets[1].total


@pytest.mark.parametrize("case", ["unknown name", "no name", "wrong checksum", "missing file", "no network"])
def test_every_failure_is_one_line_and_status_2_with_nothing_cached(
    case: str, capsys: pytest.CaptureFixture[str], cache: Path, small: tuple[Path, list[DataSet]],
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
) -> None:
    mirror, (tiny, _) = small
    args, fragment = ["tiny"], ""
    if case == "unknown name":
        args, fragment = ["tiny", "huge"], "no benchmark set called 'huge'; known: tiny, blocky, or 'all'"
    elif case == "no name":
        args, fragment = [], "fetch needs set names, or 'all'"
    elif case == "wrong checksum":
        # the mirror holds other bytes than the pinned ones
        put(mirror, tiny.boards_from.path, b"123\n" * 6)
        fragment = "does not have the pinned SHA-256"
    elif case == "missing file":
        (mirror / tiny.boards_from.repo / tiny.boards_from.commit / tiny.boards_from.path).unlink()
        fragment = "HTTP 404"
    base = f"http://127.0.0.1:{closed_port()}/" if case == "no network" else None
    if case == "no network":
        fragment = "connection refused"
    with serve(mirror) as server:
        monkeypatch.setenv(catalog.URL_VARIABLE, base or server.base)
        code, out, err = in_process(capsys, "datasets", "fetch", *args, "-q")
    assert code == 2 and out == ""
    assert_one_line_error(err, fragment)
    assert cache_files(cache) == []


def test_bench_fetches_a_set_on_first_use_and_knows_its_optima(
    capsys: pytest.CaptureFixture[str], cache: Path, served: tuple[Server, list[DataSet]]
) -> None:
    server, (tiny, _) = served
    code, out, err = in_process(capsys, "bench", "tiny", "--expect", "auto", "-q")
    assert code == 0
    assert err == f"colorit bench: tiny is not in the cache yet: fetching it into {cache}\n"
    code, again, err = in_process(capsys, "bench", "tiny", "--expect", "auto", "-q")
    assert code == 0 and err == "" and len(server.requests) == 2
    row = next(line.split() for line in out.splitlines() if line.startswith("tiny_b4c3n6.txt"))
    assert row[:6] == ["tiny_b4c3n6.txt", "6/6", str(tiny.total), "6", str(tiny.total), "+0"]


def test_bench_names_neither_file_nor_set_in_one_line(
    capsys: pytest.CaptureFixture[str], cache: Path, small: tuple[Path, list[DataSet]]
) -> None:
    code, _, err = in_process(capsys, "bench", "tinyy", "-q")
    assert code == 2
    assert_one_line_error(err, "tinyy: no such file, nor a benchmark set (sets: tiny, blocky)")
    assert cache_files(cache) == []


def test_fetch_pc19_then_bench_it_reports_the_optimum(
    capsys: pytest.CaptureFixture[str],
    cache: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    dataset_file: Callable[[str], Path],
) -> None:
    """End to end on the real board file: a mirror with pc19's boards (from
    ../shared/datasets) and an answers file made here, one line a board as long as its
    optimum there (the fetch takes only the lengths of the answers)."""
    boards = dataset_file("pc19_b14c6n1000.txt")
    optima = read_lengths(boards.with_suffix(".opt"))
    real = catalog.lookup("pc19")
    mirror = tmp_path / "mirror"
    boards_from = real.boards_from
    target = mirror / boards_from.repo / boards_from.commit / boards_from.path
    target.parent.mkdir(parents=True)
    target.write_bytes(boards.read_bytes())
    answers = put(mirror, "benchmark/pc19 answers.txt", "".join("1" * n + "\n" for n in optima).encode())
    pc19 = DataSet("pc19", real.file, real.shape, boards_from, answers, real.total, aliases=real.aliases)
    monkeypatch.setattr(catalog, "REGISTRY", catalog.registry([pc19]))
    with serve(mirror) as server:
        monkeypatch.setenv(catalog.URL_VARIABLE, server.base)
        code, out, _ = in_process(capsys, "datasets", "fetch", "pc19")
        assert code == 0 and out.startswith("pc19: fetched into")
    assert (cache / "pc19_b14c6n1000.txt").read_bytes() == boards.read_bytes()
    code, out, err = in_process(capsys, "bench", "pc19", "--limit", "100", "--expect", "auto", "-q")
    assert code == 0 and err == ""
    first = sum(optima[:100])
    row = next(line.split() for line in out.splitlines() if line.startswith("pc19_b14c6n1000.txt"))
    assert row[:6] == ["pc19_b14c6n1000.txt", "100/100", str(first), "100", str(first), "+0"]


def test_help_and_a_listing_stay_light() -> None:
    """``colorit --help`` loads no pooch; the listing loads no numpy (nor numba)."""
    code = (
        "import sys\n"
        "from colorit.cli import main\n"
        "main(['--help']); print('pooch' in sys.modules, 'numpy' in sys.modules)\n"
        "main(['datasets']); print('pooch' in sys.modules, 'numpy' in sys.modules, 'requests' in sys.modules)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env(), cwd=ROOT, timeout=60,
                          check=False)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[lines.index("options:") + 1:].count("False False") == 1 and lines[-1] == "True False False"
    assert "datasets" in proc.stdout.split("commands:")[1]
