"""The stable-baselines3 VecEnv over madang's vector env: masks for MaskablePPO, SB3's
conventions, and the same games (and the same training) as ``DummyVecEnv`` of single envs."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
from stable_baselines3.common.env_util import make_vec_env
from stable_baselines3.common.vec_env import DummyVecEnv, VecMonitor

import envs
from envs.adapters.gym_env import MadangEnv
from envs.adapters.sb3_vec_env import MadangSB3VecEnv
from envs.core.sampling import sample_legal
from envs.registration import game_class

torch.set_num_threads(1)


@pytest.mark.parametrize("game,config", [("yacht", dict(num_players=2, opponents="yacht-greedy")), ("rainbow_dice", {}),
                                         ("gostop", dict(opponents="gostop-greedy"))])
def test_slots_replay_dummy_vec_env_of_single_envs(game, config):
    """Slot i is the single env seeded s + i: observations, rewards, dones, masks and the
    terminal observations SB3 reads, across autoresets."""
    n = 4
    ours = MadangSB3VecEnv(game, n, **config)
    dummy = DummyVecEnv([lambda: MadangEnv(game_class(game), **config)] * n)
    for v in (ours, dummy):
        v.seed(11)
    obs_a, obs_b = ours.reset(), dummy.reset()
    rng, ended = np.random.default_rng(0), 0
    for _ in range(120):
        np.testing.assert_array_equal(obs_a, obs_b)
        masks = np.stack(ours.env_method("action_masks"))
        np.testing.assert_array_equal(masks, np.stack(dummy.env_method("action_masks")))
        np.testing.assert_array_equal(get_action_masks(ours), masks.astype(bool))
        actions = sample_legal(masks, rng)
        obs_a, rew_a, done_a, info_a = ours.step(actions)
        obs_b, rew_b, done_b, info_b = dummy.step(actions)
        np.testing.assert_array_equal(rew_a, rew_b)
        np.testing.assert_array_equal(done_a, done_b)
        for i in np.flatnonzero(done_a):
            ended += 1
            np.testing.assert_array_equal(info_a[i]["terminal_observation"], info_b[i]["terminal_observation"])
            assert info_a[i]["TimeLimit.truncated"] is False
            for k in ("scores", "winner", "payout", "reason_code"):
                if k in info_b[i]:
                    np.testing.assert_array_equal(info_a[i][k], info_b[i][k])
    assert ended > 0


@pytest.mark.slow  # trains MaskablePPO twice
def test_maskable_ppo_finds_the_masks_and_trains_like_dummy_vec_env():
    """A short MaskablePPO run on the adapter never plays an illegal action (the env raises on
    one) and ends with exactly the weights of the same run on DummyVecEnv of single envs."""
    def train(vec_env):
        assert is_masking_supported(vec_env)
        model = MaskablePPO("MlpPolicy", vec_env, n_steps=64, batch_size=256, gamma=1.0, seed=0, verbose=0)
        model.learn(1024)
        return model

    ours = train(VecMonitor(MadangSB3VecEnv("yacht", 8)))
    theirs = train(make_vec_env(lambda: MadangEnv(game_class("yacht")), n_envs=8, seed=0))
    vec = torch.nn.utils.parameters_to_vector
    assert torch.equal(vec(ours.policy.parameters()), vec(theirs.policy.parameters()))
    assert len(ours.ep_info_buffer) > 0  # VecMonitor saw whole games


def test_vec_env_methods_and_config_checks():
    v = MadangSB3VecEnv("gostop", 3, illegal_action="lose")
    v.reset()
    assert v.get_attr("illegal_action") == ["lose"] * 3
    assert v.env_is_wrapped(VecMonitor) == [False] * 3
    assert len(v.env_method("action_masks", indices=[0, 2])) == 2
    v.set_attr("illegal_penalty", 2.0)
    illegal = np.array([int(np.flatnonzero(m == 0)[0]) for m in v.env_method("action_masks")])
    _, rewards, dones, infos = v.step(illegal)
    assert dones.all() and (rewards == -2.0).all() and {i["reason"] for i in infos} == {"illegal"}
    for bad in (dict(autoreset_mode="next_step"), dict(observation_mode="dict"), dict(num_player=2)):
        with pytest.raises(ValueError):
            MadangSB3VecEnv("yacht", 2, **bad)
    assert envs.GAMES  # the adapter needs no registration of its own


def test_the_vec_env_benchmark_compares_all_three_in_alternating_rounds():
    """benchmarks/sb3_vec_envs.py runs (a smoke test: it prints ratios, nothing here is timed)."""
    from benchmarks.sb3_vec_envs import run

    r = run("gostop", num_envs=2, seconds=0.4, rounds=2)
    assert set(r["transitions_per_s"]) == {"madang", "DummyVecEnv", "SubprocVecEnv"} and r["rounds"] == 2
    assert all(rate > 0 for rate in r["transitions_per_s"].values()) and r["vs_DummyVecEnv"]["DummyVecEnv"] == 1.0
