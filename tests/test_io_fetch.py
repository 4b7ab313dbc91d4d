"""Fetching the benchmark sets by name (``colorit/io/fetch.py``) into a cache from a local
mirror (a server on 127.0.0.1): checked, unpacked, lengths beside the boards, nothing
half-written on any failure; and names on a command line, fetched when not cached."""

from __future__ import annotations

import importlib.util
import os
import time
from pathlib import Path

import pytest

from colorit.io import catalog, fetch
from colorit.io.catalog import DataSet, DataSetError, Remote
from colorit.io.datasets import known_lengths_path, lengths_are_proven, read_board_set, read_lengths

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
