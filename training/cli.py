"""The ``madang`` command line: ``demo``, ``play``, ``serve``, ``bots``, ``bench``, ``train``, ``eval``,
``ship``, ``export``, ``benchmark``, ``solve``.

User mistakes (an unknown bot, a bad config, a missing checkpoint, ...) raise
:class:`UsageError`; :func:`main` prints them as ``madang: error: ...`` with a hint and
returns 2, like argparse does for malformed arguments.  Anything else is a bug and keeps
its traceback.
"""

from __future__ import annotations

import argparse
import inspect
import json
import math
import sys
from contextlib import contextmanager, suppress
from pathlib import Path

from envs.registration import GAMES

from .demo import DEMO_BOTS


class UsageError(Exception):
    """A user mistake: :func:`main` prints ``madang: error: <message>`` and ``hint: <hint>``, exit 2."""

    def __init__(self, message: str, hint: str = ""):
        super().__init__(message)
        self.hint = hint


@contextmanager
def user_input(hint: str = ""):
    """Report the ``ValueError`` of checking what the user asked for as a :class:`UsageError`.

    Wrap only the checks of arguments, files and names, never the work itself, so that a
    ``ValueError`` from a real bug keeps its traceback.
    """
    try:
        yield
    except ValueError as e:
        raise UsageError(str(e), hint) from e


def _key_values(items, flag: str, example: str) -> dict:
    """``KEY=VALUE`` strings as a dict; a VALUE that parses as JSON (``3``, ``null``, ``[1]``) is decoded.
    A malformed item is a :class:`UsageError` whose hint is ``e.g. {flag} {example}``."""
    out = {}
    for item in items or []:
        key, eq, value = item.partition("=")
        if not eq or not key:
            raise UsageError(f"{flag} expects KEY=VALUE, got {item!r}", f"e.g. {flag} {example}")
        try:
            out[key] = json.loads(value)
        except ValueError:
            out[key] = value
    return out


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("madang")
    except PackageNotFoundError:  # running from a source tree that is not installed
        return "unknown (not installed)"


def _bots_hint(game: str) -> str:
    return (f"`madang bots {game}` lists the bots that play {game}; your own policy works too: a path (policy "
            "files, .onnx, SB3 .zip, RLlib checkpoint) or module:attr (docs/bots.md)")


def _load_bots(names, game: str, options: dict | None = None) -> list:
    """Load the named bots (with ``options``, keyed by bot name or ``None`` for all), checking the game."""
    import agents
    from agents.registry import BotOptionError

    bots = []
    for name in names:
        kwargs = {**(options or {}).get(None, {}), **(options or {}).get(name, {})}
        try:
            bot = agents.load(name, **kwargs)
        except BotOptionError as e:
            raise UsageError(str(e), "--bot-option [BOT:]KEY=VALUE gives a bot a constructor option; "
                                     "without BOT: every bot gets it") from e
        except ValueError as e:
            raise UsageError(str(e), _bots_hint(game)) from e
        with user_input(_bots_hint(game)):
            if hasattr(bot, "check_game"):
                bot.check_game(game)
        bots.append(bot)
    return bots


# ---------------------------------------------------------------------- commands
def _cmd_demo(args) -> int:
    from envs.registration import game_class

    from .demo import play_demo

    cls = game_class(args.game)
    names = args.bots or list(DEMO_BOTS[args.game])
    if not cls.min_players <= len(names) <= cls.max_players:
        raise UsageError(f"{args.game} takes {cls.min_players}..{cls.max_players} bots (one per seat), "
                         f"got {len(names)}", f"e.g. madang demo --game {args.game} --bots "
                                              + " ".join(DEMO_BOTS[args.game]))
    play_demo(args.game, bots=_load_bots(names, args.game), seed=args.seed)
    return 0


def _cmd_bots(args) -> int:
    import agents

    rows = agents.catalog(args.game)
    width = max(len(b.name) for b in rows)
    for b in rows:
        print(f"{b.name:<{width}}  {b.game or 'any':<12}  {b.description}")
    return 0


def _cmd_play(args) -> int:
    from .play.terminal import run

    return run(args.game, args.bot, args.seat, args.seed)


def _cmd_serve(args) -> int:
    from .play.web import check_address, serve

    with user_input("e.g. madang serve --port 8080 (the default host 127.0.0.1 is this machine only)"):
        check_address(args.host, args.port)
    return serve(args.host, args.port, bots=args.bot or ())


MAX_BENCH_BATCH = 65_536
"""The largest batch ``madang bench`` measures (a batch's states live in memory at once)."""


def _cmd_bench(args) -> int:
    from benchmarks.throughput import DEFAULT_BATCHES, bench_aec, bench_single_env, run

    games = [args.game] if args.game else sorted(GAMES)
    batches = args.batch or list(DEFAULT_BATCHES)
    if not all(1 <= b <= MAX_BENCH_BATCH for b in batches):
        raise UsageError(f"--batch sizes must be in 1..{MAX_BENCH_BATCH:,}, got {args.batch}",
                         "e.g. --batch 1 256 4096")
    if not (math.isfinite(args.seconds) and args.seconds > 0):
        raise UsageError(f"--seconds must be a positive number of seconds per measurement, got {args.seconds}",
                         "e.g. --seconds 0.5")
    if not args.json:
        print(f"{'game':<14}{'batch':>7}{'core steps/s':>15}{'numpy oracle':>14}{'ratio':>8}"
              f"{'step() µs':>11}{'oracle':>10}{'ratio':>8}{'loop steps/s':>14}{'ratio':>9}"
              f"{'checked':>12}{'limit':>12}{'core %':>8}{'checked %':>10}")
    for game in games:
        for row in run(game, batches, seconds=args.seconds):
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


def _cmd_solve(args) -> int:
    import time

    from agents.yacht_dp import solve

    for t in args.target or []:
        if not 0 <= t <= 304:
            raise UsageError(f"--target {t}: a final total is 0..303", "e.g. madang solve yacht --target 150 200 250")
    start = time.perf_counter()
    value = solve().optimal_score
    print(f"{value:.4f}")
    print(f"(optimal expected solitaire Yacht score; solved in {time.perf_counter() - start:.2f} s)",
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


def _read_config(spec: str, game: str) -> dict:
    """The fields of a PPO config from a JSON file or the name of a config in ``training/configs``."""
    from .run import CONFIG_DIR

    shipped = sorted(p.stem for p in CONFIG_DIR.glob("*.json"))
    hint = f"shipped configs: {', '.join(shipped)}; or the path of a JSON file"
    path = Path(spec)
    if not path.is_file() and (CONFIG_DIR / f"{spec}.json").is_file():
        path = CONFIG_DIR / f"{spec}.json"
    if not path.is_file():
        raise UsageError(f"--config {spec!r}: no such file or shipped config", hint)
    try:
        data = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, ValueError) as e:
        raise UsageError(f"--config {path}: not a JSON config ({e})", hint) from e
    if not isinstance(data, dict):
        raise UsageError(f"--config {path}: a config is a JSON object of PPOConfig fields", hint)
    if data.get("game", game) != game:
        raise UsageError(f"--config {path} is a config for {data['game']}, not {game}", hint)
    return data


def _check_training_setup(config) -> None:
    """Raise ``ValueError`` for a config the trainer would reject (fields, rules, opponents, device)."""
    from envs.adapters.actions import make_game
    from envs.adapters.seats import resolve_opponents
    from envs.registration import game_class

    import torch

    config.validate()
    game = make_game(game_class(config.game), config.game_config)
    if config.learner_seat is not None and not 0 <= config.learner_seat < game.num_players:
        raise ValueError(f"learner_seat must be None or a seat in 0..{game.num_players - 1}, "
                         f"got {config.learner_seat}")
    for key in ("opponents", "eval_opponents"):
        names = list(getattr(config, key))
        if names and game.num_players == 1:
            raise ValueError(f"{key}: a one-player game takes no opponents, got {names}")
        if names:
            names = names * (game.num_players - 1) if len(names) == 1 else names
            resolve_opponents(game, ["random" if n == "self" else n for n in names])
    if torch.device(config.device).type == "cuda" and not torch.cuda.is_available():  # a device: validate()
        raise ValueError(f"device {config.device!r}: this machine has no CUDA device (use --device cpu)")


def _cmd_train(args) -> int:
    from .checkpoint import CheckpointError
    from .ppo import PPOConfig, PPOTrainer
    from .run import default_config, resume_trainer, run_training

    fields = _read_config(args.config, args.game) if args.config else default_config(args.game).to_dict()
    overrides = _key_values(args.set, "--set", "num_envs=1024 (a field of PPOConfig, training/ppo.py)")
    for key in ("total_steps", "num_envs", "seed", "device", "eval_games"):
        if getattr(args, key) is not None:
            overrides[key] = getattr(args, key)
    if args.minutes is not None and args.minutes <= 0:
        raise UsageError(f"--minutes must be positive, got {args.minutes}", "e.g. --minutes 90")
    run_dir = Path(args.run_dir or f"runs/{args.game}")
    ckpt = run_dir / "checkpoint.pt"
    if args.resume and not ckpt.is_file():
        raise UsageError(f"--resume: no checkpoint at {ckpt}",
                         "start the run without --resume, or pass the --run-dir of an earlier run")
    if not args.resume and ckpt.exists():
        raise UsageError(f"{ckpt} exists", "pass --resume to continue it, or choose another --run-dir")
    damaged = "the file is damaged or not a checkpoint: restore it, or start a new run in another --run-dir"
    if args.resume:
        with user_input(damaged):
            saved = PPOTrainer.read_checkpoint(ckpt)
    fields_hint = "see the config fields in training/ppo.py (PPOConfig); --set KEY=VALUE overrides one"
    with user_input(fields_hint):
        config = PPOConfig.from_dict({**fields, **overrides, "game": args.game})
        # On --resume the checkpoint's config applies (its total_steps included), with the
        # command line's overrides on top.
        final = PPOTrainer.checkpoint_config(saved, **overrides) if args.resume else config
        if args.resume:
            config.total_steps = final.total_steps
    try:
        _check_training_setup(final)
    except ValueError as e:
        if not args.resume:
            raise UsageError(str(e), fields_hint) from e
        mine = " with your overrides" if overrides else ""
        raise UsageError(f"{ckpt}: the checkpoint's config{mine} does not fit: {e}",
                         "--set KEY=VALUE (and --device, --num-envs, ...) override a field of the "
                         "checkpoint's config; or restore the file") from e
    whole = -(-final.total_steps // final.rollout_size) * final.rollout_size
    if whole != final.total_steps:
        print(f"madang: note: total_steps {final.total_steps:,} rounded up to {whole:,}, whole rollouts "
              f"of {final.num_envs} games x {final.num_steps} steps", file=sys.stderr)
        overrides["total_steps"] = config.total_steps = whole
    trainer = None
    if args.resume:  # every part of the checkpoint is checked before anything is written
        try:
            trainer = resume_trainer(config, run_dir, overrides)
        except CheckpointError as e:
            raise UsageError(str(e), damaged) from e
    run_training(config, run_dir, resume=args.resume, overrides=overrides, trainer=trainer,
                 time_budget_s=None if args.minutes is None else 60 * args.minutes)
    return 0


def _print_json(obj) -> None:
    print(json.dumps(obj, indent=1))


def _cmd_eval(args) -> int:
    from envs.registration import game_class

    from . import evaluate as ev

    cls = game_class(args.game)
    example = f"e.g. madang eval {args.game} --bots " + " ".join(DEMO_BOTS[args.game][:2])
    if args.games < 1:
        raise UsageError(f"--games must be positive, got {args.games}", example)
    rules = _key_values(args.rules, "--rules", "copies_per_hand=null (an option of the game's rules)")
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
            _key_values([key + item[len(key_part):]], "--bot-option", "rainbow-greedy:token_value=8"))
    strangers = sorted(set(options) - {None} - set(args.bots))
    if strangers:
        raise UsageError(f"--bot-option {strangers[0]}:...: {strangers[0]!r} is not one of --bots {args.bots}",
                         "BOT: names one of --bots; without it the option goes to every bot")
    if len(set(args.bots)) != len(args.bots):
        raise UsageError(f"--bots names a bot twice: {args.bots}", example)
    bots = _load_bots(args.bots, args.game, options)
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
        with _shard_progress() as progress:
            results = [ev.evaluate_solo(args.game, b, args.games, seed=args.seed, progress=progress, **shards,
                                        **rules) for b in bots]
        regrets = [ev.yacht_regret(b, args.games, seed=args.seed) for b in bots] if args.regret else []
        if args.json:
            _print_json([dict(r.as_dict(), **({"regret": g} if regrets else {}))
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
    with _shard_progress() as progress:
        t = ev.round_robin(args.game, bots, args.games, seed=args.seed, paired=not args.unpaired,
                           progress=progress, **shards, **rules)
    if args.json:
        _print_json(dict(t.as_dict(), game=args.game, seed=args.seed, paired=not args.unpaired))
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
    from . import evaluate as ev

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


@contextmanager
def _shard_progress(console=None):
    """A progress bar over the evaluation's shards on stderr, if it is a terminal; yields the
    ``progress(done, total)`` callback (None without a terminal)."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    console = console or Console(stderr=True)
    if not console.is_terminal:
        yield None
        return
    with Progress(TextColumn("shards"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console, transient=True) as bar:
        task = bar.add_task("shards", total=None)
        yield lambda done, total: bar.update(task, completed=done, total=total)


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


SHIP_REFERENCE = {"gostop": "gostop-greedy"}
"""The bot ``madang ship`` measures a policy against in a game without a solo mode (default ``random``)."""


def _ship_evaluation(args, meta: dict, bot) -> dict:
    """The evaluation ``madang ship`` records: solitaire games, or a seat-swapped match against
    ``--against`` (the game's reference bot when it has no solo mode); prints one line."""
    from envs.registration import game_class

    from .evaluate import evaluate_solo, seat_swapped_match

    game = meta["game"]
    against = args.against
    if against is None and game_class(game).min_players > 1:
        against = SHIP_REFERENCE.get(game, "random")
    if against is None:
        r = evaluate_solo(game, bot, args.games, seed=args.seed)
        frac = "" if r.fraction_of_optimum is None else f" ({100 * r.fraction_of_optimum:.2f} % of optimum)"
        print(f"{args.name}: {r.mean:.2f} ± {r.se:.2f} over {r.games} solitaire games{frac}")
        return {"games": r.games, "seed": args.seed, "mean": r.mean, "se": r.se,
                "fraction_of_optimum": r.fraction_of_optimum}
    (reference,) = _load_bots([against], game)
    m = seat_swapped_match(game, bot, reference, args.games, seed=args.seed)
    m.bot_b = against
    print(f"{args.name} against {against}: {m.mean_a:+.2f} ± {m.ci95_a:.2f} per game, {m.margin:+.2f} ± "
          f"{m.margin_ci95:.2f} more than {against}, {m.wins} won / {m.losses} lost / {m.draws} drawn "
          f"({100 * m.decided_win_rate:.1f} % of decided games) over {m.games} games, each of "
          f"{m.pairs} deals played in both seatings")
    return {"seat_swapped": True, "seed": args.seed, **m.as_dict()}


def _cmd_ship(args) -> int:
    import os

    from agents.policy_files import load_policy
    from agents.registry import ship_destination, user_bots_dir

    if args.games < 1:
        raise UsageError(f"--games must be positive (a shipped bot carries its evaluation), got {args.games}",
                         "e.g. --games 10000")
    with user_input("pick a new name such as yacht-ppo2 (`madang bots` lists the names taken), or pass "
                    "--force to replace a bot you shipped before"):
        dest = ship_destination(args.name, force=args.force)
    if args.checkpoint:
        from .checkpoint import CheckpointError
        from .run import policy_from_checkpoint

        ckpt = Path(args.run_dir) / "checkpoint.pt"
        if not ckpt.exists():
            raise UsageError(f"--checkpoint: no checkpoint at {ckpt}",
                             "RUN_DIR is a `madang train` run directory")
        try:
            policy_from_checkpoint(args.run_dir)
        except CheckpointError as e:
            raise UsageError(str(e), "the checkpoint is damaged: ship the run's policy files without "
                                     "--checkpoint, or restore the file") from e
    src = Path(args.run_dir) / "policy"
    with user_input("RUN_DIR is a `madang train` run directory; it holds policy.pt and policy.json "
                    "once the run has finished"):
        bot = load_policy(src, name=args.name)  # checks the files fit the installed env
    unwritable = "set MADANG_HOME to a directory you can write to"
    try:  # before the evaluation, which can take a while
        dest.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise UsageError(f"cannot create {user_bots_dir()} for your bots: {e.strerror or e}", unwritable) from e
    meta = dict(bot.metadata)
    meta["shipped_evaluation"] = _ship_evaluation(args, meta, bot)
    # Nothing is written before the evaluation succeeded; both files appear together.
    pt, js = dest.with_suffix(".pt"), dest.with_suffix(".json")
    pt_tmp, js_tmp = pt.with_name(pt.name + ".tmp"), js.with_name(js.name + ".tmp")
    try:
        pt_tmp.write_bytes(src.with_suffix(".pt").read_bytes())
        js_tmp.write_text(json.dumps(meta, indent=2) + "\n")
        os.replace(pt_tmp, pt)
        os.replace(js_tmp, js)
    except OSError as e:
        for tmp in (pt_tmp, js_tmp):
            with suppress(OSError):
                tmp.unlink(missing_ok=True)
        raise UsageError(f"cannot write the bot into {dest.parent}: {e.strerror or e}", unwritable) from e
    print(f"shipped {args.name}: {pt} and {js.name}; it loads by name, e.g. "
          f"madang eval {meta['game']} --bots {args.name} ...")
    return 0


def _cmd_export(args) -> int:
    from agents.export import check_examples, check_exportable, export_policy, output_dir
    from agents.onnx_export import INSTALL_HINT, require_onnx

    with user_input("only trained policies export (the message lists them); `madang bots` lists every bot"):
        check_exportable(args.name)
    with user_input(INSTALL_HINT):
        require_onnx()
    with user_input("e.g. --examples 100"):
        check_examples(args.examples)
    with user_input("--out names a directory (created if missing) that you can write to"):
        output_dir(args.out)
    r = export_policy(args.name, args.out, count=args.examples, seed=args.seed)
    print(f"wrote {r.onnx}, {r.metadata} and {r.examples}")
    print(f"onnxruntime on the {r.num_examples} examples: greedy action agrees on {r.greedy_agree}, "
          f"max |logit difference| {r.max_logit_diff:.2e}")
    return 0 if r.greedy_agree == r.num_examples else 1


def _cmd_benchmark(args) -> int:
    from . import benchmark as bm
    from .benchmark.report import comparison_text, result_text

    example = "e.g. madang benchmark yacht yacht-greedy --suite yacht-solo-v1"
    if args.compare:
        if args.game or args.policy:
            raise UsageError("--compare takes two result files, no GAME or POLICY",
                             "e.g. madang benchmark --compare a/yacht-solo-v1--mine.json b/yacht-solo-v1--yours.json")
        with user_input("compare two results of one suite, as `madang benchmark --out DIR` or --json wrote them"):
            c = bm.compare(*(bm.read_result(p) for p in args.compare))
        print(json.dumps(c, indent=1) if args.json else comparison_text(c))
        return 0
    if not args.game or not args.policy:
        raise UsageError("benchmark needs a GAME and a POLICY (or --compare A.json B.json)", example)
    with user_input(f"the suites of {args.game}: {', '.join(s.id for s in bm.suites_for(args.game))}"):
        suites = [bm.get_suite(args.suite)] if args.suite else bm.suites_for(args.game)
        if suites[0].game != args.game:
            raise ValueError(f"suite {args.suite} plays {suites[0].game}, not {args.game}")
    if args.games is not None and args.games < 1:
        raise UsageError(f"--games must be positive, got {args.games}", "e.g. --games 64 for a quick check")
    out = Path(args.out) if args.out else None
    if out is not None:
        try:  # before playing: a suite can take an hour
            out.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise UsageError(f"--out {out}: not a directory that can be made ({e.strerror})",
                             "give a directory for the result files") from None
    (bot,) = _load_bots([args.policy], args.game, {None: _key_values(args.bot_option, "--bot-option", "game=yacht")})
    results = []
    for suite in suites:
        with _shard_progress() as progress:
            r = bm.play(suite, bot, args.policy, limit=args.games, progress=progress)
        results.append(r)
        if out is not None:
            try:
                (out / bm.result_filename(r)).write_text(json.dumps(r, separators=(",", ":")) + "\n")
            except OSError as e:
                raise UsageError(f"--out {out}: cannot write the result ({e.strerror})",
                                 "give a directory you can write to") from None
        if not args.json:
            print(result_text(r) + "\n", flush=True)
    if args.json:
        print(json.dumps(results, separators=(",", ":")))
    return 0


# ------------------------------------------------------------------------ parser
def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``madang`` command."""
    p = argparse.ArgumentParser(prog="madang", description="madang: Yacht, Rainbow Dice and Go-Stop for RL")
    p.add_argument("--version", action="version", version=f"madang {_version()}")
    sub = p.add_subparsers(dest="command", required=True)

    demo = sub.add_parser("demo", help="play a game between bots and print its transcript")
    demo.add_argument("--game", choices=sorted(GAMES), default="yacht", help="game (default yacht)")
    demo.add_argument("--seed", type=int, default=0)
    demo.add_argument("--bots", nargs="+", help="one bot name per seat (default: the game's demo bots: "
                      + "; ".join(f"{g}: {' '.join(b)}" for g, b in DEMO_BOTS.items()) + ")")
    demo.set_defaults(func=_cmd_demo)

    play = sub.add_parser("play", help="play a game against bots in the terminal")
    play.add_argument("game", choices=sorted(GAMES))
    play.add_argument("--bot", action="append", metavar="NAME",
                      help="the bot in the next seat: a name, or your own policy by path or module:attr "
                           "(repeat for more seats; default: a strong bot for the game)")
    play.add_argument("--seat", type=int, default=0, help="your seat (0 = first to move)")
    play.add_argument("--seed", type=int, help="fix the dice or the deal")
    play.set_defaults(func=_cmd_play)

    serve = sub.add_parser("serve", help="a local web page to play every game against the bots")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default: this machine only)")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--bot", action="append", metavar="POLICY",
                       help="offer your own policy too: a path (.onnx, SB3 .zip, policy files, RLlib checkpoint) "
                            "or module:attr (repeat for more)")
    serve.set_defaults(func=_cmd_serve)

    bots = sub.add_parser("bots", help="list every loadable bot with its game and a one-line description")
    bots.add_argument("game", nargs="?", choices=sorted(GAMES), help="only the bots that play this game")
    bots.set_defaults(func=_cmd_bots)

    bench = sub.add_parser("bench", help="env steps/s of the batched core vs its numpy oracle, a per-game "
                                         "loop, the single env and the AEC loop")
    bench.add_argument("game", nargs="?", choices=sorted(GAMES), help="game (default: all)")
    bench.add_argument("--batch", type=int, nargs="+", help="batch sizes (default 1 16 256 4096 16384)")
    bench.add_argument("--seconds", type=float, default=1.0, help="time per measurement")
    bench.add_argument("--json", action="store_true", help="one JSON object per line")
    bench.add_argument("--no-envs", action="store_true", help="skip the single env and AEC measurements")
    bench.set_defaults(func=_cmd_bench)

    train = sub.add_parser("train", help="train a PPO bot on a game's batched core")
    train.add_argument("game", choices=sorted(GAMES))
    train.add_argument("--config", help="a JSON config file, or the name of a shipped one such as yacht_2x256 "
                                        "(default: training/configs/<game>.json)")
    train.add_argument("--run-dir", help="run directory (default runs/<game>)")
    train.add_argument("--resume", action="store_true", help="continue the checkpoint in --run-dir")
    train.add_argument("--total-steps", type=int, help="learner decisions (rounded up to whole rollouts)")
    train.add_argument("--num-envs", type=int)
    train.add_argument("--seed", type=int)
    train.add_argument("--device", help="cpu or cuda")
    train.add_argument("--eval-games", type=int)
    train.add_argument("--set", nargs="*", metavar="KEY=VALUE", help="override any config field")
    train.add_argument("--minutes", type=float,
                       help="wall-clock budget: shorten total_steps to fit it (measured after 5 "
                            "updates) and stop with a checkpoint if it runs out")
    train.set_defaults(func=_cmd_train)

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
    ev.set_defaults(func=_cmd_eval)

    ship = sub.add_parser("ship", help="evaluate a run's final policy and keep it as a named bot in your "
                                       "madang directory (MADANG_HOME, else the OS's per-user data directory)")
    ship.add_argument("run_dir")
    ship.add_argument("name", help="a new bot name, e.g. yacht-ppo2 (lower-case letters, digits, - and _)")
    ship.add_argument("--games", type=int, default=10000,
                      help="solitaire games to evaluate it on, or with --against (and in games without a solo "
                           "mode) deals played twice with the seats swapped")
    ship.add_argument("--against", metavar="BOT",
                      help="evaluate in seat-swapped two-player games against this bot (default for games "
                           "without a solo mode: " + ", ".join(f"{g}: {b}" for g, b in SHIP_REFERENCE.items())
                           + ")")
    ship.add_argument("--seed", type=int, default=0)
    ship.add_argument("--checkpoint", action="store_true",
                      help="ship the run's latest checkpoint (e.g. of a run still training)")
    ship.add_argument("--force", action="store_true", help="replace a bot you shipped before under this name "
                                                            "(the bots that come with madang are never replaced)")
    ship.set_defaults(func=_cmd_ship)

    export = sub.add_parser("export", help="write a shipped policy as ONNX with metadata and "
                                           "conformance vectors (needs madang[onnx])")
    export.add_argument("name", help="a shipped policy, e.g. yacht-ppo")
    export.add_argument("--out", default=".", help="output directory (default: the current one)")
    export.add_argument("--examples", type=int, default=100, help="conformance vectors to record")
    export.add_argument("--seed", type=int, default=0, help="seed of the recorded games")
    export.set_defaults(func=_cmd_export)

    from .benchmark.suites import SUITES

    bm = sub.add_parser("benchmark", help="a policy on the versioned benchmark suites, or --compare two results "
                                          "(docs/benchmarks.md)")
    bm.add_argument("game", nargs="?", choices=sorted(GAMES))
    bm.add_argument("policy", nargs="?", help="a bot name, policy files, a .onnx file, an SB3 .zip, an RLlib "
                                              "checkpoint or module:attr")
    bm.add_argument("--suite", help="one suite (default: every suite of the game): " + ", ".join(SUITES))
    bm.add_argument("--bot-option", nargs="*", metavar="KEY=VALUE", help="an option of the policy, e.g. game=yacht")
    bm.add_argument("--games", type=int, help="only the first N games (solo) or deal pairs per rung: a quick "
                                              "check, not a suite result")
    bm.add_argument("--json", action="store_true", help="print the results (or the comparison) as JSON")
    bm.add_argument("--out", metavar="DIR", help="write each result to DIR/SUITE--POLICY.json")
    bm.add_argument("--compare", nargs=2, metavar=("A.json", "B.json"),
                    help="a paired test of two results of one suite, on their common seeds")
    bm.set_defaults(func=_cmd_benchmark)

    solve = sub.add_parser("solve", help="print a game's exact optimal value")
    solve.add_argument("game", choices=["yacht"])
    solve.add_argument("--target", type=int, nargs="+", metavar="T",
                       help="also the chance of a total of at least T: the solver's and the best possible")
    solve.set_defaults(func=_cmd_solve)
    return p


def main(argv=None) -> int:
    """Entry point of the ``madang`` console script; returns the exit status (2 for user mistakes)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except UsageError as e:
        print(f"madang: error: {e}", file=sys.stderr)
        if e.hint:
            print(f"hint: {e.hint}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("madang: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
