"""Plot this folder's learning curve (``eval.jsonl``) and selection matches (``compare.jsonl``).

    .venv/bin/python training/runs/gostop-ppo/plot_curve.py   # writes curve.png next to this file

Top: points per deal against gostop-greedy; bottom: the win rate.  Lines are the in-training
evaluations (2000 games, the same deals every time); dots are the seat-swapped matches of the
shipped run's checkpoints (5000 deal pairs, selection seed 2026), with their 95 % intervals.
"""

import json
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

here = Path(__file__).parent
curve = [json.loads(line) for line in (here / "eval.jsonl").read_text().splitlines() if line.strip()]
swapped = [json.loads(line) for line in (here / "compare.jsonl").read_text().splitlines() if line.strip()]
swapped = [r for r in swapped if "runs/s2" in r["checkpoint"]]  # the shipped run's checkpoints
steps = [r["global_step"] / 1e6 for r in curve]
fig, (top, bottom) = plt.subplots(2, 1, figsize=(7, 6), sharex=True)
top.plot(steps, [r["eval_greedy_mean"] for r in curve], label="in-training evaluation")
top.errorbar([r["global_step"] / 1e6 for r in swapped], [r["mean"] for r in swapped],
             yerr=[r["ci95"] for r in swapped], fmt="o", label="seat-swapped, 5000 pairs")
top.axhline(2.0, color="grey", ls="--", label="target +2.0")
top.set_ylabel("points per deal vs gostop-greedy")
top.legend(fontsize=8)
bottom.plot(steps, [r["eval_greedy_win_rate"] for r in curve], label="in-training (all games)")
bottom.plot([r["global_step"] / 1e6 for r in swapped], [r["decided_win_rate"] for r in swapped], "o",
            label="seat-swapped (decided deals)")
bottom.axhline(0.55, color="grey", ls="--", label="target 55 %")
bottom.axhline(0.5, color="black", lw=0.5)
bottom.set_ylabel("win rate vs gostop-greedy")
bottom.set_xlabel("PPO steps (millions), after cloning gostop-greedy")
bottom.legend(fontsize=8)
fig.suptitle("gostop-ppo: training/configs/gostop.json from scratch")
fig.tight_layout()
fig.savefig(here / "curve.png", dpi=100)
print(f"wrote {here / 'curve.png'}")
