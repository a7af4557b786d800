"""Uniform sampling of legal actions from batched masks (vectorized)."""

from __future__ import annotations

import numpy as np


def sample_legal(mask: np.ndarray, rng: np.random.Generator, tries: int = 3) -> np.ndarray:
    """One uniformly random legal action per row of a (B, A) bool/int mask -> (B,) int64.

    A few rounds of rejection sampling settle the rows with dense masks cheaply; the
    remaining rows pick the r-th legal action through a cumulative count.  Rows with an
    empty mask (finished games) get action 0.
    """
    mask = np.asarray(mask, dtype=bool)
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
    if todo.size:
        sub = mask[todo]
        k = sub.sum(axis=1)
        r = (rng.random(todo.size) * k).astype(np.int64)
        count_dtype = np.int16 if A < 32767 else np.int64
        c = np.cumsum(sub, axis=1, dtype=count_dtype)
        actions[todo] = np.where(k > 0, (c > r[:, None]).argmax(axis=1), 0)
    return actions
