"""``madang bench``: env steps/s of the batched core, its numpy oracle, a per-game loop and the envs."""

from __future__ import annotations

import json
import math

from envs.registration import GAMES

from .common import UsageError, user_input


MAX_BENCH_BATCH = 65_536
"""The largest batch ``madang bench`` measures (a batch's states live in memory at once)."""


def run(args) -> int:
    """Run ``madang bench`` with the parsed ``args``; returns the exit status."""
    from benchmarks.throughput import DEFAULT_BATCHES, bench_aec, bench_single_env, oracle_class
    from benchmarks.throughput import run as measure

    games = [args.game] if args.game else sorted(GAMES)
    batches = args.batch or list(DEFAULT_BATCHES)
    if not all(1 <= b <= MAX_BENCH_BATCH for b in batches):
        raise UsageError(f"--batch sizes must be in 1..{MAX_BENCH_BATCH:,}, got {args.batch}",
                         "e.g. --batch 1 256 4096")
    if not (math.isfinite(args.seconds) and args.seconds > 0):
        raise UsageError(f"--seconds must be a positive number of seconds per measurement, got {args.seconds}",
                         "e.g. --seconds 0.5")
    with user_input("--oracle names a directory of <game>_numpy.py files defining ORACLE, e.g. a source "
                    "checkout's tests/oracles"):
        oracles = {game: oracle_class(game, args.oracle) for game in games}
    if not args.json:
        print(f"{'game':<14}{'batch':>7}{'core steps/s':>15}{'numpy oracle':>14}{'ratio':>8}"
              f"{'step() µs':>11}{'oracle':>10}{'ratio':>8}{'loop steps/s':>14}{'ratio':>9}"
              f"{'checked':>12}{'limit':>12}{'core %':>8}{'checked %':>10}")
    for game in games:
        for row in measure(game, batches, seconds=args.seconds, oracle=oracles[game]):
            if args.json:
                print(json.dumps(row.as_dict()), flush=True)
                continue
            oracle = ("—", "", "—", "") if row.oracle_steps_per_s is None else (
                f"{row.oracle_steps_per_s:,.0f}", f"{row.oracle_ratio:.1f}x",
                f"{row.oracle_step_us:,.1f}", f"{row.step_ratio:.1f}x")
            print(f"{row.game:<14}{row.batch:>7}{row.steps_per_s:>15,.0f}{oracle[0]:>14}{oracle[1]:>8}"
                  f"{row.step_us:>11,.1f}{oracle[2]:>10}{oracle[3]:>8}"
                  f"{row.loop_steps_per_s:>14,.0f}{row.ratio:>8.1f}x{row.checked_steps_per_s:>12,.0f}"
                  f"{row.limit_steps_per_s:>12,.0f}{100 * row.limit_share:>7.0f}%{100 * row.checked_limit_share:>9.0f}%",
                  flush=True)
        if args.no_envs:
            continue
        single, aec = bench_single_env(game, args.seconds), bench_aec(game, args.seconds)
        if args.json:
            print(json.dumps({"game": game, "single_env": single, "aec": aec}), flush=True)
        else:
            print(f"{game:<14}single env (gymnasium.make): {single['env_us_per_step']:.1f} µs per step "
                  f"({single['us_per_step']:.1f} µs with the random policy); "
                  f"PettingZoo AEC loop: {aec['steps_per_s']:,.0f} steps/s", flush=True)
    return 0


def add_parser(sub) -> None:
    """Add the command's parser to ``sub`` (the ``madang`` subparsers)."""
    bench = sub.add_parser("bench", help="env steps/s of the batched core (trusted and checked) against a "
                                         "minimal compiled random-play kernel, its numpy oracle, a per-game loop, "
                                         "the single env and the AEC loop")
    bench.add_argument("game", nargs="?", choices=sorted(GAMES), help="game (default: all)")
    bench.add_argument("--batch", type=int, nargs="+", help="batch sizes (default 1 16 256 4096 16384)")
    bench.add_argument("--seconds", type=float, default=1.0, help="time per measurement")
    bench.add_argument("--json", action="store_true", help="one JSON object per line")
    bench.add_argument("--oracle", metavar="DIR",
                       help="also measure each game's numpy oracle, side by side: a directory of <game>_numpy.py "
                            "files defining ORACLE (a source checkout's tests/oracles)")
    bench.add_argument("--no-envs", action="store_true", help="skip the single env and AEC measurements")
    bench.set_defaults(func=run)
