"""RLlib sampling throughput: RLlib vectorizing N single madang envs vs madang's batched vector env.

One RLlib ``SingleAgentEnvRunner`` in this process samples with the masking module
(``ActionMaskingTorchRLModule``, inference included, as in training) from ``--envs`` games:

* ``single``: ``gym_env_vectorize_mode="sync"``, RLlib's ``SyncVectorEnv`` over N single envs;
* ``vector``: ``gym_env_vectorize_mode="vector_entry_point"``, madang's vector env (next-step).

Both run for the same number of env steps, taking turns in ``--rounds`` rounds, so that a load
that changes during the run slows both alike and the ratio compares them side by side.  Needs
``madang[rllib]`` (its own venv)::

    .venv-rllib/bin/python -m benchmarks.rllib_sampling --game gostop --envs 64 --steps 10000
"""

from __future__ import annotations

import argparse
import json
import time


def make_runner(game: str, mode: str, num_envs: int, **env_config):
    """One local env runner in ``mode`` (``single`` or ``vector``), warmed up (first resets, module)."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.env.single_agent_env_runner import SingleAgentEnvRunner

    from envs.adapters import rllib

    rllib.register()
    config = (PPOConfig().environment(rllib.env_name(game), env_config=env_config)
              .env_runners(num_env_runners=0, num_envs_per_env_runner=num_envs,
                           gym_env_vectorize_mode="vector_entry_point" if mode == "vector" else "sync")
              .rl_module(rl_module_spec=rllib.masking_module()))
    runner = SingleAgentEnvRunner(config=config)
    runner.sample(num_timesteps=num_envs * 4, explore=True)
    return runner


def _sample(runner, steps: int) -> tuple[int, float]:
    """Env steps sampled (at least ``steps``) and the seconds it took."""
    done, start = 0, time.perf_counter()
    while done < steps:
        done += sum(len(e) for e in runner.sample(num_timesteps=min(steps - done, 4096), explore=True))
    return done, time.perf_counter() - start


def run(game: str = "gostop", num_envs: int = 64, steps: int = 10000, rounds: int = 5) -> dict:
    """Env steps/s of both modes (``steps`` each, in ``rounds`` alternating rounds) and the vector
    env's speed-up."""
    import ray
    import torch

    torch.set_num_threads(1)
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    runners = {}
    try:
        for mode in ("single", "vector"):
            runners[mode] = make_runner(game, mode, num_envs)
        done, spent = dict.fromkeys(runners, 0), dict.fromkeys(runners, 0.0)
        for _ in range(rounds):
            for mode, runner in runners.items():
                n, seconds = _sample(runner, -(-steps // rounds))
                done[mode] += n
                spent[mode] += seconds
    finally:
        for runner in runners.values():
            runner.stop()
        ray.shutdown()
    rates = {mode: done[mode] / spent[mode] for mode in runners}
    return {"game": game, "num_envs": num_envs, "rounds": rounds, "env_steps_per_s": rates,
            "speedup": rates["vector"] / rates["single"]}


def main(argv=None) -> None:
    from envs.registration import GAMES

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", default="gostop", choices=sorted(GAMES))
    p.add_argument("--envs", type=int, default=64)
    p.add_argument("--steps", type=int, default=10000, help="per mode, over all rounds")
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    r = run(args.game, args.envs, args.steps, args.rounds)
    if args.json:
        print(json.dumps(r))
        return
    print(f"{args.game}, {args.envs} envs per env runner, RLlib sampling with the masking module, "
          f"{args.rounds} alternating rounds:")
    for mode, rate in r["env_steps_per_s"].items():
        print(f"  {mode:7s} {rate:9.0f} env steps/s")
    print(f"  madang's vector env: {r['speedup']:.2f}x RLlib's SyncVectorEnv of single envs")


if __name__ == "__main__":
    main()
