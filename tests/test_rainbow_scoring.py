"""Rainbow Dice end-game scoring (docs/rules/rainbow_dice.md §7): golden totals, bonus thresholds and validation."""

from __future__ import annotations

import numpy as np
import pytest

from envs.rainbow_dice import HAND_IDS, HAND_RANKS, HAND_SCORES, RANK_BASES, final_score, score_breakdown
from envs.rainbow_dice.scoring import card_gain, totals

H = {h: i for i, h in enumerate(HAND_IDS)}
DUP = {0: 0, 1: 0, 2: 1, 3: 2, 4: 4, 5: 8, 6: 8, 9: 8}
RANK = {4: 0, 5: 1, 6: 2, 7: 4, 8: 6, 9: 10, 10: 16, 11: 16, 15: 16}


def cards(**counts) -> list[int]:
    out = [0] * 30
    for h, n in counts.items():
        out[H[h]] = n
    return out


def reference_score(c, tokens) -> int:
    """docs/rules/rainbow_dice.md §7 in plain Python, independent of the engine's tables."""
    total = 3 * tokens
    per_rank = [0] * 6
    for h, n in enumerate(c):
        s = int(HAND_SCORES[h])
        total += n * s + s * (0 if n < 2 else {2: 1, 3: 2, 4: 4}.get(n, 8))
        per_rank[HAND_RANKS[h]] += n
    for r, m in enumerate(per_rank):
        total += int(RANK_BASES[r]) * (0 if m < 5 else {5: 1, 6: 2, 7: 4, 8: 6, 9: 10}.get(m, 16))
    return total


def test_seed_example_six_pairs():
    assert final_score(cards(PAIR=6), 0) == 48
    assert score_breakdown(cards(PAIR=6), 0) == {"base": 18, "duplicate": 24, "same_rank": 6, "tokens": 0, "total": 48}


@pytest.mark.parametrize("n", sorted(DUP))
def test_duplicate_bonus(n):
    s = HAND_SCORES[H["RIPPLE"]]  # Red: 3 hands, so rank bonus needs duplicates
    rank = RANK[max(min(n, 15), 4)] if n >= 5 else 0
    assert final_score(cards(RIPPLE=n), 0) == n * s + DUP[n] * s + rank * 48


@pytest.mark.parametrize("m", sorted(RANK))
def test_same_rank_bonus_counts_duplicates(m):
    # m Orange cards spread over the five Orange hands (duplicates count toward the rank).
    orange = ["RISING_RAINBOW", "MANSION", "TWO_TRIPLES", "RAINBOW_MIRROR", "FIVE_OF_A_KIND"]
    counts = {h: m // 5 + (i < m % 5) for i, h in enumerate(orange)}
    c = cards(**counts)
    b = score_breakdown(c, 0)
    assert b["same_rank"] == 24 * RANK[m]
    assert b["total"] == reference_score(c, 0)


def test_tokens_and_mixed_ranks():
    c = cards(PAIR=1, FULL_HOUSE=2, THREE_PAIRS=1, MANSION=3, RIPPLE=1, SIX_OF_A_KIND=1)
    b = score_breakdown(c, 7)
    assert b["tokens"] == 21
    assert b["base"] == 3 + 12 + 12 + 72 + 54 + 115
    assert b["duplicate"] == 6 + 2 * 24
    assert b["same_rank"] == 0
    assert b["total"] == reference_score(c, 7) == sum(v for k, v in b.items() if k != "total")
    assert final_score([0] * 30, 0) == 0 and final_score([0] * 30, 5) == 15


def test_vectorized_totals_and_card_gain_match_reference():
    rng = np.random.default_rng(0)
    c = rng.integers(0, 4, size=(300, 30)) * (rng.random((300, 30)) < 0.3)
    t = rng.integers(0, 20, size=300)
    got = totals(c, t)
    assert got.tolist() == [reference_score(list(row), int(k)) for row, k in zip(c, t)]
    h = rng.integers(0, 30, size=300)
    plus = c.copy()
    plus[np.arange(300), h] += 1
    rank_held = np.array([c[i, HAND_RANKS == HAND_RANKS[h[i]]].sum() for i in range(300)])
    np.testing.assert_array_equal(card_gain(c[np.arange(300), h], rank_held, h), totals(plus, t) - got)


@pytest.mark.parametrize(
    "c,t",
    [([0] * 29, 0), ([0] * 31, 0), ([-1] + [0] * 29, 0), ([0.5] + [0] * 29, 0), ([0] * 30, -1),
     ([0] * 30, 1.0), ([True] + [0] * 29, 0), ("cards", 0)],
)
def test_final_score_rejects_bad_input(c, t):
    with pytest.raises(ValueError):
        final_score(c, t)
