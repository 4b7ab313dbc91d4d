"""The web app of ``colorit serve``: the JSON API over the library, and the page's files.

A thin layer: request bodies are pydantic models in strict mode (``1.5`` or ``"3"`` is
not an integer here), boards are checked by the library (``Board``), so the server says
what the CLI says, solves go to the worker pool, and every error leaves through
``errors.py`` as one JSON line. The contract is /work/notes/api.md; FastAPI's
``/openapi.json`` documents it (no /docs page: Swagger would load from a CDN).
"""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Query, Request
from fastapi.responses import FileResponse, HTMLResponse, Response, StreamingResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .. import __version__
from ..game.board import Board, parse_start
from ..errors import BoardFormatError, SolutionError
from ..solvers import DEFAULT_ALGO, get_solver, solver_names
from . import errors
from .config import DRAIN_MAX_BYTES, DRAIN_SECONDS, MAX_COLOURS, ServerConfig
from .errors import ApiError, TooLarge
from .pool import PoolClosed, SolveJob, SolverPool

STATIC_DIR = Path(__file__).with_name("static")
#: icon files the page may ship, first found is served as /favicon.ico
ICON_NAMES = (
    ("favicon.ico", "image/x-icon"),
    ("favicon.svg", "image/svg+xml"),
    ("icon.svg", "image/svg+xml"),
    ("favicon.png", "image/png"),
    ("icon.png", "image/png"),
)
BASELINE_ALGO = "linear"
#: a comment line sent down an idle event stream, so proxies and browsers keep it open
KEEPALIVE_S = 15.0
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

INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1

# ---------------------------------------------------------------------- request and answer bodies

Int64 = Annotated[int, Field(strict=True, ge=INT64_MIN, le=INT64_MAX)]
Rows = list[list[Int64]]
StartCell = Annotated[list[Annotated[int, Field(strict=True)]], Field(min_length=2, max_length=2)]
Start = StartCell | Literal["top-left", "center", "centre"]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class GenerateRequest(_Body):
    width: Annotated[int, Field(ge=1, description="columns")]
    height: Annotated[int, Field(ge=1, description="rows")]
    colours: Annotated[int, Field(ge=1, le=MAX_COLOURS, description="colour ids 0 .. colours - 1")]
    seed: Annotated[int, Field(ge=0, le=2**64 - 1)] | None = Field(
        None, description="null or missing: a random seed, returned"
    )
    start: Start = Field("top-left", description='[row, col], "top-left" or "center"')


class SolveRequest(_Body):
    board: Rows = Field(description="rows of integer colour ids (signed 64-bit)")
    algo: Annotated[str, Field(max_length=64)] = DEFAULT_ALGO
    time_limit: Annotated[float, Field(gt=0, allow_inf_nan=False)] | None = Field(
        None, description="seconds; missing: the server's default_time; at most max_time"
    )
    start: Start = Field("top-left", description='[row, col], "top-left" or "center"')


class CheckRequest(_Body):
    board: Rows
    moves: list[Annotated[int, Field(strict=True)]] = Field(description="colour ids")
    start: Start = "top-left"


class Health(BaseModel):
    ok: bool
    version: str
    workers: int
    busy: int
    queued: int
    ready: int


class AlgorithmInfo(BaseModel):
    name: str
    summary: str
    exact: bool


class Algorithms(BaseModel):
    algorithms: list[AlgorithmInfo]
    default: str
    baseline: str
    max_time: float
    max_cells: int
    default_time: float


class PaletteAnswer(BaseModel):
    colours: list[str]
    ink: list[str]
    symbols: list[str]
    #: what a person reads for each code (its button, number label and key): code + 1
    numbers: list[int]


class Generated(BaseModel):
    board: Rows
    seed: int
    width: int
    height: int
    colours: int
    start: list[int]


class Answer(BaseModel):
    moves: list[int]
    proven: bool
    lower_bound: int
    gap: float
    elapsed_s: float
    algo: str
    stopped: str


class CheckAnswer(BaseModel):
    valid: bool
    reason: str | None
    moves: int


class ErrorBody(BaseModel):
    error: str


def _errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    return {status: {"model": ErrorBody} for status in statuses}


# ---------------------------------------------------------------------- the guard


class _Guard:
    """Caps request bodies while they are read, whatever Content-Length claims, and
    adds the security headers to every answer.

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

        async def guarded_send(message: Message) -> None:
            nonlocal started
            if too_large and not started:
                return
            if message["type"] == "http.response.start":
                started = True
                message = {**message, "headers": [*message.get("headers", []), *SECURITY_HEADERS]}
            await send(message)

        if not too_large:
            try:
                await self.app(scope, limited_receive, guarded_send)
            except Exception:
                if not too_large or started:
                    raise
        if too_large and not started:
            if not body_done and not _expects_continue(scope):
                await self._drain(receive, received)
            status, message, headers = errors.describe(
                TooLarge(f"the request body is over this server's limit of {limit:,} bytes")
            )
            response = errors.error_response(status, message, {**headers, "Connection": "close"})
            started = True
            await response(scope, receive, guarded_send)

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


# ---------------------------------------------------------------------- helpers


def _start_cell(spec: list[int] | str, height: int, width: int) -> tuple[int, int]:
    if isinstance(spec, str):
        return parse_start(spec, height, width)
    return (spec[0], spec[1])


def _board(rows: list[list[int]], start: list[int] | str, config: ServerConfig) -> Board:
    """The request's board through the library's checks (``board: ...`` messages);
    ``TooLarge`` over ``max_cells``."""
    cells = sum(len(row) for row in rows)
    if cells > config.max_cells:
        shape = f"{len(rows)}x{len(rows[0])} board" if all(len(r) == len(rows[0]) for r in rows) else "board"
        raise TooLarge(
            f"board: a {shape} has {cells:,} cells, over this server's limit of {config.max_cells:,} (--max-cells)"
        )
    try:
        board = Board.from_rows(rows)
    except BoardFormatError as e:
        raise ApiError(f"board: {e}") from None
    cell = _start_cell(start, board.height, board.width)
    return board if cell == board.start else board.with_start(cell)


def _time_limit(value: float | None, config: ServerConfig) -> float:
    seconds = config.default_time if value is None else value
    if seconds > config.max_time:
        raise ApiError(f"time_limit {seconds:g} s is over this server's limit of {config.max_time:g} s (--max-time)")
    return seconds


def _pool(request: Request) -> SolverPool:
    pool = getattr(request.app.state, "pool", None)
    if pool is None:
        raise PoolClosed("the solvers are not running")
    return pool  # type: ignore[no-any-return]


async def _cancel_on_disconnect(receive: Receive, job: SolveJob) -> None:
    """Wait for the client to go away, then stop its solve at once."""
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            job.cancel("the client went away")
            return


def _event(kind: str, data: Any) -> bytes:
    return f"event: {kind}\ndata: {json.dumps(data, separators=(',', ':'), allow_nan=False)}\n\n".encode()


async def _events(job: SolveJob, receive: Receive) -> AsyncIterator[bytes]:
    """The server-sent events of one solve; ends with ``result`` or ``error``."""
    watcher = asyncio.ensure_future(_cancel_on_disconnect(receive, job))
    try:
        while True:
            try:
                kind, data = await job.next_event(timeout=KEEPALIVE_S)
            except TimeoutError:
                yield b": keep-alive\n\n"
                continue
            if kind == "failed":
                status, message, _ = errors.describe(data)
                yield _event("error", {"error": message, "status": status})
                return
            yield _event(kind, data)
            if kind == "result":
                return
    finally:
        watcher.cancel()
        job.cancel("the client went away")


def _icon() -> tuple[Path | None, str]:
    for name, media_type in ICON_NAMES:
        path = STATIC_DIR / name
        if path.is_file():
            return path, media_type
    return None, "image/svg+xml"


def _generated_icon() -> str:
    """A 2x2 board in the palette's first colours, for when the page ships no icon."""
    from ..palette import colours

    c = colours(4)
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">'
        f'<rect width="16" height="16" fill="{c[0]}"/><rect x="16" width="16" height="16" fill="{c[1]}"/>'
        f'<rect y="16" width="16" height="16" fill="{c[2]}"/><rect x="16" y="16" width="16" height="16" fill="{c[0]}"/>'
        "</svg>"
    )


_NO_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>colorit</title></head>
<body><h1>colorit</h1><p>The page is not installed in this copy of colorit;
the API answers under /api/ and is described at <a href="/openapi.json">/openapi.json</a>.</p></body></html>
"""


# ---------------------------------------------------------------------- the app


def create_app(config: ServerConfig | None = None, *, pool: SolverPool | None = None) -> FastAPI:
    """The ASGI app. With ``pool`` (started by the caller, e.g. ``serve``) the app uses it
    and leaves it running; without, the app's lifespan starts its own and closes it."""
    config = config or ServerConfig()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        own = pool is None
        solvers = pool or SolverPool(
            int(config.workers or 1), queue_size=config.queue_size, memory_per_solve=config.memory_per_solve
        )
        if own:
            await run_in_threadpool(solvers.start)
        # load the replay kernel here too, so the first /api/check does not wait for it
        await run_in_threadpool(Board.from_rows([[0, 1]]).check, [1])
        app.state.pool = solvers
        try:
            yield
        finally:
            app.state.pool = None
            if own:
                await run_in_threadpool(solvers.close)

    app = FastAPI(
        title="colorit",
        version=__version__,
        summary="Play Color-It (Flood-It), watch the solvers, compare with the basic AI.",
        docs_url=None,
        redoc_url=None,
        openapi_url="/openapi.json",
        lifespan=lifespan,
    )
    app.state.config = config
    app.state.pool = None
    errors.install(app, config)
    app.add_middleware(_Guard, max_body_bytes=int(config.max_body_bytes or 0))

    @app.get("/api/health", response_model=Health, tags=["server"])
    async def health(request: Request) -> dict[str, Any]:
        """Whether the server answers, and how busy its solvers are."""
        pool = getattr(request.app.state, "pool", None)
        stats = pool.stats() if pool is not None else {"workers": 0, "ready": 0, "busy": 0, "queued": 0}
        return {"ok": True, "version": __version__, **stats}

    @app.get("/api/algorithms", response_model=Algorithms, tags=["solve"])
    async def algorithms() -> dict[str, Any]:
        """The solvers, in ``colorit.solver_names()`` order, and the server's limits."""
        listed = []
        for name in solver_names():
            spec = get_solver(name)
            listed.append({"name": spec.name, "summary": spec.summary, "exact": spec.exact})
        return {
            "algorithms": listed,
            "default": DEFAULT_ALGO,
            "baseline": BASELINE_ALGO,
            "max_time": config.max_time,
            "max_cells": config.max_cells,
            "default_time": config.default_time,
        }

    @app.get("/api/palette", response_model=PaletteAnswer, responses=_errors(422), tags=["board"])
    async def palette(n: Annotated[int, Query(ge=1, le=MAX_COLOURS, description="number of colours")]) -> Any:
        """The swatches, label inks and symbols of colour codes 0 .. n-1 (``colorit.palette``)."""
        from ..palette import as_json

        return as_json(n)

    @app.post("/api/generate", response_model=Generated, responses=_errors(400, 413, 422), tags=["board"])
    async def generate(body: GenerateRequest) -> dict[str, Any]:
        """A random board, the same as ``colorit generate --size WxH --colours C --seed S``."""
        from ..game.generate import random_board

        cells = body.width * body.height
        if cells > config.max_cells:
            raise ApiError(
                f"a {body.width}x{body.height} board has {cells:,} cells, "
                f"over this server's limit of {config.max_cells:,} (--max-cells)"
            )
        seed = body.seed if body.seed is not None else secrets.randbits(32)
        start = _start_cell(body.start, body.height, body.width)
        board = await run_in_threadpool(random_board, body.width, body.height, body.colours, seed, start)
        return {
            "board": board.cells.tolist(),
            "seed": seed,
            "width": board.width,
            "height": board.height,
            "colours": body.colours,
            "start": list(board.start),
        }

    @app.post("/api/solve", response_model=Answer, responses=_errors(400, 413, 422, 503), tags=["solve"])
    async def solve(body: SolveRequest, request: Request) -> dict[str, Any]:
        """Solve a board within ``time_limit`` seconds; the answer is replayed and valid."""
        job = await _submit(body, request)
        watcher = asyncio.ensure_future(_cancel_on_disconnect(request.receive, job))
        try:
            return await job.result()
        finally:
            watcher.cancel()
            job.cancel()

    @app.post(
        "/api/solve/stream",
        responses={
            200: {"content": {"text/event-stream": {}}, "description": "queued, started, progress..., result | error"},
            **_errors(400, 413, 422, 503),
        },
        response_class=StreamingResponse,
        tags=["solve"],
    )
    async def solve_stream(body: SolveRequest, request: Request) -> StreamingResponse:
        """The same solve as a stream of server-sent events (read it with fetch()).
        Errors found before the solve starts come back as JSON with their status."""
        job = await _submit(body, request)
        return StreamingResponse(
            _events(job, request.receive),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
        )

    async def _submit(body: SolveRequest, request: Request) -> SolveJob:
        board = await run_in_threadpool(_board, body.board, body.start, config)
        spec = get_solver(body.algo)
        seconds = _time_limit(body.time_limit, config)
        return _pool(request).submit(board, spec.name, seconds)

    @app.post("/api/check", response_model=CheckAnswer, responses=_errors(400, 413, 422), tags=["solve"])
    async def check(body: CheckRequest) -> dict[str, Any]:
        """Replay ``moves`` on the board: valid, or why not (as ``colorit check`` says it)."""
        board = await run_in_threadpool(_board, body.board, body.start, config)
        if len(body.moves) > config.max_cells:
            raise ApiError(f"moves: {len(body.moves):,} moves is over this server's limit of {config.max_cells:,}")
        try:
            await run_in_threadpool(board.check, body.moves)
        except SolutionError as e:
            return {"valid": False, "reason": str(e), "moves": len(body.moves)}
        return {"valid": True, "reason": None, "moves": len(body.moves)}

    @app.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
    async def index() -> Response:
        page = STATIC_DIR / "index.html"
        if page.is_file():
            return FileResponse(page, media_type="text/html", headers={"Cache-Control": "no-cache"})
        return HTMLResponse(_NO_PAGE)

    @app.api_route("/favicon.ico", methods=["GET", "HEAD"], include_in_schema=False)
    async def favicon() -> Response:
        path, media_type = _icon()
        if path is not None:
            return FileResponse(path, media_type=media_type)
        return Response(_generated_icon(), media_type=media_type, headers={"Cache-Control": "max-age=86400"})

    if STATIC_DIR.is_dir():
        app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")

    return app
