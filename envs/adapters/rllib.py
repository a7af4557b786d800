"""madang envs for RLlib's new API stack (``pip install "madang[rllib]"``), registered by name.

:func:`register` registers two names per game with ``ray.tune.register_env``, so that env
runners on any node build madang envs without importing ``envs`` themselves (the creators
live in this module and import it when called):

* ``"madang-rllib/<Game>-v0"`` (:func:`env_name`): the single-agent env.  Under
  ``config.env_runners(gym_env_vectorize_mode="vector_entry_point")`` RLlib passes
  ``num_envs`` and gets madang's batched vector env instead (next-step autoreset, the mode
  RLlib's env runners assume; any other ``autoreset_mode`` is a ``ValueError``: same-step would
  silently drop the first transition of every later game), one core call for all
  ``num_envs_per_env_runner`` games.
* ``"madang-rllib/<Game>-v0-multiagent"`` (``env_name(game, multi_agent=True)``): every
  seat an agent (``player_0``, ...), turn-based over the PettingZoo env: only the agent to
  move observes, every agent gets its final observation when the game ends.

The ``env_config`` goes to the env (``num_players``, ``opponents``, ``learner_seat``, ...).
``illegal_action`` defaults to ``"lose"`` here: RLlib's multi-agent env check steps random
actions.  Observations are ``{"observations": float32 vector, "action_mask": float32 0/1}``,
what RLlib's ``ActionMaskingTorchRLModule`` (:func:`masking_module`) reads.

Only this module (and the evaluation's ``--ray``) imports ray; nothing in the rules does.
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode
from ray.rllib.env.multi_agent_env import MultiAgentEnv

from .infos import reason_code
from .vector_env import AUTORESET_MODES

PREFIX = "madang-rllib/"


def env_name(game: str, multi_agent: bool = False) -> str:
    """The RLlib env name of the game module ``game`` (``"yacht"``, ...)."""
    from envs.registration import game_class

    name = PREFIX + game_class(game).env_id.split("/", 1)[1]
    return name + "-multiagent" if multi_agent else name


def register() -> list[str]:
    """Register every game's single-agent and multi-agent env with RLlib; returns the names.

    Call it in the driver before building the algorithm (idempotent).
    """
    from functools import partial

    from ray.tune.registry import register_env

    from envs.registration import GAMES

    names = []
    for game in GAMES:
        for multi in (False, True):
            register_env(env_name(game, multi), partial(make_multi_agent_env if multi else make_env, game))
            names.append(env_name(game, multi))
    return names


def _config(env_config) -> dict:
    config = dict(env_config or {})
    config.setdefault("illegal_action", "lose")
    return config


def make_env(game: str, env_config=None):
    """The env behind ``env_name(game)``: single (RLlib's own vectorization) or, with
    ``num_envs`` in ``env_config``, madang's vector env in next-step mode."""
    from envs.adapters.gym_env import MadangEnv
    from envs.adapters.vector_env import MadangVectorEnv
    from envs.registration import game_class

    config = _config(env_config)
    config.pop("render_mode", None)
    if "num_envs" in config:
        config.setdefault("autoreset_mode", "next_step")
        return RLlibVectorObservations(MadangVectorEnv(game_class(game), observation_mode="dict", **config))
    return RLlibObservations(MadangEnv(game_class(game), observation_mode="dict", **config))


def make_multi_agent_env(game: str, env_config=None):
    """The env behind ``env_name(game, multi_agent=True)``."""
    return MadangMultiAgentEnv(game, env_config)


def observation_space(space: gym.spaces.Dict) -> gym.spaces.Dict:
    """RLlib's masked observation space for a madang dict observation space."""
    return gym.spaces.Dict({
        "observations": space["observation"],
        "action_mask": gym.spaces.Box(0.0, 1.0, space["action_mask"].shape, np.float32),
    })


def observation(obs: dict) -> dict:
    """A madang dict observation (one or a batch) as RLlib's masking module reads it."""
    return {"observations": obs["observation"], "action_mask": obs["action_mask"].astype(np.float32)}


class RLlibObservations(gym.ObservationWrapper):
    """A madang single env in ``observation_mode="dict"`` with RLlib's observation keys."""

    def __init__(self, env):
        super().__init__(env)
        self.observation_space = observation_space(env.observation_space)

    def observation(self, obs):
        return observation(obs)


class RLlibVectorObservations(gym.vector.VectorWrapper):
    """A madang vector env in ``observation_mode="dict"`` and next-step autoreset, with RLlib's
    observation keys.  Another autoreset mode is a ``ValueError``: RLlib's env runners assume
    next-step, so under same-step they would silently drop the first transition of every game
    after the first in a slot, and under disabled they would step finished games."""

    def __init__(self, env):
        self._check_autoreset_mode(env)
        super().__init__(env)
        self.single_observation_space = observation_space(env.single_observation_space)
        self.observation_space = gym.vector.utils.batch_space(self.single_observation_space, env.num_envs)

    @staticmethod
    def _check_autoreset_mode(env) -> None:
        mode = env.metadata.get("autoreset_mode")
        if mode is not AutoresetMode.NEXT_STEP:
            name = next((k for k, m in AUTORESET_MODES.items() if m is mode), mode)
            raise ValueError(
                f"RLlib needs autoreset_mode='next_step', got {name!r}: its env runners assume next-step "
                "autoreset, so they would silently drop the first transition of every later game "
                "(same_step) or step finished games (disabled); leave autoreset_mode out of env_config")

    def reset(self, *, seed=None, options=None):
        obs, infos = self.env.reset(seed=seed, options=options)
        return observation(obs), infos

    def step(self, actions):
        obs, rewards, terminated, truncated, infos = self.env.step(actions)
        if "final_obs" in infos:
            infos = dict(infos, final_obs=observation(infos["final_obs"]))
        return observation(obs), rewards, terminated, truncated, infos


class MadangMultiAgentEnv(MultiAgentEnv):
    """Every seat of a madang game as an RLlib agent, turn-based (over the PettingZoo env).

    ``reset`` and ``step`` return the observation of the agent to move only; the step that
    ends the game returns every agent's final observation and ``terminated`` for all.
    Rewards go to every agent that has observed in this game (RLlib adds rewards an agent
    gets while others move to its next transition).  Infos are the PettingZoo env's.
    """

    def __init__(self, game: str, env_config=None):
        super().__init__()
        from envs.adapters.pettingzoo_env import MadangAECEnv
        from envs.registration import game_class

        config = _config(env_config)
        config.pop("render_mode", None)
        self.aec = MadangAECEnv(game_class(game), **config)
        self.agents = self.possible_agents = list(self.aec.possible_agents)
        space = observation_space(self.aec.observation_space(self.agents[0]))
        self.observation_spaces = {a: space for a in self.agents}
        self.action_spaces = {a: self.aec.action_space(a) for a in self.agents}
        self._seen: set = set()

    def reset(self, *, seed=None, options=None):
        self.aec.reset(seed=seed, options=options)
        agent = self.aec.agent_selection
        self._seen = {agent}
        return {agent: observation(self.aec.observe(agent))}, {agent: dict(self.aec.infos[agent])}

    def step(self, action_dict):
        agent = self.aec.agent_selection
        self.aec.step(action_dict[agent])
        over = all(self.aec.terminations.values())
        movers = list(self.agents) if over else [self.aec.agent_selection]
        self._seen.update(movers)
        obs = {a: observation(self.aec.observe(a)) for a in movers}
        rewards = {a: float(r) for a, r in self.aec.rewards.items() if a in self._seen}
        terminated = {a: True for a in movers} if over else {}
        terminated["__all__"] = over
        infos = {a: dict(self.aec.infos[a]) for a in movers}
        return obs, rewards, terminated, {"__all__": False}, infos

    def render(self):
        return self.aec.render()


def masking_module(model_config: dict | None = None):
    """An ``RLModuleSpec`` of RLlib's ``ActionMaskingTorchRLModule`` (PPO), which masks the
    logits with ``obs["action_mask"]``; ``model_config`` as for RLlib's default module."""
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

    return RLModuleSpec(module_class=ActionMaskingTorchRLModule, model_config=model_config)


def log_results(*, episode, metrics_logger=None, **kwargs) -> None:
    """An ``on_episode_end`` callback (``config.callbacks(on_episode_end=log_results)``) that
    logs ``madang/forfeits``: the games lost by an illegal action (summed; 0 while the
    masking module keeps every action legal)."""
    if metrics_logger is None:
        return
    if hasattr(episode, "agent_episodes"):  # multi-agent: every agent's last info holds the result
        infos = [e.get_infos(-1) for e in episode.agent_episodes.values()]
    else:
        infos = [episode.get_infos(-1)]
    forfeit = any(i.get("reason_code") == reason_code("illegal") for i in infos)
    metrics_logger.log_value("madang/forfeits", int(forfeit), reduce="sum")
