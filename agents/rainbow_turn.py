"""Exact expectimax over what is left of one Rainbow Dice turn, for a batch of games.

Value tables live on the 46656 dice codes viewed as a tensor ``(6, 6, 6, 6, 6, 6, G)``
(the layout and the move primitives are in :mod:`envs.rainbow_dice.turn_dp`).
A turn state is (dice, free rerolls left F, die actions spent j); ``j`` also fixes the
tokens left.  With ``E[j]`` the value of ending the dice phase after ``j`` die actions:

* ``W0[j] = max(E[j], adjust -> W0[j+1], token reroll of one die -> mean W0[j+1])``
* ``W1[j] = max(best free reroll into W0[j] (keeping all = stop), adjust -> W1[j+1])``
* ``W2[j] = max(best free reroll into W1[j], adjust -> W2[j+1])``

The best free reroll is found for all 46656 codes and all 64 keep sets at once with two
passes over the subset lattice: means over the rerolled dice (each keep set's table from a
parent by one mean over one axis; 7**6 entries in all), then ``C[K](x_K) = max(A[K], C[K - i])``
over kept sets in increasing size, so ``C[all]`` is the best reroll from every code.
Allowing "reroll nothing" inside that max is harmless: it can never beat stopping or the
real options (the value of a state never drops with more free rerolls).
"""

from __future__ import annotations

import numpy as np

from envs.rainbow_dice.turn_dp import (  # noqa: F401 - re-exported for the bot and tests
    AXIS, NUM_DICE, adjust_max, as_tensor, best_reroll, reroll_means, token_reroll_max,
)


def at(tensor: np.ndarray, index: np.ndarray) -> np.ndarray:
    """Entry ``index[g]`` (flat over the tensor's die axes) of game ``g``, for every game."""
    G = tensor.shape[-1]
    return tensor.reshape(-1, G)[index, np.arange(G)]


def solve(end: list, free_rerolls: int) -> dict:
    """Value tables of the rest of a turn for G games sharing the number of levels.

    ``end[j]`` (6, ..., 6, G) is the value of ending the dice phase after ``j`` more die
    actions (``len(end)`` levels; the last allows none).  ``free_rerolls`` (0..2) is the
    current F.  Returns the tables the current decision needs: ``"W0_0"`` and, when a die
    action is possible, ``"next"`` (``W_F[1]``, the table an adjustment leads to);
    ``"reroll_into"`` (``W_{F-1}[0]``) when F > 0.
    """
    levels = len(end)
    nxt = [None, None, None]  # W0, W1, W2 at level j + 1
    out = {}
    for j in reversed(range(levels)):
        w0 = end[j].copy()
        if nxt[0] is not None:
            adjust_max(w0, nxt[0])
            token_reroll_max(w0, nxt[0])
        cur = [w0, None, None]
        for f in (1, 2):
            if free_rerolls < f or (f == free_rerolls and j == 0):
                break  # W_F[0] itself is never needed: the decision reads its parts
            w = best_reroll(reroll_means(cur[f - 1]))
            if nxt[f] is not None:
                adjust_max(w, nxt[f])
            cur[f] = w
        if j == 1:
            out["next"] = cur[free_rerolls]
        if j == 0:
            out["W0_0"] = w0
            if free_rerolls:
                out["reroll_into"] = cur[free_rerolls - 1]
        nxt = cur
    return out
