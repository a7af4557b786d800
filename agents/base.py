"""The one small interface every madang bot implements."""

from __future__ import annotations

import numpy as np


class Bot:
    """A batched policy over one game's observations.

    ``act(observation, mask, rng)`` takes a (B, O) float32 batch of observations (the
    env's encoding, from the acting seat's view), a (B, A) bool or int8 legal mask and a
    ``numpy.random.Generator``, and returns (B,) int64 legal actions.  ``name`` is the
    name ``agents.load`` knows it by; ``game`` is the game module it plays (``"yacht"``)
    or ``None`` for a bot that plays any game.
    """

    name: str = ""
    game: str | None = None

    def act(self, observation: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
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
