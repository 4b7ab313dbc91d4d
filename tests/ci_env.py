"""Whether the tests run under CI: ``CI`` set to anything non-empty (``true``, ``1``,
``yes`` ...), as CI services set it. Under CI, tests that need a browser or node fail
without them rather than skip."""

from __future__ import annotations

import os


def on_ci() -> bool:
    return bool(os.environ.get("CI", "").strip())
