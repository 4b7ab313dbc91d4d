"""The terminal view: when colour is used, true-colour half blocks and labelled cells,
plain characters without a single escape, scaling to the terminal, and replays checked
on a small screen model that obeys the same cursor moves a terminal does."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys

import numpy as np
import pytest

from colorit import Board, ColoritError, palette, solve
from colorit.game.generate import random_board
from colorit.render.chars import NUMBER_CHARS
from colorit.render.terminal import board_text, replay, supports_colour

SGR = re.compile(r"\x1b\[[0-9;]*m")
ESCAPE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


@pytest.fixture(scope="module")
def game() -> tuple[Board, tuple[int, ...]]:
    board = random_board(9, 7, 5, seed=11)
    return board, solve(board, "greedy").moves


def visible(line: str) -> str:
    return ESCAPE.sub("", line)


class Screen:
    """Just enough of a terminal for replay's output: text, CR, LF, cursor up, erase to
    the end of the line; colours are kept in the line text."""

    def __init__(self) -> None:
        self.lines: list[str] = [""]
        self.row = 0
        self.at_line_start = True

    def feed(self, data: str) -> None:
        token = re.compile(r"\x1b\[(\d*)A|\x1b\[K|\x1b\[\?25[lh]|\r|\n|(?:\x1b\[[0-9;]*m|[^\x1b\r\n])+")
        pos = 0
        while pos < len(data):
            m = token.match(data, pos)
            assert m, f"unexpected output at {data[pos : pos + 20]!r}"
            text = m.group(0)
            if text.startswith("\x1b[") and text.endswith("A"):
                self.row -= int(m.group(1) or 1)
                assert self.row >= 0
            elif text == "\r":
                self.at_line_start = True
            elif text == "\n":
                self.row += 1
                self.at_line_start = True
                while len(self.lines) <= self.row:
                    self.lines.append("")
            elif text in ("\x1b[K", "\x1b[?25l", "\x1b[?25h"):
                pass
            else:
                self.lines[self.row] = text if self.at_line_start else self.lines[self.row] + text
                self.at_line_start = False
            pos = m.end()


def test_supports_colour() -> None:
    master, slave = os.openpty()
    try:
        with open(slave, "w", closefd=False) as tty:
            assert supports_colour(tty, env={"TERM": "xterm-256color"})
            assert not supports_colour(tty, env={"TERM": "xterm-256color", "NO_COLOR": "1"})
            assert not supports_colour(tty, env={"TERM": "dumb"})
            assert supports_colour(tty, env={"TERM": "xterm", "NO_COLOR": ""})  # empty means unset
    finally:
        os.close(master)
        os.close(slave)
    assert not supports_colour(io.StringIO(), env={"TERM": "xterm"})
    closed = io.StringIO()
    closed.close()
    assert not supports_colour(closed, env={})
    assert not supports_colour(object(), env={})


def test_no_color_in_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    master, slave = os.openpty()
    try:
        with open(slave, "w", closefd=False) as tty:
            monkeypatch.setenv("TERM", "xterm")
            monkeypatch.delenv("NO_COLOR", raising=False)
            assert supports_colour(tty)
            monkeypatch.setenv("NO_COLOR", "1")
            assert not supports_colour(tty)
    finally:
        os.close(master)
        os.close(slave)


def test_colour_half_blocks(game: tuple[Board, tuple[int, ...]]) -> None:
    board, _ = game
    text = board_text(board, colour=True)
    assert "\x1b[38;2;" in text and "\x1b[48;2;" in text
    lines = text.rstrip("\n").split("\n")
    assert len(lines) == (board.height + 1) // 2
    assert all(visible(line) == "▀" * board.width for line in lines)
    # the first character's colours are the top-left cell (fg) and the one below it (bg)
    fg = "\x1b[38;2;{};{};{}m".format(*palette.rgb(palette.colour(int(board.codes[0, 0]))))
    bg = "\x1b[48;2;{};{};{}m".format(*palette.rgb(palette.colour(int(board.codes[1, 0]))))
    assert lines[0].startswith(fg + bg)
    # the odd last row has the default background under it
    assert "\x1b[49m" in lines[-1]


def test_plain_text_has_no_escapes(game: tuple[Board, tuple[int, ...]]) -> None:
    board, _ = game
    text = board_text(board, colour=False)
    assert "\x1b" not in text
    lines = text.rstrip("\n").split("\n")
    assert lines == ["".join(str(v) for v in row) for row in board.cells.tolist()]  # the ids 0-4
    codes = board_text(board.codes, colour=False).rstrip("\n").split("\n")  # a grid alone: numbers
    assert codes == ["".join(NUMBER_CHARS[c] for c in row) for row in board.codes.tolist()]
    symbols = board_text(board, colour=False, labels="symbols").rstrip("\n").split("\n")
    assert symbols == ["".join(palette.label(c, "symbols") for c in row) for row in board.codes.tolist()]


def test_labelled_colour_cells(game: tuple[Board, tuple[int, ...]]) -> None:
    board, _ = game
    text = board_text(board, colour=True, labels="numbers")
    lines = text.rstrip("\n").split("\n")
    assert len(lines) == board.height
    # two columns a cell: the label and a space, on the cell's colour
    assert [visible(line) for line in lines] == [
        "".join(NUMBER_CHARS[c] + " " for c in row) for row in board.codes.tolist()
    ]
    assert "\x1b[48;2;" in text
    narrow = board_text(board, colour=True, labels="numbers", max_width=board.width)
    assert [visible(line) for line in narrow.rstrip("\n").split("\n")] == [
        "".join(NUMBER_CHARS[c] for c in row) for row in board.codes.tolist()
    ]
    # the flood's cells lose their labels, as in the replay pictures
    flood = np.zeros(board.codes.shape, dtype=bool)
    flood[0, :3] = True
    marked = board_text(board, colour=True, labels="numbers", flooded=flood).split("\n")
    assert visible(marked[0]) == "      " + visible(lines[0])[6:]
    assert marked[1:] == text.split("\n")[1:]
    assert board_text(board, colour=False, flooded=flood) == board_text(board, colour=False)


def test_wide_boards_are_scaled_with_a_note() -> None:
    board = random_board(300, 40, 4, seed=3)
    text = board_text(board, colour=True, max_width=80)
    lines = text.rstrip("\n").split("\n")
    assert lines[-1] == "(the 300x40 board shown at 1/4 scale: every 4th cell each way)"
    assert all(len(visible(line)) <= 80 for line in lines[:-1])
    assert len(lines) - 1 == (40 // 4 + 1) // 2
    plain = board_text(board, colour=False, max_width=100, max_height=30).rstrip("\n").split("\n")
    assert all(len(line) <= 100 for line in plain) and len(plain) <= 30
    assert len(board_text(board, colour=False).split("\n")) == 41  # no limits, no scaling


def test_replay_in_colour_draws_every_position_in_place(game: tuple[Board, tuple[int, ...]]) -> None:
    board, moves = game
    out = io.StringIO()
    naps: list[float] = []
    replay(board, moves, out, delay=0.07, colour=True, sleep=naps.append, max_width=80, max_height=30)
    data = out.getvalue()
    assert naps == [0.07] * len(moves)
    statuses = re.findall(r"move (\d+)/(\d+)", data)
    assert [int(k) for k, _ in statuses] == list(range(len(moves) + 1))  # moves + 1 board states
    assert data.startswith("\x1b[?25l") and data.endswith("\x1b[?25h")
    screen = Screen()
    screen.feed(data)
    final = board.replay(moves)
    expected = board_text(board.codes_of(final.ravel().tolist()).reshape(final.shape), colour=True)
    rows = (board.height + 1) // 2
    assert screen.lines[:rows] == expected.rstrip("\n").split("\n")
    assert visible(screen.lines[rows]).startswith(f"move {len(moves)}/{len(moves)}")
    assert visible(screen.lines[rows]).endswith("solved")
    assert [visible(line) for line in screen.lines[rows + 1 :]] == [""]


def test_replay_plain_has_no_escapes_and_no_waiting(game: tuple[Board, tuple[int, ...]]) -> None:
    board, moves = game
    out = io.StringIO()
    naps: list[float] = []
    replay(board, moves, out, colour=False, sleep=naps.append)
    text = out.getvalue()
    assert "\x1b" not in text and naps == []
    lines = text.rstrip("\n").split("\n")
    start = board_text(board, colour=False).rstrip("\n").split("\n")
    assert lines[1 : 1 + board.height] == start
    move_lines = [line for line in lines if line.startswith("move ")]
    assert len(move_lines) == len(moves)
    assert move_lines[-1].endswith(f"flood {board.height * board.width} of {board.height * board.width} cells")
    assert lines[-board.height - 1] == "solved:"
    assert len(set("".join(lines[-board.height :]))) == 1


def test_replay_follows_no_color(game: tuple[Board, tuple[int, ...]], monkeypatch: pytest.MonkeyPatch) -> None:
    board, moves = game
    master, slave = os.openpty()
    try:
        with open(slave, "w", closefd=False) as tty:
            monkeypatch.setenv("NO_COLOR", "1")
            assert not supports_colour(tty)
    finally:
        os.close(master)
        os.close(slave)
    out = io.StringIO()
    replay(board, moves, out, colour=supports_colour(out), sleep=lambda s: None)
    assert "\x1b" not in out.getvalue()


def test_replay_to_a_pseudo_terminal(game: tuple[Board, tuple[int, ...]]) -> None:
    board, moves = game
    master, slave = os.openpty()
    chunks = []
    try:
        with open(slave, "w", closefd=False, encoding="utf-8") as tty:
            replay(board, moves[:2], tty, delay=0, colour=True, sleep=lambda s: None)
        os.set_blocking(master, False)
        while True:
            try:
                chunk = os.read(master, 65536)
            except BlockingIOError:
                break
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(master)
        os.close(slave)
    data = b"".join(chunks).decode("utf-8")
    assert "\x1b[38;2;" in data and "\x1b[48;2;" in data and "move 2/2" in data


def test_replay_of_a_board_wider_than_the_terminal() -> None:
    board = random_board(200, 60, 4, seed=5)
    moves = solve(board, "greedy").moves
    out = io.StringIO()
    replay(board, moves, out, colour=True, sleep=lambda s: None, max_width=80, max_height=20)
    screen = Screen()
    screen.feed(out.getvalue())
    shown = [visible(line) for line in screen.lines if visible(line)]
    assert all(len(line) <= 80 for line in shown)
    assert shown[-2] == "(the 200x60 board shown at 1/3 scale: every 3rd cell each way)"
    assert len(shown) == 60 // 3 // 2 + 2 <= 20


@pytest.mark.parametrize("labels", ["none", "numbers", "symbols"])
@pytest.mark.parametrize(("width", "height"), [(1, 1), (0, 0), (3, 2), (-5, 4)])
def test_tiny_terminals_end_on_a_one_cell_view(labels: str, width: int, height: int) -> None:
    board = random_board(30, 20, 4, seed=1)
    text = board_text(board, colour=True, labels=labels, max_width=width, max_height=height)
    lines = text.rstrip("\n").split("\n")
    assert len(lines) == 2 and "shown at 1/" in lines[-1]  # one cell (or half block) and the note
    out = io.StringIO()
    replay(board, (0, 1), out, colour=True, labels=labels, sleep=lambda s: None, max_width=width, max_height=height)
    screen = Screen()
    screen.feed(out.getvalue())
    shown = [visible(line) for line in screen.lines if visible(line)]
    if labels == "none":
        assert len(shown) == 3  # the cell, the note, the status: redrawn in place
    else:  # the key (one line at most here) above them
        assert len(shown) == 4 and shown[0].startswith("key: ")
    assert len(shown[-1]) <= max(1, width)  # a status line that wrapped would break the redraw


def test_status_lines_fit_narrow_terminals() -> None:
    board = Board.from_rows([[-(2**62), 5], [5, 5]])
    for width in (60, 30, 12, 7, 3):
        out = io.StringIO()
        replay(board, [5], out, colour=True, sleep=lambda s: None, max_width=width, max_height=10)
        screen = Screen()
        screen.feed(out.getvalue())
        status = [visible(line) for line in screen.lines if visible(line)][-1]
        assert len(status) <= width and status.startswith(("move 1/1", "1/1"))


def test_bad_options(game: tuple[Board, tuple[int, ...]]) -> None:
    board, moves = game
    with pytest.raises(ColoritError, match="labels must be one of none, numbers, symbols"):
        board_text(board, colour=True, labels="emoji")
    with pytest.raises(ColoritError, match="delay must be between 0 and 10 seconds"):
        replay(board, moves, io.StringIO(), delay=-1)
    with pytest.raises(ColoritError, match="2-d grid"):
        board_text([1, 2, 3], colour=False)  # type: ignore[list-item]
    with pytest.raises(ColoritError, match="flooded must have the board's shape"):
        board_text(board, colour=True, flooded=np.zeros((2, 2), dtype=bool))


def test_importing_the_package_and_terminal_loads_no_imaging_library() -> None:
    code = (
        "import sys, colorit.render, colorit.render.terminal\n"
        "heavy = [m for m in ('PIL', 'matplotlib') if m in sys.modules]\n"
        "print(heavy)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], check=False, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_the_status_line_names_the_number_its_labels_show() -> None:
    """Ids 0..C-1: the label in a cell and the caption say the same number (code + 1),
    and the caption gives the id too."""
    board = Board.from_rows([[0, 1], [2, 0]])
    out = io.StringIO()
    replay(board, [1, 2, 0], out, colour=True, labels="numbers", sleep=lambda s: None, max_width=80, max_height=20)
    text = out.getvalue()
    assert "colour 1 (id 0)  start" in text
    assert "colour 2 (id 1)" in text and "colour 3 (id 2)" in text
    assert "colour 0" not in text.replace("(id 0)", "")
    plain = io.StringIO()
    replay(board, [1, 2, 0], plain, colour=False, labels="numbers", sleep=lambda s: None)
    moves = [line for line in plain.getvalue().splitlines() if line.startswith("move ")]
    assert moves[0].startswith("move 1/3: colour 2 (id 1), flood")
    # the cells' characters are the same numbers, and the key gives their ids
    lines = plain.getvalue().splitlines()
    assert lines[1:4] == ["key: 1 = id 0, 2 = id 1, 3 = id 2", "12", "31"]


SAMPLE_ROWS = [[2, 3, 0, 3], [1, 2, 2, 1], [3, 0, 1, 1], [2, 1, 0, 0]]


def test_the_plain_replay_shows_the_board_s_own_ids() -> None:
    """The cells read as the file does, and each move names the id its cells show."""
    board = Board.from_rows(SAMPLE_ROWS)
    moves = [1, 3, 2, 1, 0, 3]
    out = io.StringIO()
    replay(board, moves, out, colour=False)
    lines = out.getvalue().splitlines()
    assert lines[:5] == ["start: 4x4 board, 4 colours, 6 moves", "2303", "1221", "3011", "2100"]
    assert lines[5] == "move 1/6: id 1 (colour 2), flood 2 of 16 cells"
    assert lines[10] == "move 6/6: id 3 (colour 4), flood 16 of 16 cells"
    assert lines[11:] == ["solved:", "3333", "3333", "3333", "3333"]
    one_based = io.StringIO()
    replay(Board.from_rows([[1, 2], [2, 2]]), [2], one_based, colour=False)
    assert one_based.getvalue().splitlines()[3] == "move 1/1: id 2, flood 4 of 4 cells"


def test_ids_without_a_character_each_get_numbers_and_a_key() -> None:
    board = Board.from_rows([[10, 11, 3], [3, -2, 10]])
    out = io.StringIO()
    replay(board, [11, 3, -2, 10], out, colour=False)
    lines = out.getvalue().splitlines()
    assert lines[1] == "key: 1 = id -2, 2 = id 3, 3 = id 10, 4 = id 11"
    assert lines[2:4] == ["342", "213"]
    assert lines[4] == "move 1/4: colour 4 (id 11), flood 2 of 6 cells"
    letters = io.StringIO()
    replay(Board.from_rows([[1, 12, 3], [3, 11, 10]]), [12, 3, 10, 11], letters, colour=False)
    lines = letters.getvalue().splitlines()
    assert lines[1:4] == ["key: a = id 10 (colour 3), b = id 11 (colour 4), c = id 12 (colour 5)", "1c3", "3ba"]
    assert lines[4] == "move 1/4: id 12 (colour 5), drawn as c, flood 2 of 6 cells"


def test_the_key_stays_above_the_board_redrawn_in_place() -> None:
    board = Board.from_rows(SAMPLE_ROWS)
    out = io.StringIO()
    replay(board, [1, 3, 2, 1, 0, 3], out, colour=True, labels="numbers", sleep=lambda s: None, max_width=40, max_height=12)
    screen = Screen()
    screen.feed(out.getvalue())
    shown = [visible(line) for line in screen.lines if visible(line)]
    assert shown[0] == "key: 1 = id 0, 2 = id 1, 3 = id 2,"
    assert shown[1] == "     4 = id 3"
    assert shown[2:6] == [" " * 8] * 4  # the solved board: all flooded, so no labels
    assert shown[6].startswith("move 6/6") and shown[6].endswith("solved") and len(shown) == 7
