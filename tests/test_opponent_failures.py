"""A failing opponent bot (it raises, or picks an illegal or malformed action) inside an env.

The env raises :class:`~envs.adapters.seats.OpponentError` naming the bot and rolls the
whole span back: the state before the learner's action (random stream counters
included), ``np_random`` and the learner's seat, so the env is exactly where it was and
the same action can be stepped again.
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import agents
from envs.adapters.seats import OpponentError
from envs.registration import GAMES, game_class
from tests.conformance import deterministic_bot, seated_config

GOOD_BOT = {name: deterministic_bot(name) for name in GAMES}
CONFIG = {name: dict(seated_config(name), learner_seat=0) for name in GAMES}
FAILURES = ("raise", "illegal", "out_of_range", "wrong_shape", "float")


class Flaky(agents.Bot):
    """Plays like ``inner`` until armed, then fails in the way ``how`` names."""

    name = "flaky-bot"

    def __init__(self, inner, how):
        self.inner, self.how, self.armed = agents.load(inner), how, False

    def act(self, observation, mask, rng):
        good = self.inner.act(observation, mask, rng)
        if not self.armed:
            return good
        if self.how == "raise":
            raise RuntimeError("the bot crashed")
        if self.how == "illegal":
            return np.array([int(np.flatnonzero(~np.asarray(m, bool))[0]) for m in mask])
        if self.how == "out_of_range":
            return np.full(len(good), mask.shape[1])
        if self.how == "wrong_shape":
            return good[:0]
        return good.astype(np.float64)


def _learner_actions(env, rng, n):
    return [int(rng.choice(np.flatnonzero(env.action_masks()))) for _ in range(n)]


@pytest.mark.parametrize("how", FAILURES)
@pytest.mark.parametrize("game_name", sorted(GAMES))
def test_single_env_rolls_back_and_names_the_bot(game_name, how):
    env_id = game_class(game_name).env_id
    flaky = Flaky(GOOD_BOT[game_name], how)
    env = gym.make(env_id, opponents=flaky, **CONFIG[game_name]).unwrapped
    twin = gym.make(env_id, opponents=GOOD_BOT[game_name], **CONFIG[game_name]).unwrapped
    env.reset(seed=3)
    twin.reset(seed=3)
    rng = np.random.default_rng(0)
    for step in range(400):
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        state, rng_state, mask = env.state.copy(), env.np_random.bit_generator.state, env.action_masks()
        flaky.armed = step >= 6  # after some steps, so the env's snapshot buffer is a reused one
        try:
            out = env.step(action)
        except OpponentError as e:
            assert "flaky-bot" in str(e) and e.bot is flaky
            assert env.state.equals(state)
            assert env.np_random.bit_generator.state == rng_state
            np.testing.assert_array_equal(env.action_masks(), mask)
            flaky.armed = False  # the bot recovers: the same action gives what the twin gets
            again, ref = env.step(action), twin.step(action)
            np.testing.assert_array_equal(again[0], ref[0])
            assert again[1:4] == ref[1:4] and env.state.equals(twin.state)
            return
        flaky.armed = False
        ref = twin.step(action)
        assert out[1] == ref[1] and env.state.equals(twin.state)
        if out[2]:
            env.reset()
            twin.reset()
    raise AssertionError("the opponent never moved")


@pytest.mark.parametrize("how", ("raise", "illegal"))
@pytest.mark.parametrize("game_name", sorted(GAMES))
def test_vector_env_rolls_back_and_names_the_bot(game_name, how):
    env_id = game_class(game_name).env_id
    flaky = Flaky(GOOD_BOT[game_name], how)
    kwargs = dict(num_envs=3, vectorization_mode="vector_entry_point", **CONFIG[game_name])
    venv = gym.make_vec(env_id, opponents=flaky, **kwargs).unwrapped
    twin = gym.make_vec(env_id, opponents=GOOD_BOT[game_name], **kwargs).unwrapped
    venv.reset(seed=8)
    twin.reset(seed=8)
    rng = np.random.default_rng(1)
    for _ in range(400):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in venv.action_masks()])
        state, seats = venv.state.copy(), venv.learner_seat.copy()
        rng_state = venv._np_random.bit_generator.state
        flaky.armed = True
        try:
            out = venv.step(actions)
        except OpponentError as e:
            assert "flaky-bot" in str(e)
            assert venv.state.equals(state) and (venv.learner_seat == seats).all()
            assert venv._np_random.bit_generator.state == rng_state
            flaky.armed = False
            again, ref = venv.step(actions), twin.step(actions)
            np.testing.assert_array_equal(again[0], ref[0])
            np.testing.assert_array_equal(again[1], ref[1])
            assert venv.state.equals(twin.state)
            return
        flaky.armed = False
        ref = twin.step(actions)
        np.testing.assert_array_equal(out[1], ref[1])
    raise AssertionError("the opponent never moved")


def test_failing_opponent_during_reset_changes_nothing():
    flaky = Flaky("yacht-greedy", "raise")
    env = gym.make("madang/Yacht-v0", num_players=2, learner_seat=1, opponents=flaky).unwrapped
    env.reset(seed=0)
    state, rng_state = env.state.copy(), env.np_random.bit_generator.state
    flaky.armed = True
    with pytest.raises(OpponentError, match="flaky-bot"):
        env.reset(seed=5)
    assert env.state.equals(state) and env.np_random.bit_generator.state == rng_state
    venv = gym.make_vec("madang/Yacht-v0", num_envs=2, vectorization_mode="vector_entry_point",
                        num_players=2, learner_seat=1, opponents=flaky).unwrapped
    flaky.armed = False
    venv.reset(seed=0)
    state = venv.state.copy()
    flaky.armed = True
    with pytest.raises(OpponentError, match="flaky-bot"):
        venv.reset(seed=5)
    assert venv.state.equals(state)


def test_opponent_error_is_not_a_value_error():
    """Callers that catch ValueError for their own illegal actions do not swallow it."""
    assert not issubclass(OpponentError, ValueError)
