"""Where exceptions become HTTP answers: the one place that picks a status and words the
``{"error": "..."}`` body.

- a ``ColoritError`` (the library's and the CLI's wording) is 422, or its own ``status``
  for the server's ``ApiError`` kinds (400 malformed JSON, 413 too big);
- FastAPI's validation errors are reworded here, one line naming the field
  ("board: row 2, column 3: \"a\" is not an integer"), never pydantic's list of dicts;
- a full pool is 503 with ``Retry-After``; a solve that ended without an answer gets the
  status of why (its input, memory, shutdown...);
- anything else is a bug: the client gets a JSON 500 that says so, the traceback goes to
  the server's log, never to the client. The tests show no request reaches it.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..errors import ColoritError
from ..solvers.base import solver_list
from .config import MAX_COLOURS, ServerConfig
from .jobs import PoolClosed, PoolFull, SolveFailed

log = logging.getLogger("colorit.web")


class ApiError(ColoritError):
    """A request the server refuses, with the status to answer."""

    status = 422


class MalformedBody(ApiError):
    status = 400


class TooLarge(ApiError):
    status = 413


#: why a solve failed -> status
_FAILED_STATUS = {
    "input": 422,
    "memory": 503,
    "crashed": 503,
    "shutdown": 503,
    "cancelled": 400,
    "internal": 500,
}

_HTTP_WORDING = {
    404: "not found",
    405: "method not allowed",
    413: "the request body is too large",
}


def error_response(status: int, message: str, headers: Mapping[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=dict(headers or {}))


def describe(exc: BaseException) -> tuple[int, str, dict[str, str]]:
    """``(status, one-line message, headers)`` for an exception a request led to."""
    if isinstance(exc, PoolFull):
        return 503, str(exc), {"Retry-After": str(exc.retry_after)}
    if isinstance(exc, PoolClosed):
        return 503, str(exc), {"Retry-After": "5"}
    if isinstance(exc, SolveFailed):
        return _FAILED_STATUS.get(exc.kind, 500), str(exc), {}
    if isinstance(exc, ApiError):
        return exc.status, str(exc), {}
    if isinstance(exc, ColoritError):
        return 422, str(exc), {}
    if isinstance(exc, StarletteHTTPException):
        return exc.status_code, _http_wording(exc), dict(exc.headers or {})
    return 500, "internal error: the server failed to answer this request (its log has the details)", {}


def _http_wording(exc: StarletteHTTPException) -> str:
    if exc.status_code == 400 and "pars" in str(exc.detail).lower():
        # FastAPI's answer when the body is not JSON it can read (too deeply nested,
        # an integer of thousands of digits...)
        return "malformed JSON: the request body could not be read"
    if exc.status_code in _HTTP_WORDING:
        return _HTTP_WORDING[exc.status_code]
    detail = str(exc.detail)
    return detail[:1].lower() + detail[1:]


def shown(value: Any, limit: int = 40) -> str:
    """A request value as it looks in JSON, shortened: for "got ..." in messages."""
    if isinstance(value, (bytes, bytearray)):
        return "non-JSON data"
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return "non-JSON data"


def validation_message(errors: Sequence[Mapping[str, Any]], config: ServerConfig) -> tuple[int, str]:
    """One status and line for FastAPI's validation errors (the first error decides)."""
    if not errors:
        return 422, "the request is not valid"
    error = errors[0]
    kind = str(error.get("type", ""))
    loc = tuple(error.get("loc", ()))
    value = error.get("input")
    if kind == "json_invalid":
        reason = str((error.get("ctx") or {}).get("error", "not valid JSON"))
        where = f" at character {loc[1]}" if len(loc) > 1 and isinstance(loc[1], int) else ""
        return 400, f"malformed JSON: {reason[:1].lower() + reason[1:]}{where}"
    where, path = (loc[0], loc[1:]) if loc else ("body", ())
    if where == "query":
        return 422, _query_message(path, kind, value)
    if not path:
        if kind == "missing":
            return 422, "the request body is missing: send a JSON object"
        if isinstance(value, (bytes, bytearray)):
            return 400, "the request body must be JSON (send it with Content-Type: application/json)"
        return 422, f"the request body must be a JSON object, got {_json_type(value)}"
    field = str(path[0])
    if kind == "extra_forbidden":
        return 422, f"unknown field {field!r}"
    if kind == "missing" and len(path) == 1:
        return 422, f"{field} is required"
    return 422, _field_message(field, path[1:], kind, value, config)


def _field_message(field: str, rest: tuple[Any, ...], kind: str, value: Any, config: ServerConfig) -> str:
    """The message for a bad value of body field ``field`` (``rest``: where inside it)."""
    # a union's member name may follow the field in pydantic's location: keep the indices
    index = [p for p in rest if isinstance(p, int)]
    if field == "board":
        return _board_message(index, kind, value)
    if field == "moves":
        if not index:
            return f"moves must be a list of colour ids (integers), got {_json_type(value)}"
        return f"moves: move {index[0] + 1} is not a colour id (an integer), got {shown(value)}"
    if field == "time_limit":
        return f"time_limit must be a positive number of seconds, got {shown(value)}"
    if field in ("width", "height"):
        return f"{field} must be a whole number from 1 to {config.max_cells:,}, got {shown(value)}"
    if field == "colours":
        return f"colours must be a whole number from 1 to {MAX_COLOURS}, got {shown(value)}"
    if field == "seed":
        return f"seed must be a whole number from 0 to 2**64 - 1, or null for a random one, got {shown(value)}"
    if field == "algo":
        if isinstance(value, str):
            return f"unknown algorithm {value!r}; choose one of: {solver_list()}"
        return f"algo must be an algorithm's name (a string), got {shown(value)}"
    if field == "start":
        return f'start must be [row, col] (whole numbers), "top-left" or "center", got {shown(value)}'
    return f"{field}: {kind.replace('_', ' ')}, got {shown(value)}"


def _board_message(index: list[int], kind: str, value: Any) -> str:
    """The message for a bad board (``index``: the row, and the column, of the bad part)."""
    if not index:
        if kind == "too_short":
            return "board: a board needs at least one row"
        return f"board must be a list of rows of integer colour ids, got {_json_type(value)}"
    row = index[0] + 1
    if len(index) == 1:
        if kind == "too_short":
            return f"board: row {row} is empty: a board needs at least one column"
        return f"board: row {row} must be a list of integer colour ids, got {_json_type(value)}"
    where = f"board: row {row}, column {index[1] + 1}"
    if kind in ("greater_than_equal", "less_than"):
        return f"{where}: {shown(value)} is beyond the signed 64-bit range"
    return f"{where}: {shown(value)} is not an integer"


def _query_message(path: tuple[Any, ...], kind: str, value: Any) -> str:
    name = str(path[0]) if path else "query"
    if name == "n":
        if kind == "missing":
            return f"n is required: the number of colours, from 1 to {MAX_COLOURS}"
        return f"n must be a whole number from 1 to {MAX_COLOURS}, got {shown(value)}"
    return f"{name}: {kind.replace('_', ' ')}, got {shown(value)}"


def install(app: FastAPI, config: ServerConfig) -> None:
    """Make every error ``app`` can meet a one-line JSON answer."""

    async def on_validation(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        status, message = validation_message(exc.errors(), config)
        return error_response(status, message)

    async def on_known(request: Request, exc: Exception) -> JSONResponse:
        status, message, headers = describe(exc)
        return error_response(status, message, headers)

    async def on_bug(request: Request, exc: Exception) -> JSONResponse:
        # Starlette re-raises after answering, so the server logs the traceback too
        log.error("unexpected %s answering %s %s", type(exc).__name__, request.method, request.url.path)
        status, message, headers = describe(exc)
        return error_response(status, message, headers)

    app.add_exception_handler(RequestValidationError, on_validation)
    for kind in (ColoritError, PoolFull, PoolClosed, SolveFailed, StarletteHTTPException):
        app.add_exception_handler(kind, on_known)
    app.add_exception_handler(Exception, on_bug)
