"""Load any madang bot by name: ``agents.load("yacht-solver")``."""

from __future__ import annotations

import importlib

from .base import Bot

_BOTS = {
    "random": ("agents.random_bot", "RandomBot"),
    "gostop-greedy": ("agents.gostop_greedy", "GoStopGreedyBot"),
    "rainbow-greedy": ("agents.rainbow_greedy", "RainbowGreedyBot"),
    "rainbow-simple": ("agents.rainbow_simple", "RainbowSimpleBot"),
    "yacht-greedy": ("agents.yacht_greedy", "YachtGreedyBot"),
    "yacht-solver": ("agents.yacht_solver", "YachtSolverBot"),
}
"""Bot name -> (module, class); classes are imported only when loaded."""


def available() -> list[str]:
    """Names of every bot ``load`` knows, sorted."""
    return sorted(_BOTS)


def load(name: str, **options) -> Bot:
    """Return a new bot instance by name; ``options`` go to its constructor.

    Raises ``ValueError`` for an unknown name (listing the known ones).
    """
    if not isinstance(name, str) or name not in _BOTS:
        raise ValueError(f"unknown bot {name!r}; available bots: {available()}")
    module, cls = _BOTS[name]
    return getattr(importlib.import_module(module), cls)(**options)
