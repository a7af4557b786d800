"""Validation of states at the public boundary: identity, array structure and contents.

Each game describes its state arrays once (``FIELDS`` in ``envs/<game>/checks.py``: name,
dtype and the shape after the batch axis, where ``"P"`` stands for the number of seats)
and writes one compiled check over them (:class:`StateChecker`).  The check kernel is
compiled for exactly those dtypes as writeable C-contiguous arrays, so numba's own
dispatch refuses any other array (a wrong dtype, a strided view, a read-only array, a
list) before a single value is read; the kernel then checks every shape and every game
of a row range, and returns the first broken rule.  One call costs about one kernel
dispatch; the trusted internal paths (``check=False``) skip it.

Also here: :func:`rows_of`, the one rule for ``where`` and index arguments.
"""

from __future__ import annotations

import operator

import numpy as np
from numba import njit, types

from .numba_cache import guard_cache

NO_SKIP = np.zeros(0, dtype=bool)
"""The ``skip`` argument of a check that skips no game (a check kernel reads ``skip[i]``
only when ``skip`` has one entry per game)."""

_NUMBA_TYPES = {
    np.dtype(np.bool_): types.boolean, np.dtype(np.int8): types.int8, np.dtype(np.int16): types.int16,
    np.dtype(np.int32): types.int32, np.dtype(np.int64): types.int64, np.dtype(np.uint64): types.uint64,
}


def rows_of(where, batch: int, name: str = "where", distinct: bool = True) -> np.ndarray:
    """The games ``where`` selects, as int64 indices (in the order given); ``ValueError`` otherwise.

    ``where`` is either a bool mask of exactly ``(batch,)`` or a 1-d array of integer indices
    in ``0..batch-1`` (distinct unless ``distinct`` is False).  An empty sequence selects
    nothing.  Anything else (a mask of another length, integer flags read as a mask, negative
    or repeated indices, floats, 2-d arrays) is refused.
    """
    try:
        arr = np.asarray(where)
    except Exception as e:  # ragged nested sequences and the like
        raise ValueError(f"{name} must be a ({batch},) bool mask or game indices: {e}") from None
    if arr.ndim != 1:
        raise ValueError(f"{name} must be a ({batch},) bool mask or a 1-d array of game indices, "
                         f"got shape {arr.shape}")
    if arr.dtype == bool:
        if arr.shape != (batch,):
            raise ValueError(f"{name} must be a ({batch},) bool mask or game indices, got a bool mask "
                             f"of shape {arr.shape}")
        return np.flatnonzero(arr)
    if arr.size == 0:
        return np.zeros(0, dtype=np.int64)
    if arr.dtype.kind not in "iu":
        raise ValueError(f"{name} must be a ({batch},) bool mask or integer game indices, got dtype {arr.dtype}")
    low, high = int(arr.min()), int(arr.max())  # Python ints: no wrap-around of huge uint64s
    if low < 0 or high >= batch:
        raise ValueError(f"{name} must hold game indices in 0..{batch - 1}, got {low if low < 0 else high}")
    rows = arr.astype(np.int64)
    if distinct and np.unique(rows).size != rows.size:
        raise ValueError(f"{name} must hold distinct game indices")
    return rows


def game_index(index, batch: int) -> int:
    """``index`` as one game of a batch of ``batch``: an int (not bool) in ``0..batch-1``."""
    if isinstance(index, (bool, np.bool_)) or not isinstance(index, (int, np.integer)):
        raise ValueError(f"index must be an int, got {type(index).__name__} {index!r}")
    if not 0 <= index < batch:
        span = f"0..{batch - 1}" if batch else "(the state holds no game)"
        raise ValueError(f"index {int(index)} out of range {span}")
    return int(index)


class StateChecker:
    """The compiled check of one game's states.

    ``fields``: ``(name, dtype, trailing shape)`` of every state array, in the order the
    kernel takes them (a trailing dimension ``"P"`` is the number of seats).  ``kernel``: the
    Python function ``kernel(lo, hi, skip, *arrays, *params)``, or with ``buffer`` the function
    ``kernel(lo, hi, skip, buf, *params)`` of the state's one buffer (which reads the arrays
    where every other kernel reads them, through the game's ``unpack``), returning ``(0, -1)`` when
    fine, ``(-1 - k, -1)`` when array ``k`` has the wrong shape, or ``(rule, game)`` with
    ``rules[rule - 1]`` = ``(fields shown, text)`` the first broken rule.  ``params``: the numba
    types of the game's scalar parameters.
    """

    def __init__(self, fields, kernel, params, rules, buffer: bool = False):
        self.buffer = buffer
        self.attrs = len(fields) + 2  # a state's attributes: its fields, ``_buf`` and ``identity``
        self.fields = tuple((name, np.dtype(dt), tuple(trail)) for name, dt, trail in fields)
        self.names = tuple(name for name, _, _ in self.fields)
        self.get = operator.attrgetter(*self.names)
        self.rules = tuple(rules)
        self._py_kernel, self._params = kernel, tuple(params)
        self._compiled = None

    @property
    def kernel(self):
        """The kernel, compiled for writeable C-contiguous arrays of the fields' dtypes only."""
        if self._compiled is None:
            arrays = [types.Array(_NUMBA_TYPES[dt], 1 + len(trail), "C") for _, dt, trail in self.fields]
            if self.buffer:
                arrays = [types.Array(types.uint8, 1, "C")]
            sig = types.UniTuple(types.int64, 2)(types.int64, types.int64, types.Array(types.boolean, 1, "C"),
                                                 *arrays, *self._params)
            dispatcher = guard_cache(njit(cache=True, _nrt=False)(self._py_kernel))
            if hasattr(dispatcher, "compile"):  # not under NUMBA_DISABLE_JIT
                dispatcher.compile(sig)
                dispatcher.disable_compile()  # other argument types raise TypeError, never compile
            self._compiled = dispatcher
        return self._compiled

    def shape_of(self, k: int, batch: int, players: int) -> tuple:
        """The expected shape of array ``k`` in a batch of ``batch`` games of ``players`` seats."""
        return (batch,) + tuple(players if d == "P" else d for d in self.fields[k][2])

    def structure_problem(self, state, players: int) -> str | None:
        """What is wrong with the arrays of ``state`` (type, dtype, shape, layout), or None."""
        buf = getattr(state, "_buf", None)
        if self.buffer and not (isinstance(buf, np.ndarray) and buf.dtype == np.uint8 and buf.ndim == 1
                                and buf.flags.c_contiguous):
            return "this state holds no buffer (build states with a game's init, from_position or the state methods)"
        if self.buffer and not buf.flags.writeable:
            return "this state's buffer is read-only; states hold writeable arrays"
        batch = None
        for k, (name, dtype, _) in enumerate(self.fields):
            a = getattr(state, name, None)
            if not isinstance(a, np.ndarray):
                return f"state field {name} must be a numpy array, got {type(a).__name__}"
            if a.dtype != dtype:
                return f"state field {name} must have dtype {dtype}, got {a.dtype}"
            if a.ndim == 0:
                return f"state field {name} must have a batch axis, got a 0-d array"
            if batch is None:
                batch = a.shape[0]
            want = self.shape_of(k, batch, players)
            if a.shape != want:
                return f"state field {name} has shape {a.shape}, expected {want}"
            if not a.flags.c_contiguous:
                return f"state field {name} must be C-contiguous (copy it with np.ascontiguousarray)"
            if not a.flags.writeable:
                return f"state field {name} is read-only; states hold writeable arrays"
        return None
