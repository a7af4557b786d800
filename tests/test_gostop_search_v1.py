"""gostop-search-v1: uses only what its seat sees, plays legally everywhere, fits every front door."""

from __future__ import annotations


import gymnasium as gym
import numpy as np
import pytest

import agents
import envs  # noqa: F401  (registers the gym ids)
from agents.gostop_search_v1 import GoStopSearchV1Bot
from envs.core.sampling import sample_legal
from envs.gostop import GO, GoStop
from frontends.cli import main
from training.evaluate import seat_swapped_match
from tests.gostop_positions import assert_blind_to_hidden_cards, assert_legal_everywhere, mixed_positions

SMALL = dict(determinizations=2, choice_determinizations=2, go_stop_determinizations=4, candidates=3)
G = GoStop()


pytestmark = pytest.mark.slow


def test_legal_at_every_decision_kind():
    pool = mixed_positions(120, seed=1)
    rng = np.random.default_rng(0)
    pick = rng.choice(pool.batch_size, size=1000, replace=False)
    pick = np.union1d(pick[:990], np.flatnonzero(pool.phase > 0)[:10])  # some of every rare kind
    assert_legal_everywhere(agents.load("gostop-search-v1", **SMALL), pool.take(pick), rng)


def test_never_depends_on_hidden_cards():
    """Two states that differ only in the opponent's hand and the stock get the same action."""
    assert_blind_to_hidden_cards(agents.load("gostop-search-v1", **SMALL), mixed_positions(40, seed=7),
                                 np.random.default_rng(3), tries=200)


def test_go_stop_and_choices_are_searched():
    """At GO_STOP the bot weighs Go against Stop by play-outs, not by the heuristic alone."""
    pool = mixed_positions(120, seed=2)
    gs = pool.take(np.flatnonzero(pool.phase == 3))
    assert gs.batch_size > 0
    obs, mask = G.observe(gs), G.legal_mask(gs)
    bot = agents.load("gostop-search-v1", determinizations=0, choice_determinizations=0, go_stop_determinizations=64)
    acts = bot.act(obs, mask, np.random.default_rng(0))
    assert set(acts.tolist()) <= {GO, GO + 1}
    # with no search at all it is the greedy heuristic
    none = agents.load("gostop-search-v1", determinizations=0, choice_determinizations=0,
                       go_stop_determinizations=0)
    np.testing.assert_array_equal(none.act(obs, mask, np.random.default_rng(0)),
                                  agents.load("gostop-greedy").act(obs, mask, None))


def test_stop_is_valued_at_its_payout():
    """Every sample values Stop at the payout the real state would pay (hidden cards play no part)."""
    pool = mixed_positions(120, seed=4)
    gs = pool.take(np.flatnonzero(pool.phase == 3))
    obs, mask = G.observe(gs), G.legal_mask(gs)
    stopped = gs.copy()
    pay = G.step(stopped, np.full(gs.batch_size, GO + 1))[np.arange(gs.batch_size), gs.to_move]
    bot = GoStopSearchV1Bot(determinizations=0, choice_determinizations=0, go_stop_determinizations=16,
                          candidates=2)
    seen = []

    def spy(value, sample, cand, game_of, act_of, *rest):
        seen.append((value, cand, game_of, act_of))
        return GoStopSearchV1Bot._choose(bot, value, sample, cand, game_of, act_of, *rest)

    bot._choose = spy
    acts = bot.act(obs, mask, np.random.default_rng(0))
    value, cand, game_of, act_of = seen[0]
    is_stop = act_of[cand] == GO + 1
    np.testing.assert_array_equal(value[is_stop], pay[game_of[cand[is_stop]]])
    assert (pay > 0).all() and mask[np.arange(gs.batch_size), acts].all()


@pytest.mark.parametrize("bad", [dict(determinizations=-1), dict(rollouts=0), dict(rollout="mcts"),
                                 dict(epsilon=2), dict(rollouts=2), dict(margin=-1),
                                 dict(candidates=0), dict(time_budget_ms=0),
                                 dict(own_rollout="smart")])
def test_bad_options_raise(bad):
    with pytest.raises(ValueError):
        agents.load("gostop-search-v1", **bad)


def test_listed_with_its_game():
    info = {b.name: b for b in agents.catalog("gostop")}
    assert info["gostop-search-v1"].game == "gostop" and "search" in info["gostop-search-v1"].description
    assert "gostop-search-v1" not in agents.available("yacht")


def test_time_budget_sizes_the_search():
    bot = agents.load("gostop-search-v1", time_budget_ms=30, candidates=3)
    r = seat_swapped_match("gostop", bot, "random", 2, seed=0)
    assert r.games >= 4 and bot._seconds_per_turn is not None


def test_plays_as_gym_opponent():
    env = gym.make("madang/GoStop-v0", opponents=agents.load("gostop-search-v1", **SMALL))
    obs, info = env.reset(seed=0)
    rng = np.random.default_rng(0)
    done = False
    while not done:
        obs, reward, term, trunc, info = env.step(int(sample_legal(env.unwrapped.action_masks()[None], rng)[0]))
        done = term or trunc
    assert "payout" in info


def test_plays_in_the_aec_env():
    from envs.gostop import env as aec_env

    env = aec_env()
    env.reset(seed=1)
    bots = {"player_0": agents.load("gostop-search-v1", **SMALL), "player_1": agents.load("random")}
    rng = np.random.default_rng(0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        action = bots[agent].act(obs["observation"][None], obs["action_mask"][None], rng)[0]
        env.step(int(action))
    assert sum(env._cumulative_rewards.values()) == 0


def test_arena_and_eval(capsys, monkeypatch):
    r = seat_swapped_match("gostop", agents.load("gostop-search-v1", **SMALL), "random", 3, seed=0)
    assert r.games >= 6 and r.go_a.deals == 6 and r.go_a.called_go <= 6
    import agents.gostop_search_v1 as search

    class Small(search.GoStopSearchV1Bot):  # the CLI loads by name: a small default budget here
        def __init__(self):
            super().__init__(**SMALL)

    monkeypatch.setattr(search, "GoStopSearchV1Bot", Small)
    assert main(["eval", "gostop", "--bots", "gostop-search-v1", "random", "--games", "2"]) == 0
    assert "gostop-search-v1" in capsys.readouterr().out


def test_large_batches_run_in_chunks(monkeypatch):
    """Play-outs beyond the per-call cap are split over several calls; every action stays legal."""
    import agents.gostop_search_v1 as search

    monkeypatch.setattr(search, "MAX_PLAYOUTS", 40)
    pool = mixed_positions(10, seed=9)
    states = pool.take(np.arange(0, pool.batch_size, 9))
    obs, mask = G.observe(states), G.legal_mask(states)
    bot = agents.load("gostop-search-v1", determinizations=8, choice_determinizations=8,
                      go_stop_determinizations=8, own_rollout="bold")
    calls = []
    real = bot._search
    bot._search = lambda *a: calls.append(a[0].shape[0]) or real(*a)
    actions = bot.act(obs, mask, np.random.default_rng(0))
    assert len(calls) > 1 and mask[np.arange(states.batch_size), actions].all()


def test_several_stochastic_rollouts_per_sample():
    pool = mixed_positions(10, seed=12)
    states = pool.take(np.arange(0, pool.batch_size, 11))
    obs, mask = G.observe(states), G.legal_mask(states)
    for options in (dict(rollouts=3, epsilon=0.2), dict(rollouts=2, rollout="random")):
        bot = agents.load("gostop-search-v1", **dict(SMALL, **options))
        actions = bot.act(obs, mask, np.random.default_rng(0))
        assert mask[np.arange(states.batch_size), actions].all()
