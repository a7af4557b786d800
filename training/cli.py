"""The ``madang`` command line: ``demo``, ``bench``, ``train``, ``eval``, ``ship``, ``solve``."""

from __future__ import annotations

import argparse
import json
import sys

from envs.registration import GAMES

DEMO_BOTS = ("yacht-ppo", "yacht-solver", "yacht-greedy")


def _cmd_demo(args) -> int:
    from .demo import play_yacht_demo

    play_yacht_demo(bots=args.bots, seed=args.seed)
    return 0


def _cmd_bench(args) -> int:
    from benchmarks.throughput import DEFAULT_BATCHES, run

    games = [args.game] if args.game else sorted(GAMES)
    batches = args.batch or list(DEFAULT_BATCHES)
    if not args.json:
        print(f"{'game':<14}{'batch':>7}{'batched steps/s':>18}{'loop steps/s':>15}{'ratio':>9}")
    for game in games:
        for row in run(game, batches, seconds=args.seconds):
            if args.json:
                print(json.dumps(row.as_dict()), flush=True)
            else:
                print(
                    f"{row.game:<14}{row.batch:>7}{row.steps_per_s:>18,.0f}"
                    f"{row.loop_steps_per_s:>15,.0f}{row.ratio:>8.1f}x",
                    flush=True,
                )
    return 0


def _cmd_solve(args) -> int:
    import time

    from agents.yacht_dp import solve

    start = time.perf_counter()
    value = solve().optimal_score
    print(f"{value:.4f}")
    print(f"(optimal expected solitaire Yacht score; solved in {time.perf_counter() - start:.2f} s)",
          file=sys.stderr)
    return 0


def _cmd_train(args) -> int:
    from .ppo import PPOConfig
    from .run import default_config, run_training

    if args.config:
        config = PPOConfig.from_dict(json.loads(open(args.config).read()))
    else:
        config = default_config(args.game)
    overrides = {}
    for item in args.set or []:
        key, _, value = item.partition("=")
        if not _:
            raise SystemExit(f"--set expects KEY=VALUE, got {item!r}")
        overrides[key] = json.loads(value) if value[:1] in "[{0123456789-tfn\"" else value
    for key in ("total_steps", "num_envs", "seed", "device", "eval_games"):
        if getattr(args, key) is not None:
            overrides[key] = getattr(args, key)
    config = PPOConfig.from_dict({**config.to_dict(), **overrides, "game": args.game})
    if args.minutes is not None and args.minutes <= 0:
        raise SystemExit("--minutes must be positive")
    run_training(config, args.run_dir or f"runs/{args.game}", resume=args.resume, overrides=overrides,
                 time_budget_s=None if args.minutes is None else 60 * args.minutes)
    return 0


def _cmd_eval(args) -> int:
    from .evaluate import evaluate_solo, plot_tournament, round_robin

    if args.solo or len(args.bots) == 1:
        print("| bot | games | mean | s.e. | fraction of optimum |")
        print("|---|---:|---:|---:|---:|")
        for b in args.bots:
            r = evaluate_solo(args.game, b, args.games, seed=args.seed)
            frac = "-" if r.fraction_of_optimum is None else f"{100 * r.fraction_of_optimum:.2f} %"
            print(f"| {b} | {r.games} | {r.mean:.2f} | {r.se:.2f} | {frac} |")
        if args.regret:
            from .evaluate import yacht_regret

            if args.game != "yacht":
                raise SystemExit("--regret needs the exact solver: yacht only")
            for b in args.bots:
                print(b, json.dumps(yacht_regret(b, args.games, seed=args.seed)))
        return 0
    t = round_robin(args.game, args.bots, args.games, seed=args.seed)
    print(t.markdown())
    if args.plot:
        plot_tournament(t, args.plot, title=f"{args.game}: {args.games} games per pair and seat order")
        print(f"wrote {args.plot}")
    return 0


def _cmd_ship(args) -> int:
    import json as _json
    import shutil
    from pathlib import Path

    from agents.policy_files import WEIGHTS_DIR, load_policy

    from .evaluate import evaluate_solo

    if args.checkpoint:
        from .run import policy_from_checkpoint

        policy_from_checkpoint(args.run_dir)
    src = Path(args.run_dir) / "policy"
    bot = load_policy(src, name=args.name)  # checks the files fit the installed env
    dest = Path(args.weights_dir or WEIGHTS_DIR) / args.name
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(src.with_suffix(".pt"), dest.with_suffix(".pt"))
    meta = dict(bot.metadata)
    if args.games:
        r = evaluate_solo(meta["game"], bot, args.games, seed=args.seed)
        meta["shipped_evaluation"] = {
            "games": r.games, "seed": args.seed, "mean": r.mean, "se": r.se,
            "fraction_of_optimum": r.fraction_of_optimum,
        }
        frac = "" if r.fraction_of_optimum is None else f" ({100 * r.fraction_of_optimum:.2f} % of optimum)"
        print(f"{args.name}: {r.mean:.2f} ± {r.se:.2f} over {r.games} solitaire games{frac}")
    dest.with_suffix(".json").write_text(_json.dumps(meta, indent=2) + "\n")
    print(f"shipped {dest}.pt and {dest}.json")
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``madang`` command."""
    p = argparse.ArgumentParser(prog="madang", description="madang: Yacht, Rainbow Dice and Go-Stop for RL")
    sub = p.add_subparsers(dest="command", required=True)

    demo = sub.add_parser("demo", help="play a game of Yacht between bots (the shipped PPO bot first)")
    demo.add_argument("--seed", type=int, default=0)
    demo.add_argument("--bots", nargs="+", default=list(DEMO_BOTS),
                      help="one bot name per seat (1..4)")
    demo.set_defaults(func=_cmd_demo)

    bench = sub.add_parser("bench", help="env steps/s of the batched core vs a per-game loop")
    bench.add_argument("game", nargs="?", choices=sorted(GAMES), help="game (default: all)")
    bench.add_argument("--batch", type=int, nargs="+", help="batch sizes (default 1 16 256 4096 16384)")
    bench.add_argument("--seconds", type=float, default=1.0, help="time per measurement")
    bench.add_argument("--json", action="store_true", help="one JSON object per line")
    bench.set_defaults(func=_cmd_bench)

    train = sub.add_parser("train", help="train a PPO bot on a game's batched core")
    train.add_argument("game", choices=sorted(GAMES))
    train.add_argument("--config", help="JSON config file (default: training/configs/<game>.json)")
    train.add_argument("--run-dir", help="run directory (default runs/<game>)")
    train.add_argument("--resume", action="store_true", help="continue the checkpoint in --run-dir")
    train.add_argument("--total-steps", type=int)
    train.add_argument("--num-envs", type=int)
    train.add_argument("--seed", type=int)
    train.add_argument("--device", help="cpu or cuda")
    train.add_argument("--eval-games", type=int)
    train.add_argument("--set", nargs="*", metavar="KEY=VALUE", help="override any config field")
    train.add_argument("--minutes", type=float,
                       help="wall-clock budget: shorten total_steps to fit it (measured after 5 "
                            "updates) and stop with a checkpoint if it runs out")
    train.set_defaults(func=_cmd_train)

    ev = sub.add_parser("eval", help="evaluate bots: solitaire means or a round-robin tournament")
    ev.add_argument("game", choices=sorted(GAMES))
    ev.add_argument("--bots", nargs="+", required=True)
    ev.add_argument("--games", type=int, default=1000, help="games (per pair and seat order)")
    ev.add_argument("--seed", type=int, default=0)
    ev.add_argument("--solo", action="store_true", help="solitaire mean ± s.e. for each bot")
    ev.add_argument("--plot", help="write a PNG of the tournament")
    ev.add_argument("--regret", action="store_true",
                    help="Yacht solo: where each bot loses points against the exact solver")
    ev.set_defaults(func=_cmd_eval)

    ship = sub.add_parser("ship", help="copy a run's final policy into agents/weights as a named bot")
    ship.add_argument("run_dir")
    ship.add_argument("name", help="bot name, e.g. yacht-ppo")
    ship.add_argument("--games", type=int, default=10000, help="solitaire games to evaluate it on (0: skip)")
    ship.add_argument("--seed", type=int, default=0)
    ship.add_argument("--checkpoint", action="store_true",
                      help="ship the run's latest checkpoint (e.g. of a run still training)")
    ship.add_argument("--weights-dir", help=argparse.SUPPRESS)
    ship.set_defaults(func=_cmd_ship)

    solve = sub.add_parser("solve", help="print a game's exact optimal value")
    solve.add_argument("game", choices=["yacht"])
    solve.set_defaults(func=_cmd_solve)
    return p


def main(argv=None) -> int:
    """Entry point of the ``madang`` console script."""
    args = build_parser().parse_args(argv)
    if getattr(args, "batch", None) and any(b < 1 for b in args.batch):
        build_parser().error("batch sizes must be positive")
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
