"""Env-step throughput: the compiled core, its numpy oracle, a per-game loop and the envs.

One env step = one action applied to each of the B games, returning the new legal masks
and the acting seat's observations.  Actions are uniformly random legal ones (one
``rng.random`` number per game, turned into the r-th legal action by the compiled
:func:`~envs.core.sampling.sample_legal` with ``tries=0``), chosen and timed inside the
loop; finished games are replaced at once (counted too).  Measured side by side in one
run:

* **core**: the batched core (the compiled rules) at batch size B through the trusted calls
  (``check=False``), and the mean time of one ``game.step`` call;
* **checked**: the same loop through the public calls as a user makes them (``check=True``, the
  default: every call validates the state, the actions and the ``where`` argument);
* **limit**: the minimal compiled random-play kernel of :mod:`benchmarks.random_play_limit`, one
  compiled call per step choosing, stepping, masking and observing: the cost floor of a
  compiled step per Python call.  ``core %`` and ``checked %`` are the core's steps per second
  as a share of the limit's;
* **oracle**: the same loop on the game's former numpy core, when the caller gives one (from a
  directory of oracles, :func:`oracle_class`: ``<game>_numpy.py`` files, each defining ``ORACLE``; a source
  checkout keeps them in ``tests/oracles/`` as the differential tests' oracles, which this
  module never imports on its own); core and oracle alternate in short rounds, so both see
  the same machine load;
* **loop**: a plain Python loop stepping B single envs (the core at batch size 1,
  unwrapped) one after another, what a user without the batched core would write; in
  multi-player games the decisions the env's opponent bots make inside ``step`` count as
  env steps too, so both sides count every decision;
* **single env**: ``gymnasium.make(env_id)`` (with its wrappers) under masked random play,
  opponents inside: time per learner step;
* **AEC**: the PettingZoo AEC env's ``agent_iter`` / ``last`` / ``step`` loop, decisions/s.
"""

from __future__ import annotations

import importlib.util
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from agents.random_bot import RandomBot
from envs.adapters.gym_env import MadangEnv
from envs.core.sampling import sample_legal
from envs.registration import game_class

from .random_play_limit import bench_limit

DEFAULT_BATCHES = (1, 16, 256, 4096, 16384)


@dataclass
class BenchResult:
    """One benchmark row: env steps per second of the core, its oracle (None when there is
    none) and the per-game loop, at one batch size."""

    game: str
    batch: int
    steps_per_s: float
    loop_steps_per_s: float
    steps: int
    loop_steps: int
    oracle_steps_per_s: float | None = None
    step_us: float = 0.0
    oracle_step_us: float | None = None
    checked_steps_per_s: float | None = None
    limit_steps_per_s: float | None = None

    @property
    def limit_share(self) -> float | None:
        """The core's (``check=False``) steps per second as a share of the limit kernel's."""
        return None if self.limit_steps_per_s is None else self.steps_per_s / self.limit_steps_per_s

    @property
    def checked_limit_share(self) -> float | None:
        """The checked core's (``check=True``) steps per second as a share of the limit kernel's."""
        if self.limit_steps_per_s is None or self.checked_steps_per_s is None:
            return None
        return self.checked_steps_per_s / self.limit_steps_per_s

    @property
    def ratio(self) -> float:
        """How many times faster the batched core is than the per-game loop."""
        return self.steps_per_s / self.loop_steps_per_s

    @property
    def oracle_ratio(self) -> float | None:
        """How many times faster the compiled core is than the numpy oracle."""
        return None if self.oracle_steps_per_s is None else self.steps_per_s / self.oracle_steps_per_s

    @property
    def step_ratio(self) -> float | None:
        """How many times faster one ``Game.step`` call of the compiled core is than the oracle's."""
        return None if self.oracle_step_us is None else self.oracle_step_us / self.step_us

    def as_dict(self) -> dict:
        return dict(asdict(self), ratio=self.ratio, oracle_ratio=self.oracle_ratio, step_ratio=self.step_ratio,
                    limit_share=self.limit_share, checked_limit_share=self.checked_limit_share)


def oracle_class(game_name: str, oracle_dir: str | Path | None):
    """The numpy oracle of ``game_name``: ``ORACLE`` of ``oracle_dir/<game_name>_numpy.py``.

    None when ``oracle_dir`` is None or holds no oracle of this game.  ``ValueError`` when
    ``oracle_dir`` is not a directory or the file defines no ``ORACLE``.
    """
    if oracle_dir is None:
        return None
    directory = Path(oracle_dir)
    if not directory.is_dir():
        raise ValueError(f"oracle directory {str(oracle_dir)!r} is not a directory")
    path = directory / f"{game_name}_numpy.py"
    if not path.is_file():
        return None
    name = f"_madang_bench_oracle_{game_name}"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # before running it: dataclasses look their module up
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    if not hasattr(module, "ORACLE"):
        raise ValueError(f"{path} defines no ORACLE (the game's numpy core class)")
    return module.ORACLE


def random_legal(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The benchmarks' random policy: one uniform legal action per row (one draw each)."""
    return sample_legal(mask, rng, tries=0)


def bench_batched(game_name: str, batch: int, seconds: float = 1.0, seed: int = 0, core=None,
                  check: bool = False, **config) -> tuple[float, int, float]:
    """Env steps/s of a batched core (default the game's; ``core`` another ``Game`` class).

    ``check``: every call validates (the public default) instead of the trusted loop.
    Returns ``(steps_per_s, steps, step_us)``: ``step_us`` is the mean time of one
    ``game.step`` call alone (the rules applying B actions), in microseconds.
    """
    game = (core or game_class(game_name))(**config)
    state = game.init(seed + np.arange(batch))
    rng = np.random.default_rng(seed)
    mask = game.legal_mask(state)
    obs = game.observe(state)
    steps, calls, in_step, start = 0, 0, 0.0, time.perf_counter()
    deadline = start + seconds
    while True:
        actions = random_legal(mask, rng)
        t0 = time.perf_counter()
        game.step(state, actions, check=check)
        t1 = time.perf_counter()
        game.reset_where(state, state.done, check=check)  # unchecked: the trusted loop of a trainer
        mask = game.legal_mask(state, check=check)
        obs = game.observe(state, check=check)
        steps, calls, in_step = steps + batch, calls + 1, in_step + (t1 - t0)
        if t1 >= deadline:
            break
    del obs
    return steps / (time.perf_counter() - start), steps, 1e6 * in_step / calls


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
            _, _, terminated, truncated, info = env.step(_pick(masks[i], rng))
            if terminated or truncated:
                _, info = env.reset()
            masks[i] = info["action_mask"]
        steps += batch
        if time.perf_counter() >= deadline:
            break
    steps += opponent.decisions
    return steps / (time.perf_counter() - start), steps


def _pick(mask: np.ndarray, rng: np.random.Generator) -> int:
    """A uniform legal action of one int8 mask (the single-env benchmarks' policy)."""
    legal = np.flatnonzero(mask)
    return int(legal[int(rng.random() * legal.size)])


class _CountingRandomBot(RandomBot):
    """Random legal play that counts the decisions it makes (opponent seats in the loop)."""

    decisions = 0

    def act(self, observation, mask, rng):
        actions = super().act(observation, mask, rng)
        self.decisions += len(actions)
        return actions


def bench_single_env(game_name: str, seconds: float = 1.0, seed: int = 0, **config) -> dict:
    """``gymnasium.make`` env under masked random play (opponents inside, default config).

    Returns ``{"us_per_step", "env_us_per_step", "steps"}``: microseconds per learner step
    of the whole loop, and of the env's ``step``/``reset`` calls alone (without choosing the
    action).
    """
    import gymnasium as gym

    env = gym.make(game_class(game_name).env_id, **config)
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    steps, in_env = 0, 0.0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        action = _pick(info["action_mask"], rng)
        t0 = time.perf_counter()
        _, _, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            _, info = env.reset()
        in_env += time.perf_counter() - t0
        steps += 1
        if steps % 64 == 0 and time.perf_counter() >= deadline:
            break
    total = time.perf_counter() - start
    return {"us_per_step": 1e6 * total / steps, "env_us_per_step": 1e6 * in_env / steps, "steps": steps}


def bench_aec(game_name: str, seconds: float = 1.0, seed: int = 0, **config) -> dict:
    """The PettingZoo AEC loop (``agent_iter``, ``last``, ``step``) under masked random play.

    Returns ``{"steps_per_s", "steps"}``, counting decisions (steps with an action; the
    ``None`` steps of finished agents are part of the loop's time but not counted).
    """
    env = importlib.import_module(f"envs.{game_name}").env(**config)
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    steps = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for _ in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(_pick(obs["action_mask"], rng))
            steps += 1
        env.reset()
    return {"steps_per_s": steps / (time.perf_counter() - start), "steps": steps}


def _measure(game_name: str, batch: int, seconds: float, seed: int, core, check: bool, **config) -> tuple:
    """``(steps_per_s, steps, step_us)`` of one entry of :func:`_interleaved`'s ``cores``."""
    if core == "limit":
        return (*bench_limit(game_name, batch, seconds, seed=seed, **config), 0.0)
    return bench_batched(game_name, batch, seconds, seed=seed, core=core, check=check, **config)


def _interleaved(game_name: str, batch: int, seconds: float, cores: list, rounds: int, **config) -> list:
    """:func:`_measure` of each ``(core, check)`` in ``cores`` (core None: the game's; the string
    ``"limit"``: :func:`~benchmarks.random_play_limit.bench_limit`), after a warm-up of each,
    alternating in ``rounds`` rounds of ``seconds / rounds`` each, so that every one sees the
    same machine load.  Returns one ``(steps_per_s, steps, step_us)`` per entry, over all its
    rounds (``step_us`` 0 for the limit, which has no separate step call)."""
    for core, check in cores:  # compiled or loaded from the cache before any clock runs
        _measure(game_name, batch, 0.0, 0, core, check, **config)
    totals = [[0, 0.0, 0.0] for _ in cores]  # steps, seconds, seconds inside step
    for r in range(rounds):
        for k, (core, check) in enumerate(cores):
            sps, n, step_us = _measure(game_name, batch, seconds / rounds, r, core, check, **config)
            totals[k][0] += n
            totals[k][1] += n / sps
            totals[k][2] += step_us * 1e-6 * (n // batch)
    return [(n / t, n, 1e6 * in_step / (n // batch)) for n, t, in_step in totals]


def run(game_name: str, batches=DEFAULT_BATCHES, seconds: float = 1.0, rounds: int = 3, oracle=None,
        **config):
    """Yield a :class:`BenchResult` per batch size: the core (trusted and checked), the limit
    kernel and the ``oracle`` (a ``Game`` class, e.g. from :func:`oracle_class`; None: no oracle)
    alternate over ``rounds`` rounds (``seconds`` each in all), then the per-game loop runs."""
    cores = [(None, False), (None, True), ("limit", False)] + ([] if oracle is None else [(oracle, False)])
    for b in batches:
        measured = _interleaved(game_name, b, seconds, cores, rounds, **config)
        sps, n, step_us = measured[0]
        osps, _, ostep_us = measured[3] if oracle is not None else (None, 0, None)
        lsps, ln = bench_loop(game_name, b, seconds, **config)
        yield BenchResult(game_name, b, sps, lsps, n, ln, osps, step_us, ostep_us,
                          checked_steps_per_s=measured[1][0], limit_steps_per_s=measured[2][0])
