"""madang bots behind one small batched interface (:class:`agents.base.Bot`).

``agents.load(name, **options)`` returns any bot by name, or a policy by path or ``module:attr``
(:mod:`agents.loaders`); ``agents.as_bot(f)`` makes a plain function ``(obs, mask, rng) ->
actions`` a bot; ``agents.available(game)`` lists the names and ``agents.catalog(game)`` the
names with their game and a one-line description.  ``docs/bots.md`` describes the protocol.
"""

from .base import BaseBot, Bot
from .loaders.python_ref import as_bot
from .registry import BotInfo, available, catalog, load

__all__ = ["BaseBot", "Bot", "BotInfo", "as_bot", "available", "catalog", "load"]
