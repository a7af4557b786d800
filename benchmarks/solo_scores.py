"""Mean solo score of a bot (with its standard error), played as one batch of games.

Usage::

    python -m benchmarks.solo_scores rainbow_dice rainbow-greedy --games 1000 \\
        --config copies_per_hand=None --bot-option token_value=8
"""

from __future__ import annotations

import argparse
import ast
import time

import numpy as np

import agents
from agents.play import play_out
from envs.registration import game_class


def play_solo(game_name: str, bot, games: int, seed: int = 0, **config) -> np.ndarray:
    """Final scores of ``games`` one-player games of ``game_name`` played by ``bot`` (seeds seed..)."""
    game = game_class(game_name)(num_players=1, **config)
    state = game.init(seed + np.arange(games))
    play_out(game, state, [bot], np.random.default_rng(seed))
    return np.array([game.result(state, i)["scores"][0] for i in range(games)], dtype=np.float64)


def _pairs(items) -> dict:
    out = {}
    for item in items or []:
        key, _, value = item.partition("=")
        out[key] = ast.literal_eval(value)
    return out


def main(argv=None) -> int:
    """Command-line entry: print mean, standard error, standard deviation and time."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("game")
    p.add_argument("bot")
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--config", nargs="*", help="game config as key=value (Python literals)")
    p.add_argument("--bot-option", nargs="*", help="bot option as key=value (Python literals)")
    args = p.parse_args(argv)
    bot = agents.load(args.bot, **_pairs(args.bot_option))
    start = time.perf_counter()
    scores = play_solo(args.game, bot, args.games, args.seed, **_pairs(args.config))
    se = scores.std(ddof=1) / np.sqrt(scores.size) if scores.size > 1 else float("nan")
    print(f"{args.bot} on {args.game}: mean {scores.mean():.1f} +- {se:.1f} (s.e.), sd {scores.std(ddof=1):.0f}, "
          f"{scores.size} games in {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
