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

Every public call validates before it acts (``check=True``, the default): the state must
be one this game's configuration made (:attr:`BatchState.identity
<envs.core.state.BatchState>`), with the game's array dtypes and shapes, writeable and
C-contiguous, and contents that obey the game's invariants (:meth:`Game.check_state`);
``where``, index, seat and action arguments are checked too.  Any problem raises
``ValueError`` naming it and leaves the state untouched.  ``check=False`` skips the checks
for trusted internal callers (the adapters, the trainer and the bots step states that only
the core has written).
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
from numba import from_dtype as numba_dtype
from numba import typeof as numba_typeof
from numba import types as numba_types

from . import kernels as _kernels
from . import rng as _rng
from .identity import GameIdentity
from .kernels import jit_disabled
from .state import HEADER, BatchState
from .state_check import NO_SKIP, StateChecker, game_index, rows_of

_I64 = np.dtype(np.int64)
"""The dtype of the fused step's actions (numpy's builtin dtypes are singletons, so ``is`` compares them)."""


def _array(dtype, ndim: int):
    return numba_types.Array(numba_dtype(np.dtype(dtype)), ndim, "C")


def _sized_as_made(state, d: dict, buf) -> bool:
    """Whether the header of ``buf`` (the batch size and seats the kernels size every field by)
    and the batch axis of the ``done`` / ``to_move`` views (what the Python side sizes outputs
    by) are still those of the layout ``state`` was made with: a write through ``state.buffer``
    or a reshaped view would otherwise send a kernel past the end of an array."""
    try:
        layout = state._layout
        return (buf[:HEADER].tobytes() == layout[5] and d["done"].shape[0] == layout[1]
                and d["to_move"].shape[0] == layout[1])
    except (AttributeError, KeyError, TypeError, IndexError):
        return False


def _sealing(init):
    """``init`` (a game class's constructor) that seals the game's configuration when the
    outermost constructor returns (:meth:`Game.__setattr__`)."""

    @functools.wraps(init)
    def sealed_init(self, *args, **kwargs):
        d = self.__dict__
        depth = d.get("_init_depth", 0)
        d["_init_depth"] = depth + 1
        try:
            init(self, *args, **kwargs)
        finally:
            d["_init_depth"] = depth
        if depth == 0:
            d["_sealed"] = True

    return sealed_init


class _Fused:
    """What a game's checked calls need for their one-dispatch path (:attr:`Game._fast`): the
    check kernel and its parameters, the (A,) bool scratch row of the step's action check
    (kernels hold the GIL, so one row per game is never used by two calls at once), what a
    whole state of the game looks like, and ``step``, ``mask`` and ``observe``: each kind's
    ``(kernel, trailing arguments)`` of :meth:`Game._fused_call`, prepared on first use.

    Each kernel is compiled for exactly the argument types of its call (writeable
    C-contiguous arrays of the buffer's, the outputs' and the arguments' dtypes) and for no
    other, so numba's dispatch refuses any other buffer or argument (read-only, strided,
    another dtype, not an array) with a ``TypeError`` before anything runs, and the caller
    takes the general path, which says what is wrong.
    """

    def __init__(self, game: "Game"):
        self.game = game
        self.identity, self.state_cls, self.attrs = game.identity, game.state_cls, game.checker.attrs
        self.check, self.check_args = game.checker.kernel, tuple(game._check_params())
        self.row = np.zeros(game.num_actions, dtype=bool)

    def _prepared(self, kind: str, *heads) -> tuple:
        kernel, args = self.game._fused_call(kind)
        tail = tuple(numba_typeof(a) for a in args)
        _kernels.compiled_for(kernel, *((_array(np.uint8, 1), *head, *tail) for head in heads))
        return kernel, args

    @functools.cached_property
    def step(self) -> tuple:
        return self._prepared("step", (_array(np.int64, 1), _array(np.float32, 2), _array(np.bool_, 1)))

    @functools.cached_property
    def mask(self) -> tuple:
        return self._prepared("mask", (_array(np.bool_, 2), _array(np.bool_, 1)))

    @functools.cached_property
    def observe(self) -> tuple:
        return self._prepared("observe", *((_array(seat, 1), _array(np.float32, 2), _array(np.bool_, 1))
                                           for seat in (np.int8, np.int64)))

    def buffer(self, state):
        """The buffer of ``state`` when a checked call may take the one-dispatch path: a state of
        this game (its identity and class) with every field there; None otherwise (the general
        path runs, and raises the right error).  The kernels check the buffer's type."""
        try:
            d = state.__dict__
        except AttributeError:
            return None
        if d.get("identity") is not self.identity or type(state) is not self.state_cls or len(d) < self.attrs:
            return None
        buf = d.get("_buf")
        return buf if _sized_as_made(state, d, buf) else None


class Game:
    """Abstract batched rules of one game; subclasses fill in the class attributes and hooks.

    Class attributes (part of each game's public contract):

    * ``name``: module name (``"yacht"``), ``env_id``: Gymnasium id;
    * ``num_actions``: size of the flat ``Discrete`` action space;
    * ``obs_size`` and ``obs_slices``: the observation layout (named slices);
    * ``action_slices``: the action layout (named slices of the flat action ids);
    * ``min_players``/``max_players``: supported seat counts;
    * ``zero_sum``: the illegal-action loss pays the other seats (two-player zero-sum games);
    * ``state_cls``: the class of its states; ``checker``: the compiled check of their
      structure and contents (:class:`~envs.core.state_check.StateChecker`).

    A game's configuration is fixed once its constructor returns: setting or deleting a public
    data attribute of a game (not a method) then raises ``AttributeError`` (make a new game instead), since its
    states, identity and kernel arguments are all built from it.
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
    state_cls: type = BatchState
    checker: StateChecker | None = None

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

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "__init__" in cls.__dict__:
            cls.__init__ = _sealing(cls.__dict__["__init__"])

    def __setattr__(self, name, value):
        # A game's configuration (its public data attributes) is fixed once its constructor
        # returns: the states, the identity and the kernels' arguments (output sizes, seats,
        # rewards) are all built from it, so a change would let a kernel write past an array.
        # Private caches may be set, and methods replaced (a test's monkeypatch).
        d = self.__dict__
        if d.get("_sealed") and not name.startswith("_") and not callable(getattr(self, name, value)):
            raise AttributeError(f"{type(self).__name__}.{name}: a game's configuration is fixed when it "
                                 f"is made; make a new game (e.g. {type(self).__name__}(...)) instead")
        d.pop("identity", None)
        d.pop("_fast", None)
        object.__setattr__(self, name, value)

    def __delattr__(self, name):
        if self.__dict__.get("_sealed") and not name.startswith("_") and not callable(getattr(self, name, None)):
            raise AttributeError(f"{type(self).__name__}.{name}: a game's configuration cannot be deleted")
        object.__delattr__(self, name)

    # -------------------------------------------------------------- identity
    def identity_options(self) -> tuple[tuple[str, object], ...]:
        """The options that shape this game's states, as (name, value) pairs: the seats, and
        a game's own options (Rainbow Dice's market and starting tokens).  The constructor of
        the game's class accepts them as keywords."""
        return (("num_players", self.num_players),)

    @functools.cached_property
    def identity(self) -> GameIdentity:
        """The identity every state of this game carries (shared by equal configurations)."""
        public = next(c for c in type(self).__mro__ if "name" in vars(c) and vars(c)["name"])
        return GameIdentity.of(public, self.identity_options())

    def _made(self, state: BatchState) -> BatchState:
        """``state``, marked as made by this game (every state a public call hands out)."""
        state.identity = self.identity
        return state

    def _check_params(self) -> tuple:
        """The game's scalar parameters of its check kernel (after the arrays)."""
        return (self.num_players,)

    def check_state(self, state: BatchState) -> None:
        """Raise ``ValueError`` unless ``state`` is a valid state of this game; change nothing.

        Valid: made by a game of this configuration (``state.identity``); every array of the
        game's dtype and shape (one batch size), writeable and C-contiguous; and every game
        obeys the game's invariants (``checker.rules``: values in range, the caches and flags
        consistent), which every state the rules reach and every loaded position obey.  Every
        public call with ``check=True`` runs it first.
        """
        self._check(state)

    def _check(self, state, lo: int = 0, hi: int = -1, skip: np.ndarray = NO_SKIP) -> None:
        """:meth:`check_state` for the games ``lo..hi-1`` (``hi`` -1: to the end) except those
        ``skip`` ((B,) bool, or empty) marks; ``lo == hi`` checks the structure only."""
        rule, row = self._broken_rule(state, lo, hi, skip)
        if rule:
            self._raise_rule(state, rule, row)

    def _broken_rule(self, state, lo: int = 0, hi: int = -1, skip: np.ndarray = NO_SKIP) -> tuple[int, int]:
        """The identity and structure checks of :meth:`_check` (raising), then the check kernel's
        ``(rule, game)`` (``(0, -1)`` when every game checked is valid)."""
        if getattr(state, "identity", None) is not self.identity or type(state) is not self.state_cls:
            self._check_identity(state)
        checker = self.checker
        kernel = checker.kernel
        if jit_disabled():  # the kernel runs as Python and checks no types
            self._raise_structure(state)
        if checker.buffer and len(state.__dict__) < checker.attrs:  # a field deleted behind its back
            self._raise_structure(state)
        try:
            arrays = (state._buf,) if checker.buffer else checker.get(state)
        except AttributeError:
            self._raise_structure(state)
            raise ValueError(f"this state holds no buffer of {self.identity.label}") from None
        if checker.buffer and not _sized_as_made(state, state.__dict__, arrays[0]):
            raise ValueError(f"this state's buffer header or the batch axis of its done/to_move views no "
                             f"longer match how it was made (the kernels size the fields by the header); "
                             f"{self.identity.label}")
        try:
            return kernel(lo, hi, skip, *arrays, *self._check_params())
        except Exception:  # numba refused the arrays' types (dtype, layout, read-only, not arrays)
            self._raise_structure(state)
            raise ValueError(f"the arrays of this state do not fit {self.identity.label}") from None

    def _check_identity(self, state) -> None:
        ident = getattr(state, "identity", None)
        if not isinstance(state, BatchState):
            raise ValueError(f"expected a {self.state_cls.__name__} of {self.identity.label}, "
                             f"got {type(state).__name__}")
        if not isinstance(ident, GameIdentity):
            raise ValueError(f"this {type(state).__name__} carries no game identity: build states with "
                             "a game's init, from_position or the state methods, not from arrays")
        if ident != self.identity:
            raise ValueError(f"this state was made by {ident.label}; this game is {self.identity.label}")
        if type(state) is not self.state_cls:
            raise ValueError(f"expected a {self.state_cls.__name__}, got {type(state).__name__}")

    def _raise_structure(self, state) -> None:
        problem = self.checker.structure_problem(state, self.num_players)
        if problem is not None:
            raise ValueError(f"{problem} ({self.identity.label})")

    def _raise_rule(self, state, rule: int, row: int) -> None:
        checker = self.checker
        if rule < 0:
            k = -1 - rule
            name = checker.names[k]
            shape = getattr(state, name).shape
            want = checker.shape_of(k, state.batch_size, self.num_players)
            raise ValueError(f"state field {name} has shape {shape}, expected {want} for "
                             f"{state.batch_size} games of {self.identity.label}")
        shown = checker.rules[rule - 1][0]
        values = ", ".join(f"{name}={np.asarray(getattr(state, name)[row]).tolist()}" for name in shown)
        raise ValueError(f"invalid state, game {row}: {self._rule_text(rule)} ({values})")

    def _rule_text(self, rule: int) -> str:
        return self.checker.rules[rule - 1][1].format(P=self.num_players, P_1=self.num_players - 1)

    # ----------------------------------------------------------------- hooks
    def new_games(self, key: np.ndarray, counter: np.ndarray) -> BatchState:
        """Fresh games drawing from the streams ``(key, counter)`` (each (B,) uint64)."""
        raise NotImplementedError

    def _legal_mask(self, state: BatchState) -> np.ndarray:
        """Hook of :meth:`legal_mask` (state already checked)."""
        raise NotImplementedError

    def _apply(self, state: BatchState, actions: np.ndarray) -> np.ndarray:
        """Apply validated int64 ``actions`` to every game (all not done); return (B, P) rewards."""
        raise NotImplementedError

    def _observe(self, state: BatchState, seats: np.ndarray | None) -> np.ndarray:
        """Hook of :meth:`observe`: ``seats`` is None (the movers) or checked (B,) int64 seats."""
        raise NotImplementedError

    def _reset_rows(self, state: BatchState, rows: np.ndarray) -> None:
        """Hook of :meth:`reset_where`: new games in the (checked) ``rows``, continuing their streams."""
        fresh = self.new_games(state.rng_key[rows], state.rng_counter[rows])
        state.put(rows, fresh, check=False)

    def legal_mask(self, state: BatchState, check: bool = True) -> np.ndarray:
        """(B, A) bool mask of the legal actions of the seat to move; all False when done.

        ``check=False`` skips :meth:`check_state` (trusted callers)."""
        if check:
            fast = self._fast
            buf = fast and fast.buffer(state)
            if buf is not None:
                out = np.empty((state.done.shape[0], self.num_actions), dtype=bool)
                kernel, args = fast.mask
                if self._fused_ran(state, kernel, buf, out, NO_SKIP, *args):
                    return out
            self._check(state)
        return self._legal_mask(state)

    def observe(self, state: BatchState, seats=None, check: bool = True) -> np.ndarray:
        """(B, O) float32 observations from ``seats`` (default: the seat to move; see
        :meth:`observer_seats`).  ``check=False`` skips :meth:`check_state` (the seats are
        checked either way)."""
        if check:
            fast = self._fast
            buf = fast and fast.buffer(state)
            if buf is not None:
                at = state.to_move if seats is None else self.observer_seats(state, seats)
                out = np.empty((at.shape[0], self.obs_size), dtype=np.float32)
                kernel, args = fast.observe
                if self._fused_ran(state, kernel, buf, at, out, NO_SKIP, *args):
                    return out
            self._check(state)
        return self._observe(state, None if seats is None else self.observer_seats(state, seats))

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
        if arr.dtype.kind == "u" and arr.size and int(arr.max()) >= self.num_players:
            raise ValueError(f"seat {int(arr.max())} out of range 0..{self.num_players - 1}")
        arr = np.ascontiguousarray(arr, dtype=np.int64)  # one kernel signature (a broadcast is strided)
        bad = _kernels.first_out_of_range(arr, 0, self.num_players)
        if bad >= 0:
            raise ValueError(f"seat {int(arr[bad])} out of range 0..{self.num_players - 1}")
        return arr

    def _apply_rows(self, state: BatchState, rows: np.ndarray, actions: np.ndarray) -> np.ndarray:
        """Apply validated ``actions`` to the games ``rows`` only; return their (n, P) rewards.

        The default steps a copy of those games and writes it back; games whose rules work
        on row sets override it to skip the copies.
        """
        sub = state.take(rows, check=False)
        rewards = self._apply(sub, actions)
        state.put(rows, sub, check=False)
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
        one_each = self.state_cls.concat([self.from_position(pos, seed=0) for pos, _ in built], check=False)
        seats = np.repeat(np.array([seat for _, seat in built], dtype=np.int64), seeds.shape[1])
        return one_each.clone(seeds, check=False), seats

    def to_position(self, state: BatchState, index: int = 0) -> dict:
        """The JSON-compatible position dict of game ``index`` (keys: docs/rules/<game>.md)."""
        return self._to_position(state, self._checked_index(state, index))

    def _to_position(self, state: BatchState, index: int) -> dict:
        """Hook of :meth:`to_position` (state and index checked)."""
        raise NotImplementedError

    def from_position(self, position: Any, seed: int | None = None) -> BatchState:
        """A one-game state from a position dict; ``ValueError`` naming the problem if invalid.

        Its random stream starts from ``seed`` (an int, reduced modulo 2**64), or a fresh one.
        """
        key = _rng.keys_from_seeds([_rng.resolve_seed(seed)])
        return self._made(self._from_position(position, key))

    def _from_position(self, position: Any, key: np.ndarray) -> BatchState:
        """Hook of :meth:`from_position`: validate ``position``, build the state with stream ``key``."""
        raise NotImplementedError

    def result(self, state: BatchState, index: int = 0) -> dict:
        """Result fields for the ``info`` dict of a finished game (e.g. ``{"scores": [...]}``)."""
        return self._result(state, self._checked_index(state, index))

    def _result(self, state: BatchState, index: int) -> dict:
        """Hook of :meth:`result` (state and index checked)."""
        raise NotImplementedError

    def _checked_index(self, state: BatchState, index) -> int:
        """``index`` as a game of ``state``, after checking that game (and the state's structure)."""
        self._check(state, 0, 0)
        i = game_index(index, state.batch_size)
        self._check(state, i, i + 1)
        return i

    def describe_action(self, action: int) -> str:
        """A short human-readable name of a flat action id (an int; ids out of range say so)."""
        return self._describe_action(_action_id(action))

    def _describe_action(self, action: int) -> str:
        """Hook of :meth:`describe_action`."""
        return str(action)

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
        index = self._checked_index(state, index)
        P = self.num_players
        seat = int(state.to_move[index]) if seat is None else seat
        if isinstance(seat, (bool, np.bool_)) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < P:
            raise ValueError(f"seat must be in 0..{P - 1}, got {seat!r}")
        return self.view_module.seat_view(self, state, index, int(seat))

    def legal_moves(self, state: BatchState, index: int = 0) -> list[dict]:
        """The legal moves of game ``index``'s seat to move, each ``{"id", "kind", "text", ...}``."""
        index = self._checked_index(state, index)
        legal = np.flatnonzero(self._legal_mask(state.take([index], check=False))[0]).tolist()
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
        return self._skipped_results(state, self._checked_index(state, index))

    def _skipped_results(self, state: BatchState, index: int) -> list[dict]:
        """Hook of :meth:`skipped_results` (state and index checked)."""
        return []

    def reset_info(self, state: BatchState, index: int = 0) -> dict:
        """The reset fields of game ``index`` after a random (re)deal: what a single env's
        ``reset`` reports about it besides the results (Go-Stop: ``redeals``, ``skipped_deals``),
        for the vector env's infos; none by default."""
        return self._reset_info(state, self._checked_index(state, index))

    def _reset_info(self, state: BatchState, index: int) -> dict:
        """Hook of :meth:`reset_info` (state and index checked)."""
        return {}

    def final_rewards(self, state: BatchState, index: int = 0) -> np.ndarray:
        """(P,) rewards of a game that ended before any decision (e.g. a chongtong deal)."""
        return self._final_rewards(state, self._checked_index(state, index))

    def _final_rewards(self, state: BatchState, index: int) -> np.ndarray:
        """Hook of :meth:`final_rewards` (state and index checked)."""
        return np.zeros(self.num_players, dtype=np.float32)

    def forfeit_result(self, state: BatchState, index: int, loser: int, penalty: float) -> dict:
        """Result fields when seat ``loser`` ends game ``index`` by an illegal action (``penalty``,
        a positive finite number, is what it loses)."""
        index = self._checked_index(state, index)
        P = self.num_players
        if isinstance(loser, (bool, np.bool_)) or not isinstance(loser, (int, np.integer)) or not 0 <= loser < P:
            raise ValueError(f"loser must be a seat in 0..{P - 1}, got {loser!r}")
        if isinstance(penalty, (bool, np.bool_)) or not isinstance(penalty, (int, float, np.number)) \
                or not np.isfinite(penalty) or penalty <= 0:
            raise ValueError(f"penalty must be a positive finite number, got {penalty!r}")
        return self._forfeit_result(state, index, int(loser), float(penalty))

    def _forfeit_result(self, state: BatchState, index: int, loser: int, penalty: float) -> dict:
        """Hook of :meth:`forfeit_result` (arguments checked)."""
        return self._result(state, index)

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
        self._check(previous, 0, 0)
        return self._made(self.new_games(previous.rng_key.copy(), previous.rng_counter.copy())), {}

    # --------------------------------------------------------------- generic
    def init(self, seeds) -> BatchState:
        """B new games, game ``i`` seeded with ``seeds[i]`` (its own counter-based stream).

        Seeds follow :func:`envs.core.rng.normalize_seed` (integers modulo 2**64).
        """
        if isinstance(seeds, (int, np.integer)) and not isinstance(seeds, (bool, np.bool_)):
            seeds = [seeds]
        key = _rng.keys_from_seeds(seeds)  # seeds reduced modulo 2**64; non-integers raise
        return self._made(self.new_games(key, np.zeros(key.shape[0], dtype=np.uint64)))

    def reset_where(self, state: BatchState, where, check: bool = True) -> np.ndarray:
        """Replace the games ``where`` selects with new games, in place; returns their indices.

        ``where`` follows the rule of :meth:`step_where`: a (B,) bool mask or distinct game
        indices.  Each new game continues its slot's random stream, so a batch slot plays the
        same sequence of games as a single env reset repeatedly from the same seed.  With
        ``check`` the state is checked first, except the games being replaced (they may hold
        anything).
        """
        if check:
            fast = self._fast
            buf = fast and fast.buffer(state)
            if (buf is not None and type(where) is np.ndarray and where.shape == state.done.shape
                    and self._fused_ran(state, fast.check, 0, -1, where, buf, *fast.check_args)):
                rows = where.nonzero()[0]  # a (B,) mask as the check kernel takes it: one check
            elif (isinstance(where, np.ndarray) and where.dtype == bool and where.ndim == 1
                    and where.shape == getattr(getattr(state, "done", None), "shape", None)
                    and where.flags.c_contiguous and where.flags.writeable):
                self._check(state, skip=where)
                rows = where.nonzero()[0]
            else:
                self._check(state, 0, 0)
                rows = rows_of(where, state.batch_size)
                replaced = np.zeros(state.batch_size, dtype=bool)
                replaced[rows] = True
                self._check(state, skip=replaced)
        else:
            where = np.asarray(where)
            rows = where.nonzero()[0] if where.dtype == bool else where.astype(np.int64)
        if rows.size:
            self._reset_rows(state, rows)
        return rows

    def step(self, state: BatchState, actions, check: bool = True) -> np.ndarray:
        """Apply one action per game in place and return (B, P) float32 per-seat rewards.

        With ``check`` (the default) the state (:meth:`check_state`) and the actions are
        validated first, and any problem raises ``ValueError`` before anything changes.
        ``check=False`` skips validation for trusted callers (the trainer and benchmark
        sample from the mask).
        """
        if check:
            fast = self._fast
            buf = fast and fast.buffer(state)
            if buf is not None:
                arr = actions
                if type(arr) is not np.ndarray or arr.dtype is not _I64:
                    arr = np.ascontiguousarray(self._action_array(actions, state.batch_size))
                rewards = np.zeros((arr.shape[0], self.num_players), dtype=np.float32)
                kernel, args = fast.step
                try:
                    rule, kind, i, _ = kernel(buf, arr, rewards, fast.row, *args)
                except Exception:  # numba refused an argument (before anything ran): the general path says why
                    rule = kind = -1
                if rule == kind == -1:
                    pass
                elif rule:
                    self._raise_rule(state, rule, i)
                elif kind:
                    self._raise_action(state, arr, kind, i)
                else:
                    return rewards
            self._check(state)
            actions = self._check_actions(state, actions)
        else:
            actions = np.asarray(actions, dtype=np.int64)
        return self._apply(state, actions)

    def _fused_call(self, kind: str) -> tuple | None:
        """The kernel of the checked call ``kind`` in one dispatch and its trailing arguments,
        ``(kernel, args)``, or None: the game has none (the checks run one by one).  Called as

        * ``"step"``: ``kernel(buf, actions, rewards, row, *args)``: check the state, then the
          (B,) int64 ``actions``, then step, writing nothing unless every check passes; returns
          ``(rule, kind, game, touched)`` (``rule`` as the check kernel's, ``kind`` as
          :func:`~envs.core.kernels.first_bad_action`'s, 4 for a length mismatch; ``touched`` as
          :func:`~envs.core.kernels.step_checked_all`'s); ``rewards`` (B, P) zeroed, ``row`` (A,)
          bool scratch;
        * ``"mask"``: ``kernel(buf, out, skip, *args)`` and ``"observe"``: ``kernel(buf, seats,
          out, skip, *args)``: the state check's ``(rule, game)``, ``out`` filled only when it
          passes (``seats`` the (B,) observing seats).

        Each kind is prepared once per game, on its first call (again after any attribute of the
        game changes)."""
        return None

    @functools.cached_property
    def _fast(self) -> "_Fused | None":
        """The fused calls' kernels and arguments (:class:`_Fused`), or None: the game has none, or
        the kernels run as Python (``NUMBA_DISABLE_JIT``) and check no types."""
        return None if jit_disabled() or self._fused_call("step") is None else _Fused(self)

    def _fused_ran(self, state, kernel, *args) -> bool:
        """Run a checked call's one-dispatch kernel (returning ``(rule, game)``): True when the state
        passed (the kernel wrote its output), ``ValueError`` when a rule is broken, False when numba
        refused an argument before anything ran (the general path runs and says why)."""
        try:
            rule, i = kernel(*args)
        except Exception:
            return False
        if rule:
            self._raise_rule(state, rule, i)
        return True

    def step_where(self, state: BatchState, where, actions, check: bool = True) -> np.ndarray:
        """Step only the games ``where`` selects, in place; return (B, P) float32 rewards.

        ``where`` is a (B,) bool mask or a 1-d array of distinct game indices in ``0..B-1``
        (anything else is a ``ValueError``: integer flags, a mask of another length,
        repeated or negative indices, floats); ``actions`` holds one action per selected
        game, in index order (``game.step_where(state, ~state.done, actions)`` steps the
        live games of a batch).  The other games are left untouched and get zero rewards.
        Validation is as in :meth:`step`, on the selected games.
        """
        if check:
            self._check(state)
            rows = rows_of(where, state.batch_size)
            actions = self._check_actions(state.take(rows, check=False), actions, games=rows)
        else:
            where = np.asarray(where)
            rows = np.flatnonzero(where) if where.dtype == bool else where.astype(np.int64)
            actions = np.asarray(actions, dtype=np.int64)
        rewards = np.zeros((state.batch_size, self.num_players), dtype=np.float32)
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
        try:
            obs = np.asarray(observations, dtype=np.float32)
        except (TypeError, ValueError) as e:
            raise ValueError(f"observations must be a (B, {self.obs_size}) array of numbers: {e}") from None
        if obs.ndim != 2 or obs.shape[1] != self.obs_size:
            raise ValueError(f"observations must have shape (B, {self.obs_size}), got {obs.shape}")
        if not ((obs >= 0) & (obs <= 1)).all():  # NaN fails too
            raise ValueError("observations hold values outside [0, 1]; no observation does")
        seeds = np.asarray(seeds)
        if seeds.ndim != 2 or seeds.shape[0] != obs.shape[0] or seeds.shape[1] < 1:
            raise ValueError(f"seeds must have shape ({obs.shape[0]}, k) with k >= 1, got {seeds.shape}")
        states, seats = self._sample_states(obs, seeds)
        rule, row = self._broken_rule(self._made(states))
        if rule > 0:
            raise ValueError(f"observation {row // seeds.shape[1]} is not one that {self.name} produces: "
                             f"the state it shows breaks a rule ({self._rule_text(rule)})")
        if rule < 0:
            self._raise_rule(states, rule, row)
        again = self._observe(states, seats)
        bad = (again != np.repeat(obs, seeds.shape[1], axis=0)).any(axis=1)
        if bad.any():
            i = int(np.flatnonzero(bad)[0]) // seeds.shape[1]
            raise ValueError(f"observation {i} is not one that {self.name} produces: no state reproduces it")
        return states, seats

    def check_actions(self, state: BatchState, actions) -> np.ndarray:
        """Validate ``state`` (:meth:`check_state`) and a (B,) batch of actions for it; return
        the actions as int64 or raise ``ValueError``."""
        self._check(state)
        return self._check_actions(state, actions)

    def _check_actions(self, state: BatchState, actions, games=None) -> np.ndarray:
        """:meth:`check_actions` of a checked state; ``games`` (B,) names the games in messages
        (default ``0..B-1``)."""
        arr = self._action_array(actions, state.batch_size)
        kind, i = _kernels.first_bad_action(arr, state.done, self._legal_mask(state))
        if kind:
            self._raise_action(state, arr, kind, i, games)
        return arr

    def _action_array(self, actions, B: int) -> np.ndarray:
        """``actions`` as (B,) int64, or ``ValueError`` (not integers, another shape, an unsigned
        id out of range); the checks that need no state contents."""
        arr = np.asarray(actions)
        if arr.dtype.kind not in "iu" and not (arr.size == 0 and arr.ndim == 1):  # [] is float64
            raise ValueError(f"actions must be integers, got dtype {arr.dtype}")
        if arr.shape != (B,):
            raise ValueError(f"actions must have shape ({B},), got {arr.shape}")
        if arr.dtype.kind == "u" and B and int(arr.max()) >= self.num_actions:
            i = int(arr.argmax())
            raise ValueError(f"action {int(arr[i])} out of range 0..{self.num_actions - 1} (game {i})")
        return arr.astype(np.int64)

    def _raise_action(self, state: BatchState, arr: np.ndarray, kind: int, i: int, games=None) -> None:
        """The ``ValueError`` of action check ``kind`` (:func:`~envs.core.kernels.first_bad_action`;
        4: a length mismatch) at game ``i``."""
        B = state.batch_size
        name = i if games is None else int(np.asarray(games)[i])
        if kind == 4:
            raise ValueError(f"actions must have shape ({B},), got {arr.shape}")
        if kind == 1:
            raise ValueError(f"game {name} is over; reset it before stepping")
        a = int(arr[i])
        if kind == 2:
            raise ValueError(f"action {a} out of range 0..{self.num_actions - 1} (game {name})")
        legal = np.flatnonzero(self._legal_mask(state.take([i], check=False))[0]).tolist()
        where = f" (game {name})" if B > 1 or games is not None else ""
        raise ValueError(f"illegal action {a} ({self.describe_action(a)}){where}; legal actions: {legal}")

    def win_rewards(self, scores: np.ndarray) -> np.ndarray:
        """Win/loss rewards from final (B, P) scores: +1 shared by the winners, -1 by the losers.

        All seats tied gives 0 for everyone.
        """
        scores = np.asarray(scores)
        if scores.ndim != 2 or scores.dtype.kind not in "iuf" or not np.isfinite(scores).all():
            raise ValueError(f"scores must be a (B, P) array of finite numbers, got {scores.dtype} {scores.shape}")
        best = scores.max(axis=1, keepdims=True)
        win = scores == best
        k = win.sum(axis=1, keepdims=True)
        losers = scores.shape[1] - k
        r = np.where(win, 1.0 / k, -1.0 / np.maximum(losers, 1))
        r[(losers == 0)[:, 0]] = 0.0
        return r.astype(np.float32)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(num_players={self.num_players}, reward={self.reward!r})"


def _action_id(action) -> int:
    """``action`` as an int (Python or numpy integer, not bool), or ``ValueError``."""
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        raise ValueError(f"action must be an int, got {type(action).__name__} {action!r}")
    return int(action)


Game.__init__ = _sealing(Game.__init__)  # subclasses are wrapped by Game.__init_subclass__
