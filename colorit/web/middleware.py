"""The two ASGI layers around the app: ``BodyLimit`` caps request bodies as they are
read, ``SecurityHeaders`` tells the browser to load nothing from elsewhere."""

from __future__ import annotations

import asyncio

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from . import errors
from .config import DRAIN_MAX_BYTES, DRAIN_SECONDS
from .errors import TooLarge

#: what every answer may load: this server only (no CDN), no framing, no plugins
SECURITY_HEADERS = (
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (
        b"content-security-policy",
        (
            b"default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
            b"img-src 'self' data: blob:; connect-src 'self'; font-src 'self'; object-src 'none'; "
            b"base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
        ),
    ),
)


class SecurityHeaders:
    """Adds ``SECURITY_HEADERS`` to every HTTP answer, errors included."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *SECURITY_HEADERS]}
            await send(message)

        await self.app(scope, receive, with_headers)


class BodyLimit:
    """Caps request bodies at ``max_body_bytes`` while they are read, whatever
    Content-Length claims.

    Over the cap, the app's own answer (whatever it made of the cut-off read) is
    dropped and a 413 goes out instead; before it, the rest of the body is read and
    thrown away (up to ``drain_bytes`` in all, for at most ``drain_seconds``), so that
    a client still sending it, such as Python's urllib, reads the 413 rather than a
    reset connection. Beyond those bounds the connection is closed after the 413."""

    def __init__(
        self,
        app: ASGIApp,
        max_body_bytes: int,
        drain_bytes: int = DRAIN_MAX_BYTES,
        drain_seconds: float = DRAIN_SECONDS,
    ) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes
        self.drain_bytes = drain_bytes
        self.drain_seconds = drain_seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.max_body_bytes
        too_large = _declared_length(scope) > limit
        started = False
        received = 0
        body_done = False  # the last part of the body (or a disconnect) has been read

        async def limited_receive() -> Message:
            nonlocal received, too_large, body_done
            if too_large:
                raise _BodyTooLarge
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                body_done = not message.get("more_body", False)
                if received > limit:
                    too_large = True
                    raise _BodyTooLarge
            else:
                body_done = True
            return message

        async def limited_send(message: Message) -> None:
            nonlocal started
            if too_large and not started:
                return
            started = started or message["type"] == "http.response.start"
            await send(message)

        if not too_large:
            try:
                await self.app(scope, limited_receive, limited_send)
            except Exception:
                if not too_large or started:
                    raise
        if too_large and not started:
            if not body_done and not _expects_continue(scope):
                await self._drain(receive, received)
            await self._answer_413(scope, receive, send)

    async def _answer_413(self, scope: Scope, receive: Receive, send: Send) -> None:
        status, message, headers = errors.describe(
            TooLarge(f"the request body is over this server's limit of {self.max_body_bytes:,} bytes")
        )
        response = errors.error_response(status, message, {**headers, "Connection": "close"})
        await response(scope, receive, send)

    async def _drain(self, receive: Receive, received: int) -> None:
        """Read and drop the rest of a request body: to its end, to ``drain_bytes`` in
        all or for ``drain_seconds``, whichever comes first."""
        try:
            async with asyncio.timeout(self.drain_seconds):
                while received < self.drain_bytes:
                    message = await receive()
                    if message["type"] != "http.request":
                        return
                    received += len(message.get("body", b""))
                    if not message.get("more_body", False):
                        return
        except TimeoutError:
            return


def _expects_continue(scope: Scope) -> bool:
    """The client waits for "100 Continue" before it sends the body: it has sent none
    yet, and reading would only ask for it."""
    for name, value in scope.get("headers", []):
        if name == b"expect" and value.lower() == b"100-continue":
            return True
    return False


class _BodyTooLarge(Exception):
    pass


def _declared_length(scope: Scope) -> int:
    for name, value in scope.get("headers", []):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return 0
    return 0
