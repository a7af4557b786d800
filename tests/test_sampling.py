"""The shared uniform legal-action sampler."""

import numpy as np

from envs.core.sampling import sample_legal


def test_sample_legal_is_legal_uniform_and_handles_empty_rows():
    rng = np.random.default_rng(0)
    mask = np.zeros((6, 98), dtype=bool)
    mask[0, [3]] = True
    mask[1, [0, 97]] = True
    mask[2, 10:20] = True
    mask[3] = True
    mask[5, [5, 50, 90]] = True  # row 4 stays empty
    counts = np.zeros((6, 98))
    for _ in range(3000):
        a = sample_legal(mask, rng)
        assert mask[np.arange(6), a][[0, 1, 2, 3, 5]].all() and a[4] == 0
        counts[np.arange(6), a] += 1
    for row in (1, 2, 5):
        freq = counts[row, mask[row]] / 3000
        k = mask[row].sum()
        assert np.abs(freq - 1 / k).max() < 4 * np.sqrt((1 / k) * (1 - 1 / k) / 3000), row


def test_sample_legal_sparse_rows_take_the_fallback():
    rng = np.random.default_rng(1)
    mask = np.zeros((2000, 98), dtype=bool)
    cols = rng.integers(0, 98, size=2000)
    mask[np.arange(2000), cols] = True
    np.testing.assert_array_equal(sample_legal(mask, rng, tries=0), cols)
    np.testing.assert_array_equal(sample_legal(mask.astype(np.int8), rng), cols)
