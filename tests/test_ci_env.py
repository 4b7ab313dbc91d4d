"""``CI`` set to anything non-empty is CI: the browser and node tests then fail rather
than skip when their tools are missing."""

from __future__ import annotations

import pytest

from ci_env import on_ci


@pytest.mark.parametrize("value", ["true", "1", "yes", "True"])
def test_any_value_is_ci(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv("CI", value)
    assert on_ci()


@pytest.mark.parametrize("value", [None, "", " "])
def test_unset_or_empty_is_not_ci(monkeypatch: pytest.MonkeyPatch, value: str | None) -> None:
    if value is None:
        monkeypatch.delenv("CI", raising=False)
    else:
        monkeypatch.setenv("CI", value)
    assert not on_ci()
