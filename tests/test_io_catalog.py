"""The catalogue of the benchmark sets (``colorit/io/catalog.py``): names and aliases,
pinned hashes, the cache folder, agreement with the readers and with the community's
sets where they are. Fetching them is test_io_fetch.py's."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from colorit.io import catalog
from colorit.io.catalog import SETS, DataSetError, Remote
from colorit.io.datasets import default_start, known_lengths_path, name_shape, read_lengths

from cli_support import ROOT


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
    # the commits the sets are published at: ColorFill's and terminal-flood's
    sources = {
        "smack42/ColorFill": "682869c82f2581d0ac0097727d300260d7986f2f",
        "Flolle/terminal-flood": "a7ea64668a3af65b8b5aa2d38622358881ce3214",
    }
    for s in SETS:
        for r in s.remotes:
            assert sources[r.repo] == r.commit and len(r.commit) == 40
            assert (r.sha256 is None) != (r.git_blob is None)
            digest = r.sha256 or r.git_blob
            assert digest is not None and all(c in "0123456789abcdef" for c in digest)
            assert len(digest) == (64 if r.sha256 else 40)
    with pytest.raises(ValueError, match="exactly one"):
        Remote("a/b", "c" * 40, "x.txt")


def test_the_catalogue_file_reads_back_into_the_sets() -> None:
    """The catalogue is data (colorit/io/data/sets.json): what it says is what the
    commands use, every set once, in the order listed."""
    assert catalog.load_sets(catalog.packaged_file("sets.json").decode()) == SETS
    assert [s.name for s in SETS][:2] == ["pc19", "floodtest"]
    assert len({s.name for s in SETS}) == len(SETS) == 11


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


@pytest.mark.parametrize("record", ["b24c6n1000.jsonl", "b24c6n1000-from-scratch.jsonl"])
def test_the_shipped_b24c6_optima_are_those_of_the_results_file(record: str) -> None:
    """colorit's own proofs (the campaign's passes, and the run from nothing): every
    board of the record proven, each answer's length the shipped optimum, and the
    catalogue's total their sum."""
    records = sorted((json.loads(line) for line in (ROOT / "results" / record).open()), key=lambda r: r["board"])
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
