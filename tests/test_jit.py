"""``colorit._jit``: the kernel options, the ``prefetch`` hint and the lean cache loader."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from colorit._jit import (
    FULL_LOAD_ENV,
    NUMBA_CONFIG_FILE,
    RUNTIME_CACHE_PREFIX,
    defined_symbols,
    kernel,
    load_from_cache_lean,
    prefetch,
    superword_kernel,
)


@kernel
def _sum_with_prefetch(values, order):  # type: ignore[no-untyped-def]
    total = np.uint64(0)
    for i in range(order.shape[0]):
        if i + 1 < order.shape[0]:
            prefetch(values, order[i + 1])
        total += values[order[i]]
    return total


@kernel
def _prefetch_row(table, row):  # type: ignore[no-untyped-def]
    prefetch(table[row], 0)
    return table[row, 1]


def test_prefetch_compiles_and_changes_no_result() -> None:
    rng = np.random.default_rng(7)
    values = rng.integers(0, 1 << 40, size=1 << 12).astype(np.uint64)
    order = rng.permutation(values.shape[0]).astype(np.int64)
    assert _sum_with_prefetch(values, order) == values.sum(dtype=np.uint64)


def test_prefetch_takes_a_row_of_a_2d_table() -> None:
    table = np.arange(40, dtype=np.int32).reshape(20, 2)
    assert _prefetch_row(table, 7) == 15


# --- kernels compiled with LLVM's SLP vectorizer at wide widths (``superword_kernel``)


@superword_kernel(min_words=3)
def _missing_bits(a, b, shape):  # type: ignore[no-untyped-def]
    """Bits of ``a`` not in ``b``, word by word (a word loop the vectorizer takes)."""
    total = 0
    for w in range(len(shape)):
        x = a[w] & ~b[w]
        while x != np.uint64(0):
            x &= x - np.uint64(1)
            total += 1
    return total


def test_a_superword_kernel_computes_what_numpy_does_at_every_width() -> None:
    rng = np.random.default_rng(3)
    for words in range(1, 9):
        a, b = (rng.integers(0, 1 << 63, size=words, dtype=np.int64).astype(np.uint64) for _ in range(2))
        expected = sum(bin(int(x) & ~int(y)).count("1") for x, y in zip(a, b))
        assert _missing_bits(a, b, (0,) * words) == expected


def test_the_vectorizer_is_on_for_wide_compiles_only_and_switched_back(monkeypatch: pytest.MonkeyPatch) -> None:
    """A superword kernel's compile at ``min_words`` or more words runs with numba's SLP
    setting on; below that, and for every other compile, it stays as numba has it."""
    import numba
    from numba.core.registry import CPUDispatcher

    seen: list[int] = []
    real = CPUDispatcher.compile

    def spy(self, sig):  # type: ignore[no-untyped-def]
        seen.append(numba.core.config.SLP_VECTORIZE)
        return real(self, sig)

    monkeypatch.setattr(CPUDispatcher, "compile", spy)
    before = numba.core.config.SLP_VECTORIZE  # type: ignore[attr-defined,unused-ignore]  # numba sets its options at run time
    strided = np.zeros(8, dtype=np.uint64)[::2]  # a layout no other test compiles for
    for width, slp in ((2, before), (3, 1), (4, 1)):
        seen.clear()
        assert _missing_bits(strided[:width], strided[:width], (0,) * width) == 0
        assert seen and seen[0] == slp
        assert numba.core.config.SLP_VECTORIZE == before  # type: ignore[attr-defined,unused-ignore]  # (as above)


# --- numba imported without PyYAML and with ``importlib.metadata`` lazy (``import_numba``)

_IMPORTS = """
import sys
import colorit._jit
print('yaml' in sys.modules, type(sys.modules['importlib.metadata']).__name__ == 'module')
import importlib.metadata
import numpy
print(importlib.metadata.version('numpy') == numpy.__version__)
import numba.core.config
print(numba.core.config._HAVE_YAML)
try:
    import yaml
except ImportError:
    print('no yaml')
else:
    print(yaml.safe_load('a: 1') == {'a': 1})
"""


def _imports_in(cwd: Path) -> list[str]:
    done = subprocess.run([sys.executable, "-c", _IMPORTS], capture_output=True, text=True, cwd=cwd, timeout=120,
                          env={k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")})
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_numba_starts_without_yaml_and_reads_metadata_only_when_used(tmp_path: Path) -> None:
    """With no numba config file in the working directory, importing the kernels leaves
    PyYAML unimported (numba then reads no config file) and ``importlib.metadata`` not
    yet executed; both still work when imported afterwards (PyYAML comes with dask,
    when installed)."""
    out = _imports_in(tmp_path)
    assert out[:4] == ["False", "False", "True", "False"]
    assert out[4] in ("True", "no")


def test_a_numba_config_file_is_still_read(tmp_path: Path) -> None:
    """With ``.numba_config.yaml`` in the working directory numba imports PyYAML and reads
    it, as it does by itself (where PyYAML is installed)."""
    pytest.importorskip("yaml")
    (tmp_path / NUMBA_CONFIG_FILE).write_text("developer_mode: 0\n")
    out = _imports_in(tmp_path)
    assert out[0] == "True" and out[3] == "True"


# --- cached kernels loaded without numba's compiler registries (``load_from_cache_lean``)

_REGISTRY_MODULE = "numba.np.linalg"  # imported by numba's first context refresh
_ALLOCATION_MODULE = "numba.np.arrayobj"  # where numba's np.empty is written

_KERNEL_SOURCE = """
import numpy as np
from colorit._jit import kernel


@kernel
def weighted(values, weights):
    out = np.empty(values.shape[0], dtype=np.int64)  # allocates: needs numba's runtime
    for i in range(values.shape[0]):
        out[i] = values[i] * weights[i]
    return out


@kernel
def weighted_pair(pair):  # arrays in a tuple: typed in Python, not in numba's C fast path
    return weighted(pair[0], pair[1])
"""

_RUN = """
import sys
import numpy as np
import lean_probe
print(lean_probe.weighted_pair((np.arange(5), np.arange(5) + 1)).tolist())
print(sys.argv[1] in sys.modules)
"""

# a kernel compiled in a process where the one it calls was loaded from the cache: the
# compile links the cached library's code, whose bitcode the lean load left unparsed
_CALLER_SOURCE = """
from colorit._jit import kernel
from lean_probe import weighted


@kernel
def total(values, weights):
    return weighted(values, weights).sum()
"""

_RUN_CALLER = """
import numpy as np
import lean_probe
print(lean_probe.weighted(np.arange(3), np.arange(3)).tolist())
import lean_caller
print(lean_caller.total(np.arange(5), np.arange(5) + 1))
"""


def _probe_env(tmp_path: Path, **env: str) -> dict[str, str]:
    """A child's environment: the probe modules and a cache of their own in ``tmp_path``."""
    environ = {k: v for k, v in os.environ.items() if k != FULL_LOAD_ENV}
    environ.update(NUMBA_CACHE_DIR=str(tmp_path / "cache"), PYTHONPATH=str(tmp_path), **env)
    return environ


def _run_probe(tmp_path: Path, module: str = _REGISTRY_MODULE, **env: str) -> tuple[str, str]:
    """(the kernel's result, whether ``module`` was imported) in a new process."""
    done = subprocess.run([sys.executable, "-c", _RUN, module], capture_output=True, text=True,
                          env=_probe_env(tmp_path, **env), timeout=300)
    assert done.returncode == 0, done.stderr
    result, imported = done.stdout.splitlines()
    return result, imported


def test_a_cached_kernel_loads_without_the_compiler_and_a_new_one_compiles(tmp_path: Path) -> None:
    (tmp_path / "lean_probe.py").write_text(_KERNEL_SOURCE)
    expected = "[0, 2, 6, 12, 20]"
    # a miss: numba's own loader refreshes everything and compiles, then caches
    assert _run_probe(tmp_path) == (expected, "True")
    # a hit: the kernel (which allocates) loads and runs with no registry imported, nor
    # the numba module its allocation was written in (its environment is rebuilt bare)
    assert _run_probe(tmp_path) == (expected, "False")
    assert _run_probe(tmp_path, _ALLOCATION_MODULE) == (expected, "False")
    assert _run_probe(tmp_path, "numpy.ma") == (expected, "False")  # a tuple's arrays typed without it
    # switched off: numba imports its registries first, as it does by itself
    assert _run_probe(tmp_path, **{FULL_LOAD_ENV: "1"}) == (expected, "True")
    assert _run_probe(tmp_path, _ALLOCATION_MODULE, **{FULL_LOAD_ENV: "1"}) == (expected, "True")


_RUN_SCAN = """
import sys
import numpy as np
import lean_probe  # (colorit's kernels imported first: they import numba)
import numba
print(lean_probe.weighted(np.arange(3), np.arange(3)).tolist())
print(type(sys.modules['importlib.metadata']).__name__)
print(numba.njit(lambda x: x + 1)(1))  # another kernel, not colorit's: numba's own hooks
print(type(sys.modules['importlib.metadata']).__name__)
"""


def test_a_cached_kernel_loads_without_numbas_extension_scan(tmp_path: Path) -> None:
    """Loading a colorit kernel from the cache makes no scan for numba extensions
    (``importlib.metadata`` stays unloaded); compiling it does (numba's registries do),
    and a kernel that is not colorit's still makes it before its first call."""
    (tmp_path / "lean_probe.py").write_text(_KERNEL_SOURCE)

    def run() -> list[str]:
        done = subprocess.run([sys.executable, "-c", _RUN_SCAN], capture_output=True, text=True,
                              env=_probe_env(tmp_path), timeout=300)
        assert done.returncode == 0, done.stderr
        return done.stdout.split("\n")[:4]

    assert run() == ["[0, 1, 4]", "module", "2", "module"]  # compiled: numba scanned
    assert run() == ["[0, 1, 4]", "_LazyModule", "2", "module"]  # loaded: no scan until numba's own


def test_a_kernel_compiled_after_lean_loads_links_the_cached_kernel_it_calls(tmp_path: Path) -> None:
    (tmp_path / "lean_probe.py").write_text(_KERNEL_SOURCE)
    assert _run_probe(tmp_path)[0] == "[0, 2, 6, 12, 20]"  # compiled and cached
    (tmp_path / "lean_caller.py").write_text(_CALLER_SOURCE)
    for _ in range(2):  # the caller compiled, then both loaded from the cache
        done = subprocess.run([sys.executable, "-c", _RUN_CALLER], capture_output=True, text=True,
                              env=_probe_env(tmp_path), timeout=300)
        assert done.returncode == 0, done.stderr
        assert done.stdout.split() == ["[0,", "1,", "4]", "40"]


def test_an_objects_symbols_are_the_ones_its_bitcode_defines() -> None:
    """What a lean load registers (from the object file) against what numba's load would
    (from the bitcode), on the package's own kernels as cached here."""
    import pickle

    from llvmlite import binding as ll

    import colorit

    checked = 0
    for path in sorted(Path(colorit.__file__).parent.glob("**/__pycache__/*.nbc"))[:40]:
        state = _library_state(pickle.loads(path.read_bytes()))
        if state is None or state[1] != "object":
            continue
        object_code, bitcode = state[2]
        module = ll.parse_bitcode(bitcode)
        expected = {v.name for vs in (module.functions, module.global_variables) for v in vs if not v.is_declaration}
        assert defined_symbols(object_code) == expected, path.name
        checked += 1
    if checked == 0:
        pytest.skip("no cached kernels to compare (the warm-up has not run here)")


def _library_state(data: object, depth: int = 0) -> tuple | None:  # type: ignore[type-arg]
    """The ``(name, kind, data)`` a cached library is serialized as, found in a cache entry."""
    if isinstance(data, tuple) and len(data) == 3 and data[1] in ("object", "bitcode"):
        return data
    if depth < 6 and isinstance(data, (tuple, list)):
        for item in data:
            found = _library_state(item, depth + 1)
            if found is not None:
                return found
    return None


def test_symbols_of_what_is_not_an_elf_object() -> None:
    assert defined_symbols(b"") is None
    assert defined_symbols(b"MZ" + bytes(100)) is None
    assert defined_symbols(b"\x7fELF\x02\x01" + bytes(10)) is None  # cut short


def test_arrays_are_typed_as_numba_types_them() -> None:
    from numba.core import errors, types
    from numba.core.typing.typeof import typeof

    grid = np.zeros((4, 6), dtype=np.uint64)
    frozen = np.arange(3.0)
    frozen.setflags(write=False)
    assert typeof((grid,)) == types.UniTuple(types.Array(types.uint64, 2, "C"), 1)
    assert typeof((grid.T,)) == types.UniTuple(types.Array(types.uint64, 2, "F"), 1)
    assert typeof((grid[:, ::2],)) == types.UniTuple(types.Array(types.uint64, 2, "A"), 1)
    assert typeof((frozen,)) == types.UniTuple(types.Array(types.float64, 1, "C", readonly=True), 1)
    with pytest.raises(errors.NumbaValueError, match="Unsupported array dtype"):
        typeof((np.zeros(2, dtype=[("a", object)]),))
    with pytest.raises(errors.NumbaTypeError, match="MaskedArray"):
        typeof((np.ma.masked_array([1, 2]),))


def test_the_lean_loader_is_installed_once() -> None:
    from numba.core import caching

    assert load_from_cache_lean() is True
    loader = caching.Cache.load_overload
    assert load_from_cache_lean() is True
    assert caching.Cache.load_overload is loader


# --- numba's runtime functions kept beside the kernels (``initialize_runtime``)

_RUN_RUNTIME = """
import numpy as np
import colorit._jit as jit
import lean_probe
print(lean_probe.weighted(np.arange(3), np.arange(3)).tolist())
print(jit.runtime_source)
"""


def _run_runtime(tmp_path: Path, **env: str) -> list[str]:
    """(a kernel's result, how the runtime's functions came) in a new process."""
    done = subprocess.run([sys.executable, "-c", _RUN_RUNTIME], capture_output=True, text=True,
                          env=_probe_env(tmp_path, **env), timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_numbas_runtime_functions_are_compiled_once_then_loaded_from_beside_the_kernels(tmp_path: Path) -> None:
    (tmp_path / "lean_probe.py").write_text(_KERNEL_SOURCE)
    assert _run_runtime(tmp_path) == ["[0, 1, 4]", "compiled"]
    kept = list((tmp_path / "cache").rglob(RUNTIME_CACHE_PREFIX + "*.pkl"))
    assert len(kept) == 1
    assert not list((tmp_path / "cache").rglob("*.tmp"))
    # a kernel that allocates (reference counts: the runtime's functions) runs on them
    assert _run_runtime(tmp_path) == ["[0, 1, 4]", "cached"]
    # a file it cannot read is compiled again and replaced
    kept[0].write_bytes(b"not a pickle")
    assert _run_runtime(tmp_path) == ["[0, 1, 4]", "compiled"]
    assert _run_runtime(tmp_path) == ["[0, 1, 4]", "cached"]
    # numba's own loader initialises its runtime itself
    assert _run_runtime(tmp_path, **{FULL_LOAD_ENV: "1"}) == ["[0, 1, 4]", ""]


def test_a_kernel_compiled_on_runtime_functions_loaded_from_the_cache_links_them(tmp_path: Path) -> None:
    (tmp_path / "lean_probe.py").write_text(_KERNEL_SOURCE)
    assert _run_runtime(tmp_path)[1] == "compiled"
    (tmp_path / "lean_caller.py").write_text(_CALLER_SOURCE)
    run = _RUN_CALLER + "import colorit._jit as jit\nprint(jit.runtime_source)\n"
    done = subprocess.run([sys.executable, "-c", run], capture_output=True, text=True, env=_probe_env(tmp_path),
                          timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["[0,", "1,", "4]", "40", "cached"]


def test_a_cache_index_naming_a_moved_module_reads_as_obsolete(tmp_path: Path) -> None:
    """An index written by an earlier layout of the package (its signatures pickled with
    modules since moved) is a miss to compile anew, not an error: an upgrade leaves
    numba's files behind in ``__pycache__``."""
    import pickle
    import types

    import numba
    from numba.core.caching import IndexDataCacheFile

    gone = types.ModuleType("colorit_layout_gone")

    class Key:
        pass

    Key.__module__ = gone.__name__
    Key.__qualname__ = "Key"
    gone.Key = Key  # type: ignore[attr-defined]
    sys.modules[gone.__name__] = gone
    try:
        payload = pickle.dumps(("stamp", {(Key(),): "kernel.1.nbc"}))
    finally:
        del sys.modules[gone.__name__]
    cache = IndexDataCacheFile(str(tmp_path), "kernel", "stamp")
    (tmp_path / "kernel.nbi").write_bytes(pickle.dumps(numba.__version__) + payload)
    assert cache._load_index() == {}
    cache.save("key", b"data")  # and the compile that follows writes over it
    assert set(cache._load_index()) == {"key"}
