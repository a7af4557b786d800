"""The Gymnasium single-agent env, generic over madang games (the core at batch size 1).

The learner plays one seat; the other seats are played inside ``reset``/``step`` by
bots until it is the learner's decision or the game is over, and the learner's
reward covers that whole span.  Masks come as ``info["action_mask"]`` (int8, or bool with
``mask_dtype="bool"``), through
:meth:`MadangEnv.action_masks` (the method sb3-contrib looks for) and, with
``observation_mode="dict"``, in the observation.
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
from gymnasium.utils import seeding

from ..core import rng as core_rng
from ..core.game import Game
from ..core.match import Match
from .actions import (
    check_illegal_config, check_options, check_render_mode, illegal_loss_rewards, make_game, parse_action,
    position_of, render_of,
)
from .infos import ResultFields, convert
from .observations import check_mask_dtype, check_observation_mode, observation, observation_space
from .seats import resolve_opponents

ADAPTER_KEYS = ("learner_seat", "opponents", "illegal_action", "illegal_penalty", "render_mode",
                "observation_mode", "info_mode", "mask_dtype")


class MadangEnv(gym.Env):
    """Single-agent env of one madang game.

    Config: ``learner_seat`` (int, or None for a random seat per episode; default the
    game's), ``opponents`` (bots or names for the other seats; default random legal
    play), ``illegal_action`` (``"raise"`` or ``"lose"``), ``illegal_penalty`` (1.0),
    ``render_mode`` (``"ansi"`` renders the table as the learner's seat sees it; others warn
    and render nothing), ``observation_mode`` (``"flat"`` or ``"dict"``,
    :mod:`~envs.adapters.observations`), ``mask_dtype`` (``"int8"`` or ``"bool"``, the dtype of
    every mask it returns), ``info_mode`` (``"full"`` or ``"numeric"``,
    :mod:`~envs.adapters.infos`); everything else goes to the game's rules (``num_players``,
    ``reward``, ...).

    Info: ``action_mask``, ``learner_seat``, ``reward_before_first_move`` (what the opponents'
    moves before the learner's first decision paid it), the game's reset fields (Go-Stop:
    ``redeals``, ``skipped_deals``) and the result fields (neutral until the game ends), in
    every info of a game.

    Reset options: ``{"position": dict}`` starts from a position (see the game's rules page); unknown
    keys are ignored.  ``reset(seed=s)`` starts the game's random stream from ``s``
    (an int, reduced modulo 2**64); a later ``reset()`` without a seed continues that stream.

    ``reset`` and ``step`` are atomic: if anything fails (a bad option, an opponent bot
    that raises or picks an illegal action, reported as
    :class:`~envs.adapters.seats.OpponentError` naming the bot, or any other exception, a
    ``KeyboardInterrupt`` or ``SystemExit`` inside a bot's move included), the env is left
    exactly as it was, random streams and ``np_random`` included, and the exception is
    re-raised.
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(
        self,
        game_cls: type[Game],
        *,
        learner_seat: int | None | str = "default",
        opponents=None,
        illegal_action: str = "raise",
        illegal_penalty: float = 1.0,
        render_mode: str | None = None,
        observation_mode: str = "flat",
        info_mode: str = "full",
        mask_dtype: str = "int8",
        **game_config,
    ):
        self.game = make_game(game_cls, game_config, ADAPTER_KEYS)
        P = self.game.num_players
        if learner_seat == "default":
            learner_seat = getattr(self.game, "default_learner_seat", 0)
        if learner_seat is not None:
            if isinstance(learner_seat, bool) or not isinstance(learner_seat, (int, np.integer)):
                raise ValueError(f"learner_seat must be an int or None, got {learner_seat!r}")
            if not 0 <= learner_seat < P:
                raise ValueError(f"learner_seat must be in 0..{P - 1}, got {learner_seat}")
        self.learner_seat_config = learner_seat
        self.illegal_action = illegal_action
        self.illegal_penalty = check_illegal_config(illegal_action, illegal_penalty)
        self.render_mode = check_render_mode(render_mode)
        self.opponents = resolve_opponents(self.game, opponents)
        self._match = Match(self.game, self.opponents)  # plays the opponents' seats; keeps step's snapshot
        self.observation_mode = check_observation_mode(observation_mode)
        self.mask_dtype = check_mask_dtype(mask_dtype)
        self.results = ResultFields(self.game, info_mode, self.illegal_penalty)
        self.info_mode = info_mode
        self.observation_space = observation_space(self.game, observation_mode, self.mask_dtype)
        self.action_space = gym.spaces.Discrete(self.game.num_actions)
        self.spec_id = self.game.env_id
        self.state = None
        self.learner_seat = 0
        self._episode_info: dict = {}  # the reset fields of the current game
        self._over: dict | None = None  # result when the game ended (by the rules or illegally)
        self._forfeited_by: int | None = None  # the learner's seat after an illegal action in "lose" mode
        self._mask = np.zeros(self.game.num_actions, dtype=bool)  # the learner's legal actions now

    # ------------------------------------------------------------------ API
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        options = check_options(options)
        if seed is None:
            np_random, np_seed = self.np_random, self.np_random_seed
        else:
            seed = core_rng.normalize_seed(seed)
            np_random, np_seed = seeding.np_random(seed)
        rng_state = np_random.bit_generator.state
        try:  # everything is computed first; the env changes only once nothing can fail
            state, info = self.game.new_episode(options, seed, self.state)
            P = self.game.num_players
            seat = self.learner_seat_config
            learner_seat = int(np_random.integers(P)) if seat is None else int(seat)
            reward = self._match.play(state, np_random, learner_seat=learner_seat, check=False)[0, learner_seat]
            info = {k: v for k, v in info.items() if k not in self.results.keys}  # results come from the state
            episode_info = convert({"reward_before_first_move": float(reward), **info}, self.info_mode)
            obs, info, mask, over = self._view(state, learner_seat, None, episode_info)
        except BaseException:  # a failing bot, or an interrupt (KeyboardInterrupt, SystemExit) in one
            np_random.bit_generator.state = rng_state
            raise
        self.state, self.learner_seat, self._over, self._forfeited_by = state, learner_seat, over, None
        self._np_random, self._np_random_seed = np_random, np_seed
        self._episode_info, self._mask = episode_info, mask
        return obs, info

    def step(self, action):
        state = self.state
        if state is None:
            raise ValueError("call reset() before step()")
        if self._over is not None or state.done[0]:
            raise ValueError("the game is over; call reset() before step()")
        a = parse_action(action, self.game.num_actions)
        seat = self.learner_seat
        if not self._mask[a]:  # the mask of this state, computed when it was handed out
            if self.illegal_action == "raise":
                legal = np.flatnonzero(self._mask).tolist()
                raise ValueError(
                    f"illegal action {a} ({self.game.describe_action(a)}); legal actions: {legal}"
                )
            return self._forfeit(state, seat)
        # The match snapshots the state and np_random first and puts them back if anything fails
        # (a bot, or an interrupt) there or in the view below.
        np_random = self.np_random
        try:
            rewards = self._match.play(state, np_random, learner_seat=seat, learner_actions=np.array([a]),
                                       rollback=True, check=False)  # the action was checked above
            obs, info, mask, over = self._view(state, seat, None, self._episode_info)
        except BaseException:
            self._match.undo(state)
            raise
        self._mask, self._over = mask, over
        return obs, float(rewards[0, seat]), over is not None, False, info

    def _forfeit(self, state, seat: int):
        """The learner's illegal action in ``"lose"`` mode: the game ends, the state stays."""
        rewards = illegal_loss_rewards(self.game, self.game.num_players, seat, self.illegal_penalty)
        over = {"reason": "illegal", **self.game.forfeit_result(state, 0, seat, self.illegal_penalty)}
        obs, info, mask, over = self._view(state, seat, over, self._episode_info)
        self._over, self._forfeited_by, self._mask = over, seat, mask
        return obs, float(rewards[seat]), True, False, info

    def action_masks(self) -> np.ndarray:
        """The learner's current legal-action mask as ``mask_dtype`` (all zeros once the game is over)."""
        if self.state is None:
            raise ValueError("call reset() before action_masks()")
        return self._mask.astype(self.mask_dtype)

    def to_position(self) -> dict:
        """The current position dict (see the game's rules page); ``ValueError`` after a forfeit ("lose" mode)."""
        return position_of(self.game, self.state, self._forfeited_by)

    def render(self):
        return render_of(self.game, self.state, self.render_mode, self._forfeited_by,
                         seat=self.learner_seat)

    # ------------------------------------------------------------- helpers
    def _view(self, state, learner_seat: int, over: dict | None, episode_info: dict):
        """The observation, info, learner's mask and result (None while the game runs) that
        ``state`` gives the learner; stores nothing.  ``over`` is a result already known (a
        forfeit)."""
        if over is None and state.done[0]:
            over = self.game.result(state, 0)
        if over is None:
            mask = self.game.legal_mask(state, check=False)[0]
        else:
            mask = np.zeros(self.game.num_actions, dtype=bool)
        seats = None if state.to_move[0] == learner_seat else np.array([learner_seat])
        obs = self.game.observe(state, seats, check=False)[0]  # a row of a fresh array
        if self.observation_mode != "flat":
            obs = observation(obs, mask.astype(self.mask_dtype), self.observation_mode)
        info = {"action_mask": mask.astype(self.mask_dtype), "learner_seat": learner_seat, **episode_info}
        info.update(self.results.neutral() if over is None else self.results.final(over))
        return obs, info, mask, over
