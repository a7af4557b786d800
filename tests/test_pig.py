"""A fourth game joins through its descriptor alone: Pig (``tests/games/pig``) is registered
with ``envs.register_game`` and nothing else, then passes the conformance harness and works
through ``gymnasium.make``, the vector env and PettingZoo."""

from __future__ import annotations

import dataclasses

import gymnasium as gym
import numpy as np
import pytest

import agents
import envs
from envs.adapters.pettingzoo_env import make_aec_env
from envs.core.spec import GameSpec
from tests.conformance import harness
from tests.games.pig import HOLD, ROLL, SPEC, Pig


pytestmark = pytest.mark.usefixtures("pig")  # registered while this module runs (tests/conftest.py)


TestPigCore, TestPigAdapters = harness([SPEC])


def test_registration_makes_pig_a_game_everywhere():
    assert envs.game_spec("pig") is SPEC and envs.game_class("pig") is Pig
    assert "madang/Pig-v0" in gym.registry
    env = gym.make("madang/Pig-v0", num_players=3, target=20, opponents="random")
    obs, info = env.reset(seed=1)
    assert obs.shape == (Pig.obs_size,) and info["action_mask"].tolist() == [1, 0]
    venv = gym.make_vec("madang/Pig-v0", num_envs=4, vectorization_mode="vector_entry_point")
    obs, info = venv.reset(seed=2)
    assert obs.shape == (4, Pig.obs_size)
    aec = make_aec_env(Pig, num_players=2)
    aec.reset(seed=3)
    assert aec.agents == ["player_0", "player_1"]
    bot = agents.load("random")
    bot.check_game("pig")  # the bot registry and loaders read the same registry


def test_a_whole_game_by_the_rules():
    game = Pig(target=10)
    state = game.from_position({"to_move": 0, "scores": [7, 9], "turn_total": 0, "last_roll": 0,
                                "game_over": False}, seed=5)
    with pytest.raises(ValueError, match="illegal action 1"):
        game.step(state, np.array([HOLD]))  # nothing to bank yet
    while not state.done[0] and int(state.to_move[0]) == 0:
        rewards = game.step(state, np.array([ROLL]))
    pos = game.to_position(state)
    if state.done[0]:  # reached 10: banked at once, seat 0 wins
        assert pos["scores"][0] >= 10 and rewards[0].tolist() == [1.0, -1.0]
    else:  # rolled a 1: the turn total is lost and seat 1 moves
        assert pos["scores"] == [7, 9] and pos["last_roll"] == 1 and pos["turn_total"] == 0


def test_register_game_refuses_a_clash_and_unregister_keeps_the_builtin_games():
    clash = dataclasses.replace(SPEC, title="Another Pig")
    with pytest.raises(ValueError, match="registered already"):
        envs.register_game(clash)
    envs.register_game(SPEC)  # the same descriptor again: nothing happens
    with pytest.raises(ValueError, match="GameSpec"):
        envs.register_game(Pig)
    with pytest.raises(ValueError, match="envs package"):
        envs.unregister_game("yacht")
    with pytest.raises(ValueError, match="unknown game"):
        envs.unregister_game("chess")


class ReasonPig(Pig):
    """Pig whose results name how the game ended: a game with result reasons of its own."""

    name, env_id = "reason_pig", "madang/ReasonPig-v0"

    def _result(self, state, index):
        return {**super()._result(state, index), "reason": "target"}

    def _forfeit_result(self, state, index, loser, penalty):
        return super()._result(state, index)


def test_a_game_brings_its_own_result_reasons():
    from envs.adapters import infos
    from envs.adapters.infos import reason_code

    spec = dataclasses.replace(SPEC, game_cls=ReasonPig, result_fields=("scores", "reason"),
                               result_reasons=("target",))
    envs.register_game(spec)
    try:
        code = reason_code("target")
        assert infos.REASONS[code] == "target" and code == len(infos.REASONS) - 1 >= 6
        venv = gym.make_vec("madang/ReasonPig-v0", num_envs=2, vectorization_mode="vector_entry_point",
                            opponents="tests.games.pig.bot:hold_at_8")
        obs, info = venv.reset(seed=0)
        rng, finished = np.random.default_rng(0), 0
        for _ in range(400):
            actions = np.array([rng.choice(np.flatnonzero(m)) for m in info["action_mask"]])
            obs, rew, term, trunc, info = venv.step(actions)
            for i in np.flatnonzero(term):
                assert info["final_info"]["reason"][i] == "target"
                assert info["final_info"]["reason_code"][i] == code
                finished += 1
        assert finished
    finally:
        envs.unregister_game("reason_pig")
    with pytest.raises(ValueError, match="unknown result reason"):
        reason_code("target")


@pytest.mark.parametrize("change, problem", [
    (dict(game_cls=int), "Game subclass"), (dict(title=""), "title"),
    (dict(result_fields=()), "at least one"), (dict(result_fields=["scores"]), "tuple"),
    (dict(test_configs=()), "non-empty tuple"), (dict(test_configs=({"players": 2},)), "not keywords"),
    (dict(test_bot="no spaces please"), "test_bot"), (dict(demo_text="nocolon"), "module:attr"),
    (dict(demo_turn_over="a:b:c"), "demo_turn_over"), (dict(demo_turn_end=""), "demo_turn_end"),
])
def test_malformed_descriptors_are_refused(change, problem):
    with pytest.raises(ValueError, match=problem):
        dataclasses.replace(SPEC, **change)


def test_the_descriptor_reads_the_rest_from_the_game_class():
    assert (SPEC.name, SPEC.env_id) == ("pig", "madang/Pig-v0")
    assert SPEC.config_schema == {"num_players": 2, "target": 30, "reward": None}
    assert isinstance(SPEC.make(target=20), Pig) and isinstance(SPEC, GameSpec)
