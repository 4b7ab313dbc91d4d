"""The API's description tells the truth: schemathesis against a live server.

``st run --checks all`` sends requests made from ``/openapi.json``, valid ones and
invalid ones, and checks every answer: a valid request is accepted, an invalid one
refused, no answer is a server error, and each answer has a documented status, type,
headers and body. The server runs as ``colorit serve`` does, on 127.0.0.1, with small
limits (so every solve is quick), and the limits it states are the ones it keeps.

JSON Schema cannot say a few rules the server keeps (its description says them in
words): every row as long as the first, a start cell on the board, at most ``max_cells``
cells in all (``width * height`` for /api/generate). This file is also schemathesis'
hooks file: it sets aside a failure "valid request refused" when the request breaks one
of those rules, and takes a 413 (a body or a board over the server's limits) as the
refusal the negative checks ask for. By hand, against a server started with
``--max-cells 400``::

    SCHEMATHESIS_HOOKS=tests/test_web_schema.py COLORIT_MAX_CELLS=400 \\
        st run http://127.0.0.1:PORT/openapi.json --checks all --workers 1
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

MAX_CELLS = 400
MAX_TIME = 1.0
#: test cases per operation and phase (seven operations: a few hundred requests in all)
EXAMPLES = 50
#: a fixed seed: the same requests each run (a failure found once is found again)
SEED = 20240601
#: the run takes 10-20 s; past this it has hung
RUN_SECONDS = 120


def unstated_rule(path: str, body: Any, max_cells: int) -> str | None:
    """The rule a request body breaks that the schema cannot state, or None."""
    if not isinstance(body, dict):
        return None
    if path == "/api/generate":
        width, height = body.get("width"), body.get("height")
        if isinstance(width, (int, float)) and isinstance(height, (int, float)):
            if width * height > max_cells:
                return "width * height over max_cells"
            return _start_off(body.get("start"), int(height), int(width))
        return None
    board = body.get("board")
    if not (isinstance(board, list) and board and all(isinstance(row, list) and row for row in board)):
        return None
    if any(len(row) != len(board[0]) for row in board):
        return "rows of different lengths"
    if len(board) * len(board[0]) > max_cells:
        return "more cells than max_cells"
    return _start_off(body.get("start"), len(board), len(board[0]))


def _start_off(start: Any, height: int, width: int) -> str | None:
    if isinstance(start, list) and len(start) == 2:
        row, col = start
        if not (0 <= row < height and 0 <= col < width):
            return "a start cell off the board"
    return None


def keep_failure(code: str, status: int, path: str, body: Any, max_cells: int) -> bool:
    """Whether a schemathesis failure is one: not a valid-looking request refused for an
    unstated rule, nor an invalid one refused with 413."""
    if code == "ST202" and status in (413, 422):
        return unstated_rule(path, body, max_cells) is None
    if code == "ST201" and status == 413:
        return False
    return True


if __name__ == "_schemathesis_hooks":  # loaded by schemathesis (SCHEMATHESIS_HOOKS)
    import schemathesis

    @schemathesis.hook
    def filter_failure(context: Any, failure: Any, case: Any, response: Any) -> bool:
        max_cells = int(os.environ.get("COLORIT_MAX_CELLS", "90000"))
        return keep_failure(failure.code, response.status_code, case.operation.path, case.body, max_cells)


# ---------------------------------------------------------------------- the tests


def test_the_unstated_rules() -> None:
    board = [[1, 2], [3, 4]]
    assert unstated_rule("/api/solve", {"board": board}, 4) is None
    assert unstated_rule("/api/solve", {"board": [[1, 2], [3]]}, 4) == "rows of different lengths"
    assert unstated_rule("/api/check", {"board": board, "moves": []}, 3) == "more cells than max_cells"
    assert unstated_rule("/api/solve", {"board": board, "start": [2, 0]}, 4) == "a start cell off the board"
    assert unstated_rule("/api/solve", {"board": board, "start": [1.0, 1.0]}, 4) is None
    assert unstated_rule("/api/generate", {"width": 3, "height": 2, "colours": 2}, 5) == "width * height over max_cells"
    assert unstated_rule("/api/generate", {"width": 3, "height": 2, "start": [0, 3]}, 6) == "a start cell off the board"
    # what the schema states is no excuse
    assert unstated_rule("/api/solve", {"board": []}, 4) is None
    assert keep_failure("ST202", 422, "/api/solve", {"board": []}, 4)
    assert not keep_failure("ST202", 422, "/api/solve", {"board": [[1], [2, 3]]}, 4)
    assert keep_failure("ST202", 500, "/api/solve", {"board": [[1], [2, 3]]}, 4)
    assert not keep_failure("ST201", 413, "/api/solve", {}, 4)
    assert keep_failure("ST201", 200, "/api/solve", {}, 4)


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    # imported here: schemathesis loads this module as its hooks, without tests/ on the path
    from cli_support import web_server

    with web_server("--workers", "1", "--max-cells", str(MAX_CELLS), "--max-time", str(MAX_TIME)) as (url, _):
        yield url


@pytest.mark.skipif(
    importlib.util.find_spec("schemathesis") is None,
    reason="schemathesis is not installed (it is in the test extra: pip install -e '.[test]')",
)
def test_schemathesis_finds_the_description_true(server: str, tmp_path: Path) -> None:
    command = [
        sys.executable, "-m", "schemathesis.cli", "run", f"{server}/openapi.json", "--checks", "all",
        "--workers", "1", "--max-examples", str(EXAMPLES), "--seed", str(SEED),
        "--generation-database", "none", "--request-timeout", "15",
    ]  # fmt: skip
    env = {**os.environ, "SCHEMATHESIS_HOOKS": __file__, "COLORIT_MAX_CELLS": str(MAX_CELLS), "NO_COLOR": "1"}
    run = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=RUN_SECONDS)
    report = run.stdout[-6000:] + run.stderr[-2000:]
    assert run.returncode == 0, report
    tested = re.search(r"(\d+) generated", run.stdout)
    assert tested and int(tested.group(1)) >= 100, report
