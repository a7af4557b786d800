"""The numba disk cache of madang's kernels: keyed on every module a kernel reads, and
recovering from corrupted files.

numba keeps each cached kernel as an index file (``.nbi``) and data files (``.nbc``), and
trusts them while the kernel's own source file keeps its modification time and size.  But
a kernel also reads what it imports: the tables, constants and helper kernels of other
modules, frozen into its compiled code.  :func:`guard_cache` keys a kernel's cache on the
source files of its module and of every module that module imports, transitively, within
its own top-level package and ``envs`` (:func:`dependency_files`), so changing a table's
module recompiles every kernel that reads it.

A truncated, empty or overwritten cache file makes numba's loader raise
(``UnpicklingError``, ``EOFError``, ...) on the kernel's first call, in every process that
shares the cache.  :func:`guard_cache` makes a kernel's cache discard such a file instead:
it warns once, naming the file, deletes it (when it can), and the kernel compiles as if
the entry were missing; the fresh compilation is saved again.
"""

from __future__ import annotations

import ast
import functools
import importlib.util
import os
import warnings

from numba.core.caching import IndexDataCacheFile

_WARNED: set[str] = set()


class CorruptCacheWarning(RuntimeWarning):
    """A numba cache file of a madang kernel could not be read and was discarded."""


def _discard(path: str, error: BaseException) -> None:
    """Warn (once per file) that ``path`` is unreadable, and delete it if possible."""
    if path not in _WARNED:
        _WARNED.add(path)
        warnings.warn(
            f"discarding the corrupted numba cache file {path} ({type(error).__name__}: {error}); "
            "the kernel is compiled again",
            CorruptCacheWarning,
            stacklevel=2,
        )
    try:
        os.unlink(path)
    except OSError:
        pass  # a read-only cache: the entry is ignored in this process


class _GuardedCacheFile(IndexDataCacheFile):
    """numba's index/data cache file, treating an unreadable file as a missing one."""

    def _load_index(self):
        try:
            return super()._load_index()
        except Exception as e:  # any unpickling failure of a damaged index
            _discard(self._index_path, e)
            return {}

    def _load_data(self, name):
        try:
            return super()._load_data(name)
        except OSError:
            raise  # numba's own handling: the file was removed meanwhile
        except Exception as e:
            _discard(self._data_path(name), e)
            return None


@functools.lru_cache(maxsize=None)
def _origin(name: str) -> str | None:
    """The source file of module ``name`` (None when it has none or cannot be found)."""
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    origin = getattr(spec, "origin", None)
    return origin if origin and origin.endswith(".py") else None


@functools.lru_cache(maxsize=None)
def _imports(name: str, path: str) -> frozenset[str]:
    """The modules whose names module ``name`` (source ``path``) reads, as absolute names:
    ``X`` for ``import X``; for ``from X import a``, ``X.a`` when that is a module, else ``X``."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    package = name if path.endswith("__init__.py") else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[: len(parts) - node.level + 1]
                base = ".".join(parts + ([base] if base else []))
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                out.add(sub if _origin(sub) else base)
    return frozenset(out)


@functools.lru_cache(maxsize=None)
def dependency_files(module: str) -> tuple[str, ...]:
    """The source files a kernel of ``module`` may read: the module's own and those of every
    module it imports names from, transitively, within its top-level package and ``envs``
    (sorted)."""
    roots = {module.partition(".")[0], "envs"}
    seen, todo, files = set(), [module], set()
    while todo:
        name = todo.pop()
        if name in seen or name.partition(".")[0] not in roots:
            continue
        seen.add(name)
        path = _origin(name)
        if path is not None:
            files.add(path)
            todo.extend(_imports(name, path))
    return tuple(sorted(files))


def _stamp(files) -> tuple:
    """Modification time and size of every file, as numba stamps a kernel's own source."""
    out = []
    for path in files:
        try:
            st = os.stat(path)
            out.append((path, st.st_mtime, st.st_size))
        except OSError:
            out.append((path, None, None))
    return tuple(out)


def guard_cache(dispatcher):
    """Key ``dispatcher``'s disk cache (a numba ``njit(cache=True)`` function) on the source files
    of every module its module imports (:func:`dependency_files`) besides its own, and make it
    recover from corrupted cache files; returns it.  Functions without a disk cache
    (``NUMBA_DISABLE_JIT=1``) pass through."""
    cache = getattr(dispatcher, "_cache", None)
    cache_file = getattr(cache, "_cache_file", None)
    if isinstance(cache_file, IndexDataCacheFile) and type(cache_file) is IndexDataCacheFile:
        cache_file.__class__ = _GuardedCacheFile
        module = getattr(dispatcher.py_func, "__module__", None)
        if module and module != "__main__":
            cache_file._source_stamp = (cache_file._source_stamp, _stamp(dependency_files(module)))
        original = cache.load_overload

        def load_overload(sig, target_context):
            try:
                return original(sig, target_context)
            except Exception as e:  # a data file that unpickles but cannot be rebuilt
                _discard(cache_file._index_path, e)
                return None

        cache.load_overload = load_overload
    return dispatcher
