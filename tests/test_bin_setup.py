"""``bin/_setup.sh``: the extras ``bin/colorit`` installs for a command line (pictures
only where a picture is drawn, web for serve, cluster for a Dask scheduler), and
``bin/test``'s usage hint naming a real test file."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")


def extras_for(*args: str) -> str:
    script = 'set -euo pipefail; source "$0"; colorit_extras_for "$@"'
    done = subprocess.run(["bash", "-c", script, str(ROOT / "bin" / "_setup.sh"), *args],
                          capture_output=True, text=True, timeout=30, check=True)  # fmt: skip
    assert done.stderr == ""
    return done.stdout


@pytest.mark.parametrize(
    ("args", "extras"),
    [
        (["show", "b.csv"], ""),  # the terminal replay draws no picture
        (["show", "b.csv", "moves.csv", "--delay", "0", "-q"], ""),
        (["show", "b.csv", "-o", "x.gif"], "pictures"),
        (["show", "b.csv", "--output=x.png"], "pictures"),
        (["show", "b.csv", "--out", "x.png"], "pictures"),  # argparse's abbreviation
        (["show", "b.csv", "-qo", "x.gif"], "pictures"),
        (["show", "b.csv", "-ox.gif"], "pictures"),
        (["bench", "set.txt", "--plot", "p.png"], "pictures"),
        (["compare", "b.csv", "--plot=p.png"], "pictures"),
        (["bench", "set.txt", "--output", "x"], ""),  # -o is show's picture alone
        (["bench", "set.txt", "--scheduler", "local:2", "--plot", "p.png"], "pictures,cluster"),
        (["serve", "--port", "0"], "web"),
        (["b.csv", "out.csv"], ""),
        ([], ""),
    ],
)
def test_extras_for_a_command_line(args: list[str], extras: str) -> None:
    assert extras_for(*args) == extras


def test_bin_test_s_usage_hint_names_a_test_file_that_exists() -> None:
    hinted = re.findall(r"bin/test (tests/\S+\.py)", (ROOT / "bin" / "test").read_text())
    assert hinted and all((ROOT / path).is_file() for path in hinted)
