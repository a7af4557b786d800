"""Go-Stop turn rules (docs/rules/gostop.md §5, docs/rules/gostop.md §8, docs/rules/gostop.md §9) as one-turn
scenarios from positions, plus setup (docs/rules/gostop.md §3).

Card ids (docs/rules/gostop.md §2): month m owns 4(m-1)..4(m-1)+3; e.g. Jan 0 bright, 1 ribbon, 2 and 3 junk;
Jun 20 animal, 21 blue ribbon, 22 and 23 junk.  Cards a position does not list go to the
bottom of the stock in id order, so the listed ``stock`` is what gets flipped first.
"""

from __future__ import annotations

import numpy as np
import pytest

from envs.gostop import CHOOSE_START, GO, STOP, GoStop
from envs.gostop.deal import REDEAL, classify

G = GoStop()


def pos(hands=((2, 6), (10,)), layout=(), stock=(24,), captured=((), ()), to_move=0,
        ppuk_owner=None, go_count=(0, 0), go_score=(0, 0), ppuk_count=(0, 0)):
    return {
        "to_move": to_move, "hands": [list(h) for h in hands], "layout": list(layout),
        "ppuk_owner": dict(ppuk_owner or {}), "stock": list(stock),
        "captured": [list(c) for c in captured], "go_count": list(go_count),
        "go_score": list(go_score), "ppuk_count": list(ppuk_count),
    }


def load(**kw):
    return G.from_position(pos(**kw), seed=0)


def act(state, *actions):
    """Apply actions one by one (each checked); return the summed (2,) rewards."""
    total = np.zeros(2)
    for a in actions:
        assert G.legal_mask(state)[0, a], (a, G.pending(state))
        total += G.step(state, np.array([a]))[0]
    return total


def after(state):
    return G.to_position(state, 0)


# ------------------------------------------------------------ play and flip
def test_placed_cards_stay_on_the_layout():
    s = load(layout=[20], stock=[24])
    act(s, 2)  # Jan junk: no Jan on the layout; the flip (Jul boar) matches nothing
    p = after(s)
    assert p["layout"] == [2, 20, 24] and p["captured"] == [[], []]
    assert p["to_move"] == 1 and p["hands"] == [[6], [10]] and p["stock"][0] != 24


def test_pair_capture():
    s = load(layout=[0, 20], stock=[24])
    act(s, 2)
    assert after(s)["captured"][0] == [0, 2] and after(s)["layout"] == [20, 24]


def test_two_layout_cards_need_a_hand_choice():
    s = load(layout=[0, 1, 20], stock=[24])
    act(s, 2)
    pend = G.pending(s)
    assert pend["decision"] == "hand_choice" and pend["played"] == 2 and pend["flipped"] is None
    assert pend["legal"] == [CHOOSE_START + 0, CHOOSE_START + 1]
    with pytest.raises(ValueError):
        G.to_position(s, 0)  # only defined at PLAY decisions and at the end
    act(s, CHOOSE_START + 1)
    p = after(s)
    assert p["captured"][0] == [1, 2] and p["layout"] == [0, 20, 24]


def test_choice_is_explicit_even_between_equivalent_cards():
    s = load(layout=[2, 3], hands=((0, 6), (10,)))  # docs/rules/gostop.md §5.1: two plain junk are still a decision
    act(s, 0)
    assert G.pending(s)["decision"] == "hand_choice"


def test_flipped_card_with_two_candidates_needs_a_stock_choice():
    s = load(layout=[0, 20, 21], hands=((6, 2), (10,)), stock=[22])
    act(s, 6)  # Feb junk placed; the flip (Jun junk) finds 2 Jun cards
    pend = G.pending(s)
    assert pend == {"decision": "stock_choice", "to_move": 0, "played": 6, "flipped": 22,
                    "legal": [CHOOSE_START + 20, CHOOSE_START + 21]}
    act(s, CHOOSE_START + 21)
    p = after(s)
    assert p["captured"][0] == [21, 22] and p["layout"] == [0, 6, 20]


def test_both_choices_in_one_turn():
    s = load(layout=[0, 1, 20, 21], stock=[22])
    act(s, 2, CHOOSE_START + 0, CHOOSE_START + 20)
    assert after(s)["captured"][0] == [0, 2, 20, 22] and after(s)["layout"] == [1, 21]


# ---------------------------------------------------------- special captures
def test_chok_takes_one_junk():
    s = load(layout=[20], stock=[3], captured=((), (14, 15)))
    act(s, 2)  # placed, then the flip (Jan) captures it
    p = after(s)
    assert p["captured"] == [[2, 3, 14], [15]] and p["layout"] == [20]


def test_ppuk_makes_an_owned_stack_and_captures_nothing():
    s = load(layout=[0, 20], stock=[3], captured=((), (14,)))
    act(s, 2)
    p = after(s)
    assert p["layout"] == [0, 2, 3, 20] and p["ppuk_owner"] == {"1": 0}
    assert p["ppuk_count"] == [1, 0] and p["captured"] == [[], [14]]


def test_ttadak_takes_all_four_and_one_junk():
    s = load(layout=[0, 1, 20], stock=[3], captured=((), (14, 15)))
    act(s, 2, CHOOSE_START + 0)
    p = after(s)
    assert p["captured"] == [[0, 1, 2, 3, 14], [15]] and p["layout"] == [20]


def test_sseul_is_an_empty_layout_after_the_turn():
    s = load(layout=[0, 20], stock=[22], captured=((), (14, 15)))
    act(s, 2)  # hand takes Jan, flip takes Jun
    p = after(s)
    assert p["layout"] == [] and p["captured"] == [[0, 2, 14, 20, 22], [15]]


@pytest.mark.parametrize(
    "layout,actions,taken",
    [
        ([0, 1], [2, CHOOSE_START + 0], [14, 15]),  # ttadak + sseul = 2 (docs/rules/gostop.md §5.5)
        ([], [2], [14, 15]),  # chok + sseul = 2
    ],
)
def test_bonuses_stack_with_sseul(layout, actions, taken):
    s = load(layout=layout, stock=[3], captured=((), (14, 15, 18)))
    act(s, *actions)
    p = after(s)
    assert p["layout"] == [] and set(taken) <= set(p["captured"][0]) and p["captured"][1] == [18]


@pytest.mark.parametrize(
    "owner,paid",
    [(None, [14]), ({"1": 1}, [14]), ({"1": 0}, [14, 15])],  # dealt triple, other's, own ppuk (docs/rules/gostop.md §5.5)
)
def test_triple_capture_from_hand(owner, paid):
    s = load(layout=[0, 1, 3, 20], ppuk_owner=owner, captured=((), (14, 15, 18)))
    act(s, 2)
    p = after(s)
    assert p["captured"][0] == sorted([0, 1, 2, 3] + paid) and p["ppuk_owner"] == {}
    assert p["layout"] == [20, 24]


@pytest.mark.parametrize("owner,paid", [(None, [14]), ({"6": 1}, [14]), ({"6": 0}, [14, 15])])
def test_triple_capture_by_the_flip(owner, paid):
    s = load(layout=[0, 20, 21, 23], stock=[22], ppuk_owner=owner, captured=((), (14, 15, 18)))
    act(s, 6)
    p = after(s)
    assert p["captured"][0] == sorted([20, 21, 22, 23] + paid) and p["layout"] == [0, 6]


def test_two_own_ppuk_stacks_and_a_sweep_owe_five_units():
    s = load(layout=[0, 1, 3, 20, 21, 23], ppuk_owner={"1": 0, "6": 0}, stock=[22],
             captured=((), (14, 15, 18, 19, 26, 27)), ppuk_count=(2, 0))
    act(s, 2)
    p = after(s)
    assert p["layout"] == [] and p["captured"][1] == [27]
    assert p["captured"][0] == sorted([0, 1, 2, 3, 20, 21, 22, 23, 14, 15, 18, 19, 26])


def test_debt_is_paid_in_one_greedy_pass():
    s = load(layout=[0, 1, 3, 20], ppuk_owner={"1": 0}, captured=((), (7, 41, 32)))
    act(s, 2)  # own ppuk: 2 units, payer holds {single, double, cup}: gives 7 then 41 (docs/rules/gostop.md §6)
    assert after(s)["captured"] == [[0, 1, 2, 3, 7, 41], [32]]


def test_transferred_junk_counts_for_the_receiver_at_once():
    nine = [6, 7, 10, 11, 14, 15, 18, 19, 22]  # 9 units: 0 junk points
    s = load(layout=[20], stock=[3], captured=(nine + [0, 8, 28, 4, 12], (26, 27)),
             hands=((2, 45), (46,)))
    # chok: 2 + 3 captured (11 units) and 26 transferred (12): 3 brights + 3 junk = 6 < 7
    act(s, 2)
    assert after(s)["to_move"] == 1
    s = load(layout=[20], stock=[3], captured=(nine + [0, 8, 28, 4, 12, 23], (26, 27)),
             hands=((2, 45), (46,)))
    act(s, 2)  # now 13 units -> 4 + 3 = 7: eligible only thanks to the transfer
    assert G.pending(s)["decision"] == "go_stop"


# ----------------------------------------------------------------- last turn
def test_last_turn_earns_no_chok_ttadak_or_sseul_bonus_but_captures():
    s = load(hands=((2,), (10,)), layout=[], stock=[3], captured=((), (14,)))
    act(s, 2)  # chok + sseul on the mover's last card (docs/rules/gostop.md §5.9, docs/rules/gostop.md §5.5)
    assert after(s)["captured"] == [[2, 3], [14]]
    s = load(hands=((2,), (10,)), layout=[0, 1], stock=[3], captured=((), (14,)))
    act(s, 2, CHOOSE_START + 1)
    assert after(s)["captured"] == [[0, 1, 2, 3], [14]]


def test_last_turn_still_pays_triple_captures():
    s = load(hands=((2,), (10,)), layout=[0, 1, 3], ppuk_owner={"1": 0}, captured=((), (14, 15)))
    act(s, 2)
    assert after(s)["captured"] == [[0, 1, 2, 3, 14, 15], []]


# --------------------------------------------------------------- three ppuks
def test_third_ppuk_wins_five_at_once():
    s = load(layout=[0, 20], stock=[3], ppuk_count=(2, 0), captured=((40, 41), ()))
    r = act(s, 2)
    assert s.done[0] and r.tolist() == [5.0, -5.0]
    p = after(s)
    assert p["result"] == {"winner": 0, "payout": 5, "reason": "three_ppuk"}
    assert p["ppuk_count"] == [3, 0] and p["ppuk_owner"] == {"1": 0}
    assert G.to_position(G.from_position(p, seed=1), 0) == p  # a finished position loads back


def test_third_ppuk_on_the_last_turn_counts():
    s = load(hands=((2,), (10,)), layout=[0], stock=[3], ppuk_count=(2, 0))
    act(s, 2)
    assert G.result(s, 0)["reason"] == "three_ppuk"  # docs/rules/gostop.md §5.6


# ----------------------------------------------------------------- Go / Stop
EIGHT = [0, 8, 28, 4, 12]  # 3 brights; capturing the Aug geese (29) completes godori: 8


def test_reaching_seven_offers_go_or_stop():
    s = load(hands=((29, 6), (10,)), layout=[30], stock=[24], captured=(EIGHT, (40,)))
    act(s, 29)
    pend = G.pending(s)
    assert pend["decision"] == "go_stop" and pend["legal"] == [GO, STOP] and pend["flipped"] == 24
    r = act(s, GO)
    p = after(s)
    assert r.tolist() == [0, 0] and p["go_count"] == [1, 0] and p["go_score"] == [8, 0]
    assert p["to_move"] == 1


def test_stop_pays_the_settlement():
    s = load(hands=((29, 6), (10,)), layout=[30], stock=[24], captured=(EIGHT, (40,)))
    r = act(s, 29, STOP)
    assert r.tolist() == [8.0, -8.0] and G.result(s, 0) == {"winner": 0, "payout": 8, "reason": "stop"}
    s = load(hands=((29, 6), (10,)), layout=[30], stock=[24], captured=(EIGHT, (2,)))
    assert act(s, 29, STOP).tolist() == [16.0, -16.0]  # gwang-bak


def test_last_turn_stops_automatically():
    s = load(hands=((29,), (10,)), layout=[30], stock=[24], captured=(EIGHT, (40,)))
    r = act(s, 29)  # docs/rules/gostop.md §8.3: no GO_STOP decision on the last turn
    assert s.done[0] and r.tolist() == [8.0, -8.0] and G.result(s, 0)["reason"] == "stop"


def test_after_a_go_the_score_must_exceed_the_go_score():
    base = dict(hands=((2, 45), (46,)), layout=[3], stock=[24], go_count=(1, 0), go_score=(8, 0))
    s = load(captured=(EIGHT + [29], ()), **base)  # 8 -> 8 (junk only): not eligible
    act(s, 2)
    assert G.pending(s)["decision"] == "play" and after(s)["to_move"] == 1
    eight_units = [30, 31, 34, 35, 38, 39, 42, 43]  # +2 captured -> 10 units = 1 point
    s = load(captured=(EIGHT + [29] + eight_units, ()), **base)
    act(s, 2)
    assert G.pending(s)["decision"] == "go_stop"


def test_falling_and_climbing_back_to_the_go_score_is_not_enough():
    # go_score 9, current score 8 (lost junk): a +1 turn reaches 9 again, not above it.
    nine = [6, 7, 10, 11, 14, 15, 18, 19]
    s = load(captured=(EIGHT + [29] + nine, ()), hands=((2, 26), (27,)), layout=[3], stock=[24],
             go_count=(1, 0), go_score=(9, 0))
    act(s, 2)
    assert G.pending(s)["decision"] == "play"


def test_loaded_zero_go_count_with_seven_is_eligible_even_without_gain():
    s = load(captured=(EIGHT + [29], ()), hands=((2, 6), (10,)), layout=[], stock=[24])
    act(s, 2)  # nothing captured, score still 8
    assert G.pending(s)["decision"] == "go_stop"


def test_losing_after_going_pays_the_plain_payout():
    # seat 1 went Go twice earlier; seat 0 stops: seat 1 pays seat 0's payout, no go-bak (docs/rules/gostop.md §9.3)
    s = load(hands=((29, 6), (10,)), layout=[30], stock=[24], captured=(EIGHT, (40, 1, 5, 9)),
             go_count=(0, 2), go_score=(0, 3))
    assert act(s, 29, STOP).tolist() == [8.0, -8.0]


def test_only_the_mover_is_checked():
    # seat 1 already has 8 points and no Go; seat 0's turn never offers seat 1 anything
    s = load(captured=((), EIGHT + [29]), stock=[24])
    act(s, 2)
    assert after(s)["to_move"] == 1 and G.pending(s)["decision"] == "play"


# ------------------------------------------------------------- end of a deal
def test_nagari_when_both_hands_run_out():
    s = load(hands=((2,), ()), layout=[20], stock=[24], go_count=(0, 1), go_score=(0, 7))
    r = act(s, 2)
    assert s.done[0] and r.tolist() == [0, 0]
    assert G.result(s, 0) == {"winner": None, "payout": 0, "reason": "nagari"}  # docs/rules/gostop.md §9.4
    assert after(s)["to_move"] == 0


def test_mover_moves_again_when_the_other_seat_has_no_card():
    s = load(hands=((2, 6), ()), layout=[20], stock=[24])
    act(s, 2)
    assert after(s)["to_move"] == 0


def test_empty_stock_means_no_flip():
    rest = [c for c in range(48) if c not in (0, 2, 6, 10, 20)]
    s = load(layout=[0, 20], stock=[], captured=((), rest))
    act(s, 2)
    p = after(s)
    assert p["stock"] == [] and p["captured"][0] == [0, 2] and p["layout"] == [20]


# ----------------------------------------------------------------- full deal
def test_real_deal_lasts_twenty_turns_when_nobody_stops():
    rng = np.random.default_rng(4)
    for _ in range(30):
        s = G.init([int(rng.integers(1 << 30))])
        plays = 0
        while not s.done[0]:
            mask = G.legal_mask(s)[0]
            a = GO if mask[GO] else int(rng.choice(np.flatnonzero(mask)))
            plays += a < CHOOSE_START
            G.step(s, np.array([a]))
        p = after(s)
        if p["result"]["reason"] == "nagari":
            assert plays == 20 and p["stock"] == [] and p["hands"] == [[], []]
        else:  # only a forced Stop on a last turn or a three-ppuk can end a deal of all-Go players
            assert p["result"]["reason"] in ("stop", "three_ppuk")


# --------------------------------------------------------------------- setup
def _order(first_hand, second_hand, layout):
    """A deal order with these hands and layout (stock: the other cards in id order)."""
    used = set(first_hand) | set(second_hand) | set(layout)
    assert len(used) == 28
    return list(first_hand) + list(second_hand) + list(layout) + [c for c in range(48) if c not in used]


HAND_A = [5, 9, 13, 17, 21, 25, 29, 33, 37, 41]  # no quad, no January
HAND_B = [6, 10, 14, 18, 22, 26, 30, 34, 38, 42]
QUAD_JAN = [0, 1, 2, 3, 9, 13, 17, 21, 25, 29]
QUAD_FEB = [4, 5, 6, 7, 10, 14, 18, 22, 26, 30]


def test_deal_mapping_and_first_player():
    order = _order(HAND_A, HAND_B, [3, 7, 11, 15, 19, 23, 27, 31])
    for first in (0, 1):
        s = G.deal([order], [first])
        p = after(s)
        assert p["to_move"] == first and p["hands"][first] == HAND_A and p["hands"][1 - first] == HAND_B
        assert p["layout"] == [3, 7, 11, 15, 19, 23, 27, 31] and p["stock"] == order[28:]
        assert int(s.redeals[0]) == 0 and not s.done[0]


def test_layout_triple_is_a_dealt_pile_not_a_redeal():
    order = _order(HAND_A, [2] + HAND_B[:9], [0, 1, 3, 7, 11, 15, 19, 23])
    s = G.deal([order], [1])  # seat 1 gets HAND_A; seat 0 holds the 4th January card
    p = after(s)
    assert not s.done[0] and int(s.redeals[0]) == 0 and p["ppuk_owner"] == {}
    piles = G.observe(s, np.array([0]))[0, G.obs_slices["piles"]].reshape(3, 12)
    assert piles[0].tolist() == [1.0] + [0.0] * 11 and not piles[1:].any()
    p["to_move"] = 0
    s = G.from_position(p, seed=0)
    act(s, 2)  # the 4th card takes the whole dealt triple
    assert {0, 1, 2, 3} <= set(after(s)["captured"][0])


@pytest.mark.parametrize(
    "first_hand,second_hand,layout,verdict",
    [
        (HAND_A, HAND_B, [0, 1, 2, 3, 7, 11, 15, 19], REDEAL),  # layout quad (docs/rules/gostop.md §3.3)
        (QUAD_FEB, [31, 35, 39, 43, 44, 45, 46, 47, 11, 15], [0, 1, 2, 3, 8, 12, 16, 20], REDEAL),
        (QUAD_JAN, QUAD_FEB, [8, 11, 12, 15, 16, 19, 20, 23], REDEAL),  # a quad in each hand
        (QUAD_JAN, HAND_B, [4, 7, 8, 11, 12, 15, 16, 19], 0),  # chongtong of P0
        (HAND_B, QUAD_JAN, [4, 7, 8, 11, 12, 15, 16, 19], 1),  # chongtong of P1
        (HAND_A, HAND_B, [0, 1, 3, 7, 11, 15, 19, 23], -1),  # playable
    ],
)
def test_setup_checks(first_hand, second_hand, layout, verdict):
    order = _order(first_hand, second_hand, layout)
    assert classify(np.array([order]))[0] == verdict
    s = G.deal([order], [1], seeds=[3])
    if verdict == REDEAL:  # reshuffled from the stream, same first player
        assert int(s.redeals[0]) >= 1 and after(s)["layout"] != sorted(layout)
        assert s.done[0] or G.pending(s)["to_move"] == 1
    elif verdict >= 0:
        winner = 1 if verdict == 0 else 0  # P0 is seat 1 here
        assert G.result(s, 0) == {"winner": winner, "payout": 5, "reason": "chongtong"}  # docs/rules/gostop.md §3.3
        fr = G.final_rewards(s, 0)
        assert fr[winner] == 5 and fr[1 - winner] == -5
    else:
        assert not s.done[0] and int(s.redeals[0]) == 0


def test_deal_rejects_bad_input():
    good = _order(HAND_A, HAND_B, [3, 7, 11, 15, 19, 23, 27, 31])
    for orders, first in (([good[:-1]], [0]), ([good[:-1] + [0]], [0]), ([good], [2]),
                          ([good], [0, 1]), (good, [0]), ([[float(c) for c in good]], [0])):
        with pytest.raises(ValueError):
            G.deal(orders, first)


def test_random_first_player_and_chongtong_rate():
    s = G.init(np.arange(4000))
    assert 0.45 < (s.to_move == 0).mean() < 0.55  # docs/rules/gostop.md §3.1
    assert not s.done.any()
    rate = s.skipped.sum() / (4000 + s.skipped.sum())
    assert 0.015 < rate < 0.035  # docs/rules/gostop.md §3.3: about 2.5 %


# ------------------------------------------------------ omitted rules (docs/rules/gostop.md §10)
def test_no_bombs_or_side_payments():
    # three cards of a month in hand and one on the layout: playing one takes a pair only
    s = load(hands=((1, 2, 3, 6), (10,)), layout=[0], stock=[24], captured=((), (14,)))
    act(s, 2)
    p = after(s)
    assert p["captured"] == [[0, 2], [14]] and p["hands"][0] == [1, 3, 6]
    # a ppuk in the first turn of the deal earns nothing from the opponent
    s = load(hands=((2, 6), (10,)), layout=[0], stock=[3], captured=((), (14,)))
    act(s, 2)
    assert after(s)["captured"] == [[], [14]]
