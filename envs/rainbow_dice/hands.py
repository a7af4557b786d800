"""The Rainbow Dice hand catalog (docs/rules/rainbow_dice.md §2-3): 30 hands as data plus vectorized predicates.

Dice arrays have shape ``(..., 6)`` in rainbow order Red, Orange, Yellow, Green, Blue,
Purple (index 0..5), values 1..6.  Hand order everywhere is the catalog order of docs/rules/rainbow_dice.md §3
(index 0..29); it runs from the most to the least likely hand, so every rank is a
contiguous block of hands.

Nothing numeric about a hand is typed in: the single-throw counts come from evaluating
the predicates on all 6**6 = 46656 coloured outcomes, the rank from the thresholds of
docs/rules/rainbow_dice.md §2 on ``count / 46656`` and the printed score from the rule of
docs/rules/rainbow_dice.md §3.1.  Pure numpy, no framework imports.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

NUM_DICE = 6
NUM_HANDS = 30
NUM_OUTCOMES = 6**NUM_DICE
DIE_COLOURS = ("Red", "Orange", "Yellow", "Green", "Blue", "Purple")

HAND_IDS = (
    "PAIR", "TWO_PAIR", "WARM_GLOW", "THREE_OF_A_KIND", "BALANCE", "SMALL_STRAIGHT",
    "FULL_HOUSE", "RAINBOW_ENDS", "HIGH_TIDE", "PURPLE_CROWN", "TWENTY_ONE", "LARGE_STRAIGHT",
    "FOUR_OF_A_KIND", "THREE_PAIRS", "SUNRISE", "PRIMARY_COLOURS", "GENTLE_GRADIENT", "ALL_EVEN",
    "FULL_STRAIGHT", "RISING_RAINBOW", "MANSION", "TWO_TRIPLES", "RAINBOW_MIRROR",
    "FIVE_OF_A_KIND", "RAINBOW_ARC", "RIPPLE", "SPLIT_RAINBOW", "DOUBLE_RAINBOW",
    "SIX_OF_A_KIND", "PERFECT_RAINBOW",
)
HAND_NAMES = (
    "Pair", "Two Pair", "Warm Glow", "Three of a Kind", "Balance", "Small Straight",
    "Full House", "Rainbow Ends", "High Tide", "Purple Crown", "Twenty-One", "Large Straight",
    "Four of a Kind", "Three Pairs", "Sunrise", "Primary Colours", "Gentle Gradient", "All Even",
    "Full Straight", "Rising Rainbow", "Mansion", "Two Triples", "Rainbow Mirror",
    "Five of a Kind", "Rainbow Arc", "Ripple", "Split Rainbow", "Double Rainbow",
    "Six of a Kind", "Perfect Rainbow",
)
HAND_INDEX = {h: i for i, h in enumerate(HAND_IDS)}

RANK_NAMES = ("Blue", "Green", "Yellow", "Orange", "Red", "Purple")
RANK_BASES = np.array([3, 6, 12, 24, 48, 96], dtype=np.int64)
RANK_THRESHOLDS = (0.25, 0.045, 0.012, 0.0035, 0.0005)
"""Lower probability bounds of Blue, Green, Yellow, Orange and Red (docs/rules/rainbow_dice.md §2); Purple is below."""


def _check_dice(dice) -> np.ndarray:
    d = np.asarray(dice)
    if d.dtype == bool or not np.issubdtype(d.dtype, np.integer):
        raise ValueError(f"dice must be integers, got dtype {d.dtype}")
    if d.ndim == 0 or d.shape[-1] != NUM_DICE:
        raise ValueError(f"dice must have shape (..., 6), got {d.shape}")
    if d.size and (d.min() < 1 or d.max() > 6):
        raise ValueError("dice values must be in 1..6")
    return d.astype(np.int64)


def evaluate_hands(dice) -> np.ndarray:
    """Evaluate the 30 hand conditions (docs/rules/rainbow_dice.md §3) on ``dice`` ``(..., 6)`` -> ``(..., 30)`` bool.

    Contains semantics; multi-group value patterns need different values (docs/rules/rainbow_dice.md §2).
    Raises ``ValueError`` for a wrong last axis, non-integer dtype or values outside 1..6.
    """
    d = _check_dice(dice)
    r, o, y, g, b, p = (d[..., i] for i in range(NUM_DICE))
    counts = np.stack([(d == v).sum(axis=-1) for v in range(1, 7)], axis=-1)  # (..., 6)
    top = np.sort(counts, axis=-1)[..., ::-1]  # counts in decreasing order
    present = counts > 0
    total = d.sum(axis=-1)
    steps = np.diff(d, axis=-1)  # neighbour differences R-O, O-Y, Y-G, G-B, B-P
    runs = lambda length: np.any(  # noqa: E731 - `length` consecutive values all present
        [present[..., s : s + length].all(axis=-1) for s in range(7 - length)], axis=0
    )
    conds = [
        top[..., 0] >= 2,  # PAIR
        top[..., 1] >= 2,  # TWO_PAIR
        r + o + y > g + b + p,  # WARM_GLOW
        top[..., 0] >= 3,  # THREE_OF_A_KIND
        (d % 2).sum(axis=-1) == 3,  # BALANCE
        runs(4),  # SMALL_STRAIGHT
        (top[..., 0] >= 3) & (top[..., 1] >= 2),  # FULL_HOUSE
        r == p,  # RAINBOW_ENDS
        total >= 26,  # HIGH_TIDE
        p > d[..., :5].max(axis=-1),  # PURPLE_CROWN
        total == 21,  # TWENTY_ONE
        runs(5),  # LARGE_STRAIGHT
        top[..., 0] >= 4,  # FOUR_OF_A_KIND
        top[..., 2] == 2,  # THREE_PAIRS (with six dice: exactly 2 + 2 + 2)
        np.minimum(np.minimum(r, o), y) > np.maximum(np.maximum(g, b), p),  # SUNRISE
        (r == y) & (y == b),  # PRIMARY_COLOURS
        (np.abs(steps) <= 1).all(axis=-1),  # GENTLE_GRADIENT
        (d % 2 == 0).all(axis=-1),  # ALL_EVEN
        (counts == 1).all(axis=-1),  # FULL_STRAIGHT
        (steps >= 0).all(axis=-1),  # RISING_RAINBOW
        (top[..., 0] == 4) & (top[..., 1] == 2),  # MANSION
        (top[..., 0] == 3) & (top[..., 1] == 3),  # TWO_TRIPLES
        (r == p) & (o == b) & (y == g),  # RAINBOW_MIRROR
        top[..., 0] >= 5,  # FIVE_OF_A_KIND
        (r < o) & (o < y) & (y == g) & (g > b) & (b > p),  # RAINBOW_ARC
        (np.abs(steps) == 1).all(axis=-1),  # RIPPLE
        (r == o) & (o == y) & (g == b) & (b == p),  # SPLIT_RAINBOW
        (g == r) & (b == o) & (p == y) & (r < o) & (o < y),  # DOUBLE_RAINBOW
        top[..., 0] == 6,  # SIX_OF_A_KIND
        (d == np.arange(1, 7)).all(axis=-1),  # PERFECT_RAINBOW
    ]
    return np.stack(conds, axis=-1)


PLACE = (6 ** np.arange(NUM_DICE)).astype(np.int64)
"""Base-6 place value of each die: the dice code is ``sum((d_i - 1) * 6**i)`` (Red lowest)."""


def dice_code(dice) -> np.ndarray:
    """Base-6 code of dice ``(..., 6)`` -> ``(...,)`` int64 in 0..46655 (no validation)."""
    return (np.asarray(dice, dtype=np.int64) - 1) @ PLACE


ALL_DICE = np.array(list(itertools.product(range(1, 7), repeat=NUM_DICE)), dtype=np.int8)[:, ::-1].copy()
"""(46656, 6) int8: row ``c`` is the dice whose :func:`dice_code` is ``c``."""
SATISFIED = evaluate_hands(ALL_DICE)
"""(46656, 30) bool: ``SATISFIED[dice_code(d)]`` is the satisfied-hands vector of ``d``."""
HAND_COUNTS = SATISFIED.sum(axis=0).astype(np.int64)
"""(30,) number of the 46656 coloured single-throw outcomes that satisfy each hand."""
HAND_PROBS = HAND_COUNTS / NUM_OUTCOMES
"""(30,) exact single-throw probability of each hand."""


def rank_of_probability(p) -> np.ndarray:
    """Rank index (0 Blue .. 5 Purple) of single-throw probabilities ``p`` (thresholds:
    docs/rules/rainbow_dice.md §2)."""
    p = np.asarray(p, dtype=np.float64)
    return (p[..., None] < np.array(RANK_THRESHOLDS)).sum(axis=-1)


HAND_RANKS = rank_of_probability(HAND_PROBS).astype(np.int64)
"""(30,) rank index of each hand (0 Blue .. 5 Purple)."""


def _scores() -> np.ndarray:
    """Printed scores: floor(base * (1 + t/2) + 0.5), t on the rank's log-p scale (docs/rules/rainbow_dice.md §3.1)."""
    scores = np.zeros(NUM_HANDS, dtype=np.int64)
    for rank, base in enumerate(RANK_BASES):
        members = np.flatnonzero(HAND_RANKS == rank)
        logp = np.log(HAND_PROBS[members])
        top, bottom = logp.max(), logp.min()
        t = (top - logp) / (top - bottom) if top > bottom else np.zeros_like(logp)
        scores[members] = [math.floor(base * (1 + ti / 2) + 0.5) for ti in t]
    return scores


HAND_SCORES = _scores()
"""(30,) printed score of each hand card."""
HAND_BASES = RANK_BASES[HAND_RANKS]
"""(30,) rank base value of each hand's rank."""


def satisfied_hands(dice) -> np.ndarray:
    """Which of the 30 hands the dice satisfy: dice ``(..., 6)`` -> ``(..., 30)`` bool.

    Dice in rainbow order R, O, Y, G, B, P with values 1..6; hands in catalog order.
    A table lookup over the 46656 outcomes (the table comes from :func:`evaluate_hands`).
    Raises ``ValueError`` for a wrong last axis, non-integer dtype or values outside 1..6.
    """
    return SATISFIED[dice_code(_check_dice(dice))]
