"""The compiled greedy and play-outs (agents.gostop_playout) against the Python gostop-greedy."""

from __future__ import annotations

import numpy as np
import pytest

from agents.gostop_greedy import GoStopGreedyBot
from agents.gostop_playout import greedy_actions, play_out
from agents.play import play_out as python_play_out
from envs.gostop import GoStop
from tests.gostop_positions import mixed_positions

G = GoStop()
BOLD = (7, 1)


def _greedy(go_rule=None):
    bot = GoStopGreedyBot()
    if go_rule is not None:
        bot.go_max_opp_score, bot.go_min_hand = go_rule
    return bot


@pytest.fixture(scope="module")
def pool():
    return mixed_positions(300, seed=11)


def _sampled(pool, n, seed):
    """States sampled from the movers' observations (what a search plays out)."""
    rng = np.random.default_rng(seed)
    pick = rng.choice(pool.batch_size, size=n, replace=False)
    states, _ = G.sample_states(G.observe(pool.take(pick)), rng.integers(0, 2**62, size=(n, 1)))
    return states


@pytest.mark.parametrize("rule", [None, BOLD, (0, 5), (40, 0)])
def test_greedy_matches_python_on_every_state(pool, rule):
    """Every position of 300 mixed games (both seats, every phase) and sampled states."""
    assert set(pool.phase.tolist()) == {0, 1, 2, 3} and set(pool.to_move.tolist()) == {0, 1}
    bot = _greedy(rule)
    rules = ((bot.go_max_opp_score, bot.go_min_hand),) * 2
    for states in (pool, _sampled(pool, 3000, seed=1)):
        want = bot.act(G.observe(states), G.legal_mask(states), np.random.default_rng(0))
        got = greedy_actions(states, rules)
        bad = np.flatnonzero(got != want)
        assert bad.size == 0, f"{bad.size} differ, first: state {bad[0]}, {got[bad[0]]} != {want[bad[0]]}"


def test_go_rule_per_seat(pool):
    go = np.flatnonzero(pool.phase == 3)
    states = pool.take(go)
    seat_rules = np.zeros((go.size, 2, 2))
    seat_rules[:, :, 0] = 99  # always Go (the hand permitting) ...
    seat_rules[np.arange(go.size), 1 - states.to_move, 0] = -1  # ... except the seat that is not moving
    assert (greedy_actions(states, seat_rules)[G.legal_mask(states)[:, 96]] == 96).all()
    seat_rules[np.arange(go.size), states.to_move, 0] = -1
    assert (greedy_actions(states, seat_rules) == 97).all()


@pytest.mark.parametrize("own", [None, BOLD])
def test_play_out_reaches_the_python_end_state(pool, own):
    """Seat 0 (the observer of every sample) by ``own``'s Go rule, seat 1 by the plain greedy."""
    states = _sampled(pool, 2000, seed=2)
    mine = _greedy(own)
    python = states.copy()
    want = python_play_out(G, python, [mine, _greedy()], np.random.default_rng(0))
    compiled = states.copy()
    rules = ((mine.go_max_opp_score, mine.go_min_hand), (3, 2))
    got = play_out(compiled, rules)
    assert compiled.done.all() and compiled.equals(python)
    np.testing.assert_array_equal(got, want)


def test_play_out_with_first_actions(pool):
    states = _sampled(pool, 500, seed=3)
    rng = np.random.default_rng(4)
    mask = G.legal_mask(states)
    first = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
    python = states.copy()
    want = G.step(python, first).astype(np.float64)
    want += python_play_out(G, python, [_greedy(), _greedy()], rng)
    compiled = states.copy()
    got = play_out(compiled, first=first)
    assert compiled.equals(python)
    np.testing.assert_array_equal(got, want)


def test_bad_input_raises_and_changes_nothing(pool):
    states = _sampled(pool, 20, seed=5)
    before = states.copy()
    mask = G.legal_mask(states)
    illegal = np.argmin(mask, axis=1)  # a lowest illegal action of every game
    with pytest.raises(ValueError, match="illegal action"):
        play_out(states, first=illegal)
    with pytest.raises(ValueError, match="go_rules"):
        play_out(states, go_rules=(1, 2, 3))
    with pytest.raises(ValueError, match="first"):
        play_out(states, first=np.zeros(3, np.int64))
    assert states.equals(before)
    done = states.copy()
    play_out(done)
    with pytest.raises(ValueError, match="over"):
        greedy_actions(done)
