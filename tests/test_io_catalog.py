"""The benchmark sets by name (``colorit/io/catalog.py``, ``colorit/io/fetch.py``): the
catalogue itself (names, pinned hashes, agreement with the readers and with the sets in
../shared/datasets where they are), and fetching into a cache from a local mirror (a
server on 127.0.0.1): checked, unpacked, lengths beside the boards, nothing half-written
on any failure."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from colorit.io import catalog, fetch
from colorit.io.catalog import SETS, DataSet, DataSetError, Remote
from colorit.io.datasets import default_start, known_lengths_path, lengths_are_proven, name_shape, read_board_set, read_lengths

from cli_support import ROOT
from datasets_support import (
    blocks_set,
    cache_files,
    closed_port,
    git_blob,
    lines_set,
    put,
    serve,
    sevenz_set,
)


@pytest.fixture
def mirror(tmp_path: Path) -> Path:
    folder = tmp_path / "mirror"
    folder.mkdir()
    return folder


@pytest.fixture
def cache(tmp_path: Path) -> Path:
    return tmp_path / "cache"


# --------------------------------------------------------------------------- the catalogue


def test_every_set_is_named_as_the_readers_read_it() -> None:
    """Shape and start given in the catalogue are what the file name tells the readers."""
    for s in SETS:
        assert name_shape(s.file) == s.shape, s.name
        assert default_start(s.file) == s.start, s.name
        assert Path(s.lengths_file).suffix == ".opt"  # every set's lengths are proven


def test_names_and_aliases_are_unique_and_found_in_any_case() -> None:
    names = [k for s in SETS for k in (s.name, *s.aliases)]
    assert len(names) == len({n.lower() for n in names})
    assert catalog.lookup("pc19").file == "pc19_b14c6n1000.txt"
    assert catalog.lookup("PC19_b14c6n1000").name == "pc19"
    assert catalog.lookup("floodtest_b19c6n1000_center").start == "center"
    assert catalog.lookup("b10c15").name == "b10c15n1000"
    with pytest.raises(ValueError, match="named twice"):
        catalog.registry([SETS[0], SETS[0]])


def test_an_unknown_name_is_one_line_listing_the_known_ones() -> None:
    with pytest.raises(DataSetError) as e:
        catalog.lookup("pc20")
    message = str(e.value)
    assert "\n" not in message and "'pc20'" in message
    assert all(s.name in message for s in SETS)


def test_select_takes_all_and_keeps_each_set_once() -> None:
    assert catalog.select(["all"]) == list(SETS)
    assert [s.name for s in catalog.select(["b10c15", "pc19", "b10c15n1000"])] == ["b10c15n1000", "pc19"]


def test_every_file_is_pinned_to_a_commit_and_a_hash() -> None:
    sources = {"smack42/ColorFill": catalog.COLORFILL[1], "Flolle/terminal-flood": catalog.TERMINAL_FLOOD[1]}
    for s in SETS:
        for r in s.remotes:
            assert sources[r.repo] == r.commit and len(r.commit) == 40
            assert (r.sha256 is None) != (r.git_blob is None)
            digest = r.sha256 or r.git_blob
            assert digest is not None and all(c in "0123456789abcdef" for c in digest)
            assert len(digest) == (64 if r.sha256 else 40)
    with pytest.raises(ValueError, match="exactly one"):
        Remote("a/b", "c" * 40, "x.txt")


def test_the_big_sets_are_pinned_by_their_published_blob_ids() -> None:
    big = catalog.lookup("b24c4n10000"), catalog.lookup("floodtest100k")
    assert [s.boards_from.git_blob for s in big] == [
        "3559ff06a05427d204afc7c93f41e9bdac703ede", "180dcb4d4429c540796222a9c4564fb250929c86",
    ]
    assert big[1].packed and big[1].total == 1985078 and big[1].start == "center"


def test_urls_quote_the_path_and_take_the_mirror_base(monkeypatch: pytest.MonkeyPatch) -> None:
    s = catalog.lookup("pc19")
    monkeypatch.delenv(catalog.URL_VARIABLE, raising=False)
    assert s.boards_from.url(catalog.base_url()) == (
        "https://raw.githubusercontent.com/smack42/ColorFill/682869c82f2581d0ac0097727d300260d7986f2f/benchmark/pc19%20tiles.txt"
    )
    monkeypatch.setenv(catalog.URL_VARIABLE, "http://127.0.0.1:9/mirror")
    assert s.boards_from.url(catalog.base_url()).startswith("http://127.0.0.1:9/mirror/smack42/ColorFill/682869c")


def test_the_cache_folder_is_the_platforms_unless_colorit_data_dir_says(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import pooch

    monkeypatch.delenv(catalog.DATA_DIR_VARIABLE, raising=False)
    assert catalog.data_dir() == Path(pooch.os_cache("colorit"))
    monkeypatch.setenv(catalog.DATA_DIR_VARIABLE, str(tmp_path / "sets"))
    assert catalog.data_dir() == tmp_path / "sets"
    assert catalog.cached_paths(catalog.lookup("pc19")) == (
        tmp_path / "sets" / "pc19_b14c6n1000.txt", tmp_path / "sets" / "pc19_b14c6n1000.opt",
    )


def test_the_shipped_b24c6_optima_are_those_of_the_results_file() -> None:
    """colorit's own proofs: every board of results/b24c6n1000.jsonl proven, each
    answer's length the shipped optimum, and the catalogue's total their sum."""
    records = sorted((json.loads(line) for line in (ROOT / "results" / "b24c6n1000.jsonl").open()), key=lambda r: r["board"])
    assert [r["board"] for r in records] == list(range(1000))
    assert all(r["proven"] for r in records)
    shipped = [int(t) for t in catalog.packaged_lengths("b24c6n1000.opt").split()]
    assert shipped == [len(r["moves"]) for r in records]
    s = catalog.lookup("b24c6n1000")
    assert s.proven and s.lengths_from == "b24c6n1000.opt" and s.total == sum(shipped)


@pytest.mark.parametrize("name", [s.name for s in SETS if s.shape[2] == 1000])
def test_the_pinned_board_files_are_those_in_shared_datasets(name: str, dataset_file: Callable[[str], Path]) -> None:
    """The SHA-256 pinned for a set is that of the same file in ../shared/datasets, and
    the catalogue's total is the sum of the lengths kept there."""
    s = catalog.lookup(name)
    path = dataset_file(s.file)
    data = path.read_bytes()
    assert hashlib.sha256(data).hexdigest() == s.boards_from.sha256
    assert len(data) == s.boards_from.size
    lengths = known_lengths_path(path)
    assert lengths is not None
    assert sum(read_lengths(lengths)) == s.total


# --------------------------------------------------------------------------- fetching


def test_a_set_is_fetched_checked_and_kept_under_the_readers_name(mirror: Path, cache: Path, tmp_path: Path) -> None:
    s = lines_set(mirror, tmp_path / "scratch")
    with serve(mirror) as server:
        path = fetch.fetch(s, cache, server.base)
    assert path == cache / "tiny_b4c3n6.txt"
    assert path.read_bytes() == (mirror / s.boards_from.repo / s.boards_from.commit / "bench/tiny lines.txt").read_bytes()
    assert cache_files(cache) == ["tiny_b4c3n6.opt", "tiny_b4c3n6.txt"]
    assert sum(read_lengths(cache / "tiny_b4c3n6.opt")) == s.total
    assert read_board_set(path).format == "lines" and len(read_board_set(path)) == 6
    assert [p.split("/")[-1] for p in server.requests] == ["tiny%20lines.txt", "tiny%20lines.txt_solution.txt"]
    assert catalog.is_cached(s, cache)


def test_a_blocks_set_played_from_the_centre_keeps_best_known_lengths(mirror: Path, cache: Path, tmp_path: Path) -> None:
    s = blocks_set(mirror, tmp_path / "scratch")
    with serve(mirror) as server:
        path = fetch.fetch(s, cache, server.base)
    boards = read_board_set(path)
    assert boards.format == "blocks" and [b.start for b in boards.boards] == [(2, 2)] * 3
    lengths = known_lengths_path(path)
    assert lengths == cache / "blocky_b5c4n3_center.best" and not lengths_are_proven(lengths)
    assert sum(read_lengths(lengths)) == s.total


def test_a_set_in_the_cache_is_not_downloaded_again(mirror: Path, cache: Path, tmp_path: Path) -> None:
    s = lines_set(mirror, tmp_path / "scratch")
    with serve(mirror) as server:
        first = fetch.fetch(s, cache, server.base)
        asked = len(server.requests)
        again = fetch.fetch(s, cache, server.base)
        assert again == first and len(server.requests) == asked == 2


def test_a_wrong_checksum_is_refused_and_nothing_is_cached(mirror: Path, cache: Path, tmp_path: Path) -> None:
    s = lines_set(mirror, tmp_path / "scratch")
    bad = DataSet(s.name, s.file, s.shape, Remote(s.boards_from.repo, s.boards_from.commit, s.boards_from.path,
                                                    sha256="0" * 64), s.lengths_from, s.total)
    with serve(mirror) as server, pytest.raises(DataSetError) as e:
        fetch.fetch(bad, cache, server.base)
    message = str(e.value)
    assert "\n" not in message and "SHA-256" in message and "nothing was cached" in message
    assert cache_files(cache) == []


def test_a_wrong_git_blob_id_is_refused_and_a_right_one_accepted(mirror: Path, cache: Path, tmp_path: Path) -> None:
    s = lines_set(mirror, tmp_path / "scratch")
    data = (mirror / s.boards_from.repo / s.boards_from.commit / s.boards_from.path).read_bytes()
    by_blob = put(mirror, "bench/by blob.txt", data, by_blob=True)
    wrong = Remote(by_blob.repo, by_blob.commit, by_blob.path, git_blob="f" * 40)
    with serve(mirror) as server:
        with pytest.raises(DataSetError, match="git blob id .* not the pinned f{40}"):
            fetch.fetch(DataSet(s.name, s.file, s.shape, wrong, s.lengths_from, s.total), cache, server.base)
        assert cache_files(cache) == []
        fetch.fetch(DataSet(s.name, s.file, s.shape, by_blob, s.lengths_from, s.total), cache, server.base)
    assert by_blob.git_blob == git_blob(data) == fetch.git_blob_id(cache / s.file)


def test_a_missing_file_is_one_line_and_leaves_no_boards(mirror: Path, cache: Path, tmp_path: Path) -> None:
    """The boards download, the answers are missing (404): the boards are not kept."""
    s = lines_set(mirror, tmp_path / "scratch")
    (mirror / s.boards_from.repo / s.boards_from.commit / "bench/tiny lines.txt_solution.txt").unlink()
    with serve(mirror) as server, pytest.raises(DataSetError) as e:
        fetch.fetch(s, cache, server.base)
    assert "HTTP 404" in str(e.value) and "\n" not in str(e.value)
    assert len(server.requests) == 2
    assert cache_files(cache) == []


def test_no_network_is_one_line_and_leaves_nothing(mirror: Path, cache: Path, tmp_path: Path) -> None:
    s = lines_set(mirror, tmp_path / "scratch")
    t0 = time.monotonic()
    with pytest.raises(DataSetError) as e:
        fetch.fetch(s, cache, f"http://127.0.0.1:{closed_port()}/")
    assert time.monotonic() - t0 < 10
    message = str(e.value)
    assert "\n" not in message and "cannot download" in message and "refused" in message
    assert cache_files(cache) == []


def test_lengths_that_disagree_with_the_catalogue_are_refused(mirror: Path, cache: Path, tmp_path: Path) -> None:
    s = lines_set(mirror, tmp_path / "scratch")
    wrong = DataSet(s.name, s.file, s.shape, s.boards_from, s.lengths_from, s.total + 1)
    with serve(mirror) as server, pytest.raises(DataSetError, match=f"totalling {s.total}, expected 6 totalling {s.total + 1}"):
        fetch.fetch(wrong, cache, server.base)
    assert cache_files(cache) == []


def test_a_7z_set_is_unpacked_under_the_readers_name(mirror: Path, cache: Path, tmp_path: Path) -> None:
    pytest.importorskip("py7zr", reason="py7zr (the 7z extra) is not installed")
    s = sevenz_set(mirror, tmp_path / "scratch")
    assert s.packed
    with serve(mirror) as server:
        path = fetch.fetch(s, cache, server.base)
    assert cache_files(cache) == ["packed_b4c4n4_center.opt", "packed_b4c4n4_center.txt"]
    boards = read_board_set(path)
    assert boards.format == "lines" and len(boards) == 4 and all(b.start == (2, 2) for b in boards.boards)
    assert sum(read_lengths(cache / "packed_b4c4n4_center.opt")) == s.total


def test_a_7z_set_without_py7zr_fails_before_any_download(
    mirror: Path, cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    s = catalog.lookup("floodtest100k")
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "py7zr" else real(name, *a))  # fetch's
    with serve(mirror) as server:
        with pytest.raises(DataSetError, match=r"needs py7zr: pip install 'colorit\[7z\]'"):
            fetch.fetch(s, cache, server.base)
        assert server.requests == []
    assert cache_files(cache) == []


def test_staging_left_by_a_killed_fetch_is_removed_when_old(mirror: Path, cache: Path, tmp_path: Path) -> None:
    s = lines_set(mirror, tmp_path / "scratch")
    old, recent = cache / ".fetch-tiny-old", cache / ".fetch-tiny-recent"
    for folder in (old, recent):
        folder.mkdir(parents=True)
        (folder / "part").write_bytes(b"x")
    day_ago = time.time() - fetch.STALE_STAGING_S - 60
    os.utime(old, (day_ago, day_ago))
    with serve(mirror) as server:
        fetch.fetch(s, cache, server.base)
    assert not old.exists() and recent.is_dir()


# --------------------------------------------------------------------------- names on a command line


def test_paths_stay_paths_and_names_become_cached_files(
    mirror: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    s = lines_set(mirror, tmp_path / "scratch")
    monkeypatch.setattr(catalog, "REGISTRY", catalog.registry([s]))
    monkeypatch.setenv(catalog.DATA_DIR_VARIABLE, str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "tiny").write_text("a file named like the set\n")
    said: list[str] = []
    with serve(mirror) as server:
        monkeypatch.setenv(catalog.URL_VARIABLE, server.base)
        out = fetch.resolve_paths(["tiny", "-", "no/such.txt", "tiny_b4c3n6"], said.append)
        again = fetch.resolve_paths(["tiny_b4c3n6"], said.append)
    cached = str(tmp_path / "cache" / "tiny_b4c3n6.txt")
    assert out == ["tiny", "-", "no/such.txt", cached] and again == [cached]
    assert said == [f"tiny is not in the cache yet: fetching it into {tmp_path / 'cache'}"]
    with pytest.raises(DataSetError, match=r"nope: no such file, nor a benchmark set \(sets: tiny\)"):
        fetch.resolve_paths(["nope"])
