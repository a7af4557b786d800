"""Differential test: the compiled Yacht core against its numpy oracle (``tests/oracles``).

Both cores play the same games (same seeds, same random legal actions, finished games
replaced from their own streams); at every step the masks, the observations from every
seat, the rewards, ``to_move``, ``done`` and every state array (the position and the random
streams) must be equal.  Some steps go through ``step_where`` on a random subset of the
games, and every batch also starts from random positions.  A CI-sized sample runs by
default; the soak plays 10^5 games.
"""

from __future__ import annotations

import numpy as np
import pytest

from envs.core.sampling import sample_legal
from envs.yacht import Yacht
from tests.oracles import assert_same_errors, check_same, step_both
from tests.oracles.yacht_numpy import NumpyYacht

CONFIGS = [(1, "score"), (2, "score"), (2, "win"), (3, "win"), (4, "score")]



def _random_positions(n, num_players, rng):
    """Unreachable-but-valid positions: random dice, rolls, rounds and partly filled sheets."""
    from envs.yacht.scoring import ACHIEVABLE

    scores = [sorted(a) for a in ACHIEVABLE]
    out = []
    for _ in range(n):
        sheets = [[None if rng.random() < 0.6 else int(rng.choice(scores[c])) for c in range(12)]
                  for _ in range(num_players)]
        mover = int(rng.integers(num_players))
        sheets[mover][int(rng.integers(12))] = None
        out.append({"round": int(rng.integers(1, 13)), "to_move": mover,
                    "dice": rng.integers(1, 7, 5).tolist(), "rolls_left": int(rng.integers(0, 3)),
                    "sheets": sheets})
    return out


def play_both(num_players, reward, num_games, batch, seed):
    """Play ``num_games`` games on both cores side by side, checking every step; returns the
    number of decisions compared."""
    fast, slow = Yacht(num_players, reward), NumpyYacht(num_players, reward)
    rng = np.random.default_rng(seed)
    seeds = seed * 1_000_003 + np.arange(batch)
    s_fast, s_slow = fast.init(seeds), slow.init(seeds)
    positions = _random_positions(4, num_players, rng)
    for k, pos in enumerate(positions):
        s_fast.put([k], fast.from_position(pos, seed=k))
        s_slow.put([k], slow.from_position(pos, seed=k))
    finished = decisions = step = 0
    while finished < num_games:
        where = f"{num_players}p {reward} step {step}"
        mask = check_same(fast, slow, s_fast, s_slow, where)
        actions = sample_legal(mask, rng)
        rows = np.flatnonzero(rng.random(batch) < 0.5) if step % 5 == 4 else None  # some via step_where
        decisions += step_both(fast, slow, s_fast, s_slow, actions, rows, where)
        check_same(fast, slow, s_fast, s_slow, where)
        done = s_fast.done.copy()
        for i in np.flatnonzero(done)[:3]:
            assert fast.result(s_fast, i) == slow.result(s_slow, i)
            assert fast.to_position(s_fast, i) == slow.to_position(s_slow, i)
        finished += int(done.sum())
        np.testing.assert_array_equal(fast.reset_where(s_fast, done), slow.reset_where(s_slow, done))
        step += 1
    return decisions


@pytest.mark.parametrize("num_players,reward", CONFIGS)
def test_compiled_core_matches_numpy_oracle(num_players, reward):
    decisions = play_both(num_players, reward, num_games=120, batch=64, seed=num_players)
    assert decisions > 120 * 12 * num_players  # at least one decision per turn


def test_errors_are_the_oracles():
    """Bad actions raise the same messages from both cores, and change nothing."""
    bad = ([0, 33], [33, 44], [33], [1.0, 2.0], [-1, 33])
    assert_same_errors(Yacht(2), NumpyYacht(2), [5, 6], bad)


@pytest.mark.soak
@pytest.mark.parametrize("num_players,reward", CONFIGS)
def test_compiled_core_matches_numpy_oracle_soak(num_players, reward):
    """10^5 games over the five configurations."""
    play_both(num_players, reward, num_games=20_000, batch=4096, seed=100 + num_players)
