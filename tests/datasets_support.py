"""What the catalogue tests share: a mirror folder laid out as raw.githubusercontent.com
is (``OWNER/REPO/COMMIT/PATH``), a local HTTP server over it on 127.0.0.1 that counts
the requests, and small sets of the catalogue's forms (one board a line; blocks with a
centre start; a ``.7z``) whose answers colorit finds, so their lengths are optima."""

from __future__ import annotations

import hashlib
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import numpy as np

from colorit import solve
from colorit.io.catalog import DataSet, Remote
from colorit.io.datasets import ALPHABET, encode_moves, read_boards

REPO = "test-owner/test-sets"
COMMIT = "0123456789abcdef0123456789abcdef01234567"


@dataclass
class Server:
    """A running mirror: its base URL and the paths asked for, in order."""

    base: str
    requests: list[str] = field(default_factory=list)


@contextmanager
def serve(folder: Path) -> Iterator[Server]:
    """An HTTP server on 127.0.0.1 over ``folder`` for the test's duration (stopped and
    closed after; each request answered within the handler's timeout)."""
    server_state = Server("")

    class Handler(SimpleHTTPRequestHandler):
        timeout = 10

        def do_GET(self) -> None:  # noqa: N802 (the standard library's name)
            server_state.requests.append(self.path)
            super().do_GET()

        def log_message(self, *args: object) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), partial(Handler, directory=str(folder)))
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    server_state.base = f"http://127.0.0.1:{httpd.server_address[1]}/"
    try:
        yield server_state
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=5)


def closed_port() -> int:
    """A port on 127.0.0.1 nothing listens on (bound, then let go)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def git_blob(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def put(mirror: Path, path: str, data: bytes, by_blob: bool = False) -> Remote:
    """``data`` in the mirror at ``path`` of the test repository, and its pinned entry."""
    target = mirror / REPO / COMMIT / path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)
    if by_blob:
        return Remote(REPO, COMMIT, path, git_blob=git_blob(data))
    return Remote(REPO, COMMIT, path, sha256=hashlib.sha256(data).hexdigest(), size=len(data))


def random_grids(n: int, side: int, colours: int, seed: int) -> np.ndarray:
    grids = np.random.default_rng(seed).integers(1, colours + 1, size=(n, side, side))
    grids[:, 0, 0] = 1  # every colour id below the name's c<C>, and at least one
    return grids


def lines_text(grids: np.ndarray) -> bytes:
    return "".join("".join(ALPHABET[v - 1] for v in g.ravel()) + "\n" for g in grids).encode()


def blocks_text(grids: np.ndarray) -> bytes:
    return "\n".join("".join("".join(ALPHABET[v - 1] for v in row) + "\n" for row in g) for g in grids).encode()


def answers_text(boards_text: bytes, cache_name: str, scratch: Path) -> tuple[bytes, int]:
    """Optimal answers, one a line, to the boards of ``boards_text`` read as the cache
    will name them (their start cell comes from the name), and their total."""
    scratch.mkdir(parents=True, exist_ok=True)
    path = scratch / cache_name
    path.write_bytes(boards_text)
    answers = [solve(b, "astar").moves for b in read_boards(path)]
    return "".join(encode_moves(a) + "\n" for a in answers).encode(), sum(len(a) for a in answers)


def lines_set(mirror: Path, scratch: Path, name: str = "tiny") -> DataSet:
    """Six 4x4 boards of 3 colours, one a line, from the top-left corner; the upstream
    names hold spaces, as the real ones do."""
    file = "tiny_b4c3n6.txt"
    text = lines_text(random_grids(6, 4, 3, seed=11))
    answers, total = answers_text(text, file, scratch)
    return DataSet(
        name, file, (4, 3, 6), put(mirror, "bench/tiny lines.txt", text),
        put(mirror, "bench/tiny lines.txt_solution.txt", answers), total, aliases=("tiny_b4c3n6",),
        lengths_by="test",
    )


def blocks_set(mirror: Path, scratch: Path, name: str = "blocky") -> DataSet:
    """Three 5x5 boards of 4 colours in blocks, played from the centre; lengths not
    proven (kept as ``.best``)."""
    file = "blocky_b5c4n3_center.txt"
    text = blocks_text(random_grids(3, 5, 4, seed=12))
    answers, total = answers_text(text, file, scratch)
    return DataSet(
        name, file, (5, 4, 3), put(mirror, "bench/blocky.txt", text), put(mirror, "bench/blocky answers.txt", answers),
        total, start="center", proven=False, lengths_by="test",
    )


def sevenz_set(mirror: Path, scratch: Path, name: str = "packed") -> DataSet:
    """Four 4x4 boards of 4 colours, one a line from the centre, in a ``.7z`` pinned by
    its git blob id (as the Code Golf set is)."""
    import py7zr

    file = "packed_b4c4n4_center.txt"
    text = lines_text(random_grids(4, 4, 4, seed=13))
    answers, total = answers_text(text, file, scratch)
    inner = scratch / "packed inner.txt"
    inner.write_bytes(text)
    archive = scratch / "packed.7z"
    with py7zr.SevenZipFile(archive, "w") as z:
        z.write(inner, arcname="floodtest_simplified.txt")
    return DataSet(
        name, file, (4, 4, 4), put(mirror, "bench/packed.7z", archive.read_bytes(), by_blob=True),
        put(mirror, "bench/packed answers.txt", answers), total, start="center", lengths_by="test",
    )


def cache_files(directory: Path) -> list[str]:
    """Everything in a cache folder, hidden staging folders included, sorted."""
    if not directory.exists():
        return []
    return sorted(str(p.relative_to(directory)) for p in directory.rglob("*"))
