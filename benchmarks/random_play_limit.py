"""The cost floor of a compiled step: a minimal compiled random-play kernel per game.

``madang bench`` compares the core's env steps per second with this limit.  One *limit
step* is one call, from a Python loop, of a compiled function that for every game of the
batch

1. writes the legal mask and the observation of the seat to move,
2. draws a uniformly random legal action from that mask (a counter-based draw),
3. applies it with the game's own compiled step;

so a step costs one kernel dispatch plus the rules themselves.  Finished games are
replaced (``reset_where``, trusted) in the same Python loop, as in the core's loop, before
the next call masks and observes them.  What
the core adds on top of this (Python-side validation, the output allocations, one dispatch
per public call, the random policy in numpy) is the price of its public API.
"""

from __future__ import annotations

import time

import numpy as np

from envs.core.kernels import draw_int, kernel, legal_count, nth_legal
from envs.gostop import kernels as _gostop
from envs.rainbow_dice import kernels as _rainbow
from envs.rainbow_dice.turn_dp import reach_table
from envs.registration import game_class
from envs.yacht import kernels as _yacht

_BENCH_KEY = np.uint64(0x9E3779B97F4A7C15)  # the stream of the limit's random policy


@kernel(inline=True)
def choose(mask, draws, actions):
    """``actions[i]``: a uniform legal action of every row of ``mask`` (0 for an empty row),
    from draw ``draws`` of the policy's stream (one draw per row)."""
    for i in range(mask.shape[0]):
        k = legal_count(mask, i)
        actions[i] = nth_legal(mask, i, draw_int(_BENCH_KEY, draws + np.uint64(i), k)) if k else 0


@kernel(inline=True)
def any_done(done):
    """True when some game of the batch is over."""
    for i in range(done.shape[0]):
        if done[i]:
            return True
    return False


@kernel
def yacht_step(draws, actions, rewards, mask, obs, buf, score_rewards):
    """One limit step of Yacht (see the module docstring); True when a game finished."""
    s = _yacht.unpack(buf)
    _yacht.legal_mask(buf, mask)
    _yacht.observe(buf, s.to_move, obs)
    choose(mask, draws, actions)
    rewards[:] = 0.0
    _yacht.step(buf, actions, rewards, score_rewards)
    return any_done(s.done)


@kernel
def rainbow_step(draws, actions, rewards, mask, obs, buf, reach, cfg):
    """One limit step of Rainbow Dice; True when a game finished."""
    s = _rainbow.unpack(buf)
    _rainbow.legal_mask(buf, mask)
    _rainbow.observe(buf, s.to_move, reach, obs)
    choose(mask, draws, actions)
    rewards[:] = 0.0
    _rainbow.step(buf, actions, rewards, cfg)
    return any_done(s.done)


@kernel
def gostop_step(draws, actions, rewards, mask, obs, buf):
    """One limit step of Go-Stop; True when a game finished."""
    s = _gostop.unpack(buf)
    _gostop.legal_mask(buf, mask)
    _gostop.observe(buf, s.to_move, obs)
    choose(mask, draws, actions)
    rewards[:] = 0.0
    _gostop.step(buf, actions, rewards)
    return any_done(s.done)


def _call(game, state, B: int):
    """``(kernel, arguments after the buffers)`` of a game's limit step over ``state``."""
    s = state
    if game.name == "yacht":
        return yacht_step, (s.buffer, game.reward == "score")
    if game.name == "rainbow_dice":
        return rainbow_step, (s.buffer, reach_table(), game._step_cfg)
    if game.name == "gostop":
        return gostop_step, (s.buffer,)
    raise ValueError(f"no limit kernel for {game.name}")


def bench_limit(game_name: str, batch: int, seconds: float = 1.0, seed: int = 0, **config) -> tuple[float, int]:
    """Env steps/s of the limit kernel at batch size ``batch``: ``(steps_per_s, steps)``."""
    game = game_class(game_name)(**config)
    state = game.init(seed + np.arange(batch))
    mask = np.empty((batch, game.num_actions), bool)
    obs = np.empty((batch, game.obs_size), np.float32)
    actions = np.zeros(batch, np.int64)
    rewards = np.zeros((batch, game.num_players), np.float32)
    step, args = _call(game, state, batch)
    draws = np.uint64(seed) << np.uint64(40)
    if step(draws, actions, rewards, mask, obs, *args):  # compiled (or loaded) before the clock starts
        game.reset_where(state, state.done, check=False)
    steps, start = 0, time.perf_counter()
    deadline = start + seconds
    while True:
        if step(draws, actions, rewards, mask, obs, *args):
            game.reset_where(state, state.done, check=False)
        draws += np.uint64(batch)
        steps += batch
        if steps % (64 * batch) == 0 and time.perf_counter() >= deadline:
            break
    return steps / (time.perf_counter() - start), steps
