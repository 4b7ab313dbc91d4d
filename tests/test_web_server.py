"""The real server (``python -m colorit.web`` on uvicorn, 127.0.0.1 only): what real
HTTP clients see of a request body over the limit.

A client such as urllib sends the whole body before it reads the answer; a server that
answers 413 and closes without reading it makes that client see "connection reset" or
"broken pipe" rather than the JSON error. The server reads (and drops) the rest of such
a body first, up to a ceiling far above these bodies.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator

import pytest

pytest.importorskip("fastapi")
import httpx

from colorit.web import ServerConfig
from colorit.web.config import DRAIN_MAX_BYTES

from cli_support import web_server

MAX_CELLS = 2500
#: the server's body limit for MAX_CELLS (as ServerConfig works it out)
CAP = int(ServerConfig(workers=1, max_cells=MAX_CELLS).max_body_bytes or 0)
#: just over the limit, and twenty times it: both well under the drain ceiling
SIZES = {"just-over": CAP + 1, "20x": 20 * CAP}


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with web_server("--workers", "1", "--max-cells", str(MAX_CELLS), "--max-time", "5") as (url, _):
        yield url


def body_of(size: int) -> bytes:
    """A JSON body of exactly ``size`` bytes (a board padded with spaces)."""
    head = b'{"board": [[1, 2], [2, 1]]}'
    return head + b" " * (size - len(head))


def assert_the_413(status: int, text: str) -> None:
    assert status == 413, text
    answer = json.loads(text)
    assert set(answer) == {"error"}
    assert answer["error"] == f"the request body is over this server's limit of {CAP:,} bytes"


def test_the_sizes_are_over_the_cap_and_under_the_ceiling() -> None:
    assert CAP < SIZES["just-over"] < SIZES["20x"] < DRAIN_MAX_BYTES


@pytest.mark.parametrize("size", list(SIZES.values()), ids=list(SIZES))
def test_urllib_reads_the_413(server: str, size: int) -> None:
    request = urllib.request.Request(
        server + "/api/solve", data=body_of(size), headers={"Content-Type": "application/json"}, method="POST"
    )
    with pytest.raises(urllib.error.HTTPError) as info:
        urllib.request.urlopen(request, timeout=60)
    assert_the_413(info.value.code, info.value.read().decode())


@pytest.mark.parametrize("size", list(SIZES.values()), ids=list(SIZES))
def test_httpx_reads_the_413(server: str, size: int) -> None:
    r = httpx.post(server + "/api/solve", content=body_of(size), headers={"Content-Type": "application/json"}, timeout=60)
    assert_the_413(r.status_code, r.text)


@pytest.mark.parametrize("size", list(SIZES.values()), ids=list(SIZES))
def test_a_body_sent_in_chunks_without_a_length_gets_the_413(server: str, size: int) -> None:
    """No Content-Length: the cap is found while reading, then the rest is drained."""
    data = body_of(size)

    def chunks() -> Iterator[bytes]:
        for i in range(0, len(data), 65536):
            yield data[i : i + 65536]

    r = httpx.post(server + "/api/solve", content=chunks(), headers={"Content-Type": "application/json"}, timeout=60)
    assert_the_413(r.status_code, r.text)


def test_the_server_still_answers_after_them(server: str) -> None:
    r = httpx.post(server + "/api/check", json={"board": [[1, 2], [2, 1]], "moves": [2, 1]}, timeout=60)
    assert r.status_code == 200 and r.json()["valid"] is True
