"""stable-baselines3 ``VecEnv`` throughput: madang's batched adapter vs ``DummyVecEnv`` and ``SubprocVecEnv``.

One step = one action in each of the N slots (N transitions), taken the way sb3-contrib's
``MaskablePPO`` collects a rollout: fetch the masks with ``env_method("action_masks")``,
pick a random legal action per slot (vectorized), ``step``.  The three VecEnvs hold the
same N games of the same game and run one after another in this process, each for the same
number of seconds, so the ratios compare them side by side::

    python -m benchmarks.sb3_vec_envs --game yacht --envs 64 --seconds 5

``SubprocVecEnv`` forks one process per env (``start_method="fork"``).
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from envs.core.sampling import sample_legal


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


def transitions_per_second(vec_env, seconds: float, seed: int = 0) -> tuple[float, int]:
    """Transitions/s of masked random play on an SB3 ``VecEnv`` (masks fetched every step)."""
    rng = np.random.default_rng(seed)
    vec_env.seed(seed)
    vec_env.reset()
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        masks = np.stack(vec_env.env_method("action_masks"))
        vec_env.step(sample_legal(masks, rng))
        steps += vec_env.num_envs
    return steps / (time.perf_counter() - start), steps


def run(game: str = "yacht", num_envs: int = 64, seconds: float = 5.0, **config) -> dict:
    """Transitions/s of each VecEnv and each one's speed relative to ``DummyVecEnv``."""
    rates = {}
    for name, make in make_vec_envs(game, num_envs, **config).items():
        vec_env = make()
        try:
            rates[name], _ = transitions_per_second(vec_env, seconds)
        finally:
            vec_env.close()
    base = rates["DummyVecEnv"]
    return {"game": game, "num_envs": num_envs, "transitions_per_s": rates,
            "vs_DummyVecEnv": {k: v / base for k, v in rates.items()}}


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", default="yacht", choices=["yacht", "rainbow_dice", "gostop"])
    p.add_argument("--envs", type=int, default=64)
    p.add_argument("--seconds", type=float, default=5.0)
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    r = run(args.game, args.envs, args.seconds)
    if args.json:
        print(json.dumps(r))
        return
    print(f"{args.game}, {args.envs} envs, masked random play:")
    for name, rate in r["transitions_per_s"].items():
        print(f"  {name:14s} {rate:10.0f} transitions/s  ({r['vs_DummyVecEnv'][name]:.2f}x DummyVecEnv)")


if __name__ == "__main__":
    main()
