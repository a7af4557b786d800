"""Go-Stop play-outs per second: the Python loop (``agents.play.play_out`` with two
``gostop-greedy`` bots, what ``gostop-search-v1`` runs) against the compiled one
(:func:`agents.gostop_playout.play_out`), on the same sampled states, side by side.

Usage::

    python -m benchmarks.gostop_playouts --batch 256 4096 --rounds 5

The states are determinizations (:meth:`Game.sample_states`) of the positions of greedy
games, every phase and stage of a deal, as a search plays them out; the two loops play the
same copies in turn, round after round, and must reach the same end states.  Prints a JSON
line per batch size: play-outs per second of each (the best and the median round) and the
load average before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import time

import numpy as np

from agents.gostop_greedy import GoStopGreedyBot
from agents.gostop_playout import play_out
from agents.play import play_out as python_play_out
from agents.gostop_search_v1 import BOLD_GO
from envs.gostop import GoStop


def positions(n: int, seed: int):
    """States sampled from the movers' observations along ``n`` greedy deals (every ply)."""
    game, bot = GoStop(), GoStopGreedyBot()
    rng = np.random.default_rng(seed)
    state = game.init(np.arange(seed, seed + n))
    found = []
    while not state.done.all():
        live = np.flatnonzero(~state.done)
        sub = state.take(live)
        found.append(game.observe(sub))
        game.step_where(state, live, bot.act(found[-1], game.legal_mask(sub), rng))
    obs = np.concatenate(found)
    samples, _ = game.sample_states(obs, rng.integers(0, 2**62, size=(obs.shape[0], 1)))
    return samples


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--batch", type=int, nargs="+", default=[256, 4096])
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    game = GoStop()
    own = GoStopGreedyBot()
    own.go_max_opp_score, own.go_min_hand = BOLD_GO
    bots, rules = [own, GoStopGreedyBot()], (BOLD_GO, (3, 2))
    pool = positions(400, args.seed)
    rng = np.random.default_rng(args.seed)
    play_out(pool.take(np.arange(4)), rules)  # compile / load from the cache before timing
    for batch in args.batch:
        load_before = os.getloadavg()
        rates = {"python": [], "compiled": []}
        for _ in range(args.rounds):
            states = pool.take(rng.choice(pool.batch_size, size=batch, replace=False))
            ends = {}
            for kind in ("python", "compiled"):
                s = states.copy()
                t = time.perf_counter()
                if kind == "python":
                    python_play_out(game, s, bots, rng)
                else:
                    play_out(s, rules, check=False)
                rates[kind].append(batch / (time.perf_counter() - t))
                ends[kind] = s
            assert ends["python"].equals(ends["compiled"]), "the two loops reached different end states"
        out = {"batch": batch, "rounds": args.rounds}
        for kind, r in rates.items():
            out[kind] = {"best_per_s": round(max(r)), "median_per_s": round(float(np.median(r)))}
        out["speedup_median"] = round(out["compiled"]["median_per_s"] / out["python"]["median_per_s"], 1)
        out["load_average"] = [list(load_before), list(os.getloadavg())]
        print(json.dumps(out), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
