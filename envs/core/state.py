"""Batched game state: a structure of numpy arrays with a leading batch dimension."""

from __future__ import annotations

import dataclasses

import numpy as np

from . import rng
from .identity import GameIdentity
from .state_check import rows_of

_FIELD_NAMES: dict[type, tuple[str, ...]] = {}
"""The field names of each state class (``dataclasses.fields`` is slow for a per-step copy)."""


def _field_names(state) -> tuple[str, ...]:
    names = _FIELD_NAMES.get(type(state))
    if names is None:
        names = _FIELD_NAMES[type(state)] = tuple(f.name for f in dataclasses.fields(state))
    return names


@dataclasses.dataclass
class BatchState:
    """Base class of every game's state.

    Subclasses are dataclasses whose every field is a numpy array with the
    batch as its first axis.  Every game state has at least these fields:

    * ``to_move`` (B,) int8: the seat whose decision is pending (the last mover once done);
    * ``done`` (B,) bool: the game is over;
    * ``rng_key``, ``rng_counter`` (B,) uint64: the game's counter-based random stream
      (see :mod:`envs.core.rng`).

    Besides its arrays, a state carries ``identity``
    (:class:`~envs.core.identity.GameIdentity`): the game configuration that made it.  Every
    state a game hands out has one, and copies keep it; every public call of a game checks it
    (:meth:`~envs.core.game.Game.check_state`).  The batch size B is the length of the arrays.

    The generic operations below (copy, take, put, concat) work for every subclass without
    game-specific code.  With ``check=True`` (the default) they first check the arrays'
    structure (:meth:`check_structure`) and their arguments, and raise ``ValueError``
    before changing anything; ``check=False`` is for trusted internal callers.
    """

    identity = None  # set on every state a game makes (not a dataclass field)

    def _arrays(self) -> dict[str, np.ndarray]:
        return {k: getattr(self, k) for k in _field_names(self)}

    def _new(self, arrays: dict[str, np.ndarray]):
        """A state of this type and identity holding ``arrays`` (one per field), without the
        dataclass constructor: states are plain field holders, and single envs copy one per step."""
        out = object.__new__(type(self))
        out.__dict__.update(arrays)
        out.identity = self.identity
        return out

    @property
    def batch_size(self) -> int:
        """Number of games B in the batch."""
        return int(self.done.shape[0])

    def check_structure(self) -> None:
        """Raise ``ValueError`` unless this state carries a game identity and its arrays have
        that game's dtypes and shapes, all of one batch size, writeable and C-contiguous.

        The values in the arrays are checked by the game's calls
        (:meth:`~envs.core.game.Game.check_state`).
        """
        if not isinstance(self.identity, GameIdentity):
            raise ValueError(f"this {type(self).__name__} carries no game identity: build states with "
                             "a game's init, from_position or the state methods, not from arrays")
        self.identity.game()._check(self, 0, 0)

    def copy(self, check: bool = True):
        """A deep copy (no array is shared with ``self``)."""
        if check:
            self.check_structure()
        return self._new({k: v.copy() for k, v in self._arrays().items()})

    def copy_into(self, other: "BatchState", check: bool = True) -> None:
        """Overwrite every array of ``other`` (same game, same batch size) with this state's
        values: a copy into buffers that already exist (a single env's per-step snapshot)."""
        if check:
            self._check_partner(other, "copy_into")
            if other.batch_size != self.batch_size:
                raise ValueError(f"copy_into: this state holds {self.batch_size} games, the target "
                                 f"{other.batch_size}")
        mine, theirs = self.__dict__, other.__dict__
        for k in _field_names(self):
            theirs[k][...] = mine[k]

    def clone(self, seeds, check: bool = True):
        """Copies of every game, each with its own fresh random stream.

        ``seeds`` is (B, k) ints (or (B,) for one copy each): copy ``j`` of game ``i`` is game
        ``i k + j`` of the result, equal to game ``i`` except that its stream restarts from
        ``seeds[i, j]`` (:func:`envs.core.rng.keys_from_seeds`, counter 0).  Unlike
        :meth:`copy`, whose games reroll exactly as their sources do, copies with different
        seeds draw independent dice, shuffles and redeals from here on.
        """
        if check:
            self.check_structure()
        seeds = np.asarray(seeds)
        B = self.batch_size
        if seeds.ndim == 1:
            seeds = seeds[:, None]
        if seeds.ndim != 2 or seeds.shape[0] != B:
            raise ValueError(f"seeds must have shape ({B}, k) or ({B},), got {seeds.shape}")
        keys = rng.keys_from_seeds(seeds.reshape(-1))  # refuses non-integer seeds
        out = self.take(np.repeat(np.arange(B), seeds.shape[1]), check=False)
        out.rng_key[:] = keys
        out.rng_counter[:] = 0
        return out

    def take(self, index, check: bool = True):
        """A new state holding the games ``index``, in that order; copies.

        ``index`` is a game index (int), a slice, a (B,) bool mask or a 1-d array of game
        indices in ``0..B-1`` (repeats allowed).
        """
        if isinstance(index, (int, np.integer)) and not isinstance(index, (bool, np.bool_)):
            index = [int(index)]
        if check:
            self.check_structure()
            if isinstance(index, slice):
                index = np.arange(self.batch_size)[index]
            index = rows_of(index, self.batch_size, "index", distinct=False)
        return self._new({k: v[index].copy() for k, v in self._arrays().items()})

    def put(self, index, other: "BatchState", check: bool = True) -> None:
        """Overwrite the games ``index`` of ``self`` with the games of ``other`` (in order).

        ``index`` is a game index, a slice, a (B,) bool mask or distinct game indices: one
        game of ``self`` per game of ``other``.
        """
        if check:
            self._check_partner(other, "put")
            if isinstance(index, (int, np.integer)) and not isinstance(index, (bool, np.bool_)):
                index = [int(index)]
            elif isinstance(index, slice):
                index = np.arange(self.batch_size)[index]
            rows = rows_of(index, self.batch_size, "index")
            if rows.size != other.batch_size:
                raise ValueError(f"put: index selects {rows.size} games, the other state holds "
                                 f"{other.batch_size}")
            index = rows
        for k, v in self._arrays().items():
            v[index] = getattr(other, k)

    @classmethod
    def concat(cls, states, check: bool = True):
        """Stack several states of the same game along the batch axis."""
        states = list(states)
        if check:
            if not states:
                raise ValueError("concat needs at least one state")
            for s in states:
                if type(s) is not cls:
                    raise ValueError(f"concat: a {type(s).__name__} is not a {cls.__name__}")
                s.check_structure()
                if s.identity != states[0].identity:
                    raise ValueError(f"concat: states of {states[0].identity.label} and "
                                     f"{s.identity.label} cannot be stacked")
        names = [f.name for f in dataclasses.fields(cls)]
        out = cls(**{k: np.concatenate([getattr(s, k) for s in states], axis=0) for k in names})
        out.identity = states[0].identity
        return out

    def equals(self, other: "BatchState") -> bool:
        """True when ``other`` is a state of the same game whose every array equals this one's."""
        if type(other) is not type(self) or other.identity != self.identity:
            return False
        try:
            mine, theirs = self._arrays(), other._arrays()
            return all(
                mine[k].shape == theirs[k].shape and np.array_equal(mine[k], theirs[k]) for k in mine
            )
        except (AttributeError, TypeError, ValueError):
            return False

    def _check_partner(self, other, what: str) -> None:
        """Both states are well-formed states of the same game (``ValueError`` otherwise)."""
        if not isinstance(other, BatchState):
            raise ValueError(f"{what}: expected a {type(self).__name__}, got {type(other).__name__}")
        self.check_structure()
        other.check_structure()
        if other.identity != self.identity:
            raise ValueError(f"{what}: a state of {other.identity.label} does not fit a state of "
                             f"{self.identity.label}")
