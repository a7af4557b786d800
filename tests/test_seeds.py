"""One seed rule for every API: integers reduced modulo 2**64, anything else a ValueError.

And a reset that fails changes nothing (not the game, not ``np_random``).
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import envs
from envs.core import rng
from envs.yacht import Yacht

M = 2**64
GOOD = [0, 5, 2**63 - 3, 2**63, M - 1, M + 5, -1, -(2**63), np.int64(7), np.uint64(2**63 + 1)]
BAD = [True, np.bool_(False), 5.0, np.float64(5), "5", b"5", 2.0**70]


def _single(seed):
    env = gym.make("madang/Yacht-v0", num_players=2, learner_seat=None, opponents="yacht-greedy")
    return env.reset(seed=seed)


def _vector(seed, n=4):
    venv = gym.make_vec("madang/Yacht-v0", num_envs=n, vectorization_mode="vector_entry_point",
                        num_players=2, learner_seat=None, opponents="yacht-greedy")
    return venv.reset(seed=seed)


@pytest.mark.parametrize("seed", GOOD, ids=repr)
def test_every_api_reduces_integer_seeds_modulo_2_64(seed):
    reduced = int(seed) % M
    obs, info = _single(seed)
    ref_obs, ref_info = _single(reduced)
    np.testing.assert_array_equal(obs, ref_obs)
    assert info["learner_seat"] == ref_info["learner_seat"]
    assert Yacht().init([seed]).equals(Yacht().init([reduced]))
    aec, ref = envs.yacht.env(), envs.yacht.env()
    aec.reset(seed=seed)
    ref.reset(seed=reduced)
    assert aec.unwrapped.state.equals(ref.unwrapped.state)
    # Slot i of the vector env is the single env seeded (s + i) mod 2**64, wrapping included.
    vobs, vinfo = _vector(seed)
    for i in range(4):
        o, inf = _single((reduced + i) % M)
        np.testing.assert_array_equal(vobs[i], o)
        np.testing.assert_array_equal(vinfo["action_mask"][i], inf["action_mask"])


def test_vector_env_takes_a_list_of_seeds_with_the_same_rule():
    a = _vector([M + 1, -1, 2**63, 3])[0]
    b = _vector([1, M - 1, 2**63, 3])[0]
    np.testing.assert_array_equal(a, b)


def test_core_takes_big_and_negative_seeds_in_one_batch():
    state = Yacht().init([-1, 2**64 + 2, 2**63])
    ref = Yacht().init(np.array([2**64 - 1, 2, 2**63], dtype=np.uint64))
    assert state.equals(ref)


@pytest.mark.parametrize("seed", BAD, ids=repr)
def test_every_api_rejects_non_integer_seeds(seed):
    with pytest.raises(ValueError, match="seed"):
        _single(seed)
    with pytest.raises(ValueError, match="seed"):
        _vector(seed)
    with pytest.raises(ValueError, match="seed"):
        envs.yacht.env().reset(seed=seed)
    with pytest.raises(ValueError, match="seed"):
        Yacht().init([seed])
    with pytest.raises(ValueError, match="seed"):
        rng.keys_from_seeds([seed])


def test_empty_seed_lists_give_empty_batches():
    for game in (Yacht(), envs.game_class("rainbow_dice")(num_players=3), envs.game_class("gostop")()):
        state = game.init([])
        assert state.batch_size == 0
        assert game.observe(state).shape == (0, game.obs_size)
        assert game.legal_mask(state).shape == (0, game.num_actions)


# ------------------------------------------------------------ failed resets change nothing
def _bad_position():
    return {"round": 1, "to_move": 0, "dice": [1, 2, 3, 4, 9], "rolls_left": 2,
            "sheets": [[None] * 12, [None] * 12]}


def test_failed_seeded_reset_changes_nothing_in_the_single_env():
    env = gym.make("madang/Yacht-v0", num_players=2, learner_seat=None).unwrapped
    env.reset(seed=1)
    state, rng_state, seat = env.state.copy(), env.np_random.bit_generator.state, env.learner_seat
    seed_before = env.np_random_seed
    for bad in ({"position": _bad_position()}, ["position"], 3):
        with pytest.raises(ValueError):
            env.reset(seed=123, options=bad)
        assert env.state.equals(state)
        assert env.np_random.bit_generator.state == rng_state
        assert env.np_random_seed == seed_before and env.learner_seat == seat
    with pytest.raises(ValueError):
        env.reset(seed=2.5)
    assert env.np_random.bit_generator.state == rng_state


def test_failed_reset_changes_nothing_in_the_vector_and_aec_envs():
    venv = gym.make_vec("madang/Yacht-v0", num_envs=3, vectorization_mode="vector_entry_point",
                        num_players=2, learner_seat=None).unwrapped
    venv.reset(seed=4)
    state, seats = venv.state.copy(), venv.learner_seat.copy()
    rng_state = venv._np_random.bit_generator.state
    for kwargs in (dict(seed=[1, 2]), dict(seed="4"), dict(seed=9, options=7)):
        with pytest.raises(ValueError):
            venv.reset(**kwargs)
        assert venv.state.equals(state) and (venv.learner_seat == seats).all()
        assert venv._np_random.bit_generator.state == rng_state
    aec = envs.yacht.env(num_players=2)
    aec.reset(seed=4)
    before = aec.unwrapped.state.copy()
    with pytest.raises(ValueError):
        aec.reset(seed=5, options={"position": _bad_position()})
    assert aec.unwrapped.state.equals(before)
