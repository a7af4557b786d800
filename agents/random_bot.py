"""The uniformly random legal bot (any game)."""

from __future__ import annotations

from envs.core.sampling import sample_legal

from .base import BaseBot, as_batch


class RandomBot(BaseBot):
    """Plays a uniformly random legal action in every game of the batch."""

    name = "random"
    game = None

    def act(self, observation, mask, rng):
        _, m = as_batch(observation, mask)
        return sample_legal(m, rng)
