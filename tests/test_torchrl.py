"""TorchRL over madang's envs (the ``madang[torchrl]`` extra): 100 masked steps each through
``GymEnv`` / ``GymWrapper`` (single and vector env) and ``PettingZooWrapper`` (every AEC env)."""

from __future__ import annotations

import importlib
import importlib.util
import warnings

import gymnasium as gym
import pytest

from envs.registration import GAMES, game_class
from tools import require_or_skip

require_or_skip(importlib.util.find_spec("torchrl") is not None, 'torchrl is missing: pip install -e ".[torchrl]"')

import torch  # noqa: E402
from torchrl.envs import ActionMask, GymEnv, GymWrapper, PettingZooWrapper, TransformedEnv  # noqa: E402

torch.set_num_threads(1)
STEPS = 100


def _assert_masked(td, mask_key="action_mask", action_key="action", acting=None):
    """Every recorded action is legal under the mask it was chosen with."""
    mask, action = td[mask_key], td[action_key].long()
    chosen = mask.gather(-1, action.unsqueeze(-1)).squeeze(-1)
    if acting is not None:
        chosen = chosen[acting]
    assert chosen.all() and chosen.numel() > 0


@pytest.mark.parametrize("game", sorted(GAMES))
def test_gym_env_by_id_rolls_out_masked_steps(game):
    env = TransformedEnv(GymEnv(game_class(game).env_id, observation_mode="dict",
                                categorical_action_encoding=True), ActionMask())
    env.set_seed(0)
    td = env.rollout(STEPS, break_when_any_done=False)
    assert td.batch_size == torch.Size([STEPS]) and td["next", "done"].any()
    _assert_masked(td)


def test_gym_wrapper_on_a_single_env():
    env = TransformedEnv(GymWrapper(gym.make("madang/GoStop-v0", observation_mode="dict"),
                                    categorical_action_encoding=True), ActionMask())
    td = env.rollout(STEPS, break_when_any_done=False)
    assert td["next", "done"].any()
    _assert_masked(td)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_gym_wrapper_on_the_vector_env(game):
    """TorchRL resets finished slots itself (``autoreset_mode="disabled"`` and ``reset_mask``)."""
    venv = gym.make_vec(game_class(game).env_id, num_envs=4, vectorization_mode="vector_entry_point",
                        autoreset_mode="disabled", observation_mode="dict")
    env = TransformedEnv(GymWrapper(venv, categorical_action_encoding=True), ActionMask())
    td = env.rollout(STEPS, break_when_any_done=False)
    assert td.batch_size == torch.Size([4, STEPS]) and td["next", "done"].sum() >= 4
    _assert_masked(td)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_pettingzoo_wrapper_on_every_aec_env(game):
    """Numeric infos (``info_mode="numeric"``): TorchRL turns every info value into a tensor."""
    aec = importlib.import_module(f"envs.{game}").env(info_mode="numeric")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env = PettingZooWrapper(aec, use_mask=True, categorical_actions=True, seed=0)
    td = env.rollout(STEPS, break_when_any_done=False)
    assert td.batch_size == torch.Size([STEPS]) and td["next", "done"].any()
    for group in env.group_map:
        acting = td[group, "mask"]
        if acting.any():
            _assert_masked(td[group], acting=acting)
        assert ("info", "reason_code") in td["next", group].keys(True)
