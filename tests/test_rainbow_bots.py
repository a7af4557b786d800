"""Rainbow Dice bots: the greedy planner against an independent brute-force reference, and play levels."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import agents
from agents.play import play_out
from agents.rainbow_value import PATTERN_OF, Holdings, end_values
from envs.rainbow_dice import (
    BUY_START, DECLINE, DOWN_START, SECOND_START, STOP, TAKE, TOKEN_REROLL_START, UP_START, RainbowDice,
)
from envs.rainbow_dice.hands import ALL_DICE, PLACE, SATISFIED, dice_code
from envs.rainbow_dice.scoring import totals

PAIRS = [(a, b) for a in range(30) for b in range(a, 30)]

pytestmark = pytest.mark.slow


def reference_end(cards, supply, tokens, token_value, take) -> np.ndarray:
    """(46656,) value of ending the dice phase on every code, by enumerating every purchase with totals()."""
    cards, supply = np.asarray(cards), np.asarray(supply)
    base = totals(cards, 0)
    plus = np.repeat(cards[None], 30, axis=0) + np.eye(30, dtype=int)
    single = np.where(supply >= 1, totals(plus, 0) - base, -np.inf)
    best = np.maximum(np.where(SATISFIED, single, -np.inf).max(axis=1), take * token_value)
    if tokens >= 3:
        a, b = np.array(PAIRS).T
        two = cards + np.eye(30, dtype=int)[a] + np.eye(30, dtype=int)[b]
        ok = np.where(a == b, supply[a] >= 2, (supply[a] >= 1) & (supply[b] >= 1))
        pair = np.where(ok, totals(two, 0) - base, -np.inf) - 3 * token_value
        best = np.maximum(best, np.where(SATISFIED[:, a] & SATISFIED[:, b], pair, -np.inf).max(axis=1))
    return best


def _mean_over(table, dice):
    """Expected ``table`` (46656,) after rerolling ``dice``, broadcast back to every code (direct mean)."""
    t = table.reshape((6,) * 6)  # axis 5 - i is die i
    m = t.mean(axis=tuple(5 - i for i in dice), keepdims=True)
    return np.broadcast_to(m, t.shape).reshape(-1)


DIGITS = ALL_DICE.astype(np.int64) - 1
CODES = np.arange(46656)


def _shift(table, i, step):
    """table[code with die i moved by step] where that stays in 1..6, else -inf."""
    ok = (DIGITS[:, i] + step >= 0) & (DIGITS[:, i] + step <= 5)
    return np.where(ok, table[np.where(ok, CODES + step * PLACE[i], CODES)], -np.inf)


def reference_turn(end_levels, free):
    """W0, W1, W2 tables per level, straight from the rules (every option spelled out)."""
    L = len(end_levels)
    W = [[None] * L for _ in range(3)]
    for j in reversed(range(L)):
        w0 = end_levels[j].copy()
        if j + 1 < L:
            for i in range(6):
                w0 = np.maximum(w0, np.maximum(_shift(W[0][j + 1], i, 1), _shift(W[0][j + 1], i, -1)))
                w0 = np.maximum(w0, _mean_over(W[0][j + 1], [i]))
        W[0][j] = w0
        for f in (1, 2):
            if f > free:
                break
            w = W[0][j].copy()  # stop
            for m in range(1, 64):
                w = np.maximum(w, _mean_over(W[f - 1][j], [i for i in range(6) if m >> i & 1]))
            if j + 1 < L:
                for i in range(6):
                    w = np.maximum(w, np.maximum(_shift(W[f][j + 1], i, 1), _shift(W[f][j + 1], i, -1)))
            W[f][j] = w
    return W


def test_reach_table_matches_the_reference_turn():
    from envs.rainbow_dice.hands import HAND_INDEX
    from envs.rainbow_dice.turn_dp import reach_probabilities

    reach = reach_probabilities()
    for h in (HAND_INDEX["RAINBOW_ENDS"], HAND_INDEX["FULL_STRAIGHT"]):
        W = reference_turn([SATISFIED[:, h].astype(np.float64)] * 3, free=2)  # up to 2 die actions
        for f in range(3):
            for budget in range(3):
                np.testing.assert_allclose(reach[f, budget, :, h], W[f][2 - budget], atol=1e-5)


def test_end_values_match_enumeration():
    rng = np.random.default_rng(0)
    for _ in range(4):
        cards = rng.integers(0, 6, size=30) * (rng.random(30) < 0.4)
        supply = rng.integers(0, 4, size=30)
        h = Holdings(cards[None], supply[None])
        best1, best2 = h.pattern_values()
        for tokens in (2, 3, 7):
            tv = np.array([5.0])
            got = end_values(best1, best2, np.array([tokens]), tv, tv * 2)[0, PATTERN_OF]
            np.testing.assert_allclose(got, reference_end(cards, supply, tokens, 5.0, 2), rtol=0, atol=1e-4)


@pytest.mark.parametrize(
    "phase,free,used,tokens,seed",
    [("rolling", 2, 0, 2, 0), ("rolling", 2, 1, 5, 1), ("rolling", 1, 0, 1, 2), ("rolling", 1, 2, 4, 3),
     ("final", 0, 0, 3, 4), ("final", 0, 1, 9, 5), ("final", 0, 0, 0, 6), ("rolling", 2, 3, 4, 7)],
)
def test_greedy_action_values_match_brute_force(phase, free, used, tokens, seed):
    rng = np.random.default_rng(seed)
    cards = (rng.integers(0, 4, size=30) * (rng.random(30) < 0.3)).tolist()
    supply = [int(max(0, 6 - c - rng.integers(0, 3))) for c in cards]
    dice = rng.integers(1, 7, size=6).tolist()
    rnd = int(rng.integers(1, 13))
    g = RainbowDice(copies_per_hand=6)
    s = g.from_position({"round": rnd, "to_move": 0, "phase": phase, "dice": dice, "free_rerolls_left": free,
                         "die_actions_used": used, "tokens": [tokens], "cards": [cards], "supply": supply}, seed=0)
    bot = agents.load("rainbow-greedy", token_value=6.0)
    got = bot.action_values(g.observe(s))[0]
    mask = g.legal_mask(s)[0]

    tv = 3.0 if rnd == 12 else 6.0
    take = tv * (2 if rnd >= 7 else 1)
    levels = min(3 - used, tokens) + 1
    ends = [reference_end(cards, supply, tokens - j, tv, take / tv) - tv * j for j in range(levels)]
    W = reference_turn(ends, free)
    x = int(dice_code(dice))
    want = np.full(145, np.nan)
    want[TAKE] = take
    for h in np.flatnonzero(mask[BUY_START:TAKE]):
        plus = np.array(cards)
        plus[h] += 1
        gain = totals(plus, 0) - totals(cards, 0)
        second = 0.0
        if tokens >= 3:
            left = np.array(supply)
            left[h] -= 1
            for h2 in np.flatnonzero(SATISFIED[x] & (left > 0)):
                two = plus.copy()
                two[h2] += 1
                second = max(second, totals(two, 0) - totals(plus, 0) - 3 * tv)
        want[BUY_START + h] = gain + second
    if free:
        want[STOP] = W[0][0][x]
        for m in range(1, 64):
            want[m] = _mean_over(W[free - 1][0], [i for i in range(6) if m >> i & 1])[x]
    if levels > 1:
        for i in range(6):
            want[UP_START + i] = _shift(W[free][1], i, 1)[x]
            want[DOWN_START + i] = _shift(W[free][1], i, -1)[x]
            if not free:
                want[TOKEN_REROLL_START + i] = _mean_over(W[0][1], [i])[x]
    assert not np.isnan(want[mask]).any()  # every legal action has a reference value
    np.testing.assert_allclose(got[mask], want[mask], rtol=0, atol=2e-3)


def play(bot, n, seed=0, **config):
    """Final (n, P) scores of ``n`` games with ``bot`` in every seat, played in one batch."""
    g = RainbowDice(**config)
    s = g.init(np.arange(seed, seed + n))
    play_out(g, s, [bot], np.random.default_rng(seed), np.zeros((n, g.num_players), int))
    return s.score


def test_greedy_solo_reference_level():
    scores = play(agents.load("rainbow-greedy"), 24, seed=11, copies_per_hand=None)[:, 0]
    # docs/rules/rainbow_dice.md §11: about 1226 (token value 8); the simple bot and random play are far
    # below.
    assert 1000 < scores.mean() < 1550, scores.mean()
    simple = play(agents.load("rainbow-simple"), 400, copies_per_hand=None)[:, 0]
    rand = play(agents.load("random"), 400, copies_per_hand=None)[:, 0]
    assert 400 < simple.mean() < 600 and 60 < rand.mean() < 120
    assert scores.mean() > simple.mean() + 400


@pytest.mark.parametrize("name", ["rainbow-greedy", "rainbow-simple", "random"])
@pytest.mark.parametrize("players,copies", [(2, 2), (4, 10)])
def test_bots_play_legal_multiplayer_games(name, players, copies):
    n = 2 if name == "rainbow-greedy" else 40
    scores = play(agents.load(name), n, num_players=players, copies_per_hand=copies)
    assert scores.shape == (n, players)


def test_second_card_decisions():
    bot = agents.load("rainbow-greedy")
    g = RainbowDice()
    pos = {"round": 5, "to_move": 0, "phase": "second_card", "dice": [6] * 6, "free_rerolls_left": 0,
           "die_actions_used": 0, "tokens": [3], "cards": [[0] * 28 + [1, 0]], "supply": [10] * 28 + [9, 10]}
    s = g.from_position(pos, seed=0)
    assert bot.act(g.observe(s), g.legal_mask(s), None)[0] == SECOND_START + 28  # 2nd Six of a Kind: +230
    pos.update(dice=[3, 1, 6, 2, 2, 5], cards=[[0] * 30], supply=[10] * 30)  # Pair, Warm Glow, Balance
    s = g.from_position(pos, seed=0)
    assert bot.act(g.observe(s), g.legal_mask(s), None)[0] == DECLINE  # a Blue card is not worth 3 tokens


def test_greedy_as_env_opponent_and_bad_input():
    import gymnasium as gym

    env = gym.make("madang/RainbowDice-v0", num_players=2, opponents="rainbow-greedy")
    obs, info = env.reset(seed=0)
    for _ in range(30):
        obs, r, done, _, info = env.step(int(np.flatnonzero(info["action_mask"])[-1]))
        if done:
            break
    bot = agents.load("rainbow-greedy")
    with pytest.raises(ValueError):
        bot.act(np.zeros((1, 10), np.float32), np.ones((1, 145), bool), None)
    with pytest.raises(ValueError):
        bot.check_game("yacht")
    with pytest.raises(ValueError):
        agents.load("rainbow-simple").act(obs[None], np.ones((1, 44), bool), None)


def test_kept_index_weights():
    from agents.rainbow_greedy import _KEEP_WEIGHTS

    for keep in (0b000000, 0b101010, 0b111110, 0b111111):
        for d in itertools.islice(itertools.product(range(6), repeat=6), 0, 46656, 997):
            kept = [d[i] for i in range(6) if keep >> i & 1]
            assert int(np.dot(d, _KEEP_WEIGHTS[keep])) == sum(v * 6**k for k, v in enumerate(kept))
