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

import pytest

from colorit import Board
from colorit.game.generate import random_board

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
def dataset_file() -> Callable[[str], Path]:
    """``dataset_file(name)``: a file of the benchmark sets, the test skipped where it is missing."""
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
