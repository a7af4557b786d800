"""The limit kernel of ``madang bench`` plays the games by their rules: uniform legal actions,
the games' own compiled steps, finished games replaced."""

import numpy as np
import pytest

from benchmarks import random_play_limit as L
from envs.registration import game_class


@pytest.mark.parametrize("name", ["yacht", "rainbow_dice", "gostop"])
def test_limit_step_plays_legal_moves_and_masks_observes_like_the_core(name):
    game = game_class(name)()
    B = 8
    state = game.init(np.arange(B))
    mask = np.empty((B, game.num_actions), bool)
    obs = np.empty((B, game.obs_size), np.float32)
    actions = np.zeros(B, np.int64)
    rewards = np.zeros((B, game.num_players), np.float32)
    step, args = L._call(game, state, B)
    for n in range(200):
        before = state.copy()
        finished = step(np.uint64(n * B), actions, rewards, mask, obs, *args)
        np.testing.assert_array_equal(mask, game.legal_mask(before))  # masked and observed first
        np.testing.assert_array_equal(obs, game.observe(before))
        assert mask[np.arange(B), actions].all()  # then a legal action, stepped by the rules
        game.step(before, actions)
        assert state.equals(before)
        assert finished == bool(state.done.any())
        game.reset_where(state, state.done)


def test_bench_limit_counts_steps():
    sps, steps = L.bench_limit("yacht", 4, seconds=0.01)
    assert sps > 0 and steps % 4 == 0 and steps >= 64 * 4
