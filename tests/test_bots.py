"""Bots: loader, batched interface, and reference values (the Yacht solver's exact optimum)."""

from __future__ import annotations

import numpy as np
import pytest

import agents
from agents.play import play_out
from agents.yacht_dp import solve
from envs.core.sampling import sample_legal
from envs.registration import game_class
from envs.yacht import Yacht

SPEC_OPTIMUM = 169.7739

pytestmark = pytest.mark.slow


def play_solitaire(bot, n, seed=0):
    """Final scores of ``n`` solitaire Yacht games played by ``bot`` in one batch."""
    g = Yacht(num_players=1)
    s = g.init(np.arange(seed, seed + n))
    return play_out(g, s, [bot], np.random.default_rng(seed))[:, 0]  # the core rejects illegal actions


def test_solver_value_matches_spec():
    assert f"{solve().optimal_score:.4f}" == "169.7739"


def test_solver_monte_carlo_agrees_with_dp():
    scores = play_solitaire(agents.load("yacht-solver"), 6000, seed=123)
    se = scores.std(ddof=1) / np.sqrt(scores.size)
    assert abs(scores.mean() - solve().optimal_score) < 3 * se, (scores.mean(), se)
    assert 30 < scores.std() < 40  # spec: about 35.3


def test_greedy_and_random_reference_levels():
    greedy = play_solitaire(agents.load("yacht-greedy"), 2000)
    rand = play_solitaire(agents.load("random"), 2000)
    assert 105 < greedy.mean() < 130  # spec: about 110
    assert 33 < rand.mean() < 41  # spec: about 37
    assert greedy.mean() < SPEC_OPTIMUM


def test_loader_knows_every_bot_and_rejects_unknown():
    for name in agents.available():
        assert agents.load(name).name == name
    with pytest.raises(ValueError, match="available"):
        agents.load("no-such-bot")


@pytest.mark.parametrize("name", ["random", "yacht-greedy", "yacht-solver"])
@pytest.mark.parametrize("players", [1, 2, 4])
def test_bots_pick_legal_actions_in_multiplayer_games(name, players):
    g = Yacht(num_players=players)
    s = g.init(np.arange(40))
    totals = play_out(g, s, [agents.load(name)], np.random.default_rng(0), np.zeros((40, players), int))
    np.testing.assert_array_equal(totals, g.totals(s))


def test_bot_rejects_bad_batches():
    bot = agents.load("yacht-solver")
    g = Yacht()
    s = g.init([0])
    with pytest.raises(ValueError):
        bot.act(g.observe(s)[0], g.legal_mask(s)[0], np.random.default_rng())
    with pytest.raises(ValueError):
        bot.act(g.observe(s), np.zeros((1, g.num_actions), bool), np.random.default_rng())


def test_yacht_bot_refuses_other_games():
    bot = agents.load("yacht-greedy")
    with pytest.raises(ValueError):
        bot.check_game("gostop")
    bot.check_game("yacht")


def test_solver_as_env_opponent():
    import gymnasium as gym

    env = gym.make("madang/Yacht-v0", num_players=2, opponents="yacht-solver")
    obs, info = env.reset(seed=0)
    done = False
    rng = np.random.default_rng(0)
    while not done:
        obs, r, done, _, info = env.step(int(sample_legal(info["action_mask"][None], rng)[0]))
    assert info["scores"][1] > info["scores"][0]  # the solver beats random play
    assert game_class("yacht") is Yacht


@pytest.mark.parametrize("name", ["yacht-greedy", "yacht-solver", "rainbow-greedy", "rainbow-simple", "gostop-greedy"])
def test_game_bots_reject_other_games_observations(name):
    with pytest.raises(ValueError, match="observations of size"):
        agents.load(name).act(np.zeros((2, 7), np.float32), np.ones((2, 9), bool), np.random.default_rng())


def test_shipped_yacht_ppo_loads_offline_and_plays_well():
    bot = agents.load("yacht-ppo")
    assert bot.metadata["env_id"] == "madang/Yacht-v0" and bot.metadata["obs_size"] == Yacht.obs_size
    shipped = bot.metadata["shipped_evaluation"]
    assert shipped["games"] >= 10_000 and shipped["fraction_of_optimum"] >= 0.98
    scores = play_solitaire(bot, 1000, seed=77)
    # Shipped at 169.02 +- 0.35 over 10^4 games (99.55 % of the optimum); 1000 games have a
    # standard error of about 1.1, so 165 is far below the shipped bot and above the PPO-trained
    # network it replaced (163.00).
    assert scores.mean() > 165


def test_catalog_lists_every_bot_with_its_game():
    infos = {b.name: b for b in agents.catalog()}
    assert set(infos) == set(agents.available())
    assert infos["random"].game is None and infos["yacht-ppo"].game == "yacht"
    assert all(b.description for b in infos.values())
    for game in ("yacht", "rainbow_dice", "gostop"):
        names = agents.available(game)
        assert "random" in names
        for n in names:
            bot = agents.load(n)
            bot.check_game(game)  # every listed bot plays the game
    assert "gostop-greedy" not in agents.available("yacht")
