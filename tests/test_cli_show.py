"""``colorit show`` and the ``--plot`` options of ``compare`` and ``bench``: the pictures
a user asks for are written whole, are real images, and the terminal replay speaks
colour to a terminal and plain text to a pipe."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest
from PIL import GifImagePlugin, Image

from colorit.cli import main
from colorit.game.generate import random_board

ROOT = Path(__file__).resolve().parents[1]
BOARD14 = ROOT / "demofiles" / "board-14x14.csv"
SAMPLE = ROOT / "demofiles" / "sample.csv"


def env() -> dict[str, str]:
    e = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "COLORIT_CLOCK_START")}
    e["PYTHONPATH"] = str(ROOT) + os.pathsep + e.get("PYTHONPATH", "")
    e["TERM"] = "xterm-256color"
    return e


def run(*args: object) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "colorit", *map(str, args)], check=False, capture_output=True, timeout=60, env=env())


def moves_file(tmp_path: Path, board: Path, name: str = "moves.csv") -> Path:
    out = tmp_path / name
    assert main(["solve", str(board), str(out), "--algo", "greedy", "-q"]) == 0
    return out


def test_show_writes_a_gif_with_one_frame_per_move(tmp_path: Path) -> None:
    moves = moves_file(tmp_path, BOARD14)
    n_moves = len(moves.read_text().split())
    gif = tmp_path / "solve.gif"
    assert main(["show", str(BOARD14), str(moves), "-o", str(gif), "-q"]) == 0
    with Image.open(gif) as img:
        assert isinstance(img, GifImagePlugin.GifImageFile)
        assert img.n_frames == n_moves + 1
        img.seek(img.n_frames - 1)
        last = img.convert("RGB")
    # the last frame's board is one colour: sample the middle of the picture
    w, h = last.size
    assert len({last.getpixel((w // 2 + dx, h // 2 + dy)) for dx in (-20, 0, 20) for dy in (-20, 0, 20)}) == 1


def test_show_solves_first_and_writes_a_key_frame_png(tmp_path: Path) -> None:
    png = tmp_path / "solve.png"
    assert main(["show", str(BOARD14), "-o", str(png), "--time-limit", "5", "--labels", "numbers", "-q"]) == 0
    with Image.open(png) as img:
        assert img.format == "PNG"
        assert img.size[0] > 200 and img.size[1] > 100


def test_show_refuses_an_answer_that_does_not_solve_the_board(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text("0\n")
    out = tmp_path / "x.gif"
    assert main(["show", str(SAMPLE), str(bad), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.strip() == f"colorit: error: {bad}: invalid: after 1 moves the board still has 4 colours"
    assert not out.exists()


@pytest.mark.parametrize("target", ["input", "moves"])
def test_show_never_writes_over_an_input(tmp_path: Path, capsys: pytest.CaptureFixture[str], target: str) -> None:
    board = tmp_path / "board.gif"  # a board file whose name ends in .gif
    board.write_text(SAMPLE.read_text())
    moves = moves_file(tmp_path, board, "moves.gif")
    before = (board.read_bytes(), moves.read_bytes())
    out = board if target == "input" else moves
    assert main(["show", str(board), str(moves), "-o", str(out)]) == 2
    assert "refusing to write over it" in capsys.readouterr().err
    assert (board.read_bytes(), moves.read_bytes()) == before


def test_show_needs_a_gif_or_png_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", str(SAMPLE), "-o", str(tmp_path / "x.jpg")]) == 2
    assert "-o takes a .gif" in capsys.readouterr().err


def test_show_to_a_pipe_is_plain_text() -> None:
    proc = run("show", SAMPLE, "--algo", "astar")
    assert proc.returncode == 0, proc.stderr
    text = proc.stdout.decode()
    assert "\x1b[" not in text
    assert "move 1/" in text and "solved" in text


def test_the_terminal_replay_loads_no_picture_library(tmp_path: Path) -> None:
    """``show`` without ``-o`` (solving first, then replaying in the terminal) imports
    neither Pillow nor matplotlib: ``bin/colorit`` installs them only for pictures."""
    script = (
        "import sys; from colorit.cli import main; code = main(sys.argv[1:]); "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('PIL', 'matplotlib')), code, file=sys.stderr)"
    )
    proc = subprocess.run([sys.executable, "-c", script, "show", str(SAMPLE), "--delay", "0", "-q"],
                          check=False, capture_output=True, timeout=60, env=env())  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.decode().splitlines()[-1] == "[] 0", proc.stderr
    assert b"solved" in proc.stdout
    assert "move 1/" in proc.stdout.decode()


def test_show_to_a_terminal_is_true_colour() -> None:
    """A pseudo-terminal gets 24-bit colour escapes and the moves replayed in place."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: colorit on the terminal
        os.environ.clear()
        os.environ.update(env())
        os.execv(sys.executable, [sys.executable, "-m", "colorit", "show", str(SAMPLE), "--delay", "0.01"])
    chunks = []
    end = time.monotonic() + 60
    while time.monotonic() < end:
        ready, _, _ = select.select([fd], [], [], 1.0)
        if not ready:
            continue
        try:
            data = os.read(fd, 65536)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    _, status = os.waitpid(pid, 0)
    out = b"".join(chunks).decode("utf-8", "replace")
    assert os.waitstatus_to_exitcode(status) == 0, out
    assert "\x1b[38;2;" in out or "\x1b[48;2;" in out
    assert "\x1b[" in out and "A" in out  # the cursor moves up to redraw in place


def test_compare_plot_writes_a_png(tmp_path: Path) -> None:
    png = tmp_path / "compare.png"
    code = main(["compare", str(BOARD14), "--algos", "linear,greedy,astar", "--time-limit", "5", "--plot", str(png), "-q"])
    assert code == 0
    with Image.open(png) as img:
        assert img.format == "PNG" and img.size[0] >= 400


def test_bench_plot_writes_a_png(tmp_path: Path) -> None:
    boards = tmp_path / "set.txt"
    lines = []
    for seed in range(12):
        b = random_board(8, 8, 4, seed=seed)
        lines.append("".join(str(v + 1) for v in b.cells.ravel()))
    boards.write_text("\n".join(lines) + "\n")
    png = tmp_path / "bench.png"
    assert main(["bench", str(boards), "--algo", "greedy", "--plot", str(png), "-q"]) in (0, 1)
    with Image.open(png) as img:
        assert img.format == "PNG"


def test_show_to_a_pipe_prints_the_board_as_its_file_holds_it(tmp_path: Path) -> None:
    moves = tmp_path / "moves.csv"
    moves.write_text("1\n3\n2\n1\n0\n3\n")
    proc = run("show", SAMPLE, moves)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.decode().splitlines()
    assert lines[1:5] == [row.replace(",", "") for row in SAMPLE.read_text().split()]
    assert lines[5].startswith("move 1/6: id 1 (colour 2), flood")
    assert lines[-5:] == ["solved:"] + ["3333"] * 4


def test_show_spells_a_game_id_s_colours_as_the_id_does(tmp_path: Path) -> None:
    board = tmp_path / "flood.txt"
    board.write_text("3x2:0A1B2C,9\n")
    proc = run("show", board, "--algo", "astar")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.decode().splitlines()
    assert lines[1] == "key: A = id 10 (colour 4), B = id 11 (colour 5), C = id 12 (colour 6)"
    assert lines[2:4] == ["0A1", "B2C"]
