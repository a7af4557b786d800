"""What the front-ends read from the game descriptors (:class:`envs.core.spec.GameSpec`).

The CLI, the demo, terminal and web play take every per-game choice from here or from the
descriptor itself (``envs.game_spec(name)``), never from tables keyed by game names, so a game
registered with ``envs.register_game`` plays everywhere with no edit to the front-ends.
"""

from __future__ import annotations

import importlib

import agents
from envs.registration import game_spec

FALLBACK_BOT = "random"
"""The opponent of a game whose descriptor names no ``default_bot`` (it plays any game)."""


def default_bot(game: str) -> str:
    """The opponent ``game`` gets when none is named: its descriptor's ``default_bot``, else
    :data:`FALLBACK_BOT`.  ``ValueError`` for an unknown game."""
    return game_spec(game).default_bot or FALLBACK_BOT


def game_bots(game: str) -> list[str]:
    """The bots a person may seat at ``game``: the catalog's (``agents.available(game)``), then
    those its descriptor names that the catalog does not hold (a game's own bot, named by
    ``module:attr``), in descriptor order.  ``ValueError`` for an unknown game."""
    spec, catalog = game_spec(game), agents.available(game)
    named = (spec.default_bot, *spec.demo_bots, spec.test_bot)
    return catalog + [b for b in dict.fromkeys(named) if b is not None and b not in catalog]


def demo_bots(game: str) -> list[str]:
    """The bots a demo of ``game`` seats by default, one per seat: its descriptor's
    ``demo_bots``, else :func:`default_bot` in each of its fewest seats."""
    spec = game_spec(game)
    return list(spec.demo_bots) or [default_bot(game)] * spec.game_cls.min_players


def hook(ref: str | None):
    """The function a descriptor field names as ``module:attr`` (``demo_text``, ...); None for None."""
    if ref is None:
        return None
    module, attr = ref.split(":")
    return getattr(importlib.import_module(module), attr)
