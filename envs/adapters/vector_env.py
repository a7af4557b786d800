"""The Gymnasium vector env, generic over madang games: the batched core at batch size N.

Autoreset mode: **same-step** (``metadata["autoreset_mode"] = AutoresetMode.SAME_STEP``).
When a game ends, ``step`` returns the first observation of the slot's next game, and
``infos["final_obs"]`` / ``infos["final_info"]`` (with the ``_final_obs`` /
``_final_info`` masks) hold the last observation and the result of the ended game.
The next game continues the slot's random stream.  Masks of the returned
observations are in ``infos["action_mask"]`` ((N, A) int8) and :meth:`action_masks`.
Opponent seats are played inside, as in the single-agent env.
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv

from ..core import rng as core_rng
from ..core.game import Game
from .actions import check_options, make_game
from .seats import play_opponents, resolve_opponents

ADAPTER_KEYS = ("num_envs", "learner_seat", "opponents")


class MadangVectorEnv(VectorEnv):
    """N games of one madang game stepped together with one call of the batched core.

    Config: ``num_envs``, ``learner_seat`` (int or None for a random seat per game),
    ``opponents`` (as in the single-agent env); the rest goes to the game's rules.
    ``reset(seed=s)`` seeds slot ``i`` with ``s + i`` (or ``seed`` may be a list of N
    seeds; every seed is an int reduced modulo 2**64, so ``s + i`` wraps), so slot ``i``
    replays the games of a single env seeded ``s + i``: its game stream, and with
    ``learner_seat=None`` its seat draws (slot ``i`` draws its seats from its own
    generator seeded like that single env's ``np_random``).  Opponent bots share one
    generator across the slots.  ``reset`` takes no options (a non-dict is a ``ValueError``).

    ``reset`` and ``step`` are atomic: if anything fails (an illegal learner action, or an
    opponent bot that raises or picks an illegal action, reported as
    :class:`~envs.adapters.seats.OpponentError` naming the bot), every slot is left as it
    was, random streams and generators included.
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, game_cls: type[Game], num_envs: int = 1, *, learner_seat="default",
                 opponents=None, **game_config):
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive int, got {num_envs!r}")
        self.game = make_game(game_cls, game_config, ADAPTER_KEYS)
        P = self.game.num_players
        if learner_seat == "default":
            learner_seat = getattr(self.game, "default_learner_seat", 0)
        if learner_seat is not None and not (
            isinstance(learner_seat, (int, np.integer)) and not isinstance(learner_seat, bool)
            and 0 <= learner_seat < P
        ):
            raise ValueError(f"learner_seat must be None or an int in 0..{P - 1}, got {learner_seat!r}")
        self.learner_seat_config = learner_seat
        self.num_envs = int(num_envs)
        self.opponents = resolve_opponents(self.game, opponents)
        self.single_observation_space = gym.spaces.Box(0.0, 1.0, (self.game.obs_size,), np.float32)
        self.single_action_space = gym.spaces.Discrete(self.game.num_actions)
        self.observation_space = gym.vector.utils.batch_space(self.single_observation_space, self.num_envs)
        self.action_space = gym.spaces.MultiDiscrete(np.full(self.num_envs, self.game.num_actions))
        self.state = None
        self.learner_seat = np.zeros(self.num_envs, dtype=np.int64)
        self._np_random = np.random.default_rng()
        self._seat_rngs: list[np.random.Generator] = []

    def reset(self, *, seed=None, options=None):
        check_options(options)
        n = self.num_envs
        if seed is None:
            seeds = core_rng.seed_range(core_rng.seed_from_entropy(), n).tolist()
            np_random = np.random.default_rng()
        elif isinstance(seed, (list, tuple, np.ndarray)):
            seeds = core_rng.seed_array(seed).tolist()
            if len(seeds) != n:
                raise ValueError(f"seed must be an int or {n} ints, got {len(seeds)}")
            np_random = np.random.default_rng(seeds)
        else:
            seeds = core_rng.seed_range(seed, n).tolist()
            np_random = np.random.default_rng(seeds[0])
        state = self.game.init(seeds)
        seat_rngs = [np.random.default_rng(s) for s in seeds]
        seats = np.zeros(n, dtype=np.int64)
        self._draw_seats(seats, seat_rngs, np.arange(n))
        play_opponents(self.game, state, seats, self.opponents, np_random)
        self.state, self.learner_seat, self._np_random, self._seat_rngs = state, seats, np_random, seat_rngs
        return self._obs(), {"action_mask": self.action_masks()}

    def step(self, actions):
        if self.state is None:
            raise ValueError("call reset() before step()")
        # A failing opponent bot leaves every slot as it was: opponents play on a copy, and
        # each generator's state is saved before its first draw (see _step).  Without
        # opponents nothing can fail after the core has checked the actions.
        solo = self.game.num_players == 1
        state, seats = (self.state if solo else self.state.copy()), self.learner_seat.copy()
        saved: dict = {}
        try:
            out = self._step(state, seats, np.asarray(actions), saved)
        except Exception:
            for g, st in saved.items():
                g.bit_generator.state = st
            raise
        self.state, self.learner_seat = state, seats
        return out

    def _step(self, state, seats, actions, saved: dict):
        """One step of every slot; ``saved`` collects each generator's state before it draws."""
        rewards = self.game.step(state, actions)[np.arange(self.num_envs), seats]
        if self.game.num_players > 1:
            saved.setdefault(self._np_random, self._np_random.bit_generator.state)
        rewards = rewards + play_opponents(self.game, state, seats, self.opponents, self._np_random)
        terminated = state.done.copy()
        infos = {}
        if terminated.any():
            idx = np.flatnonzero(terminated)
            final_obs = np.zeros((self.num_envs, self.game.obs_size), dtype=np.float32)
            final_obs[idx] = self.game.observe(state.take(idx), seats[idx])
            results = [self.game.result(state, int(i)) for i in idx]
            infos["final_obs"], infos["_final_obs"] = final_obs, terminated.copy()
            infos["final_info"], infos["_final_info"] = _stack_infos(results, idx, self.num_envs), terminated.copy()
            self.game.reset_where(state, terminated)
            if self.learner_seat_config is None:
                for i in idx:
                    saved.setdefault(self._seat_rngs[i], self._seat_rngs[i].bit_generator.state)
            self._draw_seats(seats, self._seat_rngs, idx)
            play_opponents(self.game, state, seats, self.opponents, self._np_random)
        infos["action_mask"] = self.game.legal_mask(state).astype(np.int8)
        truncated = np.zeros(self.num_envs, dtype=bool)
        obs = self.game.observe(state, seats)
        return obs, rewards.astype(np.float32), terminated, truncated, infos

    def action_masks(self) -> np.ndarray:
        """(N, A) int8 legal masks of the learner in every slot."""
        return self.game.legal_mask(self.state).astype(np.int8)

    def _draw_seats(self, seats: np.ndarray, seat_rngs: list, idx: np.ndarray) -> None:
        """Set the learner's seat of the slots ``idx`` in ``seats`` (drawn per slot, or fixed)."""
        if self.learner_seat_config is None:
            for i in idx:
                seats[i] = seat_rngs[i].integers(self.game.num_players)
        else:
            seats[idx] = self.learner_seat_config

    def _obs(self) -> np.ndarray:
        return self.game.observe(self.state, self.learner_seat)


def _stack_infos(results: list[dict], idx: np.ndarray, n: int) -> dict:
    """Gymnasium-style dict of arrays (with ``_key`` masks) from per-slot result dicts."""
    out: dict = {}
    for k in {k for r in results for k in r}:
        arr = np.empty(n, dtype=object)
        present = np.zeros(n, dtype=bool)
        for i, r in zip(idx, results):
            if k in r:
                arr[i], present[i] = r[k], True
        out[k], out[f"_{k}"] = arr, present
    return out
