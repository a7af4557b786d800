"""RLlib sampling throughput: RLlib vectorizing N single madang envs vs madang's batched vector env.

One RLlib ``SingleAgentEnvRunner`` in this process samples with the masking module
(``ActionMaskingTorchRLModule``, inference included, as in training) from ``--envs`` games:

* ``single``: ``gym_env_vectorize_mode="sync"``, RLlib's ``SyncVectorEnv`` over N single envs;
* ``vector``: ``gym_env_vectorize_mode="vector_entry_point"``, madang's vector env (next-step).

Both run for the same number of env steps, one after the other; the ratio compares them
side by side.  Needs ``madang[rllib]`` (its own venv)::

    .venv-rllib/bin/python -m benchmarks.rllib_sampling --game gostop --envs 64 --steps 20000
"""

from __future__ import annotations

import argparse
import json
import time


def env_steps_per_second(game: str, mode: str, num_envs: int, steps: int, **env_config) -> float:
    """Env steps/s of ``sample()`` on one local env runner in ``mode`` (``single`` or ``vector``)."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.env.single_agent_env_runner import SingleAgentEnvRunner

    from envs.adapters import rllib

    rllib.register()
    config = (PPOConfig().environment(rllib.env_name(game), env_config=env_config)
              .env_runners(num_env_runners=0, num_envs_per_env_runner=num_envs,
                           gym_env_vectorize_mode="vector_entry_point" if mode == "vector" else "sync")
              .rl_module(rl_module_spec=rllib.masking_module()))
    runner = SingleAgentEnvRunner(config=config)
    try:
        runner.sample(num_timesteps=num_envs * 4, explore=True)  # warm-up: first resets, module build
        done, start = 0, time.perf_counter()
        while done < steps:
            done += sum(len(e) for e in runner.sample(num_timesteps=min(steps - done, 4096), explore=True))
        return done / (time.perf_counter() - start)
    finally:
        runner.stop()


def run(game: str = "gostop", num_envs: int = 64, steps: int = 20000) -> dict:
    """Env steps/s of both modes and the vector env's speed-up."""
    import ray
    import torch

    torch.set_num_threads(1)
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    try:
        rates = {mode: env_steps_per_second(game, mode, num_envs, steps) for mode in ("single", "vector")}
    finally:
        ray.shutdown()
    return {"game": game, "num_envs": num_envs, "env_steps_per_s": rates, "speedup": rates["vector"] / rates["single"]}


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", default="gostop", choices=["yacht", "rainbow_dice", "gostop"])
    p.add_argument("--envs", type=int, default=64)
    p.add_argument("--steps", type=int, default=20000)
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    r = run(args.game, args.envs, args.steps)
    if args.json:
        print(json.dumps(r))
        return
    print(f"{args.game}, {args.envs} envs per env runner, RLlib sampling with the masking module:")
    for mode, rate in r["env_steps_per_s"].items():
        print(f"  {mode:7s} {rate:9.0f} env steps/s")
    print(f"  madang's vector env: {r['speedup']:.2f}x RLlib's SyncVectorEnv of single envs")


if __name__ == "__main__":
    main()
