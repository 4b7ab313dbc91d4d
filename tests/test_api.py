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


def test_the_version_is_the_packages() -> None:
    """``colorit --version``, a Dask worker's check and the installed package's metadata
    all say one version: the one pyproject.toml releases."""
    import tomllib
    from pathlib import Path

    pyproject = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text())
    assert colorit.__version__ == pyproject["project"]["version"]
    major, minor, patch = (int(part) for part in colorit.__version__.split("."))
    assert major >= 1
