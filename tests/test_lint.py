"""The linter and the type checker, run with the tests: ``ruff check colorit tests`` and
``mypy`` (strict over the package and the tests, as pyproject.toml configures them) must
find nothing. Both come with the ``test`` extra; where one is not installed its test is
skipped, saying so (CI installs the extra, so there they run)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def tool(name: str) -> list[str]:
    """The command that runs ``name`` from this interpreter's environment (else from the
    PATH); the test is skipped where neither has it."""
    beside = Path(sys.executable).with_name(name)
    if beside.is_file():
        return [str(beside)]
    found = shutil.which(name)
    if found is None:
        pytest.skip(f"{name} is not installed (it comes with the test extra: pip install -e '.[test]')")
    return [found]


def run(command: list[str], timeout: float) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=timeout, check=False)


def test_ruff_finds_nothing() -> None:
    proc = run([*tool("ruff"), "check", "--no-cache", "colorit", "tests"], timeout=120)
    assert proc.returncode == 0, f"ruff check colorit tests:\n{proc.stdout}{proc.stderr}"


def test_mypy_finds_nothing() -> None:
    # a cold run over the package and the tests takes a minute on a loaded machine; the
    # cache (.mypy_cache) makes the next ones a few seconds
    proc = run([*tool("mypy")], timeout=600)
    assert proc.returncode == 0, f"mypy:\n{proc.stdout}{proc.stderr}"
