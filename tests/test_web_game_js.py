"""The page's game logic (colorit/web/static/game.js) against the Python engine, through node.

Each hypothesis example sends a batch of cases to one node process (tests/js/game_cli.mjs),
so a few hundred boards cost a few node start-ups.
"""

from __future__ import annotations

import base64
import json
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from colorit import Board
from colorit.errors import BoardFormatError
from colorit.io.csvfile import read_board_csv

from ci_env import tool_or_skip

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "tests" / "js" / "game_cli.mjs"
NODE = tool_or_skip("node")

BATCH = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

# ids that break doubles, the int64 ends, negatives and small ones
SPECIAL_IDS = [0, 1, 2, 3, -1, -7, 2**53, 2**53 + 1, 2**63 - 1, -(2**63), -(2**53) - 3, 9007199254740993]


def run_node(op: str, cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    request = json.dumps({"op": op, "cases": cases})
    done = subprocess.run([NODE, str(SCRIPT)], input=request, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)  # type: ignore[no-any-return]


@st.composite
def boards(draw: st.DrawFn, max_side: int = 7) -> Board:
    height = draw(st.integers(1, max_side))
    width = draw(st.integers(1, max_side))
    pool = draw(
        st.lists(st.one_of(st.sampled_from(SPECIAL_IDS), st.integers(-(2**63), 2**63 - 1)), min_size=1, max_size=5, unique=True)
    )
    cells = draw(st.lists(st.sampled_from(pool), min_size=width * height, max_size=width * height))
    start = (draw(st.integers(0, height - 1)), draw(st.integers(0, width - 1)))
    return Board(np.array(cells, dtype=np.int64).reshape(height, width), start)


@st.composite
def games(draw: st.DrawFn) -> dict[str, Any]:
    board = draw(boards())
    ids = [int(v) for v in board.palette]
    ops = draw(
        st.lists(
            st.one_of(
                st.tuples(st.just("play"), st.sampled_from(ids)),
                st.tuples(st.just("undo"), st.none()),
                st.tuples(st.just("redo"), st.none()),
                st.tuples(st.just("seek"), st.integers(0, 12)),
            ),
            max_size=25,
        )
    )
    return {"board": board.cells.tolist(), "start": list(board.start), "ops": ops}


def model_history(ops: list[tuple[str, int]]) -> tuple[list[int], int]:
    """The moves and position after the ops: undo/redo move the position, a move equal to
    the next redo move keeps the redo moves, any other move replaces them."""
    moves: list[int] = []
    pos = 0
    for op, arg in ops:
        if op == "play":
            if pos < len(moves) and moves[pos] == arg:
                pos += 1
                continue
            del moves[pos:]
            moves.append(arg)
            pos += 1
        elif op == "undo":
            pos = max(0, pos - 1)
        elif op == "redo":
            pos = min(len(moves), pos + 1)
        else:
            pos = max(0, min(len(moves), arg))
    return moves, pos


def unit_edges(mask: np.ndarray) -> set[tuple[int, int, int, int]]:
    """The edges between a flooded cell and anything else (another cell or outside)."""
    h, w = mask.shape
    padded = np.zeros((h + 2, w + 2), dtype=bool)
    padded[1:-1, 1:-1] = mask
    edges: set[tuple[int, int, int, int]] = set()
    for r in range(h + 1):
        for c in range(w):
            if padded[r, c + 1] != padded[r + 1, c + 1]:
                edges.add((c, r, c + 1, r))
    for r in range(h):
        for c in range(w + 1):
            if padded[r + 1, c] != padded[r + 1, c + 1]:
                edges.add((c, r, c, r + 1))
    return edges


def segment_edges(segments: list[int]) -> set[tuple[int, int, int, int]]:
    edges: set[tuple[int, int, int, int]] = set()
    for i in range(0, len(segments), 4):
        x0, y0, x1, y1 = segments[i : i + 4]
        assert x0 == x1 or y0 == y1, "segments are horizontal or vertical"
        if y0 == y1:
            edges.update((x, y0, x + 1, y0) for x in range(x0, x1))
        else:
            edges.update((x0, y, x0, y + 1) for y in range(y0, y1))
    return edges


def ints(rows: list[list[str]]) -> list[list[int]]:
    return [[int(v) for v in row] for row in rows]


@BATCH
@given(st.lists(games(), min_size=15, max_size=15))
def test_flood_undo_redo_match_python(cases: list[dict[str, Any]]) -> None:
    for case, got in zip(cases, run_node("flood", cases)):
        board = Board.from_rows(case["board"], start=tuple(case["start"]))
        moves, pos = model_history(case["ops"])
        played = moves[:pos]
        assert [int(v) for v in got["all_moves"]] == moves
        assert [int(v) for v in got["played"]] == played
        assert [int(v) for v in got["ids"]] == board.palette.tolist()
        grid = board.replay(played)
        steps = board.flood_steps(played)
        assert ints(got["grid"]) == grid.tolist()
        assert ints(got["fresh_grid"]) == grid.tolist()
        assert json.loads(got["grid_json"]) == grid.tolist()
        assert got["steps"] == steps.flatten().tolist()
        assert got["fresh_steps"] == steps.flatten().tolist()
        assert got["all_steps"] == board.flood_steps(moves).flatten().tolist()
        mask = steps >= 0
        assert got["mask"] == mask.astype(int).flatten().tolist()
        assert got["flood_size"] == int(mask.sum())
        assert got["solved"] == (len(np.unique(grid)) == 1)
        assert got["can_undo"] == (pos > 0) and got["can_redo"] == (pos < len(moves))
        assert got["painted_ok"]
        assert segment_edges(got["outline"]) == unit_edges(mask)
        # every merged segment is a maximal run: no two segments of a line touch
        segs = [tuple(got["outline"][i : i + 4]) for i in range(0, len(got["outline"]), 4)]
        assert len(segs) == len(set(segs))


def test_flood_on_a_known_board() -> None:
    """The README's sample and its optimal answer, with ids above 2**53 and negative."""
    big = 2**63 - 1
    ids = {0: -(2**63), 1: 2**53 + 1, 2: -5, 3: big}
    rows = [[2, 3, 0, 3], [1, 2, 2, 1], [3, 0, 1, 1], [2, 1, 0, 0]]
    board = Board.from_rows([[ids[v] for v in row] for row in rows])
    answer = [ids[v] for v in (1, 3, 2, 1, 0, 3)]
    board.check(answer)
    # undo twice, redo once, then play the undone move again (kept as a redo) and the rest
    ops = [["play", m] for m in answer[:4]] + [["undo", None], ["undo", None], ["redo", None]]
    ops += [["play", m] for m in answer[3:]]
    (got,) = run_node("flood", [{"board": board.cells.tolist(), "start": [0, 0], "ops": ops}])
    assert got["solved"] and got["flood_size"] == 16
    assert [int(v) for v in got["played"]] == answer
    assert ints(got["grid"]) == [[answer[-1]] * 4] * 4
    assert not got["can_redo"]
    assert got["grid_json"] == "[" + ",".join(["[" + ",".join([str(answer[-1])] * 4) + "]"] * 4) + "]"


# --------------------------------------------------------------------------------------
# CSV: the same rows or the same one-line error as colorit.io.csvfile

NAME = "board.csv"
INT_TEXT = st.one_of(
    st.integers(-(2**63), 2**63 - 1),
    st.sampled_from([2**63, -(2**63) - 1, 2**64, 10**30]),
    st.integers(-3, 9),
).map(str)
SPACE = st.sampled_from(["", "", " ", "\t", "  ", "\x0b", "\xa0"])
VALUE = st.one_of(
    st.tuples(SPACE, st.sampled_from(["", "", "+", "-"]), INT_TEXT, SPACE).map(lambda t: t[0] + t[1] + t[2].lstrip("-+") + t[3]),
    INT_TEXT,
    st.sampled_from(["", "x", "1.5", "1_0", "0x1f", "'", '"', "\\", "é", "٣", "\x00", "\u2028", "1e3", "--1"]),
)


@st.composite
def csv_texts(draw: st.DrawFn) -> str:
    height = draw(st.integers(0, 5))
    width = draw(st.integers(1, 4))
    lines = []
    for _ in range(height):
        n = width if draw(st.integers(0, 9)) else draw(st.integers(1, 5))
        values = [draw(INT_TEXT) if draw(st.integers(0, 5)) else draw(VALUE) for _ in range(n)]
        lines.append(",".join(values))
    if lines and not draw(st.integers(0, 6)):
        lines.insert(draw(st.integers(0, len(lines))), draw(st.sampled_from(["", " ", "\t", "\x1c"])))
    end = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    text = end.join(lines) + draw(st.sampled_from(["", end, end + end, end + " " + end]))
    return draw(st.sampled_from(["", "", "\ufeff"])) + text


def python_csv(data: bytes, tmp: Path) -> dict[str, Any]:
    path = tmp / NAME
    path.write_bytes(data)
    try:
        board = read_board_csv(path)
    except BoardFormatError as e:
        return {"error": str(e).replace(str(path), NAME)}
    return {"rows": board.cells.tolist()}


def compare_csv(cases: list[dict[str, Any]], datas: list[bytes], tmp: Path) -> None:
    for data, got in zip(datas, run_node("csv", cases)):
        want = python_csv(data, tmp)
        if "rows" in want:
            assert "rows" in got, (data, got)
            assert ints(got["rows"]) == want["rows"]
        else:
            assert got.get("error") == want["error"], data


@BATCH
@given(st.lists(csv_texts(), min_size=30, max_size=30), st.lists(st.booleans(), min_size=30, max_size=30))
def test_csv_like_the_cli(tmp_path_factory: pytest.TempPathFactory, texts: list[str], as_bytes: list[bool]) -> None:
    tmp = tmp_path_factory.mktemp("csv")
    cases = []
    for text, raw in zip(texts, as_bytes):
        data = text.encode("utf-8")
        if raw:
            cases.append({"bytes": base64.b64encode(data).decode(), "name": NAME})
        else:
            # pasted text: the page gets a str, as the browser's decoder gives it
            cases.append({"text": data.decode("utf-8-sig"), "name": NAME})
    compare_csv(cases, [t.encode("utf-8") for t in texts], tmp)


@BATCH
@given(st.lists(st.binary(max_size=24).map(lambda b: b"1,2\n" + b), min_size=30, max_size=30))
def test_bytes_that_are_not_utf8(tmp_path_factory: pytest.TempPathFactory, datas: list[bytes]) -> None:
    # csvio's utf-8-sig decoder counts positions after a BOM from the BOM's end (a wrong
    # line and byte in its message); the page names the right ones, so BOMs are left out
    for data in datas:
        assume(not data.startswith(b"\xef\xbb\xbf"))
    tmp = tmp_path_factory.mktemp("bytes")
    cases = [{"bytes": base64.b64encode(d).decode(), "name": NAME} for d in datas]
    compare_csv(cases, datas, tmp)


def test_csv_messages_examples(tmp_path: Path) -> None:
    texts = [b"", b"1,2\n\n3,4\n", b"\n1\n", b"1,x\n", b"1,2\n3\n", b"99999999999999999999\n", b"1,\n", b"1,2\xff\n"]
    compare_csv([{"bytes": base64.b64encode(t).decode(), "name": NAME} for t in texts], texts, tmp_path)
    (got,) = run_node("csv", [{"text": "1,2\n3,x\n", "name": "pasted"}])
    assert got == {"error": "pasted:2:2: 'x' is not an integer"}


# --------------------------------------------------------------------------------------
# Share links and exact JSON


@st.composite
def shares(draw: st.DrawFn) -> dict[str, Any]:
    board = draw(boards(max_side=9))
    ids = [int(v) for v in board.palette]
    moves = draw(st.lists(st.sampled_from(ids), max_size=20))
    case = {"board": board.cells.tolist(), "start": list(board.start), "moves": moves}
    if draw(st.booleans()):
        case["kind"] = "board"
    else:
        case["kind"] = "generated"
        seed = draw(st.integers(0, 2**128))
        case["spec"] = {
            "width": board.width,
            "height": board.height,
            "colours": board.n_colours,
            "seed": str(seed),
            "start": list(board.start),
        }
    return case


@BATCH
@given(st.lists(shares(), min_size=20, max_size=20))
def test_share_links_round_trip(cases: list[dict[str, Any]]) -> None:
    for case, got in zip(cases, run_node("share", cases)):
        assert [int(m) for m in got["moves"]] == case["moves"]
        assert got["kind"] == case["kind"]
        assert "#" not in got["fragment"] and " " not in got["fragment"]
        if case["kind"] == "board":
            assert ints(got["board"]) == case["board"]
            assert got["start"] == case["start"]
        else:
            assert got["spec"] == {**case["spec"], "kind": "generated"}


def test_share_link_with_many_colours() -> None:
    """Past 62 colours codes are written as decimals."""
    ids = list(range(-50, 50))
    board = Board.from_rows([ids, ids[::-1]])
    (got,) = run_node("share", [{"kind": "board", "board": board.cells.tolist(), "start": [1, 3], "moves": [49, -50, 7]}])
    assert "bd=" in got["fragment"] and "md=" in got["fragment"]
    assert ints(got["board"]) == board.cells.tolist() and [int(m) for m in got["moves"]] == [49, -50, 7]


@BATCH
@given(st.lists(st.text(alphabet="v=1&whcsbdmi,.-0123456789xyzAZ#%", max_size=40), min_size=40, max_size=40))
def test_bad_share_links_are_one_line_errors(fragments: list[str]) -> None:
    cases = [{"fragment": f} for f in fragments] + [
        {"fragment": "v=1&w=2&h=2&ids=1,2&b=0101&m=01"},
        {"fragment": "v=1&w=2&h=2&ids=2,1&b=0101&m=01"},
        {"fragment": "v=1&w=2&h=2&ids=1,2&b=010&m=01"},
        {"fragment": "v=1&w=3&h=2&c=4&seed=12&s=5,0&m="},
    ]
    got = run_node("bad_share", cases)
    assert got[-4] == {"ok": True}
    for answer in got[-3:]:
        assert answer["error"].startswith("share link: ") and "\n" not in answer["error"]
    for answer in got:
        assert answer == {"ok": True} or (answer["error"] and "\n" not in answer["error"])


@BATCH
@given(
    st.lists(
        st.recursive(
            st.one_of(st.integers(-(2**64), 2**64), st.text(max_size=5), st.booleans(), st.none()),
            lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=3), inner, max_size=3)),
            max_leaves=12,
        ),
        min_size=20,
        max_size=20,
    )
)
def test_exact_json(values: list[Any]) -> None:
    def as_text(v: object) -> object:
        if isinstance(v, bool) or v is None:
            return v
        if isinstance(v, int):
            return str(v)
        if isinstance(v, list):
            return [as_text(x) for x in v]
        if isinstance(v, dict):
            return {k: as_text(x) for k, x in v.items()}
        return v

    cases = [{"text": json.dumps(v)} for v in values]
    for value, got in zip(values, run_node("json", cases)):
        assert json.loads(got["value"]) == as_text(value)


@pytest.mark.parametrize("ident", [0, 1, 2, 3, -1, 2**63 - 1, -(2**63), 2**53 + 1])
def test_the_page_names_colours_as_the_palette_module(ident: int) -> None:
    from colorit import palette

    cases = [{"number": palette.number(code), "id": str(ident), "key": "1", "numbers": [1, 2, 3]} for code in range(3)]
    got = run_node("names", cases)
    assert [g["name"] for g in got] == [palette.name(code, ident) for code in range(3)]


def test_keys_play_the_colour_whose_number_they_show() -> None:
    numbers = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]
    cases = [{"number": 1, "id": "1", "key": key, "numbers": numbers} for key in ["1", "5", "9", "0", "a", "10"]]
    assert [g["key"] for g in run_node("names", cases)] == [0, 4, 8, -1, -1, -1]
    assert run_node("names", [{"number": 1, "id": "1", "key": "4", "numbers": [1, 2, 3]}])[0]["key"] == -1
