"""Conformance vectors of a policy bot: positions from real games with what the bot does there.

A front-end that re-implements the observation encoder (in JavaScript, C#, ...) checks it
against these: for each example, encoding ``position`` from the seat to move must give
``observation``, and the exported network must pick ``action`` (and reproduce ``logits``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from envs.registration import game_class

from .torch_policy import PolicyBot

GAMES_PER_BATCH = 4


@dataclass
class Decision:
    """One decision of a recorded game: where it was, what the bot saw and did."""

    game_config: dict
    seed: int
    turn: int  # index of this decision in its game
    seat: int
    position: dict | None  # None where the game defines no position (Go-Stop mid-turn)
    observation: np.ndarray
    mask: np.ndarray
    action: int
    logits: np.ndarray

    def as_json(self) -> dict:
        """The example as JSON-compatible data (float32 values written as their shortest repr)."""
        return {
            "game_config": self.game_config, "seed": self.seed, "turn": self.turn, "seat": self.seat,
            "position": self.position,
            "observation": [float(str(x)) for x in self.observation.astype(np.float32)],
            "mask": [int(x) for x in self.mask],
            "action": self.action,
            "logits": [round(float(x), 6) for x in self.logits],
        }


def _position(game, state, i) -> dict | None:
    try:
        return game.to_position(state, i)
    except ValueError:  # the game defines positions only at some decisions
        return None


@torch.no_grad()
def play_games(bot: PolicyBot, game_config: dict, seeds) -> list[Decision]:
    """Every decision of the games ``seeds`` (one batch), the greedy ``bot`` in every seat."""
    game = game_class(bot.game)(**game_config)
    state = game.init(np.asarray(seeds))
    turns = np.zeros(len(seeds), dtype=np.int64)
    out: list[Decision] = []
    while not state.done.all():
        live = np.flatnonzero(~state.done)
        sub = state.take(live, check=False)
        obs, mask = game.observe(sub, check=False), game.legal_mask(sub, check=False)
        logits, _ = bot.model(torch.from_numpy(obs), torch.from_numpy(mask))
        logits = logits.numpy()
        actions = logits.argmax(axis=1)
        for j, i in enumerate(live):
            out.append(Decision(
                dict(game_config), int(seeds[i]), int(turns[i]), int(sub.to_move[j]), _position(game, sub, j),
                obs[j], mask[j], int(actions[j]), logits[j],
            ))
        turns[live] += 1
        game.step(sub, actions)
        state.put(live, sub, check=False)
    return out


def player_counts(game: str) -> range:
    """Every table size the game supports (examples cover each, so seat blocks are exercised)."""
    cls = game_class(game)
    return range(cls.min_players, cls.max_players + 1)


def collect(bot: PolicyBot, count: int = 100, seed: int = 0, game_config: dict | None = None) -> list[Decision]:
    """``count`` decisions drawn at random from real games of ``bot`` against itself.

    The games cover every supported player count with ``game_config`` (the rest of the
    config, e.g. the policy's training config); batches of games are played until there are
    at least three decisions per example to draw from.  The draw is fixed by ``seed``, and
    the result is ordered as played.
    """
    if count < 1:
        raise ValueError(f"count must be positive, got {count}")
    base = {k: v for k, v in (game_config or {}).items() if k != "num_players"}
    pool: list[Decision] = []
    batch = 0
    while len(pool) < 3 * count:
        for n in player_counts(bot.game):
            seeds = seed * 10**6 + batch * GAMES_PER_BATCH + np.arange(GAMES_PER_BATCH)
            pool += play_games(bot, {**base, "num_players": n}, seeds)
        batch += 1
    pick = np.sort(np.random.default_rng(seed).choice(len(pool), size=count, replace=False))
    return [pool[i] for i in pick]
