"""Train RLlib's PPO (new API stack) on madang games with action masking, locally or on a cluster.

Needs ``madang[rllib]`` in a virtual environment of its own (docs/integrations.md).  Three modes:

* ``single``: the single-agent env; RLlib vectorizes ``--envs`` copies itself;
* ``vector``: madang's batched vector env (next-step autoreset), one core call for all
  ``--envs`` games of an env runner;
* ``multi``: every seat an agent (Go-Stop self-play), with one ``shared`` policy or
  ``separate`` policies per seat.

A few iterations on this machine::

    python -m training.rllib_example --mode vector --game yacht --iterations 3
    python -m training.rllib_example --mode multi --game gostop --policies separate

On a Ray cluster (``ray start --head`` on one node, ``ray start --address HEAD:6379`` on the
others, madang installed on all), the same script with the cluster's address and more env
runners::

    python -m training.rllib_example --mode vector --game gostop --address auto --env-runners 16
"""

from __future__ import annotations

import argparse


def ppo_config(game: str, mode: str = "vector", *, policies: str = "shared", num_envs: int = 64,
               env_runners: int = 0, train_batch: int = 4096, minibatch: int = 512, epochs: int = 2,
               seed: int = 0, **env_config):
    """A masked ``PPOConfig`` for ``game`` in ``mode`` (``single``, ``vector`` or ``multi``).

    ``num_envs`` games per env runner, ``env_runners`` remote runners (0: sample in the
    driver), ``env_config`` for the env (``num_players``, ``opponents``, ...).  Counts games
    lost by an illegal action as ``madang/forfeits`` (0 while the masks work).
    """
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec

    from envs.adapters import rllib

    if mode not in ("single", "vector", "multi"):
        raise ValueError(f"mode must be single, vector or multi, got {mode!r}")
    rllib.register()
    config = (
        PPOConfig()
        .environment(rllib.env_name(game, multi_agent=mode == "multi"), env_config=env_config)
        .env_runners(num_env_runners=env_runners, num_envs_per_env_runner=num_envs,
                     gym_env_vectorize_mode="vector_entry_point" if mode == "vector" else "sync")
        .training(train_batch_size_per_learner=train_batch, minibatch_size=minibatch, num_epochs=epochs,
                  gamma=1.0, lr=3e-4)
        .callbacks(on_episode_end=rllib.log_results)
        .debugging(seed=seed)
    )
    if mode != "multi":
        return config.rl_module(rl_module_spec=rllib.masking_module())
    if policies not in ("shared", "separate"):
        raise ValueError(f"policies must be shared or separate, got {policies!r}")
    from envs.registration import game_class

    players = game_class(game)(**{k: v for k, v in env_config.items() if k == "num_players"}).num_players
    seats = [f"player_{i}" for i in range(players)]
    ids = ["shared"] if policies == "shared" else seats
    return config.multi_agent(
        policies=set(ids),
        policy_mapping_fn=_shared_policy if policies == "shared" else _seat_policy,
    ).rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={i: rllib.masking_module() for i in ids}))


def _shared_policy(agent_id, episode=None, **kwargs):
    return "shared"


def _seat_policy(agent_id, episode=None, **kwargs):
    return agent_id


def train(config, iterations: int, report=print) -> list[dict]:
    """Build the algorithm, train ``iterations`` times, ``report`` one line each; returns the
    env runners' results of every iteration."""
    algo = config.build_algo()
    out = []
    try:
        for i in range(iterations):
            r = algo.train()["env_runners"]
            out.append(r)
            per_agent = r.get("agent_episode_returns_mean") or {}
            ret = {a: round(float(v), 3) for a, v in per_agent.items()} if len(per_agent) > 1 \
                else r.get("episode_return_mean")
            report(f"iteration {i + 1}: {r.get('num_env_steps_sampled', 0)} env steps, "
                   f"{r.get('num_episodes', 0)} games, return {ret}, forfeits {r.get('madang/forfeits', 0)}")
    finally:
        algo.stop()
    return out


def main(argv=None) -> None:
    from envs.registration import GAMES

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--mode", choices=["single", "vector", "multi"], default="vector")
    p.add_argument("--game", choices=sorted(GAMES), default="gostop")
    p.add_argument("--policies", choices=["shared", "separate"], default="shared", help="multi mode")
    p.add_argument("--iterations", type=int, default=3)
    p.add_argument("--envs", type=int, default=64, help="games per env runner")
    p.add_argument("--env-runners", type=int, default=0, help="remote env runners (0: sample in the driver)")
    p.add_argument("--address", help="a Ray cluster's address (e.g. auto); default: a local Ray")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    import ray
    import torch

    torch.set_num_threads(1)
    ray.init(address=args.address, include_dashboard=False)
    try:
        config = ppo_config(args.game, args.mode, policies=args.policies, num_envs=args.envs,
                            env_runners=args.env_runners, seed=args.seed)
        train(config, args.iterations)
    finally:
        ray.shutdown()


if __name__ == "__main__":
    main()
