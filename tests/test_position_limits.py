"""Edge values of positions and configs: no overflow, and whatever the engine reaches loads again.

Rainbow Dice bounds what a seat may hold by the game clock (at most
``MAX_COUNT`` copies of a hand plus 2 per completed turn, ``MAX_TOKENS`` tokens plus 3
per completed turn), which play can never exceed; Go-Stop bounds ``go_count`` plus the
cards in hand (a Go always follows a turn that played a card) and pays in integers.
"""

from __future__ import annotations

import copy

import numpy as np
import pytest

from agents.play import play_out
from agents.random_bot import RandomBot
from envs.core.sampling import sample_legal
from envs.gostop import GO, GoStop, stop_settlement
from envs.gostop.position import GO_BUDGET
from envs.rainbow_dice import BUY_START, TAKE, RainbowDice
from envs.rainbow_dice.hands import HAND_RANKS
from envs.rainbow_dice.position import MAX_COUNT, MAX_TOKENS
from envs.rainbow_dice.scoring import final_score

BLUE = np.flatnonzero(HAND_RANKS == 0)  # the six Blue hands (PAIR first)


def _rainbow_pos(players=1, **kw):
    base = {"round": 1, "to_move": 0, "phase": "rolling", "dice": [1, 1, 2, 3, 4, 6],
            "free_rerolls_left": 2, "die_actions_used": 0, "tokens": [0] * players,
            "cards": [[0] * 30 for _ in range(players)], "supply": None}
    base.update(kw)
    return base


def _round_trips(game, state, i=0):
    pos = game.to_position(state, i)
    again = game.from_position(copy.deepcopy(pos), seed=0)
    assert game.to_position(again, 0) == pos
    return pos


# ----------------------------------------------------------------------- Rainbow Dice
def test_thousands_of_one_rank_neither_overflow_nor_break_a_buy():
    game = RainbowDice(copies_per_hand=None)
    cards = [0] * 30
    for h in BLUE:
        cards[h] = MAX_COUNT  # 6 x 9999 Blue cards: more than an int16 holds
    state = game.from_position(_rainbow_pos(cards=[cards]), seed=0)
    obs = game.observe(state)
    assert obs.min() >= 0.0 and obs.max() <= 1.0
    assert int(state.rank_cards[0, 0, 0]) == 6 * MAX_COUNT
    counter = state.rng_counter.copy()
    buy = BUY_START + int(BLUE[0])
    assert game.legal_mask(state)[0, buy]
    reward = game.step(state, np.array([buy]))[0, 0]
    assert state.rng_counter[0] == counter[0] + 1
    bought = list(cards)
    bought[BLUE[0]] += 1
    assert reward == final_score(bought, 1) - final_score(cards, 0)
    assert game.result(state)["scores"] == [final_score(bought, 1)]
    _round_trips(game, state)


@pytest.mark.parametrize("copies", [None, 10])
def test_rainbow_positions_the_engine_reaches_load_again(copies):
    """Start at every limit (tokens, copies) and play whole games; every export loads."""
    game = RainbowDice(num_players=2, copies_per_hand=copies, start_tokens=MAX_TOKENS)
    rng = np.random.default_rng(0)
    for seed in range(3):
        state = game.init([seed])
        if copies is None:
            pos = game.to_position(state)
            pos["cards"] = [[MAX_COUNT] * 30, [MAX_COUNT] * 30]
            state = game.from_position(pos, seed=seed)
        while not state.done[0]:
            _round_trips(game, state)
            mask = game.legal_mask(state)
            take = mask[0, TAKE] and rng.random() < 0.7  # mostly hoard tokens, to pass the start limit
            game.step(state, np.array([TAKE]) if take else sample_legal(mask, rng))
        pos = _round_trips(game, state)
        assert pos["phase"] == "game_over" and max(pos["tokens"]) > MAX_TOKENS


def test_rainbow_limits_follow_the_game_clock():
    game = RainbowDice(num_players=2, copies_per_hand=None)
    # Round 3, seat 1 to move: seat 0 has completed 3 turns, seat 1 two.
    ok = _rainbow_pos(2, round=3, to_move=1, tokens=[MAX_TOKENS + 9, MAX_TOKENS + 6],
                      cards=[[MAX_COUNT + 6] + [0] * 29, [MAX_COUNT + 4] + [0] * 29])
    game.from_position(ok)
    for change, msg in (
        (dict(tokens=[MAX_TOKENS + 10, 0]), "tokens\\[0\\]"),
        (dict(tokens=[0, MAX_TOKENS + 7]), "tokens\\[1\\]"),
        (dict(cards=[[MAX_COUNT + 7] + [0] * 29, [0] * 30]), "cards\\[0\\]"),
        (dict(cards=[[0] * 30, [MAX_COUNT + 5] + [0] * 29]), "cards\\[1\\]"),
    ):
        with pytest.raises(ValueError, match=msg):
            game.from_position({**ok, **change})
    with pytest.raises(ValueError, match="start_tokens"):
        RainbowDice(start_tokens=MAX_TOKENS + 1)


def test_a_second_card_decision_allows_the_copy_just_bought():
    game = RainbowDice(copies_per_hand=None)
    pos = _rainbow_pos(phase="second_card", free_rerolls_left=0, tokens=[3],
                       cards=[[MAX_COUNT + 1] + [0] * 29])
    state = game.from_position(pos)
    game.step(state, np.array([int(np.flatnonzero(game.legal_mask(state)[0])[0])]))
    _round_trips(game, state)


# ---------------------------------------------------------------------------- Go-Stop
def _gostop_pos(**kw):
    base = {"to_move": 0, "hands": [[29, 6], [10]], "layout": [30], "ppuk_owner": {}, "stock": [24],
            "captured": [[0, 8, 28, 4, 12], [40]], "go_count": [0, 0], "go_score": [0, 0],
            "ppuk_count": [0, 0]}
    base.update(kw)
    return base


def test_go_count_is_bounded_with_the_hand_and_every_go_reloads():
    game = GoStop()
    hand = [c for c in range(48) if c not in (30, 24, 0, 8, 28, 4, 12, 40, 10)]
    go = GO_BUDGET - len(hand)
    pos = _gostop_pos(hands=[hand, [10]], go_count=[go, 0], go_score=[8, 0])
    state = game.from_position(pos, seed=0)
    with pytest.raises(ValueError, match="go_count"):
        game.from_position(_gostop_pos(hands=[hand, [10]], go_count=[go + 1, 0], go_score=[8, 0]))
    with pytest.raises(ValueError, match="go_count"):
        game.from_position(_gostop_pos(go_count=[1000, 0], go_score=[8, 0]))
    # Mostly-Go random play from the limit: every position on the way loads again.
    rng = np.random.default_rng(0)
    states = [game.from_position(pos, seed=s) for s in range(20)]
    for s in states:
        while not s.done[0]:
            if s.phase[0] == 0:
                _round_trips(game, s)
            mask = game.legal_mask(s)
            a = GO if mask[0, GO] and rng.random() < 0.95 else int(sample_legal(mask, rng)[0])
            game.step(s, np.array([a]))
        _round_trips(game, s)
    assert max(int(s.go_count[0].max()) for s in states) > go


def test_payouts_are_exact_integers_at_the_go_limit():
    brights = [0, 8, 28, 40, 44]  # 15 points of brights
    g = GO_BUDGET
    res = stop_settlement(brights, [], g)
    assert res["payout"] == 15 * 2 ** (g - 2) * 2  # gwang-bak doubles
    assert isinstance(res["payout"], int) and res["value"] == 15 * 2 ** (g - 2)
    with pytest.raises(ValueError, match="go_count"):
        stop_settlement(brights, [], g + 1)
    with pytest.raises(ValueError, match="go_count"):
        stop_settlement(brights, [], 1.5)
    # The batched core pays the same exact integer in its result and a finite reward.
    game = GoStop()
    pos = _gostop_pos(hands=[[29], [10]], captured=[brights + [4, 12], []], go_count=[GO_BUDGET - 1, 0],
                      go_score=[1, 0])
    state = game.from_position(pos, seed=0)
    reward = game.step(state, np.array([29]))[0]  # the last card: a forced Stop
    result = game.result(state)
    assert result["reason"] == "stop" and isinstance(result["payout"], int)
    assert result["payout"] == stop_settlement(brights + [4, 12, 29, 30], [], GO_BUDGET - 1)["payout"]
    assert np.isfinite(reward).all() and reward[0] == pytest.approx(result["payout"])
    _round_trips(game, state)


def test_random_play_reaches_only_loadable_gostop_positions():
    game = GoStop()
    state = game.init(np.arange(64))
    play_out(game, state, [RandomBot(), RandomBot()], np.random.default_rng(0))
    for i in range(64):
        _round_trips(game, state, i)
