"""The batched rules interface that every madang game implements.

A :class:`Game` object holds a game's configuration (number of seats, reward
mode, ...) and pure functions over a :class:`~envs.core.state.BatchState`.
It imports nothing from gymnasium, torch or any renderer: the adapters in
:mod:`envs.adapters` translate it into the Gymnasium, PettingZoo and vector
APIs, and the trainer steps it directly.

Batched API (B games at once, every array with the batch as first axis)::

    game  = Yacht(num_players=2)
    state = game.init(seeds)                 # (B,) int seeds -> B new games
    mask  = game.legal_mask(state)           # (B, A) bool; all False once done
    obs   = game.observe(state)              # (B, O) float32 for the seat to move
    r     = game.step(state, actions)        # in place; (B, P) float32 rewards
    r     = game.step_where(state, ~state.done, live_actions)   # only some games
    state.to_move, state.done                # (B,) seat to move, (B,) terminal
    game.reset_where(state, state.done)      # replace finished games (streams continue)
    game.to_position(state, i) / game.from_position(dict)

Search support (the calls a bot that plans from its own observation needs)::

    states, seats = game.sample_states(obs, seeds)   # (B, O), (B, k) -> B k full states
    copies = state.clone(seeds)              # (B, k) seeds -> B k copies, own streams

``step`` validates before it mutates: wrong dtypes or shapes, out-of-range or
illegal actions and actions on finished games raise ``ValueError`` and leave
the state untouched.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import kernels as _kernels
from . import rng as _rng
from .state import BatchState


class Game:
    """Abstract batched rules of one game; subclasses fill in the class attributes and hooks.

    Class attributes (part of each game's public contract):

    * ``name``: module name (``"yacht"``), ``env_id``: Gymnasium id;
    * ``num_actions``: size of the flat ``Discrete`` action space;
    * ``obs_size`` and ``obs_slices``: the observation layout (named slices);
    * ``action_slices``: the action layout (named slices of the flat action ids);
    * ``min_players``/``max_players``: supported seat counts;
    * ``zero_sum``: the illegal-action loss pays the other seats (two-player zero-sum games).
    """

    name: str = ""
    env_id: str = ""
    num_actions: int = 0
    obs_size: int = 0
    obs_slices: dict[str, slice] = {}
    action_slices: dict[str, slice] = {}
    min_players: int = 1
    max_players: int = 1
    zero_sum: bool = False
    reward_modes: tuple[str, ...] = ("score",)

    def __init__(self, num_players: int = 1, reward: str | None = None):
        if isinstance(num_players, bool) or not isinstance(num_players, (int, np.integer)):
            raise ValueError(f"num_players must be an int, got {num_players!r}")
        if not self.min_players <= num_players <= self.max_players:
            raise ValueError(
                f"{self.name}: num_players must be in {self.min_players}..{self.max_players}, "
                f"got {num_players}"
            )
        reward = self.reward_modes[0] if reward is None else reward
        if reward not in self.reward_modes:
            raise ValueError(f"{self.name}: reward must be one of {self.reward_modes}, got {reward!r}")
        if reward == "win" and num_players < 2:
            raise ValueError(f"{self.name}: reward='win' needs at least 2 players")
        self.num_players = int(num_players)
        self.reward = reward

    # ----------------------------------------------------------------- hooks
    def new_games(self, key: np.ndarray, counter: np.ndarray) -> BatchState:
        """Fresh games drawing from the streams ``(key, counter)`` (each (B,) uint64)."""
        raise NotImplementedError

    def legal_mask(self, state: BatchState) -> np.ndarray:
        """(B, A) bool mask of the legal actions of the seat to move; all False when done."""
        raise NotImplementedError

    def _apply(self, state: BatchState, actions: np.ndarray) -> np.ndarray:
        """Apply validated int64 ``actions`` to every game (all not done); return (B, P) rewards."""
        raise NotImplementedError

    def observe(self, state: BatchState, seats: np.ndarray | None = None) -> np.ndarray:
        """(B, O) float32 observations from ``seats`` (default: the seat to move; see
        :meth:`observer_seats`)."""
        raise NotImplementedError

    def observer_seats(self, state: BatchState, seats=None) -> np.ndarray:
        """(B,) int64 observing seats for :meth:`observe`: the movers by default.

        ``seats`` is an int or integer array broadcastable to (B,) with every seat in
        ``0..num_players-1``; anything else raises ``ValueError``.
        """
        if seats is None:
            return state.to_move.astype(np.int64)
        arr = np.asarray(seats)
        if arr.dtype.kind not in "iu":
            raise ValueError(f"seats must be integers, got dtype {arr.dtype}")
        if arr.shape != state.to_move.shape:
            try:
                arr = np.broadcast_to(arr, state.to_move.shape)
            except ValueError:
                raise ValueError(f"seats must broadcast to ({state.batch_size},), got shape {arr.shape}") from None
        arr = arr.astype(np.int64, copy=False)
        bad = _kernels.first_out_of_range(arr, 0, self.num_players)
        if bad >= 0:
            raise ValueError(f"seat {int(arr[bad])} out of range 0..{self.num_players - 1}")
        return arr

    def _apply_rows(self, state: BatchState, rows: np.ndarray, actions: np.ndarray) -> np.ndarray:
        """Apply validated ``actions`` to the games ``rows`` only; return their (n, P) rewards.

        The default steps a copy of those games and writes it back; games whose rules work
        on row sets override it to skip the copies.
        """
        sub = state.take(rows)
        rewards = self._apply(sub, actions)
        state.put(rows, sub)
        return rewards

    def observation_position(self, observation: np.ndarray) -> tuple[dict, int]:
        """The position dict one (O,) observation shows, and the observer's seat in it.

        The hook behind the default :meth:`sample_states`, for games whose observations show
        the whole state apart from future chance (dice games).  Games with hidden cards
        override :meth:`_sample_states` instead.
        """
        raise NotImplementedError(f"{self.name} cannot rebuild states from observations")

    def _sample_states(self, observations: np.ndarray, seeds: np.ndarray):
        """Hook of :meth:`sample_states` (arguments already validated); returns ``(states, seats)``."""
        built = [self.observation_position(o) for o in observations]
        one_each = type(self.from_position(built[0][0], seed=0)).concat(
            [self.from_position(pos, seed=0) for pos, _ in built]
        )
        seats = np.repeat(np.array([seat for _, seat in built], dtype=np.int64), seeds.shape[1])
        return one_each.clone(seeds), seats

    def to_position(self, state: BatchState, index: int = 0) -> dict:
        """The JSON-compatible position dict of game ``index`` (see the game's spec)."""
        raise NotImplementedError

    def from_position(self, position: Any, seed: int | None = None) -> BatchState:
        """A one-game state from a position dict; ``ValueError`` naming the problem if invalid."""
        raise NotImplementedError

    def result(self, state: BatchState, index: int = 0) -> dict:
        """Result fields for the ``info`` dict of a finished game (e.g. ``{"scores": [...]}``)."""
        raise NotImplementedError

    def describe_action(self, action: int) -> str:
        """A short human-readable name of a flat action id."""
        return str(int(action))

    view_module = None
    """The game's ``view`` module (``envs/<game>/view.py``): what one seat sees, for people.

    It provides ``seat_view``, ``move``/``moves``, ``render``, ``explain``, ``parse`` and
    ``reference`` (see :mod:`envs.yacht.view`); the methods below and the play front-ends
    use it.
    """

    def seat_view(self, state: BatchState, index: int = 0, seat: int | None = None) -> dict:
        """What ``seat`` (default: the seat to move) sees of game ``index``, as a JSON-compatible dict.

        Only what that seat may see: never another seat's hidden cards or the stock order.
        """
        P = self.num_players
        seat = int(state.to_move[index]) if seat is None else seat
        if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < P:
            raise ValueError(f"seat must be in 0..{P - 1}, got {seat!r}")
        return self.view_module.seat_view(self, state, int(index), int(seat))

    def legal_moves(self, state: BatchState, index: int = 0) -> list[dict]:
        """The legal moves of game ``index``'s seat to move, each ``{"id", "kind", "text", ...}``."""
        legal = np.flatnonzero(self.legal_mask(state.take([index]))[0]).tolist()
        return self.view_module.moves(self.seat_view(state, index), legal)

    def render_text(self, state: BatchState, index: int = 0, seat: int | None = None) -> str:
        """Game ``index`` as ``seat`` (default: the seat to move) sees it, as text (``render_mode="ansi"``).

        Lists the legal moves when it is that seat's turn.
        """
        view = self.seat_view(state, index, seat)
        mine = not state.done[index] and view["seat"] == int(state.to_move[index])
        return self.view_module.render(view, self.legal_moves(state, index) if mine else None)

    def skipped_results(self, state: BatchState, index: int = 0) -> list[dict]:
        """Results of the games that slot ``index`` skipped since its last (re)set: games
        decided before any decision and dealt again (Go-Stop chongtong); none by default.
        Evaluations count them as games played."""
        return []

    def reset_info(self, state: BatchState, index: int = 0) -> dict:
        """The reset fields of game ``index`` after a random (re)deal: what a single env's
        ``reset`` reports about it besides the results (Go-Stop: ``redeals``, ``skipped_deals``),
        for the vector env's infos; none by default."""
        return {}

    def final_rewards(self, state: BatchState, index: int = 0) -> np.ndarray:
        """(P,) rewards of a game that ended before any decision (e.g. a chongtong deal)."""
        return np.zeros(self.num_players, dtype=np.float32)

    def forfeit_result(self, state: BatchState, index: int, loser: int, penalty: float) -> dict:
        """Result fields when seat ``loser`` ends game ``index`` by an illegal action."""
        return self.result(state, index)

    def new_episode(self, options: dict, seed: int | None, previous: BatchState | None):
        """One new game for a single env's ``reset``; returns ``(state, info)``.

        ``options["position"]`` starts from a position (its stream seeded with ``seed``, or a
        fresh one); otherwise ``seed`` starts a new stream, and ``seed=None`` continues the
        stream of ``previous``.  Unknown option keys are ignored.  Games with extra reset
        options (Go-Stop's ``deal``) extend this.
        """
        if "position" in options:
            s = _rng.resolve_seed(seed)
            return self.from_position(options["position"], seed=s), {}
        if seed is not None or previous is None:
            return self.init([_rng.resolve_seed(seed)]), {}
        return self.new_games(previous.rng_key.copy(), previous.rng_counter.copy()), {}

    # --------------------------------------------------------------- generic
    def init(self, seeds) -> BatchState:
        """B new games, game ``i`` seeded with ``seeds[i]`` (its own counter-based stream).

        Seeds follow :func:`envs.core.rng.normalize_seed` (integers modulo 2**64).
        """
        if isinstance(seeds, (int, np.integer)) and not isinstance(seeds, (bool, np.bool_)):
            seeds = [seeds]
        key = _rng.keys_from_seeds(seeds)  # seeds reduced modulo 2**64; non-integers raise
        return self.new_games(key, np.zeros(key.shape[0], dtype=np.uint64))

    def reset_where(self, state: BatchState, where: np.ndarray) -> np.ndarray:
        """Replace the games selected by the bool mask ``where`` with new games, in place.

        Each new game continues its slot's random stream, so a batch slot plays the
        same sequence of games as a single env reset repeatedly from the same seed.
        Returns the indices that were reset.
        """
        idx = np.flatnonzero(where)
        if idx.size:
            fresh = self.new_games(state.rng_key[idx], state.rng_counter[idx])
            state.put(idx, fresh)
        return idx

    def step(self, state: BatchState, actions, check: bool = True) -> np.ndarray:
        """Apply one action per game in place and return (B, P) float32 per-seat rewards.

        With ``check`` (the default) the actions are validated first, and any problem
        raises ``ValueError`` before anything changes.  ``check=False`` skips validation
        for trusted callers (the trainer and benchmark sample from the mask).
        """
        if check:
            actions = self.check_actions(state, actions)
        else:
            actions = np.asarray(actions, dtype=np.int64)
        return self._apply(state, actions)

    def step_where(self, state: BatchState, where, actions, check: bool = True) -> np.ndarray:
        """Step only the games ``where`` selects, in place; return (B, P) float32 rewards.

        ``where`` is a (B,) bool mask or an array of distinct game indices; ``actions`` holds
        one action per selected game, in index order (``game.step_where(state, ~state.done,
        actions)`` steps the live games of a batch).  The other games are left untouched and
        get zero rewards.  Validation is as in :meth:`step`, on the selected games.
        """
        B = state.batch_size
        where = np.asarray(where)
        if where.dtype == bool:
            if where.shape != (B,):
                raise ValueError(f"where must be a ({B},) bool mask or game indices, got shape {where.shape}")
            rows = np.flatnonzero(where)
        else:
            if where.ndim != 1 or not np.issubdtype(where.dtype, np.integer):
                raise ValueError(f"where must be a ({B},) bool mask or game indices, got {where!r}")
            rows = where.astype(np.int64)
            if rows.size and (rows.min() < 0 or rows.max() >= B or np.unique(rows).size != rows.size):
                raise ValueError(f"where must hold distinct game indices in 0..{B - 1}")
        if check:
            actions = self.check_actions(state.take(rows), actions, games=rows)
        else:
            actions = np.asarray(actions, dtype=np.int64)
        rewards = np.zeros((B, self.num_players), dtype=np.float32)
        if rows.size:
            rewards[rows] = self._apply_rows(state, rows, actions)
        return rewards

    def sample_states(self, observations, seeds):
        """Full states consistent with observations: the determinizations a search plays out.

        ``observations`` (B, O) float32 come from :meth:`observe` (one seat's view each);
        ``seeds`` (B, k) ints give every sample its own fresh random stream.  Returns
        ``(states, seats)``: B k states, sample ``j`` of observation ``i`` at game ``i k + j``,
        and (B k,) the observer's seat in each, such that ``observe(states, seats)``
        reproduces the observations exactly.  What the observation hides is drawn uniformly
        at random among what is consistent with it, from the sample's stream (Go-Stop: the
        opponent's hand and the stock order); games without hidden state rebuild it exactly
        (dice games: only the future dice differ between samples).  Raises ``ValueError``
        for an observation no state reproduces (malformed, or of a finished Go-Stop deal).
        """
        obs = np.asarray(observations, dtype=np.float32)
        if obs.ndim != 2 or obs.shape[1] != self.obs_size:
            raise ValueError(f"observations must have shape (B, {self.obs_size}), got {obs.shape}")
        seeds = np.asarray(seeds)
        if seeds.ndim != 2 or seeds.shape[0] != obs.shape[0] or seeds.shape[1] < 1:
            raise ValueError(f"seeds must have shape ({obs.shape[0]}, k) with k >= 1, got {seeds.shape}")
        states, seats = self._sample_states(obs, seeds)
        again = self.observe(states, seats)
        bad = (again != np.repeat(obs, seeds.shape[1], axis=0)).any(axis=1)
        if bad.any():
            i = int(np.flatnonzero(bad)[0]) // seeds.shape[1]
            raise ValueError(f"observation {i} is not one that {self.name} produces: no state reproduces it")
        return states, seats

    def check_actions(self, state: BatchState, actions, games=None) -> np.ndarray:
        """Validate a (B,) batch of actions; return it as int64 or raise ``ValueError``.

        ``games`` (B,) names the games in messages (default ``0..B-1``).
        """
        arr = np.asarray(actions)
        B = state.batch_size
        if arr.dtype.kind not in "iu":
            raise ValueError(f"actions must be integers, got dtype {arr.dtype}")
        if arr.shape != (B,):
            raise ValueError(f"actions must have shape ({B},), got {arr.shape}")
        arr = arr.astype(np.int64)
        mask = self.legal_mask(state)
        kind, i = _kernels.first_bad_action(arr, state.done, mask)
        if kind == 0:
            return arr
        name = i if games is None else int(np.asarray(games)[i])
        if kind == 1:
            raise ValueError(f"game {name} is over; reset it before stepping")
        a = int(arr[i])
        if kind == 2:
            raise ValueError(f"action {a} out of range 0..{self.num_actions - 1} (game {name})")
        legal = np.flatnonzero(mask[i]).tolist()
        where = f" (game {name})" if B > 1 or games is not None else ""
        raise ValueError(f"illegal action {a} ({self.describe_action(a)}){where}; legal actions: {legal}")

    def win_rewards(self, scores: np.ndarray) -> np.ndarray:
        """Win/loss rewards from final (B, P) scores: +1 shared by the winners, -1 by the losers.

        All seats tied gives 0 for everyone.
        """
        scores = np.asarray(scores)
        best = scores.max(axis=1, keepdims=True)
        win = scores == best
        k = win.sum(axis=1, keepdims=True)
        losers = scores.shape[1] - k
        r = np.where(win, 1.0 / k, -1.0 / np.maximum(losers, 1))
        r[(losers == 0)[:, 0]] = 0.0
        return r.astype(np.float32)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(num_players={self.num_players}, reward={self.reward!r})"
