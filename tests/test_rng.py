"""Counter-based random streams: determinism, independence of batch, and uniformity."""

import numpy as np
import pytest

from envs.core import rng


def test_stream_depends_only_on_seed_and_counter():
    keys = rng.keys_from_seeds(np.arange(10))
    counters = np.zeros(10, np.uint64)
    batch = rng.draw_u64(keys, counters, 4)
    for i in range(10):
        single = rng.draw_u64(rng.keys_from_seeds([i]), np.zeros(1, np.uint64), 4)
        np.testing.assert_array_equal(single[0], batch[i])
    shifted = rng.draw_u64(keys, counters + np.uint64(2), 2)
    np.testing.assert_array_equal(shifted, batch[:, 2:])


def test_adjacent_seeds_are_unrelated_and_uniform():
    keys = rng.keys_from_seeds(np.arange(20000))
    dice = rng.draw_ints(keys, np.zeros(20000, np.uint64), 5, 6)
    counts = np.bincount(dice.ravel(), minlength=6)
    expected = dice.size / 6
    chi2 = ((counts - expected) ** 2 / expected).sum()
    assert chi2 < 25  # 5 degrees of freedom; p ~ 1e-4
    assert abs(np.corrcoef(dice[:-1, 0], dice[1:, 0])[0, 1]) < 0.03
    idx = rng.draw_index(keys, np.zeros(20000, np.uint64), 7776)
    assert idx.min() >= 0 and idx.max() < 7776 and len(np.unique(idx)) > 7000


def test_permutations_are_permutations():
    perms = rng.draw_permutations(rng.keys_from_seeds(np.arange(100)), np.zeros(100, np.uint64), 48)
    assert (np.sort(perms, axis=1) == np.arange(48)).all()


def test_seeds_must_be_integers():
    with pytest.raises(ValueError):
        rng.keys_from_seeds([1.5])
    assert rng.keys_from_seeds([-1]).dtype == np.uint64


def test_compiled_draws_are_the_numpy_draws():
    """envs.core.kernels gives bit-identical draws (keys, raw draws, ints, permutations)."""
    from envs.core import kernels

    seeds = np.array([0, 1, 2**63 + 5, 2**64 - 1, 12345], dtype=np.uint64)
    keys = rng.keys_from_seeds(seeds)
    counters = np.array([0, 7, 2**64 - 2, 2**63, 99], dtype=np.uint64)
    for s, k, c in zip(seeds, keys, counters):
        assert kernels.key_from_seed(s) == k
        steps = c + np.arange(5, dtype=np.uint64)  # wraps modulo 2**64 like the counters
        np.testing.assert_array_equal([kernels.draw_u64(k, t) for t in steps], rng.draw_u64(k[None], c[None], 5)[0])
        for high in (2, 6, 7776, 2**31 + 1):
            assert kernels.draw_int(k, c, high) == rng.draw_index(k[None], c[None], high)[0]
            out = np.empty(9, np.int64)
            kernels.draw_ints(k, c, high, out)
            np.testing.assert_array_equal(out, rng.draw_ints(k[None], c[None], 9, high)[0])
        perm = np.empty(48, np.int64)
        kernels.draw_permutation(k, c, np.empty(48, np.uint64), perm)
        np.testing.assert_array_equal(perm, rng.draw_permutations(k[None], c[None], 48)[0])
