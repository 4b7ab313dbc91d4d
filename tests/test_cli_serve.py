"""``colorit serve`` started as a user starts it: the command in its own process, the URL
it prints, the page and the API it serves on 127.0.0.1, a bad request answered with a
JSON error, and Ctrl-C ending it with every solver process it started."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi")
psutil = pytest.importorskip("psutil")

from cli_support import assert_one_line_error, colorit_cmd, env, run  # noqa: E402

#: how long the server may take to print its URL (its workers load their kernels first)
START_S = 120


class Served:
    def __init__(self, proc: subprocess.Popen[str], url: str, first_line: str) -> None:
        self.proc, self.url, self.first_line = proc, url, first_line

    def get(self, path: str) -> tuple[int, bytes, str]:
        try:
            with urllib.request.urlopen(self.url + path, timeout=30) as r:
                return r.status, r.read(), r.headers.get("content-type", "")
        except urllib.error.HTTPError as e:
            return e.code, e.read(), e.headers.get("content-type", "")

    def post(self, path: str, body: bytes) -> tuple[int, Any]:
        request = urllib.request.Request(self.url + path, data=body, headers={"content-type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=60) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())


def _start(*args: str) -> Served:
    proc = subprocess.Popen(
        colorit_cmd("serve", "--port", "0", "--workers", "1", *args),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env(),
    )
    assert proc.stdout is not None
    deadline = time.monotonic() + START_S
    line = ""
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line and proc.poll() is not None:
            break
        if "http://" in line:
            break
    match = re.search(r"http://[0-9.]+:\d+/?", line)
    assert match, f"colorit serve printed no URL: {line!r}, stderr: {proc.stderr.read() if proc.poll() is not None and proc.stderr else ''}"
    return Served(proc, match.group(0).rstrip("/"), line)


@pytest.fixture(scope="module")
def served() -> Iterator[Served]:
    s = _start()
    try:
        yield s
    finally:
        if s.proc.poll() is None:
            s.proc.kill()
            s.proc.wait(timeout=30)


def test_it_listens_on_this_machine_only_and_says_where(served: Served) -> None:
    assert served.url.startswith("http://127.0.0.1:")
    assert "Ctrl-C" in served.first_line


def test_the_page_and_its_assets_come_from_the_package(served: Served) -> None:
    status, body, kind = served.get("/")
    assert status == 200 and kind.startswith("text/html")
    page = body.decode()
    assets = re.findall(r'(?:src|href)="(/[^"]+)"', page)
    assert any(a.endswith(".js") for a in assets)
    assert not re.search(r'(?:src|href)="https?://', page), "the page must load nothing from outside"
    for asset in assets:
        status, _, _ = served.get(asset)
        assert status == 200, asset


def test_a_solve_through_the_api_is_proven(served: Served) -> None:
    board = [[1, 2, 0, 0], [0, 1, 1, 0], [2, 2, 0, 1], [0, 0, 0, 1]]
    status, answer = served.post("/api/solve", json.dumps({"board": board, "algo": "astar", "time_limit": 5}).encode())
    assert status == 200, answer
    assert answer["proven"] is True and len(answer["moves"]) == 4


def test_bad_requests_get_a_json_error_never_a_500(served: Served) -> None:
    status, answer = served.post("/api/solve", b"{not json")
    assert 400 <= status < 500 and "error" in answer
    status, answer = served.post("/api/solve", json.dumps({"board": [[1, 2], [3]]}).encode())
    assert 400 <= status < 500 and "row 2" in answer["error"]


def test_ctrl_c_ends_the_server_and_its_solver_processes() -> None:
    s = _start()
    parent = psutil.Process(s.proc.pid)
    workers = parent.children(recursive=True)
    assert workers, "the server runs its solves in worker processes"
    s.proc.send_signal(signal.SIGINT)
    try:
        code = s.proc.wait(timeout=30)
    finally:
        if s.proc.poll() is None:
            s.proc.kill()
    assert code in (0, 130)
    assert s.proc.stderr is not None and "Traceback" not in s.proc.stderr.read()
    gone, alive = psutil.wait_procs(workers, timeout=10)
    assert alive == [], f"left behind: {alive}"


def test_a_bad_option_is_one_line_and_no_server() -> None:
    proc = run("serve", "--port", "-1", timeout=60)
    assert proc.returncode == 2
    assert_one_line_error(proc.stderr, "--port")
