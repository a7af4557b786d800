"""Yacht dice as sorted multisets, and the reroll tables of the rules (:mod:`.kernels`).

The rules keep the five dice as an index into :data:`scoring.MULTISETS` (the 252
sorted multisets).  Rerolling is two table lookups (:func:`envs.yacht.kernels.reroll`): the reroll id turns the
dice into the multiset of *kept* dice (one of the 462 multisets of 0..5 dice),
and a uniformly drawn code of five fresh dice completes it, using only as many
fresh dice as were rerolled.  The exact solver builds its transition matrix
from the same tables.
"""

from __future__ import annotations

import itertools

import numpy as np

from .scoring import MULTISET_INDEX, MULTISETS, NUM_DICE

NUM_REROLL_IDS = 1 << NUM_DICE
REROLL_BITS = ((np.arange(NUM_REROLL_IDS)[:, None] >> np.arange(NUM_DICE)[None, :]) & 1).astype(bool)
"""(32, 5) bool: ``REROLL_BITS[id, i]`` is True when reroll id ``id`` rerolls die ``i``."""
_PLACE = 6 ** np.arange(NUM_DICE, dtype=np.int64)


def _face_counts(dice) -> tuple:
    return tuple(int(np.count_nonzero(np.asarray(dice) == v)) for v in range(1, 7))


KEEPS = np.array(
    sorted({_face_counts(c) for n in range(NUM_DICE + 1)
            for c in itertools.combinations_with_replacement(range(1, 7), n)}),
    dtype=np.int64,
)
"""(462, 6): every multiset of 0..5 kept dice, as counts of faces 1..6."""
_KEEP_INDEX = {tuple(k): i for i, k in enumerate(KEEPS)}
KEEP_SIZE = KEEPS.sum(axis=1)
"""(462,): number of dice kept."""

KEEP_OF = np.array(
    [[_KEEP_INDEX[_face_counts(dice[~REROLL_BITS[rid]])] for rid in range(NUM_REROLL_IDS)]
     for dice in MULTISETS],
    dtype=np.int64,
)
"""(252, 32): keep index left by reroll id ``rid`` from sorted multiset ``d`` (id 0 keeps all)."""

ROLL_MOD = 6 ** (NUM_DICE - KEEP_SIZE)
"""(462,): number of equally likely outcomes of the dice rerolled after keep ``k``."""
ROLL_OFFSET = np.concatenate([[0], np.cumsum(ROLL_MOD)[:-1]])
"""(462,): start of keep ``k``'s block in :data:`ROLL_RESULT`."""


def _roll_results() -> np.ndarray:
    out = np.empty(int(ROLL_MOD.sum()), dtype=np.int16)
    for k, counts in enumerate(KEEPS):
        kept = np.repeat(np.arange(1, 7), counts)
        n = NUM_DICE - len(kept)
        rolls = np.array(list(itertools.product(range(1, 7), repeat=n)), dtype=np.int64)
        rolls = rolls.reshape(6**n, n)[:, ::-1]  # row r holds the dice of code r (die i has place 6**i)
        dice = np.sort(np.concatenate([np.broadcast_to(kept, (len(rolls), len(kept))), rolls], axis=1), axis=1)
        out[ROLL_OFFSET[k] : ROLL_OFFSET[k] + ROLL_MOD[k]] = MULTISET_INDEX[(dice - 1) @ _PLACE]
    return out


ROLL_RESULT = _roll_results()
"""Flat table: ``ROLL_RESULT[ROLL_OFFSET[k] + code % ROLL_MOD[k]]`` is the sorted multiset
after keeping ``k`` and rolling fresh dice whose base-6 code is ``code`` (0..7775; only its
lowest ``5 - |k|`` digits are used, so they are uniform and independent)."""

FULL_REROLL = KEEP_OF[0, NUM_REROLL_IDS - 1]
"""Keep index of keeping nothing (a fresh roll of all five dice)."""


def transition_matrix() -> np.ndarray:
    """(462, 252): chance of each sorted multiset after keeping ``k`` and rolling the rest."""
    trans = np.zeros((len(KEEPS), len(MULTISETS)))
    for k in range(len(KEEPS)):
        block = ROLL_RESULT[ROLL_OFFSET[k] : ROLL_OFFSET[k] + ROLL_MOD[k]]
        trans[k] = np.bincount(block, minlength=len(MULTISETS)) / ROLL_MOD[k]
    return trans
