"""Yacht scoring (docs/rules/yacht.md §2): the 12 categories and lookup tables over all dice.

Pure numpy, no framework imports.  ``category_scores`` is part of the public
interface (docs/rules/yacht.md §5.6); the tables are what the batched rules and the solver use.
"""

from __future__ import annotations

import itertools

import numpy as np

CATEGORY_NAMES = (
    "Ones", "Twos", "Threes", "Fours", "Fives", "Sixes",
    "Choice", "Four of a Kind", "Full House", "Little Straight", "Big Straight", "Yacht",
)
NUM_CATEGORIES = 12
NUM_DICE = 5
MAX_TOTAL = 303  # sum of every category's maximum (5+10+...+30 + 30+30+28+30+30+50)

_PLACE = 6 ** np.arange(NUM_DICE, dtype=np.int64)  # base-6 place values of die i


def category_scores(dice) -> np.ndarray:
    """Score of every category for the given dice.

    ``dice``: integer array-like of shape ``(..., 5)`` with values in 1..6 (any order).
    Returns an int64 array of shape ``(..., 12)`` in category order (docs/rules/yacht.md §2):
    Ones..Sixes, Choice, Four of a Kind (sum of all dice if >= 4 alike), Full House
    (sum if exactly 3 + 2 of different values), Little Straight (30 for 1-2-3-4-5),
    Big Straight (30 for 2-3-4-5-6), Yacht (50 for five alike).
    Raises ``ValueError`` for a wrong last axis or values outside 1..6.
    """
    d = np.asarray(dice)
    if d.dtype == bool or not np.issubdtype(d.dtype, np.integer):
        raise ValueError(f"dice must be integers, got dtype {d.dtype}")
    if d.ndim == 0 or d.shape[-1] != NUM_DICE:
        raise ValueError(f"dice must have shape (..., 5), got {d.shape}")
    if d.size and (d.min() < 1 or d.max() > 6):
        raise ValueError("dice values must be in 1..6")
    d = d.astype(np.int64)
    counts = np.stack([(d == v).sum(axis=-1) for v in range(1, 7)], axis=-1)  # (..., 6)
    total = d.sum(axis=-1)
    faces = np.arange(1, 7)
    upper = counts * faces
    maxc = counts.max(axis=-1)
    sorted_counts = np.sort(counts, axis=-1)
    four = np.where(maxc >= 4, total, 0)
    full = np.where((sorted_counts[..., -1] == 3) & (sorted_counts[..., -2] == 2), total, 0)
    ones_each = counts == 1
    little = np.where(ones_each[..., :5].all(axis=-1), 30, 0)
    big = np.where(ones_each[..., 1:].all(axis=-1), 30, 0)
    yacht = np.where(maxc == 5, 50, 0)
    return np.concatenate(
        [upper, np.stack([total, four, full, little, big, yacht], axis=-1)], axis=-1
    ).astype(np.int64)


def dice_code(dice: np.ndarray) -> np.ndarray:
    """Base-6 code ``sum((d_i - 1) * 6**i)`` of dice ``(..., 5)`` -> ``(...,)`` int64 in 0..7775."""
    return (np.asarray(dice, dtype=np.int64) - 1) @ _PLACE


# All 7776 ordered outcomes, their scores, and the 252 sorted multisets.
ALL_DICE = np.array(list(itertools.product(range(1, 7), repeat=NUM_DICE)), dtype=np.int64)[:, ::-1]
"""(7776, 5): row ``c`` is the dice whose :func:`dice_code` is ``c``."""
SCORE_TABLE = category_scores(ALL_DICE)
"""(7776, 12) int64: ``SCORE_TABLE[dice_code(d)] == category_scores(d)``."""
MULTISETS = np.array(
    list(itertools.combinations_with_replacement(range(1, 7), NUM_DICE)), dtype=np.int64
)
"""(252, 5): every sorted dice multiset, in lexicographic order."""
MULTISET_INDEX = np.full(6 ** NUM_DICE, -1, dtype=np.int64)
"""(7776,): dice code -> index of its sorted multiset in :data:`MULTISETS`."""
_sorted_codes = dice_code(np.sort(ALL_DICE, axis=1))
_lookup = {int(c): i for i, c in enumerate(dice_code(MULTISETS))}
MULTISET_INDEX[:] = [_lookup[int(c)] for c in _sorted_codes]
del _lookup, _sorted_codes

ACHIEVABLE = tuple(frozenset(int(v) for v in np.unique(SCORE_TABLE[:, c])) for c in range(NUM_CATEGORIES))
"""Per category, the set of scores that some dice produce (used to validate positions)."""
