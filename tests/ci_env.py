"""Whether the tests run under CI: ``CI`` set to anything non-empty (``true``, ``1``,
``yes`` ...), as CI services set it. Under CI, tests that need a browser or node fail
without them rather than skip."""

from __future__ import annotations

import os


def on_ci() -> bool:
    return bool(os.environ.get("CI", "").strip())


def tool_or_skip(name: str) -> str:
    """The path of the program ``name`` (``node``, say): where it is missing, the calling
    test or module fails under CI and is skipped elsewhere."""
    import shutil

    import pytest

    path = shutil.which(name)
    if path is None:
        if on_ci():
            raise RuntimeError(f"{name} is needed by these tests and was not found")
        pytest.skip(f"{name} is not installed", allow_module_level=True)
    return path
