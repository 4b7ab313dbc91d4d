"""The API's request and answer bodies, and the limits its description states.

Request bodies are pydantic models in strict mode (``1.5``, ``"3"`` or ``true`` is not an
integer here, an unknown field is an error): what they refuse, FastAPI answers 422 and
``errors.py`` words as one line. A whole number written as a float (``2.0``, ``1e3``) is
an integer, as JSON Schema counts them, while a float holds it exactly (below 2**53). Each limit that JSON Schema can say is stated here, so
that ``/openapi.json`` tells the truth: a request it allows is not refused for a rule it
keeps quiet about. Some limits are the server's settings (``--max-cells``,
``--max-time``); ``state_limits`` writes them into the description of each app.

What JSON Schema cannot say is said in words (each field's description) and checked by
the server: a board's rows are all as long as the first, its cells number at most
``max_cells`` (else 413), a start cell lies on the board, a generated board's
``width * height`` is at most ``max_cells``, and a request body is at most
``max_body_bytes`` long (else 413).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from ..game.board import INT64_MAX, INT64_MIN
from ..solvers import DEFAULT_ALGO, get_solver, solver_names
from .config import MAX_COLOURS, ServerConfig

#: The seeds of ``colorit generate``: any unsigned 64-bit integer.
SEED_LIMIT = 2**64

#: Below this, a float holds every whole number exactly.
EXACT_FLOAT_LIMIT = 2**53


def _whole_float_as_int(value: Any) -> Any:
    """``2.0`` as ``2``: the same number in JSON, and an integer to JSON Schema. Past
    ``EXACT_FLOAT_LIMIT`` the float may be another number than the one written, so it
    stays a float (and is refused)."""
    if isinstance(value, float) and value.is_integer() and abs(value) < EXACT_FLOAT_LIMIT:
        return int(value)
    return value


# The validator comes last: it runs first, and the bounds stay on the integer (and in
# its JSON Schema).
_AS_INT = BeforeValidator(_whole_float_as_int)
Whole = Annotated[int, Field(strict=True), _AS_INT]

# Upper bounds are written as exclusive ones: 2**63 and 2**64 are exact in a JSON
# parser's double, while 2**63 - 1 and 2**64 - 1 round up to them.
Int64 = Annotated[int, Field(strict=True, ge=INT64_MIN, lt=INT64_MAX + 1), _AS_INT]
Row = Annotated[list[Int64], Field(min_length=1)]
Rows = Annotated[list[Row], Field(min_length=1)]
StartCell = Annotated[list[Whole], Field(min_length=2, max_length=2)]
Start = StartCell | Literal["top-left", "center", "centre"]

#: Every name ``algo`` takes: the solvers' names and their aliases, as the CLI's --algo.
ALGO_NAMES = tuple(n for name in solver_names() for n in (name, *get_solver(name).aliases))
Algo = Literal[ALGO_NAMES]  # type: ignore[valid-type]

_BOARD = (
    "rows of integer colour ids (signed 64-bit), every row as long as the first; "
    "at most max_cells cells in all (GET /api/algorithms), 413 beyond"
)
_START = '[row, col] of a cell on the board, "top-left" or "center"'


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class GenerateRequest(_Body):
    width: Annotated[int, Field(strict=True, ge=1, description="columns; width * height at most max_cells"), _AS_INT]
    height: Annotated[int, Field(strict=True, ge=1, description="rows; width * height at most max_cells"), _AS_INT]
    colours: Annotated[int, Field(strict=True, ge=1, le=MAX_COLOURS, description="colour ids 0 .. colours - 1"), _AS_INT]
    seed: Annotated[int, Field(strict=True, ge=0, lt=SEED_LIMIT), _AS_INT] | None = Field(
        None, description="0 .. 2**64 - 1; null or missing: a random seed, returned"
    )
    start: Start = Field("top-left", description=_START)


class SolveRequest(_Body):
    board: Rows = Field(description=_BOARD)
    algo: Algo = Field(DEFAULT_ALGO, description="a solver's name or alias (GET /api/algorithms)")
    time_limit: Annotated[float, Field(gt=0, allow_inf_nan=False)] | None = Field(
        None, description="seconds, at most max_time; missing: the server's default_time"
    )
    start: Start = Field("top-left", description=_START)


class CheckRequest(_Body):
    board: Rows = Field(description=_BOARD)
    moves: list[Whole] = Field(description="colour ids, at most max_cells of them")
    start: Start = Field("top-left", description=_START)


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
    board: list[list[int]]
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


def error_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The ``responses`` of a route that may answer ``statuses`` with an error body."""
    return {status: {"model": ErrorBody} for status in statuses}


def state_limits(schema: dict[str, Any], config: ServerConfig) -> dict[str, Any]:
    """``schema`` (an OpenAPI document) with this server's limits written into its
    request bodies, and its integer bounds as integers (FastAPI's OpenAPI model makes
    them floats, which a client may round)."""
    bodies = schema.get("components", {}).get("schemas", {})
    cells, seconds = config.max_cells, config.max_time
    for name in ("SolveRequest", "CheckRequest"):
        board = bodies[name]["properties"]["board"]
        board["maxItems"] = board["items"]["maxItems"] = cells
    bodies["CheckRequest"]["properties"]["moves"]["maxItems"] = cells
    for side in ("width", "height"):
        bodies["GenerateRequest"]["properties"][side]["maximum"] = cells
    time_limit = bodies["SolveRequest"]["properties"]["time_limit"]
    next(s for s in time_limit["anyOf"] if s.get("type") == "number")["maximum"] = seconds
    _whole_bounds(schema)
    return schema


_BOUNDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum")


def _whole_bounds(node: Any) -> None:
    """Write the bounds of integer schemas as integers, everywhere under ``node``."""
    if isinstance(node, dict):
        if node.get("type") == "integer":
            for key in _BOUNDS:
                if isinstance(node.get(key), float) and node[key].is_integer():
                    node[key] = int(node[key])
        for value in node.values():
            _whole_bounds(value)
    elif isinstance(node, list):
        for value in node:
            _whole_bounds(value)
