"""Compare this checkout's envs with another madang source tree, side by side in one run.

    git archive <commit> | tar -x -C /tmp/before
    python -m benchmarks.before_after /tmp/before --games yacht gostop --repeats 3

Runs the single-env and AEC benchmarks of :mod:`benchmarks.throughput` (this file's
version) in fresh processes, alternating between the other tree and this one, so both
see the same machine load; prints each measurement and the median ratio per game.
The other tree only needs the public API (``gymnasium.make``, ``envs.<game>.env``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
_CHILD = """
import importlib.util, json, sys
sys.path.insert(0, {tree!r})
spec = importlib.util.spec_from_file_location("bench_throughput", {bench!r})
mod = sys.modules["bench_throughput"] = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mod)
import envs
assert envs.__file__.startswith({tree!r}), envs.__file__
single = mod.bench_single_env({game!r}, {seconds})
aec = mod.bench_aec({game!r}, {seconds})
print(json.dumps({{"single_us": single["env_us_per_step"], "aec_steps_per_s": aec["steps_per_s"]}}))
"""


def measure(tree: Path, game: str, seconds: float) -> dict:
    """One fresh process measuring ``game``'s single env and AEC loop from ``tree``."""
    code = _CHILD.format(tree=str(tree), bench=str(HERE / "throughput.py"), game=game, seconds=seconds)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd="/")
    if r.returncode:
        raise RuntimeError(r.stderr[-2000:])
    return json.loads(r.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    from envs.registration import GAMES

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("before", type=Path, help="the other madang source tree")
    p.add_argument("--games", nargs="+", default=sorted(GAMES), choices=sorted(GAMES))
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--seconds", type=float, default=2.0)
    args = p.parse_args(argv)
    after = HERE.parent
    print(f"{'game':<14}{'tree':<8}{'single env µs/step':>20}{'AEC steps/s':>14}")
    for game in args.games:
        rows = {"before": [], "after": []}
        for _ in range(args.repeats):
            for name, tree in (("before", args.before.resolve()), ("after", after)):
                m = measure(tree, game, args.seconds)
                rows[name].append(m)
                print(f"{game:<14}{name:<8}{m['single_us']:>20.1f}{m['aec_steps_per_s']:>14,.0f}", flush=True)
        single = statistics.median(b["single_us"] / a["single_us"] for b, a in zip(rows["before"], rows["after"]))
        aec = statistics.median(a["aec_steps_per_s"] / b["aec_steps_per_s"]
                                for b, a in zip(rows["before"], rows["after"]))
        print(f"{game:<14}median ratio: single env {single:.1f}x faster, AEC {aec:.1f}x faster", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
