"""gostop-search (compiled play-outs): legal everywhere, blind to hidden cards, values Stop exactly."""

from __future__ import annotations

import numpy as np
import pytest

import agents
from agents.gostop_search import GoStopSearchBot
from envs.gostop import GO, GoStop
from tests.gostop_positions import assert_blind_to_hidden_cards, assert_legal_everywhere, mixed_positions
from training.evaluate import seat_swapped_match

SMALL = dict(determinizations=8, choice_determinizations=8, go_stop_determinizations=8,
             close_determinizations=8)
G = GoStop()

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def pool():
    return mixed_positions(120, seed=1)


def test_legal_at_every_decision_kind(pool):
    rng = np.random.default_rng(0)
    pick = np.union1d(rng.choice(pool.batch_size, size=600, replace=False), np.flatnonzero(pool.phase > 0)[:10])
    assert_legal_everywhere(agents.load("gostop-search", **SMALL), pool.take(pick), rng)


def test_never_depends_on_hidden_cards(pool):
    """Two states that differ only in the opponent's hand and the stock get the same action."""
    assert_blind_to_hidden_cards(agents.load("gostop-search", **SMALL), pool, np.random.default_rng(3))


def test_no_search_is_the_heuristic(pool):
    none = agents.load("gostop-search", determinizations=0, choice_determinizations=0, go_stop_determinizations=0)
    obs, mask = G.observe(pool), G.legal_mask(pool)
    np.testing.assert_array_equal(none.act(obs, mask, np.random.default_rng(0)),
                                  agents.load("gostop-greedy").act(obs, mask, None))


def test_go_stop_by_the_value_of_the_deal(pool):
    """With no margin at Go/Stop, the choice is the larger mean payout: Stop's is exact, Go's the
    play-outs' mean, so a Go whose play-outs always lose is never chosen over a paying Stop."""
    gs = pool.take(np.flatnonzero(pool.phase == 3))
    obs, mask = G.observe(gs), G.legal_mask(gs)
    bot = GoStopSearchBot(determinizations=0, choice_determinizations=0, go_stop_determinizations=64,
                          close_determinizations=0)
    seen = []
    search = bot._search

    def spy(*args):
        out = search(*args)
        seen.append(out)
        return out

    bot._search = spy
    acts = bot.act(obs, mask, np.random.default_rng(0))
    assert set(acts.tolist()) <= {GO, GO + 1} and len(seen) == 1
    best, runner, lead = seen[0]
    assert ((lead >= 0) | (best == GO + 1)).all()  # Go only when its mean is at least Stop's
    np.testing.assert_array_equal(np.sort(np.stack([best, runner]), axis=0),
                                  np.tile([[GO], [GO + 1]], (1, gs.batch_size)))


def test_close_moves_get_a_second_look(pool):
    states = pool.take(np.flatnonzero(pool.phase == 0)[:40])
    obs, mask = G.observe(states), G.legal_mask(states)
    calls = []
    for options in (dict(close_determinizations=0), dict(close=1e9)):
        bot = GoStopSearchBot(**dict(SMALL, **options))
        search = bot._search
        bot._search = lambda *a, search=search, tag=tuple(options): calls.append(tag) or search(*a)
        acts = bot.act(obs, mask, np.random.default_rng(0))
        assert mask[np.arange(states.batch_size), acts].all()
    # no second look without its samples; a huge `close` looks again at every game
    assert calls == [("close_determinizations",), ("close",), ("close",)]


@pytest.mark.parametrize("bad", [dict(determinizations=-1), dict(margin=-1), dict(candidates=0),
                                 dict(close=float("nan")), dict(close_determinizations=1.5)])
def test_bad_options_raise(bad):
    with pytest.raises(ValueError):
        agents.load("gostop-search", **bad)


def test_listed_and_plays_a_match():
    info = {b.name: b for b in agents.catalog("gostop")}
    assert "search" in info["gostop-search"].description and "gostop-search" not in agents.available("yacht")
    r = seat_swapped_match("gostop", agents.load("gostop-search", **SMALL), "gostop-search-v1", 2, seed=0)
    assert r.games >= 4


def test_the_benchmark_parses_its_bot_options():
    import argparse

    from benchmarks.gostop_search import bot_option

    assert bot_option("determinizations=32") == ("determinizations", 32)
    assert bot_option("name=x") == ("name", "x")
    with pytest.raises(argparse.ArgumentTypeError, match="expects KEY=VALUE"):
        bot_option("determinizations")
