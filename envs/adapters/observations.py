"""Observation spaces and observations of the adapters, in the two observation modes.

* ``"flat"`` (default for the Gymnasium and vector envs): the float32 vector alone; the mask
  is in ``info["action_mask"]`` and ``action_masks()``.
* ``"dict"`` (the PettingZoo env's only mode): ``{"observation": float32 vector,
  "action_mask": int8 0/1 mask}``; the mask is also in ``info`` and ``action_masks()``.
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np

OBSERVATION_MODES = ("flat", "dict")


def check_observation_mode(observation_mode: str) -> str:
    """``observation_mode`` if it is one of :data:`OBSERVATION_MODES`, else ``ValueError``."""
    if observation_mode not in OBSERVATION_MODES:
        raise ValueError(f"observation_mode must be one of {OBSERVATION_MODES}, got {observation_mode!r}")
    return observation_mode


def observation_space(game, observation_mode: str = "flat") -> gym.Space:
    """The single-game observation space of ``game`` in ``observation_mode``."""
    box = gym.spaces.Box(0.0, 1.0, (game.obs_size,), np.float32)
    if observation_mode == "flat":
        return box
    return gym.spaces.Dict({"observation": box,
                            "action_mask": gym.spaces.Box(0, 1, (game.num_actions,), np.int8)})


def observation(obs: np.ndarray, mask: np.ndarray, observation_mode: str):
    """The observation in ``observation_mode`` from a vector (or batch) ``obs`` and its int8 ``mask``."""
    if observation_mode == "flat":
        return obs
    return {"observation": obs, "action_mask": mask}
