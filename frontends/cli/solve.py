"""``madang solve``: a game's exact optimal expected solitaire score (every game whose descriptor
names a ``solo_optimum``: Yacht), and with ``--target`` Yacht's score chances (a Yacht-only
feature of its threshold solver)."""

from __future__ import annotations

import sys

from envs.registration import GAMES

from .common import UsageError


def run(args) -> int:
    """Run ``madang solve`` with the parsed ``args``; returns the exit status."""
    import time

    from training.evaluate import solo_optimum

    if args.target and args.game != "yacht":
        raise UsageError("--target: score chances come from Yacht's threshold solver (Yacht only)",
                         "e.g. madang solve yacht --target 150 200 250")
    for t in args.target or []:
        if not 0 <= t <= 304:
            raise UsageError(f"--target {t}: a final total is 0..303", "e.g. madang solve yacht --target 150 200 250")
    start = time.perf_counter()
    value = solo_optimum(args.game)
    print(f"{value:.4f}")
    print(f"(optimal expected solitaire {GAMES[args.game].title} score; solved in {time.perf_counter() - start:.2f} s)",
          file=sys.stderr)
    if args.target:
        _print_yacht_targets(args.target)
    return 0


def _print_yacht_targets(targets) -> None:
    """The threshold and distribution tables (agents/yacht_threshold.py): their build times, the
    solver's final-score distribution and, per target, P(total >= target) for the solver and at best."""
    import os
    import time

    import numpy as np

    from agents.yacht_threshold import SIZE, solve_distribution, solve_threshold

    times = []
    for build in (solve_threshold, solve_distribution):
        wall, cpu = time.perf_counter(), time.process_time()
        table = build()
        times.append((time.perf_counter() - wall, time.process_time() - cpu, table))
    (t_wall, t_cpu, best), (d_wall, d_cpu, pmf) = times
    p = pmf[-1]
    s = np.arange(SIZE)
    mean, sd = p @ s, np.sqrt(p @ s**2 - (p @ s) ** 2)
    cdf = np.cumsum(p)
    q = {f: int(np.searchsorted(cdf, f)) for f in (0.01, 0.05, 0.5, 0.95, 0.99)}
    print(f"yacht-solver final total: mean {mean:.4f}, sd {sd:.4f}, "
          + ", ".join(f"{int(100 * f)} % quantile {v}" for f, v in q.items()))
    print("| target | yacht-solver P(total >= target) | best P(total >= target) (yacht-solver-threshold) |")
    print("|---:|---:|---:|")
    tail = np.cumsum(p[::-1])[::-1]
    for t in targets:
        print(f"| {t} | {tail[t]:.4g} | {best[-1, t]:.4g} |")
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"(tables of {best.shape[0]} x {best.shape[1]} float64: threshold {t_wall:.1f} s wall / {t_cpu:.1f} s CPU, "
          f"distribution {d_wall:.1f} s / {d_cpu:.1f} s; load average {load})", file=sys.stderr)


def add_parser(sub) -> None:
    """Add the command's parser to ``sub`` (the ``madang`` subparsers)."""
    solve = sub.add_parser("solve", help="print a game's exact optimal value")
    solve.add_argument("game", choices=sorted(g for g, spec in GAMES.items() if spec.solo_optimum))
    solve.add_argument("--target", type=int, nargs="+", metavar="T",
                       help="also the chance of a total of at least T: the solver's and the best possible")
    solve.set_defaults(func=run)
