"""``madang bots``: every loadable bot with its game and a one-line description."""

from __future__ import annotations

from envs.registration import GAMES


def run(args) -> int:
    """Run ``madang bots`` with the parsed ``args``; returns the exit status."""
    import agents

    rows = agents.catalog(args.game)
    width = max(len(b.name) for b in rows)
    for b in rows:
        print(f"{b.name:<{width}}  {b.game or 'any':<12}  {b.description}")
    return 0


def add_parser(sub) -> None:
    """Add the command's parser to ``sub`` (the ``madang`` subparsers)."""
    bots = sub.add_parser("bots", help="list every loadable bot with its game and a one-line description")
    bots.add_argument("game", nargs="?", choices=sorted(GAMES), help="only the bots that play this game")
    bots.set_defaults(func=run)
