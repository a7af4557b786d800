"""Adapter behaviour beyond the conformance harness (exercised on Yacht)."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import agents
import envs
from envs.yacht import SCORE_START


def _pos(to_move=1, players=2):
    return {"round": 3, "to_move": to_move, "dice": [2, 2, 2, 5, 5], "rolls_left": 0,
            "sheets": [[None] * 12 for _ in range(players)]}


def test_reset_from_position_lets_opponents_move_first():
    env = gym.make("madang/Yacht-v0", num_players=2, opponents="yacht-greedy")
    obs, info = env.reset(seed=0, options={"position": _pos(to_move=1)})
    pos = env.unwrapped.to_position()
    assert pos["to_move"] == 0 and pos["sheets"][1].count(None) == 11  # seat 1 scored once
    assert info["learner_seat"] == 0 and info["action_mask"].any()


def test_learner_reward_covers_opponent_span_in_win_mode():
    env = gym.make("madang/Yacht-v0", num_players=2, reward="win", opponents="yacht-solver")
    sheets = [[5] + [0] * 5 + [5] + [0] * 4 + [None], [None] + [0] * 5 + [5] + [0] * 5]
    env.reset(seed=0, options={"position": {"round": 12, "to_move": 0, "dice": [1, 1, 1, 1, 1],
                                            "rolls_left": 0, "sheets": sheets}})
    _, reward, terminated, _, info = env.step(SCORE_START + 11)  # Yacht: 50 points
    assert terminated and reward == 1.0 and info["scores"][0] == 60


def test_random_learner_seat_covers_all_seats():
    env = gym.make("madang/Yacht-v0", num_players=3, learner_seat=None)
    seats = {env.reset(seed=s)[1]["learner_seat"] for s in range(40)}
    assert seats == {0, 1, 2}


@pytest.mark.parametrize(
    "kwargs",
    [dict(num_players=3, opponents=["random"]), dict(num_players=2, opponents="nope"),
     dict(num_players=2, opponents=[object()]), dict(learner_seat=2), dict(learner_seat=True),
     dict(num_players=5), dict(num_players="2"), dict(reward="points"),
     dict(illegal_action="ignore"), dict(illegal_penalty="1")],
)
def test_bad_config_raises(kwargs):
    with pytest.raises(ValueError):
        gym.make("madang/Yacht-v0", **kwargs)


def test_opponents_list_in_seat_order_skipping_learner():
    env = gym.make("madang/Yacht-v0", num_players=3, learner_seat=1,
                   opponents=["yacht-solver", agents.load("random")]).unwrapped
    assert [b.name for b in env.opponents] == ["yacht-solver", "random"]
    env.reset(seed=0)
    assert env.to_position()["to_move"] == 1


def test_unsupported_render_mode_warns_and_renders_nothing():
    with pytest.warns(UserWarning, match="render_mode"):
        env = gym.make("madang/Yacht-v0", render_mode="rgb_array").unwrapped
    env.reset(seed=0)
    assert env.render() is None


def test_render_ansi_and_pettingzoo_render():
    env = gym.make("madang/Yacht-v0", render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert "round 1" in text and "seat 0" in text
    aec = envs.yacht.env(num_players=2, render_mode="ansi")
    aec.reset(seed=0)
    assert "seat 1" in aec.render()


def test_pettingzoo_rewards_and_results():
    aec = envs.yacht.env(num_players=2)
    aec.reset(seed=3)
    rng = np.random.default_rng(0)
    totals = {a: 0.0 for a in aec.possible_agents}
    for agent in aec.agent_iter():
        obs, reward, term, trunc, info = aec.last()
        totals[agent] += reward
        if term or trunc:
            assert info["scores"] and not obs["action_mask"].any()
            aec.step(None)
        else:
            aec.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert [totals[a] for a in aec.possible_agents] == info["scores"]


def test_pettingzoo_illegal_action_raises_then_lose_mode_ends():
    aec = envs.yacht.env(num_players=2)
    aec.reset(seed=0)
    with pytest.raises(ValueError, match="legal actions"):
        aec.step(0)
    aec = envs.yacht.env(num_players=2, illegal_action="lose")
    aec.reset(seed=0)
    aec.step(0)
    assert all(aec.terminations.values())
    assert aec.rewards == {"player_0": -1.0, "player_1": 0.0}
    assert aec.infos["player_1"]["reason"] == "illegal"


def test_vector_env_final_info_and_same_step_reset():
    venv = gym.make_vec("madang/Yacht-v0", num_envs=3, vectorization_mode="vector_entry_point")
    obs, info = venv.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(200):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in info["action_mask"]])
        obs, rew, term, trunc, info = venv.step(actions)
        if term.any():
            i = int(np.flatnonzero(term)[0])
            assert info["_final_info"][i] and len(info["final_info"]["scores"][i]) == 1
            assert info["action_mask"][i].any()  # the new game is live
            assert venv.unwrapped.state.rolls_left[i] == 2
            return
    raise AssertionError("no game ended")


def test_vector_env_rejects_illegal_actions():
    venv = gym.make_vec("madang/Yacht-v0", num_envs=2, vectorization_mode="vector_entry_point")
    venv.reset(seed=0)
    with pytest.raises(ValueError, match="illegal"):
        venv.step(np.array([0, 0]))
    with pytest.raises(ValueError):
        venv.step(np.array([1]))


# ------------------------------------------------------------------ hardening (issue 9)
@pytest.mark.parametrize("mode", ["rgb_array", "human", "rgb_array_list"])
@pytest.mark.parametrize("game", ["madang/Yacht-v0", "madang/GoStop-v0"])
def test_unsupported_render_mode_renders_nothing_under_gym_make(game, mode):
    with pytest.warns(UserWarning, match="render_mode"):
        env = gym.make(game, render_mode=mode)
    env.reset(seed=0)
    assert env.render() is None and env.unwrapped.render_mode is None
    with pytest.warns(UserWarning, match="render_mode"):
        aec = envs.gostop.env(render_mode=mode)
    aec.reset(seed=0)
    assert aec.render() is None


@pytest.mark.parametrize("penalty", [float("nan"), float("inf"), -float("inf"), -1, 0, 0.0])
def test_illegal_penalty_must_be_positive_and_finite(penalty):
    for make in (lambda: gym.make("madang/GoStop-v0", illegal_action="lose", illegal_penalty=penalty),
                 lambda: envs.gostop.env(illegal_action="lose", illegal_penalty=penalty)):
        with pytest.raises(ValueError, match="illegal_penalty"):
            make()


@pytest.mark.parametrize("penalty", [1e308, np.float64(1e300), 3.4e38, 1.000001e18, 10**19, 10**400, np.complex64(1)],
                         ids=["1e308", "np1e300", "3.4e38", "just-above", "int1e19", "int1e400", "complex"])
def test_illegal_penalty_must_fit_the_rewards(penalty):
    """A penalty that float32 rewards (or int64 payouts) cannot hold is refused, not turned into -inf."""
    for make in (lambda: gym.make("madang/GoStop-v0", illegal_action="lose", illegal_penalty=penalty),
                 lambda: gym.make_vec("madang/GoStop-v0", num_envs=2, vectorization_mode="vector_entry_point",
                                      illegal_action="lose", illegal_penalty=penalty),
                 lambda: envs.gostop.env(illegal_action="lose", illegal_penalty=penalty)):
        with pytest.raises(ValueError, match="illegal_penalty"):
            make()


def test_the_largest_penalty_keeps_rewards_and_payouts_finite():
    from envs.adapters.actions import MAX_ILLEGAL_PENALTY

    venv = gym.make_vec("madang/GoStop-v0", num_envs=2, vectorization_mode="vector_entry_point",
                        illegal_action="lose", illegal_penalty=MAX_ILLEGAL_PENALTY)
    _, info = venv.reset(seed=0)
    _, reward, terminated, _, info = venv.step(np.argmin(info["action_mask"], axis=1))  # an illegal action each
    assert terminated.all() and np.isfinite(reward).all() and (reward == -np.float32(MAX_ILLEGAL_PENALTY)).all()
    assert info["final_info"]["payout"].dtype == np.int64
    assert (info["final_info"]["payout"] == int(MAX_ILLEGAL_PENALTY)).all()
    aec = envs.gostop.env(illegal_action="lose", illegal_penalty=MAX_ILLEGAL_PENALTY)
    aec.reset(seed=0)
    mask = aec.observe(aec.agent_selection)["action_mask"]
    aec.step(int(np.argmin(mask)))
    assert all(np.isfinite(np.float32(r)) for r in aec.rewards.values())


@pytest.mark.parametrize("game", ["madang/Yacht-v0", "madang/RainbowDice-v0", "madang/GoStop-v0"])
def test_a_forfeited_game_exports_no_live_position(game):
    env = gym.make(game, illegal_action="lose", illegal_penalty=2).unwrapped
    _, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert terminated and reward == -2 and info["reason"] == "illegal"
    if "payout" in info:
        assert info["payout"] == 2 and info["winner"] == 1 - info["learner_seat"]
    with pytest.raises(ValueError, match="illegal action"):
        env.to_position()
    assert not env.action_masks().any()
    env.reset(seed=1)
    assert env.to_position()  # a new game exports again
    aec = envs.gostop.env(illegal_action="lose")
    aec.reset(seed=1)
    mask = aec.observe(aec.agent_selection)["action_mask"]
    aec.step(int(np.flatnonzero(mask == 0)[0]))
    with pytest.raises(ValueError, match="illegal action"):
        aec.unwrapped.to_position()


@pytest.mark.parametrize("options", [[], ["position"], 3, "position", (("position", {}),)])
def test_non_dict_reset_options_raise_value_error(options):
    with pytest.raises(ValueError, match="options"):
        gym.make("madang/Yacht-v0").reset(options=options)
    with pytest.raises(ValueError, match="options"):
        envs.yacht.env().reset(options=options)
    with pytest.raises(ValueError, match="options"):
        gym.make_vec("madang/Yacht-v0", num_envs=2, vectorization_mode="vector_entry_point").reset(
            options=options)


def test_unknown_config_keywords_raise_value_error_naming_them():
    makers = [lambda **kw: gym.make("madang/Yacht-v0", **kw),
              lambda **kw: envs.yacht.env(**kw),
              lambda **kw: gym.make_vec("madang/Yacht-v0", num_envs=2,
                                        vectorization_mode="vector_entry_point", **kw)]
    for make in makers:
        with pytest.raises(ValueError, match="num_player"):
            make(num_player=2)
    with pytest.raises(ValueError, match="copies"):
        gym.make("madang/RainbowDice-v0", copies=3)


@pytest.mark.parametrize("seats", [np.array([2]), np.array([-1]), np.array([0.0]), np.array([True]),
                                   np.array([0, 1])])
def test_observe_rejects_seats_out_of_range(seats):
    for name in envs.GAMES:
        game = envs.game_class(name)(num_players=2)
        state = game.init([0])
        with pytest.raises(ValueError, match="seat"):
            game.observe(state, seats)
        np.testing.assert_array_equal(game.observe(state, np.array([1])), game.observe(state, 1))


def test_gym_make_skips_the_passive_checker_unless_asked():
    """The conformance tests run gymnasium's check_env, so gym.make leaves its per-step
    checker out (users can still ask for it); the masks handed out stay fresh copies."""
    env = gym.make("madang/Yacht-v0")
    assert not isinstance(env, gym.wrappers.PassiveEnvChecker)
    assert isinstance(gym.make("madang/Yacht-v0", disable_env_checker=False).env, gym.wrappers.PassiveEnvChecker)
    obs, info = env.reset(seed=1)
    info["action_mask"][:] = 0  # the caller's copy: the env's own mask is unaffected
    env.unwrapped.action_masks()[:] = 0
    assert env.unwrapped.action_masks().sum() == 43
    env.step(SCORE_START)
    assert env.unwrapped.action_masks().tolist() == env.unwrapped.game.legal_mask(env.unwrapped.state)[0].tolist()
