"""``madang bots``: every loadable bot with its game and a one-line description."""

from __future__ import annotations

from envs.registration import GAMES


def run(args) -> int:
    """Run ``madang bots`` with the parsed ``args``; returns the exit status.

    The catalog's bots (``agents.catalog``), then each game's own bots that its descriptor
    names by ``module:attr`` (:func:`frontends.games.game_bots`)."""
    import agents

    from ..games import game_bots

    rows = [(b.name, b.game or "any", b.description) for b in agents.catalog(args.game)]
    listed = {name for name, _, _ in rows}
    for game in [args.game] if args.game else GAMES:
        for name in game_bots(game):
            if name not in listed:
                rows.append((name, game, "the game's own bot, named by its descriptor"))
                listed.add(name)
    width = max(len(name) for name, _, _ in rows)
    for name, game, description in rows:
        print(f"{name:<{width}}  {game:<12}  {description}")
    return 0


def add_parser(sub) -> None:
    """Add the command's parser to ``sub`` (the ``madang`` subparsers)."""
    bots = sub.add_parser("bots", help="list every loadable bot with its game and a one-line description")
    bots.add_argument("game", nargs="?", choices=sorted(GAMES), help="only the bots that play this game")
    bots.set_defaults(func=run)
