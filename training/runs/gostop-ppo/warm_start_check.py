import json, time, sys
import torch
torch.set_num_threads(1)
from pathlib import Path
from training.run import default_config, make_evaluator
from training.ppo import PPOTrainer
from training.evaluate import seat_swapped_match
run = Path(sys.argv[1]); run.mkdir(parents=True, exist_ok=True)
cfg = default_config("gostop")
t0 = time.time()
tr = PPOTrainer(cfg)
stats = tr.warm_start(run / "demonstrations", log=lambda m: print(m, flush=True))
print("bc wall", time.time() - t0, flush=True)
tr.bc_stats["evaluation"] = make_evaluator(cfg)(tr.greedy_bot())
print(tr.bc_stats, flush=True)
tr.save(run / "checkpoint.pt")
bot = tr.greedy_bot("bc")
m = seat_swapped_match("gostop", bot, "gostop-greedy", 2000, seed=12345)
print(json.dumps(m.as_dict()), flush=True)
