"""madang games: batched rules cores and their Gymnasium / PettingZoo adapters.

Importing ``envs`` registers ``madang/Yacht-v0`` (and the other games) with
Gymnasium; ``gymnasium.make("envs:madang/Yacht-v0")`` imports it on the fly.
"""

from .registration import GAMES, game_class, game_spec, register_all, register_game, unregister_game

register_all()

__all__ = ["GAMES", "game_class", "game_spec", "register_all", "register_game", "unregister_game"]
