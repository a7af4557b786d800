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


def shipped_policies() -> list[str]:
    """Names of the trained policies shipped in ``agents/weights`` (``NAME.pt`` + ``NAME.json``)."""
    from .policy_files import WEIGHTS_DIR

    return sorted(p.stem for p in WEIGHTS_DIR.glob("*.json") if p.with_suffix(".pt").exists())


def available() -> list[str]:
    """Names of every bot ``load`` knows (heuristics, solvers and shipped policies), sorted."""
    return sorted(set(_BOTS) | set(shipped_policies()))


def load(name: str, **options) -> Bot:
    """Return a new bot instance by name; ``options`` go to its constructor.

    Shipped policies (e.g. ``yacht-ppo``) load their weights from ``agents/weights`` with
    ``torch.load(weights_only=True)``; ``greedy=False`` makes them sample.  Raises
    ``ValueError`` for an unknown name (listing the known ones).
    """
    if isinstance(name, str) and name in _BOTS:
        module, cls = _BOTS[name]
        return getattr(importlib.import_module(module), cls)(**options)
    if isinstance(name, str) and name in shipped_policies():
        from .policy_files import WEIGHTS_DIR, load_policy

        return load_policy(WEIGHTS_DIR / name, name=name, **options)
    raise ValueError(f"unknown bot {name!r}; available bots: {available()}")
