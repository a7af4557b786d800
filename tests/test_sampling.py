"""The vectorized uniform legal-action sampler."""

import numpy as np
import pytest

from envs.core.sampling import sample_legal


@pytest.mark.parametrize("tries", [0, 2])
def test_uniform_over_legal_actions(tries):
    rng = np.random.default_rng(0)
    n = 120_000
    mask = np.zeros((n, 50), bool)
    mask[:, [0, 3, 49]] = True
    mask[::2, 17] = True  # even rows have 4 legal actions, odd rows 3
    actions = sample_legal(mask, rng, tries=tries)
    assert mask[np.arange(n), actions].all()
    even = np.bincount(actions[::2], minlength=50)[[0, 3, 17, 49]] / (n / 2)
    odd = np.bincount(actions[1::2], minlength=50)[[0, 3, 49]] / (n / 2)
    np.testing.assert_allclose(even, 0.25, atol=0.01)
    np.testing.assert_allclose(odd, 1 / 3, atol=0.01)


def test_empty_rows_get_zero_and_bad_shapes_raise():
    rng = np.random.default_rng(1)
    mask = np.zeros((3, 145), bool)
    mask[1, 144] = True
    assert sample_legal(mask, rng).tolist() == [0, 144, 0]
    assert sample_legal(mask.astype(np.int8), rng).tolist() == [0, 144, 0]
    with pytest.raises(ValueError):
        sample_legal(np.ones(5, bool), rng)


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


@pytest.mark.parametrize("tries", [0, 1, 3])
def test_same_draws_and_actions_as_the_numpy_oracle(tries):
    from tests.oracles.sampling_numpy import sample_legal as oracle

    shapes = np.random.default_rng(5)
    for trial in range(60):
        B, A = int(shapes.integers(1, 300)), int(shapes.integers(1, 150))
        mask = shapes.random((B, A)) < shapes.choice([0.01, 0.2, 0.9])
        mask[shapes.random(B) < 0.1] = False
        mine, theirs = np.random.default_rng(trial), np.random.default_rng(trial)
        np.testing.assert_array_equal(sample_legal(mask, mine, tries=tries), oracle(mask, theirs, tries=tries))
        assert mine.bit_generator.state == theirs.bit_generator.state
