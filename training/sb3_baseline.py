"""The SB3 MaskablePPO baseline of the leaderboard: sb3-contrib's MaskablePPO, default network, on any game.

::

    python -m training.sb3_baseline GAME --steps N --out FILE.zip [--seed 0] [--n-envs 16]

trains sb3-contrib's ``MaskablePPO("MlpPolicy")`` (SB3's default 64x64 network) on
:class:`envs.adapters.sb3_vec_env.MadangSB3VecEnv`, with the hyperparameters of
:data:`PPO`, in the env of :func:`env_config` (solitaire, or a game without a solo mode
against its descriptor's ``default_bot``), and writes the
zip ``model.save`` writes: it loads in SB3 as it is, and in madang by its path
(``madang eval GAME --bots FILE.zip``, ``madang benchmark GAME FILE.zip``).  Rewards are
scaled by a running estimate of the returns' spread (``VecNormalize(norm_obs=False)``), which
changes nothing in the saved policy.  The leaderboard's baselines were made by this command
with the step counts in ``docs/benchmarks.md``.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from envs.registration import GAMES, game_spec

PPO = dict(n_steps=256, batch_size=1024, gamma=1.0, learning_rate=3e-4, ent_coef=0.003, verbose=0)
"""MaskablePPO's arguments besides the policy, the env and the seed (the same for every game)."""


def env_config(game: str) -> dict:
    """The env config the baseline trains ``game`` in: solitaire where the game has one, else
    its fewest seats with every other seat played by its descriptor's ``default_bot``."""
    spec = game_spec(game)
    cls = spec.game_cls
    if cls.min_players == 1:
        return {"num_players": 1}
    if spec.default_bot is None:
        raise ValueError(f"{game} has no solo mode and no default_bot to train against")
    return {"num_players": cls.min_players, "opponents": spec.default_bot}


def train_baseline(game: str, steps: int, seed: int = 0, n_envs: int = 16):
    """Train the baseline on ``game`` for ``steps`` env steps; returns the MaskablePPO model."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import VecMonitor, VecNormalize

    from envs.adapters.sb3_vec_env import MadangSB3VecEnv

    config = env_config(game)
    if steps < 1 or n_envs < 1:
        raise ValueError(f"steps and n_envs must be positive, got {steps} and {n_envs}")
    torch.set_num_threads(1)
    env = VecNormalize(VecMonitor(MadangSB3VecEnv(game, n_envs, **config)), norm_obs=False,
                       norm_reward=True, gamma=PPO["gamma"])
    model = MaskablePPO("MlpPolicy", env, seed=seed, **PPO)
    model.learn(total_timesteps=steps)
    return model


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("game", choices=sorted(GAMES))
    p.add_argument("--steps", type=int, required=True, help="env steps of the learner")
    p.add_argument("--out", required=True, help="the zip to write")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--n-envs", type=int, default=16)
    args = p.parse_args(argv)
    if args.steps < 1 or args.n_envs < 1:
        p.error("--steps and --n-envs must be positive")
    start = time.perf_counter()
    model = train_baseline(args.game, args.steps, args.seed, args.n_envs)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    model.save(out)
    print(f"wrote {out} ({out.stat().st_size:,} bytes): MaskablePPO on {args.game}, {model.num_timesteps:,} steps "
          f"in {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
