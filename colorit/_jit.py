"""Numba settings in one place: every kernel is compiled with these options, and loaded
from numba's disk cache without the steps of numba's loading it does not need: the
compiler's registries, parsing the bitcode cached beside its machine code, and the
imports of numba's own modules and of ``numpy.ma`` (``load_from_cache_lean``), and
numba itself is imported without two modules only a compile or a config file needs
(``import_numba``)."""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import os
import pickle
import struct
import sys
from types import ModuleType

#: The file numba reads its settings from, in the working directory, with PyYAML.
NUMBA_CONFIG_FILE = ".numba_config.yaml"


def import_numba() -> ModuleType:
    """``import numba``, without the two imports of its own start that a run from the
    disk cache never uses: PyYAML, which numba imports to read ``NUMBA_CONFIG_FILE``
    (imported as usual when that file is there), and ``importlib.metadata``, which it
    reads only when it compiles (its extensions' entry points), put in lazily: loaded
    at its first use, by numba or by anyone else. Together about 50 ms of every start.
    Both stay importable afterwards as usual."""
    if "numba" in sys.modules:
        return sys.modules["numba"]
    if "importlib.metadata" not in sys.modules:
        spec = importlib.util.find_spec("importlib.metadata")
        if spec is not None and spec.loader is not None:
            spec.loader = importlib.util.LazyLoader(spec.loader)
            lazy = importlib.util.module_from_spec(spec)
            sys.modules["importlib.metadata"] = lazy
            importlib.metadata = lazy  # (what an import sets)
            spec.loader.exec_module(lazy)
    hide_yaml = "yaml" not in sys.modules and not os.path.exists(NUMBA_CONFIG_FILE)
    if hide_yaml:
        sys.modules["yaml"] = None  # type: ignore[assignment]  # ``import yaml`` raises ImportError
    try:
        import numba
    finally:
        if hide_yaml and sys.modules.get("yaml", 0) is None:
            del sys.modules["yaml"]
    return numba


numba = import_numba()

#: Options for every kernel (njit is nopython): cached on disk so later runs start at once.
JIT_OPTIONS = {"cache": True, "nogil": True}


#: Every kernel made in this process (what ``runtime.aot_build`` exports).
KERNELS: list = []  # type: ignore[type-arg]


def kernel(fn):  # type: ignore[no-untyped-def]
    """Compile ``fn`` (a plain function over arrays and scalars) with the project's options."""
    dispatcher = _without_extension_scan(numba.njit(**JIT_OPTIONS)(fn))
    KERNELS.append(dispatcher)
    return dispatcher


def _no_scan() -> None:
    """(colorit's kernels use no numba extension: see ``_without_extension_scan``)"""


def _without_extension_scan(dispatcher):  # type: ignore[no-untyped-def]
    """``dispatcher``, without numba's scan of every installed distribution for its
    extensions' entry points before its first call: numba makes it even when the kernel
    then loads from the disk cache (10-35 ms of a start, with ``importlib.metadata``'s
    import), and colorit's kernels use no extension. A compile still makes the scan
    (numba's target context does when it loads its registries), and other code's
    kernels make it as usual."""
    dispatcher._compilation_chain_init_hook = _no_scan
    return dispatcher


class _SuperwordDispatcher(numba.core.registry.CPUDispatcher):  # type: ignore[misc,name-defined]
    """A kernel compiled with LLVM's superword-level (SLP) vectorizer on at the widths
    where it pays: numba leaves it off for every compile (``NUMBA_SLP_VECTORIZE``, off
    since numba 0.57 after miscompilations were reported), and it is switched on here
    for this kernel's compiles alone, under numba's compiler lock so that no other
    compile sees it. The width is the length of the signature's tuple argument (the
    kernels' compile-time ``shape``); at run-time widths it stays off."""

    min_words = 1

    def compile(self, sig):  # type: ignore[no-untyped-def]
        from numba.core import sigutils, types
        from numba.core.compiler_lock import global_compiler_lock

        args, _ = sigutils.normalize_signature(sig)
        words = max((t.count for t in args if isinstance(t, types.UniTuple)), default=0)
        if words < self.min_words:
            return super().compile(sig)
        with global_compiler_lock:
            previous = numba.core.config.SLP_VECTORIZE
            numba.core.config.SLP_VECTORIZE = 1
            try:
                return super().compile(sig)
            finally:
                numba.core.config.SLP_VECTORIZE = previous


def superword_kernel(min_words: int):  # type: ignore[no-untyped-def]
    """``kernel``, with LLVM's SLP vectorizer on when it is compiled for sets of at least
    ``min_words`` words: for a kernel whose word loops (unrolled at a compile-time
    width) do the same bitwise step on each word of a set, which the vectorizer then
    does several words at a time; on narrower sets the shuffling can cost more than it
    spares. Only for plain bitwise work on unsigned words, each such kernel checked
    against a plain one in its tests (the vectorizer is off by default for its past
    miscompilations)."""

    def decorate(fn):  # type: ignore[no-untyped-def]
        options = {k: v for k, v in JIT_OPTIONS.items() if k != "cache"}
        dispatcher = _SuperwordDispatcher(py_func=fn, locals={}, targetoptions={"nopython": True, **options})
        dispatcher.min_words = min_words
        KERNELS.append(dispatcher)
        if JIT_OPTIONS.get("cache"):
            dispatcher.enable_caching()
        return _without_extension_scan(dispatcher)

    return decorate


def _prefetch_intrinsic():  # type: ignore[no-untyped-def]
    from llvmlite import ir
    from numba.core import cgutils, types
    from numba.extending import intrinsic

    @intrinsic
    def prefetch(typingctx, arr, index):  # type: ignore[no-untyped-def]
        """Ask the CPU to fetch ``arr[index]`` into cache (a hint: no effect on results)."""

        def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
            arr_type = signature.args[0]
            array = context.make_array(arr_type)(context, builder, args[0])
            item = cgutils.get_item_pointer(context, builder, arr_type, array, [args[1]], wraparound=False)
            byte_ptr = builder.bitcast(item, ir.IntType(8).as_pointer())
            i32 = ir.IntType(32)
            opaque = getattr(byte_ptr.type, "is_opaque", False) or not hasattr(byte_ptr.type, "pointee")
            name = "llvm.prefetch.p0" if opaque else "llvm.prefetch.p0i8"
            fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(ir.VoidType(), [byte_ptr.type, i32, i32, i32]), name)
            # read, high locality, data cache
            builder.call(fn, [byte_ptr, i32(0), i32(3), i32(1)])
            return context.get_dummy_value()

        return types.void(arr, index), codegen

    return prefetch


#: ``prefetch(arr, index)`` inside a kernel: start loading ``arr[index]`` now, so a later
#: read of it (a hash-table probe, typically) finds it in cache.
prefetch = _prefetch_intrinsic()


#: Set (to anything) to load cached kernels the way numba does by itself.
FULL_LOAD_ENV = "COLORIT_NUMBA_FULL_LOAD"


def load_from_cache_lean() -> bool:
    """Let numba load a cached kernel without first loading its compiler's registries.

    numba's cache loader refreshes the target context before every load, and the first
    refresh in a process imports and registers every lowering numba has (linear algebra,
    random numbers, typed containers, ...): about 0.3 s of each command's start, of which
    a kernel compiled already needs nothing. What its object code does need is numba's
    runtime (``NRT_*``: array allocation), which is initialised here, its functions
    loaded from beside the kernels once compiled there (``initialize_runtime``); its
    other symbols (the C API, numba's helpers, libm) are resolved at numba's import. On a
    cache miss the registries are loaded for the compile that follows; a load that fails
    is left to numba's own loader. A cached library's bitcode is parsed only if a later
    compile links it (``_unserialize_without_bitcode``); numba modules named by a kernel's
    environment and ``numpy.ma`` are not imported for loading or calling it
    (``_environments_without_imports``, ``_array_types_without_masked_arrays``).
    Installed only where numba's loader has the shape this was written for, and not when
    ``COLORIT_NUMBA_FULL_LOAD`` is set; returns whether it is installed."""
    if os.environ.get(FULL_LOAD_ENV):
        return False
    try:
        from numba.core import caching
        from numba.core.runtime.nrt import rtsys
    except ImportError:  # pragma: no cover (another numba layout: keep its own loader)
        return False
    cache = getattr(caching, "Cache", None)
    needed = ("load_overload", "_load_overload", "_guard_against_spurious_io_errors")
    if cache is None or not all(hasattr(cache, name) for name in needed) or not hasattr(rtsys, "initialize"):
        return False  # pragma: no cover
    if getattr(cache.load_overload, "_colorit_lean", False):
        return True

    numba_load = cache.load_overload

    def load_overload(self, sig, target_context):  # type: ignore[no-untyped-def]
        initialize_runtime(target_context, getattr(self, "_cache_path", None))
        data = None
        try:
            with self._guard_against_spurious_io_errors():
                data = self._load_overload(sig, target_context)
        except Exception:  # noqa: BLE001 (a numba whose cached code needs more: its own way)
            return numba_load(self, sig, target_context)
        if data is None:
            target_context.refresh()  # a miss: a compile follows, which needs every registry
        return data

    load_overload._colorit_lean = True  # type: ignore[attr-defined]
    cache.load_overload = load_overload
    _unserialize_without_bitcode()
    _environments_without_imports()
    _array_types_without_masked_arrays()
    return True


#: numba's runtime functions compiled for this CPU, kept beside the kernels' caches.
RUNTIME_CACHE_PREFIX = "colorit-nrt-"
#: How this process's runtime functions came (``initialize_runtime``); "" until then.
runtime_source = ""


def runtime_cache_file(target_context, cache_dir: str) -> str:  # type: ignore[no-untyped-def]
    """Where ``initialize_runtime`` keeps numba's runtime functions: one file per numba
    and llvmlite version and per CPU (the codegen's triple, CPU name and features)."""
    import hashlib

    import llvmlite

    key = repr((numba.__version__, llvmlite.__version__, target_context.codegen().magic_tuple()))
    return os.path.join(cache_dir, RUNTIME_CACHE_PREFIX + hashlib.sha256(key.encode()).hexdigest()[:16] + ".pkl")


def initialize_runtime(target_context, cache_dir: str | None) -> str:  # type: ignore[no-untyped-def]
    """Initialise numba's runtime (``rtsys.initialize``) with its LLVM functions (reference
    counts, a MemInfo's data) loaded from ``cache_dir`` when compiled there before.

    numba compiles those few functions with LLVM in every process that loads a kernel,
    about 30 ms of each start; their object code depends only on numba, llvmlite and the
    CPU, so it is kept once per such key (written whole, by rename) and linked like a
    cached kernel. Without a cache directory, with numba's allocation statistics on, or
    when anything about the file fails, numba compiles them itself. Returns how:
    ``"cached"``, ``"compiled"`` (and kept) or ``"numba"`` (or ``""`` when done already)."""
    from numba.core import config
    from numba.core.compiler_lock import global_compiler_lock
    from numba.core.runtime.nrt import rtsys

    global runtime_source
    with global_compiler_lock:  # as rtsys.initialize
        if rtsys._init:
            return ""
        if cache_dir is None or config.NRT_STATS:  # type: ignore[attr-defined,unused-ignore]  # numba sets its options at run time
            rtsys.initialize(target_context)
            runtime_source = "numba"
        else:
            runtime_source = _runtime_from_cache(target_context, cache_dir)
        return runtime_source


def _runtime_from_cache(target_context, cache_dir: str) -> str:  # type: ignore[no-untyped-def]
    """``initialize_runtime``'s work under the compiler lock: the kept file linked, or
    the functions compiled with their object code kept, or numba's own way."""
    import pickle

    from llvmlite import binding as ll
    from numba.core.runtime import _nrt_python, nrtdynmod  # type: ignore[attr-defined,unused-ignore]  # a C extension, untyped
    from numba.core.runtime.nrt import rtsys

    try:
        path = runtime_cache_file(target_context, cache_dir)
        codegen = target_context.codegen()
        # the C helpers the runtime's functions call, registered as numba registers them
        for py_name, address in _nrt_python.c_helpers.items():
            ll.add_symbol(py_name if py_name.startswith("_") else "NRT_" + py_name, address)
    except Exception:  # noqa: BLE001 (a numba of another shape: its own way)
        rtsys.initialize(target_context)
        return "numba"
    try:
        with open(path, "rb") as f:
            rtsys._library = codegen.unserialize_library(pickle.load(f))
        rtsys._init = True
        return "cached"
    except Exception:  # noqa: BLE001,S110 (none kept yet, or one this cannot read: compiled again below)
        pass
    try:
        module, library = nrtdynmod.create_nrt_module(target_context)
        library.enable_object_caching()
        library.add_ir_module(module)
        library.finalize()
        rtsys._library = library
        rtsys._init = True
    except Exception:  # noqa: BLE001
        rtsys.initialize(target_context)
        return "numba"
    temp = f"{path}.{os.getpid()}.tmp"
    try:
        with open(temp, "wb") as f:
            pickle.dump(library.serialize_using_object_code(), f, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(temp, path)
    except Exception:  # noqa: BLE001 (a read-only cache, a full disk: compiled, not kept)
        with contextlib.suppress(OSError):
            os.unlink(temp)
    return "compiled"


def defined_symbols(object_code: bytes) -> set[str] | None:
    """The symbols an ELF64 little-endian relocatable object defines (its symbol table's
    entries with a section, less section and file entries), or None for another format."""
    try:
        if object_code[:4] != b"\x7fELF" or object_code[4] != 2 or object_code[5] != 1:
            return None
        (section_table,) = struct.unpack_from("<Q", object_code, 0x28)
        entry_size, n_sections = struct.unpack_from("<HH", object_code, 0x3A)
        # (type, offset, size, link) of each section header
        sections = [struct.unpack_from("<4xI16xQQI", object_code, section_table + i * entry_size)
                    for i in range(n_sections)]
        names: set[str] = set()
        for kind, offset, size, link in sections:
            if kind != 2:  # SHT_SYMTAB
                continue
            strings = sections[link][1]
            for j in range(size // 24):
                name, info, _, section = struct.unpack_from("<IBBH", object_code, offset + 24 * j)
                if section == 0 or info & 0xF in (3, 4):  # undefined; STT_SECTION, STT_FILE
                    continue
                start = strings + name
                names.add(object_code[start:object_code.index(b"\0", start)].decode())
        return names
    except (struct.error, IndexError, ValueError, UnicodeDecodeError):
        return None


def _unserialize_without_bitcode() -> None:
    """Load a cached library's object code without parsing the LLVM bitcode stored with it.

    numba parses that bitcode at every load (a quarter of loading pc19's kernels) for two
    uses: the names the library defines, which its object file's symbol table gives as
    well, and linking it into a kernel compiled later, which may never come: the bitcode is
    kept and parsed then, on first use. Any other kind of cached library, or an object
    file this cannot read, is loaded numba's way."""
    from llvmlite import binding as ll
    from numba.core import codegen

    library_class = getattr(codegen, "JITCodeLibrary", None)
    numba_unserialize = getattr(library_class, "_unserialize", None)
    if not hasattr(numba_unserialize, "__func__") or getattr(numba_unserialize, "_colorit_lean", False):
        return  # pragma: no cover (another numba layout, or installed already)
    assert library_class is not None
    needed = ("enable_object_caching", "_set_compiled_object", "_finalize_final_module")
    if not all(hasattr(library_class, name) for name in needed):
        return  # pragma: no cover

    class LazyBitcodeLibrary(library_class):  # type: ignore[misc,valid-type]
        """A cached library whose bitcode is parsed when a compile first links it."""

        @property
        def _shared_module(self):  # type: ignore[no-untyped-def]
            module = self.__dict__.get("_shared_module")
            if module is None and "_colorit_bitcode" in self.__dict__:
                module = ll.parse_bitcode(self.__dict__.pop("_colorit_bitcode"))
                self.__dict__["_shared_module"] = module
            return module

        @_shared_module.setter
        def _shared_module(self, module):  # type: ignore[no-untyped-def]
            self.__dict__["_shared_module"] = module

    def unserialize(cls, target_codegen, state):  # type: ignore[no-untyped-def]
        name, kind, data = state
        known = getattr(getattr(target_codegen, "_engine", None), "_defined_symbols", None)
        symbols = defined_symbols(data[0]) if kind == "object" and isinstance(known, set) else None
        if symbols is None:
            return numba_unserialize.__func__(cls, target_codegen, state)
        library = target_codegen.create_library(name)
        library.__class__ = LazyBitcodeLibrary
        library.__dict__["_colorit_bitcode"] = data[1]
        library.enable_object_caching()
        library._set_compiled_object(data[0])
        library._finalize_final_module()
        known |= symbols
        return library

    unserialize._colorit_lean = True  # type: ignore[attr-defined]
    library_class._unserialize = classmethod(unserialize)


def _environments_without_imports() -> None:
    """Rebuild a cached kernel's environments without importing numba modules for them.

    A compiled function's environment holds the globals of the module it was written in,
    and numba imports that module when it loads the function from the cache. Kernels that
    allocate arrays use functions written in ``numba.np.arrayobj``, whose import (with
    the string support it imports) is about 45 ms of every start. Only object-mode code
    reads an environment's globals, and no kernel here is in object mode: an environment
    of a numba module not imported yet gets a dict with its module's name alone."""
    from numba.core import environment

    numba_rebuild = getattr(environment, "_rebuild_env", None)
    if numba_rebuild is None or getattr(numba_rebuild, "_colorit_lean", False):
        return  # pragma: no cover (another numba layout, or installed already)
    needed = ("Environment", "lookup_environment")
    if not all(hasattr(environment, name) for name in needed):
        return  # pragma: no cover

    def rebuild(modname, consts, env_name):  # type: ignore[no-untyped-def]
        found = environment.lookup_environment(env_name)
        if found is not None:
            return found
        if modname in sys.modules or not str(modname).startswith("numba."):
            return numba_rebuild(modname, consts, env_name)
        env = environment.Environment({"__name__": modname})
        env.consts[:] = consts
        env.env_name = env_name
        environment.Environment._memo[env_name] = env
        return env

    rebuild._colorit_lean = True  # type: ignore[attr-defined]
    environment._rebuild_env = rebuild


def _array_types_without_masked_arrays() -> None:
    """Type a plain array passed in a tuple without importing ``numpy.ma``.

    numba types an array inside a tuple (every kernel here takes named tuples of arrays)
    in Python, and first asks whether it is a masked array, which imports ``numpy.ma``
    (about 25 ms of a start). No masked array can exist before ``numpy.ma`` is imported,
    and an object whose type is ``np.ndarray`` itself is none: such an array gets numba's
    array type directly; any other goes to numba's own typing."""
    import numpy as np
    from numba.core import errors, types
    from numba.core.typing.typeof import typeof_impl
    from numba.np import numpy_support

    numba_typeof = typeof_impl.dispatch(np.ndarray)
    if getattr(numba_typeof, "_colorit_lean", False):
        return

    def typeof_array(val, c):  # type: ignore[no-untyped-def]
        if type(val) is not np.ndarray or "numpy.ma" in sys.modules:
            return numba_typeof(val, c)
        try:
            dtype = numpy_support.from_dtype(val.dtype)
        except errors.NumbaNotImplementedError:
            return numba_typeof(val, c)  # numba's own message
        return types.Array(dtype, val.ndim, numpy_support.map_layout(val), readonly=not val.flags.writeable)

    typeof_array._colorit_lean = True  # type: ignore[attr-defined]
    typeof_impl.register(np.ndarray, typeof_array)


load_from_cache_lean()


def index_tolerant_of_moved_modules() -> None:
    """Read a cache index that names a module colorit no longer has as an obsolete one.

    An index lists its kernels' signatures, pickled with the modules of their types. One
    written by an earlier layout of the package (left in ``__pycache__`` by an upgrade:
    pip removes the files it installed, not numba's) names modules since moved, and
    numba's loader would fail on it instead of compiling anew; here it reads as empty,
    as numba reads an index of another numba version, and is written over by the
    compile that follows."""
    from numba.core import caching

    index_file = getattr(caching, "IndexDataCacheFile", None)
    load_index = getattr(index_file, "_load_index", None)
    if load_index is None or getattr(load_index, "_colorit_tolerant", False):
        return  # pragma: no cover (another numba layout, or installed already)

    def _load_index(self):  # type: ignore[no-untyped-def]
        try:
            return load_index(self)
        except (ImportError, AttributeError, EOFError, pickle.UnpicklingError):
            return {}

    _load_index._colorit_tolerant = True  # type: ignore[attr-defined]
    index_file._load_index = _load_index  # type: ignore[union-attr]


index_tolerant_of_moved_modules()
