"""Gymnasium registration of every madang game (runs on ``import envs``)."""

from __future__ import annotations

import gymnasium

GAMES = {
    "yacht": "envs.yacht.rules:Yacht",
    "rainbow_dice": "envs.rainbow_dice.rules:RainbowDice",
    "gostop": "envs.gostop.rules:GoStop",
}
"""Game module name -> ``module:Class`` of its batched rules."""


def game_class(name: str):
    """The rules class of the game module ``name`` (``"yacht"``, ...)."""
    import importlib

    if name not in GAMES:
        raise ValueError(f"unknown game {name!r}; known games: {sorted(GAMES)}")
    module, cls = GAMES[name].split(":")
    return getattr(importlib.import_module(module), cls)


def make_env(game: str, **config):
    """Gymnasium entry point: the single-agent env of ``game``."""
    from .adapters.gym_env import MadangEnv

    return MadangEnv(game_class(game), **config)


def make_vector_env(game: str, num_envs: int = 1, **config):
    """Gymnasium vector entry point: the batched vector env of ``game``."""
    from .adapters.vector_env import MadangVectorEnv

    config.pop("render_mode", None)
    return MadangVectorEnv(game_class(game), num_envs=num_envs, **config)


def register_all() -> None:
    """Register ``madang/<Game>-v0`` for every game (idempotent)."""
    for name in GAMES:
        cls = game_class(name)
        if cls.env_id in gymnasium.registry:
            continue
        gymnasium.register(
            id=cls.env_id,
            entry_point=make_env,
            vector_entry_point=make_vector_env,
            kwargs={"game": name},
            disable_env_checker=True,  # conformance tests run gymnasium's check_env; users can opt back in
        )
