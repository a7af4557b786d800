"""The PettingZoo AEC env, generic over madang games: every seat is an external agent.

Agents are ``player_0``, ``player_1``, ... in seat order.  Each observation is the
dict ``{"observation": float32 vector from that agent's seat, "action_mask": int8}`` (bool
with ``mask_dtype="bool"``);
the mask is all zeros for agents who are not to move.  Built by
:func:`make_aec_env`, which wraps the env only in PettingZoo's
``OrderEnforcingWrapper`` (docs/interface.md §2).
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..core.game import Game
from .actions import (
    check_illegal_config, check_options, check_render_mode, illegal_loss_rewards, make_game, parse_action,
    position_of, render_of,
)
from .infos import ResultFields, convert
from .observations import check_mask_dtype, observation_space

ADAPTER_KEYS = ("illegal_action", "illegal_penalty", "render_mode", "info_mode", "mask_dtype")


class MadangAECEnv(AECEnv):
    """All seats of one madang game as PettingZoo agents (the core at batch size 1).

    Config: ``illegal_action`` (``"raise"`` or ``"lose"``), ``illegal_penalty`` (1.0),
    ``render_mode`` (``"ansi"`` renders the table as the seat to move sees it; others warn
    and render nothing), ``info_mode`` (``"full"`` or ``"numeric"``, :mod:`~envs.adapters.infos`),
    ``mask_dtype`` (``"int8"`` or ``"bool"``, the dtype of the observations' masks);
    everything else goes to the game's rules.
    Every agent's ``info`` holds the game's reset fields (Go-Stop: ``redeals``,
    ``skipped_deals``) and its result fields: neutral until the game ends, then the result.

    ``reset`` and ``step`` are atomic: an illegal action (``"raise"`` mode) or anything that
    fails meanwhile, an interrupt included, leaves the env as it was.
    """

    metadata = {"render_modes": ["ansi"], "is_parallelizable": False, "render_fps": 4}

    def __init__(
        self,
        game_cls: type[Game],
        *,
        illegal_action: str = "raise",
        illegal_penalty: float = 1.0,
        render_mode: str | None = None,
        info_mode: str = "full",
        mask_dtype: str = "int8",
        **game_config,
    ):
        super().__init__()
        self.game = make_game(game_cls, game_config, ADAPTER_KEYS)
        self.metadata = dict(self.metadata, name=f"madang_{self.game.name}_v0")
        self.render_mode = check_render_mode(render_mode)
        self.illegal_action = illegal_action
        self.illegal_penalty = check_illegal_config(illegal_action, illegal_penalty)
        self.results = ResultFields(self.game, info_mode, self.illegal_penalty)
        self.info_mode = info_mode
        self.mask_dtype = check_mask_dtype(mask_dtype)
        P, A = self.game.num_players, self.game.num_actions
        self.possible_agents = [f"player_{i}" for i in range(P)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = observation_space(self.game, "dict", self.mask_dtype)
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: gym.spaces.Discrete(A) for a in self.possible_agents}
        self.state = None
        self._mask = np.zeros(A, dtype=bool)  # legal actions of the seat to move in ``state``
        self._forfeited_by: int | None = None  # seat that lost by an illegal action ("lose" mode)
        self._spare = None  # a state of the current game's shapes that step snapshots into
        self._np_random = np.random.default_rng()

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ API
    def reset(self, seed: int | None = None, options: dict | None = None):
        # Everything is computed first; the env changes only once nothing can fail.
        state, reset_info = self.game.new_episode(check_options(options), seed, self.state)
        mask = self.game.legal_mask(state, check=False)[0]  # all False once done
        reset_info = convert({k: v for k, v in reset_info.items() if k not in self.results.keys}, self.info_mode)
        agents = self.possible_agents[:]
        infos = {a: {**reset_info, **self.results.neutral()} for a in agents}
        ended = None
        if state.done[0]:  # a deal that ended before any decision
            ended = (np.asarray(self.game.final_rewards(state, 0), dtype=np.float32), self.game.result(state, 0))
        self.state, self._mask, self._forfeited_by, self._spare = state, mask, None, None
        self.agents = agents
        self.rewards = {a: 0.0 for a in agents}
        self._cumulative_rewards = {a: 0.0 for a in agents}
        self.terminations = {a: False for a in agents}
        self.truncations = {a: False for a in agents}
        self.infos = infos
        self.agent_selection = self.possible_agents[int(state.to_move[0])]
        if ended is not None:
            self._finish(*ended)

    def observe(self, agent):
        seat = self.agent_name_mapping[agent]
        state = self.state
        obs = self.game.observe(state, None if seat == state.to_move[0] else np.array([seat]), check=False)[0]
        if agent == self.agent_selection and not self.terminations.get(agent, True):
            mask = self._mask.astype(self.mask_dtype)
        else:
            mask = np.zeros(self.game.num_actions, dtype=self.mask_dtype)
        return {"observation": obs, "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        a = parse_action(action, self.game.num_actions)
        seat = self.agent_name_mapping[agent]
        mask = self._mask  # the legal actions of the seat to move in this state
        if not mask[a]:
            if self.illegal_action == "raise":
                legal = np.flatnonzero(mask).tolist()
                raise ValueError(
                    f"illegal action {a} ({self.game.describe_action(a)}) by {agent}; "
                    f"legal actions: {legal}"
                )
            rewards = illegal_loss_rewards(self.game, self.game.num_players, seat, self.illegal_penalty)
            result = {"reason": "illegal", **self.game.forfeit_result(self.state, 0, seat, self.illegal_penalty)}
            self._cumulative_rewards[agent] = 0.0
            self._forfeited_by = seat
            self._finish(rewards, result)
            return
        # The state before the step, restored if anything fails meanwhile (an interrupt).
        state, before = self.state, self._spare
        if before is None:
            before = state.copy(check=False)
        else:
            state.copy_into(before, check=False)
        try:
            rewards = self.game.step(state, np.array([a]), check=False)[0]  # checked above
            new_mask = self.game.legal_mask(state, check=False)[0]
            result = self.game.result(state, 0) if state.done[0] else None
        except BaseException:
            self.state, self._spare = before, None
            raise
        self._spare, self._mask = before, new_mask
        self._cumulative_rewards[agent] = 0.0
        if result is not None:
            self._finish(rewards, result)
            return
        self.rewards = {ag: float(rewards[i]) for i, ag in enumerate(self.agents)}
        self._accumulate_rewards()
        self.agent_selection = self.possible_agents[int(state.to_move[0])]

    def _finish(self, rewards: np.ndarray, result: dict) -> None:
        self.rewards = {ag: float(rewards[i]) for i, ag in enumerate(self.possible_agents)}
        self._accumulate_rewards()
        for ag in self.agents:
            self.terminations[ag] = True
            self.infos[ag] = dict(self.infos[ag], **self.results.final(result))

    def to_position(self) -> dict:
        """The current position dict (see the game's rules page); ``ValueError`` after a forfeit ("lose" mode)."""
        return position_of(self.game, self.state, self._forfeited_by)

    def render(self):
        return render_of(self.game, self.state, self.render_mode, self._forfeited_by)  # the mover's view

    def close(self):
        pass


def make_aec_env(game_cls: type[Game], **config):
    """A :class:`MadangAECEnv` wrapped only in PettingZoo's ``OrderEnforcingWrapper``."""
    return wrappers.OrderEnforcingWrapper(MadangAECEnv(game_cls, **config))
