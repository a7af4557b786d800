"""Compare Go-Stop checkpoints against gostop-greedy in seat-swapped deals (selection, not shipping).

    .venv/bin/python training/runs/gostop-ppo/compare.py runs/gostop/checkpoint.pt ... --pairs 5000

Each checkpoint's greedy policy plays ``--pairs`` deals twice with the seats swapped, with seed
``--seed`` (default 2026, not the seed 0 that ``madang ship`` reports), and prints one JSON line:
points per deal with a 95 % CI, the win rate of decided deals and both sides' Go statistics.
"""

import argparse
import json

import torch

from training.evaluate import seat_swapped_match
from training.ppo import PPOTrainer

torch.set_num_threads(1)
p = argparse.ArgumentParser()
p.add_argument("checkpoints", nargs="+")
p.add_argument("--pairs", type=int, default=5000)
p.add_argument("--seed", type=int, default=2026)
args = p.parse_args()
for path in args.checkpoints:
    trainer = PPOTrainer.load(path)
    m = seat_swapped_match("gostop", trainer.greedy_bot(), "gostop-greedy", args.pairs, seed=args.seed)
    d = m.as_dict()
    print(json.dumps({"checkpoint": path, "update": trainer.update, "global_step": trainer.global_step,
                      "mean": round(m.mean_a, 3), "ci95": round(m.ci95_a, 3),
                      "decided_win_rate": round(m.decided_win_rate, 4), "nagari": m.nagari, "games": m.games,
                      "go_a": d["go_a"], "go_b": d["go_b"]}), flush=True)
