"""The community's Flood-It benchmark sets by name: where each comes from, pinned to a
commit and a checksum, and where it is kept once fetched (``colorit.io.fetch`` fetches).

A set is kept in the cache folder as two files the readers of ``colorit.io.datasets``
understand as they are: the boards under a name that says their shape and start cell
(``pc19_b14c6n1000.txt``, ``floodtest_b19c6n1000_center.txt``), and the known lengths
beside them (``.opt`` when proven optimal, ``.best`` otherwise), so that
``colorit bench pc19 --expect auto`` finds both. The cache folder is the platform's
(``pooch.os_cache("colorit")``: ``~/.cache/colorit`` on Linux) unless
``COLORIT_DATA_DIR`` names another; files are downloaded from raw.githubusercontent.com
unless ``COLORIT_DATASETS_URL`` names a mirror that keeps the same paths.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from ..errors import ColoritError

#: The variable naming the cache folder, and the one naming a mirror of the sources.
DATA_DIR_VARIABLE = "COLORIT_DATA_DIR"
URL_VARIABLE = "COLORIT_DATASETS_URL"
DEFAULT_BASE_URL = "https://raw.githubusercontent.com/"



class DataSetError(ColoritError):
    """A set that is unknown, cannot be downloaded, or fails its checksum."""


@dataclass(frozen=True)
class Remote:
    """One file of a public repository at a pinned commit, with what it must hash to:
    its SHA-256, or (where only git's id is published) its git blob id."""

    repo: str  #: ``owner/name``
    commit: str
    path: str  #: inside the repository (may hold spaces)
    sha256: str | None = None
    git_blob: str | None = None
    size: int | None = None  #: bytes, where known

    def __post_init__(self) -> None:
        if (self.sha256 is None) == (self.git_blob is None):
            raise ValueError(f"{self.path}: give exactly one of sha256 and git_blob")

    def url(self, base: str) -> str:
        """Where to download it from: ``base`` + ``OWNER/REPO/COMMIT/PATH`` (quoted)."""
        return base.rstrip("/") + "/" + quote(f"{self.repo}/{self.commit}/{self.path}")

    @property
    def origin(self) -> str:
        """``owner/name@commit path``, short enough for a listing."""
        return f"{self.repo}@{self.commit[:7]} {self.path}"


@dataclass(frozen=True)
class DataSet:
    """A benchmark set: its boards (a file, or a ``.7z`` holding one file) and its known
    lengths (a file of answers, one a line, whose line lengths are the lengths; or a
    lengths file shipped in this package). ``file`` is the name the readers of
    ``colorit.io.datasets`` go by; its ``b<S>c<C>n<N>`` and ``_center`` say the shape and
    start given here (the tests hold them to it; reading the name here would load numpy
    for a listing)."""

    name: str
    file: str  #: the board file's name in the cache
    shape: tuple[int, int, int]  #: ``(side, colours, boards)``
    boards_from: Remote
    lengths_from: Remote | str  #: a file of answers, or a file name in ``colorit/io/data``
    total: int  #: the sum of the known lengths
    start: str = "top-left"  #: or ``center``
    proven: bool = True  #: optimal (``.opt``), else best known (``.best``)
    aliases: tuple[str, ...] = ()
    lengths_by: str = ""  #: who found the lengths, for the listing

    @property
    def lengths_file(self) -> str:
        return str(Path(self.file).with_suffix(".opt" if self.proven else ".best"))

    @property
    def packed(self) -> bool:
        """Whether the boards come as a ``.7z`` archive, unpacked on fetch."""
        return self.boards_from.path.lower().endswith(".7z")

    @property
    def remotes(self) -> tuple[Remote, ...]:
        return (self.boards_from,) + ((self.lengths_from,) if isinstance(self.lengths_from, Remote) else ())


def packaged_file(name: str) -> bytes:
    """A file shipped in ``colorit/io/data`` (the catalogue, the lengths colorit proved)."""
    from importlib import resources

    return resources.files(__package__).joinpath("data", name).read_bytes()


def packaged_lengths(name: str) -> bytes:
    """A lengths file shipped in ``colorit/io/data``."""
    return packaged_file(name)


def _remote(entry: Mapping[str, Any], repositories: Mapping[str, list[str]]) -> Remote:
    repo, commit = repositories[entry["from"]]
    return Remote(repo, commit, entry["path"], sha256=entry.get("sha256"), git_blob=entry.get("git_blob"),
                  size=entry.get("size"))


def load_sets(text: str) -> tuple[DataSet, ...]:
    """The sets of a catalogue file (``colorit/io/data/sets.json``): each file pinned to
    its repository's commit and its SHA-256 (or git blob id), in the order listed."""
    data = json.loads(text)
    repos = data["repositories"]
    return tuple(
        DataSet(
            e["name"], e["file"], tuple(e["shape"]), _remote(e["boards"], repos),
            _remote(e["lengths"], repos) if isinstance(e["lengths"], dict) else e["lengths"],
            e["total"], start=e.get("start", "top-left"), proven=e.get("proven", True),
            aliases=tuple(e.get("aliases", ())), lengths_by=e.get("lengths_by", ""),
        )
        for e in data["sets"]
    )


#: The sets colorit knows (the catalogue is data: a set is added by an entry in
#: ``colorit/io/data/sets.json``; the tests check every entry's shape, start and total).
SETS: tuple[DataSet, ...] = load_sets(packaged_file("sets.json").decode("utf-8"))


def registry(sets: Iterable[DataSet] = SETS) -> dict[str, DataSet]:
    """Name and alias -> set."""
    out: dict[str, DataSet] = {}
    for s in sets:
        for key in (s.name, *s.aliases):
            if key in out:
                raise ValueError(f"{key}: named twice in the catalogue")
            out[key] = s
    return out


#: What ``lookup`` and the commands consult (tests put their own catalogue here).
REGISTRY: Mapping[str, DataSet] = registry()


def known_names(reg: Mapping[str, DataSet] | None = None) -> list[str]:
    """The sets' own names, in catalogue order (aliases left out)."""
    reg = REGISTRY if reg is None else reg
    return list(dict.fromkeys(s.name for s in reg.values()))


def lookup(name: str, reg: Mapping[str, DataSet] | None = None) -> DataSet:
    """The set called ``name`` (or one of its aliases, any case); one line listing the
    known names otherwise."""
    reg = REGISTRY if reg is None else reg
    found = reg.get(name) or {k.lower(): v for k, v in reg.items()}.get(name.lower())
    if found is None:
        raise DataSetError(f"no benchmark set called {name!r}; known: {', '.join(known_names(reg))}, or 'all'")
    return found


def select(names: Iterable[str], reg: Mapping[str, DataSet] | None = None) -> list[DataSet]:
    """The sets ``names`` call for (``all``: every one), each once, in the order given."""
    out: dict[str, DataSet] = {}
    for name in names:
        for s in (known_sets(reg) if name.lower() == "all" else [lookup(name, reg)]):
            out.setdefault(s.name, s)
    return list(out.values())


def known_sets(reg: Mapping[str, DataSet] | None = None) -> list[DataSet]:
    reg = REGISTRY if reg is None else reg
    return list({s.name: s for s in reg.values()}.values())


# -- the cache -----------------------------------------------------------------------


def data_dir() -> Path:
    """The cache folder: ``$COLORIT_DATA_DIR``, else the platform's cache folder for
    colorit."""
    given = os.environ.get(DATA_DIR_VARIABLE)
    if given:
        return Path(given).expanduser()
    import pooch  # light (requests is imported only to download)

    return Path(pooch.os_cache("colorit"))


def base_url() -> str:
    """Where the sources are downloaded from: ``$COLORIT_DATASETS_URL`` or GitHub's raw
    files."""
    return os.environ.get(URL_VARIABLE) or DEFAULT_BASE_URL


def cached_paths(s: DataSet, directory: Path | None = None) -> tuple[Path, Path]:
    """Where a set's boards and known lengths are (or will be) in the cache."""
    d = data_dir() if directory is None else directory
    return d / s.file, d / s.lengths_file


def is_cached(s: DataSet, directory: Path | None = None) -> bool:
    """Whether both of a set's files are in the cache (they are only ever put there
    whole and checked, the lengths first)."""
    return all(p.is_file() for p in cached_paths(s, directory))


__all__ = [
    "DEFAULT_BASE_URL",
    "DataSet",
    "DataSetError",
    "REGISTRY",
    "Remote",
    "SETS",
    "base_url",
    "cached_paths",
    "data_dir",
    "is_cached",
    "known_names",
    "known_sets",
    "lookup",
    "load_sets",
    "packaged_file",
    "packaged_lengths",
    "registry",
    "select",
]
