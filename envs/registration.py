"""The registry of madang games: every game's descriptor, and its Gymnasium registration.

This is the one place the rest of madang reads games from.  On ``import envs`` every
subpackage of ``envs`` (but :data:`NOT_GAMES`) with a ``spec`` module (``envs/yacht/spec.py``, holding ``SPEC``, a
:class:`~envs.core.spec.GameSpec`) is registered, so a new game's folder needs no other
edit; :func:`register_game` adds a game defined anywhere else (a plugin, a test game).
Registering a game also registers its Gymnasium id (``madang/Yacht-v0``).
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil

import gymnasium

from .core.spec import GameSpec

GAMES: dict[str, GameSpec] = {}
"""Game name -> its descriptor, for every registered game (in registration order: the games
under ``envs`` by name, then those added by :func:`register_game`).  Read it; change it only
through :func:`register_game`."""


def game_spec(name: str) -> GameSpec:
    """The descriptor of the registered game ``name`` (``"yacht"``, ...)."""
    try:
        return GAMES[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown game {name!r}; known games: {sorted(GAMES)}") from None


def game_class(name: str):
    """The rules class of the registered game ``name`` (``"yacht"``, ...)."""
    return game_spec(name).game_cls


def make_env(game: str, **config):
    """Gymnasium entry point: the single-agent env of ``game``."""
    from .adapters.gym_env import MadangEnv

    return MadangEnv(game_class(game), **config)


def make_vector_env(game: str, num_envs: int = 1, **config):
    """Gymnasium vector entry point: the batched vector env of ``game``."""
    from .adapters.vector_env import MadangVectorEnv

    config.pop("render_mode", None)
    return MadangVectorEnv(game_class(game), num_envs=num_envs, **config)


def register_game(spec: GameSpec) -> None:
    """Register a game: add ``spec`` to :data:`GAMES` and its ``env_id`` to Gymnasium.

    Registering the same descriptor again does nothing.  ``ValueError`` (nothing registered)
    for anything but a :class:`GameSpec`, or a name or env id another registered game holds.
    """
    if not isinstance(spec, GameSpec):
        raise ValueError(f"register_game takes a GameSpec, got {type(spec).__name__}")
    held = GAMES.get(spec.name)
    if held is not None:
        if held is spec:
            return
        raise ValueError(f"a game named {spec.name!r} is registered already ({held.game_cls.__qualname__})")
    for other in GAMES.values():
        if other.env_id == spec.env_id:
            raise ValueError(f"env id {spec.env_id!r} belongs to the registered game {other.name!r}")
    if spec.env_id in gymnasium.registry and gymnasium.registry[spec.env_id].entry_point is not make_env:
        raise ValueError(f"env id {spec.env_id!r} is registered with Gymnasium by something else")
    GAMES[spec.name] = spec
    if spec.env_id not in gymnasium.registry:
        gymnasium.register(
            id=spec.env_id,
            entry_point=make_env,
            vector_entry_point=make_vector_env,
            kwargs={"game": spec.name},
            disable_env_checker=True,  # conformance tests run gymnasium's check_env; users can opt back in
        )


NOT_GAMES = ("core", "adapters")
"""The subpackages of ``envs`` that hold no game (``envs/core/spec.py`` defines :class:`GameSpec`)."""


def unregister_game(name: str) -> GameSpec:
    """Remove the game ``name`` that :func:`register_game` added (a plugin unloading, a test's
    own game) and its Gymnasium id; returns its descriptor.  The games under ``envs`` stay:
    ``ValueError`` for them and for an unknown name."""
    spec = game_spec(name)
    if name in game_packages():
        raise ValueError(f"{name!r} is a game of the envs package; only games added by register_game leave")
    del GAMES[name]
    gymnasium.registry.pop(spec.env_id, None)
    return spec


def game_packages() -> list[str]:
    """The subpackages of ``envs`` that hold a game (a ``spec`` module), by name."""
    from . import __path__ as envs_path

    found = []
    for info in sorted(pkgutil.iter_modules(envs_path), key=lambda m: m.name):
        if not info.ispkg or info.name in NOT_GAMES:
            continue
        if importlib.util.find_spec(f"{__package__}.{info.name}.spec") is not None:
            found.append(info.name)
    return found


def register_all() -> None:
    """Register every game under ``envs`` (each package's ``spec.SPEC``); idempotent."""
    for package in game_packages():
        spec = getattr(importlib.import_module(f"{__package__}.{package}.spec"), "SPEC", None)
        if not isinstance(spec, GameSpec):
            raise ValueError(f"envs/{package}/spec.py must define SPEC, a GameSpec")
        register_game(spec)
