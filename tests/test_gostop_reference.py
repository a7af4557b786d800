"""Unit tests of the plain-Python Go-Stop reference (tests/gostop_reference.py) against
docs/rules/gostop.md.  Every expected number is worked out by hand from the rules in the comments
next to it (never taken from the implementation)."""

import random

import pytest

import tests.gostop_reference as gr
from tests.gostop_reference import (
    CHOOSE0, GO, NUM_ACTIONS, PLAY0, STOP, RefDeal, combination_score, settle, transfer)

ALL = list(range(48))

# The 22 single junk cards of docs/rules/gostop.md §2, and the 20 of them outside January (2, 3 are January junk).
SINGLES = [2, 3, 6, 7, 10, 11, 14, 15, 18, 19, 22, 23, 26, 27, 30, 31, 34, 35, 38, 39, 42, 43]
S = [c for c in SINGLES if c not in (2, 3)]  # 6, 7, 10, 11, ..., 42, 43


def pos(hands, layout=(), stock=(), captured=((), ()), to_move=0, ppuk_owner=None,
        go_count=(0, 0), go_score=(0, 0), ppuk_count=(0, 0)):
    """A position dict (docs/rules/gostop.md §12.5); unlisted cards go to the bottom of the stock
    (docs/rules/gostop.md §4)."""
    return {
        "to_move": to_move,
        "hands": [list(hands[0]), list(hands[1])],
        "layout": list(layout),
        "ppuk_owner": dict(ppuk_owner or {}),
        "stock": list(stock),
        "captured": [list(captured[0]), list(captured[1])],
        "go_count": list(go_count),
        "go_score": list(go_score),
        "ppuk_count": list(ppuk_count),
    }


def load(**kw):
    return RefDeal.from_position(pos(**kw))


def accounted(d):
    return sorted(d.all_cards()) == ALL


# =============================================================================================
# docs/rules/gostop.md §12.1 constants and docs/rules/gostop.md §2 deck
# =============================================================================================

def test_action_constants():
    assert (NUM_ACTIONS, PLAY0, CHOOSE0, GO, STOP) == (98, 0, 48, 96, 97)


def test_deck_counts_and_months():
    assert len(gr.CARD_KIND) == 48
    for m in range(1, 13):
        assert [c for c in ALL if gr.month(c) == m] == list(range(4 * (m - 1), 4 * m))
    assert gr.month(0) == 1 and gr.month(31) == 8 and gr.month(32) == 9 and gr.month(47) == 12
    assert len(gr.BRIGHTS) == 5 and len(gr.ANIMALS) == 9 and len(gr.RIBBONS) == 10
    assert len(gr.SINGLE_JUNK) == 22 and len(gr.DOUBLE_JUNK) == 2
    assert sorted(gr.SINGLE_JUNK) == SINGLES
    groups = [gr.BRIGHTS, gr.ANIMALS, gr.RIBBONS, gr.SINGLE_JUNK, gr.DOUBLE_JUNK]
    assert sum(len(g) for g in groups) == 48
    assert set().union(*groups) == set(ALL)
    assert gr.GODORI == {4, 12, 29} and gr.HONGDAN == {1, 5, 9}
    assert gr.CHEONGDAN == {21, 33, 37} and gr.CHODAN == {13, 17, 25}
    assert gr.CUP == 32 and gr.RAIN_BRIGHT == 44 and 32 not in gr.TRANSFERABLE_JUNK
    # the kind column of the docs/rules/gostop.md §2 table agrees with the derived sets
    kinds = {"BRIGHT": gr.BRIGHTS, "ANIMAL": gr.ANIMALS, "RIBBON": gr.RIBBONS,
             "JUNK": gr.SINGLE_JUNK, "DOUBLE_JUNK": gr.DOUBLE_JUNK}
    for kind, ids in kinds.items():
        assert {c for c, k in gr.CARD_KIND.items() if k == kind} == ids
    # 26 junk units, 28 if the cup counts as junk
    assert gr.score_breakdown(ALL, "animal")["junk_units"] == 26
    assert gr.score_breakdown(ALL, "junk")["junk_units"] == 28


# =============================================================================================
# docs/rules/gostop.md §7 combination score
# =============================================================================================

@pytest.mark.parametrize("cards, expected", [
    ([0, 8, 28, 40, 44], 15),   # five brights
    ([0, 8, 28, 40], 4),        # four without rain
    ([0, 8, 28, 44], 4),        # four with the rain man is still 4 (rain rule only for three)
    ([8, 28, 40, 44], 4),
    ([0, 8, 28], 3),            # three without rain
    ([0, 8, 44], 2),            # three with rain
    ([28, 40, 44], 2),
    ([0, 44], 0), ([0, 8], 0), ([44], 0),
])
def test_bright_tiers(cards, expected):
    assert combination_score(cards) == expected


@pytest.mark.parametrize("cards, expected", [
    ([4, 12, 29], 5),                      # godori alone
    ([4, 12, 45], 0),                      # swallow is no godori bird; 3 animals
    ([4, 12, 29, 16, 20], 6),              # 5 animals 1 + godori 5
    ([16, 20, 24, 36, 45], 1),             # swallow counts as an animal
    ([16, 20, 24, 36], 0),
    ([16, 20, 24, 36, 45, 4], 2),          # 6 animals, godori incomplete
    ([4, 12, 16, 20, 24, 29, 36, 45], 9),  # 8 animals 4 + godori 5
])
def test_animals_and_godori(cards, expected):
    assert combination_score(cards) == expected


@pytest.mark.parametrize("cards, expected", [
    ([1, 5, 9], 3),                  # hongdan
    ([21, 33, 37], 3),               # cheongdan
    ([13, 17, 25], 3),               # chodan
    ([13, 17, 46], 0),               # Dec ribbon completes no set
    ([13, 17, 25, 46], 3),
    ([1, 5, 13, 21, 46], 1),         # five ribbons, no set
    ([1, 5, 9, 13, 17], 4),          # five ribbons 1 + hongdan 3
    ([1, 5, 9, 21, 33, 37], 8),      # six ribbons 2 + two sets 6
    (sorted(gr.RIBBONS), 15),        # ten ribbons 6 + three sets 9
])
def test_ribbons(cards, expected):
    assert combination_score(cards) == expected


@pytest.mark.parametrize("cards, expected", [
    (SINGLES[:9], 0),                 # 9 units
    (SINGLES[:10], 1),                # 10 units
    (SINGLES[:11], 2),
    (SINGLES[:8] + [41], 1),          # 8 + 2 = 10 units
    (SINGLES[:9] + [47], 2),          # 11 units
    (SINGLES[:8] + [41, 47], 3),      # 12 units
    (SINGLES + [41, 47], 17),         # 26 units
    ([41, 47], 0),
])
def test_junk_units(cards, expected):
    assert combination_score(cards) == expected


def test_categories_add_up():
    # brights 3 + godori 5 + hongdan 3 + 10 junk units 1 = 12
    assert combination_score([0, 8, 28] + [4, 12, 29] + [1, 5, 9] + SINGLES[:10]) == 12
    # 5 brights 15 + 10 ribbons 15 + ... only the best bright tier counts (not 15 + 4 + 3)
    assert combination_score([0, 8, 28, 40, 44] + sorted(gr.RIBBONS)) == 30


def test_combination_score_accepts_any_iterable_and_returns_int():
    v = combination_score(iter([0, 8, 28]))
    assert v == 3 and type(v) is int
    assert combination_score((c for c in [1, 5, 9])) == 3
    assert combination_score([]) == 0


def test_cup_rule():
    # alone: as animal 1 animal -> 0; as junk 2 units -> 0; tie -> animal
    assert combination_score([32]) == 0 and gr.cup_classification([32]) == "animal"
    # + 8 singles: animal 0 + 0; junk u = 10 -> 1  => junk, 1
    c = [32] + SINGLES[:8]
    assert combination_score(c) == 1 and gr.cup_classification(c) == "junk"
    # + 9 singles: junk u = 11 -> 2
    assert combination_score([32] + SINGLES[:9]) == 2
    # + 4 animals: animal a = 5 -> 1; junk a = 4 -> 0, u = 2 -> 0  => animal, 1
    c = [32, 16, 20, 24, 36]
    assert combination_score(c) == 1 and gr.cup_classification(c) == "animal"
    # tie: 4 animals + cup + 8 singles: animal 1 + 0 = 1, junk 0 + 1 = 1  => animal
    c = [32, 16, 20, 24, 36] + SINGLES[:8]
    assert combination_score(c) == 1 and gr.cup_classification(c) == "animal"
    # 5 animals + cup + 9 singles: animal (6 -> 2) + 0 = 2; junk (5 -> 1) + (11 -> 2) = 3 => junk
    c = [32, 16, 20, 24, 36, 45] + SINGLES[:9]
    assert combination_score(c) == 3 and gr.cup_classification(c) == "junk"
    # all 9 animals: animal 5 + godori 5 = 10; junk 4 + 5 + 0 = 9
    assert combination_score(sorted(gr.ANIMALS)) == 10
    # without the cup the classification is irrelevant (animal)
    assert gr.cup_classification(SINGLES) == "animal"


# =============================================================================================
# docs/rules/gostop.md §6 junk transfer
# =============================================================================================

def test_transfer_lowest_value_then_id():
    payer, recv = {41, 7, 3, 47}, set()
    assert transfer(payer, recv, 1) == [3]
    assert transfer(payer, recv, 2) == [7, 41]  # single 7 first, then double 41 (over-pays)
    assert payer == {47} and recv == {3, 7, 41}


def test_transfer_double_overpays_and_order_41_before_47():
    payer, recv = {41, 47}, {2}
    assert transfer(payer, recv, 1) == [41]
    assert payer == {47} and recv == {2, 41}
    payer = {47, 41}
    assert transfer(payer, set(), 3) == [41, 47]  # 2 + 2 units for a debt of 3


def test_transfer_empty_payer_pays_nothing():
    payer, recv = set(), {5}
    assert transfer(payer, recv, 3) == []
    assert recv == {5}
    payer = {0, 4, 1}  # no junk at all
    assert transfer(payer, set(), 2) == [] and payer == {0, 4, 1}


def test_transfer_partial_then_forgiven():
    payer, recv = {10}, set()
    assert transfer(payer, recv, 3) == [10]
    assert payer == set() and recv == {10}


def test_transfer_never_takes_the_cup():
    payer, recv = {32}, set()
    assert transfer(payer, recv, 2) == []
    # even when the cup currently counts as junk for the payer (32 + 8 singles -> junk class)
    payer = {32} | set(SINGLES[:8])
    assert gr.cup_classification(payer) == "junk"
    moved = transfer(payer, recv, 9)
    assert moved == SINGLES[:8] and payer == {32}


def test_transfer_debt_two_single_and_double_pays_three_units():
    payer, recv = {41, 22}, set()
    assert transfer(payer, recv, 2) == [22, 41]
    assert payer == set() and recv == {22, 41}
    payer = {41, 22, 23}
    assert transfer(payer, set(), 2) == [22, 23] and payer == {41}


def test_transfer_zero_units():
    payer = {2}
    assert transfer(payer, set(), 0) == [] and payer == {2}


# =============================================================================================
# docs/rules/gostop.md §9 settlement
# =============================================================================================

W16 = SINGLES[:16]            # 16 units -> 7 points, nothing else
L5 = [34, 35, 38, 39, 42]     # 5 units, no brights: protects from pi-bak


@pytest.mark.parametrize("g, expected", [
    (0, 7), (1, 8), (2, 9),    # base + g
    (3, 14), (4, 28), (5, 56),  # base * 2^(g-2), no +2 (docs/rules/gostop.md §9.1)
])
def test_go_payouts(g, expected):
    assert combination_score(W16) == 7
    assert settle(W16, L5, g) == expected


@pytest.mark.parametrize("loser, expected", [
    (L5, 7),
    ([34, 35, 38, 39], 14),        # 4 units -> pi-bak
    ([], 14),                      # 0 junk is pi-bak too (docs/rules/gostop.md §9.2)
    ([32, 34, 35, 38], 7),         # loser's cup counts 2 units: 5
    ([32, 34, 35], 14),            # 4 units
    ([41, 47], 14),                # 4 units
    ([41, 47, 42], 7),             # 5 units
    ([32, 41, 42], 7),             # 2 + 2 + 1
    ([0, 8, 4, 12, 29], 14),       # non-junk cards protect nothing
])
def test_pi_bak(loser, expected):
    assert settle(W16, loser, 0) == expected


def test_pi_bak_needs_winner_junk_points():
    # godori 5 + hongdan 3 = 8, no junk points -> no pi-bak against an empty loser
    assert settle([4, 12, 29, 1, 5, 9], [], 0) == 8


def test_gwang_bak():
    w = [0, 8, 28, 4, 12, 29]                         # 3 + 5 = 8
    assert settle(w, L5, 0) == 16                     # loser has no bright
    assert settle(w, L5 + [40], 0) == 8               # one loser bright is enough
    assert settle([0, 8, 44, 4, 12, 29], L5, 0) == 14  # rain three (2) still scores -> 7 * 2
    assert settle([0, 8, 4, 12, 29, 1, 5, 9], L5, 0) == 8  # two brights: no bright points


def test_meong_bak():
    assert settle([4, 12, 16, 20, 24, 29, 36], [], 0) == 16  # 7 animals 3 + godori 5 = 8, x2
    assert settle([4, 12, 16, 20, 24, 29], [], 0) == 7       # 6 animals: 2 + 5, no bak
    # cup as animal is the better class: a = 7 -> 3 + 5 = 8 (junk class: 2 + 5 + 0 = 7)
    assert settle([4, 12, 16, 20, 24, 29, 32], [], 0) == 16


def test_cup_classification_decides_meong_and_pi_bak():
    # junk class wins: animal 3 + 1 = 4, junk 2 + 3 = 5 -> a = 6 (no meong), junk points 3
    w = [4, 16, 20, 24, 36, 45, 32] + SINGLES[:10]
    assert combination_score(w) == 5
    assert settle(w, L5, 0) == 5
    assert settle(w, [], 0) == 10                       # pi-bak
    # tie 3 = 3 -> animal: a = 7 meong-bak, junk points 0 -> no pi-bak
    w = [4, 16, 20, 24, 36, 45, 32] + SINGLES[:8]
    assert combination_score(w) == 3
    assert settle(w, L5, 0) == 6


def test_baks_are_cumulative():
    # brights 3 + animals (7 -> 3, godori 5) 8 + 10 junk units 1 = 12
    w = [0, 8, 28] + [4, 12, 16, 20, 24, 29, 36] + SINGLES[:10]
    lose = [34, 35, 38, 39]                       # no bright, 4 units
    assert combination_score(w) == 12
    assert settle(w, lose, 0) == 96               # 12 * 2 * 2 * 2
    assert settle(w, lose, 1) == 104              # 13 * 8
    assert settle(w, lose, 3) == 192              # 24 * 8
    assert settle(w, lose + [40], 0) == 48        # loser bright: meong and pi remain, 12 * 4
    assert settle(w, lose + [42], 0) == 48        # 5 loser units: gwang and meong remain
    assert settle(w, lose + [40, 42], 0) == 24    # only meong-bak remains


# =============================================================================================
# docs/rules/gostop.md §5 turns from hand-built positions
# =============================================================================================

def test_chok():
    d = load(hands=([2, 6], [10]), layout=[20], stock=[3], captured=([], [14, 41]))
    d.step(2)  # month 1 not on the layout: placed; flip 3 (month 1) -> chok
    assert d.captured[0] == {2, 3, 14} and d.captured[1] == {41}
    assert d.layout == {20}
    assert d.to_move == 1 and d.pending == "PLAY" and d.flipped is None
    assert d.last_turn["bonus"] == ["chok"] and d.last_turn["debt"] == 1


def test_chok_with_sseul():
    d = load(hands=([2, 6], [10]), layout=[], stock=[3], captured=([], [14, 15, 41]))
    d.step(2)
    assert d.layout == set()
    assert d.captured[0] == {2, 3, 14, 15} and d.captured[1] == {41}  # debt 2


def test_chok_on_last_turn_pays_nothing():
    d = load(hands=([2], [10]), layout=[20], stock=[3], captured=([], [14]))
    d.step(2)
    assert d.captured[0] == {2, 3} and d.captured[1] == {14}
    d = load(hands=([2], [10]), layout=[], stock=[3], captured=([], [14]))  # chok + sweep
    d.step(2)
    assert d.captured[0] == {2, 3} and d.captured[1] == {14} and d.layout == set()


def test_ppuk():
    d = load(hands=([2, 6], [10]), layout=[3, 20], stock=[0], captured=([], [14]))
    d.step(2)  # pairs with 3, flip 0 (month 1) -> ppuk stack {0, 2, 3} owned by seat 0
    assert d.layout == {0, 2, 3, 20}
    assert d.ppuk_owner == {1: 0} and d.ppuk_count == [1, 0]
    assert d.captured == [set(), {14}]
    assert d.to_move == 1
    p = d.to_position()
    assert p["ppuk_owner"] == {"1": 0} and p["layout"] == [0, 2, 3, 20]


def test_ppuk_on_last_turn_counts():
    d = load(hands=([2], [10]), layout=[3, 20], stock=[0])
    d.step(2)
    assert d.ppuk_count == [1, 0] and d.ppuk_owner == {1: 0} and d.to_move == 1


def test_three_ppuks_end_the_deal():
    # seat 0 already has 9 points (4 brights + godori) and a Go: the payout is still a flat 5
    d = load(hands=([2, 6], [10]), layout=[3, 20], stock=[0],
             captured=([8, 28, 40, 44, 4, 12, 29], []), ppuk_count=(2, 0),
             go_count=(1, 0), go_score=(9, 0))
    d.step(2)
    assert d.result == {"winner": 0, "payout": 5, "reason": "three_ppuk"}
    assert d.pending is None and d.legal_actions() == []
    assert d.ppuk_count == [3, 0] and d.layout == {0, 2, 3, 20}
    p = d.to_position()
    assert p["result"] == {"winner": 0, "payout": 5, "reason": "three_ppuk"}
    assert p["to_move"] == 0 and p["ppuk_count"] == [3, 0]
    assert d.rewards() == [5, -5]
    # the terminal export loads back as a terminal position
    e = RefDeal.from_position(p)
    assert e.result == p["result"] and e.legal_actions() == []


def test_three_ppuks_for_seat_one_counts_only_own_ppuks():
    d = load(to_move=1, hands=([10], [2, 6]), layout=[3, 20], stock=[0], ppuk_count=(2, 2))
    d.step(2)
    assert d.result == {"winner": 1, "payout": 5, "reason": "three_ppuk"}
    d = load(to_move=1, hands=([10], [2, 6]), layout=[3, 20], stock=[0], ppuk_count=(2, 1))
    d.step(2)
    assert d.result is None and d.ppuk_count == [2, 2] and d.to_move == 0


def test_ttadak_with_hand_choice_before_the_flip():
    d = load(hands=([2, 6], [10]), layout=[0, 3, 20], stock=[1], captured=([], [41, 42]))
    d.step(2)
    assert d.pending == "HAND_CHOICE" and d.to_move == 0
    assert d.legal_actions() == [48 + 0, 48 + 3]
    assert d.flipped is None and d.stock[0] == 1  # not flipped yet
    assert d.hands[0] == {6} and d.in_flight == [2] and accounted(d)
    with pytest.raises(ValueError):
        d.to_position()
    d.step(48 + 3)  # flip 1 (month 1): ttadak takes all four
    assert d.captured[0] == {0, 1, 2, 3, 42} and d.captured[1] == {41}  # single 42 paid first
    assert d.layout == {20} and d.last_turn["bonus"] == ["ttadak"]


def test_ttadak_with_sseul_debt_two_pays_three_units():
    d = load(hands=([2, 6], [10]), layout=[0, 3], stock=[1], captured=([], [41, 42]))
    d.step(2)
    d.step(48 + 0)
    assert d.layout == set()
    assert d.captured[0] == {0, 1, 2, 3, 41, 42} and d.captured[1] == set()


def test_ttadak_on_last_turn_pays_nothing():
    d = load(hands=([2], [10]), layout=[0, 3], stock=[1], captured=([], [41, 42]))
    d.step(2)
    d.step(48 + 3)
    assert d.captured[0] == {0, 1, 2, 3} and d.captured[1] == {41, 42}


def test_sseul_alone_overpays_with_double():
    d = load(hands=([2, 6], [10]), layout=[3, 22], stock=[23], captured=([], [41]))
    d.step(2)  # 2 takes 3, flip 23 takes 22: layout empty
    assert d.layout == set()
    assert d.captured[0] == {2, 3, 22, 23, 41} and d.captured[1] == set()
    assert d.last_turn["bonus"] == ["sseul"] and d.last_turn["transferred"] == [41]


def test_sseul_on_last_turn_pays_nothing():
    d = load(hands=([2], [10]), layout=[3, 22], stock=[23], captured=([], [41]))
    d.step(2)
    assert d.captured[0] == {2, 3, 22, 23} and d.captured[1] == {41}


def test_no_sseul_when_layout_keeps_a_card():
    d = load(hands=([2, 6], [10]), layout=[3], stock=[24], captured=([], [41]))
    d.step(2)  # 2 takes 3, flip 24 is placed
    assert d.layout == {24} and d.captured == [{2, 3}, {41}]


def test_sseul_from_empty_payer():
    d = load(hands=([2, 6], [10]), layout=[3, 22], stock=[23])
    d.step(2)
    assert d.captured == [{2, 3, 22, 23}, set()]


def test_dealt_triple_capture_by_hand():
    d = load(hands=([3, 6], [10]), layout=[0, 1, 2, 20], stock=[24], captured=([], [14, 15]))
    d.step(3)  # takes the dealt triple, flip 24 placed
    assert d.captured[0] == {0, 1, 2, 3, 14} and d.captured[1] == {15}
    assert d.layout == {20, 24}


def test_dealt_triple_bonus_on_last_turn():
    d = load(hands=([3], [10]), layout=[0, 1, 2, 20], stock=[24], captured=([], [14, 15]))
    d.step(3)
    assert d.captured[0] == {0, 1, 2, 3, 14} and d.captured[1] == {15}


@pytest.mark.parametrize("key", ["1", 1])
def test_own_ppuk_capture_pays_two(key):
    d = load(hands=([3, 6], [10]), layout=[0, 1, 2, 20], stock=[24], ppuk_owner={key: 0},
             captured=([], [14, 15, 18]))
    d.step(3)
    assert d.captured[0] == {0, 1, 2, 3, 14, 15} and d.captured[1] == {18}
    assert d.ppuk_owner == {} and d.to_position()["ppuk_owner"] == {}


def test_own_ppuk_capture_on_last_turn_pays_two():
    d = load(hands=([3], [10]), layout=[0, 1, 2, 20], stock=[24], ppuk_owner={1: 0},
             captured=([], [14, 15, 18]))
    d.step(3)
    assert d.captured[0] == {0, 1, 2, 3, 14, 15} and d.captured[1] == {18}


def test_other_players_ppuk_capture_pays_one():
    d = load(hands=([3, 6], [10]), layout=[0, 1, 2, 20], stock=[24], ppuk_owner={"1": 1},
             captured=([], [14, 15, 18]))
    d.step(3)
    assert d.captured[0] == {0, 1, 2, 3, 14} and d.captured[1] == {15, 18}


def test_triple_capture_by_the_flip():
    d = load(hands=([6, 46], [10]), layout=[0, 1, 2, 20], stock=[3], captured=([], [14, 15]))
    d.step(6)  # placed; flip 3 takes the dealt triple of January
    assert d.captured[0] == {0, 1, 2, 3, 14} and d.layout == {6, 20}


def test_triple_with_sseul_and_last_turn_keeps_only_the_triple_bonus():
    # 3 takes the triple, flip 21 takes 20: layout empty -> triple 1 + sseul 1
    d = load(hands=([3, 6], [10]), layout=[0, 1, 2, 20], stock=[21],
             captured=([], [14, 15, 18]))
    d.step(3)
    assert d.layout == set()
    assert d.captured[0] == {0, 1, 2, 3, 20, 21, 14, 15} and d.captured[1] == {18}
    d = load(hands=([3], [10]), layout=[0, 1, 2, 20], stock=[21], captured=([], [14, 15, 18]))
    d.step(3)
    assert d.captured[0] == {0, 1, 2, 3, 20, 21, 14} and d.captured[1] == {15, 18}


def test_two_triples_in_one_turn():
    # hand takes own ppuk (2), flip 21 takes the dealt triple 20/22/23 (1); 24 stays: debt 3
    d = load(hands=([3, 6], [10]), layout=[0, 1, 2, 20, 22, 23, 24], stock=[21],
             ppuk_owner={"1": 0}, captured=([], [14, 15, 18, 19]))
    d.step(3)
    assert d.layout == {24}
    assert d.captured[1] == {19}
    assert d.captured[0] == {0, 1, 2, 3, 20, 21, 22, 23, 14, 15, 18}


def test_stock_choice():
    d = load(hands=([6, 46], [10]), layout=[0, 3, 20], stock=[2])
    d.step(6)  # placed, no hand choice; flip 2 meets two January cards
    assert d.pending == "STOCK_CHOICE" and d.flipped == 2 and d.to_move == 0
    assert d.legal_actions() == [48, 51]
    assert d.layout == {0, 3, 6, 20} and d.in_flight == [2] and accounted(d)
    with pytest.raises(ValueError):
        d.to_position()
    d.step(48)
    assert d.captured[0] == {0, 2} and d.layout == {3, 6, 20}
    assert d.pending == "PLAY" and d.to_move == 1 and d.flipped is None


def test_hand_choice_then_stock_choice():
    d = load(hands=([2, 46], [10]), layout=[0, 3, 20, 22], stock=[23])
    d.step(2)
    assert d.pending == "HAND_CHOICE" and d.legal_actions() == [48, 51]
    d.step(51)
    assert d.pending == "STOCK_CHOICE" and d.legal_actions() == [68, 70] and d.flipped == 23
    assert d.in_flight == [2, 3, 23] and accounted(d)
    d.step(68)
    assert d.captured[0] == {2, 3, 20, 23} and d.layout == {0, 22}


def test_no_stock_choice_when_flip_matches_hand_month():
    # ttadak case: flip of the hand's month never asks a stock choice
    d = load(hands=([2, 6], [10]), layout=[0, 3, 20], stock=[1])
    d.step(2)
    d.step(48)
    assert d.pending == "PLAY"


def test_illegal_actions_raise_and_change_nothing():
    d = load(hands=([2, 46], [10]), layout=[0, 3, 20, 22], stock=[23])
    before = d.to_position()
    for bad in (10, 47, 48, 96, 97, 98, -1, True, 2.0, "2", None):
        with pytest.raises(ValueError):
            d.step(bad)
        assert d.to_position() == before and d.pending == "PLAY"
    d.step(2)
    state = (d.pending, sorted(d.hands[0]), sorted(d.layout), list(d.stock), d.legal_actions())
    for bad in (46, 2, 48 + 20, 96, 48 + 2):
        with pytest.raises(ValueError):
            d.step(bad)
        assert (d.pending, sorted(d.hands[0]), sorted(d.layout), list(d.stock),
                d.legal_actions()) == state


def test_empty_stock_in_a_loaded_position_means_no_flip():
    # INTERPRETATION (documented in the reference): all 48 cards listed, stock empty -> the hand
    # step resolves alone.  2 takes 3, the layout is empty: sweep, debt 1.
    rest = [c for c in ALL if c not in (2, 6, 10, 3)]
    d = load(hands=([2, 6], [10]), layout=[3], stock=[], captured=(rest[:-1], [rest[-1]]))
    assert d.stock == []
    d.step(2)
    assert d.flipped is None and d.layout == set() and d.stock == []
    assert {2, 3, rest[-1]} <= d.captured[0] and d.captured[1] == set() and accounted(d)


# =============================================================================================
# docs/rules/gostop.md §8 Go / Stop
# =============================================================================================

def test_first_go_decision_at_seven():
    # 14 units (5) + 2 + 3 -> 16 units = 7
    d = load(hands=([2, 46], [45]), layout=[3, 20], stock=[24], captured=(S[:14], []))
    d.step(2)
    assert d.pending == "GO_STOP" and d.legal_actions() == [96, 97] and d.to_move == 0
    assert d.flipped == 24 and accounted(d) and d.in_flight == []
    with pytest.raises(ValueError):
        d.to_position()
    with pytest.raises(ValueError):
        d.step(48)


def test_six_is_not_eligible():
    d = load(hands=([2, 46], [45]), layout=[3, 20], stock=[24], captured=(S[:13], []))
    d.step(2)  # 15 units = 6
    assert d.pending == "PLAY" and d.to_move == 1


def test_go_records_count_and_score():
    d = load(hands=([2, 46], [45]), layout=[3, 20], stock=[24], captured=(S[:14], []))
    d.step(2)
    d.step(GO)
    assert d.go_count == [1, 0] and d.go_score == [7, 0]
    assert d.pending == "PLAY" and d.to_move == 1 and d.flipped is None and d.result is None


def test_stop_settles():
    d = load(hands=([2, 46], [45]), layout=[3, 20], stock=[24], captured=(S[:14], []))
    d.step(2)
    d.step(STOP)
    # base 7, no Go; winner junk points > 0 and loser 0 units -> pi-bak: 14
    assert d.result == {"winner": 0, "payout": 14, "reason": "stop"}
    assert d.pending is None and d.legal_actions() == [] and d.flipped is None
    p = d.to_position()
    assert p["result"] == d.result and p["to_move"] == 0
    assert d.rewards() == [14, -14]
    with pytest.raises(ValueError):
        d.step(GO)


def test_after_go_equal_score_is_not_enough():
    # 15 units (6) + ribbon 1 and junk 2 -> 16 units = 7, not > go_score 7
    d = load(hands=([1, 46], [45]), layout=[2, 20], stock=[24], captured=(S[:15], []),
             go_count=(1, 0), go_score=(7, 0))
    d.step(1)
    assert d.pending == "PLAY" and d.to_move == 1


def test_after_go_higher_score_is_eligible():
    d = load(hands=([2, 46], [45]), layout=[3, 20], stock=[24], captured=(S[:15], []),
             go_count=(1, 0), go_score=(7, 0))
    d.step(2)  # 17 units = 8 > 7
    assert d.pending == "GO_STOP"


def test_falling_and_climbing_back_is_not_enough():
    # seat 0 went Go at 7 (16 units). Seat 1 choks and takes junk 6 -> seat 0 at 6;
    # seat 0 then climbs back to exactly 7: no decision.
    d = load(to_move=1, hands=([1, 5], [42, 44]), layout=[2, 20], stock=[43, 45],
             captured=(S[:16], []), go_count=(1, 0), go_score=(7, 0))
    assert combination_score(S[:16]) == 7
    d.step(42)  # placed; flip 43 -> chok, layout keeps 2 and 20: debt 1
    assert d.captured[1] == {42, 43, 6} and combination_score(d.captured[0]) == 6
    assert d.to_move == 0 and d.pending == "PLAY"
    d.step(1)  # takes 2 (+1 unit), flip 45 placed -> 16 units = 7
    assert combination_score(d.captured[0]) == 7
    assert d.pending == "PLAY" and d.to_move == 1 and d.go_count == [1, 0]


def test_transferred_junk_counts_for_eligibility():
    # 13 units (4) + chok 2 + 3 (15 -> 6) + transfer 1 single (16 -> 7)
    d = load(hands=([2, 46], [45]), layout=[20], stock=[3], captured=(S[:13], [S[13]]))
    d.step(2)
    assert d.captured[1] == set() and d.pending == "GO_STOP"


def test_loaded_score_without_go_is_eligible_even_without_a_capture():
    d = load(hands=([46, 1], [45]), layout=[20], stock=[24], captured=(S[:16], []))
    d.step(46)  # placed, flip placed, nothing captured; score still 7
    assert d.pending == "GO_STOP"


def test_forced_stop_on_last_turn():
    d = load(hands=([2], [45]), layout=[3, 20], stock=[24], captured=(S[:15], []))
    d.step(2)  # 17 units = 8, last card: automatic Stop, base 8, pi-bak -> 16
    assert d.result == {"winner": 0, "payout": 16, "reason": "stop"}
    assert d.pending is None


@pytest.mark.parametrize("g, expected", [(0, 16), (2, 20), (3, 32), (4, 64)])
def test_forced_stop_with_gos(g, expected):
    # base 8: g=2 -> 10, g=3 -> 16, g=4 -> 32; pi-bak x2
    d = load(hands=([2], [45]), layout=[3, 20], stock=[24], captured=(S[:15], []),
             go_count=(g, 0), go_score=(7 if g else 0, 0))
    d.step(2)
    assert d.result == {"winner": 0, "payout": expected, "reason": "stop"}


@pytest.mark.parametrize("g, expected", [(0, 8), (1, 9), (2, 10), (3, 16), (4, 32), (5, 64)])
def test_stop_payout_by_go_count(g, expected):
    # final 17 units = 8; the loser's 5 units prevent pi-bak, the winner has no bright points;
    # the loser's own Gos (3 of them) do not matter (docs/rules/gostop.md §9.3)
    d = load(hands=([2, 46], [45]), layout=[3, 20], stock=[24],
             captured=(S[:15], [35, 38, 39, 42, 43]),
             go_count=(g, 3), go_score=(7 if g else 0, 9))
    d.step(2)
    assert d.pending == "GO_STOP"
    d.step(STOP)
    assert d.result == {"winner": 0, "payout": expected, "reason": "stop"}


def test_stop_by_seat_one():
    d = load(to_move=1, hands=([45], [2, 46]), layout=[3, 20], stock=[24],
             captured=([35, 38, 39, 42, 43, 40], S[:15]))
    d.step(2)
    d.step(STOP)
    assert d.result == {"winner": 1, "payout": 8, "reason": "stop"}
    assert d.rewards() == [-8, 8] and d.to_position()["to_move"] == 1


# =============================================================================================
# docs/rules/gostop.md §5.8 end of turn, docs/rules/gostop.md §9.4 nagari
# =============================================================================================

def test_nagari_after_gos():
    d = load(hands=([2], [6]), layout=[20], stock=[24, 28], captured=(S[2:18], []),
             go_count=(1, 0), go_score=(7, 0))
    d.step(2)  # placed, 24 placed; score 7 is not > 7
    assert d.to_move == 1 and d.pending == "PLAY"
    d.step(6)  # placed, 28 placed; both hands empty
    assert d.result == {"winner": None, "payout": 0, "reason": "nagari"}
    assert d.rewards() == [0, 0]
    p = d.to_position()
    assert p["to_move"] == 1 and p["hands"] == [[], []] and p["result"] == d.result
    assert p["layout"] == [2, 6, 20, 24, 28]


def test_mover_moves_again_when_other_hand_is_empty():
    d = load(hands=([2, 6], []), layout=[20], stock=[24, 28])
    d.step(2)
    assert d.to_move == 0 and d.pending == "PLAY"
    d.step(6)  # the only remaining card: last turn, then nagari
    assert d.result["reason"] == "nagari" and d.to_move == 0


def test_last_turn_is_one_card_in_hand_even_with_unequal_hands():
    d = load(hands=([2], [6, 7, 10]), layout=[20], stock=[3], captured=([], [14]))
    d.step(2)  # chok on seat 0's last card: no junk
    assert d.captured == [{2, 3}, {14}] and d.to_move == 1


# =============================================================================================
# docs/rules/gostop.md §3 setup from explicit orders
# =============================================================================================

BASE = sorted(range(48), key=lambda c: (c % 4, c // 4))  # one card per month in turn: no quads


def order_with(placements):
    """BASE with the given cards moved to the given order indices (swapping)."""
    order = list(BASE)
    for index, card in placements.items():
        j = order.index(card)
        order[index], order[j] = order[j], order[index]
    return order


def quads(cards):
    return [m for m in range(1, 13) if all(c in cards for c in range(4 * m - 4, 4 * m))]


def describe(order):
    return quads(order[0:10]), quads(order[10:20]), quads(order[20:28])


def test_plain_deal_mapping():
    assert describe(BASE) == ([], [], [])
    for fp in (0, 1):
        d = RefDeal.from_order(BASE, fp)
        assert d.setup == "play" and d.pending == "PLAY" and d.result is None
        assert d.to_move == fp
        assert d.hands[fp] == set(BASE[0:10]) and d.hands[1 - fp] == set(BASE[10:20])
        assert d.layout == set(BASE[20:28]) and d.stock == BASE[28:48]
        assert d.legal_actions() == sorted(BASE[0:10])
        assert d.captured == [set(), set()] and d.go_count == [0, 0] and d.ppuk_count == [0, 0]


def test_layout_quad_redeal():
    order = order_with({20: 0, 21: 1, 22: 2, 23: 3})
    assert describe(order) == ([], [], [1])
    d = RefDeal.from_order(order, 0)
    assert d.setup == "redeal" and d.result is None and d.legal_actions() == []
    with pytest.raises(ValueError):
        d.to_position()


def test_layout_quad_checked_before_hand_quad():
    order = order_with({20: 0, 21: 1, 22: 2, 23: 3, 0: 4, 1: 5, 2: 6, 3: 7})
    assert describe(order) == ([2], [], [1])
    assert RefDeal.from_order(order, 0).setup == "redeal"


def test_both_hands_quad_redeal():
    order = order_with({0: 0, 1: 1, 2: 2, 3: 3, 10: 4, 11: 5, 12: 6, 13: 7})
    assert describe(order) == ([1], [2], [])
    d = RefDeal.from_order(order, 1)
    assert d.setup == "redeal" and d.result is None and d.pending is None


@pytest.mark.parametrize("first_player, block, winner", [
    (0, 0, 0), (1, 0, 1), (0, 10, 1), (1, 10, 0)])
def test_chongtong(first_player, block, winner):
    order = order_with({block + i: 44 + i for i in range(4)})
    assert quads(order[block:block + 10]) == [12] and describe(order)[2] == []
    assert sum(len(q) for q in describe(order)) == 1
    d = RefDeal.from_order(order, first_player)
    assert d.setup == "chongtong"
    assert d.result == {"winner": winner, "payout": 5, "reason": "chongtong"}
    assert d.pending is None and d.legal_actions() == []
    r = [0, 0]
    r[winner], r[1 - winner] = 5, -5
    assert d.rewards() == r
    p = d.to_position()
    assert p["result"] == d.result and p["captured"] == [[], []]
    with pytest.raises(ValueError):
        d.step(order[block])


def test_two_quads_in_one_hand_is_chongtong():
    order = order_with({0: 0, 1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7})
    assert describe(order) == ([1, 2], [], [])
    d = RefDeal.from_order(order, 0)
    assert d.result == {"winner": 0, "payout": 5, "reason": "chongtong"}


def test_dealt_triple_is_no_redeal_and_pays_on_capture():
    order = order_with({20: 0, 21: 1, 22: 2, 0: 3})
    assert describe(order) == ([], [], [])
    d = RefDeal.from_order(order, 0)
    assert d.setup == "play" and d.ppuk_owner == {}
    d.step(3)
    assert {0, 1, 2, 3} <= d.captured[0]


def test_from_order_rejects_non_permutations():
    with pytest.raises(ValueError):
        RefDeal.from_order(list(range(47)), 0)
    with pytest.raises(ValueError):
        RefDeal.from_order([0] + list(range(1, 47)) + [1], 0)
    with pytest.raises(ValueError):
        RefDeal.from_order(BASE, 2)


# =============================================================================================
# docs/rules/gostop.md §12.5 positions
# =============================================================================================

def test_unlisted_cards_go_to_the_stock_bottom_ascending():
    d = load(hands=([5], [7]), layout=[9], stock=[40, 1], captured=([0], [47]))
    rest = [c for c in ALL if c not in (5, 7, 9, 40, 1, 0, 47)]
    assert d.stock == [40, 1] + rest
    p = d.to_position()
    assert p["stock"] == [40, 1] + rest and p["to_move"] == 0 and "result" not in p


def test_export_is_sorted_and_uses_string_keys():
    d = load(to_move=1, hands=([9, 2], [30, 7]), layout=[22, 20, 21, 0],
             ppuk_owner={6: 1}, captured=([47, 3], [41, 10]), ppuk_count=(0, 1),
             go_count=(2, 0), go_score=(11, 0))
    p = d.to_position()
    assert p["hands"] == [[2, 9], [7, 30]] and p["layout"] == [0, 20, 21, 22]
    assert p["ppuk_owner"] == {"6": 1} and p["captured"] == [[3, 47], [10, 41]]
    assert p["go_count"] == [2, 0] and p["go_score"] == [11, 0] and p["ppuk_count"] == [0, 1]
    assert RefDeal.from_position(p).to_position() == p


def test_positions_run_no_setup_checks():
    d = load(hands=([0, 1, 2, 3], [4, 5, 6, 7]), layout=[8, 9, 10])
    assert d.setup == "play" and d.result is None and d.pending == "PLAY"


def test_accepted_unusual_positions():
    # ppuk stack whose owner has ppuk_count 0; unequal hands
    d = load(hands=([5, 6, 7], [9]), layout=[0, 1, 2], ppuk_owner={"1": 1})
    assert d.ppuk_owner == {1: 1} and d.pending == "PLAY"
    # a result makes the position terminal; to_move may have no card; ppuk_count 3 allowed
    p = pos(hands=([], []), ppuk_count=(3, 0))
    p["result"] = {"winner": 0, "payout": 5, "reason": "three_ppuk"}
    d = RefDeal.from_position(p)
    assert d.result == p["result"] and d.pending is None and d.legal_actions() == []
    with pytest.raises(ValueError):
        d.step(0)
    assert d.to_position()["result"] == p["result"]


def _bad(**changes):
    p = pos(hands=([2, 6], [10]), layout=[20], stock=[3])
    p.update(changes)
    return p


@pytest.mark.parametrize("p, match", [
    (_bad(hands=[[2, 6], [10], []]), "hands"),
    (_bad(captured=[[]]), "captured"),
    (_bad(go_count=[0, 0, 0]), "go_count"),
    (_bad(layout=20), "layout"),
    (_bad(layout=[20, "21"]), "non-int"),
    (_bad(layout=[20, 21.0]), "non-int"),
    (_bad(layout=[20, True]), "non-int"),
    (_bad(layout=[20, 48]), "outside"),
    (_bad(stock=[3, -1]), "outside"),
    (_bad(stock=[3, 3]), "more than once"),
    (_bad(stock=[3, 20]), "more than once"),
    (_bad(captured=[[10], []]), "more than once"),
    (_bad(layout=[20, 21, 22, 23]), "month 6"),
    (_bad(ppuk_owner={"6": 0}), "ppuk_owner month 6"),
    (_bad(layout=[20, 21, 22], ppuk_owner={"6": 2}), "0 or 1"),
    (_bad(layout=[20, 21, 22], ppuk_owner={"13": 0}), "1..12"),
    (_bad(layout=[20, 21, 22], ppuk_owner={"six": 0}), "month"),
    (_bad(layout=[20, 21, 22], ppuk_owner={"6": 0, 6: 1}), "twice"),
    (_bad(ppuk_owner=[]), "ppuk_owner"),
    (_bad(to_move=2), "to_move"),
    (_bad(to_move=None), "to_move"),
    (_bad(hands=[[], [10]]), "no hand card"),
    (_bad(go_count=[-1, 0]), "go_count"),
    (_bad(go_count=[1, 0], go_score=[-1, 0]), "negative"),
    (_bad(go_score=[0, 5]), "must be 0"),
    (_bad(ppuk_count=[3, 0]), "ppuk_count"),
    (_bad(ppuk_count=[0, -1]), "ppuk_count"),
    (_bad(extra=1), "unknown key"),
    ({k: v for k, v in _bad().items() if k != "stock"}, "missing"),
    (_bad(result={"winner": 0}), "result"),
])
def test_position_validation(p, match):
    with pytest.raises(ValueError, match=match):
        RefDeal.from_position(p)


def test_position_validation_accepts_int_keys_and_to_move_without_cards_with_result():
    RefDeal.from_position(_bad(layout=[20, 21, 22], ppuk_owner={6: 0}))
    p = _bad(hands=[[], []])
    p["result"] = {"winner": None, "payout": 0, "reason": "nagari"}
    assert RefDeal.from_position(p).result["reason"] == "nagari"


# =============================================================================================
# random play smoke test
# =============================================================================================

def test_random_play_smoke():
    rng = random.Random(20240601)
    reasons = {}
    for i in range(300):
        order = list(range(48))
        rng.shuffle(order)
        first = rng.randrange(2)
        d = RefDeal.from_order(order, first)
        if d.setup == "redeal":
            continue
        always_go = i % 2 == 1  # half the deals only ever Go: they end by a forced Stop or nagari
        plays = 0
        while d.result is None:
            assert accounted(d), (i, d.pending)
            legal = d.legal_actions()
            assert legal and all(0 <= a < NUM_ACTIONS for a in legal)
            if d.pending == "PLAY":
                # docs/rules/gostop.md §5.8: P0 plays turns 1, 3, ..., 19 and P1 turns 2, 4, ..., 20
                assert d.to_move == (first if plays % 2 == 0 else 1 - first)
                assert len(d.hands[d.to_move]) == 10 - plays // 2
                assert len(d.stock) == 20 - plays
                assert legal == sorted(d.hands[d.to_move])
                p = d.to_position()
                assert RefDeal.from_position(p).to_position() == p
                plays += 1
            if d.pending == "GO_STOP":
                a = GO if always_go or rng.random() < 0.3 else STOP
            else:
                a = rng.choice(legal)
            d.step(a)
        assert accounted(d)
        assert d.legal_actions() == [] and d.pending is None
        r = d.result
        assert r["payout"] >= 0 and r["reason"] in ("stop", "chongtong", "three_ppuk", "nagari")
        if r["reason"] == "nagari":
            assert plays == 20 and r["winner"] is None and r["payout"] == 0
            assert d.stock == [] and d.hands == [set(), set()]
        elif r["reason"] == "chongtong":
            assert plays == 0 and r["payout"] == 5
        else:
            assert 1 <= plays <= 20 and r["winner"] in (0, 1)
            assert d.to_move == r["winner"]
            if r["reason"] == "three_ppuk":
                assert r["payout"] == 5 and d.ppuk_count[r["winner"]] == 3
            elif always_go:
                # only the forced Stop of docs/rules/gostop.md §8.3 ends such a deal: the winner's last turn
                assert plays == (19 if r["winner"] == first else 20)
        # the hands and the stock always run out together (20 stock cards, 20 turns)
        assert len(d.stock) == len(d.hands[0]) + len(d.hands[1])
        p = d.to_position()
        assert p["result"] == r
        assert RefDeal.from_position(p).to_position() == p
        reasons[r["reason"]] = reasons.get(r["reason"], 0) + 1
    assert reasons.get("stop", 0) > 100, reasons
