"""The Gymnasium single-agent env, generic over madang games (the core at batch size 1).

The learner plays one seat; the other seats are played inside ``reset``/``step`` by
bots until it is the learner's decision or the game is over, and the learner's
reward covers that whole span.  Masks come as ``info["action_mask"]`` (int8) and
through :meth:`MadangEnv.action_masks` (the method sb3-contrib looks for).
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
from gymnasium.utils import seeding

from ..core import rng as core_rng
from ..core.game import Game
from .actions import (
    check_illegal_config, check_options, check_render_mode, illegal_loss_rewards, make_game, parse_action,
    position_of, render_of,
)
from .seats import play_opponents, resolve_opponents

ADAPTER_KEYS = ("learner_seat", "opponents", "illegal_action", "illegal_penalty", "render_mode")


class MadangEnv(gym.Env):
    """Single-agent env of one madang game.

    Config: ``learner_seat`` (int, or None for a random seat per episode; default the
    game's), ``opponents`` (bots or names for the other seats; default random legal
    play), ``illegal_action`` (``"raise"`` or ``"lose"``), ``illegal_penalty`` (1.0),
    ``render_mode`` (``"ansi"`` renders the table as the learner's seat sees it; others warn
    and render nothing); everything
    else goes to the game's rules (``num_players``, ``reward``, ...).

    Reset options: ``{"position": dict}`` starts from a position (game spec); unknown
    keys are ignored.  ``reset(seed=s)`` starts the game's random stream from ``s``
    (an int, reduced modulo 2**64); a later ``reset()`` without a seed continues that stream.

    ``reset`` and ``step`` are atomic: if anything fails (a bad option, or an opponent bot
    that raises or picks an illegal action, reported as
    :class:`~envs.adapters.seats.OpponentError` naming the bot), the env is left exactly as
    it was, random streams and ``np_random`` included.
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
        self.observation_space = gym.spaces.Box(0.0, 1.0, (self.game.obs_size,), np.float32)
        self.action_space = gym.spaces.Discrete(self.game.num_actions)
        self.spec_id = self.game.env_id
        self.state = None
        self.learner_seat = 0
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
        try:
            state, info = self.game.new_episode(options, seed, self.state)
            P = self.game.num_players
            seat = self.learner_seat_config
            learner_seat = int(np_random.integers(P)) if seat is None else int(seat)
            reward = self._advance(state, learner_seat, np_random)
        except Exception:
            np_random.bit_generator.state = rng_state
            raise
        self.state, self.learner_seat, self._over, self._forfeited_by = state, learner_seat, None, None
        self._np_random, self._np_random_seed = np_random, np_seed
        if reward:
            info["reward_before_first_move"] = float(reward)
        return self._obs(), self._info(info)

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
            rewards = illegal_loss_rewards(self.game, self.game.num_players, seat, self.illegal_penalty)
            self._over = {"reason": "illegal", **self.game.forfeit_result(state, 0, seat, self.illegal_penalty)}
            self._forfeited_by = seat
            return self._obs(), float(rewards[seat]), True, False, self._info()
        if self.game.num_players == 1:  # no opponent can fail: step in place
            reward = float(self.game.step(state, np.array([a]), check=False)[0, seat])  # checked above
        else:
            before = state.copy()  # opponents move next: a failing bot restores this
            try:
                reward = float(self.game.step(state, np.array([a]), check=False)[0, seat])
                reward += self._advance(state, seat, self.np_random)
            except Exception:
                self.state = before
                raise
        terminated = bool(state.done[0])
        if terminated:
            self._over = self.game.result(state, 0)
        return self._obs(), reward, terminated, False, self._info()

    def action_masks(self) -> np.ndarray:
        """The learner's current legal-action mask as int8 (all zeros once the game is over)."""
        if self.state is None:
            raise ValueError("call reset() before action_masks()")
        return self._mask.astype(np.int8)

    def to_position(self) -> dict:
        """The current position dict (game spec); ``ValueError`` after a forfeit ("lose" mode)."""
        return position_of(self.game, self.state, self._forfeited_by)

    def render(self):
        return render_of(self.game, self.state, self.render_mode, self._forfeited_by,
                         seat=self.learner_seat)

    # ------------------------------------------------------------- helpers
    def _advance(self, state, learner_seat: int, np_random) -> float:
        """Let the opponents move until the learner's turn; returns the learner's rewards.

        If a bot fails, ``np_random`` is restored before raising (the caller restores the
        state); its state is saved only when an opponent is about to move.
        """
        if state.done[0] or state.to_move[0] == learner_seat:
            return 0.0
        saved = np_random.bit_generator.state
        try:
            seats = np.array([learner_seat], dtype=np.int64)
            return float(play_opponents(self.game, state, seats, self.opponents, np_random)[0])
        except Exception:
            np_random.bit_generator.state = saved
            raise

    def _obs(self) -> np.ndarray:
        state = self.state
        seats = None if state.to_move[0] == self.learner_seat else np.array([self.learner_seat])
        return self.game.observe(state, seats)[0]  # a row of a fresh array

    def _info(self, extra: dict | None = None) -> dict:
        """The info dict of the current state; also computes the learner's mask for ``step``."""
        if self._over is None and self.state.done[0]:
            self._over = self.game.result(self.state, 0)
        if self._over is None:
            self._mask = self.game.legal_mask(self.state)[0]
        else:
            self._mask = np.zeros(self.game.num_actions, dtype=bool)
        info = {"action_mask": self._mask.astype(np.int8), "learner_seat": self.learner_seat}
        if self._over is not None:
            info.update(self._over)
        if extra:
            info.update(extra)
        return info
