"""TorchRL over madang's envs (the ``madang[torchrl]`` extra): 100 masked steps each through
``GymEnv`` / ``GymWrapper`` (single and vector env) and ``PettingZooWrapper`` (every AEC env), and
a policy of TorchRL's ``MaskedCategorical`` on the masks of ``mask_dtype="bool"``.  torchrl is
imported inside the tests, so that the module imports without it (and its tests skip)."""

from __future__ import annotations

import importlib
import warnings

import gymnasium as gym
import pytest
import torch

from envs.registration import GAMES, game_class

pytestmark = [pytest.mark.requires("torchrl"), pytest.mark.slow]
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
    from torchrl.envs import ActionMask, GymEnv, TransformedEnv

    env = TransformedEnv(GymEnv(game_class(game).env_id, observation_mode="dict",
                                categorical_action_encoding=True), ActionMask())
    env.set_seed(0)
    td = env.rollout(STEPS, break_when_any_done=False)
    assert td.batch_size == torch.Size([STEPS]) and td["next", "done"].any()
    _assert_masked(td)


def test_gym_wrapper_on_a_single_env():
    from torchrl.envs import ActionMask, GymWrapper, TransformedEnv

    env = TransformedEnv(GymWrapper(gym.make("madang/GoStop-v0", observation_mode="dict"),
                                    categorical_action_encoding=True), ActionMask())
    td = env.rollout(STEPS, break_when_any_done=False)
    assert td["next", "done"].any()
    _assert_masked(td)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_gym_wrapper_on_the_vector_env(game):
    """TorchRL resets finished slots itself (``autoreset_mode="disabled"`` and ``reset_mask``)."""
    from torchrl.envs import ActionMask, GymWrapper, TransformedEnv

    venv = gym.make_vec(game_class(game).env_id, num_envs=4, vectorization_mode="vector_entry_point",
                        autoreset_mode="disabled", observation_mode="dict")
    env = TransformedEnv(GymWrapper(venv, categorical_action_encoding=True), ActionMask())
    td = env.rollout(STEPS, break_when_any_done=False)
    assert td.batch_size == torch.Size([4, STEPS]) and td["next", "done"].sum() >= 4
    _assert_masked(td)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_pettingzoo_wrapper_on_every_aec_env(game):
    """Numeric infos (``info_mode="numeric"``): TorchRL turns every info value into a tensor."""
    from torchrl.envs import PettingZooWrapper

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


def _masked_policy(env, n_obs: int, n_act: int):
    """A small network's logits through TorchRL's ``MaskedCategorical``, masked by ``action_mask``."""
    from tensordict.nn import TensorDictModule
    from torchrl.modules import MaskedCategorical, ProbabilisticActor

    torch.manual_seed(0)
    net = TensorDictModule(torch.nn.Sequential(torch.nn.Linear(n_obs, 32), torch.nn.Tanh(), torch.nn.Linear(32, n_act)),
                           in_keys=["observation"], out_keys=["logits"])
    return ProbabilisticActor(net, in_keys={"logits": "logits", "mask": "action_mask"}, out_keys=["action"],
                              distribution_class=MaskedCategorical, spec=env.action_spec, return_log_prob=True)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_masked_categorical_policy_on_bool_masks(game):
    """``mask_dtype="bool"`` gives the masks TorchRL's ``MaskedCategorical`` takes (it refuses int8):
    a masked policy rolls out the vector env and every action it samples is legal."""
    from torchrl.envs import GymWrapper

    venv = gym.make_vec(game_class(game).env_id, num_envs=4, vectorization_mode="vector_entry_point",
                        autoreset_mode="disabled", observation_mode="dict", mask_dtype="bool")
    env = GymWrapper(venv, categorical_action_encoding=True)
    assert env.observation_spec["action_mask"].dtype == torch.bool
    policy = _masked_policy(env, venv.single_observation_space["observation"].shape[0],
                            venv.single_action_space.n)
    td = env.rollout(STEPS, policy, break_when_any_done=False)
    assert td.batch_size == torch.Size([4, STEPS]) and td["next", "done"].any()
    assert td["action_mask"].dtype == torch.bool and td["action_log_prob"].isfinite().all()
    _assert_masked(td)


def test_masked_categorical_refuses_int8_masks():
    """Why the option exists: the default int8 masks (what Gymnasium and sb3-contrib take) are refused."""
    from torchrl.modules import MaskedCategorical

    env = gym.make("madang/Yacht-v0")
    _, info = env.reset(seed=0)
    logits = torch.zeros(env.action_space.n)
    with pytest.raises(RuntimeError, match="boolean"):
        MaskedCategorical(logits=logits, mask=torch.as_tensor(info["action_mask"])).sample()
    bool_env = gym.make("madang/Yacht-v0", mask_dtype="bool")
    _, info = bool_env.reset(seed=0)
    action = MaskedCategorical(logits=logits, mask=torch.as_tensor(info["action_mask"])).sample()
    assert info["action_mask"][int(action)]
