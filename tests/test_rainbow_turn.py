"""The turn expectimax reproduces the reach tables of docs/rules/rainbow_dice.md §3.2 exactly."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from agents import rainbow_turn as turn
from envs.rainbow_dice import HAND_IDS, HAND_RANKS, RANK_NAMES
from envs.rainbow_dice.hands import SATISFIED
from envs.rainbow_dice.turn_dp import reach_probabilities, reach_table

# docs/rules/rainbow_dice.md §3.2: q0, q1, q3 per hand (optimal single-target play, 0 / 1 / 3 die-token actions).
SPEC_Q = {
    "PAIR": (1.000, 1.000, 1.000), "TWO_PAIR": (0.949, 1.000, 1.000), "WARM_GLOW": (0.975, 0.993, 1.000),
    "THREE_OF_A_KIND": (0.889, 1.000, 1.000), "BALANCE": (0.810, 0.996, 1.000),
    "SMALL_STRAIGHT": (0.787, 0.995, 1.000), "FULL_HOUSE": (0.761, 0.993, 1.000),
    "RAINBOW_ENDS": (0.421, 0.883, 0.999), "HIGH_TIDE": (0.801, 0.917, 0.986),
    "PURPLE_CROWN": (0.670, 0.881, 0.995), "TWENTY_ONE": (0.362, 0.831, 0.997),
    "LARGE_STRAIGHT": (0.518, 0.932, 1.000), "FOUR_OF_A_KIND": (0.501, 0.858, 1.000),
    "THREE_PAIRS": (0.273, 0.751, 1.000), "SUNRISE": (0.520, 0.785, 0.975),
    "PRIMARY_COLOURS": (0.218, 0.672, 0.994), "GENTLE_GRADIENT": (0.414, 0.753, 0.987),
    "ALL_EVEN": (0.449, 0.833, 0.997), "FULL_STRAIGHT": (0.197, 0.574, 0.974),
    "RISING_RAINBOW": (0.261, 0.567, 0.933), "MANSION": (0.195, 0.595, 0.993),
    "TWO_TRIPLES": (0.163, 0.550, 0.993), "RAINBOW_MIRROR": (0.075, 0.266, 0.827),
    "FIVE_OF_A_KIND": (0.157, 0.415, 0.953), "RAINBOW_ARC": (0.136, 0.380, 0.817),
    "RIPPLE": (0.131, 0.420, 0.943), "SPLIT_RAINBOW": (0.047, 0.205, 0.789),
    "DOUBLE_RAINBOW": (0.035, 0.142, 0.600), "SIX_OF_A_KIND": (0.020, 0.091, 0.532),
    "PERFECT_RAINBOW": (0.006, 0.028, 0.199),
}
# docs/rules/rainbow_dice.md §3.2: some card of the rank, q0 .. q3.
SPEC_RANK_Q = [
    (1.000, 1.000, 1.000, 1.000), (0.980, 1.000, 1.000, 1.000), (0.705, 0.985, 1.000, 1.000),
    (0.428, 0.827, 0.984, 1.000), (0.195, 0.542, 0.850, 0.973), (0.043, 0.170, 0.410, 0.689),
]


def attainability(targets: np.ndarray, tokens: int) -> np.ndarray:
    """P(ending a turn with each target satisfied) from a fresh throw, playing optimally for it.

    ``targets`` (G, 46656) bool: which dice satisfy target g.  Value 1 at the end when satisfied.
    """
    end = [turn.as_tensor(targets.astype(np.float32))] * (tokens + 1)
    tables = turn.solve(end, free_rerolls=2)
    first = turn.best_reroll(turn.reroll_means(tables["reroll_into"]))  # W2 at the first decision
    if tokens:
        turn.adjust_max(first, tables["next"])
    return first.reshape(-1, targets.shape[0]).astype(np.float64).mean(axis=0)


@pytest.mark.parametrize("k,column", [(0, 0), (1, 1), (3, 2)])
def test_single_hand_attainability_matches_spec(k, column):
    got = np.round(attainability(SATISFIED.T, k), 3)
    want = [SPEC_Q[h][column] for h in HAND_IDS]
    np.testing.assert_array_equal(got, want)


def test_rank_attainability_matches_spec():
    union = np.stack([SATISFIED[:, HAND_RANKS == r].any(axis=1) for r in range(6)])
    got = np.stack([np.round(attainability(union, k), 3) for k in range(4)], axis=1)
    np.testing.assert_array_equal(got, SPEC_RANK_Q)
    one_throw = np.round(union.mean(axis=1), 4)
    np.testing.assert_array_equal(one_throw, [1.0, 0.5910, 0.1386, 0.0308, 0.0061, 0.0006])


def test_reach_table_from_a_fresh_throw_is_spec_q():
    reach = reach_probabilities()  # (F, L, code, hand)
    for k, column in [(0, 0), (1, 1), (3, 2)]:
        got = np.round(reach[2, k].astype(np.float64).mean(axis=0), 3)
        np.testing.assert_array_equal(got, [SPEC_Q[h][column] for h in HAND_IDS])
    assert reach.min() >= 0 and reach.max() <= 1 + 1e-6
    # More free rerolls or more affordable die actions never lower the chance.
    assert (np.diff(reach, axis=0) >= -1e-6).all() and (np.diff(reach, axis=1) >= -1e-6).all()
    np.testing.assert_array_equal(reach[0, 0], SATISFIED)
    np.testing.assert_array_equal(reach_table().reshape(reach.shape), np.rint(reach * 255))


def test_rules_page_reach_tables_are_these():
    """docs/rules/rainbow_dice.md §3.2 prints exactly the tables this file checks the solver against."""
    text = (Path(__file__).resolve().parents[1] / "docs" / "rules" / "rainbow_dice.md").read_text()
    hands = dict(re.findall(r"^\| `([A-Z_]+)` \| ([\d.]+ \| [\d.]+ \| [\d.]+) \|$", text, re.M))
    assert {h: tuple(float(x) for x in q.split(" | ")) for h, q in hands.items()} == SPEC_Q
    ranks = dict(re.findall(r"^\| ([A-Z][a-z]+) \| ([\d.]+(?: \| [\d.]+){3}) \|$", text, re.M))
    assert [tuple(float(x) for x in ranks[r].split(" | ")) for r in RANK_NAMES] == SPEC_RANK_Q
