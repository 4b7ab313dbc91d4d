"""The option checks every renderer shares (``colorit/render/_options.py``): one wording
for a picture's and the terminal's labels, whole numbers and seconds, and the values
that must be refused rather than rounded."""

from __future__ import annotations

import math

import numpy as np
import pytest

from colorit.errors import ColoritError
from colorit.palette import LABEL_KINDS
from colorit.render._options import check_labels, seconds, whole


@pytest.mark.parametrize("kind", LABEL_KINDS)
def test_every_label_kind_is_taken_as_it_is(kind: str) -> None:
    assert check_labels(kind) == kind


@pytest.mark.parametrize("bad", ["letters", "NUMBERS", "", None, 1])
def test_other_labels_are_one_line_naming_the_kinds(bad: object) -> None:
    with pytest.raises(ColoritError, match=r"^labels must be one of none, numbers, symbols, got "):
        check_labels(bad)


def test_whole_takes_whole_numbers_in_range_numpys_too() -> None:
    assert whole(3, "cell size", 1, 10) == 3
    assert whole(np.int64(10), "cell size", 1, 10) == 10
    assert whole(10**6, "cell size", 1) == 10**6  # no maximum


@pytest.mark.parametrize(
    ("bad", "message"),
    [(1.5, "a whole number"), ("3", "a whole number"), (True, "a whole number"), (0, "at least 1"), (11, "at most 10")],
)
def test_whole_refuses_rather_than_rounds(bad: object, message: str) -> None:
    with pytest.raises(ColoritError, match=f"^cell size must be {message}, got "):
        whole(bad, "cell size", 1, 10)


def test_seconds_in_range_as_floats() -> None:
    assert seconds(0, "delay", 10) == 0.0 and isinstance(seconds(0, "delay", 10), float)
    assert seconds(2.5, "delay", 10) == 2.5
    assert seconds(np.float32(10.0), "delay", 10) == 10.0


@pytest.mark.parametrize("bad", [-0.1, 10.5, math.inf, math.nan])
def test_seconds_out_of_range_name_the_range(bad: float) -> None:
    with pytest.raises(ColoritError, match=r"^delay must be between 0 and 10 seconds, got "):
        seconds(bad, "delay", 10)


@pytest.mark.parametrize("bad", ["1", True, None])
def test_seconds_that_are_not_numbers(bad: object) -> None:
    with pytest.raises(ColoritError, match=r"^delay must be a number of seconds, got "):
        seconds(bad, "delay", 10)
