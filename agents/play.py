"""Play whole batches of games between bots (the loop behind evaluations and matches)."""

from __future__ import annotations

import numpy as np


def play_out(game, state, bots: list, rng: np.random.Generator, seating=None) -> np.ndarray:
    """Play every unfinished game of ``state`` to its end with bots; return summed rewards.

    ``bots`` is a list of bots (objects with ``act(obs, mask, rng)``).  ``seating`` (B, P)
    ints says which bot plays each seat of each game (default: ``bots[s]`` plays seat ``s``
    everywhere).  ``state`` is checked first (:meth:`~envs.core.game.Game.check_state`), and every
    action goes through the core's validation, so a bot that picks an illegal action raises
    ``ValueError``.  Mutates ``state``; returns (B, P) float64
    rewards summed over the rest of each game.
    """
    game.check_state(state)  # once: from here on only the core writes it
    B, P = state.batch_size, game.num_players
    seating = np.broadcast_to(np.arange(P), (B, P)) if seating is None else np.asarray(seating)
    if seating.shape != (B, P) or seating.min() < 0 or seating.max() >= len(bots):
        raise ValueError(f"seating must be (B, P) = ({B}, {P}) indices into {len(bots)} bots")
    total = np.zeros((B, P))
    while not state.done.all():
        live = np.flatnonzero(~state.done)
        sub = state.take(live, check=False)
        who = seating[live, sub.to_move.astype(np.int64)]
        obs, mask = game.observe(sub, check=False), game.legal_mask(sub, check=False)
        actions = np.empty(live.size, dtype=np.int64)
        for j in np.unique(who):
            pick = who == j
            actions[pick] = bots[j].act(obs[pick], mask[pick], rng)
        total[live] += game.step(sub, actions)  # checks the state and the bots' actions
        state.put(live, sub, check=False)
    return total
