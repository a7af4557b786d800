"""madang bots behind one small batched interface (:class:`agents.base.Bot`).

``agents.load(name, **options)`` returns any bot by name; ``agents.available(game)`` lists
the names and ``agents.catalog(game)`` the names with their game and a one-line description.
"""

from .base import BaseBot, Bot
from .registry import BotInfo, available, catalog, load

__all__ = ["BaseBot", "Bot", "BotInfo", "available", "catalog", "load"]
