"""``madang eval``: bots' solitaire means or a seat-swapped round-robin tournament."""

from __future__ import annotations

import inspect
import json
import math
import sys
from pathlib import Path

from envs.registration import GAMES

from ..games import demo_bots
from .common import UsageError, key_values, load_bots, print_json, shard_progress, user_input


def run(args) -> int:
    """Run ``madang eval`` with the parsed ``args``; returns the exit status."""
    from envs.registration import game_class

    from training import evaluate as ev

    cls = game_class(args.game)
    example = f"e.g. madang eval {args.game} --bots " + " ".join(demo_bots(args.game)[:2])
    if args.games < 1:
        raise UsageError(f"--games must be positive, got {args.games}", example)
    rules = key_values(args.rules, "--rules", "copies_per_hand=null (an option of the game's rules)")
    if "num_players" in rules:
        raise UsageError("--rules num_players: the bots set the table (one bot: solo; more: two-player "
                         "games between every two)", example)
    options: dict = {}
    for item in args.bot_option or []:
        key_part = item.partition("=")[0]
        target, _, key = key_part.rpartition(":")
        if not key or "=" not in item:
            raise UsageError(f"--bot-option expects [BOT:]KEY=VALUE, got {item!r}",
                             "e.g. --bot-option rainbow-greedy:token_value=8 (without BOT: for every bot)")
        options.setdefault(target or None, {}).update(
            key_values([key + item[len(key_part):]], "--bot-option", "rainbow-greedy:token_value=8"))
    strangers = sorted(set(options) - {None} - set(args.bots))
    if strangers:
        raise UsageError(f"--bot-option {strangers[0]}:...: {strangers[0]!r} is not one of --bots {args.bots}",
                         "BOT: names one of --bots; without it the option goes to every bot")
    if len(set(args.bots)) != len(args.bots):
        raise UsageError(f"--bots names a bot twice: {args.bots}", example)
    bots = load_bots(args.bots, args.game, options)
    solo = args.solo or len(bots) == 1
    if solo and cls.min_players > 1:
        raise UsageError(f"{args.game} has no solo mode: it is a {cls.min_players}-player game, so --bots "
                         "needs at least two bots for a seat-swapped tournament", example)
    if args.regret and (args.game != "yacht" or not solo):
        raise UsageError("--regret compares solitaire play with the exact solver: Yacht solo only",
                         "e.g. madang eval yacht --bots yacht-ppo --solo --regret")
    takes = [n for n in inspect.signature(cls.__init__).parameters if n not in ("self", "num_players")]
    with user_input(f"--rules takes the {args.game} rules' options: {', '.join(takes)} (the bots set the seats)"):
        from envs.adapters.actions import make_game

        make_game(cls, {**rules, "num_players": 1 if solo else 2})
    if args.shard_games is not None and args.shard_games < 1:
        raise UsageError(f"--shard-games must be positive, got {args.shard_games}", "e.g. --shard-games 1024")
    if args.plot:
        _check_plot_path(args.plot)
    if args.ray_timeout is not None and args.ray is None:
        raise UsageError("--ray-timeout is how long --ray waits for Ray; it needs --ray",
                         "e.g. --ray 10.0.0.5:6379 --ray-timeout 60")
    timeout = ev.RAY_CONNECT_TIMEOUT_S if args.ray_timeout is None else args.ray_timeout
    if not (math.isfinite(timeout) and timeout > 0):
        raise UsageError(f"--ray-timeout must be a positive number of seconds, got {args.ray_timeout}",
                         "e.g. --ray-timeout 60")
    shards = dict(shard_games=args.shard_games or ev.SHARD_GAMES, runner=_eval_runner(args.ray, timeout))
    if solo:
        with shard_progress() as progress:
            results = [ev.evaluate_solo(args.game, b, args.games, seed=args.seed, progress=progress, **shards,
                                        **rules) for b in bots]
        regrets = [ev.yacht_regret(b, args.games, seed=args.seed) for b in bots] if args.regret else []
        if args.json:
            print_json([dict(r.as_dict(), **({"regret": g} if regrets else {}))
                         for r, g in zip(results, regrets or [None] * len(results))])
            if args.plot:
                ev.plot_solo(results, args.plot, title=f"{args.game}: solitaire scores over {args.games} games per bot")
                print(f"wrote {args.plot}", file=sys.stderr)
            return 0
        print("| bot | games | mean | s.e. | fraction of optimum |")
        print("|---|---:|---:|---:|---:|")
        for name, r in zip(args.bots, results):
            frac = "-" if r.fraction_of_optimum is None else f"{100 * r.fraction_of_optimum:.2f} %"
            print(f"| {name} | {r.games} | {r.mean:.2f} | {r.se:.2f} | {frac} |")
        for name, g in zip(args.bots, regrets):
            print(name, json.dumps(g))
        if args.plot:
            ev.plot_solo(results, args.plot, title=f"{args.game}: solitaire scores over {args.games} games per bot")
            print(f"wrote {args.plot}")
        return 0
    with shard_progress() as progress:
        t = ev.round_robin(args.game, bots, args.games, seed=args.seed, paired=not args.unpaired,
                           progress=progress, **shards, **rules)
    if args.json:
        print_json(dict(t.as_dict(), game=args.game, seed=args.seed, paired=not args.unpaired))
    else:
        print(t.markdown())
        print()
        print(_matches_markdown(t))
    if args.plot:
        ev.plot_tournament(t, args.plot, title=f"{args.game}: {args.games} games per pair and seat order")
        print(f"wrote {args.plot}", file=sys.stderr if args.json else sys.stdout)
    return 0


def _check_plot_path(path: str) -> None:
    """``--plot PATH``: a new or existing file, in an existing directory, of a format matplotlib writes."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    hint = "give a file name ending in .png (or .svg, .pdf) in an existing directory"
    p = Path(path)
    formats = FigureCanvasAgg.get_supported_filetypes()
    if p.suffix[1:].lower() not in formats:
        raise UsageError(f"--plot {path}: not an image file name (.png, .svg, .pdf, ...)", hint)
    try:
        if p.is_dir():
            raise UsageError(f"--plot {path} is a directory", hint)
        if not p.resolve().parent.is_dir():
            raise UsageError(f"--plot {path}: no such directory", hint)
    except OSError as e:  # a name too long
        raise UsageError(f"--plot {path}: {e.strerror or e}", hint) from e


def _eval_runner(address, timeout_s: float):
    """The evaluation's shard runner: local, or Ray tasks for ``--ray [ADDRESS]`` (``""``: no address),
    waiting at most ``timeout_s`` seconds for Ray."""
    from training import evaluate as ev

    if address is None:
        return ev.LocalRunner()
    try:
        import ray  # noqa: F401
    except ImportError:
        raise UsageError("--ray needs ray, which is not installed",
                         'pip install "madang[rllib]" (in a virtual environment of its own: ray pins its '
                         "gymnasium; see docs/integrations.md)") from None
    try:
        return ev.RayRunner(address or None, connect_timeout_s=timeout_s)
    except (ConnectionError, ValueError) as e:  # Ray's ValueError: an address it cannot parse
        raise UsageError(f"--ray {address}: {e}", "give the address of a running Ray cluster, "
                         "e.g. --ray auto on one of its nodes, or --ray alone for a local one; "
                         "--ray-timeout sets how long to wait (30 s by default)") from e


def _matches_markdown(t) -> str:
    """Each seat-swapped match of a tournament as one row of a Markdown table (A's side)."""
    lines = ["| A | B | games | A won | B won | draws | A per game | A - B per game | A's share, draws half |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|"]
    for m in t.matches:
        draws = f"{m.draws} ({m.nagari} nagari)" if m.nagari else str(m.draws)
        lines.append(f"| {m.bot_a} | {m.bot_b} | {m.games} | {m.wins} | {m.losses} | {draws} "
                     f"| {m.mean_a:.2f} ± {m.ci95_a:.2f} | {m.margin:+.2f} ± {m.margin_ci95:.2f} "
                     f"| {m.score_rate:.4f} ± {m.score_rate_ci95:.4f} |")
    if any(m.go_a is not None for m in t.matches):
        lines += ["", "| bot | against | deals | called Go | won after Go | lost after Go | nagari after Go "
                      "| points per deal after Go |", "|---|---|---:|---:|---:|---:|---:|---:|"]
        for m in t.matches:
            for me, other, g in ((m.bot_a, m.bot_b, m.go_a), (m.bot_b, m.bot_a, m.go_b)):
                lines.append(f"| {me} | {other} | {g.deals} | {g.called_go} ({100 * g.go_rate:.1f} %) "
                             f"| {g.won_after_go} | {g.lost_after_go} | {g.nagari_after_go} "
                             f"| {g.points_after_go:+.2f} |")
    return "\n".join(lines)


def add_parser(sub) -> None:
    """Add the command's parser to ``sub`` (the ``madang`` subparsers)."""
    ev = sub.add_parser("eval", help="evaluate bots: solo means or a seat-swapped round-robin tournament")
    ev.add_argument("game", choices=sorted(GAMES))
    ev.add_argument("--bots", nargs="+", required=True,
                    help="bot names (see `madang bots`) or paths to policy files or run directories")
    ev.add_argument("--games", type=int, default=1000,
                    help="solo games per bot, or deal pairs per pair of bots (each deal played in both seatings)")
    ev.add_argument("--seed", type=int, default=0)
    ev.add_argument("--solo", action="store_true", help="solitaire mean ± s.e. for each bot")
    ev.add_argument("--unpaired", action="store_true",
                    help="tournament: give every game its own deal instead of replaying each deal "
                         "with the seats swapped")
    ev.add_argument("--rules", nargs="*", metavar="KEY=VALUE",
                    help="the game's rules options, e.g. copies_per_hand=null")
    ev.add_argument("--bot-option", nargs="*", metavar="[BOT:]KEY=VALUE",
                    help="a bot's constructor option, e.g. rainbow-greedy:token_value=8 (without BOT: every bot)")
    ev.add_argument("--json", action="store_true", help="print the results as JSON")
    ev.add_argument("--plot", help="write a PNG of the tournament")
    ev.add_argument("--regret", action="store_true",
                    help="Yacht solo: where each bot loses points against the exact solver")
    ev.add_argument("--shard-games", type=int,
                    help="games per shard, one batch of the core (the results depend on it; "
                         "default: training.evaluate.SHARD_GAMES, 4096)")
    ev.add_argument("--ray", nargs="?", const="", metavar="ADDRESS",
                    help="play the shards as Ray tasks: on the cluster at ADDRESS (e.g. auto, ray://host:10001), "
                         "or a local one without (needs madang[rllib]); the same results as a local run")
    ev.add_argument("--ray-timeout", type=float, metavar="SECONDS",
                    help="with --ray ADDRESS: how long to wait for the cluster to answer before giving up (default 30)")
    ev.set_defaults(func=run)
