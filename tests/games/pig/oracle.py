"""Pig's former numpy rules, the oracle of its compiled ones (``tests/test_pig.py`` plays both
with the same seeds and actions and compares every mask, observation, reward and state)."""

from __future__ import annotations

import numpy as np

from envs.core import rng as _rng
from envs.core.game import Game

from .rules import HOLD, NUM_ACTIONS, OBS_SIZE, ROLL, Pig


class PigNumpy(Pig):
    """:class:`~.rules.Pig` with its masks, steps and observations in plain numpy over the batch."""

    def _legal_mask(self, state):
        mask = np.zeros((state.batch_size, NUM_ACTIONS), dtype=bool)
        mask[:, ROLL] = ~state.done
        mask[:, HOLD] = ~state.done & (state.turn_total > 0)
        return mask

    def _apply(self, state, actions):
        P, rows = self.num_players, np.arange(state.batch_size)
        rewards = np.zeros((state.batch_size, P), dtype=np.float32)
        roll = actions == ROLL
        die = (_rng.draw_index(state.rng_key, state.rng_counter, 6) + 1).astype(np.int16)
        state.rng_counter[roll] += np.uint64(1)
        bust, good = roll & (die == 1), roll & (die != 1)
        state.turn_total[bust] = 0
        state.turn_total[good] += die[good]
        state.last_roll[roll] = die[roll]
        mover = state.to_move.astype(np.int64)
        reached = good & (state.scores[rows, mover] + state.turn_total >= self.target)
        bank = ~roll | reached
        state.scores[rows[bank], mover[bank]] += state.turn_total[bank]
        state.turn_total[bank] = 0
        state.last_roll[~roll] = 0
        won = bank & (state.scores[rows, mover] >= self.target)
        passes = bust | (~roll & ~won)
        state.to_move[passes] = ((mover[passes] + 1) % P).astype(np.int8)
        state.done[won] = True
        if won.any():
            rewards[won] = self.win_rewards(state.scores[won])
        return rewards

    _apply_rows = Game._apply_rows  # a copy of the rows, stepped by _apply

    def _observe(self, state, seats):
        seats = state.to_move.astype(np.int64) if seats is None else seats
        B, P, T = state.batch_size, self.num_players, self.target
        out = np.zeros((B, OBS_SIZE), dtype=np.float32)
        rows = np.arange(B)
        for k in range(P):  # k = 0: the observer, then the others in seat order
            out[:, k] = state.scores[rows, (seats + k) % P] / (T + 5)
        out[:, 4] = state.turn_total / T
        out[rows, 5 + (state.to_move - seats) % P] = 1.0
        out[rows, 9 + state.last_roll] = 1.0
        out[:, 16] = T / 100
        return out
