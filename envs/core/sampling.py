"""Uniform sampling of legal actions from batched masks (the loops compiled in :mod:`.kernels`)."""

from __future__ import annotations

import numpy as np

from .kernels import accept_candidates, pick_nth_legal


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
        n = todo.size
        todo = accept_candidates(mask, todo, rng.integers(0, A, size=n), actions)
        if 2 * todo.size > n:  # sparse masks: more rejection rounds would mostly miss
            break
    if todo.size:
        # The r-th legal action of each row left, r uniform below its number of legal actions.
        pick_nth_legal(mask, todo, rng.random(todo.size), actions)
    return actions
