"""Tiny policies of every kind the loaders read, built in a test's directory: SB3 zips, ONNX files
(madang's export and foreign models) and Python modules."""

from __future__ import annotations

import textwrap
from pathlib import Path

import numpy as np
import torch

from envs.registration import game_class

SB3_ALGORITHMS = ("PPO", "A2C", "MaskablePPO", "DQN")


def sb3_zip(directory: Path, algorithm: str = "MaskablePPO", game: str = "yacht", steps: int = 64) -> Path:
    """A zip that ``model.save`` wrote after ``steps`` steps of ``algorithm`` on ``game`` (a
    16-unit network, ReLU for the actor-critics so that the activation is read back too)."""
    from sb3_contrib import MaskablePPO
    from stable_baselines3 import A2C, DQN, PPO

    from envs.adapters.sb3_vec_env import MadangSB3VecEnv

    torch.set_num_threads(1)
    cls = {"PPO": PPO, "A2C": A2C, "MaskablePPO": MaskablePPO, "DQN": DQN}[algorithm]
    env = MadangSB3VecEnv(game, 4, illegal_action="lose")  # unmasked algorithms pick illegal actions
    if algorithm == "DQN":
        model = DQN("MlpPolicy", env, policy_kwargs={"net_arch": [16]}, learning_starts=0, buffer_size=1000, seed=0)
    else:
        extra = {"n_steps": 8, "batch_size": 32} if algorithm != "A2C" else {"n_steps": 8}
        model = cls("MlpPolicy", env, policy_kwargs={"net_arch": [16], "activation_fn": torch.nn.ReLU}, seed=0,
                    **extra)
    model.learn(steps)
    path = directory / f"{algorithm.lower()}-{game}.zip"
    model.save(path)
    return path


def tiny_network(game: str, seed: int = 0):
    """A madang ActorCritic of one 8-unit layer for ``game``."""
    from agents.torch_policy import ActorCritic

    cls = game_class(game)
    torch.manual_seed(seed)
    return ActorCritic(cls.obs_size, cls.num_actions, (8,))


def onnx_export(directory: Path, game: str = "yacht", name: str = "tiny") -> Path:
    """``madang export``'s files (NAME.onnx with NAME.json beside) of a tiny policy; returns the .onnx."""
    from frontends.export import export_bot
    from agents.policy_files import load_policy, save_policy

    save_policy(tiny_network(game), directory / "src" / name, game)
    bot = load_policy(directory / "src" / name)
    return export_bot(bot, name, directory, count=3).onnx


class _Scores(torch.nn.Module):
    """A linear layer: observations (and an optional mask, ignored) to one score per action."""

    def __init__(self, game: str, with_mask: bool):
        super().__init__()
        cls = game_class(game)
        torch.manual_seed(1)
        self.linear, self.with_mask = torch.nn.Linear(cls.obs_size, cls.num_actions), with_mask

    def forward(self, obs, mask=None):
        return self.linear(obs)


def onnx_foreign(directory: Path, game: str = "yacht", with_mask: bool = False, batch_one: bool = False) -> Path:
    """A plain ONNX model (input ``x``, output ``scores``), not madang's export: no .json beside.

    ``with_mask`` adds a float mask input; ``batch_one`` fixes the batch size to 1.
    """
    import warnings

    cls = game_class(game)
    model = _Scores(game, with_mask).eval()
    args = (torch.zeros(1, cls.obs_size),) + ((torch.ones(1, cls.num_actions),) if with_mask else ())
    names = ["x", "legal"] if with_mask else ["x"]
    path = directory / f"foreign-{game}-{int(with_mask)}{int(batch_one)}.onnx"
    shapes = None if batch_one else tuple({0: torch.export.Dim("batch")} for _ in args)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(model, args, str(path), input_names=names, output_names=["scores"], dynamo=True,
                          dynamic_shapes=shapes, external_data=False, verbose=False)
    return path


def foreign_scores(game: str, obs: np.ndarray) -> np.ndarray:
    """What :func:`onnx_foreign`'s model computes, in torch."""
    with torch.no_grad():
        return _Scores(game, False)(torch.from_numpy(obs)).numpy()


def python_module(directory: Path, name: str, source: str) -> str:
    """Write ``directory/name.py`` holding ``source``; returns the module name."""
    (directory / f"{name}.py").write_text(textwrap.dedent(source))
    return name
