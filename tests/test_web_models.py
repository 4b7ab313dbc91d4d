"""The request bodies and the limits the API's description states: each server's own
limits written in, integer bounds exact, a whole float taken as its integer only while
it is exact. (test_web_schema.py checks the whole description against a live server.)"""

from __future__ import annotations

import json
from typing import Any

import pytest

pytest.importorskip("fastapi")
from pydantic import ValidationError

from colorit.solvers import get_solver, solver_names
from colorit.web import ServerConfig, create_app
from colorit.web.models import ALGO_NAMES, CheckRequest, GenerateRequest, SolveRequest

CONFIG = ServerConfig(workers=1, max_cells=777, max_time=3.5)


@pytest.fixture(scope="module")
def bodies() -> dict[str, Any]:
    # the description as a client reads it: the JSON text, not the dict
    schema = json.loads(json.dumps(create_app(CONFIG).openapi()))
    return schema["components"]["schemas"]  # type: ignore[no-any-return]


def test_the_description_states_this_server_s_limits(bodies: dict[str, Any]) -> None:
    for name in ("SolveRequest", "CheckRequest"):
        board = bodies[name]["properties"]["board"]
        assert (board["minItems"], board["maxItems"]) == (1, 777)
        assert (board["items"]["minItems"], board["items"]["maxItems"]) == (1, 777)
    assert bodies["CheckRequest"]["properties"]["moves"]["maxItems"] == 777
    generate = bodies["GenerateRequest"]["properties"]
    assert (generate["width"]["minimum"], generate["width"]["maximum"]) == (1, 777)
    assert (generate["colours"]["minimum"], generate["colours"]["maximum"]) == (1, 1024)
    (seconds,) = [s for s in bodies["SolveRequest"]["properties"]["time_limit"]["anyOf"] if s["type"] == "number"]
    assert seconds["exclusiveMinimum"] == 0 and seconds["maximum"] == 3.5
    assert bodies["SolveRequest"]["properties"]["algo"]["enum"] == list(ALGO_NAMES)
    # another server, other limits: nothing is shared between apps
    other = create_app(ServerConfig(workers=1, max_cells=50)).openapi()["components"]["schemas"]
    assert other["SolveRequest"]["properties"]["board"]["maxItems"] == 50


def test_integer_bounds_are_exact_integers(bodies: dict[str, Any]) -> None:
    """As floats, 2**63 - 1 and 2**64 - 1 would read back as 2**63 and 2**64."""
    cell = bodies["SolveRequest"]["properties"]["board"]["items"]["items"]
    assert cell == {"type": "integer", "minimum": -(2**63), "exclusiveMaximum": 2**63}
    assert all(type(v) is int for v in cell.values() if not isinstance(v, str))
    (seed,) = [s for s in bodies["GenerateRequest"]["properties"]["seed"]["anyOf"] if s["type"] == "integer"]
    assert (seed["minimum"], seed["exclusiveMaximum"]) == (0, 2**64)


@pytest.mark.parametrize(
    ("value", "taken"),
    [(2, 2), (2.0, 2), (1e3, 1000), (-7.0, -7), (2.0**53 - 1, 2**53 - 1), (2**62, 2**62)],
)
def test_a_whole_float_is_its_integer_while_exact(value: Any, taken: int) -> None:
    body = SolveRequest.model_validate({"board": [[value, 0]], "start": [0.0, 1.0]})
    assert body.board == [[taken, 0]] and type(body.board[0][0]) is int and body.start == [0, 1]


@pytest.mark.parametrize("value", [1.5, True, "3", None, 2.0**53, 2.0**62, float("nan")])
def test_anything_else_is_no_integer(value: Any) -> None:
    with pytest.raises(ValidationError):
        SolveRequest.model_validate({"board": [[value]]})
    with pytest.raises(ValidationError):
        CheckRequest.model_validate({"board": [[0]], "moves": [value]})
    with pytest.raises(ValidationError):
        GenerateRequest.model_validate({"width": value, "height": 1, "colours": 1})


def test_algo_takes_every_solver_name_and_alias_as_the_cli_spells_them() -> None:
    assert set(solver_names()) <= set(ALGO_NAMES)
    assert {"basic", "exact", "default"} <= set(ALGO_NAMES)
    for name in ALGO_NAMES:
        assert get_solver(SolveRequest.model_validate({"board": [[0]], "algo": name}).algo).name in solver_names()
    for wrong in ("AUTO", " auto", "", "fastest"):
        with pytest.raises(ValidationError):
            SolveRequest.model_validate({"board": [[0]], "algo": wrong})
