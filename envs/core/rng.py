"""Counter-based random streams, one per game in a batch.

Every game owns a 64-bit ``key`` (derived from its seed) and a 64-bit
``counter``.  Draw ``j`` of a game is ``splitmix64(key + (counter + j) * GAMMA)``:
a bijective hash of a Weyl sequence, so a game's stream depends only on its
own seed and on how many values it has drawn, never on the batch it sits in.
That is what makes batch size 1 and batch size N bit-identical.

All functions here are vectorized over the batch and cheap (a handful of
uint64 numpy operations per draw).  The compiled rules draw the same values with the
scalar functions of :mod:`envs.core.kernels`.
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


SEED_MODULUS = 2**64
"""Seeds are integers reduced modulo 2**64 (the width of a stream key), in every API."""


def normalize_seed(seed) -> int:
    """``seed`` reduced modulo 2**64, as a Python int in ``0 .. 2**64 - 1``.

    Accepts Python and numpy integers (negative and big ones too); bools, floats, strings
    and anything else raise ``ValueError``.  This is the one seed rule of every madang API
    (the batched core, the single, vector and PettingZoo envs).
    """
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise ValueError(f"a seed must be an int, got {type(seed).__name__} {seed!r}")
    return int(seed) % SEED_MODULUS


def seed_array(seeds) -> np.ndarray:
    """A 1-d sequence (or array) of seeds as a uint64 array, each reduced by :func:`normalize_seed`."""
    if isinstance(seeds, np.ndarray) and seeds.dtype != object:
        if seeds.ndim != 1:
            raise ValueError(f"seeds must be a 1-d sequence of ints, got shape {seeds.shape}")
        if seeds.size == 0:
            return np.zeros(0, dtype=np.uint64)
        if seeds.dtype == bool or not np.issubdtype(seeds.dtype, np.integer):
            raise ValueError(f"seeds must be integers, got dtype {seeds.dtype}")
        return seeds.astype(np.int64).astype(np.uint64) if seeds.dtype.kind == "i" else seeds.astype(np.uint64)
    if isinstance(seeds, (int, np.integer, bool, np.bool_, str, bytes)) or not hasattr(seeds, "__len__"):
        raise ValueError(f"seeds must be a 1-d sequence of ints, got {type(seeds).__name__} {seeds!r}")
    items = list(seeds.tolist() if isinstance(seeds, np.ndarray) else seeds)
    if any(isinstance(s, (list, tuple, np.ndarray)) for s in items):
        raise ValueError("seeds must be a 1-d sequence of ints, got nested sequences")
    return np.array([normalize_seed(s) for s in items], dtype=np.uint64)


def seed_range(seed, n: int) -> np.ndarray:
    """The ``n`` seeds ``seed, seed + 1, ...`` reduced modulo 2**64 (uint64; wraps around)."""
    base = np.uint64(normalize_seed(seed))
    with np.errstate(over="ignore"):
        return base + np.arange(n, dtype=np.uint64)


def keys_from_seeds(seeds) -> np.ndarray:
    """Map a 1-d sequence of integer seeds to well-spread uint64 stream keys.

    Seeds are reduced modulo 2**64 (:func:`seed_array`); adjacent seeds give unrelated streams.
    """
    as_u64 = seed_array(seeds)
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
    """``seed`` reduced by :func:`normalize_seed`, or a fresh one from the OS entropy when None."""
    return seed_from_entropy() if seed is None else normalize_seed(seed)


def draw_index(key: np.ndarray, counter: np.ndarray, high: int) -> np.ndarray:
    """Return one integer uniform in ``[0, high)`` per game, shape ``(B,)``, int64.

    One draw per game; multiply-shift of the top 32 bits (bias below ``high / 2**32``).
    Games use it to draw a whole outcome at once (e.g. five dice as one of 6**5 codes).
    """
    top = _mix(key + counter * _GAMMA) >> _S32
    return ((top * np.uint64(high)) >> _S32).astype(np.int64)
