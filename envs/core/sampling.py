"""Uniform sampling of legal actions from batched masks (vectorized)."""

from __future__ import annotations

import numpy as np


def sample_legal(mask: np.ndarray, rng: np.random.Generator, tries: int = 2) -> np.ndarray:
    """One uniformly random legal action per row of a (B, A) bool/int mask -> (B,) int64.

    A few rounds of rejection sampling (a uniform candidate, kept if legal) settle the
    rows with dense masks cheaply.  Each remaining row then takes the ``r``-th entry,
    ``r`` uniform in ``0..k-1``, of its list of ``k`` legal actions (one ``flatnonzero``
    over those rows).  Both stages are exactly uniform over the legal actions.  Rows with an
    empty mask (finished games) get action 0.
    """
    mask = np.asarray(mask)
    if mask.ndim != 2:
        raise ValueError(f"mask must have shape (B, A), got {mask.shape}")
    mask = mask.astype(bool, copy=False)
    B, A = mask.shape
    actions = np.zeros(B, dtype=np.int64)
    todo = np.arange(B)
    for _ in range(tries):
        cand = rng.integers(0, A, size=todo.size)
        ok = mask[todo, cand]
        actions[todo[ok]] = cand[ok]
        todo = todo[~ok]
        if todo.size == 0:
            return actions
    flat = np.flatnonzero(mask[todo])  # legal entries of the remaining rows, row by row
    rows = flat // A
    k = np.bincount(rows, minlength=todo.size)
    start = np.cumsum(k) - k
    r = (rng.random(todo.size) * k).astype(np.int64)
    has = k > 0
    pick = (start + r)[has]
    actions[todo[has]] = flat[pick] - rows[pick] * A
    return actions
