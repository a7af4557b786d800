"""What the public calls' validation costs: ``check=True`` against ``check=False``, side by side.

* **core step**: one ``game.step(state, actions)`` call at batch size B, with ``check=True``
  (the state's identity, arrays and contents, then the actions against the legal mask) and
  with ``check=False`` (the trusted path); and, to tell the two checks apart, the step with
  only the actions checked (``check_actions`` + the unchecked step: what ``check=True`` cost
  before states were checked) and :meth:`~envs.core.game.Game.check_state` alone.  Actions
  are random legal ones, drawn outside the timed call; finished games are replaced outside
  it too.
* **single env step**: ``MadangEnv.step`` as shipped (the env checks the action against the
  mask it handed out and calls the core with ``check=False``), against the same env whose
  core calls all run with ``check=True``; and the per-step snapshot the env takes so that an
  interrupt can roll the step back (``copy_into``).

The variants alternate in short rounds, so both see the same machine load; the load average
is printed before and after.  Run: ``python -m benchmarks.validation_cost`` (``--help``).
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from envs.adapters.gym_env import MadangEnv
from envs.core.kernels import first_bad_action
from envs.core.sampling import sample_legal
from envs.registration import GAMES, game_class


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def _actions_only(game, state, actions):
    """The step with only its actions checked against the legal mask (``check=True`` before
    states were checked)."""
    kind, _ = first_bad_action(np.asarray(actions, dtype=np.int64), state.done, game.legal_mask(state, check=False))
    assert kind == 0
    return game.step(state, actions, check=False)


VARIANTS = {
    "checked": lambda game, state, actions: game.step(state, actions, check=True),
    "unchecked": lambda game, state, actions: game.step(state, actions, check=False),
    "actions only": lambda game, state, actions: _actions_only(game, state, actions),
    "check_state": lambda game, state, actions: game.check_state(state),
}


def core_step_us(game, batch: int, seconds: float, seed: int = 0) -> dict[str, float]:
    """Mean µs of one call of each of :data:`VARIANTS` (alternating rounds)."""
    rng = np.random.default_rng(seed)
    states = {name: game.init(np.arange(batch) + seed) for name in VARIANTS}
    spent = dict.fromkeys(VARIANTS, 0.0)
    calls = dict.fromkeys(VARIANTS, 0)
    rounds = max(1, 2_000 // batch)
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline or not all(calls.values()):
        for name, call in VARIANTS.items():
            state = states[name]
            for _ in range(rounds):
                actions = sample_legal(game.legal_mask(state, check=False), rng, tries=0)
                t = time.perf_counter()
                call(game, state, actions)
                spent[name] += time.perf_counter() - t
                calls[name] += 1
                if name == "check_state":
                    game.step(state, actions, check=False)
                if state.done.any():
                    game.reset_where(state, state.done, check=False)
    return {name: 1e6 * spent[name] / calls[name] for name in VARIANTS}


def _checked(game_cls):
    """``game_cls`` with ``check=True`` forced on every core call (what the env would pay if it
    validated its own states)."""

    class Checked(game_cls):
        def legal_mask(self, state, check=True):
            return super().legal_mask(state, check=True)

        def observe(self, state, seats=None, check=True):
            return super().observe(state, seats, check=True)

        def step(self, state, actions, check=True):
            return super().step(state, actions, check=True)

    Checked.__name__ = game_cls.__name__
    return Checked


def env_step_us(game_name: str, seconds: float) -> dict[str, float]:
    """Mean µs of a single env step: shipped, with every core call checked, and its snapshot."""
    cls = game_class(game_name)
    envs = {"shipped": MadangEnv(cls), "checked": MadangEnv(_checked(cls))}
    for env in envs.values():
        env.reset(seed=0)
    rng = np.random.default_rng(0)
    spent = dict.fromkeys(envs, 0.0)
    steps = dict.fromkeys(envs, 0)
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline or not all(steps.values()):
        for name, env in envs.items():
            for _ in range(200):
                legal = np.flatnonzero(env.action_masks())
                action = int(legal[int(rng.random() * legal.size)])
                t = time.perf_counter()
                _, _, terminated, _, _ = env.step(action)
                spent[name] += time.perf_counter() - t
                steps[name] += 1
                if terminated:
                    env.reset()
    out = {name: 1e6 * spent[name] / steps[name] for name in envs}
    env = envs["shipped"]
    spare = env.state.copy()
    n = 20_000
    t = time.perf_counter()
    for _ in range(n):
        env.state.copy_into(spare, check=False)
    out["snapshot"] = 1e6 * (time.perf_counter() - t) / n
    return out


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", default=sorted(GAMES), choices=sorted(GAMES))
    parser.add_argument("--batches", nargs="+", type=int, default=[1, 4096])
    parser.add_argument("--seconds", type=float, default=3.0, help="per measurement (both variants)")
    args = parser.parse_args(argv)
    print(f"load average before: {_load()}")
    print("core step, µs per call (ratios to check=False)")
    print(f"{'game':14s} {'B':>6s} {'check=False':>12s} {'actions only':>19s} {'check=True':>19s} "
          f"{'check_state alone':>19s}")
    for name in args.games:
        game = game_class(name)()
        for batch in args.batches:
            us = core_step_us(game, batch, args.seconds)
            base = us["unchecked"]
            cells = " ".join(f"{us[k]:9.2f} ({us[k] / base:4.2f}x)" for k in ("actions only", "checked", "check_state"))
            print(f"{name:14s} {batch:6d} {base:12.2f} {cells}")
    print("\nsingle env step, µs per step: as shipped, with every core call checked, and its snapshot")
    print(f"{'game':14s} {'env step':>12s} {'core checked':>13s} {'ratio':>6s} {'snapshot':>10s}")
    for name in args.games:
        us = env_step_us(name, args.seconds)
        print(f"{name:14s} {us['shipped']:9.2f} µs {us['checked']:10.2f} µs {us['checked'] / us['shipped']:6.2f} "
              f"{us['snapshot']:7.2f} µs")
    print(f"load average after: {_load()}")


if __name__ == "__main__":
    main()
