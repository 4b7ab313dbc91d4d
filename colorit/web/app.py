"""The web app of ``colorit serve``: the routes (``routes.py``) on one FastAPI app, with
its settings, its solver pool, its error answers and its two ASGI layers.

FastAPI's ``/openapi.json`` describes the API, with this server's limits written in
(``models.state_limits``); there is no /docs page: Swagger would load from a CDN.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from starlette.concurrency import run_in_threadpool

from .. import __version__
from ..game.board import Board
from . import errors
from .config import ServerConfig
from .middleware import BodyLimit, SecurityHeaders
from .models import state_limits
from .pool import SolverPool
from .routes import STATIC_DIR, api, page

__all__ = ["STATIC_DIR", "create_app"]


def create_app(config: ServerConfig | None = None, *, pool: SolverPool | None = None) -> FastAPI:
    """The ASGI app. With ``pool`` (started by the caller, e.g. ``serve``) the app uses it
    and leaves it running; without, the app's lifespan starts its own and closes it."""
    config = config or ServerConfig()
    app = FastAPI(
        title="colorit",
        version=__version__,
        summary="Play Color-It (Flood-It), watch the solvers, compare with the basic AI.",
        description=(
            f"Request bodies are JSON of at most {config.max_body_bytes:,} bytes (413 beyond); "
            f"boards of at most {config.max_cells:,} cells, time limits of at most {config.max_time:g} s."
        ),
        docs_url=None,
        redoc_url=None,
        openapi_url="/openapi.json",
        lifespan=_lifespan(config, pool),
    )
    app.state.config = config
    app.state.pool = None
    errors.install(app, config)
    app.add_middleware(BodyLimit, max_body_bytes=int(config.max_body_bytes or 0))
    app.add_middleware(SecurityHeaders)  # the outer layer: the 413s get the headers too
    app.include_router(api)
    app.include_router(page)
    if STATIC_DIR.is_dir():
        app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = FastAPI.openapi(app)
            state_limits(app.openapi_schema, config)
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
    return app


def _lifespan(config: ServerConfig, pool: SolverPool | None) -> Any:
    """Start the app's own pool (unless given one) and close it when the app stops."""

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

    return lifespan
