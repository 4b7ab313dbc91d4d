"""The web API through the ASGI test client: every endpoint, every error, and junk.

One app with a one-worker pool serves the whole module (starting it loads the kernels
in the worker once). Each error test checks the status AND the one-line wording, since
the wording is the API (the page shows it as it is). Hypothesis throws junk JSON at every
POST endpoint: the answer must be 2xx, 4xx or 503, and an error must be one JSON line;
a server bug would be a 500, which the test client raises as the exception itself.
"""

from __future__ import annotations

import asyncio
import json
import math
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import colorit
from colorit import Board, SolutionError, palette, solver_names
from colorit.game.generate import random_board
from colorit.web import ServerConfig, create_app
from colorit.web.pool import SolverPool

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient  # noqa: E402  (after the skip above)

from colorit.web.app import STATIC_DIR  # noqa: E402  (imports fastapi)

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = [[1, 2, 0, 0], [0, 1, 1, 0], [2, 2, 0, 1], [0, 0, 0, 1]]
MAX_CELLS = 2500
CONFIG = ServerConfig(workers=1, max_cells=MAX_CELLS, max_time=10.0, default_time=2.0, queue_per_worker=2)
ALLOWED = {200, 400, 404, 405, 413, 422, 503}


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(CONFIG)) as c:
        yield c


def error_of(response: httpx.Response, status: int) -> str:
    """The one-line error message of a failed answer, after checking its status."""
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"}, body
    message = body["error"]
    assert isinstance(message, str) and message and "\n" not in message
    assert "Traceback" not in message
    return message


def solve_body(board: list[list[int]] = SAMPLE, **extra: Any) -> dict[str, Any]:
    return {"board": board, **extra}


# ---------------------------------------------------------------------- simple endpoints


def test_health(client: TestClient) -> None:
    r = client.get("/api/health")
    assert r.status_code == 200
    body = r.json()
    assert body["ok"] is True and body["version"] == colorit.__version__
    assert body["workers"] == 1 and body["ready"] == 1
    assert body["busy"] == 0 and body["queued"] == 0


def test_algorithms_in_library_order_with_the_limits(client: TestClient) -> None:
    body = client.get("/api/algorithms").json()
    assert [a["name"] for a in body["algorithms"]] == solver_names()
    assert all(a["summary"] and isinstance(a["exact"], bool) for a in body["algorithms"])
    assert {a["name"] for a in body["algorithms"] if a["exact"]} >= {"astar", "auto"}
    assert body["default"] == "auto" and body["baseline"] == "linear"
    assert body["max_time"] == 10.0 and body["max_cells"] == MAX_CELLS and body["default_time"] == 2.0


@pytest.mark.parametrize("n", [1, 3, 13, 1024])
def test_palette_is_the_palette_module(client: TestClient, n: int) -> None:
    r = client.get("/api/palette", params={"n": n})
    assert r.status_code == 200
    assert r.json() == palette.as_json(n)


@pytest.mark.parametrize("query", ["n=0", "n=1025", "n=abc", "n=2.5", "n=-1", ""])
def test_palette_rejects_bad_n(client: TestClient, query: str) -> None:
    message = error_of(client.get(f"/api/palette?{query}"), 422)
    assert message.startswith("n ")


# ---------------------------------------------------------------------- generate


def test_generate_is_the_one_generator(client: TestClient) -> None:
    r = client.post("/api/generate", json={"width": 7, "height": 5, "colours": 4, "seed": 11})
    assert r.status_code == 200
    body = r.json()
    assert body["board"] == random_board(7, 5, 4, 11).cells.tolist()
    assert (body["seed"], body["width"], body["height"], body["colours"], body["start"]) == (11, 7, 5, 4, [0, 0])


def test_generate_agrees_with_the_command_line(client: TestClient) -> None:
    body = client.post("/api/generate", json={"width": 6, "height": 3, "colours": 5, "seed": 42}).json()
    out = subprocess.run(
        [sys.executable, "-m", "colorit", "generate", "--size", "6x3", "--colours", "5", "--seed", "42"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    rows = [[int(v) for v in line.split(",")] for line in out.stdout.split()]
    assert body["board"] == rows


def test_generate_without_seed_returns_the_seed_it_used(client: TestClient) -> None:
    first = client.post("/api/generate", json={"width": 5, "height": 5, "colours": 3, "seed": None}).json()
    second = client.post("/api/generate", json={"width": 5, "height": 5, "colours": 3}).json()
    for body in (first, second):
        again = client.post("/api/generate", json={"width": 5, "height": 5, "colours": 3, "seed": body["seed"]})
        assert again.json()["board"] == body["board"]
    assert first["seed"] != second["seed"]  # 32 random bits each


@pytest.mark.parametrize(
    ("start", "cell"), [("center", [2, 3]), ("centre", [2, 3]), ("top-left", [0, 0]), ([4, 6], [4, 6])]
)
def test_generate_start(client: TestClient, start: Any, cell: list[int]) -> None:
    body = client.post("/api/generate", json={"width": 7, "height": 5, "colours": 3, "seed": 1, "start": start}).json()
    assert body["start"] == cell


def test_generate_keeps_a_seed_past_2_to_the_53(client: TestClient) -> None:
    seed = 2**64 - 1
    body = client.post("/api/generate", json={"width": 3, "height": 2, "colours": 3, "seed": seed}).json()
    assert body["seed"] == seed and body["board"] == random_board(3, 2, 3, seed).cells.tolist()


@pytest.mark.parametrize(
    ("body", "status", "expected"),
    [
        ({"width": 0, "height": 5, "colours": 3}, 422, "width must be a whole number from 1 to 2,500, got 0"),
        ({"width": 1.5, "height": 5, "colours": 3}, 422, "width must be a whole number from 1 to 2,500, got 1.5"),
        ({"width": "3", "height": 5, "colours": 3}, 422, 'width must be a whole number from 1 to 2,500, got "3"'),
        ({"width": True, "height": 5, "colours": 3}, 422, "width must be a whole number from 1 to 2,500, got true"),
        ({"width": 5, "height": -2, "colours": 3}, 422, "height must be a whole number"),
        ({"width": 5, "height": 5, "colours": 0}, 422, "colours must be a whole number from 1 to 1024, got 0"),
        ({"width": 5, "height": 5, "colours": 5000}, 422, "colours must be a whole number from 1 to 1024"),
        ({"width": 51, "height": 50, "colours": 3}, 422, "a 51x50 board has 2,550 cells, over this server's limit"),
        ({"width": 10**30, "height": 10**30, "colours": 3}, 422, "over this server's limit of 2,500"),
        ({"width": 5, "height": 5, "colours": 3, "seed": -1}, 422, "seed must be a whole number from 0"),
        ({"width": 5, "height": 5, "colours": 3, "seed": 2**64}, 422, "seed must be a whole number"),
        ({"width": 5, "height": 5, "colours": 3, "start": [5, 0]}, 422, "start cell 5,0 is outside the 5x5 board"),
        ({"width": 5, "height": 5, "colours": 3, "start": [0]}, 422, "start must be [row, col]"),
        ({"width": 5, "height": 5, "colours": 3, "start": "middle-ish"}, 422, "start must be [row, col]"),
        ({"width": 5, "height": 5, "colours": 3, "size": 4}, 422, "unknown field 'size'"),
        ({"height": 5, "colours": 3}, 422, "width is required"),
    ],
)
def test_generate_errors(client: TestClient, body: dict[str, Any], status: int, expected: str) -> None:
    assert expected in error_of(client.post("/api/generate", json=body), status)


# ---------------------------------------------------------------------- solve


def test_solve_answers_a_valid_proven_solution(client: TestClient) -> None:
    r = client.post("/api/solve", json=solve_body(algo="astar", time_limit=5))
    assert r.status_code == 200
    body = r.json()
    assert set(body) == {"moves", "proven", "lower_bound", "gap", "elapsed_s", "algo", "stopped"}
    Board.from_rows(SAMPLE).check(body["moves"])
    assert body["proven"] is True and body["lower_bound"] == len(body["moves"]) == 4
    assert body["algo"] == "astar" and body["stopped"] == "" and body["gap"] == 0


def test_solve_keeps_64_bit_ids_exact(client: TestClient) -> None:
    ids = [2**63 - 1, -(2**63), 2**53 + 1]
    board = [[ids[v] for v in row] for row in SAMPLE]
    r = client.post("/api/solve", json=solve_body(board))
    assert r.status_code == 200
    moves = r.json()["moves"]
    assert set(moves) <= set(ids)
    Board.from_rows(board).check(moves)
    # the body's text holds the ids digit for digit (no float on the way)
    assert str(2**63 - 1) in r.text or str(-(2**63)) in r.text or str(2**53 + 1) in r.text


def test_whole_floats_and_aliases_are_taken_as_json_schema_takes_them(client: TestClient) -> None:
    """2.0 is the integer 2 (while a float holds it exactly); ``basic`` is ``linear``."""
    rows = [[float(v) for v in row] for row in SAMPLE]
    r = client.post("/api/solve", json={"board": rows, "algo": "basic", "time_limit": 2, "start": [0.0, 0.0]})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["algo"] == "linear" and all(type(m) is int for m in body["moves"])
    Board.from_rows(SAMPLE).check(body["moves"])


def test_solve_from_another_start(client: TestClient) -> None:
    for start in ([2, 2], "center"):
        r = client.post("/api/solve", json=solve_body(start=start))
        assert r.status_code == 200
        Board.from_rows(SAMPLE, start=(2, 2)).check(r.json()["moves"])


def test_solve_linear_is_the_basic_ai(client: TestClient) -> None:
    from colorit import solve

    board = random_board(9, 9, 5, 3)
    r = client.post("/api/solve", json={"board": board.cells.tolist(), "algo": "linear", "time_limit": 2})
    answer = r.json()
    assert answer["moves"] == list(solve(board, "linear").moves)
    # a heuristic knows no bound, the server adds the start position's
    exact = solve(board, "astar")
    assert 0 < answer["lower_bound"] <= len(exact.moves) <= len(answer["moves"])
    assert answer["gap"] == pytest.approx(len(answer["moves"]) / answer["lower_bound"] - 1, abs=1e-5)
    assert answer["proven"] is (answer["lower_bound"] == len(answer["moves"]))


def test_solve_stream_events(client: TestClient) -> None:
    board = random_board(14, 14, 6, 3)
    with client.stream("POST", "/api/solve/stream", json={"board": board.cells.tolist(), "time_limit": 3}) as r:
        assert r.status_code == 200
        assert r.headers["content-type"].startswith("text/event-stream")
        events = parse_events("".join(r.iter_text()))
    kinds = [k for k, _ in events]
    assert kinds[0] == "started" and kinds[-1] == "result"
    assert set(kinds[1:-1]) == {"progress"}, kinds
    started, result = events[0][1], events[-1][1]
    assert started["algo"] == "auto" and started["regions"] > 1
    board.check(result["moves"])
    progress = [d for k, d in events if k == "progress"]
    lengths = [p["moves"] for p in progress]
    assert lengths == sorted(lengths, reverse=True) and len(set(lengths)) == len(lengths)
    assert lengths[-1] == len(result["moves"])
    assert all(set(p) == {"moves", "lower_bound", "gap", "proven", "elapsed_s"} for p in progress)


def parse_events(text: str) -> list[tuple[str, Any]]:
    """``(event, data)`` pairs of a server-sent event stream (comments skipped)."""
    events = []
    for block in text.split("\n\n"):
        lines = [line for line in block.splitlines() if line and not line.startswith(":")]
        if not lines:
            continue
        fields = dict(line.split(": ", 1) for line in lines)
        events.append((fields["event"], json.loads(fields["data"])))
    return events


@pytest.mark.parametrize("path", ["/api/solve", "/api/solve/stream"])
@pytest.mark.parametrize(
    ("body", "status", "expected"),
    [
        ({"board": [[1, 2, 3, 4, 5]] * 2 + [[1, 2, 3, 4]]}, 422, "board: row 3 has 4 values, expected 5"),
        ({"board": []}, 422, "board: a board needs at least one row"),
        ({"board": [[]]}, 422, "board: row 1 is empty"),
        ({"board": [[1, 1.5]]}, 422, "board: row 1, column 2: 1.5 is not an integer"),
        ({"board": [[1], ["3"]]}, 422, 'board: row 2, column 1: "3" is not an integer'),
        ({"board": [[1], [True]]}, 422, "board: row 2, column 1: true is not an integer"),
        ({"board": [[1, 2**63]]}, 422, "board: row 1, column 2: 9223372036854775808 is beyond the signed 64-bit range"),
        ({"board": [[1, -(2**63) - 1]]}, 422, "is beyond the signed 64-bit range"),
        ({"board": [1, 2]}, 422, "board: row 1 must be a list of integer colour ids, got a number"),
        ({"board": "1,2\n3,4"}, 422, "board must be a list of rows of integer colour ids, got a string"),
        ({"board": [[1] * 51] * 50}, 413, "board: a 50x51 board has 2,550 cells, over this server's limit of 2,500"),
        (
            {"board": SAMPLE, "algo": "fastest"},
            422,
            "unknown algorithm 'fastest'; choose one of: auto, astar, dfs, beam, lookahead, greedy, linear (alias basic)",
        ),
        ({"board": SAMPLE, "algo": 3}, 422, "algo must be an algorithm's name (a string), got 3"),
        (
            {"board": SAMPLE, "algo": "AUTO"},
            422,
            "unknown algorithm 'AUTO'; choose one of: auto, astar, dfs, beam, lookahead, greedy, linear (alias basic)",
        ),
        ({"board": [[1, 2.0**53]]}, 422, "board: row 1, column 2: 9007199254740992.0 is not an integer"),
        ({"board": SAMPLE, "time_limit": -1}, 422, "time_limit must be a positive number of seconds, got -1"),
        ({"board": SAMPLE, "time_limit": 0}, 422, "time_limit must be a positive number of seconds, got 0"),
        ({"board": SAMPLE, "time_limit": "3"}, 422, 'time_limit must be a positive number of seconds, got "3"'),
        ({"board": SAMPLE, "time_limit": False}, 422, "time_limit must be a positive number of seconds, got false"),
        ({"board": SAMPLE, "time_limit": 11}, 422, "time_limit 11 s is over this server's limit of 10 s (--max-time)"),
        ({"board": SAMPLE, "time_limit": 1e300}, 422, "over this server's limit of 10 s"),
        ({"board": SAMPLE, "start": [4, 0]}, 422, "start cell 4,0 is outside the 4x4 board"),
        ({"board": SAMPLE, "start": [0, -1]}, 422, "start cell 0,-1 is outside the 4x4 board"),
        ({"board": SAMPLE, "start": [0, 0.5]}, 422, "start must be [row, col]"),
        ({"board": SAMPLE, "timelimit": 3}, 422, "unknown field 'timelimit'"),
        ({"algo": "auto"}, 422, "board is required"),
    ],
)
def test_solve_errors(client: TestClient, path: str, body: dict[str, Any], status: int, expected: str) -> None:
    """Bad input is refused before any solve starts, by both solve endpoints alike."""
    assert expected in error_of(client.post(path, json=body), status)


@pytest.mark.parametrize(
    ("raw", "status", "expected"),
    [
        (b'{"board": [[1,2]], "time_limit": NaN}', 422, "time_limit must be a positive number of seconds, got NaN"),
        (b'{"board": [[1,2]], "time_limit": Infinity}', 422, "got Infinity"),
        (b'{"board": [[1,2]], "time_limit": 1e999}', 422, "got Infinity"),
        (b'{"board": [[1,2]], "time_limit": -0.0}', 422, "got -0.0"),
        (b'{"board": [[1,2]]', 400, "malformed JSON: expecting ',' delimiter at character 17"),
        (b"", 422, "the request body is missing"),
        (b"null", 422, "the request body must be a JSON object, got null"),
        (b"[1, 2]", 422, "the request body must be a JSON object, got a list"),
        (b'"board"', 422, "the request body must be a JSON object, got a string"),
        (b"\xff\xfe{}", 400, "malformed JSON"),
        (b"[" * 50_000 + b"]" * 50_000, 400, "malformed JSON"),
        (b'{"board": [[1, ' + b"9" * 5000 + b"]]}", 400, "malformed JSON"),
    ],
)
def test_solve_raw_body_errors(client: TestClient, raw: bytes, status: int, expected: str) -> None:
    r = client.post("/api/solve", content=raw, headers={"content-type": "application/json"})
    assert expected in error_of(r, status)


def test_json_must_say_it_is_json(client: TestClient) -> None:
    """A form post (no preflight from another site) is not read as JSON."""
    r = client.post("/api/solve", content=json.dumps(solve_body()), headers={"content-type": "text/plain"})
    assert "Content-Type: application/json" in error_of(r, 400)


# ---------------------------------------------------------------------- check


def test_check_valid_and_invalid_as_the_cli_says(client: TestClient, tmp_path: Path) -> None:
    ok = client.post("/api/check", json={"board": SAMPLE, "moves": [0, 2, 0, 1]}).json()
    assert ok == {"valid": True, "reason": None, "moves": 4}
    short = client.post("/api/check", json={"board": SAMPLE, "moves": [0, 2]}).json()
    with pytest.raises(SolutionError) as why:
        Board.from_rows(SAMPLE).check([0, 2])
    assert str(why.value).startswith("after 2 moves the board still has ")
    assert short == {"valid": False, "reason": str(why.value), "moves": 2}
    alien = client.post("/api/check", json={"board": SAMPLE, "moves": [0, 9, 1]}).json()
    assert alien == {"valid": False, "reason": "move 2: colour 9 does not occur on the board", "moves": 3}
    huge = client.post("/api/check", json={"board": SAMPLE, "moves": [2**70]}).json()
    assert huge["valid"] is False and "does not occur on the board" in huge["reason"]
    # `colorit check` words it the same
    (tmp_path / "b.csv").write_text("\n".join(",".join(map(str, r)) for r in SAMPLE) + "\n")
    (tmp_path / "m.csv").write_text("0\n9\n1\n")
    out = subprocess.run(
        [sys.executable, "-m", "colorit", "check", tmp_path / "b.csv", tmp_path / "m.csv"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        check=False,
    )
    assert out.stdout.strip() == f"invalid: {alien['reason']}"


def test_check_from_another_start(client: TestClient) -> None:
    moves = [1, 2, 0]
    board = Board.from_rows(SAMPLE, start=(3, 3))
    expected_valid = True
    try:
        board.check(moves)
    except ValueError:
        expected_valid = False
    body = client.post("/api/check", json={"board": SAMPLE, "moves": moves, "start": [3, 3]}).json()
    assert body["valid"] is expected_valid


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({"board": SAMPLE, "moves": [0, 1.5]}, "moves: move 2 is not a colour id (an integer), got 1.5"),
        ({"board": SAMPLE, "moves": ["0"]}, 'moves: move 1 is not a colour id (an integer), got "0"'),
        ({"board": SAMPLE, "moves": 0}, "moves must be a list of colour ids (integers), got a number"),
        ({"board": SAMPLE}, "moves is required"),
        ({"board": [[1, 2, 3], [3, 4]], "moves": []}, "board: row 2 has 2 values, expected 3"),
        ({"board": SAMPLE, "moves": [], "start": [9, 9]}, "start cell 9,9 is outside the 4x4 board"),
        ({"board": SAMPLE, "moves": [0] * (MAX_CELLS + 1)}, "moves: 2,501 moves is over this server's limit"),
    ],
)
def test_check_errors(client: TestClient, body: dict[str, Any], expected: str) -> None:
    assert expected in error_of(client.post("/api/check", json=body), 422)


# ---------------------------------------------------------------------- bodies, pages, routes


def test_body_over_the_cap_by_its_declared_length(client: TestClient) -> None:
    cap = int(CONFIG.max_body_bytes or 0)
    r = client.post("/api/check", content=b" " * (cap + 1), headers={"content-type": "application/json"})
    assert "over this server's limit" in error_of(r, 413)


def test_page_icon_and_static_files(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert client.head("/").status_code == 200
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200 and icon.headers["content-type"].startswith("image/")
    assert len(icon.content) > 50
    if STATIC_DIR.is_dir():
        for path in sorted(STATIC_DIR.iterdir()):
            if path.is_file():
                r = client.get(f"/static/{path.name}")
                assert r.status_code == 200 and r.content == path.read_bytes()
    assert error_of(client.get("/static/no-such-file.js"), 404) == "not found"
    assert error_of(client.get("/static/../app.py"), 404) == "not found"
    assert error_of(client.get("/static/%2e%2e/app.py"), 404) == "not found"


def test_security_headers_keep_everything_on_this_server(client: TestClient) -> None:
    for r in (client.get("/"), client.get("/api/health"), client.post("/api/solve", content=b"{")):
        assert r.headers["x-content-type-options"] == "nosniff"
        csp = r.headers["content-security-policy"]
        assert "default-src 'self'" in csp and "script-src 'self';" in csp and "http" not in csp


def test_no_docs_pages_but_an_openapi_schema(client: TestClient) -> None:
    assert client.get("/docs").status_code == 404
    assert client.get("/redoc").status_code == 404
    schema = client.get("/openapi.json").json()
    paths = schema["paths"]
    for path, method in [
        ("/api/health", "get"),
        ("/api/algorithms", "get"),
        ("/api/palette", "get"),
        ("/api/generate", "post"),
        ("/api/solve", "post"),
        ("/api/solve/stream", "post"),
        ("/api/check", "post"),
    ]:
        assert method in paths[path], path
    # errors are documented as ours, not as pydantic's lists
    assert "HTTPValidationError" not in schema["components"]["schemas"]
    solve_errors = paths["/api/solve"]["post"]["responses"]
    assert {"413", "422", "503"} <= set(solve_errors)
    assert solve_errors["422"]["content"]["application/json"]["schema"]["$ref"].endswith("/ErrorBody")
    assert "text/event-stream" in paths["/api/solve/stream"]["post"]["responses"]["200"]["content"]


def test_unknown_routes_and_methods(client: TestClient) -> None:
    assert error_of(client.get("/api/nothing"), 404) == "not found"
    assert error_of(client.get("/api/solve"), 405) == "method not allowed"
    assert error_of(client.delete("/api/health"), 405) == "method not allowed"
    r = client.get("/<script>alert(1)</script>")
    assert error_of(r, 404) == "not found" and "script" not in r.text


# ---------------------------------------------------------------------- busy: 503


def test_a_full_queue_answers_503_with_retry_after() -> None:
    """One worker, one waiting place: of four 1-second solves sent at once, two are
    taken and two answered 503 with a Retry-After; the taken ones still answer."""
    config = ServerConfig(workers=1, queue_per_worker=1, max_cells=MAX_CELLS, max_time=5.0)
    pool = SolverPool(1, queue_size=config.queue_size, memory_per_solve=config.memory_per_solve)
    pool.start()
    hard = random_board(30, 30, 6, 1).cells.tolist()

    async def run() -> list[httpx.Response]:
        app = create_app(config, pool=pool)
        app.state.pool = pool
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as c:
            return list(
                await asyncio.gather(*(c.post("/api/solve", json={"board": hard, "time_limit": 1}) for _ in range(4)))
            )

    try:
        answers = asyncio.run(run())
    finally:
        pool.close()
    statuses = sorted(r.status_code for r in answers)
    assert statuses == [200, 200, 503, 503], [r.text for r in answers]
    for r in answers:
        if r.status_code == 503:
            assert int(r.headers["retry-after"]) >= 1
            assert "busy" in error_of(r, 503)
        else:
            Board.from_rows(hard).check(r.json()["moves"])
            assert r.json()["stopped"] == "time"


# ---------------------------------------------------------------------- junk


JSON_LEAF = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=8),
)
JSON = st.recursive(
    JSON_LEAF,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)
SMALL_ID = st.integers(-3, 4)
RECTANGLE = st.integers(1, 5).flatmap(
    lambda w: st.lists(st.lists(SMALL_ID, min_size=w, max_size=w), min_size=1, max_size=5)
)
RAGGED = st.lists(st.lists(SMALL_ID, min_size=1, max_size=5), min_size=1, max_size=5)
GOOD_START = st.one_of(st.just([0, 0]), st.sampled_from(["top-left", "center", "centre"]))
BAD_START = st.one_of(st.lists(st.integers(-1, 6), min_size=0, max_size=3), st.sampled_from(["x", ""]), JSON)

#: per endpoint and field: (valid values, junk)
FIELDS: dict[str, dict[str, tuple[st.SearchStrategy[Any], st.SearchStrategy[Any]]]] = {
    "/api/solve": {
        "board": (RECTANGLE, st.one_of(RAGGED, JSON)),
        "algo": (st.sampled_from([*solver_names(), "basic"]), st.one_of(st.sampled_from(["nope", ""]), JSON)),
        "time_limit": (st.floats(0.01, 0.3), st.one_of(st.floats(-1, 0), st.integers(11, 10**20), JSON)),
        "start": (GOOD_START, BAD_START),
    },
    "/api/check": {
        "board": (RECTANGLE, st.one_of(RAGGED, JSON)),
        "moves": (st.lists(SMALL_ID, max_size=12), JSON),
        "start": (GOOD_START, BAD_START),
    },
    "/api/generate": {
        "width": (st.integers(1, 40), st.one_of(st.integers(-1, 0), st.integers(2501, 10**9), JSON)),
        "height": (st.integers(1, 40), st.one_of(st.integers(-1, 0), JSON)),
        "colours": (st.integers(1, 12), st.one_of(st.integers(-1, 0), st.integers(1025, 10**6), JSON)),
        "seed": (st.one_of(st.none(), st.integers(0, 2**64 - 1)), st.one_of(st.integers(-5, -1), JSON)),
        "start": (GOOD_START, BAD_START),
    },
}


@st.composite
def junk_request(draw: st.DrawFn) -> tuple[str, bytes]:
    """A POST body: valid fields with up to two of them junk or left out, now and then
    an unknown field; or any JSON at all; or bytes that are not JSON."""
    path = draw(st.sampled_from(sorted(FIELDS)))
    fields = FIELDS[path]
    shape = draw(st.sampled_from(["fields"] * 8 + ["any json", "bytes"]))
    if shape == "bytes":
        return path, draw(st.binary(max_size=40))
    if shape == "any json":
        return path, json.dumps(draw(JSON)).encode()
    value = {k: draw(good) for k, (good, _) in fields.items()}
    for k in draw(st.lists(st.sampled_from(sorted(fields)), max_size=2, unique=True)):
        if draw(st.booleans()):
            value[k] = draw(fields[k][1])
        else:
            del value[k]
    if draw(st.integers(0, 19)) == 0:
        value[draw(st.text(max_size=6))] = draw(JSON)
    return path, json.dumps(value).encode()


@settings(max_examples=250, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))
@given(junk=junk_request())
def test_junk_never_breaks_the_server(client: TestClient, junk: tuple[str, bytes]) -> None:
    path, raw = junk
    r = client.post(path, content=raw, headers={"content-type": "application/json"})
    event(f"{path} {r.status_code}")
    assert r.status_code in ALLOWED, (r.status_code, r.text)
    body = r.json()
    if r.status_code != 200:
        assert set(body) == {"error"} and isinstance(body["error"], str) and "\n" not in body["error"]
        assert body["error"] and not body["error"].startswith("internal error")
        return
    data = json.loads(raw)
    if path == "/api/solve":
        start = data.get("start", [0, 0])
        board = Board.from_rows(data["board"])
        if isinstance(start, str):
            from colorit.game.board import parse_start

            start = parse_start(start, board.height, board.width)
        board.with_start(tuple(start)).check(body["moves"])
    elif path == "/api/generate":
        assert len(body["board"]) == body["height"] and len(body["board"][0]) == body["width"]
        assert max(map(max, body["board"])) < body["colours"]
    else:
        assert isinstance(body["valid"], bool) and body["moves"] == len(data["moves"])


def test_the_error_paths_leave_the_server_well(client: TestClient) -> None:
    """After all of the above, the pool is idle and still solves."""
    assert client.get("/api/health").json()["busy"] == 0
    r = client.post("/api/solve", json=solve_body(time_limit=1))
    assert r.status_code == 200 and len(r.json()["moves"]) == 4
    assert math.isfinite(r.json()["elapsed_s"])
    assert np.isfinite(r.json()["gap"])
