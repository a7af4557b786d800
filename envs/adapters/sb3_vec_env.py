"""madang's batched vector env as a stable-baselines3 ``VecEnv``: N games, one core call per step.

SB3's own ``DummyVecEnv`` steps N single envs one after another; this adapter hands SB3 the
batched core instead.  sb3-contrib's ``MaskablePPO`` finds the masks through it
(``env_method("action_masks")`` returns one int8 mask per slot).  SB3's conventions hold:
same-step autoreset, ``infos[i]["terminal_observation"]`` and ``"TimeLimit.truncated"`` for a
slot whose game ended (with the game's result fields), ``seed(s)`` seeds slot ``i`` with
``s + i`` at the next ``reset()``.  Wrap it in ``VecMonitor`` for episode statistics.
"""

from __future__ import annotations

import numpy as np
from stable_baselines3.common.vec_env.base_vec_env import VecEnv

from .vector_env import MadangVectorEnv


class MadangSB3VecEnv(VecEnv):
    """``num_envs`` games of the game module ``game`` (``"yacht"``, ...) as an SB3 ``VecEnv``.

    ``config`` goes to :class:`~envs.adapters.vector_env.MadangVectorEnv` (``learner_seat``,
    ``opponents``, ``illegal_action``, the rules' options, ...); observations are flat.
    ``env_method(name)`` calls the vector env's method once and returns its per-slot rows
    (``action_masks``); ``get_attr`` / ``set_attr`` reach the vector env's attributes,
    which every slot shares.
    """

    def __init__(self, game: str, num_envs: int = 8, **config):
        from envs.registration import game_class

        for key in ("autoreset_mode", "observation_mode"):
            if key in config:
                raise ValueError(f"MadangSB3VecEnv sets {key} itself (SB3 wants same-step, flat observations)")
        self.venv = MadangVectorEnv(game_class(game), num_envs, autoreset_mode="same_step", **config)
        super().__init__(num_envs, self.venv.single_observation_space, self.venv.single_action_space)
        self._actions = None

    def reset(self) -> np.ndarray:
        seeds = None if self._seeds[0] is None else list(self._seeds)
        obs, _ = self.venv.reset(seed=seeds)
        self.reset_infos = [{} for _ in range(self.num_envs)]
        self._reset_seeds()
        self._reset_options()
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions)

    def step_wait(self):
        obs, rewards, terminated, truncated, infos = self.venv.step(self._actions)
        dones = terminated | truncated
        out = [{} for _ in range(self.num_envs)]
        for i in np.flatnonzero(dones):
            final = infos["final_info"]
            out[i] = {k: final[k][i] for k in final if not k.startswith("_")}
            out[i]["terminal_observation"] = infos["final_obs"][i]
            out[i]["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
        return obs, rewards, dones, out

    def action_masks(self) -> np.ndarray:
        """(N, A) int8 legal masks, one row per slot."""
        return self.venv.action_masks()

    def env_method(self, method_name: str, *method_args, indices=None, **method_kwargs) -> list:
        result = getattr(self.venv, method_name)(*method_args, **method_kwargs)
        idx = self._get_indices(indices)
        if isinstance(result, np.ndarray) and result.ndim and result.shape[0] == self.num_envs:
            return [result[i] for i in idx]
        return [result for _ in idx]

    def get_attr(self, attr_name: str, indices=None) -> list:
        value = getattr(self.venv, attr_name)
        return [value for _ in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value, indices=None) -> None:
        setattr(self.venv, attr_name, value)

    def env_is_wrapped(self, wrapper_class, indices=None) -> list[bool]:
        return [False for _ in self._get_indices(indices)]

    def close(self) -> None:
        self.venv.close()
