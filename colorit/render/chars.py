"""The character each colour is drawn as in text, and the key from characters to ids.

A board file holds colour ids, so text shows a board by its own ids where every id fits
one character: ``0``-``9``, then ``a``-``z`` for ids 10 to 35, as the community's set
files spell them (a game ID of Simon Tatham's Flood passes its own ``0``-``9``,
``A``-``Z``). Other boards, and ``labels="numbers"``, show each colour's number
(``palette.number``, as the pictures and the status line name colours): ``1``-``9``, then
``a``-``z`` and ``A``-``Z``, and ``?`` past 61 colours; ``labels="symbols"`` shows the
palette's shapes. Wherever a character is not its colour's id, the key says which id
(and number) it stands for: ``key: 1 = id 0, 2 = id 1`` or ``key: a = id 10 (colour 11)``.

Pure Python, like the terminal view that uses it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .. import palette as pal
from ._options import check_labels

#: The character of colour id ``i`` where every id of a board is below 36.
ID_CHARS = "0123456789abcdefghijklmnopqrstuvwxyz"
#: The character of colour code ``c`` where ids do not fit, or numbers are asked for.
NUMBER_CHARS = "123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
#: The character of colours past ``NUMBER_CHARS``.
OTHER_CHAR = "?"
#: The most entries a key lists (shapes repeat past 12 colours; a key stays a few lines).
MAX_KEY_ENTRIES = 64


@dataclass(frozen=True)
class CellChars:
    """The character of each colour code (``chars``), the board's colour ids by code
    (``ids``; ``None`` for a grid of codes alone, whose key names numbers only), and
    whether the characters spell the ids (``by_id``) or stand for colours by code."""

    chars: tuple[str, ...]
    ids: tuple[int, ...] | None = None
    by_id: bool = False

    def __getitem__(self, code: int) -> str:
        return self.chars[code]

    def key_entries(self) -> list[str]:
        """``"a = id 10 (colour 11)"`` for every character that is not its colour's id
        (not its number either, without ids), the colours drawn as ``?`` in one entry;
        past ``MAX_KEY_ENTRIES``, one entry counting the colours left out."""
        entries: list[str] = []
        others: list[int] = []
        for code, char in enumerate(self.chars):
            number = pal.number(code)
            if char == OTHER_CHAR:
                others.append(number)
            elif len(entries) == MAX_KEY_ENTRIES:
                entries.append(f"and {len(self.chars) - code} more colours")
                break
            elif self.ids is None:
                if char != str(number):
                    entries.append(f"{char} = colour {number}")
            elif char != str(self.ids[code]):
                entries.append(f"{char} = id {self.ids[code]}" + ("" if char == str(number) else f" (colour {number})"))
        if others:
            many = f"colours {others[0]} to {others[-1]}" if len(others) > 1 else f"colour {others[0]}"
            entries.append(f"{OTHER_CHAR} = {many}")
        return entries

    def key_lines(self, width: int = 80, max_lines: int | None = None) -> list[str]:
        """The key as lines ("key: " first) of at most ``width`` columns where entries
        allow (an entry is never split), at most ``max_lines`` of them, the last then
        saying how many entries it leaves out; no lines where every character is its id."""
        entries = self.key_entries()
        items = [f"{e}," for e in entries[:-1]] + entries[-1:]
        rows: list[list[str]] = []
        for item in items:
            if rows and len(_key_line(len(rows) == 1, rows[-1] + [item])) <= width:
                rows[-1].append(item)
            else:
                rows.append([item])
        if max_lines is None or len(rows) <= max(1, max_lines):
            return [_key_line(i == 0, row) for i, row in enumerate(rows)]
        rows = rows[: max(1, max_lines)]
        left_out = len(items) - sum(len(row) for row in rows)
        lines = [_key_line(i == 0, row) for i, row in enumerate(rows)]
        lines[-1] = lines[-1].rstrip(",") + f" ... ({left_out} more)"
        return lines


def _key_line(first: bool, items: list[str]) -> str:
    return ("key: " if first else "     ") + " ".join(items)


def cell_chars(
    ids: Sequence[int] | None, labels: str = "none", *, n_colours: int | None = None, id_chars: str = ID_CHARS
) -> CellChars:
    """The characters of a board whose colour ids, by code, are ``ids`` (increasing, as
    ``Board.palette``); with ``ids=None``, of ``n_colours`` colours known by code alone.
    ``id_chars``: the character of each id where every id has one (by default 0-9, a-z)."""
    labels = check_labels(labels)
    n = len(ids) if ids is not None else n_colours
    if n is None or n < 1:
        raise ValueError("cell_chars needs the board's ids or its number of colours")
    kept_ids = None if ids is None else tuple(int(i) for i in ids)
    if labels == "symbols":
        chars = tuple(pal.label(code, "symbols") for code in range(n))
    elif labels == "none" and kept_ids is not None and min(kept_ids) >= 0 and max(kept_ids) < len(id_chars):
        return CellChars(tuple(id_chars[i] for i in kept_ids), kept_ids, by_id=True)
    else:
        chars = tuple(NUMBER_CHARS[code] if code < len(NUMBER_CHARS) else OTHER_CHAR for code in range(n))
    return CellChars(chars, kept_ids)
