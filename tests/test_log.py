"""``colorit.log.Progress``: how far a batch is, as a bar on a terminal and as a line
every few percent or seconds elsewhere."""

from __future__ import annotations

import io
import re

import pytest

import colorit.log as log_module
from colorit.log import Progress

PLAIN = re.compile(r"^colorit bench: (\d+)/(\d+) boards \((\d+)%\)(, [^,]+ moves)?, \d+ s(, about \d+ s left)?$")


class FakeTime:
    """Stands in for the ``time`` module in ``core``: a clock the test moves."""

    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


class TTY(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_off_a_terminal_is_a_line_per_few_percent() -> None:
    stream = io.StringIO()
    progress = Progress(1000, "board", label="bench", stream=stream)
    for k in range(1000):
        progress.update(1, note=f"{k} moves")
    progress.close()
    lines = stream.getvalue().splitlines()
    assert 10 <= len(lines) <= 22, lines
    counts = []
    for line in lines:
        m = PLAIN.match(line)
        assert m, line
        counts.append(int(m.group(1)))
        assert int(m.group(2)) == 1000 and int(m.group(3)) == round(counts[-1] / 10)
    assert counts == sorted(set(counts))
    assert counts[-1] == 1000 and lines[-1].startswith("colorit bench: 1000/1000 boards (100%), 999 moves")


def test_progress_a_line_every_ten_seconds(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = FakeTime()
    monkeypatch.setattr(log_module, "time", clock)
    stream = io.StringIO()
    progress = Progress(10_000, "board", label="bench", stream=stream)  # 1 board is 0.01%
    clock.now += 9.0
    progress.update(1)
    assert stream.getvalue() == ""  # 9 s and 0.01%: no line yet
    clock.now += 1.5
    progress.update(1)
    assert stream.getvalue().splitlines() == ["colorit bench: 2/10000 boards (0%), 10 s, about 52490 s left"]
    clock.now += 5.0
    progress.update(1)
    assert len(stream.getvalue().splitlines()) == 1  # 5 s since the last line
    clock.now += 5.0
    progress.update(1)
    assert stream.getvalue().splitlines()[-1].startswith("colorit bench: 4/10000 boards (0%), 20 s")
    clock.now += 30.0
    progress.update(0)  # no new board: no line, however long it has been
    assert len(stream.getvalue().splitlines()) == 2


def test_progress_last_line_at_close() -> None:
    stream = io.StringIO()
    progress = Progress(10, "algorithm", label="compare", stream=stream, every_pct=50)
    progress.update(3, note="greedy: 12 moves")
    assert stream.getvalue() == ""
    progress.close()
    assert stream.getvalue() == "colorit compare: 3/10 algorithms (30%), greedy: 12 moves, 0 s, about 0 s left\n"
    progress.close()  # nothing new: no second line
    assert stream.getvalue().count("\n") == 1


def test_progress_on_a_terminal_is_a_bar_not_lines() -> None:
    stream = TTY()
    progress = Progress(200, "board", label="bench", stream=stream)
    for _ in range(200):
        progress.update(1, note="3 moves")
    progress.close()
    text = stream.getvalue()
    assert "200/200" in text and "\r" in text  # the bar was drawn
    assert not any(PLAIN.match(line) for line in re.split(r"[\r\n]", text))


@pytest.mark.parametrize("stream", [io.StringIO(), TTY()], ids=["pipe", "tty"])
def test_progress_disabled_or_empty_says_nothing(stream: io.StringIO) -> None:
    for progress in (
        Progress(50, "board", label="bench", stream=stream, enabled=False),
        Progress(0, "board", label="bench", stream=stream),
    ):
        for _ in range(50):
            progress.update(1)
        progress.close()
    assert stream.getvalue() == ""


@pytest.mark.parametrize(
    ("n", "noun", "many", "text"),
    [(1, "board", "", "1 board"), (0, "board", "", "0 boards"), (3, "move", "", "3 moves"), (2, "index", "indices", "2 indices")],
)
def test_plural_is_singular_for_one(n: int, noun: str, many: str, text: str) -> None:
    assert log_module.plural(n, noun, many) == text


def test_progress_of_one_item_is_singular() -> None:
    stream = io.StringIO()
    progress = Progress(1, "board", label="bench", stream=stream)
    progress.update(1, note="1 move")
    progress.close()
    assert stream.getvalue().startswith("colorit bench: 1/1 board (100%), 1 move, ")
