"""Exact expectimax over what is left of one Rainbow Dice turn, for a batch of games.

Value tables live on the 46656 dice codes viewed as a tensor ``(6, 6, 6, 6, 6, 6, G)``
(one axis per die; die ``i`` is axis ``5 - i`` because Red is the lowest base-6 digit; the
batch axis is last so that every reduction and shift runs over contiguous runs of G values).
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

NUM_DICE = 6
AXIS = tuple(NUM_DICE - 1 - i for i in range(NUM_DICE))
"""Tensor axis of die ``i`` in a ``(6, 6, 6, 6, 6, 6, G)`` value table."""
FULL = (1 << NUM_DICE) - 1
_POPCOUNT = [bin(k).count("1") for k in range(FULL + 1)]
_BY_SIZE_DESC = sorted(range(FULL), key=lambda k: -_POPCOUNT[k])
_BY_SIZE_ASC = sorted(range(1, FULL + 1), key=lambda k: _POPCOUNT[k])
_SIXTH = np.float32(1 / 6)


def as_tensor(table: np.ndarray) -> np.ndarray:
    """A (G, 46656) table as a contiguous (6, 6, 6, 6, 6, 6, G) tensor."""
    return np.ascontiguousarray(table.T).reshape((6,) * NUM_DICE + (table.shape[0],))


def at(tensor: np.ndarray, index: np.ndarray) -> np.ndarray:
    """Entry ``index[g]`` (flat over the tensor's die axes) of game ``g``, for every game."""
    G = tensor.shape[-1]
    return tensor.reshape(-1, G)[index, np.arange(G)]


def reroll_means(values: np.ndarray) -> list:
    """``A[K]``: expected ``values`` after rerolling the dice not in keep set ``K``, for all 64 ``K``.

    ``values`` is a (6, ..., 6, G) tensor; ``A[K]`` keeps size-1 axes for rerolled dice.
    """
    means = [None] * (FULL + 1)
    means[FULL] = values
    for keep in _BY_SIZE_DESC:
        i = next(d for d in range(NUM_DICE) if not keep >> d & 1)
        parent = means[keep | 1 << i]
        m = parent.sum(axis=AXIS[i], keepdims=True)
        m *= _SIXTH
        means[keep] = m
    return means


def best_reroll(means: list) -> np.ndarray:
    """The best over all keep sets (rerolling nothing included) from every dice code: (6, ..., 6, G)."""
    best = [None] * (FULL + 1)
    best[0] = means[0]
    for keep in _BY_SIZE_ASC:
        b = means[keep].copy()
        for d in range(NUM_DICE):
            if keep >> d & 1:
                np.maximum(b, best[keep ^ 1 << d], out=b)
        best[keep] = b
    return best[FULL]


def _slices(axis: int, sl: slice) -> tuple:
    out = [slice(None)] * (NUM_DICE + 1)  # six die axes, then the batch
    out[axis] = sl
    return tuple(out)


_UP = [(_slices(AXIS[i], slice(0, 5)), _slices(AXIS[i], slice(1, 6))) for i in range(NUM_DICE)]


def adjust_max(out: np.ndarray, after: np.ndarray) -> None:
    """In place: ``out[x] = max(out[x], after[x + e_i], after[x - e_i])`` over dice i (no wrap)."""
    for low, high in _UP:
        np.maximum(out[low], after[high], out=out[low])  # +1 on a die below 6
        np.maximum(out[high], after[low], out=out[high])  # -1 on a die above 1


def token_reroll_max(out: np.ndarray, after: np.ndarray) -> None:
    """In place: ``out[x] = max(out[x], mean over die i of after)`` for every die i."""
    for i in range(NUM_DICE):
        m = after.sum(axis=AXIS[i], keepdims=True)
        m *= _SIXTH
        np.maximum(out, m, out=out)


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
