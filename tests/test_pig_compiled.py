"""Differential test: Pig's compiled core (``tests/games/pig/kernels.py``) against its former
numpy rules (``tests/games/pig/oracle.py``).

Both cores play the same games (same seeds, same random legal actions, finished games replaced
from their own streams); at every step the masks, the observations from every seat, the
rewards and every state array must be equal, some steps going through ``step_where``.
"""

from __future__ import annotations

import numpy as np
import pytest

from envs.core.sampling import sample_legal
from tests.games.pig import Pig
from tests.games.pig.oracle import PigNumpy
from tests.oracles import assert_same_errors, check_same, step_both

CONFIGS = [(2, 30), (3, 20), (4, 100), (2, 10)]


@pytest.mark.parametrize("num_players,target", CONFIGS)
def test_compiled_core_matches_the_numpy_rules(num_players, target):
    fast, slow = Pig(num_players, target), PigNumpy(num_players, target)
    rng = np.random.default_rng(num_players * target)
    seeds = np.arange(48) + target
    s_fast, s_slow = fast.init(seeds), slow.init(seeds)
    start = {"to_move": num_players - 1, "scores": [target - 1] * num_players, "turn_total": 0,
             "last_roll": 1, "game_over": False}  # one roll from the end: every rule at once
    s_fast.put([0], fast.from_position(start, seed=3))
    s_slow.put([0], slow.from_position(start, seed=3))
    finished = step = 0
    while finished < 150:
        where = f"{num_players}p to {target}, step {step}"
        mask = check_same(fast, slow, s_fast, s_slow, where)
        actions = sample_legal(mask, rng)
        rows = np.flatnonzero(rng.random(seeds.size) < 0.5) if step % 4 == 3 else None
        step_both(fast, slow, s_fast, s_slow, actions, rows, where)
        check_same(fast, slow, s_fast, s_slow, where)
        done = s_fast.done.copy()
        for i in np.flatnonzero(done)[:2]:
            assert fast.result(s_fast, i) == slow.result(s_slow, i)
        finished += int(done.sum())
        np.testing.assert_array_equal(fast.reset_where(s_fast, done), slow.reset_where(s_slow, done))
        step += 1


def test_errors_are_the_numpy_rules():
    """Bad actions raise the same messages from both cores, and change nothing."""
    assert_same_errors(Pig(2), PigNumpy(2), [5, 6], ([0, 1], [0, 2], [0], [0.0, 1.0], [-1, 0]))
