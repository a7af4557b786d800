"""``madang play``: a game against bots in the terminal."""

from __future__ import annotations

from envs.registration import GAMES


def run(args) -> int:
    """Run ``madang play`` with the parsed ``args``; returns the exit status."""
    from ..play.terminal import run as play_in_terminal

    return play_in_terminal(args.game, args.bot, args.seat, args.seed)


def add_parser(sub) -> None:
    """Add the command's parser to ``sub`` (the ``madang`` subparsers)."""
    play = sub.add_parser("play", help="play a game against bots in the terminal")
    play.add_argument("game", choices=sorted(GAMES))
    play.add_argument("--bot", action="append", metavar="NAME",
                      help="the bot in the next seat: a name, or your own policy by path or module:attr "
                           "(repeat for more seats; default: a strong bot for the game)")
    play.add_argument("--seat", type=int, default=0, help="your seat (0 = first to move)")
    play.add_argument("--seed", type=int, help="fix the dice or the deal")
    play.set_defaults(func=run)
