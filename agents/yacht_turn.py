"""One Yacht turn solved exactly for any values of its end states (the within-turn expectimax).

A turn ends when a category is scored; what a solver knows about the rest of the game
goes into ``leaf[b, d, c]``: the value of scoring category ``c`` with the sorted dice ``d``
(one of the 252 multisets) in game ``b`` (``-inf`` for a closed category).  Then

* with no reroll left the value of dice ``d`` is ``v0[d] = max_c leaf[d, c]``;
* keeping ``k`` (one of the 462 kept multisets) and rerolling the rest is worth
  ``K_r[k] = sum_d' TRANSITION[k, d'] v_{r-1}[d']`` with ``r`` rerolls left before it.
  Rolling the missing dice one at a time gives the same multisets with the same chances,
  so ``K_r[k]`` is the mean of ``K_r[k + f]`` over the six faces ``f`` (and ``v_{r-1}`` of
  the dice themselves for five kept dice): 6 additions per keep instead of a product with
  the (462, 252) matrix;
* with ``r`` rerolls left, dice ``d`` are worth ``v_r[d] = max(v0[d], max over the keeps k
  inside d of K_r[k])``, computed once for every multiset by a pass over the keeps in order of
  size (each keep's best sub-keep is the best of its own value and of its one-die-smaller
  sub-keeps').

Keeping all five dice is counted among the keeps (it equals scoring later with the same
dice, see :mod:`agents.yacht_dp`), so no value changes.  The solvers of the whole game
(:mod:`agents.yacht_threshold`) run the same steps on whole layers of sheets at once.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from envs.yacht.dice import KEEP_OF, KEEP_SIZE, KEEPS
from envs.yacht.rules import NUM_ACTIONS, SCORE_START
from envs.yacht.scoring import ALL_DICE, MULTISET_INDEX, MULTISETS, NUM_CATEGORIES, SCORE_TABLE, dice_code

NUM_MULTISETS = len(MULTISETS)
NUM_KEEPS = len(KEEPS)
SCORES = SCORE_TABLE[dice_code(MULTISETS)].astype(np.int64)
"""(252, 12): category scores of every sorted multiset."""
BITS = 1 << np.arange(NUM_CATEGORIES)


def _sub_keeps() -> np.ndarray:
    """(462, 6): keep ``k`` less one die of face ``f`` (``NUM_KEEPS``, a -inf slot, where ``k`` has none)."""
    index = {tuple(k): i for i, k in enumerate(KEEPS)}
    sub = np.full((NUM_KEEPS, 6), NUM_KEEPS, dtype=np.int64)
    for i, k in enumerate(KEEPS):
        for f in range(6):
            if k[f]:
                smaller = k.copy()
                smaller[f] -= 1
                sub[i, f] = index[tuple(smaller)]
    return sub


def _add_die() -> np.ndarray:
    """(462, 6): keep ``k`` plus one die of face ``f`` (-1 for five kept dice)."""
    index = {tuple(k): i for i, k in enumerate(KEEPS)}
    add = np.full((NUM_KEEPS, 6), -1, dtype=np.int64)
    for i, k in enumerate(KEEPS):
        if k.sum() < 5:
            for f in range(6):
                bigger = k.copy()
                bigger[f] += 1
                add[i, f] = index[tuple(bigger)]
    return add


SUB_KEEPS = _sub_keeps()
ADD_DIE = _add_die()
KEEP_ORDER = np.argsort(KEEP_SIZE, kind="stable").astype(np.int64)
"""The keeps in order of size (every keep after its sub-keeps)."""
WHOLE_KEEP = KEEP_OF[:, 0].copy()
"""(252,): the keep of all five dice of each multiset."""
MULTISET_OF_KEEP = np.full(NUM_KEEPS, -1, dtype=np.int64)
"""(462,): the multiset of a keep of five dice (-1 for smaller keeps)."""
MULTISET_OF_KEEP[WHOLE_KEEP] = np.arange(len(WHOLE_KEEP))


def _fresh_roll() -> np.ndarray:
    """(252,): the chance of each multiset on a roll of all five dice."""
    counts = np.bincount(MULTISET_INDEX[dice_code(ALL_DICE)], minlength=NUM_MULTISETS)
    return counts / counts.sum()


FRESH_ROLL = _fresh_roll()


@njit(cache=True, inline="always")
def keep_values(v, out):  # pragma: no cover - compiled
    """``out[k]``: the expected ``v`` (252,) of the dice after keeping ``k`` and rolling the rest."""
    for i in range(NUM_KEEPS - 1, -1, -1):
        k = KEEP_ORDER[i]
        if MULTISET_OF_KEEP[k] >= 0:
            out[k] = v[MULTISET_OF_KEEP[k]]
        else:
            s = 0.0
            for f in range(6):
                s += out[ADD_DIE[k, f]]
            out[k] = s / 6.0


@njit(cache=True, inline="always")
def best_keeps(kv, v0, best, out):  # pragma: no cover - compiled
    """``out[d] = max(v0[d], max of kv[k] over the keeps k inside d)`` (``best``: 463 scratch)."""
    best[NUM_KEEPS] = -np.inf
    for i in range(NUM_KEEPS):
        k = KEEP_ORDER[i]
        v = kv[k]
        for f in range(6):
            s = best[SUB_KEEPS[k, f]]
            if s > v:
                v = s
        best[k] = v
    for d in range(NUM_MULTISETS):
        v = best[WHOLE_KEEP[d]]
        out[d] = v if v > v0[d] else v0[d]


@njit(cache=True)
def _plan_rows(v0, k1, k2):  # pragma: no cover - compiled
    v1 = np.empty(NUM_MULTISETS)
    best = np.empty(NUM_KEEPS + 1)
    for r in range(v0.shape[0]):
        keep_values(v0[r], k1[r])
        best_keeps(k1[r], v0[r], best, v1)
        keep_values(v1, k2[r])


def plan_turn(leaf: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The values of a turn whose end states are worth ``leaf`` (B, 252, 12).

    Returns ``(v0 (B, 252), K1 (B, 462), K2 (B, 462))``: the value of dice with no reroll
    left, and of every keep with one and with two rerolls left before it.
    """
    v0 = np.ascontiguousarray(leaf.max(axis=2), dtype=np.float64)
    k1 = np.empty((v0.shape[0], NUM_KEEPS))
    k2 = np.empty_like(k1)
    _plan_rows(v0, k1, k2)
    return v0, k1, k2


def turn_action_values(leaf: np.ndarray, dice: np.ndarray, rolls_left: np.ndarray) -> np.ndarray:
    """(B, 44) value of every action at dice ``dice`` (B,) multiset indices with ``rolls_left`` (B,)
    rerolls left, for end states worth ``leaf`` (B, 252, 12); ``-inf`` where an action is illegal."""
    B = dice.shape[0]
    values = np.full((B, NUM_ACTIONS), -np.inf)
    rows = np.arange(B)
    values[:, SCORE_START:] = leaf[rows, dice]
    need = rolls_left > 0
    if need.any():
        _, k1, k2 = plan_turn(leaf[need])
        kr = np.where((rolls_left[need] == 1)[:, None], k1, k2)
        values[need, 1:SCORE_START] = kr[np.arange(kr.shape[0])[:, None], KEEP_OF[dice[need], 1:SCORE_START]]
    return values
