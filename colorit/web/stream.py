"""A solve as server-sent events, and the watch that stops a solve whose client left.

Events: ``queued`` {position}, ``started``, ``progress``..., then ``result`` or
``error`` {error, status} (the status the same failure gets as a JSON answer). A comment
line goes down an idle stream every ``KEEPALIVE_S`` seconds, so proxies and browsers
keep it open.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

from starlette.types import Receive

from . import errors
from .jobs import SolveJob

KEEPALIVE_S = 15.0


async def cancel_on_disconnect(receive: Receive, job: SolveJob) -> None:
    """Wait for the client to go away, then stop its solve at once."""
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            job.cancel("the client went away")
            return


def event(kind: str, data: Any) -> bytes:
    """One server-sent event with JSON data."""
    return f"event: {kind}\ndata: {json.dumps(data, separators=(',', ':'), allow_nan=False)}\n\n".encode()


async def events(job: SolveJob, receive: Receive) -> AsyncIterator[bytes]:
    """The server-sent events of one solve; ends with ``result`` or ``error``."""
    watcher = asyncio.ensure_future(cancel_on_disconnect(receive, job))
    try:
        while True:
            try:
                kind, data = await job.next_event(timeout=KEEPALIVE_S)
            except TimeoutError:
                yield b": keep-alive\n\n"
                continue
            if kind == "failed":
                status, message, _ = errors.describe(data)
                yield event("error", {"error": message, "status": status})
                return
            yield event(kind, data)
            if kind == "result":
                return
    finally:
        watcher.cancel()
        job.cancel("the client went away")
