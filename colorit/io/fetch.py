"""Fetching a benchmark set of the catalogue (``colorit.io.catalog``) into the cache.

Downloads go through pooch (imported here only, when a set is fetched): each file into a
staging folder inside the cache, checked against its pinned SHA-256 by pooch or its git
blob id here; a ``.7z`` is unpacked (py7zr, the ``7z`` extra); the known lengths are
taken from the answers file (one answer a line: its length is the board's optimum). Only
then do the two files move to their names in the cache, each in one step, the lengths
first, so an interrupted or failed fetch never leaves a partial file under a final name;
the staging folder goes whatever happens. Every failure is one ``DataSetError`` line.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from .catalog import (
    DataSet,
    DataSetError,
    Remote,
    base_url,
    cached_paths,
    data_dir,
    is_cached,
    known_names,
    lookup,
    packaged_lengths,
)
from .files import looks_like_a_name

#: Seconds without a byte from the server before a download is given up.
TIMEOUT_S = 60
#: Staging folders older than this were left by a killed fetch and are removed.
STALE_STAGING_S = 24 * 3600
_STAGING_PREFIX = ".fetch-"
_CHUNK = 1 << 16
_FILE_MODE = 0o666


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def git_blob_id(path: Path) -> str:
    """git's id of a file's content: the SHA-1 of ``blob SIZE\\0`` and the bytes."""
    h = hashlib.sha1(b"blob %d\0" % path.stat().st_size)
    with open(path, "rb") as f:
        while chunk := f.read(_CHUNK):
            h.update(chunk)
    return h.hexdigest()


def _short_reason(error: BaseException) -> str:
    """The operating system's reason inside a requests error (``connection refused``),
    found along its causes; requests' own text is a paragraph."""
    seen: set[int] = set()
    todo: list[object] = [error]
    while todo:
        e = todo.pop(0)
        if not isinstance(e, BaseException) or id(e) in seen:
            continue
        seen.add(id(e))
        if isinstance(e, OSError) and e.strerror:
            return e.strerror.lower()
        todo.extend([e.__cause__, e.__context__, getattr(e, "reason", None), *e.args])
    text = str(error).split("(Caused by")[-1]
    return " ".join(text.split())[:160] or type(error).__name__


def _download(s: DataSet, remote: Remote, staging: Path, base: str, progress: bool) -> Path:
    """``remote`` downloaded into ``staging`` (under its own name) and checked."""
    import pooch
    import requests

    url = remote.url(base)
    known = f"sha256:{remote.sha256}" if remote.sha256 else None
    downloader = pooch.HTTPDownloader(progressbar=progress, chunk_size=_CHUNK, timeout=TIMEOUT_S)
    try:
        path = Path(pooch.retrieve(url, known_hash=known, fname=Path(remote.path).name, path=staging, downloader=downloader))
    except requests.HTTPError as e:
        status = e.response.status_code if e.response is not None else "error"
        raise DataSetError(f"{s.name}: cannot download {url}: HTTP {status}; nothing was cached") from None
    except requests.RequestException as e:
        raise DataSetError(
            f"{s.name}: cannot download {url}: {_short_reason(e)} (no network? a mirror: set COLORIT_DATASETS_URL); "
            f"nothing was cached"
        ) from None
    except ValueError as e:  # pooch: the SHA-256 differs (the download is deleted)
        if "hash" not in str(e):
            raise DataSetError(f"{s.name}: cannot download {url}: {e}") from None
        raise DataSetError(
            f"{s.name}: {url} does not have the pinned SHA-256 {remote.sha256}; refused, nothing was cached"
        ) from None
    if remote.git_blob is not None:
        got = git_blob_id(path)
        if got != remote.git_blob:
            raise DataSetError(
                f"{s.name}: {url} has git blob id {got}, not the pinned {remote.git_blob}; refused, nothing was cached"
            )
    return path


def require_7z(s: DataSet) -> None:
    """Fail before any download when a set comes as a ``.7z`` and py7zr is missing."""
    if s.packed and importlib.util.find_spec("py7zr") is None:
        raise DataSetError(f"{s.name} comes as a .7z archive, which needs py7zr: pip install 'colorit[7z]'")


def _unpack(s: DataSet, archive: Path, staging: Path) -> Path:
    """The one file inside a ``.7z``, unpacked into ``staging``."""
    import py7zr

    into = staging / "unpacked"
    try:
        with py7zr.SevenZipFile(archive, "r") as z:
            members = [m for m in z.list() if not m.is_directory]
            if len(members) != 1:
                raise DataSetError(f"{s.name}: {archive.name} holds {len(members)} files, expected one board file")
            z.extractall(path=into)
    except (py7zr.exceptions.ArchiveError, py7zr.exceptions.PasswordRequired, OSError, EOFError) as e:
        raise DataSetError(f"{s.name}: cannot unpack {s.boards_from.path}: {e}") from None
    return into / str(members[0].filename)


def lengths_of_answers(name: str, path: Path) -> list[int]:
    """The length of each answer in a file of answers, one a line (``name`` names the
    file in errors)."""
    lines = path.read_bytes().split(b"\n")
    while lines and not lines[-1].strip():
        lines.pop()
    lengths = []
    for i, line in enumerate(lines, start=1):
        answer = line.strip()
        if not answer:
            raise DataSetError(f"{name}:{i}: blank line in a file of answers (one a line)")
        lengths.append(len(answer))
    return lengths


def _check_lengths(s: DataSet, lengths: list[int]) -> None:
    """The lengths fit the catalogue: one a board, and the total it states."""
    boards = s.shape[2]
    if len(lengths) != boards or sum(lengths) != s.total:
        raise DataSetError(
            f"{s.name}: the known lengths are {len(lengths)} move counts totalling {sum(lengths)}, "
            f"expected {boards} totalling {s.total}; nothing was cached"
        )


def _remove_stale_staging(directory: Path) -> None:
    """Staging folders a killed fetch left behind (a day old)."""
    now = time.time()
    for p in directory.glob(f"{_STAGING_PREFIX}*"):
        try:
            if p.is_dir() and now - p.stat().st_mtime > STALE_STAGING_S:
                shutil.rmtree(p, ignore_errors=True)
        except OSError:
            pass


def fetch(s: DataSet, directory: Path | None = None, base: str | None = None, progress: bool = False) -> Path:
    """Put set ``s`` in the cache (``directory``, default ``data_dir()``) unless it is
    there already; its board file's path. ``base`` replaces ``base_url()``."""
    directory = data_dir() if directory is None else directory
    boards_path, lengths_path = cached_paths(s, directory)
    if is_cached(s, directory):
        return boards_path
    require_7z(s)
    base = base_url() if base is None else base
    try:
        directory.mkdir(parents=True, exist_ok=True)
        _remove_stale_staging(directory)
        staging = Path(tempfile.mkdtemp(prefix=f"{_STAGING_PREFIX}{s.name}-", dir=directory))
    except OSError as e:
        raise DataSetError(f"{directory}: cannot write the cache: {(e.strerror or str(e)).lower()}") from None
    import pooch

    pooch_log = pooch.get_logger()
    level = pooch_log.level
    pooch_log.setLevel("WARNING")  # pooch says where it downloads to on every file
    try:
        boards = _download(s, s.boards_from, staging, base, progress)
        if s.packed:
            boards = _unpack(s, boards, staging)
        if isinstance(s.lengths_from, Remote):
            answers = _download(s, s.lengths_from, staging, base, progress)
            lengths = lengths_of_answers(f"{s.name}: {s.lengths_from.path}", answers)
        else:
            lengths = [int(t) for t in packaged_lengths(s.lengths_from).split()]
        _check_lengths(s, lengths)
        staged_lengths = staging / "lengths"
        staged_lengths.write_text("".join(f"{n}\n" for n in lengths), encoding="ascii")
        boards.chmod(_FILE_MODE & ~_umask())  # pooch's temporary file is private (0600)
        os.replace(staged_lengths, lengths_path)
        os.replace(boards, boards_path)
    except OSError as e:
        raise DataSetError(f"{s.name}: cannot write the cache in {directory}: {(e.strerror or str(e)).lower()}") from None
    finally:
        pooch_log.setLevel(level)
        shutil.rmtree(staging, ignore_errors=True)
    return boards_path


def resolve_paths(args: Iterable[str], announce: Callable[[str], None] | None = None) -> list[str]:
    """Command-line words as board files: a path stays a path; a set name becomes the
    set's file in the cache, fetched first (``announce`` is told, in one line) when it is
    not there yet. A word that is neither is one line listing the known names."""
    out = []
    for arg in args:
        if not looks_like_a_name(arg):
            out.append(arg)
            continue
        try:
            s = lookup(arg)
        except DataSetError:
            raise DataSetError(
                f"{arg}: no such file, nor a benchmark set (sets: {', '.join(known_names())})"
            ) from None
        if not is_cached(s):
            if announce is not None:
                announce(f"{s.name} is not in the cache yet: fetching it into {data_dir()}")
            fetch(s, progress=sys.stderr.isatty())
        out.append(str(cached_paths(s)[0]))
    return out


__all__ = ["fetch", "git_blob_id", "lengths_of_answers", "require_7z", "resolve_paths"]
