"""The exact optimal solitaire Yacht bot (``yacht-solver``)."""

from __future__ import annotations

import numpy as np

from envs.yacht.observation import OBS_SIZE, decode_own
from envs.yacht.rules import NUM_ACTIONS, SCORE_START
from envs.yacht.scoring import MULTISET_INDEX, NUM_CATEGORIES, dice_code

from .base import BaseBot, as_batch
from .yacht_dp import solve

_BITS = 1 << np.arange(NUM_CATEGORIES)


def solver_action_values(tables, d: np.ndarray, rolls_left: np.ndarray, m: np.ndarray) -> np.ndarray:
    """(B, 44) expected score to go of every action at dice multisets ``d``, ``rolls_left``
    rerolls left and open sets ``m`` (B,) each, from the solved ``tables``
    (:func:`agents.yacht_dp.solve`); -inf for scoring a closed category and rerolling with none left."""
    B = d.shape[0]
    values = np.full((B, NUM_ACTIONS), -np.inf)
    for r in (1, 2):
        rows = np.flatnonzero(rolls_left == r)
        if rows.size:
            keeps = tables.keep_of[d[rows], 1:32]  # reroll ids 1..31
            values[rows, 1:SCORE_START] = tables.keep_values[r][m[rows, None], keeps]
    after = tables.expected[m[:, None] & ~_BITS]  # value once category c is filled
    is_open = (m[:, None] & _BITS) > 0
    values[:, SCORE_START:] = np.where(is_open, tables.scores[d] + after, -np.inf)
    return values


class YachtSolverBot(BaseBot):
    """Maximises its own expected final score exactly (the DP of :mod:`agents.yacht_dp`).

    Optimal in solitaire (expected 169.7739); in multi-player games it plays its own
    sheet the same way, ignoring the opponents.  Reads the dice, rerolls left and its
    open categories from the observation; ties go to the lowest action id.
    """

    name = "yacht-solver"
    game = "yacht"

    def __init__(self):
        self.tables = solve()

    def action_values(self, observation) -> np.ndarray:
        """(B, 44) expected final-score-to-go of every action (-inf where it makes no sense)."""
        dice, rolls_left, is_open = decode_own(observation)
        m = is_open.astype(np.int64) @ _BITS
        return solver_action_values(self.tables, MULTISET_INDEX[dice_code(dice)], rolls_left, m)

    def act(self, observation, mask, rng):
        obs, m = as_batch(observation, mask, OBS_SIZE, NUM_ACTIONS)
        values = np.where(m, self.action_values(obs), -np.inf)
        # Actions the DP rates -inf but the mask allows (never in real play) stay pickable.
        values = np.where(m & np.isneginf(values), -1e18, values)
        return values.argmax(axis=1).astype(np.int64)
