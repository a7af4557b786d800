"""Uniform sampling of legal actions from batched masks (vectorized)."""

from __future__ import annotations

import numpy as np


def sample_legal(mask: np.ndarray, rng: np.random.Generator, tries: int = 3) -> np.ndarray:
    """One uniformly random legal action per row of a (B, A) bool/int mask -> (B,) int64.

    A few rounds of rejection sampling settle the rows with dense masks cheaply; the
    remaining rows pick their r-th legal action from the flat indices of their legal entries.  Rows with an
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
    n = todo.size
    if n:
        # The r-th legal action of each remaining row, read off the flat indices of its legal
        # entries (one pass over those rows; row-wise cumsums are much slower in numpy).
        sub = mask[todo]
        k = sub.view(np.uint8).sum(axis=1, dtype=np.int64)
        flat = np.flatnonzero(sub)
        r = (rng.random(n) * k).astype(np.int64)
        pick = np.minimum(np.cumsum(k) - k + r, max(flat.size - 1, 0))
        chosen = flat.take(pick) - np.arange(n) * A if flat.size else np.zeros(n, np.int64)
        actions[todo] = np.where(k > 0, chosen, 0)
    return actions
