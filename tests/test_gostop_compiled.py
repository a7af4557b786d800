"""Differential test: the compiled Go-Stop core against its numpy oracle (``tests/oracles``).

Both cores play the same deals (same seeds, same random legal actions, finished deals
replaced from their own streams); at every step the masks, the observations from both seats
(and from the mover), the rewards, ``to_move``, ``done`` and every state array (the cards,
counters, results and the random streams) must be equal, and finished deals must report the
same results, skipped deals and positions.  Some steps go through ``step_where`` on a random
subset of the games; every batch also starts with random positions (``from_position``), given
deal orders (``deal``) and determinizations (``sample_states``).  Play is uniformly random,
or mostly Go (multi-Go payouts, last turns, forced stops).  A CI-sized sample runs by
default; the soak plays 10^5 deals.
"""

from __future__ import annotations

import numpy as np
import pytest

from envs.core.rng import keys_from_seeds
from envs.core.sampling import sample_legal
from envs.gostop import GO, STOP, GoStop
from envs.gostop import deal as D
from envs.gostop.state import GO_STOP
from tests.oracles import assert_same_errors, check_same, gostop_numpy, step_both
from tests.oracles.gostop_numpy import NumpyGoStop

FAST, SLOW = GoStop(), NumpyGoStop()



def random_position(rng) -> dict:
    """A valid, mostly unreachable position: random hands of 0..10 cards, a layout with piles
    (ppuk stacks or dealt triples), captured piles, a stock of any length, Go counts."""
    cards = rng.permutation(48).tolist()
    n0, n1 = (int(x) for x in rng.integers(0, 11, 2))
    if n0 + n1 == 0:
        n0 = 1
    hands = [sorted(cards[:n0]), sorted(cards[n0:n0 + n1])]
    layout, captured, stock = [], [[], []], []
    per_month = [0] * 12
    for c in cards[n0 + n1:]:
        u = rng.random()
        if u < 0.3 and per_month[c // 4] < 3:
            layout.append(c)
            per_month[c // 4] += 1
        elif u < 0.65:
            captured[int(rng.integers(2))].append(c)
        elif u < 0.9:
            stock.append(c)
        # else: listed nowhere, so it goes to the bottom of the stock
    go_count = [int(rng.integers(1, 6)) if rng.random() < 0.3 else 0 for _ in range(2)]
    return {
        "to_move": 0 if not hands[1] or (hands[0] and rng.random() < 0.5) else 1,
        "hands": hands,
        "layout": sorted(layout),
        "ppuk_owner": {str(m + 1): int(rng.integers(2)) for m in range(12)
                       if per_month[m] == 3 and rng.random() < 0.6},
        "stock": stock,
        "captured": [sorted(c) for c in captured],
        "go_count": go_count,
        "go_score": [int(rng.integers(0, 20)) if g else 0 for g in go_count],
        "ppuk_count": [int(x) for x in rng.integers(0, 3, 2)],
    }


def _actions(mask, rng, p_go):
    actions = sample_legal(mask, rng)
    if p_go is not None:
        gs = mask[:, GO] & mask[:, STOP]
        actions[gs] = np.where(rng.random(int(gs.sum())) < p_go, GO, STOP)
    return actions


def _starts(s_fast, s_slow, batch, rng, seed):
    """Overwrite some games of both batches with positions, given deals and determinizations."""
    k = min(8, batch // 4)
    for j in range(k):
        pos = random_position(rng)
        s_fast.put([j], FAST.from_position(pos, seed=seed + j))
        s_slow.put([j], SLOW.from_position(pos, seed=seed + j))
    orders = np.argsort(rng.random((k, 48)), axis=1)
    first = rng.integers(0, 2, k)
    d_fast, d_slow = FAST.deal(orders, first, seeds=seed + np.arange(k)), SLOW.deal(orders, first, seeds=seed + np.arange(k))
    assert d_fast.equals(d_slow)
    s_fast.put(np.arange(k, 2 * k), d_fast)
    s_slow.put(np.arange(k, 2 * k), d_slow)
    rows = np.arange(2 * k, 3 * k)
    obs = FAST.observe(s_fast.take(rows), rng.integers(0, 2, k))
    seeds = seed + np.arange(k)[:, None]
    (x_fast, seats), (x_slow, _) = FAST.sample_states(obs, seeds), SLOW.sample_states(obs, seeds)
    assert x_fast.equals(x_slow) and not seats.any()
    s_fast.put(rows, x_fast)
    s_slow.put(rows, x_slow)


def play_both(num_games, batch, seed, p_go=None):
    """Play ``num_games`` deals on both cores side by side, checking every step; returns
    ``(decisions compared, endings by reason)``."""
    rng = np.random.default_rng(seed)
    seeds = seed * 1_000_003 + np.arange(batch)
    s_fast, s_slow = FAST.init(seeds), SLOW.init(seeds)
    _starts(s_fast, s_slow, batch, rng, seed)
    finished = decisions = step = 0
    reasons: dict = {}
    while finished < num_games:
        where = f"seed {seed} step {step}"
        done = s_fast.done.copy()
        for i in np.flatnonzero(done):
            result = FAST.result(s_fast, i)
            assert result == SLOW.result(s_slow, i), where
            assert FAST.final_rewards(s_fast, i).tolist() == SLOW.final_rewards(s_slow, i).tolist()
            reasons[result["reason"]] = reasons.get(result["reason"], 0) + 1
            if i % 7 == 0:
                assert FAST.to_position(s_fast, i) == SLOW.to_position(s_slow, i), where
        finished += int(done.sum())
        np.testing.assert_array_equal(FAST.reset_where(s_fast, done), SLOW.reset_where(s_slow, done))
        for i in np.flatnonzero(s_fast.skipped.any(axis=1)):
            assert FAST.skipped_results(s_fast, i) == SLOW.skipped_results(s_slow, i)
        mask = check_same(FAST, SLOW, s_fast, s_slow, where)
        actions = _actions(mask, rng, p_go)
        rows = None  # every game, or (every 5th step) a random subset in random order
        if step % 5 == 4:
            rows = rng.permutation(batch)[: int(rng.integers(1, batch + 1))]
        decisions += step_both(FAST, SLOW, s_fast, s_slow, actions, rows, where)
        check_same(FAST, SLOW, s_fast, s_slow, where)
        step += 1
    return decisions, reasons


@pytest.mark.parametrize("p_go,seed", [(None, 1), (0.95, 2)], ids=["uniform-random-play", "mostly-go"])
def test_compiled_core_matches_numpy_oracle(p_go, seed):
    decisions, reasons = play_both(num_games=600, batch=128, seed=seed, p_go=p_go)
    assert decisions > 600 * 15
    assert {"stop", "nagari"} <= set(reasons), reasons


def test_states_at_go_stop_and_choices_match():
    """Positions that reach every decision kind: the oracle and the core agree step by step."""
    rng = np.random.default_rng(5)
    seen = set()
    for j in range(60):
        pos = random_position(rng)
        s_fast, s_slow = FAST.from_position(pos, seed=j), SLOW.from_position(pos, seed=j)
        while not s_fast.done[0]:
            seen.add(int(s_fast.phase[0]))
            mask = check_same(FAST, SLOW, s_fast, s_slow, f"position {j}")
            a = _actions(mask, rng, 0.9)
            np.testing.assert_array_equal(FAST.step(s_fast, a), SLOW.step(s_slow, a))
        assert FAST.to_position(s_fast, 0) == SLOW.to_position(s_slow, 0)
    assert seen >= {0, 1, 2, GO_STOP}, seen


def test_unchecked_steps_leave_finished_games_alone():
    """``step(check=False)`` with finished games in the batch (action 0 for them), as trainers do."""
    rng = np.random.default_rng(4)
    s_fast, s_slow = FAST.init(np.arange(256)), SLOW.init(np.arange(256))
    while not s_fast.done.all():
        mask = check_same(FAST, SLOW, s_fast, s_slow, "unchecked")
        a = np.where(s_fast.done, 0, _actions(mask, rng, 0.5))
        np.testing.assert_array_equal(FAST.step(s_fast, a, check=False), SLOW.step(s_slow, a, check=False))
    assert s_fast.equals(s_slow)


def test_new_episodes_match(monkeypatch):
    """``reset`` paths: random deals (with their skipped chongtong deals, also past the kernel's
    log), fixed first players, given deals, continued streams."""
    monkeypatch.setattr(D, "_LOG", 1)  # games skipping 2+ deals take the replay path
    skipped = 0
    previous = None
    for seed in range(1500):
        options = [{}, {"first_player": seed % 2}][seed % 3 == 0]
        s = None if seed % 4 == 1 else seed
        (a, info_a), (b, info_b) = (g.new_episode(dict(options), s, previous) for g in (FAST, SLOW))
        assert a.equals(b) and info_a == info_b, seed
        skipped += len(info_a["skipped_deals"])
        previous = a
    assert skipped > 0
    order = np.random.default_rng(0).permutation(48)
    for first in (None, 0, 1):
        options = {"deal": order} if first is None else {"deal": order, "first_player": first}
        (a, info_a), (b, info_b) = (g.new_episode(dict(options), 9, None) for g in (FAST, SLOW))
        assert a.equals(b) and info_a == info_b


def test_many_skipped_deals_are_logged_in_order():
    """A replay past the kernel's log gives the same skipped results as one long pass."""
    zero = np.zeros(1, np.uint64)
    for seed in range(5000):  # a stream whose first deals include a chongtong
        key = keys_from_seeds([seed])
        state, log = D.random_deals(key, zero)
        if log[0]:
            break
    old = D._LOG
    try:
        D._LOG = 0
        state_short, log_short = D.random_deals(key, zero)
    finally:
        D._LOG = old
    assert state.equals(state_short) and log == log_short and log[0]
    assert log == gostop_numpy.random_deals(key, zero)[1]


def test_setup_checks_match():
    rng = np.random.default_rng(3)
    orders = np.argsort(rng.random((4000, 48)), axis=1)
    for j in range(0, 4000, 4):  # plant quads in hands and on the layout
        start = [0, 10, 20][j % 3]
        month = rng.integers(12)
        where = np.flatnonzero(orders[j] // 4 == month)
        slots = start + np.arange(4)
        a, b = orders[j, slots].copy(), orders[j, where].copy()
        orders[j, where], orders[j, slots] = a, b
    np.testing.assert_array_equal(D.classify(orders), gostop_numpy.classify(orders))
    assert set(D.classify(orders).tolist()) == {D.REDEAL, D.PLAYABLE, 0, 1}


def test_errors_are_the_oracles():
    """Bad actions raise the same messages from both cores, and change nothing."""
    legal = int(np.flatnonzero(FAST.legal_mask(FAST.init([5]))[0])[0])
    bad = ([legal, 97], [97, 97], [legal], [1.0, 2.0], [-1, 5], [legal, 98])
    assert_same_errors(FAST, SLOW, [5, 6], bad)


@pytest.mark.soak
@pytest.mark.parametrize("p_go,seed", [(None, 101), (0.95, 102)], ids=["uniform-random-play", "mostly-go"])
def test_compiled_core_matches_numpy_oracle_soak(p_go, seed):
    """10^5 deals: 70,000 under random play, 30,000 mostly Go."""
    play_both(num_games=70_000 if p_go is None else 30_000, batch=4096, seed=seed, p_go=p_go)
