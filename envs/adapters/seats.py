"""Seats played by bots inside the single-agent and vector envs (shared by both)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..core.game import Game


def resolve_opponents(game: Game, opponents) -> list:
    """Turn the ``opponents`` config into one bot per non-learner seat.

    ``opponents`` is ``None`` (random legal play), a bot or bot name (used for every
    other seat), or a sequence of ``num_players - 1`` bots or names, assigned in seat
    order skipping the learner's seat.  Names are resolved with ``agents.load``.
    """
    from agents import load  # bots live in the agents package; imported lazily

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
        bot = load(opp) if isinstance(opp, str) else opp
        if not callable(getattr(bot, "act", None)):
            raise ValueError(f"opponent {opp!r} is not a bot (it has no act method)")
        if hasattr(bot, "check_game"):
            bot.check_game(game.name)
        bots.append(bot)
    return bots


def play_opponents(game: Game, state, learner_seat: np.ndarray, bots: list, rng, seating=None) -> np.ndarray:
    """Let the bots move in every game until it is the learner's turn or the game is over.

    ``learner_seat`` (B,) per game; ``bots[j]`` sits in the j-th non-learner seat (seat
    order, skipping the learner), or, with ``seating`` (B, P - 1) ints, ``bots[seating[b, j]]``
    does in game ``b``.  Mutates ``state``; returns the (B,) float32 rewards the learner
    collected meanwhile.
    """
    B = state.batch_size
    collected = np.zeros(B, dtype=np.float32)
    while True:
        pending = ~state.done & (state.to_move != learner_seat)
        if not pending.any():
            return collected
        rows = np.flatnonzero(pending)
        seat = state.to_move[rows].astype(np.int64)
        which = np.where(seat < learner_seat[rows], seat, seat - 1)
        if seating is not None:
            which = seating[rows, which]
        actions = np.empty(rows.size, dtype=np.int64)
        sub = state.take(rows)
        obs = game.observe(sub)
        mask = game.legal_mask(sub)
        for j in np.unique(which):
            pick = which == j
            actions[pick] = bots[j].act(obs[pick], mask[pick], rng)
        rewards = game.step(sub, actions)
        state.put(rows, sub)
        collected[rows] += rewards[np.arange(rows.size), learner_seat[rows]]
