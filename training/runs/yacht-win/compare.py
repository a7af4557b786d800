import sys, time, json, numpy as np
import agents
from training.evaluate import seat_swapped_match
# usage: paired.py pairs seed 'json-options-A' 'json-options-B'
pairs=int(sys.argv[1]); seed=int(sys.argv[2]); oa=json.loads(sys.argv[3]); ob=json.loads(sys.argv[4])
res=[]
for o in (oa, ob):
    t=time.time()
    r=seat_swapped_match("yacht", agents.load("yacht-win", **o), agents.load("yacht-solver"), pairs, seed=seed)
    a,b=r.values_a,r.values_b
    sc=(a>b)+0.5*(a==b); res.append(sc)
    ci=1.96*(sc[:pairs]+sc[pairs:]).std(ddof=1)*np.sqrt(pairs)/sc.size
    print(o, f"score_rate={sc.mean():.4f} ± {ci:.4f} W={r.wins} D={r.draws} L={r.losses} time={time.time()-t:.0f}s", flush=True)
d=res[0]-res[1]; pd=d[:pairs]+d[pairs:]
print(f"A-B: {d.mean():+.4f} ± {1.96*pd.std(ddof=1)*np.sqrt(pairs)/d.size:.4f}; games that differ: {(d!=0).mean():.3f}")
