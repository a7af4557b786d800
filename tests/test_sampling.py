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
