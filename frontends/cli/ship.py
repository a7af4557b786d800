"""``madang ship``: a run's final policy evaluated and kept as a named bot in the user's madang directory."""

from __future__ import annotations

import json
from contextlib import suppress
from pathlib import Path

from envs.registration import GAMES

from ..games import default_bot
from .common import UsageError, load_bots, user_input


def _ship_evaluation(args, meta: dict, bot) -> dict:
    """The evaluation ``madang ship`` records: solitaire games, or a seat-swapped match against
    ``--against`` (in a game without a solo mode by default its descriptor's ``default_bot``, else
    ``random``); prints one line."""
    from envs.registration import game_class

    from training.evaluate import evaluate_solo, seat_swapped_match

    game = meta["game"]
    against = args.against
    if against is None and game_class(game).min_players > 1:
        against = default_bot(game)
    if against is None:
        r = evaluate_solo(game, bot, args.games, seed=args.seed)
        frac = "" if r.fraction_of_optimum is None else f" ({100 * r.fraction_of_optimum:.2f} % of optimum)"
        print(f"{args.name}: {r.mean:.2f} ± {r.se:.2f} over {r.games} solitaire games{frac}")
        return {"games": r.games, "seed": args.seed, "mean": r.mean, "se": r.se,
                "fraction_of_optimum": r.fraction_of_optimum}
    (reference,) = load_bots([against], game)
    m = seat_swapped_match(game, bot, reference, args.games, seed=args.seed)
    m.bot_b = against
    print(f"{args.name} against {against}: {m.mean_a:+.2f} ± {m.ci95_a:.2f} per game, {m.margin:+.2f} ± "
          f"{m.margin_ci95:.2f} more than {against}, {m.wins} won / {m.losses} lost / {m.draws} drawn "
          f"({100 * m.decided_win_rate:.1f} % of decided games) over {m.games} games, each of "
          f"{m.pairs} deals played in both seatings")
    return {"seat_swapped": True, "seed": args.seed, **m.as_dict()}


def run(args) -> int:
    """Run ``madang ship`` with the parsed ``args``; returns the exit status."""
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
        from training.checkpoint import CheckpointError
        from training.run import policy_from_checkpoint

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


def add_parser(sub) -> None:
    """Add the command's parser to ``sub`` (the ``madang`` subparsers)."""
    ship = sub.add_parser("ship", help="evaluate a run's final policy and keep it as a named bot in your "
                                       "madang directory (MADANG_HOME, else the OS's per-user data directory)")
    ship.add_argument("run_dir")
    ship.add_argument("name", help="a new bot name, e.g. yacht-ppo2 (lower-case letters, digits, - and _)")
    ship.add_argument("--games", type=int, default=10000,
                      help="solitaire games to evaluate it on, or with --against (and in games without a solo "
                           "mode) deals played twice with the seats swapped")
    ship.add_argument("--against", metavar="BOT",
                      help="evaluate in seat-swapped two-player games against this bot (default for games "
                           "without a solo mode: " + ", ".join(f"{g}: {default_bot(g)}" for g, s in GAMES.items()
                                                               if s.game_cls.min_players > 1) + ")")
    ship.add_argument("--seed", type=int, default=0)
    ship.add_argument("--checkpoint", action="store_true",
                      help="ship the run's latest checkpoint (e.g. of a run still training)")
    ship.add_argument("--force", action="store_true", help="replace a bot you shipped before under this name "
                                                            "(the bots that come with madang are never replaced)")
    ship.set_defaults(func=run)
