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

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from ..errors import ColoritError

#: The variable naming the cache folder, and the one naming a mirror of the sources.
DATA_DIR_VARIABLE = "COLORIT_DATA_DIR"
URL_VARIABLE = "COLORIT_DATASETS_URL"
DEFAULT_BASE_URL = "https://raw.githubusercontent.com/"

COLORFILL = ("smack42/ColorFill", "682869c82f2581d0ac0097727d300260d7986f2f")
TERMINAL_FLOOD = ("Flolle/terminal-flood", "a7ea64668a3af65b8b5aa2d38622358881ce3214")
#: ColorFill's answers of its exact A* (one answer a line): the optimum of each board.
_PUCHERT = "_solution_AStarPuchertStrategy.txt"


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


def _colorfill(path: str, sha256: str, size: int) -> Remote:
    return Remote(*COLORFILL, f"benchmark/{path}", sha256=sha256, size=size)


def _terminal_flood(path: str, sha256: str | None = None, size: int | None = None, git_blob: str | None = None) -> Remote:
    return Remote(*TERMINAL_FLOOD, f"benchmark/{path}", sha256=sha256, size=size, git_blob=git_blob)


#: The sets colorit knows, in the order listed. Checksums and sizes are those of the
#: files at the pinned commits; the two big sets are pinned by their git blob ids, the
#: only hash their repository publishes.
SETS: tuple[DataSet, ...] = (
    DataSet(
        "pc19", "pc19_b14c6n1000.txt", (14, 6, 1000),
        _colorfill("pc19 tiles.txt", "4e0d2ff0b6b77f1fb91936e00241b8684a63ddce5281ba7b5d6d4f83a8bb251d", 198000),
        _colorfill(f"pc19 tiles.txt{_PUCHERT}", "7152e4cce459b92532c1c16cbd34ce826a7e43691452fcf823c5365e8d8d7f88", 21086),
        20086, aliases=("pc19_b14c6n1000",), lengths_by="ColorFill",
    ),
    DataSet(
        "floodtest", "floodtest_b19c6n1000_center.txt", (19, 6, 1000),
        _colorfill("floodtest 1000.txt", "f307962d4f9657b0732adfb545fb69e6db4f3c405d013590e4851ca9b43b1c96", 381000),
        _colorfill(f"floodtest 1000.txt{_PUCHERT}", "ce1dd35715931289c442e833149ed02e1993921861468e8874201dbfa463a945", 20845),
        19845, start="center", aliases=("floodtest_b19c6n1000_center", "floodtest1000"), lengths_by="ColorFill",
    ),
    DataSet(
        "b10c15n1000", "b10c15n1000.txt", (10, 15, 1000),
        _colorfill("dataset b10c15n1000.txt", "249ca262a1be1b0c300c6c2ee96546c5c89171dc65952c56de9bd25b4c02543c", 102000),
        _colorfill(f"dataset b10c15n1000.txt{_PUCHERT}", "2eb79ace0a94330284525ff2f093b4724f52be1a138bd214a01ef6532b3f7b9e", 27717),
        26717, aliases=("b10c15",), lengths_by="ColorFill",
    ),
    DataSet(
        "b10c35n1000", "b10c35n1000.txt", (10, 35, 1000),
        _terminal_flood("dataset b10c35n1000.txt", "baa7dce5d6db1306bbd377e0f030ae506bd9facb0c9805ff6f76e9a7a0db7325", 101000),
        _terminal_flood("solutions optimal b10c35n1000.txt", "168c32f9ddf7f3575e6ecee9db50ff3b3dbb587fce14714219db9a6713f3e63c", 42751),
        41751, aliases=("b10c35",), lengths_by="terminal-flood",
    ),
    DataSet(
        "b12c12n1000", "b12c12n1000.txt", (12, 12, 1000),
        _colorfill("dataset b12c12n1000.txt", "5535dc4bd31708a7d595ae5f77f9a6dc3a2150487e739547052a106769d87550", 146000),
        _colorfill(f"dataset b12c12n1000.txt{_PUCHERT}", "8dc8cbf73a3865677585dbde7b66d152a9baea4837f6fbc3d3796ac2fd1413d7", 28635),
        27635, aliases=("b12c12",), lengths_by="ColorFill",
    ),
    DataSet(
        "b14c8n1000", "b14c8n1000.txt", (14, 8, 1000),
        _colorfill("dataset b14c8n1000.txt", "5fbec458d71bb03515070f3bf70dc073afbc569f937dbf676b2be4e40a60683d", 198000),
        _colorfill(f"dataset b14c8n1000.txt{_PUCHERT}", "4444ed94fabf50f78645255c3855cb3c6d840634060b8b501858dce5cd63f772", 25582),
        24582, aliases=("b14c8",), lengths_by="ColorFill",
    ),
    DataSet(
        "b18c6n1000", "b18c6n1000.txt", (18, 6, 1000),
        _colorfill("dataset b18c6n1000.txt", "ba8670b5f6dee7d8e8e649d0d9b98d72b5926daf100a6023cde37ae33e51813a", 326000),
        _colorfill(f"dataset b18c6n1000.txt{_PUCHERT}", "4029d15b84f1c9a05bf019ad7c6c6a1ca5853c729182f173242c2b7113535f01", 25837),
        24837, aliases=("b18c6",), lengths_by="ColorFill",
    ),
    DataSet(
        "b24c4n1000", "b24c4n1000.txt", (24, 4, 1000),
        _colorfill("dataset b24c4n1000.txt", "1b3c98aee1ac5eb9036b2e2a22b4816d5fd12397b836a3108dac3bed7d18c586", 578000),
        _colorfill(f"dataset b24c4n1000.txt{_PUCHERT}", "aa0401bfdb4eae8c34d8c035a22fb4051db34dc39ba84e8b7e07a447ecbc54bd", 22952),
        21952, aliases=("b24c4",), lengths_by="ColorFill",
    ),
    # no public solver has proven these optimal; colorit's campaign has (results/b24c6n1000.jsonl)
    DataSet(
        "b24c6n1000", "b24c6n1000.txt", (24, 6, 1000),
        _colorfill("dataset b24c6n1000.txt", "c166e17e91c41fb61cc112ae3ed66756a707a77bb41eddd81688e6e50b39ca4a", 578000),
        "b24c6n1000.opt", 31804, aliases=("b24c6",), lengths_by="colorit",
    ),
    DataSet(
        "b24c4n10000", "b24c4n10000.txt", (24, 4, 10000),
        _terminal_flood("dataset b24c4n10000.txt", git_blob="3559ff06a05427d204afc7c93f41e9bdac703ede"),
        _terminal_flood("solutions optimal b24c4n10000.txt", "0200e81d00c81451ec5d416281c4ab463e0ceb6c4da13674ebd03f2083a90d5e", 229580),
        219580, aliases=("b24c4n10k",), lengths_by="terminal-flood",
    ),
    DataSet(
        "floodtest100k", "floodtest_b19c6n100000_center.txt", (19, 6, 100000),
        _terminal_flood("dataset floodtest_simplified.7z", git_blob="180dcb4d4429c540796222a9c4564fb250929c86"),
        _terminal_flood("solutions optimal floodtest.txt", "eb7e7723af1d6e772c6e1944918dd8cff987874972d02928f3b362cd338ac189", 2085078),
        1985078, start="center",
        aliases=("floodtest_b19c6n100000_center", "floodtest_simplified"), lengths_by="terminal-flood",
    ),
)


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


def packaged_lengths(name: str) -> bytes:
    """A lengths file shipped in ``colorit/io/data``."""
    from importlib import resources

    return resources.files(__package__).joinpath("data", name).read_bytes()


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
    "packaged_lengths",
    "registry",
    "select",
]
