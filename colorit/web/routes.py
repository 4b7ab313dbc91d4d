"""The routes of ``colorit serve``: the JSON API over the library (``api``) and the
page's own files (``page``).

A thin layer: boards are checked by the library (``Board``), so the server says what
the CLI says; solves go to the worker pool; every error leaves through ``errors.py`` as
one JSON line. Each handler finds the server's settings and its pool on the app
(``request.app.state``), so the routes are plain functions, shared by every app.
"""

from __future__ import annotations

import asyncio
import secrets
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import FileResponse, HTMLResponse, Response, StreamingResponse
from starlette.concurrency import run_in_threadpool

from .. import __version__
from ..errors import BoardFormatError, SolutionError
from ..game.board import Board, parse_start
from ..solvers import DEFAULT_ALGO, get_solver, solver_names
from .config import MAX_COLOURS, ServerConfig
from .errors import ApiError, TooLarge
from .jobs import PoolClosed, SolveJob
from .models import (
    Algorithms,
    Answer,
    CheckAnswer,
    CheckRequest,
    Generated,
    GenerateRequest,
    Health,
    PaletteAnswer,
    SolveRequest,
    error_responses,
)
from .pool import SolverPool
from .stream import cancel_on_disconnect, events

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

api = APIRouter(prefix="/api")
page = APIRouter(include_in_schema=False)


def _config(request: Request) -> ServerConfig:
    return request.app.state.config  # type: ignore[no-any-return]


def _pool(request: Request) -> SolverPool:
    pool = getattr(request.app.state, "pool", None)
    if pool is None:
        raise PoolClosed("the solvers are not running")
    return pool  # type: ignore[no-any-return]


Config = Annotated[ServerConfig, Depends(_config)]


# ---------------------------------------------------------------------- the API


@api.get("/health", response_model=Health, tags=["server"])
async def health(request: Request) -> dict[str, Any]:
    """Whether the server answers, and how busy its solvers are."""
    pool = getattr(request.app.state, "pool", None)
    stats = pool.stats() if pool is not None else {"workers": 0, "ready": 0, "busy": 0, "queued": 0}
    return {"ok": True, "version": __version__, **stats}


@api.get("/algorithms", response_model=Algorithms, tags=["solve"])
async def algorithms(config: Config) -> dict[str, Any]:
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


@api.get("/palette", response_model=PaletteAnswer, responses=error_responses(422), tags=["board"])
async def palette(n: Annotated[int, Query(ge=1, le=MAX_COLOURS, description="number of colours")]) -> Any:
    """The swatches, label inks and symbols of colour codes 0 .. n-1 (``colorit.palette``)."""
    from ..palette import as_json

    return as_json(n)


@api.post("/generate", response_model=Generated, responses=error_responses(400, 413, 422), tags=["board"])
async def generate(body: GenerateRequest, config: Config) -> dict[str, Any]:
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


@api.post("/solve", response_model=Answer, responses=error_responses(400, 413, 422, 503), tags=["solve"])
async def solve(body: SolveRequest, request: Request, config: Config) -> dict[str, Any]:
    """Solve a board within ``time_limit`` seconds; the answer is replayed and valid."""
    job = await _submit(body, request, config)
    watcher = asyncio.ensure_future(cancel_on_disconnect(request.receive, job))
    try:
        return await job.result()
    finally:
        watcher.cancel()
        job.cancel()


@api.post(
    "/solve/stream",
    responses={
        200: {"content": {"text/event-stream": {}}, "description": "queued, started, progress..., result | error"},
        **error_responses(400, 413, 422, 503),
    },
    response_class=StreamingResponse,
    tags=["solve"],
)
async def solve_stream(body: SolveRequest, request: Request, config: Config) -> StreamingResponse:
    """The same solve as a stream of server-sent events (read it with fetch()).
    Errors found before the solve starts come back as JSON with their status."""
    job = await _submit(body, request, config)
    return StreamingResponse(
        events(job, request.receive),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )


@api.post("/check", response_model=CheckAnswer, responses=error_responses(400, 413, 422), tags=["solve"])
async def check(body: CheckRequest, config: Config) -> dict[str, Any]:
    """Replay ``moves`` on the board: valid, or why not (as ``colorit check`` says it)."""
    board = await run_in_threadpool(_board, body.board, body.start, config)
    if len(body.moves) > config.max_cells:
        raise ApiError(f"moves: {len(body.moves):,} moves is over this server's limit of {config.max_cells:,}")
    try:
        await run_in_threadpool(board.check, body.moves)
    except SolutionError as e:
        return {"valid": False, "reason": str(e), "moves": len(body.moves)}
    return {"valid": True, "reason": None, "moves": len(body.moves)}


async def _submit(body: SolveRequest, request: Request, config: Config) -> SolveJob:
    board = await run_in_threadpool(_board, body.board, body.start, config)
    spec = get_solver(body.algo)
    seconds = config.default_time if body.time_limit is None else body.time_limit
    if seconds > config.max_time:
        raise ApiError(f"time_limit {seconds:g} s is over this server's limit of {config.max_time:g} s (--max-time)")
    return _pool(request).submit(board, spec.name, seconds)


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


# ---------------------------------------------------------------------- the page

_NO_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>colorit</title></head>
<body><h1>colorit</h1><p>The page is not installed in this copy of colorit;
the API answers under /api/ and is described at <a href="/openapi.json">/openapi.json</a>.</p></body></html>
"""


@page.api_route("/", methods=["GET", "HEAD"])
async def index() -> Response:
    path = STATIC_DIR / "index.html"
    if path.is_file():
        return FileResponse(path, media_type="text/html", headers={"Cache-Control": "no-cache"})
    return HTMLResponse(_NO_PAGE)


@page.api_route("/favicon.ico", methods=["GET", "HEAD"])
async def favicon() -> Response:
    for name, media_type in ICON_NAMES:
        path = STATIC_DIR / name
        if path.is_file():
            return FileResponse(path, media_type=media_type)
    return Response(_generated_icon(), media_type="image/svg+xml", headers={"Cache-Control": "max-age=86400"})


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
