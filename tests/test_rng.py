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
