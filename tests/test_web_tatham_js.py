"""The page's game ID parser (colorit/web/static/tatham.js) against colorit.io.gameid, through
node: the same boards, colours, extra moves and limits from the same IDs, the same
one-line message (and so the same column) from the same bad ones, the same IDs written.

Each hypothesis example sends a batch of cases to one node process (tests/js/tatham_cli.mjs).
"""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from colorit import Board
from colorit.errors import BoardFormatError, ColoritError
from colorit.io.csvfile import read_board_file
from colorit.io.gameid import DIGITS, format_game_id, parse_game_id

from ci_env import tool_or_skip
from conftest import BAD_GAME_IDS

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "tests" / "js" / "tatham_cli.mjs"
NODE = tool_or_skip("node")

BATCH = settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def run_node(op: str, cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    request = json.dumps({"op": op, "cases": cases})
    done = subprocess.run([NODE, str(SCRIPT)], input=request, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def python_parse(text: str) -> dict[str, Any]:
    try:
        game = parse_game_id(text)
    except BoardFormatError as e:
        return {"error": str(e)}
    return {"rows": game.cells.tolist(), "colours": game.colours, "extra": game.extra, "limit": game.limit}


@st.composite
def valid_ids(draw: st.DrawFn) -> str:
    width, height = draw(st.integers(1, 9)), draw(st.integers(1, 9))
    colours = draw(st.integers(1, 36))
    cells = draw(st.lists(st.integers(0, colours - 1), min_size=width * height, max_size=width * height))
    limit = draw(st.integers(0, 10**9))
    desc = "".join(DIGITS[v] for v in cells)
    if draw(st.booleans()):
        return f"{width}x{height}:{desc},{limit}"
    extra = draw(st.integers(0, 10**9))
    return f"{width}x{height}c{colours}m{extra}:{desc},{limit}"


@st.composite
def damaged_ids(draw: st.DrawFn) -> str:
    """A valid ID with a few characters replaced, inserted or dropped."""
    chars = list(draw(valid_ids()))
    noise = st.sampled_from(list("0123456789xcm:,AZaz -\t😀é") + ["", "00", "99999999999"])
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(chars)))
        kind = draw(st.sampled_from(["replace", "insert", "drop"]))
        if kind == "insert" or at == len(chars):
            chars.insert(at, draw(noise))
        elif kind == "replace":
            chars[at] = draw(noise)
        else:
            del chars[at]
    return "".join(chars)


def compare(texts: list[str]) -> None:
    for text, got in zip(texts, run_node("parse", [{"text": t} for t in texts])):
        assert got == python_parse(text), text


@BATCH
@given(st.lists(valid_ids(), min_size=20, max_size=20))
def test_valid_ids_give_the_same_board(texts: list[str]) -> None:
    compare(texts)
    assert all("rows" in python_parse(t) for t in texts)


@BATCH
@given(st.lists(damaged_ids(), min_size=40, max_size=40))
def test_damaged_ids_give_the_same_board_or_the_same_message(texts: list[str]) -> None:
    compare(texts)


def test_each_bad_id_gets_the_same_message_and_column() -> None:
    texts = [text for text, _, _ in BAD_GAME_IDS]
    got = run_node("parse", [{"text": t} for t in texts])
    for (text, column, fragment), answer in zip(BAD_GAME_IDS, got):
        assert answer["error"].startswith(f"game ID: column {column}: "), (text, answer)
        assert fragment in answer["error"]
    compare(texts)


FILES = [
    "4x4c3m2:1200011022010001,6\n",
    "\ufeff4x4c3m2:1200011022010001,6\r\n\r\n  \n",
    "4x4c3m2:1200011022010001,6\n1,2\n",
    "4x4c3m2:1200011022010001,6\n\n \u00a0\n",
    "  3x1:012,2\t\n",
    "3x1:01Q,2\n",
    "1,2,3\n3,2,1\n",
    "1,2:3\n",
    "",
]


def test_board_files_as_csvio_reads_them(tmp_path: Path) -> None:
    got = run_node("file", [{"text": t, "name": "board.txt"} for t in FILES])
    for text, answer in zip(FILES, got):
        path = tmp_path / "board.txt"
        path.write_bytes(text.encode())
        try:
            board, game = read_board_file(path)
        except BoardFormatError as e:
            assert answer == {"error": str(e).replace(str(path), "board.txt")}, text
            continue
        want = {
            "rows": [[str(v) for v in row] for row in board.cells.tolist()],
            "start": list(board.start),
            "limit": game.limit if game else None,
        }
        assert answer == want, text


@BATCH
@given(
    st.lists(
        st.tuples(
            st.lists(st.integers(-(2**63), 2**63 - 1), min_size=1, max_size=40, unique=True),
            st.integers(1, 6),
            st.integers(0, 99),
            st.integers(0, 9),
            st.randoms(use_true_random=False),
        ),
        min_size=15,
        max_size=15,
    )
)
def test_the_page_writes_the_ids_python_writes(cases: list[tuple[list[int], int, int, int, random.Random]]) -> None:
    requests, wants = [], []
    for pool, width, limit, extra, rnd in cases:
        small = rnd.random() < 0.5
        ids = [abs(i) % 36 for i in pool] if small else pool
        cells = np.array([[rnd.choice(ids) for _ in range(width)] for _ in range(2)], dtype=np.int64)
        try:
            want: dict[str, Any] = {"text": format_game_id(Board(cells), limit, extra)}
        except ColoritError as e:
            want = {"error": str(e)}
        requests.append({"rows": [[str(v) for v in row] for row in cells.tolist()], "limit": limit, "extra": extra})
        wants.append(want)
    for want, got in zip(wants, run_node("format", requests)):
        assert got == want
