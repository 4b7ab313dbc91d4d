"""The kernels compiled ahead of time: a process that finds them built for this machine,
these sources and these library versions calls them without importing numba (about
0.1 s of every start, and half the memory of a small bench).

``python -m colorit.runtime.warmup`` (the setup) compiles every kernel with numba's JIT
and then exports each signature it loaded into extension modules with ``numba.pycc``
(``runtime.aot_build``), in the cache folder. A kernel is then a ``Proxy``: a call picks
the export made for its arguments' types (``key_of``, the Python side of what numba's
``typeof`` tells apart). A call no export fits loads numba, and every kernel becomes
numba's again (``materialize``): the same code compiled on demand, or loaded from
numba's disk cache, as without the modules.

Set ``COLORIT_NO_AOT`` to run on numba's JIT alone. Kernels still compile as numba
compiles them: ``_kernel`` says which way a process runs.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys
import threading
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

#: Set (to anything) to run on numba's JIT even where the modules are built.
DISABLE_ENV = "COLORIT_NO_AOT"
#: The folder the modules are kept in (default: the cache folder, ``cache_dir``).
DIR_ENV = "COLORIT_AOT_DIR"
#: The modules' name: this prefix, the build key, and the group (``GROUPS``).
MODULE_PREFIX = "colorit_kernels_"
#: The two modules: kernels compiled with LLVM's SLP vectorizer at the widths that ask
#: for it (``_jit.superword_kernel``), and the others.
GROUPS = ("plain", "slp")
TABLE_SUFFIX = ".table"
KEY_SUFFIX = ".key"


def cache_dir() -> Path:
    """Where the modules are kept: ``COLORIT_AOT_DIR``, else colorit's cache folder."""
    given = os.environ.get(DIR_ENV)
    if given:
        return Path(given)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "colorit" / "kernels"


def _stamp(path: str, st: os.stat_result | None = None) -> str:
    """A file as the key holds it: its path, size and time (``st``: its stat, if known)."""
    st = os.stat(path) if st is None else st
    return f"{path}:{st.st_size}:{st.st_mtime_ns}"


def _cpu() -> str:
    """This machine's processor and its features (the modules are compiled for it)."""
    try:
        with open("/proc/cpuinfo", "rb") as f:
            lines = [line for line in f.read(1 << 16).splitlines() if line.startswith((b"model name", b"flags"))]
        return repr(lines[:2])
    except OSError:
        return ""


def build_key() -> str:
    """What the modules depend on: Python, numpy, numba and llvmlite (by their files'
    stamps: importing numba to ask its version is what this saves), the processor, and
    every source file of the package (size and time, as numba's own cache does). The
    modules are named by its CRC and kept with it whole (``KEY_SUFFIX``), which is
    compared: hashlib's import alone would be 6 ms of every start."""
    import numpy as np

    parts = [sys.version, sys.platform, np.__version__, _cpu()]
    for name in ("numba", "llvmlite"):
        spec = importlib.util.find_spec(name)
        if spec is None or spec.origin is None:
            return ""
        parts.append(_stamp(spec.origin))
    parts.extend(sorted(_source_stamps(os.path.dirname(__file__))))
    return "\n".join(parts)


def checkout_name() -> str:
    """Which copy of colorit the modules are for (a CRC of its folder): a build removes
    the older modules of its own copy only."""
    return f"{zlib.crc32(os.path.dirname(os.path.abspath(__file__)).encode()):08x}"


def key_name(key: str) -> str:
    """The short name of ``key`` in the modules' file names (after ``checkout_name``)."""
    data = key.encode()
    return f"{checkout_name()}_{zlib.crc32(data):08x}{zlib.adler32(data):08x}"


def _source_stamps(folder: str) -> list[str]:
    """Each ``.py`` file's stamp under ``folder`` (``os.scandir``: a third of the time of
    ``Path.rglob``, which this runs at every start)."""
    out = []
    for entry in os.scandir(folder):
        if entry.is_dir(follow_symlinks=False):
            if entry.name != "__pycache__":
                out.extend(_source_stamps(entry.path))
        elif entry.name.endswith(".py"):
            out.append(_stamp(entry.path, entry.stat()))
    return out


def _named(key: str, tail: str, folder: Path | None) -> Path:
    """A file of the build for ``key``: the prefix, ``key_name``, then ``tail``."""
    return (cache_dir() if folder is None else folder) / f"{MODULE_PREFIX}{key_name(key)}{tail}"


def module_paths(key: str, folder: Path | None = None) -> dict[str, Path]:
    """The module file of each group for ``key`` (``GROUPS``)."""
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    return {group: _named(key, f"_{group}{suffix}", folder) for group in GROUPS}


def table_path(key: str, folder: Path | None = None) -> Path:
    """The table of the exports of the build for ``key``."""
    return _named(key, TABLE_SUFFIX, folder)


def key_path(key: str, folder: Path | None = None) -> Path:
    """The file that holds ``key`` whole beside the modules named by its CRC."""
    return _named(key, KEY_SUFFIX, folder)


def _find() -> Path | None:
    """The table of the modules built for this process, if there is one."""
    if os.environ.get(DISABLE_ENV):
        return None
    try:
        key = build_key()
        if key:
            with open(key_path(key), "rb") as f:
                if f.read() == key.encode():
                    return table_path(key)
    except OSError:
        pass
    return None


_found = _find()
#: Whether this process calls the modules (it may still turn to numba: ``materialize``).
ACTIVE = _found is not None
#: Whether numba's kernels have replaced the proxies (``materialize``).
materialized = False


def serving() -> bool:
    """Whether the modules serve the kernels now (``ACTIVE`` and not ``materialized``):
    then nothing needs loading, and nothing is left for a build to add."""
    return ACTIVE and not materialized


_table: dict[tuple[str, tuple[Any, ...]], tuple[str, str]] | None = None
_modules: dict[str, Any] = {}
_broken = False
_proxies: list[Proxy] = []
_hooks: list[Callable[[], None]] = []
_materializing = threading.Lock()


def _load() -> None:
    """Load the modules and their table (at the first call of a kernel)."""
    import pickle

    global _table
    assert _found is not None
    with open(_found, "rb") as f:
        loaded = pickle.load(f)
    for group, filename in loaded["modules"].items():
        path = _found.parent / filename
        spec = importlib.util.spec_from_file_location(filename.split(".")[0], path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        _modules[group] = module
    _table = loaded["exports"]


def key_of(value: Any) -> Any:
    """What picks an export for an argument: an array's dtype, dimensions, whether it is
    writable and its layout (from numpy's flag bits); a named tuple's class and fields
    (``_field_key``); a tuple's length (the kernels' width);
    else the type's name (``runtime.aot_build.keys_of_type`` is the same from numba's
    types)."""
    kind = type(value)
    if kind is _ndarray:
        flags = value.flags.num
        return (value.dtype, value.ndim, flags & WRITEABLE, flags & C_CONTIGUOUS or flags & F_CONTIGUOUS)
    if isinstance(value, tuple):
        return _field_key(value) if hasattr(value, "_fields") else ("tuple", len(value))
    return kind.__name__


def _field_key(value: Any) -> Any:
    """A named tuple's field, in its key: an array by whether it is writable alone (its
    class fixes the rest: every tuple of a class is made the same way), a named tuple
    the same way, anything else by its type's name. The proxies compute the key of
    every argument at every call, and the search kernels take tuples of a dozen arrays
    (a kernel slice under a short limit is a few hundred microseconds): numpy's flag
    bits and dtype objects are what cost least to read."""
    if type(value) is _ndarray:
        return value.flags.num & WRITEABLE
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return (type(value).__name__, *map(_field_key, value))
    return type(value).__name__


import numpy as _np  # noqa: E402 (numpy only where it is needed: the key of an array)

_ndarray = _np.ndarray
#: numpy's flag bits (``ndarray.flags.num``): an array's layout is C if C-contiguous
#: (a 1-D array is both), else F if F-contiguous, else A (0), as numba's ``typeof`` has it.
C_CONTIGUOUS, F_CONTIGUOUS, WRITEABLE = 0x1, 0x2, 0x400


class Proxy:
    """A kernel while the modules serve it: called as the kernel is."""

    def __init__(self, py_func: Callable[..., Any], make: Callable[[Callable[..., Any]], Any]) -> None:
        self.py_func = py_func
        self.qual = f"{py_func.__module__}.{py_func.__qualname__}"
        self.make = make  # numba's kernel, made from py_func (``materialize``)
        code = py_func.__code__  # (kernels take plain positional parameters)
        self.n_params = code.co_argcount
        self.defaults = py_func.__defaults__ or ()
        self.jit: Any = None
        self._exports: dict[Any, Any] = {}
        self.__doc__ = py_func.__doc__
        self.__name__ = py_func.__name__
        self.__qualname__ = py_func.__qualname__
        self.__module__ = py_func.__module__
        _proxies.append(self)

    def __call__(self, *args: Any) -> Any:
        if self.jit is not None:
            return self.jit(*args)
        missing = self.n_params - len(args)
        if missing > 0:
            args = args + self.defaults[len(self.defaults) - missing :]
        key = tuple(map(key_of, args))
        fn = self._exports.get(key)
        if fn is None:
            fn = self._export(key)
            if fn is None:
                materialize()
                fn = self._numba()
        return fn(*args)

    def _numba(self) -> Any:
        """numba's kernel (once ``materialize`` has run)."""
        return self.jit

    def _export(self, key: Any) -> Any:
        global _broken
        if _table is None:
            if _broken:
                return None
            try:
                _load()
            except Exception:  # noqa: BLE001 (a module gone or unloadable: numba's kernels)
                _broken = True
                return None
        assert _table is not None
        where = _table.get((self.qual, key))
        if where is None:
            return None
        fn = self._exports[key] = getattr(_modules[where[0]], where[1])
        return fn

    def __repr__(self) -> str:
        return f"<colorit kernel {self.qual} (ahead of time)>"


class Placeholder:
    """A name numba defines only for compiling (an intrinsic, say), held while the
    modules serve the kernels; ``materialize`` puts the real one in its place."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.real: Any = None

    def __call__(self, *args: Any) -> Any:
        raise NotImplementedError(f"{self.name} is for kernels only")


def on_materialize(hook: Callable[[], None]) -> None:
    """Run ``hook`` (which sets placeholders' ``real``) when numba takes over."""
    _hooks.append(hook)


def materialize() -> None:
    """Turn every kernel into numba's, and every placeholder into the real object, in
    every colorit module that holds one: a kernel compiled from now on finds numba's
    objects where its code names them."""
    global materialized
    with _materializing:  # (a solver thread and the caller may both get here)
        if materialized:
            return
        for hook in _hooks:
            hook()
        made = {id(proxy): proxy.make(proxy.py_func) for proxy in _proxies}
        for name, module in list(sys.modules.items()):
            if not (name == "colorit" or name.startswith("colorit.")) or module is None:
                continue
            for attr, value in list(vars(module).items()):
                if isinstance(value, Proxy):
                    setattr(module, attr, made[id(value)])
                elif isinstance(value, Placeholder) and value.real is not None:
                    setattr(module, attr, value.real)
        # only now may a call go to numba: every name its compile looks up is numba's
        for proxy in _proxies:
            proxy.jit = made[id(proxy)]
        materialized = True
