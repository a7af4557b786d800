"""``madang demo``: a game between bots, its transcript printed."""

from __future__ import annotations

from envs.registration import GAMES

from ..games import demo_bots

from .common import UsageError, load_bots


def run(args) -> int:
    """Run ``madang demo`` with the parsed ``args``; returns the exit status."""
    from envs.registration import game_class

    from ..demo import play_demo

    cls = game_class(args.game)
    names = args.bots or demo_bots(args.game)
    if not cls.min_players <= len(names) <= cls.max_players:
        raise UsageError(f"{args.game} takes {cls.min_players}..{cls.max_players} bots (one per seat), "
                         f"got {len(names)}", f"e.g. madang demo --game {args.game} --bots "
                                              + " ".join(demo_bots(args.game)))
    play_demo(args.game, bots=load_bots(names, args.game), seed=args.seed)
    return 0


def add_parser(sub) -> None:
    """Add the command's parser to ``sub`` (the ``madang`` subparsers)."""
    demo = sub.add_parser("demo", help="play a game between bots and print its transcript")
    demo.add_argument("--game", choices=sorted(GAMES), default="yacht", help="game (default yacht)")
    demo.add_argument("--seed", type=int, default=0)
    demo.add_argument("--bots", nargs="+", help="one bot name per seat (default: the game's demo bots: "
                      + "; ".join(f"{g}: {' '.join(demo_bots(g))}" for g in GAMES) + ")")
    demo.set_defaults(func=run)
