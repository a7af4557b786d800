"""Recovery from corrupted numba cache files.

numba keeps each cached kernel as an index file (``.nbi``) and data files (``.nbc``).  A
truncated, empty or overwritten file makes numba's loader raise (``UnpicklingError``,
``EOFError``, ...) on the kernel's first call, in every process that shares the cache.
:func:`guard_cache` makes a kernel's cache discard such a file instead: it warns once,
naming the file, deletes it (when it can), and the kernel compiles as if the entry were
missing; the fresh compilation is saved again.
"""

from __future__ import annotations

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


def guard_cache(dispatcher):
    """Make ``dispatcher`` (a numba ``njit(cache=True)`` function) recover from corrupted cache
    files; returns it.  Functions without a disk cache (``NUMBA_DISABLE_JIT=1``) pass through."""
    cache = getattr(dispatcher, "_cache", None)
    cache_file = getattr(cache, "_cache_file", None)
    if isinstance(cache_file, IndexDataCacheFile) and type(cache_file) is IndexDataCacheFile:
        cache_file.__class__ = _GuardedCacheFile
        original = cache.load_overload

        def load_overload(sig, target_context):
            try:
                return original(sig, target_context)
            except Exception as e:  # a data file that unpickles but cannot be rebuilt
                _discard(cache_file._index_path, e)
                return None

        cache.load_overload = load_overload
    return dispatcher
