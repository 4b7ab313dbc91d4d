"""Export the kernels numba loaded in this process into the modules ``_aot`` serves them
from: every signature of every kernel (``_jit.KERNELS``), each an export of a module
compiled by ``numba.pycc`` for this processor, those ``_jit.superword_kernel`` compiles
with LLVM's SLP vectorizer in a module of their own compiled with it. The warm-up runs
it once it has compiled everything (``warmup.setup``); where ``numba.pycc``, setuptools
or a C compiler is missing, nothing is built and the kernels stay numba's.

A module is written whole (built aside, then renamed), its table after it and the key
last: ``_aot`` takes the modules only when the key file beside them is its own.
"""

from __future__ import annotations

import itertools
import os
import pickle
import shutil
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

from .. import _aot


def keys_of_type(t: Any) -> list[Any]:
    """The keys (``_aot.key_of``) of the Python arguments numba types as ``t``."""
    import numpy as np
    from numba import types

    if isinstance(t, types.Array):
        layout = {"C": _aot.C_CONTIGUOUS, "F": _aot.F_CONTIGUOUS, "A": 0}[t.layout]
        return [(np.dtype(str(t.dtype)), t.ndim, _writeable(t), layout)]
    if isinstance(t, (types.NamedTuple, types.NamedUniTuple)):
        return _field_keys(t)
    if isinstance(t, types.BaseTuple):
        return [("tuple", len(t))]
    if isinstance(t, (types.NoneType, types.Omitted)):
        return ["NoneType"]
    if isinstance(t, types.Boolean):
        return ["bool"]
    if isinstance(t, types.Integer):
        return ["int", "int64"] if str(t) == "int64" else [str(t)]
    if isinstance(t, types.Float):
        return ["float", "float64"] if str(t) == "float64" else [str(t)]
    raise TypeError(f"no Python key for numba type {t}")


def _field_keys(t: Any) -> list[Any]:
    """The keys (``_aot._field_key``) of a named tuple's field numba types as ``t``."""
    from numba import types

    if isinstance(t, types.Array):
        return [_writeable(t)]
    if isinstance(t, (types.NamedTuple, types.NamedUniTuple)):
        name = t.instance_class.__name__
        return [(name, *k) for k in itertools.product(*(_field_keys(e) for e in t.types))]
    if isinstance(t, types.BaseTuple):
        return ["tuple"]
    return keys_of_type(t)  # (a scalar's: its type's name)


def _writeable(t: Any) -> int:
    """An array type's writable bit, as ``_aot.key_of`` reads it from numpy's flags."""
    return _aot.WRITEABLE if t.mutable else 0


def _exports() -> dict[str, list[tuple[str, Any, Any, list[tuple[Any, ...]]]]]:
    """Per group: (export name, function, signature, keys) of every loaded signature."""
    from numba import types

    from .. import _jit

    groups: dict[str, list[tuple[str, Any, Any, list[tuple[Any, ...]]]]] = {g: [] for g in _aot.GROUPS}
    n = 0
    for dispatcher in _jit.KERNELS:
        min_words = getattr(dispatcher, "min_words", None)
        for cres in list(dispatcher.overloads.values()):
            args = [types.none if isinstance(a, types.Omitted) else types.unliteral(a) for a in cres.signature.args]
            try:
                keys = [tuple(k) for k in itertools.product(*(keys_of_type(a) for a in args))]
            except TypeError:
                continue  # called with a type the proxies cannot tell apart: numba's
            words = max((len(a) for a in args if isinstance(a, types.UniTuple)), default=0)
            group = "slp" if min_words is not None and words >= min_words else "plain"
            groups[group].append((f"k{n}", dispatcher.py_func, cres.signature.return_type(*args), keys))
            n += 1
    return groups


def build(folder: Path | None = None) -> str:
    """Build the modules for this process's kernels (compiled or loaded by numba) into
    ``folder`` (default ``_aot.cache_dir()``); return a line saying what was done."""
    if _aot.serving():
        return "kernels compiled ahead of time already"
    key = _aot.build_key()
    if not key:
        return "kernels not compiled ahead of time (numba or llvmlite not found)"
    folder = _aot.cache_dir() if folder is None else folder
    t0 = time.monotonic()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            from numba.pycc import CC  # type: ignore[attr-defined]
    except ImportError as e:
        return f"kernels not compiled ahead of time ({e})"
    groups = _exports()
    if not any(groups.values()):
        return "kernels not compiled ahead of time (none loaded)"
    folder.mkdir(parents=True, exist_ok=True)
    paths = _aot.module_paths(key, folder)
    table: dict[str, Any] = {"modules": {}, "exports": {}}
    with tempfile.TemporaryDirectory(dir=folder) as work:
        for group, exports in groups.items():
            if not exports:
                continue
            try:
                built = _compile(CC, exports, paths[group].name.split(".")[0], Path(work), slp=group == "slp")
            except Exception as e:  # noqa: BLE001 (no compiler, a pycc that fails: numba's kernels stay)
                return f"kernels not compiled ahead of time ({type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''})"
            os.replace(built, paths[group])
            table["modules"][group] = paths[group].name
            for name, fn, _, keys in exports:
                qual = f"{fn.__module__}.{fn.__qualname__}"
                for k in keys:
                    table["exports"][(qual, k)] = (group, name)
        temp_table = Path(work) / "table"
        with open(temp_table, "wb") as f:
            pickle.dump(table, f, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(temp_table, _aot.table_path(key, folder))
        temp_key = Path(work) / "key"
        temp_key.write_bytes(key.encode())
        os.replace(temp_key, _aot.key_path(key, folder))
    _remove_stale(folder, key)
    n = sum(len(e) for e in groups.values())
    return f"{n} kernel signatures compiled ahead of time in {time.monotonic() - t0:.0f} s ({folder})"


def _compile(cc_class: Any, exports: list[tuple[str, Any, Any, list[tuple[Any, ...]]]], name: str, work: Path, slp: bool) -> Path:
    """One module of ``exports`` built in ``work``; its path."""
    import numba.core.codegen
    import numba.core.config
    from numba.core.compiler_lock import global_compiler_lock

    cc = cc_class(name)
    cc.output_dir = str(work)
    cc.target_cpu = "host"
    cc.verbose = False
    for export, fn, sig, _ in exports:
        cc.export(export, sig)(fn)
    with global_compiler_lock, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        previous = numba.core.config.SLP_VECTORIZE  # type: ignore[attr-defined]  # numba sets its options at run time
        numba.core.config.SLP_VECTORIZE = 1 if slp else previous  # type: ignore[attr-defined]
        # the processor's own features, as numba's JIT asks LLVM for them: pycc's "host"
        # takes those its model implies (in one process b18c6 1.04 of the time, b24c4 1.01)
        codegen = numba.core.codegen.AOTCPUCodegen
        features = codegen._customize_tm_features
        codegen._customize_tm_features = codegen._get_host_cpu_features  # type: ignore[method-assign]
        try:
            cc.compile()
        finally:
            numba.core.config.SLP_VECTORIZE = previous  # type: ignore[attr-defined]
            codegen._customize_tm_features = features  # type: ignore[method-assign]
    built = [p for p in work.iterdir() if p.name.startswith(name + ".")]
    if not built:
        raise RuntimeError("pycc wrote no module")
    return built[0]


def _remove_stale(folder: Path, key: str) -> None:
    """This copy's modules of other builds (older sources or versions); other copies'
    are theirs to replace."""
    name = _aot.key_name(key)
    for path in folder.glob(f"{_aot.MODULE_PREFIX}{_aot.checkout_name()}_*"):
        if name not in path.name:
            try:
                path.unlink() if path.is_file() else shutil.rmtree(path)
            except OSError:
                pass
