"""The package's layout as its imports show it: layers that import downward only, no
circle of modules, a small top level, and rooms of a size a reader holds in mind.

Read from the source, not by importing it: every ``import`` counts, at module level or
inside a function, except those under ``if TYPE_CHECKING:`` (they never run). This is
the check that fails when a module reaches up a layer (docs/design.md draws the layers).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "colorit"

#: The layers from the bottom: a module may import its own layer and the layers below.
#: The base modules at the top of the package are what every layer uses; the package's
#: own ``__init__`` only re-exports, lazily (its names load on first use), so it counts
#: as base for the ``__version__`` the commands print.
LAYERS: list[tuple[str, ...]] = [
    ("colorit", "colorit._aot", "colorit._kernel", "colorit._jit", "colorit.errors", "colorit.log", "colorit.palette",
     "colorit.machine", "colorit.limits"),
    ("colorit.game",),
    ("colorit.io",),
    ("colorit.solvers",),
    ("colorit.runtime",),
    ("colorit.batch",),
    ("colorit.render",),
    ("colorit.web",),
    ("colorit.cli", "colorit.__main__"),
]

#: At most this many modules at the top of the package (``__init__`` and ``__main__``
#: included): the rest live in folders that name their job.
MAX_TOP_LEVEL = 10
#: A module (Python or the page's JavaScript) longer than this is two ideas.
MAX_MODULE_LINES = 600
#: A function or class longer than this is too much to hold in mind; numba kernels,
#: whose loops must stay in one piece for the compiler, are left out.
MAX_PIECE_LINES = 120
KERNEL_DECORATORS = {"kernel", "superword_kernel", "intrinsic", "njit", "jit", "generated_jit", "overload"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py")) if "__pycache__" not in p.parts}


def layer_of(name: str) -> int:
    best, rank = -1, -1
    for i, members in enumerate(LAYERS):
        for m in members:
            if (name == m or name.startswith(m + ".")) and len(m) > best:
                best, rank = len(m), i
    assert rank >= 0, f"{name} is in no layer: add it to LAYERS (and to docs/design.md)"
    return rank


def _type_checking_only(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(node: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.If) and _type_checking_only(child):
            for other in child.orelse:
                yield from _imports(other)
            continue
        if isinstance(child, (ast.Import, ast.ImportFrom)):
            yield child
        yield from _imports(child)


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """The colorit modules ``name`` imports (a package's ``__init__`` counts as the
    package)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in _imports(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == "colorit")
            continue
        if node.level:
            base_parts = package.split(".")[: len(package.split(".")) - node.level + 1]
            base = ".".join(base_parts + ([node.module] if node.module else []))
        else:
            base = node.module or ""
        if base.split(".")[0] != "colorit":
            continue
        for alias in node.names:
            target = f"{base}.{alias.name}"
            found.add(target if target in known else base)
    found.discard(name)
    return found


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    mods = modules()
    known = set(mods)
    return {name: imports_of(name, path, known) for name, path in mods.items()}


def test_every_import_runs_down_the_layers(graph: dict[str, set[str]]) -> None:
    upward = [
        f"{name} (layer {layer_of(name)}) imports {target} (layer {layer_of(target)})"
        for name, targets in sorted(graph.items())
        for target in sorted(targets)
        if layer_of(target) > layer_of(name)
    ]
    assert upward == []


def circles_of(graph: dict[str, set[str]]) -> list[list[str]]:
    """The circles of ``graph`` (its strongly connected components of more than one
    node, by Tarjan's algorithm), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in graph:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return circles


def test_no_circle_of_modules(graph: dict[str, set[str]]) -> None:
    assert circles_of(graph) == []


def test_no_circle_of_the_pages_modules() -> None:
    """The page's ES modules import downward too: a panel below the board panel redraws
    through ``page.redraw``, not by importing the panel that draws it."""
    static = PACKAGE / "web" / "static"
    pattern = re.compile(r"""^import\b[^;]*?from\s+["']\./([\w.-]+\.js)["']""", re.M | re.S)
    js = {path.name: set(pattern.findall(path.read_text(encoding="utf-8"))) for path in static.glob("*.js")}
    assert sum(len(targets) for targets in js.values()) > 20  # the pattern sees the imports
    assert circles_of(js) == []


def test_no_circle_between_the_rooms_of_the_top_level(graph: dict[str, set[str]]) -> None:
    def room(name: str) -> str:
        parts = name.split(".")
        return ".".join(parts[:2])

    rooms: dict[str, set[str]] = {}
    for name, targets in graph.items():
        rooms.setdefault(room(name), set()).update(room(t) for t in targets if room(t) != room(name))
    both_ways = sorted(f"{a} <-> {b}" for a, out in rooms.items() for b in out if a < b and a in rooms.get(b, set()))
    assert both_ways == []


def test_the_top_level_is_small() -> None:
    top = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(top) <= MAX_TOP_LEVEL, top


def test_the_layer_test_sees_the_layers_it_checks(graph: dict[str, set[str]]) -> None:
    """The checks above are only as good as the graph: it must hold the arrows a
    reader sees (a lazy import inside a function among them)."""
    assert "colorit.game.board" in graph["colorit.game.graph"]
    assert "colorit.solvers" in graph["colorit.runtime.warmup"]
    assert any(t.startswith("colorit.solvers") for t in graph["colorit.cli.solve"] | graph["colorit.cli.compare"])


def _is_kernel(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> bool:
    for dec in node.decorator_list:
        target = dec.func if isinstance(dec, ast.Call) else dec
        name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
        if name in KERNEL_DECORATORS:
            return True
    return False


def test_modules_are_a_size_to_hold_in_mind() -> None:
    static = PACKAGE / "web" / "static"
    files = [*modules().values(), *static.rglob("*.js")]
    long = [f"{p.relative_to(PACKAGE.parent)}: {n} lines" for p in files if (n := len(p.read_text().splitlines())) > MAX_MODULE_LINES]
    assert long == []


def test_functions_and_classes_are_a_size_to_hold_in_mind() -> None:
    long = []
    for name, path in modules().items():
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and not _is_kernel(node):
                size = (node.end_lineno or node.lineno) - node.lineno + 1
                if size > MAX_PIECE_LINES:
                    long.append(f"{name}.{node.name}: {size} lines")
    assert long == []
