"""Go-Stop deck (docs/rules/gostop.md §2), combination score (docs/rules/gostop.md §7), junk transfer
(docs/rules/gostop.md §6) and settlement (docs/rules/gostop.md §9).

The engine's vectorized bit-set functions are checked against the rules' formulas
written here in plain Python over sets of ids, and against hand-worked examples.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from envs.gostop import cards as C
from envs.gostop import combination_score, stop_settlement
from envs.gostop.scoring import breakdown, transfer_cards

# ---------------------------------------------- the card table of docs/rules/gostop.md §2
BRIGHTS = {0, 8, 28, 40, 44}
ANIMALS = {4, 12, 16, 20, 24, 29, 32, 36, 45}
GODORI = {4, 12, 29}
RIBBONS = {1, 5, 9, 13, 17, 21, 25, 33, 37, 46}
HONGDAN, CHEONGDAN, CHODAN = {1, 5, 9}, {21, 33, 37}, {13, 17, 25}
DOUBLE_JUNK = {41, 47}
SINGLE_JUNK = {2, 3, 6, 7, 10, 11, 14, 15, 18, 19, 22, 23, 26, 27, 30, 31, 34, 35, 38, 39, 42, 43}


def spec_total(c: set, k: str) -> int:
    """docs/rules/gostop.md §7.1 for captured set ``c`` and cup classification ``k`` ("animal" / "junk")."""
    b = len(c & BRIGHTS)
    bright = 15 if b == 5 else 4 if b == 4 else (2 if 44 in c else 3) if b == 3 else 0
    a = len(c & (ANIMALS - {32})) + (1 if 32 in c and k == "animal" else 0)
    animal = max(0, a - 4) + (5 if GODORI <= c else 0)
    r = len(c & RIBBONS)
    ribbon = max(0, r - 4) + 3 * (HONGDAN <= c) + 3 * (CHEONGDAN <= c) + 3 * (CHODAN <= c)
    u = len(c & SINGLE_JUNK) + 2 * len(c & DOUBLE_JUNK) + (2 if 32 in c and k == "junk" else 0)
    return bright + animal + ribbon + max(0, u - 9)


def spec_score(c: set) -> int:
    return max(spec_total(c, "animal"), spec_total(c, "junk"))


def spec_transfer(payer: set, units: int) -> list[int]:
    """docs/rules/gostop.md §6 literally: the cards moved, in order."""
    payer, moved = set(payer), []
    while units > 0:
        cands = [x for x in payer if x in SINGLE_JUNK | DOUBLE_JUNK]
        if not cands:
            break
        x = min(cands, key=lambda x: (2 if x in DOUBLE_JUNK else 1, x))
        payer.remove(x)
        moved.append(x)
        units -= 2 if x in DOUBLE_JUNK else 1
    return moved


def _bits(ids) -> np.ndarray:
    return np.array([C.mask_of(ids)], dtype=np.uint64)


card_sets = st.sets(st.integers(0, 47), max_size=48)


# ---------------------------------------------------------------------- deck
def test_deck_tables_match_spec():
    assert C.BRIGHTS == BRIGHTS and C.ANIMALS == ANIMALS and C.GODORI == GODORI
    assert C.RIBBONS == RIBBONS and C.SINGLE_JUNK == SINGLE_JUNK and C.DOUBLE_JUNKS == DOUBLE_JUNK
    assert (C.HONGDAN, C.CHEONGDAN, C.CHODAN) == (HONGDAN, CHEONGDAN, CHODAN)
    assert C.TRANSFERABLE_JUNK == SINGLE_JUNK | DOUBLE_JUNK and 32 not in C.TRANSFERABLE_JUNK
    assert [C.month_of(c) for c in (0, 3, 4, 47)] == [1, 1, 2, 12]
    # docs/rules/gostop.md §2: within a month bright, animal, ribbon, double junk, junk, junk (kinds a
    # month lacks skipped).
    order = {C.BRIGHT: 0, C.ANIMAL: 1, C.RIBBON: 2, C.DOUBLE_JUNK: 3, C.JUNK: 4}
    for m in range(12):
        ranks = [order[int(k)] for k in C.KIND[4 * m:4 * m + 4]]
        assert ranks == sorted(ranks), m
    assert int(C.JUNK_UNITS.sum()) == 26


@given(card_sets)
def test_bit_helpers(ids):
    bits = _bits(ids)
    assert C.ids_of(int(bits[0])) == sorted(ids)
    assert int(C.popcount(bits)[0]) == len(ids)
    assert C.unpack(bits)[0].tolist() == [c in ids for c in range(48)]
    assert C.pack(C.unpack(bits))[0] == bits[0]
    months = [sum(1 for c in ids if c // 4 == m) for m in range(12)]
    assert C.month_counts(bits)[0].tolist() == months
    assert bool(C.has_quad(bits)[0]) == (4 in months)


def test_popcount_fallback_matches():
    x = np.random.default_rng(0).integers(0, 2**63, size=1000, dtype=np.uint64)
    assert (C._popcount_swar(x) == np.array([bin(int(v)).count("1") for v in x])).all()


# -------------------------------------------------------------------- scores
@given(card_sets)
def test_combination_score_matches_spec_formula(ids):
    assert combination_score(ids) == spec_score(set(ids))


@pytest.mark.parametrize(
    "ids,score",
    [
        ([0, 8, 28, 40, 44], 15),  # five brights
        ([0, 8, 28, 40], 4), ([0, 8, 28, 44], 4),  # four brights, rain or not (docs/rules/gostop.md §7.1)
        ([0, 8, 28], 3), ([0, 8, 44], 2),  # three: 3, or 2 with the rain man
        ([0, 8], 0),
        ([4, 12, 29], 5), ([4, 12, 29, 16, 20], 6),  # godori, + five animals
        ([4, 12, 45], 0),  # the swallow is no godori bird
        ([1, 5, 9], 3), ([21, 33, 37], 3), ([13, 17, 25], 3),  # ribbon sets
        ([13, 17, 46], 0),  # the Dec ribbon completes no chodan
        ([1, 5, 9, 13, 17], 4),  # 5 ribbons = 1 + hongdan 3
        ([1, 5, 9, 13, 17, 25, 21, 33, 37, 46], 15),  # all ribbons: 6 + 9
        (sorted(SINGLE_JUNK)[:10], 1), (sorted(SINGLE_JUNK)[:9], 0),
        (sorted(SINGLE_JUNK)[:8] + [41], 1),  # a double junk is 2 units
        (sorted(SINGLE_JUNK)[:8] + [32], 1),  # the cup as 2 junk units
        ([4, 12, 16, 20, 32], 1),  # 4 animals + cup: as animal 1, as junk 0
        ([4, 12, 16, 20, 24, 32] + sorted(SINGLE_JUNK)[:8], 2),  # tie 2 / 2 -> animal
    ],
)
def test_score_examples(ids, score):
    assert combination_score(ids) == score


def test_cup_classification_ties_go_to_animal_and_junk_when_better():
    tie = {4, 12, 16, 20, 24, 32} | set(sorted(SINGLE_JUNK)[:8])
    assert spec_total(tie, "animal") == spec_total(tie, "junk") == 2
    assert not breakdown(_bits(tie)).cup_as_junk[0]
    better_junk = {4, 12, 16, 32} | set(sorted(SINGLE_JUNK)[:9])  # junk: 2 pts, animal: 0 + 0
    b = breakdown(_bits(better_junk))
    assert b.cup_as_junk[0] and b.score[0] == 2 and b.animals[0] == 3 and b.junk_pts[0] == 2


def test_combination_score_input_checks():
    assert combination_score([0, 0, 8, 28]) == 3  # repeats count once
    assert combination_score(np.array([0, 8, 28])) == 3
    assert combination_score(iter({0, 8, 28})) == 3
    for bad in ([48], [-1], [1.0], [True], "x", 5, [None]):
        with pytest.raises(ValueError):
            combination_score(bad)


# ------------------------------------------------------------------ transfer
@given(card_sets, st.integers(0, 6))
def test_transfer_matches_spec_algorithm(payer, units):
    taken = transfer_cards(_bits(payer), units)
    assert C.ids_of(int(taken[0])) == sorted(spec_transfer(payer, units))


@pytest.mark.parametrize(
    "payer,units,taken",
    [
        ([2, 3, 41], 1, [2]),  # lowest value, then lowest id
        ([3, 2, 47, 41], 2, [2, 3]),
        ([41, 47], 1, [41]),  # a double over-pays one unit (no change)
        ([41, 47], 3, [41, 47]),
        ([7, 41], 2, [7, 41]),  # docs/rules/gostop.md §6: debt 2, {single, double} -> both (3 units)
        ([32], 2, []),  # the cup is never transferred (even as junk)
        ([32, 0, 1], 1, []),  # nothing transferable: the debt is forgiven
        ([], 3, []),
        ([2, 3, 6, 7, 10, 11], 5, [2, 3, 6, 7, 10]),
    ],
)
def test_transfer_edge_cases(payer, units, taken):
    assert C.ids_of(int(transfer_cards(_bits(payer), units)[0])) == taken


# ---------------------------------------------------------------- settlement
THREE_BRIGHTS_GODORI = [0, 8, 28, 4, 12, 29]  # 3 + 5 = 8 points, 3 animals


@pytest.mark.parametrize("g,value", [(0, 8), (1, 9), (2, 10), (3, 16), (4, 32), (5, 64)])
def test_go_payout(g, value):
    # docs/rules/gostop.md §9.1: 1 Go +1, 2 Gos +2, from the 3rd Go base * 2**(g-2) without the +2.
    s = stop_settlement(THREE_BRIGHTS_GODORI, [40, 2, 3, 6, 7, 10], g)
    assert (s["base"], s["value"], s["payout"]) == (8, value, value)
    assert not (s["gwang_bak"] or s["meong_bak"] or s["pi_bak"])


def test_gwang_bak():
    s = stop_settlement(THREE_BRIGHTS_GODORI, [2, 3, 6, 7, 10], 0)
    assert s["gwang_bak"] and s["payout"] == 16
    # no bright points for the winner: no gwang-bak even if the loser has no bright
    s = stop_settlement([4, 12, 29, 1, 5, 9], [2, 3, 6, 7, 10], 0)
    assert not s["gwang_bak"] and s["payout"] == 8


def test_meong_bak_uses_winner_cup_classification():
    seven = [4, 12, 29, 16, 20, 24, 36]  # godori 5 + (7-4) = 8, 7 animals
    s = stop_settlement(seven, [40, 2, 3, 6, 7, 10], 0)
    assert s["meong_bak"] and s["payout"] == 16
    six_and_cup = [4, 12, 29, 16, 20, 24, 32]  # cup as animal: 7 animals -> meong-bak
    s = stop_settlement(six_and_cup, [40, 2, 3, 6, 7, 10], 0)
    assert s["meong_bak"] and s["base"] == 8
    # with 9 junk units the cup is worth more as junk (2 pts vs 1): 6 animals, no meong-bak
    junky = six_and_cup + [2, 3, 6, 7, 10, 11, 14, 15, 18]
    s = stop_settlement(junky, [40, 19, 22, 23, 26, 27], 0)
    assert s["base"] == 5 + 2 + 2 and not s["meong_bak"]


@pytest.mark.parametrize(
    "loser,pi_bak",
    [
        ([40], True),  # 0 junk is pi-bak too (docs/rules/gostop.md §9.2)
        ([40, 42, 43, 38, 39], True),  # 4 units
        ([40, 42, 43, 38, 39, 34], False),  # 5 units
        ([40, 41, 42, 43], True),  # double junk = 2: 4 units
        ([40, 41, 42, 43, 39], False),
        ([40, 32, 42, 43], True),  # the loser's cup always counts 2 units: 4
        ([40, 32, 42, 43, 39], False),  # 5 units with the cup
    ],
)
def test_pi_bak(loser, pi_bak):
    winner = sorted(SINGLE_JUNK)[:12] + [0, 8, 28]  # junk 3 pts + brights 3
    s = stop_settlement(winner, loser, 0)
    assert s["pi_bak"] == pi_bak
    assert s["payout"] == 6 * (2 if pi_bak else 1)


def test_baks_are_cumulative():
    winner = [0, 8, 28, 4, 12, 29, 16, 20, 24, 36] + sorted(SINGLE_JUNK)[:10]
    s = stop_settlement(winner, [1, 5], 1)
    base = 3 + 5 + 3 + 1  # brights, godori, 7 animals, 10 junk units
    assert s["base"] == base and s["gwang_bak"] and s["meong_bak"] and s["pi_bak"]
    assert s["payout"] == (base + 1) * 8


def test_cup_classification_is_recomputed_not_locked():
    # docs/rules/gostop.md §7.2: the same cup counts as an animal, then as junk once the junk makes that better
    cards = [4, 12, 16, 20, 32]
    assert not breakdown(_bits(cards)).cup_as_junk[0] and combination_score(cards) == 1
    more = cards + sorted(SINGLE_JUNK)[:9]
    assert breakdown(_bits(more)).cup_as_junk[0] and combination_score(more) == 2


@given(card_sets)
def test_has_triple(ids):
    months = [sum(1 for c in ids if c // 4 == m) for m in range(12)]
    assert bool(C.has_triple(_bits(ids))[0]) == (3 in months)
