"""Differential test: the compiled Rainbow Dice core against its numpy oracle (``tests/oracles``).

Both cores play the same games (same seeds, same random legal actions, finished games
replaced from their own streams); at every step the masks, the observations from every
seat, the rewards, ``to_move``, ``done`` and every state array (the position, the caches
and the random streams) must be equal.  Some steps go through ``step_where`` on a random
subset of the games, and every batch also starts from random positions (late rounds,
second-card decisions, many tokens, counts past the observation's clip points).  The
configurations cover 1-4 seats, both reward modes, scarce, default and unlimited supplies
and starting tokens.  A CI-sized sample runs by default; the soak plays 10^5 games.
"""

from __future__ import annotations

import numpy as np
import pytest

from envs.core.sampling import sample_legal
from envs.rainbow_dice import RainbowDice, RainbowState
from envs.rainbow_dice.position import PHASES
from tests.oracles import check_same
from tests.oracles.rainbow_dice_numpy import NumpyRainbowDice

# (num_players, copies_per_hand, start_tokens, reward)
CONFIGS = [
    (1, 10, 0, "score"),
    (1, None, 4, "score"),
    (2, 10, 0, "win"),
    (2, 1, 0, "score"),
    (3, 2, 3, "win"),
    (4, None, 0, "score"),
    (4, 10, 6, "win"),
]



def _random_position(game, rng):
    """A valid, mostly unreachable position: random dice, phase, tokens, cards and supply."""
    P, copies = game.num_players, game.copies_per_hand
    while True:
        phase = PHASES[int(rng.choice(4, p=[0.4, 0.3, 0.25, 0.05]))]
        big = rng.random() < 0.3  # past the clip points: 40 tokens, 10 copies, a 4000 score
        tokens = rng.integers(0, 120 if big else 8, P)
        if copies is None:
            cards = rng.integers(0, 40 if big else 3, (P, 30)) * (rng.random((P, 30)) < 0.3)
            supply = None
        else:
            share = rng.integers(0, copies + 1, 30)
            cards = np.zeros((P, 30), np.int64)
            for h in range(30):  # deal `share` held copies among the seats
                for _ in range(int(share[h])):
                    if rng.random() < 0.5:
                        cards[rng.integers(P), h] += 1
            supply = [int(rng.integers(0, copies - c + 1)) for c in cards.sum(axis=0)]
        pos = {"round": int(rng.integers(1, 13)), "to_move": int(rng.integers(P)), "phase": phase,
               "dice": rng.integers(1, 7, 6).tolist(),
               "free_rerolls_left": int(rng.integers(1, 3)) if phase == "rolling" else 0,
               "die_actions_used": int(rng.integers(0, 4)), "tokens": tokens.tolist(),
               "cards": cards.tolist(), "supply": supply}
        seed = int(rng.integers(1 << 62))
        try:
            game.from_position(pos, seed=seed)
        except ValueError:  # a second-card decision that would not be offered: draw again
            continue
        return pos, seed


def play_both(config, num_games, batch, seed):
    """Play ``num_games`` games on both cores side by side, checking every step; returns the
    number of decisions compared."""
    num_players, copies, start_tokens, reward = config
    fast = RainbowDice(num_players, copies, start_tokens, reward)
    slow = NumpyRainbowDice(num_players, copies, start_tokens, reward)
    rng = np.random.default_rng(seed)
    seeds = seed * 1_000_003 + np.arange(batch)
    s_fast, s_slow = fast.init(seeds), slow.init(seeds)
    for k in range(min(8, batch)):
        pos, pos_seed = _random_position(fast, rng)
        s_fast.put([k], fast.from_position(pos, seed=pos_seed))
        s_slow.put([k], slow.from_position(pos, seed=pos_seed))
    finished = decisions = step = 0
    while finished < num_games:
        where = f"{config} step {step}"
        done = np.flatnonzero(s_fast.done)
        for i in done[:3]:
            assert fast.result(s_fast, i) == slow.result(s_slow, i)
            assert fast.to_position(s_fast, i) == slow.to_position(s_slow, i)
        finished += done.size
        np.testing.assert_array_equal(fast.reset_where(s_fast, s_fast.done), slow.reset_where(s_slow, s_slow.done))
        mask = check_same(fast, slow, s_fast, s_slow, where)
        actions = sample_legal(mask, rng)
        if step % 5 == 4:  # a random subset through step_where
            rows = np.flatnonzero(rng.random(batch) < 0.5)
            r_fast = fast.step_where(s_fast, rows, actions[rows])
            r_slow = slow.step_where(s_slow, rows, actions[rows])
            decisions += rows.size
        else:
            r_fast, r_slow = fast.step(s_fast, actions), slow.step(s_slow, actions)
            decisions += batch
        np.testing.assert_array_equal(r_fast, r_slow, err_msg=where)
        check_same(fast, slow, s_fast, s_slow, where)
        step += 1
    return decisions


@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_compiled_core_matches_numpy_oracle(config):
    decisions = play_both(config, num_games=24, batch=24, seed=config[0] * 10 + config[2])
    assert decisions > 24 * 12 * config[0]  # at least one decision per turn


def test_random_positions_match():
    """Many random positions at once (every phase, clipped counts), stepped a few times."""
    for config in CONFIGS:
        fast, slow = RainbowDice(*config), NumpyRainbowDice(*config)
        rng = np.random.default_rng(7)
        built = [_random_position(fast, rng) for _ in range(100)]
        s_fast = RainbowState.concat([fast.from_position(pos, seed=seed) for pos, seed in built])
        s_slow = RainbowState.concat([slow.from_position(pos, seed=seed) for pos, seed in built])
        for step in range(6):
            mask = check_same(fast, slow, s_fast, s_slow, f"{config} position step {step}")
            live = ~s_fast.done
            actions = sample_legal(mask[live], rng)
            np.testing.assert_array_equal(fast.step_where(s_fast, live, actions),
                                          slow.step_where(s_slow, live, actions))


@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_errors_are_the_oracles(config):
    """Bad actions (through ``step`` and ``step_where``, on live and finished games) raise the
    same messages from both cores, and change nothing."""
    fast, slow = RainbowDice(*config), NumpyRainbowDice(*config)
    s_fast, s_slow = fast.init([5, 6]), slow.init([5, 6])
    over = {"round": 12, "to_move": 0, "phase": "game_over", "dice": [1, 2, 3, 4, 5, 6], "free_rerolls_left": 0,
            "die_actions_used": 0, "tokens": [1] * fast.num_players, "cards": [[0] * 30] * fast.num_players,
            "supply": None if config[1] is None else [config[1]] * 30}
    s_fast.put([1], fast.from_position(over, seed=1))
    s_slow.put([1], slow.from_position(over, seed=1))
    before = s_fast.copy()
    calls = [("step", [0, 82]), ("step", [82, 145]), ("step", [82]), ("step", [1.0, 2.0]), ("step", [-1, 82]),
             ("step", [64, 82]), ("step", [114, 1]), ("step_where", ([0], [144])), ("step_where", ([0], [145])),
             ("step_where", ([0, 1], [82, 82])), ("step_where", ([1], [82])), ("step_where", ([0, 0], [82, 82]))]
    for name, args in calls:
        args = (np.array(args),) if name == "step" else tuple(np.array(x) for x in args)
        with pytest.raises(ValueError) as e_fast:
            getattr(fast, name)(s_fast, *args)
        with pytest.raises(ValueError) as e_slow:
            getattr(slow, name)(s_slow, *args)
        assert str(e_fast.value) == str(e_slow.value), (name, args)
    assert s_fast.equals(s_slow) and s_fast.equals(before)


@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_batch_n_equals_n_times_batch_1(config):
    """The compiled core at batch 6 plays the same games as six cores at batch 1 (same seeds,
    same actions, through ``step``, ``step_where`` and ``reset_where``)."""
    game = RainbowDice(*config)
    seeds = np.arange(6) * 7919 + config[0]
    batch, singles = game.init(seeds), [game.init([int(x)]) for x in seeds]
    rng = np.random.default_rng(config[0])
    for step in range(100):
        game.reset_where(batch, batch.done)
        for s in singles:
            game.reset_where(s, s.done)
        mask, obs = game.legal_mask(batch), game.observe(batch)
        actions = sample_legal(mask, rng)
        rows = np.arange(6) if step % 4 else np.flatnonzero(rng.random(6) < 0.5)
        rewards = game.step_where(batch, rows, actions[rows])
        for i, s in enumerate(singles):
            np.testing.assert_array_equal(game.legal_mask(s)[0], mask[i])
            np.testing.assert_array_equal(game.observe(s)[0], obs[i])
            single_reward = game.step(s, actions[i:i + 1])[0] if i in rows else np.zeros(game.num_players)
            np.testing.assert_array_equal(single_reward, rewards[i])
            assert s.equals(batch.take([i])), (config, step, i)


@pytest.mark.soak
@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_compiled_core_matches_numpy_oracle_soak(config):
    """About 10^5 games over the seven configurations."""
    play_both(config, num_games=15_000, batch=2048, seed=100 + config[0] * 10 + config[2])
