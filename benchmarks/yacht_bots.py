"""Milliseconds per decision of the Yacht bots, at batch 1 and in batches, side by side.

The positions are the decisions of two-player games between ``yacht-solver`` seats (every
bot sees the same observations).  Each bot first acts on all the positions once, so that every table
it builds (some lazily, e.g. ``yacht-win``'s endgame tables) is ready before the clock starts.
CPU time (``time.process_time``) and wall time are both printed, with the load average:
on a shared machine only the ratios between bots in one run mean much.

    python -m benchmarks.yacht_bots [--positions 200] [--batch 1 256] [--bots ...]
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np
import torch

import agents
from envs.yacht import Yacht

DEFAULT_BOTS = ["yacht-greedy", "yacht-solver", "yacht-ppo", "yacht-solver-threshold", "yacht-win"]


def positions(count: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Observations and masks of ``count`` decisions from two-player solver games."""
    game = Yacht(num_players=2)
    state = game.init(np.arange(seed, seed + max(1, count // 60 + 1)))
    solver = agents.load("yacht-solver")
    obs, masks = [], []
    rng = np.random.default_rng(seed)
    while not state.done.all():
        live = np.flatnonzero(~state.done)
        sub = state.take(live)
        o, m = game.observe(sub), game.legal_mask(sub)
        obs.append(o)
        masks.append(m)
        game.step(sub, solver.act(o, m, rng))
        state.put(live, sub)
    pick = rng.permutation(sum(len(o) for o in obs))[:count]
    return np.concatenate(obs)[pick], np.concatenate(masks)[pick]


def time_bot(bot, obs: np.ndarray, masks: np.ndarray, batch: int) -> tuple[float, float]:
    """(CPU ms, wall ms) per decision over all positions, ``batch`` at a time."""
    rng = np.random.default_rng(0)
    bot.act(obs, masks, rng)  # warm-up: every table these positions need, compilation
    wall, cpu = time.perf_counter(), time.process_time()
    for start in range(0, len(obs), batch):
        bot.act(obs[start : start + batch], masks[start : start + batch], rng)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return 1000 * cpu / len(obs), 1000 * wall / len(obs)


def main(argv=None) -> None:
    """Print a table: bot, batch, CPU ms and wall ms per decision, and the load average."""
    p = argparse.ArgumentParser(prog="python -m benchmarks.yacht_bots", description=__doc__.split("\n")[0])
    p.add_argument("--positions", type=int, default=200)
    p.add_argument("--batch", type=int, nargs="+", default=[1, 256])
    p.add_argument("--bots", nargs="+", default=DEFAULT_BOTS)
    args = p.parse_args(argv)
    torch.set_num_threads(1)
    obs, masks = positions(max(args.positions, max(args.batch)))
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{'bot':<24} {'batch':>6} {'CPU ms':>9} {'wall ms':>9}")
    for name in args.bots:
        bot = agents.load(name)
        for batch in args.batch:
            n = max(args.positions, batch)
            cpu, wall = time_bot(bot, obs[:n], masks[:n], batch)
            print(f"{name:<24} {batch:>6} {cpu:>9.3f} {wall:>9.3f}")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
