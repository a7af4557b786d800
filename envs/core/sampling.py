"""Uniform sampling of legal actions from batched masks (the loops compiled in :mod:`.kernels`)."""

from __future__ import annotations

import numpy as np

from .kernels import accept_candidates, pick_legal, pick_nth_legal


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
    if mask.shape[0] == 1:
        return _sample_one(mask, rng, tries)
    return _sample_rows(mask, rng, tries)


def _sample_rows(mask: np.ndarray, rng: np.random.Generator, tries: int) -> np.ndarray:
    """:func:`sample_legal` of a (B, A) bool mask, any B."""
    B, A = mask.shape
    actions = np.zeros(B, dtype=np.int64)
    todo = np.arange(B)
    for _ in range(tries):
        if todo.size == 0:
            return actions
        n = todo.size
        todo = accept_candidates(mask, todo, rng.integers(0, A, size=n, dtype=np.int64), actions)
        if 2 * todo.size > n:  # sparse masks: more rejection rounds would mostly miss
            break
    if todo.size:
        # The r-th legal action of each row left, r uniform below its number of legal actions.
        pick_nth_legal(mask, todo, rng.random(todo.size), actions)
    return actions


def _sample_one(mask: np.ndarray, rng: np.random.Generator, tries: int) -> np.ndarray:
    """:func:`sample_legal` of a (1, A) bool mask, with the same draws and the same result.

    Scalar draws give the values of size-1 ones (``rng.integers(0, A)`` is
    ``rng.integers(0, A, size=1)[0]``) at a fraction of their cost.  With one row, a miss
    ends the rejection rounds at once (more than half the rows missed).
    """
    if tries > 0:
        c = int(rng.integers(0, mask.shape[1], dtype=np.int64))
        if mask[0, c]:
            return np.array([c], dtype=np.int64)
    return np.array([pick_legal(mask, 0, rng.random())], dtype=np.int64)
