"""The Gymnasium vector env, generic over madang games: the batched core at batch size N.

Autoreset mode (config ``autoreset_mode``, also the attribute ``autoreset_mode`` and
``metadata["autoreset_mode"]``):

* ``"same_step"`` (default, ``AutoresetMode.SAME_STEP``): when a game ends, ``step`` returns
  the first observation of the slot's next game, and ``infos["final_obs"]`` /
  ``infos["final_info"]`` (with the ``_final_obs`` / ``_final_info`` masks) hold the last
  observation and the result fields of the ended game.
* ``"next_step"`` (``AutoresetMode.NEXT_STEP``, what RLlib's env runners assume): the step
  that ends a game returns its last observation, its reward, ``terminated=True`` and its
  result fields in ``infos``; the next ``step`` ignores that slot's action and returns the
  first observation of its next game with reward 0.
* ``"disabled"`` (``AutoresetMode.DISABLED``, what TorchRL prefers): as next-step, but a
  finished game waits for ``reset(options={"reset_mask": mask})``, which starts new games in
  the slots ``mask`` selects (stepping a finished slot is a ``ValueError``).

``reset(options={"reset_mask": mask})`` works in every mode: it restarts only the selected
slots (continuing their streams, or from ``seed`` as in a full reset) and leaves the others.

The next game continues the slot's random stream.  ``infos`` hold, per slot, what the
single env's info holds: the learner's seat (``learner_seat``), ``reward_before_first_move``,
the game's reset fields (Go-Stop: ``redeals``, ``skipped_deals``) and the result fields
(:mod:`~envs.adapters.infos`: neutral until the game ends); beside every key ``k`` is
Gymnasium's ``_k`` mask of the slots that report it, so infos have the keys and masks that
``gymnasium.vector.SyncVectorEnv`` over single envs gives (every slot in a step; the selected
slots in a ``reset`` with ``reset_mask``; the ended slots in ``final_info``).  Masks of the
returned observations are in ``infos["action_mask"]`` ((N, A) int8, or bool with
``mask_dtype="bool"``; all zeros for a game that is over), :meth:`~MadangVectorEnv.action_masks`
and, with ``observation_mode="dict"``, the observations.  Opponent seats are played inside, as
in the single-agent env.
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv

from ..core import rng as core_rng
from ..core.game import Game
from ..core.match import Match
from .actions import check_illegal_config, check_options, make_game
from .infos import ResultFields, convert
from .observations import check_mask_dtype, check_observation_mode, observation, observation_space
from .seats import resolve_opponents

ADAPTER_KEYS = ("num_envs", "learner_seat", "opponents", "autoreset_mode", "observation_mode", "info_mode",
                "illegal_action", "illegal_penalty", "mask_dtype")

AUTORESET_MODES = {"same_step": AutoresetMode.SAME_STEP, "next_step": AutoresetMode.NEXT_STEP,
                   "disabled": AutoresetMode.DISABLED}


def check_autoreset_mode(mode) -> AutoresetMode:
    """``"same_step"`` / ``"next_step"`` (or the ``AutoresetMode`` members) as an ``AutoresetMode``."""
    for name, member in AUTORESET_MODES.items():
        if mode == name or mode is member:
            return member
    raise ValueError(f"autoreset_mode must be one of {list(AUTORESET_MODES)}, got {mode!r}")


class MadangVectorEnv(VectorEnv):
    """N games of one madang game stepped together with one call of the batched core.

    Config: ``num_envs``, ``learner_seat`` (int or None for a random seat per game),
    ``opponents`` (as in the single-agent env), ``autoreset_mode`` (``"same_step"``,
    ``"next_step"`` or ``"disabled"``, see the module docstring), ``observation_mode`` (``"flat"`` or
    ``"dict"``), ``info_mode`` (``"full"`` or ``"numeric"``), ``mask_dtype`` (``"int8"`` or
    ``"bool"``), ``illegal_action`` (``"raise"`` or ``"lose"``) and ``illegal_penalty`` as in the
    single-agent env; the rest goes to the game's rules.

    ``reset(seed=s)`` seeds slot ``i`` with ``s + i`` (or ``seed`` may be a list of N
    seeds; every seed is an int reduced modulo 2**64, so ``s + i`` wraps), so slot ``i``
    replays the games of a single env seeded ``s + i``: its game stream, and with
    ``learner_seat=None`` its seat draws (slot ``i`` draws its seats from its own
    generator seeded like that single env's ``np_random``).  Opponent bots share one
    generator across the slots.  ``reset`` options: ``reset_mask`` ((N,) bool, see the module
    docstring); other keys are ignored (a non-dict is a ``ValueError``).

    Actions: an (N,) integer array.  With ``illegal_action="lose"`` an illegal action ends
    that slot's game at once (``terminated``, reward ``-illegal_penalty``, ``reason``
    ``"illegal"``); a wrong dtype or shape, or an id out of range, is always a ``ValueError``.

    ``reset`` and ``step`` are atomic: if anything fails (an illegal learner action in
    ``"raise"`` mode, or an opponent bot that raises or picks an illegal action, reported as
    :class:`~envs.adapters.seats.OpponentError` naming the bot, or any other exception, a
    ``KeyboardInterrupt`` or ``SystemExit`` inside a bot's move included), every slot is left
    as it was, random streams and generators included, and the exception is re-raised.
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, game_cls: type[Game], num_envs: int = 1, *, learner_seat="default",
                 opponents=None, autoreset_mode="same_step", observation_mode: str = "flat",
                 info_mode: str = "full", illegal_action: str = "raise", illegal_penalty: float = 1.0,
                 mask_dtype: str = "int8", **game_config):
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
        self.autoreset_mode = check_autoreset_mode(autoreset_mode)
        self.metadata = dict(self.metadata, autoreset_mode=self.autoreset_mode)
        self.observation_mode = check_observation_mode(observation_mode)
        self.mask_dtype = check_mask_dtype(mask_dtype)
        self.illegal_action = illegal_action
        self.illegal_penalty = check_illegal_config(illegal_action, illegal_penalty)
        self.results = ResultFields(self.game, info_mode, self.illegal_penalty)
        self.info_mode = info_mode
        self.opponents = resolve_opponents(self.game, opponents)
        self._match = Match(self.game, self.opponents)  # plays the opponents' seats
        self.single_observation_space = observation_space(self.game, observation_mode, self.mask_dtype)
        self.single_action_space = gym.spaces.Discrete(self.game.num_actions)
        self.observation_space = gym.vector.utils.batch_space(self.single_observation_space, self.num_envs)
        self.action_space = gym.spaces.MultiDiscrete(np.full(self.num_envs, self.game.num_actions))
        self.state = None
        self.learner_seat = np.zeros(self.num_envs, dtype=np.int64)
        self._np_random = np.random.default_rng()
        self._seat_rngs: list[np.random.Generator] = []
        # Slots whose game ended and waits for its restart (next-step and disabled modes), their
        # results, and those of them that ended by an illegal learner action (not over in the core).
        self._ended = np.zeros(self.num_envs, dtype=bool)
        self._finished: dict[int, dict] = {}
        self._forfeited = np.zeros(self.num_envs, dtype=bool)
        self._mask = np.zeros((self.num_envs, self.game.num_actions), dtype=self.mask_dtype)  # of the last return
        self._episode = EpisodeFields(self.game, self.num_envs, info_mode)  # each slot's game's reset fields

    def reset(self, *, seed=None, options=None):
        options = check_options(options)
        n = self.num_envs
        reset_mask = options.get("reset_mask")
        if reset_mask is not None and self.state is not None:
            return self._reset_slots(seed, _check_reset_mask(reset_mask, n))
        # Everything is computed first (on new objects); the env changes only once nothing can fail.
        seeds, np_random = self._seeds(seed)
        state = self.game.init(seeds)
        seat_rngs = [np.random.default_rng(s) for s in seeds]
        seats = np.zeros(n, dtype=np.int64)
        self._draw_seats(seats, seat_rngs, np.arange(n))
        before = self._match.play(state, np_random, learner_seat=seats, check=False)[np.arange(n), seats]
        episode = self._episode.copy()
        episode.start(state, np.arange(n), before)
        mask = self.game.legal_mask(state, check=False).astype(self.mask_dtype)
        out = self._observe(state, seats, mask), self._infos(mask, seats, episode, self.results.batch(n))
        self.state, self.learner_seat, self._np_random, self._seat_rngs = state, seats, np_random, seat_rngs
        self._ended = np.zeros(n, dtype=bool)
        self._forfeited = np.zeros(n, dtype=bool)
        self._finished = {}
        self._mask, self._episode = mask, episode
        return out

    def _seeds(self, seed) -> tuple[list[int], np.random.Generator]:
        """The N slot seeds of ``reset(seed=...)`` and the opponents' generator."""
        n = self.num_envs
        if seed is None:
            return core_rng.seed_range(core_rng.seed_from_entropy(), n).tolist(), np.random.default_rng()
        if isinstance(seed, (list, tuple, np.ndarray)):
            seeds = core_rng.seed_array(seed).tolist()
            if len(seeds) != n:
                raise ValueError(f"seed must be an int or {n} ints, got {len(seeds)}")
            return seeds, np.random.default_rng(seeds)
        seeds = core_rng.seed_range(seed, n).tolist()
        return seeds, np.random.default_rng(seeds[0])

    def _reset_slots(self, seed, where: np.ndarray):
        """``reset(options={"reset_mask": where})``: new games in the slots ``where`` selects."""
        n, game = self.num_envs, self.game
        idx = np.flatnonzero(where)
        state, seats, seat_rngs = self.state.copy(check=False), self.learner_seat.copy(), list(self._seat_rngs)
        episode = self._episode.copy()
        generators = [self._np_random, *self._seat_rngs]
        saved = [g.bit_generator.state for g in generators]
        try:  # on copies: the env changes only once nothing can fail
            if seed is None:
                game.reset_where(state, where, check=False)
            else:
                seeds, _ = self._seeds(seed)
                state.put(idx, game.init([seeds[i] for i in idx]), check=False)
                for i in idx:
                    seat_rngs[i] = np.random.default_rng(seeds[i])
            self._draw_seats(seats, seat_rngs, idx)
            before = self._match.play(state, self._np_random, learner_seat=seats, check=False)
            episode.start(state, idx, before[idx, seats[idx]])
            ended, forfeited = self._ended.copy(), self._forfeited.copy()
            ended[idx] = forfeited[idx] = False
            finished = {i: r for i, r in self._finished.items() if not where[i]}
            mask = game.legal_mask(state, check=False).astype(self.mask_dtype)
            mask[forfeited] = 0
            # As SyncVectorEnv: only the slots that were reset report their infos.
            out = self._observe(state, seats, mask), self._infos(mask, seats, episode,
                                                                 self.results.batch(n, finished), where)
        except BaseException:  # a failing bot, or an interrupt (KeyboardInterrupt, SystemExit) in one
            for g, s in zip(generators, saved):
                g.bit_generator.state = s
            raise
        self.state, self.learner_seat, self._seat_rngs, self._episode = state, seats, seat_rngs, episode
        self._ended, self._forfeited, self._finished, self._mask = ended, forfeited, finished, mask
        return out

    def step(self, actions):
        if self.state is None:
            raise ValueError("call reset() before step()")
        # A failure (a bot, or an interrupt such as KeyboardInterrupt) leaves every slot as it
        # was: the step works on a copy of the state, the slot flags are copies, and each
        # generator's state is saved before its first draw (see _step).
        state, seats = self.state.copy(check=False), self.learner_seat.copy()
        ended, forfeited, finished = self._ended.copy(), self._forfeited.copy(), dict(self._finished)
        episode = self._episode.copy()
        saved: dict = {}
        try:
            out = self._step(state, seats, ended, forfeited, finished, episode, actions, saved)
        except BaseException:
            for g, st in saved.items():
                g.bit_generator.state = st
            raise
        self.state, self.learner_seat, self._ended, self._forfeited = state, seats, ended, forfeited
        self._finished, self._episode = finished, episode
        self._mask = out[4]["action_mask"].copy()
        return out

    def _step(self, state, seats, ended, forfeited, finished, episode, actions, saved: dict):
        """One step of every slot (``state``, ``seats``, the flags and ``episode`` are the step's
        copies); ``saved`` collects each generator's state before it draws."""
        n, game = self.num_envs, self.game
        if self.autoreset_mode is AutoresetMode.DISABLED and ended.any():
            i = int(np.flatnonzero(ended)[0])
            raise ValueError(f"the game in slot {i} is over; start a new one with "
                             "reset(options={'reset_mask': mask}) before step()")
        live = ~ended
        actions = _check_actions(actions, n, game.num_actions, live)
        rows = np.flatnonzero(live)
        legal = self._mask[rows, actions[rows]].astype(bool)  # the mask of the last returned observations
        illegal = rows[~legal]
        if illegal.size and self.illegal_action == "raise":
            i = int(illegal[0])
            allowed = np.flatnonzero(self._mask[i]).tolist()
            raise ValueError(f"illegal action {int(actions[i])} ({game.describe_action(int(actions[i]))}) "
                             f"in slot {i}; legal actions: {allowed}")
        restart = np.flatnonzero(ended)  # next-step mode: games that ended in the last step
        if restart.size:
            game.reset_where(state, ended, check=False)
            self._save_seat_rngs(saved, restart)
            self._draw_seats(seats, self._seat_rngs, restart)
            ended[:] = forfeited[:] = False
            finished.clear()
        moving = rows[legal]
        if moving.size == n:  # the usual case: every slot moves (checked above)
            rewards = game.step(state, actions, check=False)[np.arange(n), seats]
        else:
            rewards = game.step_where(state, moving, actions[moving], check=False)[np.arange(n), seats]
        if game.num_players > 1:
            saved.setdefault(self._np_random, self._np_random.bit_generator.state)
        rewards += self._match.play(state, self._np_random, learner_seat=seats, check=False)[np.arange(n), seats]
        if restart.size:  # what the opponents did before a new game's first decision is not a reward
            episode.start(state, restart, rewards[restart])
            rewards[restart] = 0.0
        rewards[illegal] = -self.illegal_penalty
        forfeited[illegal] = True
        terminated = (state.done & live) | forfeited
        idx = np.flatnonzero(terminated)
        finished.update({int(i): self._result(state, int(i), seats, forfeited) for i in idx})
        infos = {}
        if self.autoreset_mode is not AutoresetMode.SAME_STEP:
            ended[idx] = True
            fields = self.results.batch(n, finished)
        else:
            if idx.size:
                final_mask = np.zeros((n, game.num_actions), dtype=self.mask_dtype)
                final_obs = np.zeros((n, game.obs_size), dtype=np.float32)
                final_obs[idx] = game.observe(state.take(idx, check=False), seats[idx], check=False)
                final_info = self._infos(final_mask, seats, episode, self.results.batch(n, finished), terminated)
                infos["final_obs"] = observation(final_obs, final_mask, self.observation_mode)
                infos["_final_obs"], infos["final_info"], infos["_final_info"] = \
                    terminated.copy(), final_info, terminated.copy()
                game.reset_where(state, terminated, check=False)
                forfeited[:] = False
                finished.clear()
                self._save_seat_rngs(saved, idx)
                self._draw_seats(seats, self._seat_rngs, idx)
                before = self._match.play(state, self._np_random, learner_seat=seats, check=False)
                episode.start(state, idx, before[idx, seats[idx]])
            fields = self.results.batch(n)
        mask = game.legal_mask(state, check=False).astype(self.mask_dtype)
        mask[forfeited] = 0
        infos.update(self._infos(mask, seats, episode, fields))
        truncated = np.zeros(n, dtype=bool)
        return self._observe(state, seats, mask), rewards.astype(np.float32), terminated, truncated, infos

    def action_masks(self) -> np.ndarray:
        """(N, A) legal masks (``mask_dtype``) of the learner in every slot (all zeros where the game is over)."""
        if self.state is None:
            raise ValueError("call reset() before action_masks()")
        return self._mask.copy()

    def _result(self, state, i: int, seats, forfeited) -> dict:
        """The result of slot ``i``'s game, which just ended (by the rules or a forfeit)."""
        if forfeited[i]:
            return {"reason": "illegal", **self.game.forfeit_result(state, i, int(seats[i]), self.illegal_penalty)}
        return self.game.result(state, i)

    def _save_seat_rngs(self, saved: dict, idx: np.ndarray) -> None:
        """Add the states of the seat generators of the slots ``idx`` (those that will draw) to ``saved``."""
        if self.learner_seat_config is None:
            for i in idx:
                saved.setdefault(self._seat_rngs[i], self._seat_rngs[i].bit_generator.state)

    def _draw_seats(self, seats: np.ndarray, seat_rngs: list, idx: np.ndarray) -> None:
        """Set the learner's seat of the slots ``idx`` in ``seats`` (drawn per slot, or fixed)."""
        if self.learner_seat_config is None:
            for i in idx:
                seats[i] = seat_rngs[i].integers(self.game.num_players)
        else:
            seats[idx] = self.learner_seat_config

    def _observe(self, state, seats, mask):
        return observation(self.game.observe(state, seats, check=False), mask, self.observation_mode)

    def _infos(self, mask, seats, episode: EpisodeFields, fields: dict, present=None) -> dict:
        """The infos of one return: the mask, seats, episode and result ``fields`` of every slot,
        each key with its ``_key`` mask (``present``: the slots that report it; default all)."""
        present = np.ones(self.num_envs, dtype=bool) if present is None else present
        out = {}
        for k, v in {"action_mask": mask.copy(), "learner_seat": seats.copy(), **episode.arrays(), **fields}.items():
            out[k], out[f"_{k}"] = v, present.copy()
        return out


class EpisodeFields:
    """What each slot's current game reported when it started, as the single env's infos carry
    it through the game: ``reward_before_first_move`` and the game's reset fields
    (:meth:`~envs.core.game.Game.reset_info`), as (N,) arrays typed as ``SyncVectorEnv`` types them."""

    def __init__(self, game, n: int, info_mode: str, arrays: dict | None = None):
        self.game, self.n, self.info_mode = game, n, info_mode
        if arrays is None:
            arrays = {"reward_before_first_move": np.zeros(n, dtype=np.float64)}
            for k, v in convert(game.reset_info(game.init([0]), 0), info_mode).items():
                if isinstance(v, (int, float, bool, np.number)):
                    arrays[k] = np.zeros(n, dtype=type(v))
                elif isinstance(v, np.ndarray):
                    arrays[k] = np.zeros((n, *v.shape), dtype=v.dtype)
                else:  # lists (full info mode): filled in by start()
                    arrays[k] = np.full(n, None, dtype=object)
        self._arrays = arrays
        self._more = len(arrays) > 1  # the game has reset fields

    def copy(self) -> EpisodeFields:
        """An independent copy (the values of object arrays are shared, never changed in place)."""
        return EpisodeFields(self.game, self.n, self.info_mode, {k: v.copy() for k, v in self._arrays.items()})

    def start(self, state, idx: np.ndarray, before: np.ndarray) -> None:
        """The games in slots ``idx`` of ``state`` just started; the opponents' moves paid ``before``."""
        self._arrays["reward_before_first_move"][idx] = before
        if self._more:
            for i in idx:
                for k, v in convert(self.game.reset_info(state, int(i)), self.info_mode).items():
                    self._arrays[k][i] = v

    def arrays(self) -> dict:
        """Copies of the (N,) arrays, by info key."""
        return {k: v.copy() for k, v in self._arrays.items()}



def _check_reset_mask(mask, n: int) -> np.ndarray:
    """The ``reset_mask`` option as an (n,) bool array, or ``ValueError``."""
    arr = np.asarray(mask)
    if arr.dtype != bool or arr.shape != (n,):
        raise ValueError(f"reset_mask must be an ({n},) bool array, got {arr.dtype} of shape {arr.shape}")
    return arr


def _check_actions(actions, n: int, num_actions: int, live: np.ndarray) -> np.ndarray:
    """``actions`` as (n,) int64, or ``ValueError`` for a wrong dtype or shape or an id out of
    range (checked only in the ``live`` slots: the others ignore their action)."""
    arr = np.asarray(actions)
    if arr.dtype == bool or not np.issubdtype(arr.dtype, np.integer):
        raise ValueError(f"actions must be integers, got dtype {arr.dtype}")
    if arr.shape != (n,):
        raise ValueError(f"actions must have shape ({n},), got {arr.shape}")
    arr = arr.astype(np.int64)
    bad = live & ((arr < 0) | (arr >= num_actions))
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(f"action {int(arr[i])} out of range 0..{num_actions - 1} (slot {i})")
    return arr
