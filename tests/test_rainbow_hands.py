"""Rainbow Dice hand catalog (docs/rules/rainbow_dice.md §2-3): counts, ranks, scores and predicates, golden tables."""

from __future__ import annotations

import itertools
import math
from collections import Counter

import numpy as np
import pytest

from envs.rainbow_dice import (
    HAND_COUNTS, HAND_IDS, HAND_PROBS, HAND_RANKS, HAND_SCORES, RANK_BASES, RANK_NAMES, satisfied_hands,
)
from envs.rainbow_dice.hands import ALL_DICE, RANK_THRESHOLDS, SATISFIED, dice_code, evaluate_hands

# docs/rules/rainbow_dice.md §3, typed in: id, rank, count / 46656, score.
SPEC_TABLE = [
    ("PAIR", "Blue", 45936, 3), ("TWO_PAIR", "Blue", 25950, 4), ("WARM_GLOW", "Blue", 21162, 4),
    ("THREE_OF_A_KIND", "Blue", 17136, 4), ("BALANCE", "Blue", 14580, 4), ("SMALL_STRAIGHT", "Blue", 12600, 5),
    ("FULL_HOUSE", "Green", 7950, 6), ("RAINBOW_ENDS", "Green", 7776, 6), ("HIGH_TIDE", "Green", 6748, 6),
    ("PURPLE_CROWN", "Green", 4425, 7), ("TWENTY_ONE", "Green", 4332, 8), ("LARGE_STRAIGHT", "Green", 4320, 8),
    ("FOUR_OF_A_KIND", "Green", 2436, 9), ("THREE_PAIRS", "Yellow", 1800, 12), ("SUNRISE", "Yellow", 1443, 13),
    ("PRIMARY_COLOURS", "Yellow", 1296, 14), ("GENTLE_GRADIENT", "Yellow", 950, 16), ("ALL_EVEN", "Yellow", 729, 18),
    ("FULL_STRAIGHT", "Yellow", 720, 18), ("RISING_RAINBOW", "Orange", 462, 24), ("MANSION", "Orange", 450, 24),
    ("TWO_TRIPLES", "Orange", 300, 30), ("RAINBOW_MIRROR", "Orange", 216, 34), ("FIVE_OF_A_KIND", "Orange", 186, 36),
    ("RAINBOW_ARC", "Red", 146, 48), ("RIPPLE", "Red", 104, 54), ("SPLIT_RAINBOW", "Red", 36, 72),
    ("DOUBLE_RAINBOW", "Purple", 20, 96), ("SIX_OF_A_KIND", "Purple", 6, 115), ("PERFECT_RAINBOW", "Purple", 1, 144),
]
H = {h: i for i, h in enumerate(HAND_IDS)}


def test_catalog_matches_spec_table():
    assert list(HAND_IDS) == [row[0] for row in SPEC_TABLE]
    assert HAND_COUNTS.tolist() == [row[2] for row in SPEC_TABLE]
    assert [RANK_NAMES[r] for r in HAND_RANKS] == [row[1] for row in SPEC_TABLE]
    assert HAND_SCORES.tolist() == [row[3] for row in SPEC_TABLE]
    assert np.bincount(HAND_RANKS).tolist() == [6, 7, 6, 5, 3, 3]


def test_counts_are_enumerated_over_all_coloured_outcomes():
    assert ALL_DICE.shape == (46656, 6)
    assert len({tuple(d) for d in ALL_DICE.tolist()}) == 46656
    np.testing.assert_array_equal(dice_code(ALL_DICE), np.arange(46656))
    np.testing.assert_array_equal(SATISFIED, evaluate_hands(ALL_DICE))
    np.testing.assert_array_equal(HAND_PROBS, HAND_COUNTS / 46656)


def test_rank_thresholds_and_log_gap():
    bounds = [np.inf, *RANK_THRESHOLDS, 0.0]  # rank r covers [bounds[r+1], bounds[r])
    assert RANK_THRESHOLDS == (0.25, 0.045, 0.012, 0.0035, 0.0005)
    for h, p in enumerate(HAND_PROBS):
        r = HAND_RANKS[h]
        assert bounds[r + 1] <= p < bounds[r], HAND_IDS[h]
        for t in RANK_THRESHOLDS:
            assert abs(math.log(p / t)) >= 0.07, (HAND_IDS[h], t)


def test_score_rule_and_ordering():
    for r, base in enumerate(RANK_BASES):
        members = np.flatnonzero(HAND_RANKS == r)
        logp = [math.log(HAND_PROBS[h]) for h in members]
        for h, lp in zip(members, logp):
            t = (max(logp) - lp) / (max(logp) - min(logp))
            assert HAND_SCORES[h] == math.floor(base * (1 + t / 2) + 0.5), HAND_IDS[h]
        ordered = members[np.argsort(-HAND_PROBS[members], kind="stable")]
        assert (np.diff(HAND_SCORES[ordered]) >= 0).all()  # rarer never scores less
        assert HAND_SCORES[members].min() == base and HAND_SCORES[members].max() == round(1.5 * base + 0.01)
    assert HAND_SCORES[H["SMALL_STRAIGHT"]] == 5  # 4.5 rounds half up


def reference(d) -> set[str]:
    """docs/rules/rainbow_dice.md §3's conditions in plain Python, written independently of the engine."""
    r, o, y, g, b, p = d
    c = Counter(d)
    counts = sorted(c.values(), reverse=True) + [0, 0]
    present = set(d)
    run = lambda n: any(all(v in present for v in range(s, s + n)) for s in range(1, 8 - n))  # noqa: E731
    steps = [d[i + 1] - d[i] for i in range(5)]
    out = {
        "PAIR": counts[0] >= 2, "TWO_PAIR": sum(v >= 2 for v in c.values()) >= 2,
        "WARM_GLOW": r + o + y > g + b + p, "THREE_OF_A_KIND": counts[0] >= 3,
        "BALANCE": sum(v % 2 for v in d) == 3, "SMALL_STRAIGHT": run(4),
        "FULL_HOUSE": any(c[v] >= 3 and any(c[w] >= 2 for w in c if w != v) for v in c),
        "RAINBOW_ENDS": r == p, "HIGH_TIDE": sum(d) >= 26, "PURPLE_CROWN": all(p > v for v in d[:5]),
        "TWENTY_ONE": sum(d) == 21, "LARGE_STRAIGHT": run(5), "FOUR_OF_A_KIND": counts[0] >= 4,
        "THREE_PAIRS": sum(v >= 2 for v in c.values()) >= 3, "SUNRISE": min(r, o, y) > max(g, b, p),
        "PRIMARY_COLOURS": r == y == b, "GENTLE_GRADIENT": all(abs(s) <= 1 for s in steps),
        "ALL_EVEN": all(v % 2 == 0 for v in d), "FULL_STRAIGHT": sorted(d) == [1, 2, 3, 4, 5, 6],
        "RISING_RAINBOW": all(s >= 0 for s in steps),
        "MANSION": any(c[v] >= 4 and any(c[w] == 6 - c[v] == 2 for w in c if w != v) for v in c),
        "TWO_TRIPLES": sum(v == 3 for v in c.values()) == 2,
        "RAINBOW_MIRROR": (r, o, y) == (p, b, g), "FIVE_OF_A_KIND": counts[0] >= 5,
        "RAINBOW_ARC": r < o < y == g > b > p, "RIPPLE": all(abs(s) == 1 for s in steps),
        "SPLIT_RAINBOW": r == o == y and g == b == p, "DOUBLE_RAINBOW": (g, b, p) == (r, o, y) and r < o < y,
        "SIX_OF_A_KIND": counts[0] == 6, "PERFECT_RAINBOW": list(d) == [1, 2, 3, 4, 5, 6],
    }
    return {k for k, v in out.items() if v}


def test_predicates_match_reference_on_a_sample():
    rng = np.random.default_rng(0)
    codes = np.concatenate([rng.choice(46656, 3000, replace=False), np.flatnonzero(SATISFIED[:, 20:].any(axis=1))])
    for code in codes:
        d = tuple(int(v) for v in ALL_DICE[code])
        got = {HAND_IDS[h] for h in np.flatnonzero(SATISFIED[code])}
        assert got == reference(d), d


@pytest.mark.parametrize(
    "dice,expected",
    [
        # docs/rules/rainbow_dice.md §2's example: contains semantics.
        ((4, 4, 4, 4, 4, 1), {"PAIR", "THREE_OF_A_KIND", "FOUR_OF_A_KIND", "FIVE_OF_A_KIND", "WARM_GLOW",
                              "TWENTY_ONE", "PRIMARY_COLOURS"}),
        ((1, 2, 3, 4, 5, 6), {"FULL_STRAIGHT", "LARGE_STRAIGHT", "SMALL_STRAIGHT", "BALANCE", "TWENTY_ONE",
                              "PURPLE_CROWN", "RISING_RAINBOW", "RIPPLE", "GENTLE_GRADIENT", "PERFECT_RAINBOW"}),
        ((6, 6, 6, 6, 6, 6), {"PAIR", "THREE_OF_A_KIND", "FOUR_OF_A_KIND",
                              "FIVE_OF_A_KIND", "SIX_OF_A_KIND", "HIGH_TIDE", "RAINBOW_ENDS", "PRIMARY_COLOURS",
                              "GENTLE_GRADIENT", "ALL_EVEN", "RISING_RAINBOW", "RAINBOW_MIRROR", "SPLIT_RAINBOW"}),
    ],
)
def test_exact_satisfied_sets(dice, expected):
    assert {HAND_IDS[h] for h in np.flatnonzero(satisfied_hands(dice))} == expected


@pytest.mark.parametrize(
    "dice,hand,ok",
    [
        # Multi-group patterns need different values (docs/rules/rainbow_dice.md §2).
        ((4, 4, 4, 4, 1, 2), "TWO_PAIR", False), ((3, 3, 3, 3, 3, 3), "FULL_HOUSE", False),
        ((3, 3, 3, 3, 3, 3), "TWO_PAIR", False), ((5, 5, 5, 2, 2, 2), "FULL_HOUSE", True),
        ((5, 5, 5, 2, 2, 2), "TWO_TRIPLES", True), ((5, 5, 5, 5, 2, 2), "MANSION", True),
        ((5, 5, 5, 5, 5, 2), "MANSION", False), ((5, 5, 2, 2, 3, 3), "THREE_PAIRS", True),
        ((5, 5, 5, 5, 2, 2), "THREE_PAIRS", False), ((1, 1, 2, 2, 3, 4), "TWO_PAIR", True),
        # Colour hands (R O Y G B P).
        ((3, 1, 1, 1, 1, 3), "RAINBOW_ENDS", True), ((3, 1, 1, 1, 1, 4), "RAINBOW_ENDS", False),
        ((1, 2, 3, 4, 5, 6), "PURPLE_CROWN", True), ((6, 2, 3, 4, 5, 6), "PURPLE_CROWN", False),
        ((4, 5, 6, 1, 2, 3), "SUNRISE", True), ((4, 5, 6, 4, 2, 3), "SUNRISE", False),
        ((2, 6, 2, 1, 2, 5), "PRIMARY_COLOURS", True), ((2, 6, 2, 1, 3, 5), "PRIMARY_COLOURS", False),
        ((3, 4, 4, 5, 6, 5), "GENTLE_GRADIENT", True), ((3, 4, 4, 5, 6, 4), "GENTLE_GRADIENT", False),
        ((3, 4, 4, 6, 6, 5), "GENTLE_GRADIENT", False), ((1, 1, 2, 4, 4, 6), "RISING_RAINBOW", True),
        ((1, 1, 2, 4, 4, 3), "RISING_RAINBOW", False), ((1, 5, 3, 3, 5, 1), "RAINBOW_MIRROR", True),
        ((1, 5, 3, 3, 5, 2), "RAINBOW_MIRROR", False), ((1, 3, 5, 5, 4, 2), "RAINBOW_ARC", True),
        ((1, 3, 5, 5, 4, 4), "RAINBOW_ARC", False), ((1, 3, 5, 4, 4, 2), "RAINBOW_ARC", False),
        ((3, 4, 3, 2, 1, 2), "RIPPLE", True), ((3, 4, 4, 3, 2, 1), "RIPPLE", False),
        ((2, 2, 2, 2, 2, 2), "SPLIT_RAINBOW", True), ((6, 6, 6, 1, 1, 1), "SPLIT_RAINBOW", True),
        ((6, 6, 6, 1, 1, 2), "SPLIT_RAINBOW", False), ((1, 3, 6, 1, 3, 6), "DOUBLE_RAINBOW", True),
        ((3, 1, 6, 3, 1, 6), "DOUBLE_RAINBOW", False), ((1, 2, 3, 4, 5, 5), "PERFECT_RAINBOW", False),
        ((2, 4, 6, 6, 2, 4), "ALL_EVEN", True), ((6, 6, 6, 6, 1, 1), "HIGH_TIDE", True),
        ((6, 6, 6, 6, 1, 1), "WARM_GLOW", True), ((1, 1, 1, 6, 6, 6), "WARM_GLOW", False),
        ((6, 6, 6, 5, 1, 1), "HIGH_TIDE", False), ((1, 2, 1, 2, 1, 2), "BALANCE", True),
    ],
)
def test_golden_hands(dice, hand, ok):
    assert bool(satisfied_hands(dice)[H[hand]]) is ok


def test_every_roll_buys_something_while_piles_last():
    assert (SATISFIED[:, H["PAIR"]] | SATISFIED[:, H["SMALL_STRAIGHT"]]).all()


def test_satisfied_hands_shapes_and_errors():
    batch = np.array(list(itertools.product(range(1, 7), repeat=2)))
    dice = np.concatenate([batch, batch, batch], axis=1).reshape(6, 6, 6)
    out = satisfied_hands(dice.astype(np.int8))
    assert out.shape == (6, 6, 30) and out.dtype == bool
    np.testing.assert_array_equal(out, evaluate_hands(dice))
    for bad in ([1, 2, 3, 4, 5], [0, 1, 2, 3, 4, 5], [1, 2, 3, 4, 5, 7], [1.0] * 6, [True] * 6, 3):
        with pytest.raises(ValueError):
            satisfied_hands(bad)
