"""The kernels compiled ahead of time (``colorit._aot``, built by ``runtime.aot_build``):
a key the proxies compute from Python values names the export numba's types would; a
process with the modules solves as numba's kernels do, without importing numba; a call
no export fits turns every kernel into numba's and still answers.

The suite itself runs on numba's JIT (``conftest`` sets ``COLORIT_NO_AOT``); here the
modules are built for a few small boards in a temporary folder and used by child
processes. Building needs a C compiler: without one the tests skip, except on CI.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from colorit import _aot
from colorit.game.graph import RegionGraph, padded
from colorit.runtime.aot_build import keys_of_type
from colorit.solvers.astar_store import NodeStore

ROOT = Path(__file__).resolve().parents[1]

#: Solves a few small boards and prints their answers, whether numba was imported, and
#: whether the kernels turned into numba's (argv: the boards' side, then "build" to build
#: the modules afterwards into COLORIT_AOT_DIR).
CHILD = """
import json, os, sys
from colorit import Board, Limits, solve
from colorit.game.generate import random_board
side = int(sys.argv[1])
boards = [random_board(side, side, colours, seed) for colours, seed in ((3, 1), (4, 2), (6, 3))]
answers = [list(solve(b, "auto", Limits(time=60.0)).moves) for b in boards]
note = ""
if sys.argv[2:] == ["build"]:
    from colorit.runtime import aot_build
    note = aot_build.build()
from colorit import _aot
print(json.dumps({"answers": answers, "numba": "numba" in sys.modules, "active": _aot.ACTIVE,
                  "materialized": _aot.materialized, "note": note}))
"""


def _child(folder: Path, side: int, *, jit: bool, build: bool = False) -> dict[str, Any]:
    env = dict(os.environ, COLORIT_AOT_DIR=str(folder), COLORIT_NO_AOT="1" if jit else "", PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(side), *(["build"] if build else [])],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    out: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return out


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """Modules built for the kernels that solving three 6x6 boards loads."""
    folder = tmp_path_factory.mktemp("aot")
    jit = _child(folder, 6, jit=True, build=True)
    if not any(folder.glob(_aot.MODULE_PREFIX + "*" + _aot.TABLE_SUFFIX)):
        if os.environ.get("CI"):
            pytest.fail(f"the modules were not built: {jit['note']}")
        pytest.skip(f"the modules were not built here: {jit['note']}")
    return folder, jit


def test_keys_of_python_values_are_among_those_of_their_numba_types() -> None:
    from numba import typeof

    graph = RegionGraph.from_board(__import__("colorit").Board.from_rows([[1, 2, 0], [0, 1, 1], [2, 2, 0]]))
    pg = padded(graph)
    store = NodeStore.take(len(pg.root), 8, 64, 1 << 16, 16, child_f=True, reserve_bytes=1 << 20)
    readonly = np.zeros((3, 2), dtype=np.int32)
    readonly.setflags(write=False)
    values = [
        np.zeros(4, dtype=np.uint64),
        readonly,
        np.zeros((3, 4))[:, 1],
        np.asfortranarray(np.zeros((3, 2))),
        np.zeros((1, 4), dtype=np.uint64),  # both C- and F-contiguous: numba's layout C
        np.zeros((0, 3), dtype=np.int32),
        pg.arrays,
        store.arrays(),
        pg.shape,
        (0,) * 5,
        3,
        np.int64(3),
        np.uint64(3),
        np.int32(2),
        1.5,
        np.float64(1.5),
        True,
        np.bool_(False),
        None,
    ]
    for value in values:
        assert _aot.key_of(value) in keys_of_type(typeof(value)), value
    swapped = np.zeros((3, 4), dtype=">u8")  # numba types no other byte order: no export may take it
    assert _aot.key_of(swapped) not in keys_of_type(typeof(swapped.astype("<u8")))


def test_the_modules_answer_as_numba_does_without_importing_it(built: tuple[Path, dict[str, Any]]) -> None:
    folder, jit = built
    aot = _child(folder, 6, jit=False)
    assert aot["active"] and not aot["numba"] and not aot["materialized"]
    assert aot["answers"] == jit["answers"]


def test_a_call_no_export_fits_turns_the_kernels_into_numbas(built: tuple[Path, dict[str, Any]]) -> None:
    """Boards four times the size run at another width, which the modules lack. (Their
    searches outlast auto's first helper turn, due 0.02 s into a solve, so which of the
    optimal answers comes back depends on timing, numba's loading included: the
    lengths are compared.)"""
    folder, _ = built
    jit = _child(folder, 24, jit=True)
    aot = _child(folder, 24, jit=False)
    assert aot["active"] and aot["materialized"] and aot["numba"]
    assert [len(a) for a in aot["answers"]] == [len(a) for a in jit["answers"]]


def test_modules_of_other_sources_are_not_taken(built: tuple[Path, dict[str, Any]], tmp_path: Path) -> None:
    """A table under another key (other sources, versions or processor) is ignored."""
    folder, _ = built
    for path in folder.iterdir():
        if path.is_file():
            (tmp_path / path.name.replace(_aot.MODULE_PREFIX, _aot.MODULE_PREFIX + "0")).write_bytes(path.read_bytes())
    aot = _child(tmp_path, 6, jit=False)
    assert not aot["active"] and aot["numba"]
