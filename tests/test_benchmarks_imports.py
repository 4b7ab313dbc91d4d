"""The scripts under benchmarks/ name only what the package has: every ``colorit`` import
in them, in their code or in the code they hand to a child process as a string, finds
its module and names. (The scripts run for minutes against real sets, so the suite runs
none of them whole; a module moved or renamed would otherwise break one unseen.)"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def colorit_imports(tree: ast.AST) -> list[tuple[str, list[str]]]:
    """The ``colorit`` modules ``tree`` imports, each with the names taken from it, and
    the same for every string in it that parses as Python holding such imports."""
    found: list[tuple[str, list[str]]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").split(".")[0] == "colorit":
            found.append((str(node.module), [alias.name for alias in node.names]))
        elif isinstance(node, ast.Import):
            found += [(alias.name, []) for alias in node.names if alias.name.split(".")[0] == "colorit"]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and "colorit" in node.value:
            try:
                inner = ast.parse(node.value)
            except SyntaxError:
                continue
            found += colorit_imports(inner)
    return found


def test_the_scan_finds_imports_in_code_and_in_child_code() -> None:
    tree = ast.parse('from colorit.io import datasets\nCHILD = """\nfrom colorit import solve\nimport colorit.cli\n"""\n')
    assert colorit_imports(tree) == [("colorit.io", ["datasets"]), ("colorit", ["solve"]), ("colorit.cli", [])]


@pytest.mark.parametrize("script", sorted(p.name for p in BENCHMARKS.glob("*.py")))
def test_every_colorit_import_of_a_benchmark_script_resolves(script: str) -> None:
    tree = ast.parse((BENCHMARKS / script).read_text(encoding="utf-8"))
    for module_name, names in colorit_imports(tree):
        module = importlib.import_module(module_name)
        for name in names:
            if not hasattr(module, name):
                # a submodule imported by name (``from colorit.io import datasets``)
                importlib.import_module(f"{module_name}.{name}")
