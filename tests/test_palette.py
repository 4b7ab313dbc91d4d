"""``colorit.palette``: one numbering a person reads. A colour's number is its code + 1;
number labels, captions, the terminal's status line and the page's buttons and keys
all show it, with the id beside it where the id differs."""

from __future__ import annotations

import pytest

from colorit import palette


def test_a_colour_s_number_is_its_code_plus_one() -> None:
    assert [palette.number(c) for c in range(4)] == [1, 2, 3, 4]
    with pytest.raises(ValueError):
        palette.number(-1)


@pytest.mark.parametrize(
    ("code", "ident", "name"),
    [
        (0, None, "colour 1"),
        (0, 1, "colour 1"),  # ids 1..C: the id is the number
        (0, 0, "colour 1 (id 0)"),  # ids 0..C-1: one apart, so both are said
        (2, 2, "colour 3 (id 2)"),
        (1, -7, "colour 2 (id -7)"),
        (4, 2**63 - 1, f"colour 5 (id {2**63 - 1})"),
    ],
)
def test_name(code: int, ident: int | None, name: str) -> None:
    assert palette.name(code, ident) == name


def test_number_labels_show_the_number() -> None:
    assert [palette.label(c, "numbers") for c in range(12)] == [str(palette.number(c)) for c in range(12)]


def test_the_page_s_palette_carries_the_numbers() -> None:
    doc = palette.as_json(5)
    assert doc["numbers"] == [1, 2, 3, 4, 5]
    assert len(doc["colours"]) == len(doc["numbers"])
