"""Files, whole or not at all: reading a file (or standard input) with one clear line when
it cannot be read, refusing before any work an output that would replace an input (the
same path, a symlink or a hard link) or that cannot be written, and writing atomically.

Writing goes to a temporary file in the same folder, which then replaces the target in
one step, so a reader never sees half an answer and an existing file is never damaged by
a failed run.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

from ..errors import BoardFormatError, ColoritError, OutputError

#: A path as the standard library takes it.
StrPath = str | os.PathLike[str]

#: The file name that means standard input (for reading) or output (for writing).
STDIO = "-"


def looks_like_a_name(arg: str) -> bool:
    """Whether a command-line word can only be a set name (``fetch.resolve_paths``): no
    folder, no extension, no such file."""
    return arg not in ("", "-") and not any(ch in arg for ch in "/\\.") and not os.path.exists(arg)


def display_name(path: StrPath) -> str:
    """How messages name a file: ``<stdin>`` for ``-``."""
    name = os.fspath(path)
    return "<stdin>" if name == STDIO else name


def read_bytes(path: StrPath, what: str = "") -> bytes:
    """The file's bytes (standard input for ``-``); ``BoardFormatError`` naming the file
    and what went wrong (``what`` names the kind of file: "board", "answer")."""
    name = os.fspath(path)
    if name == STDIO:
        return sys.stdin.buffer.read()
    try:
        return Path(path).read_bytes()
    except FileNotFoundError:
        raise BoardFormatError(f"{name}: no such {what + ' ' if what else ''}file") from None
    except IsADirectoryError:
        raise BoardFormatError(f"{name}: is a directory, not a {what or 'board'} file") from None
    except PermissionError:
        raise BoardFormatError(f"{name}: permission denied") from None
    except OSError as e:
        raise BoardFormatError(f"{name}: cannot read: {(e.strerror or str(e)).lower()}") from None


def same_file(a: StrPath, b: StrPath) -> bool:
    """Whether two paths name one file: the same path, a symlink to it or a hard link."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.realpath(a) == os.path.realpath(b)


def check_outputs(inputs: Iterable[StrPath | None], outputs: Iterable[StrPath | None]) -> None:
    """Refuse, before any work, outputs that would write over an input (or over each
    other) or that cannot be written; ``-`` (standard input/output) is always fine."""
    ins = [i for i in inputs if i is not None and os.fspath(i) != STDIO]
    seen: list[StrPath] = []
    for out in outputs:
        if out is None or os.fspath(out) == STDIO:
            continue
        for inp in ins:
            if same_file(inp, out):
                what = "an input" if os.fspath(inp) == os.fspath(out) else f"the same file as the input {os.fspath(inp)!r}"
                raise OutputError(f"{os.fspath(out)}: is {what}; refusing to write over it")
        for other in seen:
            if same_file(other, out):
                raise OutputError(f"{os.fspath(out)}: given as two outputs; each output needs its own file")
        check_output_path(out)
        seen.append(out)


def check_output_path(path: StrPath) -> Path:
    """Fail early, before any solving, if ``path`` cannot be an output file."""
    target = Path(path)
    folder = target.parent
    name = os.fspath(path)
    if target.is_dir():
        raise OutputError(f"{name}: is a directory, expected an output file name")
    if not folder.is_dir():
        raise OutputError(f"{name}: folder {os.fspath(folder)!r} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OutputError(f"{name}: folder {os.fspath(folder)!r} is not writable")
    return target


def write_atomic(path: StrPath, data: str | bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder and
    ``os.replace``, so the target is either untouched or completely written; ``-``
    writes to standard output."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    if os.fspath(path) == STDIO:
        sys.stdout.flush()
        out = sys.stdout.buffer
        view = memoryview(raw)
        while view:  # a pipe closed half-way may take part of it: the rest then raises
            view = view[out.write(view) or 0 :]
        out.flush()
        return
    target = check_output_path(path)
    name = os.fspath(path)
    tmp = target.parent / f".{target.name}.{os.getpid()}.{os.urandom(4).hex()}.tmp"
    try:
        mode = target.stat().st_mode & 0o777 if target.exists() else 0o666
        # os.open applies the umask to a new file, as a plain open() would
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(raw)
                f.flush()
                os.fsync(f.fileno())
            if target.exists():
                os.chmod(tmp, mode)
            os.replace(tmp, target)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
    except OSError as e:
        raise OutputError(f"{name}: cannot write: {(e.strerror or str(e)).lower()}") from None


def write_text_atomic(path: StrPath, text: str) -> None:
    """``write_atomic`` for text (UTF-8, line ends as given)."""
    write_atomic(path, text)


def check_files(inputs: Sequence[str | None], outputs: Sequence[str | None]) -> None:
    """Before any work: no output may be an input (same path, symlink or hard link) or
    another output, each must be writable, and standard input can be read only once."""
    if sum(1 for i in inputs if i == STDIO) > 1:
        raise ColoritError("only one input can be '-' (standard input)")
    if sum(1 for o in outputs if o == STDIO) > 1:
        raise ColoritError("only one output can be '-' (standard output)")
    check_outputs(inputs, outputs)
