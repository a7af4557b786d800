"""Rainbow Dice rules: turn flow, token legality, market, rewards, positions and properties."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from agents.play import play_out
from agents.random_bot import RandomBot
from envs.rainbow_dice import (
    BUY_START, DECLINE, DOWN_START, HAND_IDS, OBS_SLICES, SECOND_START, STOP, TAKE, TOKEN_REROLL_START,
    UP_START, RainbowDice, final_score, satisfied_hands,
)
from envs.rainbow_dice.observation import decode
from envs.rainbow_dice.position import pile_bits

H = {h: i for i, h in enumerate(HAND_IDS)}
PAIR, SIX = H["PAIR"], H["SIX_OF_A_KIND"]


def _pos(players=1, **kw):
    base = {
        "round": 1, "to_move": 0, "phase": "rolling", "dice": [1, 2, 3, 4, 5, 6],
        "free_rerolls_left": 2, "die_actions_used": 0, "tokens": [0] * players,
        "cards": [[0] * 30 for _ in range(players)], "supply": [10] * 30,
    }
    base.update(kw)
    return base


def _state(game=None, **kw):
    game = game or RainbowDice()
    return game, game.from_position(_pos(game.num_players, **kw), seed=0)


def _legal(game, state):
    return set(np.flatnonzero(game.legal_mask(state)[0]).tolist())


# ------------------------------------------------------------------ rolling and tokens
def test_free_rerolls_keep_locked_dice_and_open_the_final_phase():
    g, s = _state(tokens=[0])
    legal = _legal(g, s)
    assert 0 not in legal and set(range(1, 64)) <= legal and STOP in legal and TAKE in legal
    assert not legal & set(range(UP_START, STOP))  # no tokens: no die actions
    g.step(s, np.array([0b101000]))  # reroll G and P
    pos = g.to_position(s)
    assert pos["dice"][:3] == [1, 2, 3] and pos["dice"][4] == 5
    assert pos["phase"] == "rolling" and pos["free_rerolls_left"] == 1
    g.step(s, np.array([1]))
    pos = g.to_position(s)
    assert pos["phase"] == "final" and pos["free_rerolls_left"] == 0 and pos["dice"][1:3] == [2, 3]
    assert not _legal(g, s) & set(range(64)) and STOP not in _legal(g, s)


def test_stop_forfeits_rerolls_and_opens_token_rerolls():
    g, s = _state(tokens=[2])
    assert not _legal(g, s) & set(range(TOKEN_REROLL_START, STOP))  # no token rerolls while rolling
    g.step(s, np.array([STOP]))
    pos = g.to_position(s)
    assert pos["phase"] == "final" and pos["free_rerolls_left"] == 0
    assert set(range(TOKEN_REROLL_START, STOP)) <= _legal(g, s)
    r = g.step(s, np.array([TOKEN_REROLL_START + 2]))  # reroll Yellow for a token
    pos = g.to_position(s)
    assert pos["tokens"] == [1] and pos["die_actions_used"] == 1 and r[0, 0] == -3
    assert pos["dice"][:2] == [1, 2] and pos["dice"][3:] == [4, 5, 6]


def test_adjustments_never_wrap_and_cost_a_token():
    g, s = _state(tokens=[5], dice=[1, 6, 3, 1, 6, 2])
    legal = _legal(g, s)
    assert {UP_START + i for i in range(6)} & legal == {UP_START + i for i in (0, 2, 3, 5)}
    assert {DOWN_START + i for i in range(6)} & legal == {DOWN_START + i for i in (1, 2, 4, 5)}
    r = g.step(s, np.array([UP_START + 0]))  # allowed while rolling (docs/rules/rainbow_dice.md §6)
    pos = g.to_position(s)
    assert pos["dice"] == [2, 6, 3, 1, 6, 2] and pos["tokens"] == [4] and pos["die_actions_used"] == 1
    assert pos["phase"] == "rolling" and pos["free_rerolls_left"] == 2 and r[0, 0] == -3
    g.step(s, np.array([UP_START + 0]))  # the same die again
    assert g.to_position(s)["dice"][0] == 3


def test_three_die_actions_per_turn_cap():
    g, s = _state(tokens=[9], phase="final", free_rerolls_left=0, die_actions_used=2)
    assert set(range(UP_START, STOP)) & _legal(g, s)
    g.step(s, np.array([DOWN_START + 5]))
    legal = _legal(g, s)
    assert not legal & set(range(UP_START, STOP)) and TAKE in legal
    assert g.to_position(s)["tokens"] == [8]


def test_no_tokens_no_die_actions():
    g, s = _state(tokens=[0], phase="final", free_rerolls_left=0)
    assert _legal(g, s) == {BUY_START + h for h in np.flatnonzero(satisfied_hands([1, 2, 3, 4, 5, 6]))} | {TAKE}


# ------------------------------------------------------------------ market
def test_buy_ends_the_turn_with_the_end_of_turn_token():
    g, s = _state(g := RainbowDice(num_players=2), tokens=[2, 0], dice=[4, 4, 4, 4, 4, 1])
    assert BUY_START + H["FIVE_OF_A_KIND"] in _legal(g, s)  # buying while rolling forfeits rerolls
    r = g.step(s, np.array([BUY_START + H["FIVE_OF_A_KIND"]]))
    pos = g.to_position(s)
    assert pos["cards"][0][H["FIVE_OF_A_KIND"]] == 1 and pos["supply"][H["FIVE_OF_A_KIND"]] == 9
    assert pos["tokens"] == [3, 0] and pos["to_move"] == 1 and pos["round"] == 1
    assert pos["phase"] == "rolling" and pos["free_rerolls_left"] == 2 and pos["die_actions_used"] == 0
    assert r[0].tolist() == [36 + 3, 0]  # card score + end-of-turn token


def test_take_tokens_one_then_two_from_round_seven():
    for rnd, gain in ((6, 1), (7, 2), (12, 2)):
        g, s = _state(round=rnd, tokens=[4])
        r = g.step(s, np.array([TAKE]))
        assert g.to_position(s)["tokens"] == [4 + gain + 1] and r[0, 0] == 3 * (gain + 1)


def test_second_card_same_type_costs_three_tokens_outside_the_cap():
    g, s = _state(tokens=[3], phase="final", free_rerolls_left=0, die_actions_used=3, dice=[6] * 6)
    g.step(s, np.array([BUY_START + SIX]))
    assert g.to_position(s)["phase"] == "second_card"
    legal = _legal(g, s)
    assert SECOND_START + SIX in legal and DECLINE in legal and SECOND_START + H["TWO_PAIR"] not in legal
    assert not legal & set(range(SECOND_START))
    r = g.step(s, np.array([SECOND_START + SIX]))
    pos = g.to_position(s)
    assert pos["cards"][0][SIX] == 2 and pos["supply"][SIX] == 8 and pos["tokens"] == [1]
    assert r[0, 0] == 2 * 115 - 9 + 3  # duplicate bonus, 3 tokens paid, end-of-turn token
    assert pos["round"] == 2 and pos["phase"] == "rolling"


def test_second_card_not_offered_without_three_tokens_or_a_copy():
    g, s = _state(tokens=[2], phase="final", free_rerolls_left=0, dice=[6] * 6)
    g.step(s, np.array([BUY_START + SIX]))
    assert g.to_position(s)["phase"] == "rolling" and g.to_position(s)["round"] == 2
    # Only Six of a Kind's last copy is satisfied... and it is gone after the first card.
    supply = [0] * 30
    supply[SIX] = 1
    g, s = _state(tokens=[5], phase="final", free_rerolls_left=0, die_actions_used=3, dice=[6] * 6, supply=supply)
    assert _legal(g, s) == {BUY_START + SIX, TAKE}
    g.step(s, np.array([BUY_START + SIX]))
    pos = g.to_position(s)
    assert pos["round"] == 2 and pos["tokens"] == [6] and pos["supply"][SIX] == 0


def test_empty_piles_and_forced_take():
    supply = [10] * 30
    for h in np.flatnonzero(satisfied_hands([1, 2, 3, 4, 5, 6])):
        supply[h] = 0
    g, s = _state(tokens=[0], phase="final", free_rerolls_left=0, supply=supply)
    assert _legal(g, s) == {TAKE}
    g, s = _state(tokens=[0], supply=supply)
    assert not _legal(g, s) & set(range(BUY_START, TAKE))


def test_shared_supply_between_players():
    g, s = _state(g := RainbowDice(num_players=2, copies_per_hand=2), dice=[6] * 6, tokens=[0, 0],
                  supply=[2] * 30)
    g.step(s, np.array([BUY_START + SIX]))
    pos = g.to_position(s)  # seat 1 now rolls; give it the same dice through a position
    pos.update(dice=[6] * 6)
    s = g.from_position(pos, seed=0)
    g.step(s, np.array([BUY_START + SIX]))
    pos = g.to_position(s)
    assert pos["supply"][SIX] == 0 and [c[SIX] for c in pos["cards"]] == [1, 1]
    pos.update(dice=[6] * 6, phase="final", free_rerolls_left=0)
    assert BUY_START + SIX not in _legal(g, g.from_position(pos, seed=0))


def test_unlimited_supply():
    g = RainbowDice(copies_per_hand=None)
    s = g.from_position(_pos(dice=[6] * 6, cards=[[0] * 29 + [0]], supply=None, tokens=[30]), seed=0)
    for _ in range(5):
        g.step(s, np.array([BUY_START + SIX]))
        g.step(s, np.array([SECOND_START + SIX]))
        pos = g.to_position(s)
        pos.update(dice=[6] * 6)
        s = g.from_position(pos, seed=0)
    assert pos["supply"] is None and pos["cards"][0][SIX] == 10


# ------------------------------------------------------------------ turn order, end, rewards
def test_turn_order_rounds_and_game_end():
    g = RainbowDice(num_players=3)
    s = g.init([4])
    seen = []
    while not s.done[0]:
        seen.append((int(s.round[0]), int(s.to_move[0])))
        g.step(s, np.array([TAKE]))
    assert seen == [(r, p) for r in range(1, 13) for p in range(3)]
    pos = g.to_position(s)
    assert pos["phase"] == "game_over" and pos["round"] == 12 and pos["to_move"] == 2
    assert pos["tokens"] == [6 * 2 + 6 * 3] * 3 and not g.legal_mask(s).any()
    assert g.result(s) == {"scores": [90, 90, 90]}  # docs/rules/rainbow_dice.md §11: only-take-tokens scores 90


def test_score_rewards_sum_to_final_scores():
    g = RainbowDice(num_players=2, start_tokens=2)
    s = g.init(np.arange(60))
    total = play_out(g, s, [RandomBot()] * 2, np.random.default_rng(0))
    finals = [[final_score(c, t) for c, t in zip(s.cards[i], s.tokens[i])] for i in range(60)]
    # Rewards are changes of the total, so the 2 starting tokens (6 points) are not paid out.
    np.testing.assert_array_equal(total, np.array(finals) - 6)


def test_win_rewards_shared():
    g = RainbowDice(num_players=3, reward="win")
    s = g.init([1])
    rewards = []
    while not s.done[0]:
        rewards.append(g.step(s, np.array([TAKE]))[0])
    assert not np.any(rewards[:-1]) and rewards[-1].tolist() == [0, 0, 0]  # three-way tie
    pos = _pos(3, round=12, to_move=2, tokens=[0, 5, 5], phase="final", free_rerolls_left=0)
    s = g.from_position(pos, seed=0)
    np.testing.assert_allclose(g.step(s, np.array([TAKE]))[0], [-0.5, -0.5, 1.0])  # seat 2 ends on 8 tokens
    s = g.from_position({**pos, "tokens": [0, 9, 6]}, seed=0)
    np.testing.assert_allclose(g.step(s, np.array([TAKE]))[0], [-1.0, 0.5, 0.5])
    with pytest.raises(ValueError):
        RainbowDice(num_players=1, reward="win")


def test_illegal_actions_raise_and_change_nothing():
    g, s = _state(tokens=[0])
    before = s.copy()
    for a in (0, UP_START, TOKEN_REROLL_START, SECOND_START, DECLINE, BUY_START + SIX):
        with pytest.raises(ValueError, match="illegal action"):
            g.step(s, np.array([a]))
        assert s.equals(before)


# ------------------------------------------------------------------ observation
def test_observation_slices_and_decode():
    g = RainbowDice(num_players=2, copies_per_hand=3)
    cards = [[0] * 30, [0] * 30]
    cards[1][SIX] = 2
    supply = [3] * 30
    supply[SIX] = 1
    s = g.from_position(_pos(2, to_move=1, round=7, dice=[2, 2, 2, 2, 2, 2], tokens=[4, 1], cards=cards,
                             supply=supply, free_rerolls_left=1, die_actions_used=2), seed=0)
    obs = g.observe(s)[0]
    sl = OBS_SLICES
    assert obs[sl["dice"]].reshape(6, 6)[:, 1].all() and obs[sl["dice"]].sum() == 6
    np.testing.assert_array_equal(obs[sl["satisfied"]], satisfied_hands([2] * 6))
    assert obs[sl["phase"]].tolist() == [1, 0, 0] and obs[sl["free_rerolls"]].tolist() == [0, 1, 0]
    assert obs[sl["die_actions"]].tolist() == [0, 0, 1, 0] and obs[sl["round"]][0] == pytest.approx(6 / 11)
    info = decode(obs[None])
    assert info["tokens"][0] == 1 and info["cards"][0][SIX] == 2 and info["supply"][0][SIX] == 1
    assert info["round"][0] == 7 and info["num_players"][0] == 2 and info["dice"][0].tolist() == [2] * 6
    seat0 = decode(g.observe(s, np.array([0])))
    assert seat0["tokens"][0] == 4 and seat0["cards"][0].sum() == 0


def test_observation_gain_and_reach_slices():
    from envs.rainbow_dice.scoring import totals
    from envs.rainbow_dice.turn_dp import reach_probabilities

    g = RainbowDice(num_players=2, copies_per_hand=3)
    cards = [[0] * 30, [0] * 30]
    cards[1][SIX], cards[1][H["RIPPLE"]] = 2, 1
    supply = [3] * 30
    supply[SIX], supply[H["RIPPLE"]], supply[PAIR] = 1, 2, 0
    pos = _pos(2, to_move=1, round=7, dice=[2, 2, 2, 2, 3, 2], tokens=[4, 1], cards=cards, supply=supply,
               free_rerolls_left=1, die_actions_used=2)
    s = g.from_position(pos, seed=0)
    obs = g.observe(s)[0]
    # gain: sqrt of the final-score points (docs/rules/rainbow_dice.md §7) one more card adds (by totals()), 0 for
    # the empty Pair pile.
    own = np.array(cards[1])
    plus = own + np.eye(30, dtype=int)
    want = np.sqrt((totals(plus, 0) - totals(own, 0)) / 1296) * (np.array(supply) > 0)
    np.testing.assert_allclose(obs[OBS_SLICES["gain"]], want, atol=1e-6)
    assert obs[OBS_SLICES["gain"]][SIX] > obs[OBS_SLICES["gain"]][H["DOUBLE_RAINBOW"]]
    # reach: the table at one free reroll and min(1 token, 3 - 2 used) = 1 die action.
    code = int(np.dot(np.array(pos["dice"]) - 1, 6 ** np.arange(6)))
    want = np.rint(reach_probabilities()[1, 1, code] * 255) / 255
    np.testing.assert_allclose(obs[OBS_SLICES["reach"]], want, atol=1e-6)
    assert obs[OBS_SLICES["reach"]][SIX] == 1.0  # one +-1 step makes six 2s
    # Seat 0 holds no card: its gain of Six of a Kind is the printed 115.
    seat0 = g.observe(s, np.array([0]))[0]
    np.testing.assert_allclose(seat0[OBS_SLICES["gain"]][SIX] ** 2 * 1296, 115)
    # In the second-card phase the dice are final: reach is the satisfied hands.
    s2 = g.from_position({**pos, "phase": "second_card", "free_rerolls_left": 0, "tokens": [4, 3]}, seed=0)
    np.testing.assert_array_equal(g.observe(s2)[0][OBS_SLICES["reach"]], satisfied_hands(pos["dice"]))


# ------------------------------------------------------------------ positions
@pytest.mark.parametrize(
    "change,msg",
    [
        (dict(dice=[1, 2, 3, 4, 5]), "dice"), (dict(dice=[0, 1, 2, 3, 4, 5]), "dice"),
        (dict(dice=[1, 2, 3, 4, 5, 7]), "dice"), (dict(dice=[1, 2, 3, 4, 5, 6.0]), "dice"),
        (dict(round=0), "round"), (dict(round=13), "round"), (dict(round=True), "round"),
        (dict(phase="dice"), "phase"), (dict(free_rerolls_left=0), "free_rerolls_left"),
        (dict(free_rerolls_left=3), "free_rerolls_left"),
        (dict(phase="final"), "free_rerolls_left"), (dict(phase="second_card"), "free_rerolls_left"),
        (dict(die_actions_used=4), "die_actions_used"), (dict(die_actions_used=-1), "die_actions_used"),
        (dict(tokens=[-1]), "tokens"), (dict(tokens=[0, 0]), "tokens"), (dict(tokens=0), "tokens"),
        (dict(cards=[[0] * 29]), "cards"), (dict(cards=[[0] * 30, [0] * 30]), "cards"),
        (dict(cards=[[-1] + [0] * 29]), "cards"), (dict(supply=None), "supply"),
        (dict(supply=[10] * 29), "supply"), (dict(supply=[11] + [10] * 29), "copies_per_hand"),
        (dict(cards=[[1] + [0] * 29]), "copies_per_hand"), (dict(to_move=1), "to_move"),
        (dict(phase="second_card", free_rerolls_left=0, tokens=[2]), "second_card"),
    ],
)
def test_invalid_positions_name_the_problem(change, msg):
    with pytest.raises(ValueError, match=msg):
        RainbowDice().from_position(_pos(**change))


def test_second_card_position_needs_a_buyable_copy_and_unlimited_needs_null_supply():
    supply = [10] * 30
    for h in np.flatnonzero(satisfied_hands([1, 2, 3, 4, 5, 6])):
        supply[h] = 0
    with pytest.raises(ValueError, match="second_card"):
        RainbowDice().from_position(_pos(phase="second_card", free_rerolls_left=0, tokens=[3], supply=supply))
    with pytest.raises(ValueError, match="null"):
        RainbowDice(copies_per_hand=None).from_position(_pos())
    with pytest.raises(ValueError):
        RainbowDice(copies_per_hand=0)


def test_unreachable_but_consistent_positions_accepted():
    g = RainbowDice(num_players=2, copies_per_hand=4)
    cards = [[4] + [0] * 29, [0] * 30]
    s = g.from_position(_pos(2, round=3, cards=cards, supply=[0] + [4] * 29, tokens=[100, 0]), seed=1)
    pos = g.to_position(s)
    assert pos["cards"] == cards and pos["tokens"] == [100, 0]
    assert g.result(s)["scores"][0] == final_score(cards[0], 100)


# ------------------------------------------------------------------ properties
@given(
    seed=st.integers(0, 2**63 - 1), players=st.integers(1, 4), copies=st.sampled_from([1, 2, 10, None]),
    start=st.integers(0, 6), picks=st.lists(st.integers(0, 10**6), min_size=1, max_size=150),
)
def test_property_random_play(seed, players, copies, start, picks):
    """Tokens never negative, supply conserved across players, masks never empty, scores cached right."""
    g = RainbowDice(num_players=players, copies_per_hand=copies, start_tokens=start)
    s = g.init([seed])
    for p in picks:
        if s.done[0]:
            assert not g.legal_mask(s).any()
            break
        legal = np.flatnonzero(g.legal_mask(s)[0])
        assert legal.size > 0
        g.step(s, np.array([legal[p % legal.size]]))
        pos = g.to_position(s)
        assert min(pos["tokens"]) >= 0 and 0 <= pos["die_actions_used"] <= 3
        held = np.array(pos["cards"]).sum(axis=0)
        if copies is not None:
            assert (held + np.array(pos["supply"]) == copies).all()
            assert s.piles[0] == pile_bits(np.array(pos["supply"]))
        assert g.result(s)["scores"] == [final_score(c, t) for c, t in zip(pos["cards"], pos["tokens"])]
        assert (pos["phase"] == "rolling") == (pos["free_rerolls_left"] > 0)
