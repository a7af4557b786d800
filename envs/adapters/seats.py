"""Seats played by bots inside the single-agent and vector envs (shared by both)."""

from __future__ import annotations

from collections.abc import Sequence
from importlib.metadata import entry_points

import numpy as np

from ..core.game import Game
from ..core.kernels import first_bad_row


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


class OpponentError(RuntimeError):
    """An opponent bot failed while the env played its seat: it raised, or its action was
    malformed or illegal.  ``bot`` is the bot, ``seat`` its seat; the message names both.

    The envs roll the whole ``step`` / ``reset`` back before raising it, so nothing changed.
    Not a ``ValueError``: the learner's own action was fine.
    """

    def __init__(self, message: str, bot, seat: int):
        super().__init__(message)
        self.bot, self.seat = bot, seat


def bot_name(bot) -> str:
    """The name a bot goes by in messages (its ``name``, else its class name)."""
    return str(getattr(bot, "name", "") or type(bot).__name__)


def _bot_actions(game: Game, bot, seats: np.ndarray, obs, mask, rng) -> np.ndarray:
    """The bot's actions for its rows (at ``seats``), checked against ``mask``.

    Raises :class:`OpponentError` if the bot raises or returns anything but legal actions.
    """
    def fail(message: str, row: int = 0, cause=None):
        seat = int(seats[row])
        err = OpponentError(f"opponent bot {bot_name(bot)!r} (seat {seat}) {message}", bot, seat)
        raise err from cause

    try:
        chosen = bot.act(obs, mask, rng)
    except Exception as e:
        fail(f"failed: {type(e).__name__}: {e}", cause=e)
    arr = np.asarray(chosen)
    if arr.dtype.kind not in "iu" or arr.shape != (mask.shape[0],):
        fail(f"returned {arr.dtype} actions of shape {arr.shape}; a bot returns "
             f"({mask.shape[0]},) integer actions")
    arr = arr.astype(np.int64, copy=False)
    kind, i = first_bad_row(arr, mask)
    if kind:
        a = int(arr[i])
        what = f"illegal action {a} ({game.describe_action(a)})" if kind == 3 else f"out-of-range action {a}"
        fail(f"chose {what}; legal actions: {np.flatnonzero(mask[i]).tolist()}", row=i)
    return arr


def play_opponents(game: Game, state, learner_seat: np.ndarray, bots: list, rng, seating=None) -> np.ndarray:
    """Let the bots move in every game until it is the learner's turn or the game is over.

    ``learner_seat`` (B,) per game; ``bots[j]`` sits in the j-th non-learner seat (seat
    order, skipping the learner), or, with ``seating`` (B, P - 1) ints, ``bots[seating[b, j]]``
    does in game ``b``.  Mutates ``state``; returns the (B,) float32 rewards the learner
    collected meanwhile.  A bot that raises or picks a malformed or illegal action
    raises :class:`OpponentError` naming it; ``state`` may then be partly advanced (the
    envs restore their snapshot).
    """
    B = state.batch_size
    if B == 1:
        return _play_opponents_one(game, state, int(learner_seat[0]), bots, rng, seating)
    collected = np.zeros(B, dtype=np.float32)
    while True:
        pending = ~state.done & (state.to_move != learner_seat)
        if not pending.any():
            return collected
        every = bool(pending.all())  # then step the state itself, without copies
        rows = np.arange(B) if every else np.flatnonzero(pending)
        sub = state if every else state.take(rows, check=False)
        seat = sub.to_move.astype(np.int64)
        learner = learner_seat[rows]
        which = np.where(seat < learner, seat, seat - 1)
        if seating is not None:
            which = seating[rows, which]
        obs = game.observe(sub, check=False)
        mask = game.legal_mask(sub, check=False)
        if rows.size == 1 or len(bots) == 1:
            actions = _bot_actions(game, bots[int(which[0])], seat, obs, mask, rng)
        else:
            actions = np.empty(rows.size, dtype=np.int64)
            for j in np.unique(which):
                pick = which == j
                actions[pick] = _bot_actions(game, bots[j], seat[pick], obs[pick], mask[pick], rng)
        rewards = game.step(sub, actions, check=False)  # checked against the mask above
        if not every:
            state.put(rows, sub, check=False)
        collected[rows] += rewards[np.arange(rows.size), learner]


def _play_opponents_one(game: Game, state, learner: int, bots: list, rng, seating) -> np.ndarray:
    """:func:`play_opponents` for one game (a single env's step), with scalars instead of
    batch bookkeeping: the same bots see the same observations, masks and generator."""
    collected = np.zeros(1, dtype=np.float32)
    while not state.done[0]:
        seat = int(state.to_move[0])
        if seat == learner:
            break
        which = seat if seat < learner else seat - 1
        if seating is not None:
            which = int(seating[0, which])
        actions = _bot_actions(game, bots[which], state.to_move, game.observe(state, check=False),
                               game.legal_mask(state, check=False), rng)
        collected[0] += game.step(state, actions, check=False)[0, learner]
    return collected
