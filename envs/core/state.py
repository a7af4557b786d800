"""Batched game state: a structure of numpy arrays with a leading batch dimension."""

from __future__ import annotations

import dataclasses

import numpy as np

from . import rng


@dataclasses.dataclass
class BatchState:
    """Base class of every game's state.

    Subclasses are dataclasses whose every field is a numpy array with the
    batch as its first axis.  Every game state has at least these fields:

    * ``to_move`` (B,) int8: the seat whose decision is pending (the last mover once done);
    * ``done`` (B,) bool: the game is over;
    * ``rng_key``, ``rng_counter`` (B,) uint64: the game's counter-based random stream
      (see :mod:`envs.core.rng`).

    The generic operations below (copy, take, put, concat) work for every
    subclass without game-specific code.
    """

    def _arrays(self) -> dict[str, np.ndarray]:
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    @property
    def batch_size(self) -> int:
        """Number of games B in the batch."""
        return int(self.done.shape[0])

    def copy(self):
        """A deep copy (no array is shared with ``self``)."""
        return type(self)(**{k: v.copy() for k, v in self._arrays().items()})

    def clone(self, seeds):
        """Copies of every game, each with its own fresh random stream.

        ``seeds`` is (B, k) ints (or (B,) for one copy each): copy ``j`` of game ``i`` is game
        ``i k + j`` of the result, equal to game ``i`` except that its stream restarts from
        ``seeds[i, j]`` (:func:`envs.core.rng.keys_from_seeds`, counter 0).  Unlike
        :meth:`copy`, whose games reroll exactly as their sources do, copies with different
        seeds draw independent dice, shuffles and redeals from here on.
        """
        seeds = np.asarray(seeds)
        B = self.batch_size
        if seeds.ndim == 1:
            seeds = seeds[:, None]
        if seeds.ndim != 2 or seeds.shape[0] != B:
            raise ValueError(f"seeds must have shape ({B}, k) or ({B},), got {seeds.shape}")
        out = self.take(np.repeat(np.arange(B), seeds.shape[1]))
        out.rng_key[:] = rng.keys_from_seeds(seeds.reshape(-1))
        out.rng_counter[:] = 0
        return out

    def take(self, index):
        """A new state holding the games ``index`` (int array, slice or bool mask); copies."""
        if isinstance(index, (int, np.integer)):
            index = [int(index)]
        return type(self)(**{k: v[index].copy() for k, v in self._arrays().items()})

    def put(self, index, other: "BatchState") -> None:
        """Overwrite the games ``index`` of ``self`` with the games of ``other`` (in order)."""
        for k, v in self._arrays().items():
            v[index] = getattr(other, k)

    @classmethod
    def concat(cls, states):
        """Stack several states of the same type along the batch axis."""
        states = list(states)
        names = [f.name for f in dataclasses.fields(cls)]
        return cls(**{k: np.concatenate([getattr(s, k) for s in states], axis=0) for k in names})

    def equals(self, other: "BatchState") -> bool:
        """True when every array of ``other`` equals the one of ``self`` (same type, same shapes)."""
        if type(other) is not type(self):
            return False
        mine, theirs = self._arrays(), other._arrays()
        return all(
            mine[k].shape == theirs[k].shape and np.array_equal(mine[k], theirs[k]) for k in mine
        )
