"""Env-step throughput: the batched core versus a plain per-game Python loop.

One env step = one action applied to each of the B games, returning the new
legal masks and the acting seat's observations.  Actions are uniformly random
legal ones, chosen by a vectorized sampler whose time is counted; finished
games are replaced at once (counted too).  The per-game loop steps B single
Gymnasium envs (the core at batch size 1, unwrapped) one after another with the
same kind of random legal choice, which is what a user without the batched core
would write; in multi-player games the decisions the env's opponent bots make
inside ``step`` count as env steps too, so both sides count every decision.
Both figures come from the same run, side by side.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass

import numpy as np

from agents.random_bot import RandomBot
from envs.adapters.gym_env import MadangEnv
from envs.core.sampling import sample_legal
from envs.registration import game_class

DEFAULT_BATCHES = (1, 16, 256, 4096, 16384)


@dataclass
class BenchResult:
    """One benchmark row: env steps per second of the batched core and of the loop."""

    game: str
    batch: int
    steps_per_s: float
    loop_steps_per_s: float
    steps: int
    loop_steps: int

    @property
    def ratio(self) -> float:
        """How many times faster the batched core is than the per-game loop."""
        return self.steps_per_s / self.loop_steps_per_s

    def as_dict(self) -> dict:
        return dict(asdict(self), ratio=self.ratio)


def bench_batched(game_name: str, batch: int, seconds: float = 1.0, seed: int = 0, **config) -> tuple[float, int]:
    """Env steps/s of the batched core at batch size ``batch`` (random legal play)."""
    game = game_class(game_name)(**config)
    state = game.init(seed + np.arange(batch))
    rng = np.random.default_rng(seed)
    mask = game.legal_mask(state)
    obs = game.observe(state)
    steps, start = 0, time.perf_counter()
    deadline = start + seconds
    while True:
        actions = sample_legal(mask, rng)
        game.step(state, actions, check=False)
        game.reset_where(state, state.done)
        mask = game.legal_mask(state)
        obs = game.observe(state)
        steps += batch
        if time.perf_counter() >= deadline:
            break
    del obs
    return steps / (time.perf_counter() - start), steps


def bench_loop(game_name: str, batch: int, seconds: float = 1.0, seed: int = 0, **config) -> tuple[float, int]:
    """Env steps/s of a plain Python loop over ``batch`` single envs (random legal play).

    Every pass steps each env once; passes repeat until ``seconds`` have elapsed (at
    least one full pass, so large batches are measured over all their envs).
    """
    opponent = _CountingRandomBot()
    config = {"opponents": opponent, **config}
    envs = [MadangEnv(game_class(game_name), **config) for _ in range(batch)]
    rng = np.random.default_rng(seed)
    masks = []
    for i, env in enumerate(envs):
        _, info = env.reset(seed=seed + i)
        masks.append(info["action_mask"])
    steps, start = 0, time.perf_counter()
    deadline = start + seconds
    opponent.decisions = 0
    while True:
        for i, env in enumerate(envs):
            action = rng.choice(np.flatnonzero(masks[i]))
            _, _, terminated, truncated, info = env.step(action)
            if terminated or truncated:
                _, info = env.reset()
            masks[i] = info["action_mask"]
        steps += batch
        if time.perf_counter() >= deadline:
            break
    steps += opponent.decisions
    return steps / (time.perf_counter() - start), steps


class _CountingRandomBot(RandomBot):
    """Random legal play that counts the decisions it makes (opponent seats in the loop)."""

    decisions = 0

    def act(self, observation, mask, rng):
        actions = super().act(observation, mask, rng)
        self.decisions += len(actions)
        return actions


def run(game_name: str, batches=DEFAULT_BATCHES, seconds: float = 1.0, **config):
    """Yield a :class:`BenchResult` per batch size (batched core and loop measured back to back)."""
    for b in batches:
        sps, n = bench_batched(game_name, b, seconds, **config)
        lsps, ln = bench_loop(game_name, b, seconds, **config)
        yield BenchResult(game_name, b, sps, lsps, n, ln)
