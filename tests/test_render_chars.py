"""The characters of a board in text: its own ids where each fits one character, else
numbers or symbols, and a key from every other character to its id and number."""

from __future__ import annotations

import pytest

from colorit import ColoritError, palette
from colorit.io.gameid import DIGITS
from colorit.render.chars import MAX_KEY_ENTRIES, NUMBER_CHARS, OTHER_CHAR, cell_chars


def test_ids_of_one_digit_are_shown_as_they_are() -> None:
    chars = cell_chars([0, 2, 3, 9])
    assert chars.chars == ("0", "2", "3", "9") and chars.by_id
    assert chars.key_entries() == [] and chars.key_lines() == []


def test_ids_up_to_35_take_letters_with_a_key_for_them() -> None:
    chars = cell_chars([1, 9, 10, 35])
    assert chars.chars == ("1", "9", "a", "z") and chars.by_id
    assert chars.key_entries() == ["a = id 10 (colour 3)", "z = id 35 (colour 4)"]
    # a game ID spells them in its own alphabet
    assert cell_chars([0, 10, 11], id_chars=DIGITS).chars == ("0", "A", "B")


@pytest.mark.parametrize("ids", [[-1, 0, 1], [0, 36], [5, 2**40]])
def test_other_ids_are_drawn_by_number_with_a_key(ids: list[int]) -> None:
    chars = cell_chars(ids)
    assert chars.chars == tuple(NUMBER_CHARS[: len(ids)]) and not chars.by_id
    assert chars.key_entries() == [f"{code + 1} = id {i}" for code, i in enumerate(ids) if str(code + 1) != str(i)]


def test_numbers_and_symbols_on_request() -> None:
    numbers = cell_chars([0, 1, 2], "numbers")
    assert numbers.chars == ("1", "2", "3") and not numbers.by_id
    assert numbers.key_entries() == ["1 = id 0", "2 = id 1", "3 = id 2"]
    assert cell_chars([1, 2, 3], "numbers").key_entries() == []  # the numbers are the ids
    symbols = cell_chars([1, 2], "symbols")
    assert symbols.chars == (palette.label(0, "symbols"), palette.label(1, "symbols"))
    assert symbols.key_entries() == [f"{symbols[0]} = id 1 (colour 1)", f"{symbols[1]} = id 2 (colour 2)"]


def test_a_grid_of_codes_alone_is_drawn_by_number() -> None:
    chars = cell_chars(None, n_colours=12)
    assert chars.chars == tuple(NUMBER_CHARS[:12]) and chars.ids is None
    assert chars.key_entries() == ["a = colour 10", "b = colour 11", "c = colour 12"]
    with pytest.raises(ValueError, match="number of colours"):
        cell_chars(None)
    with pytest.raises(ColoritError, match="labels must be one of"):
        cell_chars([1], "emoji")


def test_past_61_colours_one_key_entry_names_the_rest() -> None:
    ids = [10 * i for i in range(70)]
    chars = cell_chars(ids)
    assert chars[60] == "Z" and chars[61] == chars[69] == OTHER_CHAR
    entries = chars.key_entries()
    assert entries[-1] == f"{OTHER_CHAR} = colours 62 to 70" and len(entries) == 62  # id 0 is "1", in the key too
    assert cell_chars(ids[:62]).key_entries()[-1] == f"{OTHER_CHAR} = colour 62"
    many = cell_chars(list(range(1000)), "symbols").key_entries()
    assert len(many) == MAX_KEY_ENTRIES + 1 and many[-1] == f"and {1000 - MAX_KEY_ENTRIES} more colours"


def test_key_lines_wrap_between_entries_and_can_be_cut_short() -> None:
    chars = cell_chars([-(10**6) - i for i in range(20)][::-1])
    entries = chars.key_entries()
    lines = chars.key_lines(60)
    assert lines[0].startswith("key: 1 = id ") and all(line.startswith("     ") for line in lines[1:])
    assert all(len(line) <= 60 for line in lines) and len(lines) > 2
    assert " ".join(line.strip() for line in lines) == "key: " + ", ".join(entries)
    cut = chars.key_lines(60, max_lines=2)
    assert cut[0] == lines[0] and cut[1].startswith(lines[1].rstrip(","))
    shown = " ".join(cut).count(" = id ")
    assert cut[1].endswith(f" ... ({len(entries) - shown} more)")
    assert chars.key_lines(5)[0].startswith("key: 1 = id")  # an entry wider than the line is kept whole

