"""stable-baselines3 ``VecEnv`` throughput: madang's batched adapter vs ``DummyVecEnv`` and ``SubprocVecEnv``.

One step = one action in each of the N slots (N transitions), taken the way sb3-contrib's
``MaskablePPO`` collects a rollout: fetch the masks with ``env_method("action_masks")``,
pick a random legal action per slot (vectorized), ``step``.  The three VecEnvs hold the
same N games of the same game, open side by side in this process, and take turns in short
rounds (``--rounds`` of them, each VecEnv ``seconds / rounds`` per round), so that a load that
changes during the run slows all three alike and the ratios compare them fairly::

    python -m benchmarks.sb3_vec_envs --game yacht --envs 64 --seconds 5

``SubprocVecEnv`` forks one process per env (``start_method="fork"``).
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from envs.core.sampling import sample_legal
from envs.registration import GAMES


def make_vec_envs(game: str, num_envs: int, **config) -> dict:
    """The three VecEnvs (unstarted names -> factories) over ``num_envs`` games of ``game``."""
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    from envs.adapters.gym_env import MadangEnv
    from envs.adapters.sb3_vec_env import MadangSB3VecEnv
    from envs.registration import game_class

    def single():
        return MadangEnv(game_class(game), **config)

    return {
        "madang": lambda: MadangSB3VecEnv(game, num_envs, **config),
        "DummyVecEnv": lambda: DummyVecEnv([single] * num_envs),
        "SubprocVecEnv": lambda: SubprocVecEnv([single] * num_envs, start_method="fork"),
    }


def _play(vec_env, seconds: float, rng) -> int:
    """Masked random steps on an SB3 ``VecEnv`` for ``seconds`` (masks fetched every step); transitions."""
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        masks = np.stack(vec_env.env_method("action_masks"))
        vec_env.step(sample_legal(masks, rng))
        steps += vec_env.num_envs
    return steps


def run(game: str = "yacht", num_envs: int = 64, seconds: float = 5.0, rounds: int = 5, **config) -> dict:
    """Transitions/s of each VecEnv (``seconds`` each, in ``rounds`` alternating rounds) and each
    one's speed relative to ``DummyVecEnv``."""
    vec_envs = {}
    try:
        for name, make in make_vec_envs(game, num_envs, **config).items():
            vec_envs[name] = make()
            vec_envs[name].seed(0)
            vec_envs[name].reset()
        rngs = {name: np.random.default_rng(0) for name in vec_envs}
        steps, spent = dict.fromkeys(vec_envs, 0), dict.fromkeys(vec_envs, 0.0)
        for _ in range(rounds):
            for name, vec_env in vec_envs.items():
                start = time.perf_counter()
                steps[name] += _play(vec_env, seconds / rounds, rngs[name])
                spent[name] += time.perf_counter() - start
    finally:
        for vec_env in vec_envs.values():
            vec_env.close()
    rates = {name: steps[name] / spent[name] for name in vec_envs}
    base = rates["DummyVecEnv"]
    return {"game": game, "num_envs": num_envs, "rounds": rounds, "transitions_per_s": rates,
            "vs_DummyVecEnv": {k: v / base for k, v in rates.items()}}


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", default="yacht", choices=sorted(GAMES))
    p.add_argument("--envs", type=int, default=64)
    p.add_argument("--seconds", type=float, default=5.0, help="per VecEnv, over all rounds")
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    r = run(args.game, args.envs, args.seconds, args.rounds)
    if args.json:
        print(json.dumps(r))
        return
    print(f"{args.game}, {args.envs} envs, masked random play, {args.rounds} alternating rounds:")
    for name, rate in r["transitions_per_s"].items():
        print(f"  {name:14s} {rate:10.0f} transitions/s  ({r['vs_DummyVecEnv'][name]:.2f}x DummyVecEnv)")


if __name__ == "__main__":
    main()
