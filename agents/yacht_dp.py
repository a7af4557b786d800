"""Exact optimal solitaire Yacht by dynamic programming (docs/rules/yacht.md §4: 169.7739).

State between turns: the set of open categories (a 12-bit mask; no bonus exists,
so nothing else matters).  Within a turn: the sorted dice (one of 252 multisets)
and the rerolls left.  Kept dice are sorted multisets too (462 of them, sizes
0..5), and ``TRANSITION[k, d]`` is the chance that keeping ``k`` and rolling the
rest gives ``d``.  Working layer by layer over the number of open categories,
every layer is a few dense matrix products, so the whole table takes about a
second.

Keeping all five dice is not a legal action (docs/rules/yacht.md §5.1) but equals scoring later
with the same dice, so allowing it in the recursion does not change any value.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from envs.yacht.dice import FULL_REROLL, KEEP_OF, transition_matrix
from envs.yacht.scoring import MULTISETS, NUM_CATEGORIES, SCORE_TABLE, dice_code

NUM_MASKS = 1 << NUM_CATEGORIES


@dataclass(frozen=True)
class YachtTables:
    """Solved values.

    ``expected[m]``: optimal expected future score at the start of a turn with open set ``m``.
    ``keep_values[r][m, k]``: expected value of keeping ``k`` and rerolling the rest when
    ``r`` rerolls are left before the reroll (r = 1, 2; index 0 unused).
    ``keep_of[d, id]``: keep index reached by reroll id from multiset ``d``.
    ``scores[d, c]``: category scores of multiset ``d``.
    """

    expected: np.ndarray
    keep_values: tuple
    keep_of: np.ndarray
    scores: np.ndarray

    @property
    def optimal_score(self) -> float:
        """The optimal expected solitaire score (all 12 categories open)."""
        return float(self.expected[NUM_MASKS - 1])


@functools.lru_cache(maxsize=1)
def solve() -> YachtTables:
    """Solve solitaire Yacht exactly (cached; about a second)."""
    trans = transition_matrix()  # (462 keeps, 252 multisets)
    keep_of = KEEP_OF
    sub = [sorted(set(row)) for row in keep_of]  # the distinct keeps of each multiset
    width = max(len(s) for s in sub)
    subkeeps = np.array([s + [s[0]] * (width - len(s)) for s in sub], dtype=np.int64)
    scores = SCORE_TABLE[dice_code(MULTISETS)].astype(np.float64)  # (252, 12)
    start = trans[FULL_REROLL]  # distribution of a fresh roll
    expected = np.zeros(NUM_MASKS)
    kv1 = np.zeros((NUM_MASKS, trans.shape[0]), dtype=np.float32)
    kv2 = np.zeros_like(kv1)
    masks = np.arange(NUM_MASKS)
    popcount = np.array([bin(m).count("1") for m in masks])
    bits = 1 << np.arange(NUM_CATEGORIES)
    for n in range(1, NUM_CATEGORIES + 1):
        layer = masks[popcount == n]
        is_open = (layer[:, None] & bits) > 0  # (M, 12)
        after = expected[layer[:, None] & ~bits]  # (M, 12): value once category c is filled
        v0 = np.where(is_open[:, None, :], scores[None] + after[:, None, :], -np.inf).max(axis=2)
        k1 = v0 @ trans.T  # (M, 462): keep, reroll, then score
        v1 = k1[:, subkeeps].max(axis=2)
        k2 = v1 @ trans.T
        v2 = k2[:, subkeeps].max(axis=2)
        expected[layer] = v2 @ start
        kv1[layer], kv2[layer] = k1, k2
    return YachtTables(expected, (None, kv1, kv2), keep_of, scores)



def optimal_score() -> float:
    """The optimal expected solitaire Yacht score (:func:`solve`'s, about 169.77)."""
    return solve().optimal_score