"""Counter-based random streams, one per game in a batch.

Every game owns a 64-bit ``key`` (derived from its seed) and a 64-bit
``counter``.  Draw ``j`` of a game is ``splitmix64(key + (counter + j) * GAMMA)``:
a bijective hash of a Weyl sequence, so a game's stream depends only on its
own seed and on how many values it has drawn, never on the batch it sits in.
That is what makes batch size 1 and batch size N bit-identical.

All functions here are vectorized over the batch and cheap (a handful of
uint64 numpy operations per draw).
"""

from __future__ import annotations

import numpy as np

_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S32 = np.uint64(32)


def _mix(z: np.ndarray) -> np.ndarray:
    """The splitmix64 finaliser applied element-wise (uint64 in, uint64 out)."""
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


def keys_from_seeds(seeds) -> np.ndarray:
    """Map integer seeds (any shape) to well-spread uint64 stream keys.

    Seeds may be any Python or numpy integers; they are reduced modulo 2**64.
    Adjacent seeds give unrelated streams.
    """
    arr = np.asarray(seeds)
    if arr.dtype == object or not np.issubdtype(arr.dtype, np.integer):
        raise ValueError(f"seeds must be integers, got dtype {arr.dtype}")
    as_u64 = (arr.astype(np.int64) if arr.dtype.kind == "i" else arr).astype(np.uint64)
    return _mix(as_u64 * _GAMMA + _GAMMA)


def draw_u64(key: np.ndarray, counter: np.ndarray, n: int) -> np.ndarray:
    """Return ``n`` raw uint64 draws per game, shape ``(B, n)``.

    ``key`` and ``counter`` have shape ``(B,)``; the caller advances
    ``counter`` by ``n`` for every game that consumed the draws.
    """
    steps = counter[:, None] + np.arange(n, dtype=np.uint64)[None, :]
    return _mix(key[:, None] + steps * _GAMMA)


def draw_ints(key: np.ndarray, counter: np.ndarray, n: int, high: int) -> np.ndarray:
    """Return ``n`` integers uniform in ``[0, high)`` per game, shape ``(B, n)``, int64.

    Uses the multiply-shift reduction of the top 32 bits; the bias is below
    ``high / 2**32`` and irrelevant for dice and shuffles.
    """
    top = draw_u64(key, counter, n) >> _S32
    return ((top * np.uint64(high)) >> _S32).astype(np.int64)


def draw_permutations(key: np.ndarray, counter: np.ndarray, n: int) -> np.ndarray:
    """Return one uniformly random permutation of ``range(n)`` per game, shape ``(B, n)``.

    Consumes ``n`` draws per game (argsort of 64-bit random values).
    """
    return np.argsort(draw_u64(key, counter, n), axis=1, kind="stable")


def seed_from_entropy() -> int:
    """A fresh non-negative seed from the operating system's entropy."""
    return int(np.random.SeedSequence().generate_state(1, dtype=np.uint64)[0] >> np.uint64(1))


def resolve_seed(seed: int | None) -> int:
    """``seed`` itself, or a fresh one from the operating system's entropy when it is None."""
    return seed_from_entropy() if seed is None else seed


def draw_index(key: np.ndarray, counter: np.ndarray, high: int) -> np.ndarray:
    """Return one integer uniform in ``[0, high)`` per game, shape ``(B,)``, int64.

    One draw per game; multiply-shift of the top 32 bits (bias below ``high / 2**32``).
    Games use it to draw a whole outcome at once (e.g. five dice as one of 6**5 codes).
    """
    top = _mix(key + counter * _GAMMA) >> _S32
    return ((top * np.uint64(high)) >> _S32).astype(np.int64)
