"""What the tests share: where the community's benchmark sets are, the hand board most
tests start from, a few small random boards, and the ``colorit`` runner.

The datasets folder is named here and nowhere else in the tests: ``$COLORIT_DATASETS``,
else ``../shared/datasets`` beside the checkout. It is missing in a clean clone, where
the tests that need it skip. ``DATASETS`` is the folder for parametrizing and for tests
that do without it; the ``datasets`` fixture skips where it is absent, and
``dataset_file`` where one file of it is.

The browser tests' fixtures (one server and one headless Chromium per module) are
``browser_support``'s, registered here as a plugin.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

# the suite runs the kernels on numba's JIT, as it always has (its own kernels use the
# intrinsics numba defines); tests/test_aot.py runs the modules compiled ahead of time
os.environ.setdefault("COLORIT_NO_AOT", "1")

import pytest  # noqa: E402

from colorit import Board  # noqa: E402
from colorit.game.generate import random_board  # noqa: E402

pytest_plugins = ["browser_support"]

ROOT = Path(__file__).resolve().parents[1]
#: Where the community's benchmark sets are (missing in a clean clone: tests skip).
DATASETS = Path(os.environ.get("COLORIT_DATASETS") or ROOT.parent / "shared" / "datasets")

#: The hand board of the tests: 3 colours, optimum 4 from the top-left corner, whose
#: regions and answers several test files work out by hand.
HAND_ROWS = [[1, 2, 0, 0], [0, 1, 1, 0], [2, 2, 0, 1], [0, 0, 0, 1]]
#: The hand board as a CSV file holds it.
HAND_CSV = "".join(",".join(map(str, row)) + "\n" for row in HAND_ROWS)
#: The fewest moves that flood the hand board from the top-left corner.
HAND_OPTIMUM = 4

#: Game IDs of Simon Tatham's Flood that the parsers (Python's and the page's) refuse: the
#: text, the column the error names, and a fragment of its message.
BAD_GAME_IDS = [
    ("", 1, "empty game ID"),
    ("   ", 4, "empty game ID"),
    ("x4:0000,1", 1, "expected the width"),
    ("4y4:0,1", 2, "expected 'x' between the width and the height"),
    ("4x:0,1", 3, "expected the height"),
    ("0x4:,1", 1, "a 0x4 board has no cells"),
    ("9999x9999:0,1", 1, "more than 50,000,000 cells"),
    ("2x2c37m0:0000,1", 5, "37 colours are more than the 36"),
    ("2x2c0:0000,1", 5, "at least 1 colour"),
    ("2x2cm0:0000,1", 5, "expected the number of colours"),
    ("2x2c3mx:0000,1", 7, "expected the extra moves"),
    ("2x2c3m0 0000,1", 8, "expected ':' after the parameters"),
    ("2x2", 4, "expected ':'"),
    ("2x2:000,1", 8, "the description has 3 cells, a 2x2 board needs 4"),
    ("2x2:00000,1", 9, "the description has 5 cells, a 2x2 board needs 4"),
    ("2x2:0000", 9, "expected ',' and the move limit"),
    ("2x2:00a0,1", 7, "'a' is not a colour (0-9, A-Z)"),
    ("2x2:00-0,1", 7, "'-' is not a colour"),
    ("2x2c3m1:0030,1", 11, "'3' is colour 3, but the parameters give 3 colours (0 to 2)"),
    ("2x2:0000,", 10, "expected the move limit (a whole number), found the end of the line"),
    ("2x2:0000,x", 10, "expected the move limit (a whole number), found 'x'"),
    ("2x2:0000,-3", 10, "expected the move limit"),
    ("2x2:0000,12345678901", 10, "the move limit 12345678901 is more than 1000000000"),
    ("2x2:0000,3,4", 11, "unexpected ',' after the move limit"),
    ("2x2:0000,3 junk", 11, "unexpected ' ' after the move limit"),
]


def dataset_path(name: str) -> Path:
    """The file ``name`` of the benchmark sets; the calling test is skipped where it is missing."""
    path = DATASETS / name
    if not path.is_file():
        pytest.skip(f"benchmark set {name} not found in {DATASETS} (set COLORIT_DATASETS)")
    return path


@pytest.fixture(scope="session")
def datasets() -> Path:
    """The folder of the benchmark sets (the test is skipped where it is absent)."""
    if not DATASETS.is_dir():
        pytest.skip(f"no benchmark sets at {DATASETS} (set COLORIT_DATASETS)")
    return DATASETS


@pytest.fixture(scope="session")
def dataset_file(datasets: Path) -> Callable[[str], Path]:
    """``dataset_file(name)``: a file of the benchmark sets, the test skipped where the
    folder or the file is missing."""
    return dataset_path


@pytest.fixture()
def hand_board() -> Board:
    """The hand board (``HAND_ROWS``) from the top-left corner."""
    return Board.from_rows(HAND_ROWS)


@pytest.fixture()
def hand_csv(tmp_path: Path) -> Path:
    """The hand board in a CSV file, ``board.csv`` in the test's own folder."""
    path = tmp_path / "board.csv"
    path.write_text(HAND_CSV)
    return path


@pytest.fixture(scope="session")
def small_boards() -> list[Board]:
    """A few small random boards of varied shapes, colours and start cells (seeded: the
    same every run), for tests that check a property on more than the hand board."""
    return [
        random_board(5, 5, 3, seed=1),
        random_board(7, 4, 4, seed=2),
        random_board(6, 6, 5, seed=3, start=(3, 2)),
        random_board(9, 9, 6, seed=4),
    ]


@pytest.fixture()
def cli(capsys: pytest.CaptureFixture[str]) -> Callable[..., tuple[int, str, str]]:
    """``cli(*args)``: ``colorit ARGS`` through ``colorit.cli.main`` in this process, and
    its status, stdout and stderr (``cli_support.run`` runs it as a process)."""
    from cli_support import in_process

    return lambda *args: in_process(capsys, *args)
