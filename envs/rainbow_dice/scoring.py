"""Rainbow Dice end-game scoring (docs/rules/rainbow_dice.md §7) and the marginal-gain tables the rules and bots use.

``final_score`` (and its breakdown) is part of the public interface (docs/rules/rainbow_dice.md §12.6).  The
batched helpers work on card-count arrays ``(..., 30)`` in catalog order.  Pure numpy.
"""

from __future__ import annotations

import numpy as np

from ..core.validate import require_int, require_list
from .hands import HAND_BASES, HAND_RANKS, HAND_SCORES, NUM_HANDS, RANK_BASES

TOKEN_POINTS = 3
NUM_RANKS = 6
DUPLICATE_BONUS = np.array([0, 0, 1, 2, 4, 8], dtype=np.int64)
"""Extra multiples of a card's score for holding n = 0..5 copies (n >= 5 as 5), docs/rules/rainbow_dice.md §7."""
RANK_BONUS = np.array([0, 0, 0, 0, 0, 1, 2, 4, 6, 10, 16], dtype=np.int64)
"""Multiples of the rank base for m = 0..10 cards of one rank (m >= 10 as 10), docs/rules/rainbow_dice.md §7."""
RANK_ONEHOT = (HAND_RANKS[:, None] == np.arange(NUM_RANKS)[None, :]).astype(np.int64)
"""(30, 6): ``RANK_ONEHOT[h, r]`` is 1 when hand ``h`` has rank ``r``."""

DUP_STEP = 1 + np.diff(DUPLICATE_BONUS, append=DUPLICATE_BONUS[-1])
"""(6,) multiples of a card's score gained by a copy added to n = 0..5 held (n >= 5 as 5)."""
RANK_STEP = np.diff(RANK_BONUS, append=RANK_BONUS[-1])
"""(11,) multiples of the rank base gained by a card added to m = 0..10 of its rank."""


def score_breakdown_batch(cards, tokens) -> dict[str, np.ndarray]:
    """The final-score parts (docs/rules/rainbow_dice.md §7) of card counts ``(..., 30)`` and tokens ``(...)``:
    base, duplicate, rank, tokens, total.

    No validation (callers pass non-negative integer arrays); every part is int64 of shape ``(...)``.
    """
    cards = np.asarray(cards, dtype=np.int64)
    base = cards @ HAND_SCORES
    duplicate = (DUPLICATE_BONUS[np.minimum(cards, 5)] * HAND_SCORES).sum(axis=-1)
    rank_counts = cards @ RANK_ONEHOT
    rank = (RANK_BONUS[np.minimum(rank_counts, 10)] * RANK_BASES).sum(axis=-1)
    tok = TOKEN_POINTS * np.asarray(tokens, dtype=np.int64)
    return {"base": base, "duplicate": duplicate, "same_rank": rank, "tokens": tok,
            "total": base + duplicate + rank + tok}


def totals(cards, tokens) -> np.ndarray:
    """Final scores (docs/rules/rainbow_dice.md §7, int64) of card counts ``(..., 30)`` and unused tokens ``(...)``
    (no validation)."""
    return score_breakdown_batch(cards, tokens)["total"]


def _check(cards, tokens):
    cards = require_list(cards if not isinstance(cards, np.ndarray) else cards.tolist(),
                         "cards", NUM_HANDS, what="one count per hand")
    cards = [require_int(c, f"cards[{i}]", 0) for i, c in enumerate(cards)]
    return np.array(cards, dtype=np.int64), require_int(tokens, "tokens", 0)


def score_breakdown(cards, tokens) -> dict[str, int]:
    """The final-score parts (docs/rules/rainbow_dice.md §7) of one player's 30 card counts and unused tokens,
    as plain ints.

    Keys ``base``, ``duplicate``, ``same_rank``, ``tokens`` and ``total``.  Raises
    ``ValueError`` unless ``cards`` is 30 non-negative ints and ``tokens`` a non-negative int.
    """
    c, t = _check(cards, tokens)
    return {k: int(v) for k, v in score_breakdown_batch(c, t).items()}


def final_score(cards, tokens) -> int:
    """The final score (docs/rules/rainbow_dice.md §7) of one player's 30 card counts (catalog order) and unused
    tokens, as an int.

    Raises ``ValueError`` unless ``cards`` is 30 non-negative ints and ``tokens`` a non-negative int.
    """
    return score_breakdown(cards, tokens)["total"]


def card_gain(held, rank_held, hand) -> np.ndarray:
    """Score gained by adding one card of ``hand`` to a player holding ``held`` copies of it
    and ``rank_held`` cards of its rank (all int arrays of one shape); int64."""
    hand = np.asarray(hand)
    dup = DUP_STEP[np.minimum(held, 5)] * HAND_SCORES[hand]
    return dup + RANK_STEP[np.minimum(rank_held, 10)] * HAND_BASES[hand]
