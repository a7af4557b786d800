"""Seats played by bots inside the single-agent and vector envs (shared by both): which bots sit
there.  The envs let them move through the match loop (:class:`envs.core.match.Match`), whose
:class:`~envs.core.match.OpponentError` they raise for a failing bot (importable from here too)."""

from __future__ import annotations

from collections.abc import Sequence
from importlib.metadata import entry_points

from ..core.game import Game
from ..core.match import OpponentError

__all__ = ["BOT_RESOLVERS", "OpponentError", "resolve_bot", "resolve_opponents"]


BOT_RESOLVERS = "madang.bot_resolvers"
"""The entry-point group of bot resolvers: functions ``resolve(spec) -> bot`` that turn a bot name (or
path, ``module:attr``, plain function) into a bot, raising ``ValueError`` for what they cannot.
madang's ``agents`` registers one (pyproject.toml), so the envs never import ``agents``."""


def _resolvers() -> list:
    return sorted(entry_points(group=BOT_RESOLVERS), key=lambda ep: ep.name)


def resolve_bot(spec):
    """``spec`` as a bot: itself if it has an ``act`` method, else the bot of the first resolver in
    :data:`BOT_RESOLVERS` (by entry-point name) that takes it.  ``ValueError`` when none is
    installed, or (the first resolver's) when none takes it."""
    if callable(getattr(spec, "act", None)):
        return spec
    resolvers = _resolvers()
    if not resolvers:
        raise ValueError(f"cannot resolve the bot {spec!r}: no bot resolver is installed (entry-point group "
                         f"{BOT_RESOLVERS!r}, registered by madang's agents); pass a bot object with "
                         "act(obs, mask, rng) instead")
    first = None
    for ep in resolvers:
        try:
            return ep.load()(spec)
        except ValueError as e:
            first = first or e
    raise first


def resolve_opponents(game: Game, opponents) -> list:
    """Turn the ``opponents`` config into one bot per non-learner seat.

    ``opponents`` is ``None`` (random legal play), a bot or bot name (used for every
    other seat), or a sequence of ``num_players - 1`` bots or names, assigned in seat
    order skipping the learner's seat.  Names (and paths, ``module:attr``) and plain functions
    ``(obs, mask, rng) -> actions`` become bots through :func:`resolve_bot` (agents' resolver).
    """
    n = game.num_players - 1
    if opponents is None:
        opponents = "random"
    if isinstance(opponents, (str, bytes)) or not isinstance(opponents, Sequence):
        opponents = [opponents] * n
    opponents = list(opponents)
    if len(opponents) != n:
        raise ValueError(
            f"opponents must name {n} bot(s) for {game.num_players} players, got {len(opponents)}"
        )
    bots = []
    for opp in opponents:
        bot = resolve_bot(opp)
        if hasattr(bot, "check_game"):
            bot.check_game(game.name)
        bots.append(bot)
    return bots
