"""Play whole batches of games between bots (the play-outs of evaluations, matches and searches)."""

from __future__ import annotations

import numpy as np

from envs.core.match import Match


def play_out(game, state, bots: list, rng: np.random.Generator, seating=None) -> np.ndarray:
    """Play every unfinished game of ``state`` to its end with bots; return summed rewards.

    ``bots`` is a list of bots (objects with ``act(obs, mask, rng)``).  ``seating`` (B, P)
    ints says which bot plays each seat of each game (default: ``bots[s]`` plays seat ``s``
    everywhere).  The match loop (:class:`envs.core.match.Match`) checks ``state`` and
    ``seating`` first (``ValueError``) and every bot's actions as they come: a bot that raises
    or picks a malformed or illegal action raises :class:`~envs.core.match.OpponentError`
    naming it and its seat.  Mutates ``state``; returns (B, P) float32 rewards summed over the
    rest of each game.
    """
    return Match(game, bots).play(state, rng, seating=seating)
