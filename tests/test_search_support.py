"""The core calls behind search bots, over every game: ``sample_states``, ``clone``, ``step_where``."""

from __future__ import annotations

import numpy as np
import pytest
from tests.test_conformance import CASES, IDS

from agents import load
from envs.core.sampling import sample_legal
from envs.gostop import GoStop
from envs.gostop import cards as C
from envs.registration import game_class

K = 3  # samples per observation


def _positions(game, n, seed, greedy=None):
    """Yield states along random play (mixed with ``greedy`` moves when given), every step."""
    state = game.init(np.arange(seed, seed + n))
    rng = np.random.default_rng(seed)
    while not state.done.all():
        yield state
        live = np.flatnonzero(~state.done)
        sub = state.take(live)
        obs, mask = game.observe(sub), game.legal_mask(sub)
        actions = sample_legal(mask, rng)
        if greedy is not None:
            mix = rng.random(live.size) < 0.7
            actions[mix] = greedy.act(obs[mix], mask[mix], rng)
        game.step_where(state, live, actions)


@pytest.mark.parametrize("name, config", CASES, ids=IDS)
def test_samples_reproduce_the_observation(name, config):
    game = game_class(name)(**config)
    seen = 0
    for state in _positions(game, 4 if name == "rainbow_dice" else 8, seed=11):
        live = np.flatnonzero(~state.done)
        obs = game.observe(state)[live]
        seeds = np.arange(live.size * K).reshape(live.size, K) + 1000 * seen
        samples, seats = game.sample_states(obs, seeds)
        assert samples.batch_size == live.size * K and seats.shape == (live.size * K,)
        np.testing.assert_array_equal(game.observe(samples, seats), np.repeat(obs, K, axis=0))
        assert not samples.done.any()
        seen += 1
    assert seen > 10


def _gostop_observations(n=48, seed=3):
    """(state, live rows) along mixed greedy/random play, with the decision kinds seen."""
    game = GoStop()
    greedy = load("gostop-greedy")
    kinds = set()
    for state in _positions(game, n, seed, greedy):
        live = np.flatnonzero(~state.done)
        kinds |= set(state.phase[live].tolist())
        yield game, state, live
    assert kinds == {0, 1, 2, 3}, kinds


@pytest.mark.parametrize("observer", ["mover", "other"])
def test_gostop_samples_hide_only_the_unseen_cards(observer):
    """Put the true hidden cards back into a sample and it is the true state (seats relabelled)."""
    went_go = 0
    for game, state, live in _gostop_observations():
        true = state.take(live)
        seat = true.to_move.astype(np.int64) if observer == "mover" else 1 - true.to_move.astype(np.int64)
        obs = game.observe(true, seat)
        samples, seats = game.sample_states(obs, np.arange(live.size * K).reshape(-1, K))
        assert (seats == 0).all()
        np.testing.assert_array_equal(game.observe(samples, seats), np.repeat(obs, K, axis=0))
        ref = true.take(np.repeat(np.arange(live.size), K))
        me = np.repeat(seat, K)
        ar = np.arange(ref.batch_size)
        opp = 1 - me
        # hidden parts: the opponent's hand keeps its size and the stock its size, both from the unseen cards
        unseen = ref.hands[ar, opp] | np.array(
            [C.mask_of(ref.stock[i, ref.stock_top[i]:ref.stock_end[i]]) for i in ar], np.uint64)
        stock = np.array([C.mask_of(samples.stock[i, :samples.stock_end[i]]) for i in ar], np.uint64)
        assert ((samples.hands[:, 1] | stock) == unseen).all() and ((samples.hands[:, 1] & stock) == 0).all()
        assert (C.popcount(samples.hands[:, 1]) == C.popcount(ref.hands[ar, opp])).all()
        # everything else is the true state's, seen from seat 0 = the observer
        assert (samples.hands[:, 0] == ref.hands[ar, me]).all()
        assert (samples.captured[:, 0] == ref.captured[ar, me]).all()
        assert (samples.captured[:, 1] == ref.captured[ar, opp]).all()
        assert (samples.layout == ref.layout).all()
        for f in ("go_count", "go_score", "ppuk_count", "score"):
            a, b = getattr(samples, f), getattr(ref, f)
            assert (a[:, 0] == b[ar, me]).all() and (a[:, 1] == b[ar, opp]).all(), f
        owner = np.where(ref.ppuk_owner < 0, -1, (ref.ppuk_owner != me[:, None]).astype(np.int8))
        assert (samples.ppuk_owner == owner).all()
        for f in ("phase", "played", "flipped", "hand_pick"):
            assert (getattr(samples, f) == getattr(ref, f)).all(), f
        assert (samples.to_move == (ref.to_move != me)).all()
        went_go += int((ref.go_count > 0).any())
    assert went_go > 0


def test_gostop_samples_follow_their_own_streams():
    game = GoStop()
    state = game.init(np.arange(6))
    obs = game.observe(state)
    seeds = np.arange(24).reshape(6, 4)
    a, _ = game.sample_states(obs, seeds)
    b, _ = game.sample_states(obs, seeds)
    assert a.equals(b)
    # sample j of observation i depends on that observation and seed only, not on the batch
    c, _ = game.sample_states(obs[2:3], seeds[2:3, 1:2])
    assert a.take([2 * 4 + 1]).equals(c)
    # different seeds deal the 30 unseen cards differently
    hands = {int(h) for h in a.hands[:, 1]}
    assert len(hands) == a.batch_size
    assert len(set(a.rng_key.tolist())) == a.batch_size  # every sample has its own stream


def test_sample_states_rejects_bad_input():
    game = GoStop()
    state = game.init([0])
    obs = game.observe(state)
    with pytest.raises(ValueError, match="seeds must have shape"):
        game.sample_states(obs, np.arange(3))
    with pytest.raises(ValueError, match="observations must have shape"):
        game.sample_states(obs[:, :10], np.zeros((1, 2), int))
    broken = obs.copy()
    broken[0, :48] = 0  # the own hand vanishes: the cards no longer add up to the deck
    with pytest.raises(ValueError, match="observation 0"):
        game.sample_states(broken, np.zeros((1, 2), int))
    over = state.copy()
    over.done[0], over.phase[0], over.reason[0] = True, 4, 4  # a deal ended in a nagari
    with pytest.raises(ValueError, match="finished deal"):
        game.sample_states(game.observe(over), np.zeros((1, 2), int))


@pytest.mark.parametrize("config", [dict(num_players=1), dict(num_players=3)])
def test_dice_samples_rebuild_the_state(config):
    """Yacht and one-player Rainbow Dice observations show the whole state: samples equal it."""
    for name in ("yacht", "rainbow_dice"):
        game = game_class(name)(**config)
        for state in _positions(game, 6, seed=5):
            live = np.flatnonzero(~state.done)
            true = state.take(live)
            samples, seats = game.sample_states(game.observe(true), np.ones((live.size, 2), int))
            ref = true.take(np.repeat(np.arange(live.size), 2))
            if name == "rainbow_dice" and game.num_players > 1:
                # the observer's seat number is not observable: it sits at seat 0
                assert (seats == 0).all() and (samples.to_move == 0).all()
                continue
            assert (seats == ref.to_move).all()
            ref.rng_key[:], ref.rng_counter[:] = samples.rng_key, samples.rng_counter
            assert samples.equals(ref)


@pytest.mark.parametrize("name, config", CASES, ids=IDS)
def test_clone_gives_independent_streams(name, config):
    game = game_class(name)(**config)
    state = game.init([4, 5])
    clones = state.clone(np.array([[1, 2, 1], [3, 4, 5]]))
    assert clones.batch_size == 6
    for i, src in enumerate([0, 0, 0, 1, 1, 1]):
        one = clones.take([i])
        one.rng_key[:], one.rng_counter[:] = state.rng_key[src], state.rng_counter[src]
        assert one.equals(state.take([src]))  # a copy but for its stream
    # same seed, same future; copy() keeps the source's stream
    a, b, c = clones.take([0]), clones.take([2]), state.take([0]).copy()
    ref = state.take([0])
    for pair in ((a, b), (c, ref)):
        rngs = [np.random.default_rng(0), np.random.default_rng(0)]
        for _ in range(30):
            if pair[0].done[0]:
                break
            for s, rng in zip(pair, rngs):
                game.step(s, sample_legal(game.legal_mask(s), rng))
    assert a.equals(b) and c.equals(ref)
    with pytest.raises(ValueError, match="seeds must have shape"):
        state.clone(np.zeros((3, 2), int))


def test_clones_reroll_differently():
    game = game_class("yacht")(num_players=1)
    state = game.init([0])
    clones = state.clone(np.arange(8)[None])
    game.step(clones, np.full(8, 31))  # reroll all five dice
    assert len(set(clones.dice.tolist())) > 1
    twins = state.copy(), state.copy()
    for t in twins:
        game.step(t, np.array([31]))
    assert twins[0].equals(twins[1])


@pytest.mark.parametrize("name, config", CASES, ids=IDS)
def test_step_where_steps_only_the_selected_games(name, config):
    game = game_class(name)(**config)
    rng = np.random.default_rng(1)
    state = game.init(np.arange(10))
    for _ in range(6):
        game.step(state, sample_legal(game.legal_mask(state), rng))
        game.reset_where(state, state.done)
    pick = np.array([7, 1, 4])
    actions = sample_legal(game.legal_mask(state.take(pick)), rng)
    alone = state.take(pick)
    r_alone = game.step(alone, actions)
    for where in (pick, np.isin(np.arange(10), pick)):
        s = state.copy()
        order = np.argsort(pick) if where.dtype == bool else np.arange(3)
        r = game.step_where(s, where, actions[order])
        np.testing.assert_array_equal(r[pick[order]], r_alone[order])
        rest = np.setdiff1d(np.arange(10), pick)
        assert s.take(pick).equals(alone) and s.take(rest).equals(state.take(rest))
        assert not r[rest].any()


def test_step_where_validates_before_changing_anything():
    game = GoStop()
    state = game.init(np.arange(4))
    before = state.copy()
    mask = game.legal_mask(state)
    illegal = int(np.flatnonzero(~mask[2, :48])[0])
    with pytest.raises(ValueError, match=r"illegal action .*\(game 2\)"):
        game.step_where(state, np.array([0, 2]), np.array([int(np.flatnonzero(mask[0])[0]), illegal]))
    with pytest.raises(ValueError, match="distinct game indices"):
        game.step_where(state, np.array([1, 1]), np.array([0, 0]))
    with pytest.raises(ValueError, match="bool mask or game indices"):
        game.step_where(state, np.ones(3, bool), np.array([0, 0, 0]))
    assert state.equals(before)
    assert not game.step_where(state, np.zeros(4, bool), np.zeros(0, int)).any()
    assert state.equals(before)
