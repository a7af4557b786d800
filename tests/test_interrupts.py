"""An interrupt (``KeyboardInterrupt``, ``SystemExit``) inside an env's call rolls the env back.

A bot that is interrupted in the middle of its move (Ctrl-C during a search, ``sys.exit`` in
a policy) must leave the env exactly as it was before the call, as a failing bot does
(``test_opponent_failures.py``), and the interrupt must reach the caller unchanged.  Then the
same call, repeated, gives what an env that was never interrupted gives.
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import agents
from envs.registration import GAMES, game_class
from tests.conformance import deterministic_bot, seated_config

GOOD_BOT = {name: deterministic_bot(name) for name in GAMES}
CONFIG = {name: dict(seated_config(name), learner_seat=0) for name in GAMES}
INTERRUPTS = (KeyboardInterrupt, SystemExit)


class Interrupted(agents.Bot):
    """Plays like ``inner`` until armed, then raises ``interrupt`` in its move (after drawing
    from the generator, so that a missed rollback shows there too)."""

    name = "interrupted-bot"

    def __init__(self, inner, interrupt):
        self.inner, self.interrupt, self.armed = agents.load(inner), interrupt, False

    def act(self, observation, mask, rng):
        rng.random()
        if self.armed:
            raise self.interrupt()
        return self.inner.act(observation, mask, rng)


def _snapshot(env):
    return env.state.copy(), env.np_random.bit_generator.state, env.action_masks()


def _unchanged(env, snap) -> bool:
    state, rng_state, mask = snap
    return env.state.equals(state) and env.np_random.bit_generator.state == rng_state \
        and np.array_equal(env.action_masks(), mask)


@pytest.mark.parametrize("interrupt", INTERRUPTS)
@pytest.mark.parametrize("game_name", sorted(GAMES))
def test_single_env_step_rolls_back_on_an_interrupt(game_name, interrupt):
    env_id = game_class(game_name).env_id
    bot = Interrupted(GOOD_BOT[game_name], interrupt)
    env = gym.make(env_id, opponents=bot, **CONFIG[game_name]).unwrapped
    twin = gym.make(env_id, opponents=GOOD_BOT[game_name], **CONFIG[game_name]).unwrapped
    env.reset(seed=3)
    twin.reset(seed=3)
    rng = np.random.default_rng(0)
    for step in range(400):
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        snap = _snapshot(env)
        bot.armed = step >= 4
        try:
            out = env.step(action)
        except interrupt:
            assert _unchanged(env, snap)
            bot.armed = False
            again, ref = env.step(action), twin.step(action)
            np.testing.assert_array_equal(again[0], ref[0])
            assert again[1:4] == ref[1:4] and env.state.equals(twin.state)
            return
        bot.armed = False
        ref = twin.step(action)
        assert out[1] == ref[1] and env.state.equals(twin.state)
        if out[2]:
            env.reset()
            twin.reset()
    raise AssertionError("the opponent never moved")


@pytest.mark.parametrize("interrupt", INTERRUPTS)
@pytest.mark.parametrize("game_name", sorted(GAMES))
def test_single_env_reset_rolls_back_on_an_interrupt(game_name, interrupt):
    env_id = game_class(game_name).env_id
    bot = Interrupted(GOOD_BOT[game_name], interrupt)
    config = dict(CONFIG[game_name], learner_seat=1)  # the bot moves first in every new game
    env = gym.make(env_id, opponents=bot, **config).unwrapped
    env.reset(seed=0)
    snap = _snapshot(env)
    bot.armed = True
    for seed in (5, None):  # a new stream, and the current one continued
        with pytest.raises(interrupt):
            env.reset(seed=seed)
        assert _unchanged(env, snap)
    bot.armed = False
    twin = gym.make(env_id, opponents=GOOD_BOT[game_name], **config).unwrapped
    twin.reset(seed=0)
    np.testing.assert_array_equal(env.reset()[0], twin.reset()[0])
    assert env.state.equals(twin.state)


@pytest.mark.parametrize("interrupt", INTERRUPTS)
@pytest.mark.parametrize("game_name", sorted(GAMES))
def test_vector_env_rolls_back_on_an_interrupt(game_name, interrupt):
    env_id = game_class(game_name).env_id
    bot = Interrupted(GOOD_BOT[game_name], interrupt)
    kwargs = dict(num_envs=3, vectorization_mode="vector_entry_point", **CONFIG[game_name])
    venv = gym.make_vec(env_id, opponents=bot, **kwargs).unwrapped
    twin = gym.make_vec(env_id, opponents=GOOD_BOT[game_name], **kwargs).unwrapped
    venv.reset(seed=8)
    twin.reset(seed=8)

    def snapshot():
        return (venv.state.copy(), venv.learner_seat.copy(), venv._np_random.bit_generator.state,
                venv.action_masks())

    def unchanged(snap):
        state, seats, rng_state, mask = snap
        return venv.state.equals(state) and (venv.learner_seat == seats).all() \
            and venv._np_random.bit_generator.state == rng_state and np.array_equal(venv.action_masks(), mask)

    rng = np.random.default_rng(1)
    for _ in range(400):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in venv.action_masks()])
        snap = snapshot()
        bot.armed = True
        try:
            out = venv.step(actions)
        except interrupt:
            assert unchanged(snap)
            bot.armed = False
            again, ref = venv.step(actions), twin.step(actions)
            np.testing.assert_array_equal(again[0], ref[0])
            np.testing.assert_array_equal(again[1], ref[1])
            assert venv.state.equals(twin.state)
            return
        bot.armed = False
        ref = twin.step(actions)
        np.testing.assert_array_equal(out[1], ref[1])
    raise AssertionError("the opponent never moved")


@pytest.mark.parametrize("interrupt", INTERRUPTS)
@pytest.mark.parametrize("game_name", sorted(GAMES))
def test_vector_env_reset_rolls_back_on_an_interrupt(game_name, interrupt):
    env_id = game_class(game_name).env_id
    bot = Interrupted(GOOD_BOT[game_name], interrupt)
    kwargs = dict(num_envs=4, vectorization_mode="vector_entry_point", **dict(CONFIG[game_name], learner_seat=1))
    venv = gym.make_vec(env_id, opponents=bot, **kwargs).unwrapped
    venv.reset(seed=8)
    state, masks, rng_state = venv.state.copy(), venv.action_masks(), venv._np_random.bit_generator.state
    bot.armed = True
    for seed, options in ((9, None), (None, {"reset_mask": np.ones(4, bool)}), (3, {"reset_mask": np.ones(4, bool)})):
        with pytest.raises(interrupt):
            venv.reset(seed=seed, options=options)
        assert venv.state.equals(state) and np.array_equal(venv.action_masks(), masks)
        assert venv._np_random.bit_generator.state == rng_state
    bot.armed = False
    twin = gym.make_vec(env_id, opponents=GOOD_BOT[game_name], **kwargs).unwrapped
    twin.reset(seed=8)
    options = {"reset_mask": np.ones(4, bool)}
    np.testing.assert_array_equal(venv.reset(options=options)[0], twin.reset(options=options)[0])
    assert venv.state.equals(twin.state)


@pytest.mark.parametrize("game_name", sorted(GAMES))
def test_aec_env_step_rolls_back_on_an_interrupt(game_name, monkeypatch):
    """The AEC env has no bots; an interrupt that lands after the core's step (here: in the
    next mask) still leaves it where it was."""
    make = __import__(f"envs.{game_name}", fromlist=["env"]).env
    env, twin = make(num_players=2), make(num_players=2)
    env.reset(seed=2)
    twin.reset(seed=2)
    inner = env.unwrapped
    rng = np.random.default_rng(0)
    for step in range(6):
        agent = env.agent_selection
        action = int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"])))
        state, mask, rewards = inner.state.copy(), inner._mask.copy(), dict(env._cumulative_rewards)
        if step == 3:
            real = inner.game.legal_mask

            def interrupted(*args, **kwargs):
                raise KeyboardInterrupt

            monkeypatch.setattr(inner.game, "legal_mask", interrupted)
            with pytest.raises(KeyboardInterrupt):
                env.step(action)
            monkeypatch.setattr(inner.game, "legal_mask", real)
            assert inner.state.equals(state) and np.array_equal(inner._mask, mask)
            assert env.agent_selection == agent and dict(env._cumulative_rewards) == rewards
        env.step(action)
        twin.step(action)
        assert inner.state.equals(twin.unwrapped.state) and env.agent_selection == twin.agent_selection
