"""The two ASGI layers around the app: the body cap (its 413 reaches every client, the
rest of an over-limit body is read and dropped within bounds, a client that waits for
"100 Continue" is not asked for its body) and the security headers on every answer."""

from __future__ import annotations

import asyncio
import json
from collections.abc import MutableMapping
from typing import Any

import pytest

pytest.importorskip("fastapi")

from colorit.web import ServerConfig, create_app
from colorit.web.middleware import SECURITY_HEADERS, BodyLimit, SecurityHeaders

CONFIG = ServerConfig(workers=1, max_cells=2500)


def test_body_over_the_cap_with_a_lying_content_length() -> None:
    """The count is of the bytes read, not of what the client claims."""
    cap = int(CONFIG.max_body_bytes or 0)
    app = create_app(CONFIG)
    chunk = b" " * 65536
    chunks = [chunk] * (cap // len(chunk) + 2)
    sent: list[MutableMapping[str, Any]] = []

    async def receive() -> MutableMapping[str, Any]:
        if chunks:
            return {"type": "http.request", "body": chunks.pop(), "more_body": bool(chunks)}
        return {"type": "http.disconnect"}

    async def send(message: MutableMapping[str, Any]) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0", "spec_version": "2.3"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/api/check",
        "raw_path": b"/api/check",
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver"), (b"content-type", b"application/json"), (b"content-length", b"20")],
        "client": ("127.0.0.1", 1234),
        "server": ("testserver", 80),
    }
    asyncio.run(app(scope, receive, send))
    starts = [m for m in sent if m["type"] == "http.response.start"]
    assert [m["status"] for m in starts] == [413]
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    assert "over this server's limit" in json.loads(body)["error"]
    assert chunks == []  # the rest of the body was read (and dropped) before the 413


def _limited_413(
    chunks: list[bytes], *, drain_bytes: int, drain_seconds: float = 30.0, stall: bool = False, expect: bool = False
) -> tuple[int, dict[str, Any], int]:
    """Send ``chunks`` (then stall forever if ``stall``) through BodyLimit over an app
    that reads its body: the status, the JSON answer, and how many chunks were left."""
    async def app(scope: Any, receive: Any, send: Any) -> None:
        while True:
            message = await receive()
            if not message.get("more_body"):
                break
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"{}"})

    limit = BodyLimit(app, max_body_bytes=1024, drain_bytes=drain_bytes, drain_seconds=drain_seconds)
    sent: list[MutableMapping[str, Any]] = []
    left = list(chunks)

    async def receive() -> MutableMapping[str, Any]:
        if left:
            return {"type": "http.request", "body": left.pop(0), "more_body": bool(left) or stall}
        await asyncio.Event().wait()  # a client that stopped sending
        return {"type": "http.disconnect"}  # pragma: no cover

    async def send(message: MutableMapping[str, Any]) -> None:
        sent.append(message)

    headers = [(b"content-type", b"application/json")] + ([(b"expect", b"100-continue")] if expect else [])
    scope = {"type": "http", "method": "POST", "path": "/api/solve", "headers": headers}
    asyncio.run(asyncio.wait_for(limit(scope, receive, send), 60))
    status = [m["status"] for m in sent if m["type"] == "http.response.start"]
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    assert len(status) == 1
    return status[0], json.loads(body), len(left)


def test_a_body_over_the_cap_is_read_to_its_end_before_the_413() -> None:
    status, answer, left = _limited_413([b" " * 1000] * 50, drain_bytes=1 << 20)
    assert status == 413 and "limit of 1,024 bytes" in answer["error"] and left == 0


def test_draining_stops_at_its_ceiling() -> None:
    status, answer, left = _limited_413([b" " * 1000] * 50, drain_bytes=10_000)
    assert status == 413 and "over this server's limit" in answer["error"]
    assert 35 <= left <= 40  # about 10 kB read of 50 kB, then the answer (and the close)


def test_draining_stops_when_the_client_stalls() -> None:
    status, answer, left = _limited_413([b" " * 1000] * 3, drain_bytes=1 << 20, drain_seconds=0.2, stall=True)
    assert status == 413 and left == 0


def test_a_client_waiting_for_100_continue_is_not_asked_for_its_body() -> None:
    sent: list[MutableMapping[str, Any]] = []
    reads = 0

    async def receive() -> MutableMapping[str, Any]:
        nonlocal reads
        reads += 1
        return {"type": "http.request", "body": b"", "more_body": True}

    async def send(message: MutableMapping[str, Any]) -> None:
        sent.append(message)

    async def app(scope: Any, receive: Any, send: Any) -> None:  # pragma: no cover - never called
        raise AssertionError("the app is not called for a body declared over the cap")

    headers = [(b"content-length", b"5000"), (b"expect", b"100-continue")]
    limit = BodyLimit(app, max_body_bytes=1024)
    asyncio.run(limit({"type": "http", "method": "POST", "path": "/api/solve", "headers": headers}, receive, send))
    assert [m["status"] for m in sent if m["type"] == "http.response.start"] == [413]
    assert reads == 0


def test_every_answer_carries_the_security_headers_the_413_too() -> None:
    async def app(scope: Any, receive: Any, send: Any) -> None:
        await receive()
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain")]})
        await send({"type": "http.response.body", "body": b"ok"})

    layered = SecurityHeaders(BodyLimit(app, max_body_bytes=10))

    def post(body: bytes) -> list[MutableMapping[str, Any]]:
        """The messages ``layered`` sends for a POST of ``body``."""
        sent: list[MutableMapping[str, Any]] = []
        parts = [{"type": "http.request", "body": body, "more_body": False}]

        async def receive() -> MutableMapping[str, Any]:
            return parts.pop() if parts else {"type": "http.disconnect"}

        async def send(message: MutableMapping[str, Any]) -> None:
            sent.append(message)

        scope = {"type": "http", "method": "POST", "path": "/", "headers": [(b"content-length", str(len(body)).encode())]}
        asyncio.run(layered(scope, receive, send))
        return sent

    for body in (b"short", b"x" * 100):
        (start,) = [m for m in post(body) if m["type"] == "http.response.start"]
        assert start["status"] == (200 if body == b"short" else 413)
        assert set(SECURITY_HEADERS) <= set(start["headers"])
