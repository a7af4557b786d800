"""madang bots behind one small batched interface (:class:`agents.base.Bot`).

``agents.load(name, **options)`` returns any bot by name; ``agents.available()``
lists the names.
"""

from .base import Bot
from .registry import available, load

__all__ = ["Bot", "available", "load"]
