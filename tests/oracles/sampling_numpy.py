"""The numpy implementation of :func:`envs.core.sampling.sample_legal`: its oracle."""

from __future__ import annotations

import numpy as np


def sample_legal(mask: np.ndarray, rng: np.random.Generator, tries: int = 3) -> np.ndarray:
    """As :func:`envs.core.sampling.sample_legal`, in array operations (same draws, same result)."""
    mask = np.asarray(mask).astype(bool, copy=False)
    B, A = mask.shape
    actions = np.zeros(B, dtype=np.int64)
    todo = np.arange(B)
    for _ in range(tries):
        if todo.size == 0:
            return actions
        cand = rng.integers(0, A, size=todo.size)
        ok = mask[todo, cand]
        actions[todo[ok]] = cand[ok]
        todo = todo[~ok]
        if 2 * todo.size > ok.size:
            break
    if todo.size:
        n = todo.size
        flat = np.flatnonzero(mask[todo])
        starts = np.searchsorted(flat, np.arange(n + 1) * A)
        k = np.diff(starts)
        r = (rng.random(n) * k).astype(np.int64)
        live = np.flatnonzero(k > 0)
        actions[todo[live]] = flat[starts[live] + r[live]] - live * A
    return actions
