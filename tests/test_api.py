"""The package's public surface: what ``import colorit`` offers, and its doctest."""

from __future__ import annotations

import doctest

import colorit


def test_package_doctest_runs() -> None:
    failures, tried = doctest.testmod(colorit)
    assert tried > 0
    assert failures == 0


def test_public_names_exist() -> None:
    for name in colorit.__all__:
        assert hasattr(colorit, name), name
    assert {"auto", "astar", "dfs", "lookahead", "greedy", "linear"} <= set(colorit.solver_names())
