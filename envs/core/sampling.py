"""Uniform sampling of legal actions from batched masks (vectorized)."""

from __future__ import annotations

import numpy as np


def sample_legal(mask: np.ndarray, rng: np.random.Generator, tries: int = 3) -> np.ndarray:
    """One uniformly random legal action per row of a (B, A) bool/int mask -> (B,) int64.

    A few rounds of rejection sampling settle the rows with dense masks cheaply (stopping
    early when most rows miss); the remaining rows pick the r-th legal action from the
    flat list of legal positions.  Rows with an empty mask (finished games) get action 0.
    """
    mask = np.asarray(mask)
    if mask.ndim != 2:
        raise ValueError(f"mask must have shape (B, A), got {mask.shape}")
    mask = mask.astype(bool, copy=False)
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
        if 2 * todo.size > ok.size:  # sparse masks: more rejection rounds would mostly miss
            break
    if todo.size:
        # The r-th legal action of each row, read from the flat list of legal positions.
        n = todo.size
        flat = np.flatnonzero(mask[todo])
        starts = np.searchsorted(flat, np.arange(n + 1) * A)
        k = np.diff(starts)
        r = (rng.random(n) * k).astype(np.int64)
        live = np.flatnonzero(k > 0)
        actions[todo[live]] = flat[starts[live] + r[live]] - live * A
    return actions
