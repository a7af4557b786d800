"""How far is 55 %? gostop-search choosing by wins instead of by the mean payout (not a shipped bot).

    OMP_NUM_THREADS=1 .venv/bin/python training/runs/gostop-ppo/search_win_probe.py PAIRS SEED

Each play-out of a candidate scores the sign of its payout plus 0.02 x the payout (a small
preference for bigger wins); the bot's own play-outs are plain greedy (``own_rollout="same"``), so they never Go
boldly.  Plays PAIRS deals twice with the seats swapped against gostop-greedy (deal seeds SEED ..)
and prints one JSON line: points per deal with a 95 % CI, the decided win rate and the Go figures.
"""
import json, sys, time
import numpy as np
from agents.gostop_search_v1 import GoStopSearchV1Bot
from training.evaluate import seat_swapped_match


class WinSearch(GoStopSearchV1Bot):
    def _choose(self, value, *a, **k):
        return super()._choose(np.sign(value) + 0.02 * value, *a, **k)


pairs, seed = int(sys.argv[1]), int(sys.argv[2])
bot = WinSearch(own_rollout="same")
t = time.time()
m = seat_swapped_match("gostop", bot, "gostop-greedy", pairs, seed=seed)
d = m.as_dict()
print(json.dumps({"pairs": pairs, "seed": seed, "mean": m.mean_a, "ci95": m.ci95_a,
                  "decided_win_rate": m.decided_win_rate, "games": m.games, "go_a": d["go_a"],
                  "wall_s": time.time() - t}), flush=True)
