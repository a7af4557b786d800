"""Dynamic programming over one Rainbow Dice turn's dice: the shared primitives, and the reach table.

Value tables live on the 46656 dice codes viewed as a tensor ``(6, 6, 6, 6, 6, 6, G)``
(one axis per die; die ``i`` is axis ``5 - i`` because Red is the lowest base-6 digit; the
batch axis is last so that every reduction and shift runs over contiguous runs of G values).
The primitives apply the turn's moves to such a table: the mean over rerolled dice for all
64 keep sets (:func:`reroll_means`), the best free reroll (:func:`best_reroll`), a ±1
adjustment (:func:`adjust_max`) and a one-die token reroll (:func:`token_reroll_max`).

:func:`reach_table` uses them for the observation's ``reach`` slice: the exact probability
of ending the dice phase with each hand satisfied when playing for that hand alone (the
table of docs/rules/rainbow_dice.md §3.2, but from every dice state rather than a fresh throw).  Pure numpy.
"""

from __future__ import annotations

import numpy as np

from .hands import NUM_DICE, NUM_HANDS, NUM_OUTCOMES, SATISFIED

AXIS = tuple(NUM_DICE - 1 - i for i in range(NUM_DICE))
"""Tensor axis of die ``i`` in a ``(6, 6, 6, 6, 6, 6, G)`` value table."""
FULL = (1 << NUM_DICE) - 1
_POPCOUNT = [bin(k).count("1") for k in range(FULL + 1)]
_BY_SIZE_DESC = sorted(range(FULL), key=lambda k: -_POPCOUNT[k])
_BY_SIZE_ASC = sorted(range(1, FULL + 1), key=lambda k: _POPCOUNT[k])
_SIXTH = np.float32(1 / 6)
MAX_FREE_REROLLS = 2
MAX_BUDGET = 3
"""Die actions a turn allows (spec: at most 3 per turn), the last axis-1 index of :func:`reach_table`."""


def as_tensor(table: np.ndarray) -> np.ndarray:
    """A (G, 46656) table as a contiguous (6, 6, 6, 6, 6, 6, G) tensor."""
    return np.ascontiguousarray(table.T).reshape((6,) * NUM_DICE + (table.shape[0],))


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


def reach_probabilities() -> np.ndarray:
    """(3, 4, 46656, 30) float32: P(ending the dice phase with hand h satisfied), playing for h alone.

    Entry ``[F, L, code, h]``: ``F`` free rerolls left (0..2; 0 is the final phase, where
    one-die token rerolls are allowed), ``L`` die actions still affordable (0..3, i.e.
    ``min(tokens, 3 - used)``), ``code`` the dice now.  With ``F = 2`` and a fresh throw the
    mean over codes is the table of docs/rules/rainbow_dice.md §3.2 for ``L`` = 0 / 1 / 3 die actions.  Piles are
    ignored.
    """
    sat = as_tensor(SATISFIED.T.astype(np.float32))
    w = {}
    for budget in range(MAX_BUDGET + 1):
        w0 = sat.copy()  # buy now (or after spending nothing more)
        if budget:
            adjust_max(w0, w[0, budget - 1])
            token_reroll_max(w0, w[0, budget - 1])
        w[0, budget] = w0
        for f in range(1, MAX_FREE_REROLLS + 1):
            wf = best_reroll(reroll_means(w[f - 1, budget]))  # "reroll nothing" = stop, for f = 1
            if budget:
                adjust_max(wf, w[f, budget - 1])
            w[f, budget] = wf
    return np.stack([
        np.stack([w[f, b].reshape(NUM_OUTCOMES, NUM_HANDS) for b in range(MAX_BUDGET + 1)])
        for f in range(MAX_FREE_REROLLS + 1)
    ])


REACH_LEVELS = 255
"""The reach table is stored as uint8 multiples of 1 / 255 (rounded to nearest)."""
_REACH = None


def reach_table() -> np.ndarray:
    """(3 * 4 * 46656, 30) uint8: :func:`reach_probabilities` rounded to multiples of 1/255,
    row ``(F * 4 + L) * 46656 + code`` (built on first use, about a second, then cached)."""
    global _REACH
    if _REACH is None:
        p = reach_probabilities().reshape(-1, NUM_HANDS)
        _REACH = np.rint(np.clip(p, 0, 1) * REACH_LEVELS).astype(np.uint8)
    return _REACH
