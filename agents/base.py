"""The bot protocol (:class:`Bot`), the base class of madang's own bots, and batch validation."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class Bot(Protocol):
    """Anything that chooses actions for a batch of decisions: the one interface of every bot.

    ``act(observations, masks, rng)`` receives

    * ``observations``: a (B, O) float32 array, one row per decision, each the env's encoding
      from the view of the seat to move (the rows may come from different games and seats);
    * ``masks``: a (B, A) bool (or int8 0/1) array, ``masks[i, a]`` true exactly for the
      legal actions of row ``i``; every row has at least one;
    * ``rng``: a ``numpy.random.Generator``, the only source of randomness a bot may use,
      so that seeded evaluations repeat exactly;

    and returns a (B,) integer array of legal actions, one per row.  A bot keeps no state
    between calls that changes its choices: the callers batch decisions from many games in
    any order.

    Optional attributes, read when present: ``name`` (a str: how results and messages name
    the bot) and ``game`` (the game module it plays, ``"yacht"``, or ``None`` for any game).
    Any object with such an ``act`` method is a bot (``isinstance(obj, agents.Bot)``
    checks the method only); madang's own bots subclass :class:`BaseBot`.  See
    ``docs/bots.md``.
    """

    def act(self, observations: np.ndarray, masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """(B,) legal actions for the (B, O) observations and (B, A) masks."""
        ...


class BaseBot:
    """The base class of madang's bots: a ``name``, a ``game`` and :meth:`check_game`.

    Subclasses implement ``act`` as :class:`Bot` describes.
    """

    name: str = ""
    game: str | None = None

    def act(self, observations: np.ndarray, masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """(B,) legal actions for the (B, O) observations and (B, A) masks (see :class:`Bot`)."""
        raise NotImplementedError

    def check_game(self, game_name: str) -> None:
        """Raise ``ValueError`` if this bot cannot play ``game_name``."""
        if self.game is not None and self.game != game_name:
            raise ValueError(f"bot {self.name!r} plays {self.game}, not {game_name}")

    def __repr__(self) -> str:
        return f"<bot {self.name}>"


def as_batch(observation, mask, obs_size: int | None = None, num_actions: int | None = None):
    """Validate and return ``(observation (B, O) float32, mask (B, A) bool)``.

    With ``obs_size`` / ``num_actions`` (a game-specific bot's game), other widths raise
    ``ValueError`` too.
    """
    obs = np.asarray(observation, dtype=np.float32)
    m = np.asarray(mask)
    if obs.ndim != 2 or m.ndim != 2 or obs.shape[0] != m.shape[0]:
        raise ValueError(
            f"bots act on batches: observation (B, O) and mask (B, A), got {obs.shape} and {m.shape}"
        )
    if (obs_size is not None and obs.shape[1] != obs_size) or (
        num_actions is not None and m.shape[1] != num_actions
    ):
        raise ValueError(
            f"this bot needs observations of size {obs_size} and masks of {num_actions} actions, "
            f"got {obs.shape[1]} and {m.shape[1]}"
        )
    m = m.astype(bool)
    if not m.any(axis=1).all():
        raise ValueError("a mask row has no legal action")
    return obs, m
