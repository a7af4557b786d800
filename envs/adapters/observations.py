"""Observation spaces and observations of the adapters, in the two observation modes.

* ``"flat"`` (default for the Gymnasium and vector envs): the float32 vector alone; the mask
  is in ``info["action_mask"]`` and ``action_masks()``.
* ``"dict"`` (the PettingZoo env's only mode): ``{"observation": float32 vector,
  "action_mask": 0/1 mask}``; the mask is also in ``info`` and ``action_masks()``.

Masks leave the adapters as int8 0/1 by default (what ``Discrete.sample(mask=...)`` and
sb3-contrib take), or as bool with ``mask_dtype="bool"`` (what TorchRL's ``MaskedCategorical``
takes): config ``mask_dtype``, the same dtype in infos, observations, ``action_masks()`` and the
observation space.
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np

OBSERVATION_MODES = ("flat", "dict")

MASK_DTYPES = {"int8": np.dtype(np.int8), "bool": np.dtype(bool)}
"""The ``mask_dtype`` option: its names and the dtypes they give."""


def check_observation_mode(observation_mode: str) -> str:
    """``observation_mode`` if it is one of :data:`OBSERVATION_MODES`, else ``ValueError``."""
    if observation_mode not in OBSERVATION_MODES:
        raise ValueError(f"observation_mode must be one of {OBSERVATION_MODES}, got {observation_mode!r}")
    return observation_mode


def check_mask_dtype(mask_dtype: str) -> np.dtype:
    """The dtype of the ``mask_dtype`` option (a name in :data:`MASK_DTYPES`), else ``ValueError``."""
    if not isinstance(mask_dtype, str) or mask_dtype not in MASK_DTYPES:
        raise ValueError(f"mask_dtype must be one of {list(MASK_DTYPES)}, got {mask_dtype!r}")
    return MASK_DTYPES[mask_dtype]


def observation_space(game, observation_mode: str = "flat", mask_dtype: np.dtype = MASK_DTYPES["int8"]) -> gym.Space:
    """The single-game observation space of ``game`` in ``observation_mode``, masks of ``mask_dtype``."""
    box = gym.spaces.Box(0.0, 1.0, (game.obs_size,), np.float32)
    if observation_mode == "flat":
        return box
    return gym.spaces.Dict({"observation": box,
                            "action_mask": gym.spaces.Box(0, 1, (game.num_actions,), mask_dtype)})


def observation(obs: np.ndarray, mask: np.ndarray, observation_mode: str):
    """The observation in ``observation_mode`` from a vector (or batch) ``obs`` and its ``mask``."""
    if observation_mode == "flat":
        return obs
    return {"observation": obs, "action_mask": mask}
